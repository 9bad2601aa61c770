"""Route extension (issue #7, 1833NE): a route may be lengthened past the stops its train
counts, over track no other route of the corporation uses and through blocked cities, to
collect a cross-connection bonus (rules summary, "Querverbindungsboni").  Hand-made stop
graphs with a known optimum, then one position on the real map checked end to end."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engine import actions as A
from engine.errors import GameError
from engine.routing.graph import Link, RouteGraph
from engine.routing.router import best_routes
from engine.rules import Rules
from engine.titles.g1833ne.game import G1833NE
from tests.g1833ne.test_1833ne import _operating, new
from tests.positions import rejected, state

# ---------------------------------------------------------------------------- hand-made graphs
# name: (kind, value, station of X, a route may pass through)
_STOPS = {
    "S": ("city", 20, True, True),
    "B": ("city", 30, False, True),  # "Boston": a cross bonus with M once it is a counted stop
    "X": ("town", 10, False, True),
    "Y": ("city", 10, False, False),  # full of other corporations' stations
    "M": ("offboard", 40, False, False),  # "Montreal"
    "Z": ("town", 10, False, True),
    "T": ("city", 20, True, True),
}
_BONUS = 100  # B-M


def _toy(edges: list[tuple[str, str]], shared: dict[int, int] | None = None) -> tuple[Any, RouteGraph]:
    """Stops ``_STOPS``, one link per edge with a track bit of its own; ``shared``: edge index
    -> another edge whose track bit it also uses (two pieces of track over one hex side)."""
    g = RouteGraph("X")
    for name, (kind, value, tok, through) in _STOPS.items():
        i = g.add_stop((name, 0), kind, value, tok, through)
        g.reachable[i] = True
    for b, (x, y) in enumerate(edges):
        u, v = g.index[(x, 0)], g.index[(y, 0)]
        bits = (b, *([shared[b]] if shared and b in shared else []))
        mask = sum(1 << i for i in set(bits))
        g.adj[u].append(Link(u, v, mask, 0, (), (x, y), False, False, tuple(sorted(set(bits)))))
        g.adj[v].append(Link(v, u, mask, 0, (), (y, x), False, False, tuple(sorted(set(bits)))))

    class Toy:
        data = object()
        rules = Rules()  # a title that sets no optional constant
        scores_routes_per_train = False
        extends_routes = True

        def corp(self, sym: str) -> str:
            return sym

        def route_revenue(self, corp: str, stops: list[tuple[str, int]]) -> int:
            names = {s[0] for s in stops}
            return sum(_STOPS[s[0]][1] for s in stops) + (_BONUS if {"B", "M"} <= names else 0)

        def route_pricer(self, corp: str) -> Any:
            return lambda stops: self.route_revenue(corp, stops)

        def extension_gains(self, corp: str, stops: list[tuple[str, int]]) -> dict[str, int]:
            names = {s[0] for s in stops}
            return {"M": _BONUS} if "B" in names and "M" not in names else {}

    return Toy(), g


def _train(tid: str, reach: int) -> Any:
    return SimpleNamespace(id=tid, name=str(reach), distance=reach)


def _solve(edges: list[tuple[str, str]], reaches: list[int], shared: dict[int, int] | None = None) -> Any:
    game, graph = _toy(edges, shared)
    sol = best_routes(game, "X", trains=[_train(f"t{i}", r) for i, r in enumerate(reaches)], graph=graph,
                      time_budget=5.0)
    assert sol.optimal
    assert sum(r["revenue"] for r in sol.routes) == sol.total
    return sol


def test_a_two_train_reaches_the_bonus_through_a_blocked_city() -> None:
    """S-B earns 50; extended B-X-Y-M (Y full of other stations, M an off-board) it collects
    the B-M bonus: 150.  The extension's stops earn nothing."""
    sol = _solve([("S", "B"), ("B", "X"), ("X", "Y"), ("Y", "M")], [2])
    assert sol.total == 150
    (route,) = sol.routes
    assert route["hexes"] == ["S", "B"] or route["hexes"] == ["B", "S"]
    assert route["extension"] == [["B", "X"], ["X", "Y"], ["Y", "M"]]


def test_no_extension_when_no_track_leads_to_the_bonus() -> None:
    """Without track from B towards M the bonus cannot be collected."""
    sol = _solve([("S", "B"), ("B", "X"), ("Y", "M")], [2])
    assert sol.total == 50 and "extension" not in sol.routes[0]


def test_extension_and_another_route_may_not_share_track() -> None:
    """Two ways from B to M: B-Z-M and B-X-Y-M.  The 3-train's best is T-Z-M (70), on Z-M;
    the 2-train's extension then takes the other way: 150 + 70."""
    edges = [("S", "B"), ("B", "Z"), ("Z", "M"), ("T", "Z"), ("B", "X"), ("X", "Y"), ("Y", "M")]
    sol = _solve(edges, [2, 3])
    assert sol.total == 220
    runs = {r["train"]: r for r in sol.routes}
    assert runs["t0"]["extension"] == [["B", "X"], ["X", "Y"], ["Y", "M"]]
    assert set(runs["t1"]["hexes"]) == {"T", "Z", "M"}


def test_with_one_way_to_the_bonus_the_longer_train_takes_the_extension() -> None:
    """Only B-Z-M leads to M.  The 3-train counts S-B-Z and extends from Z to M (160) while
    the 2-train runs T-Z (30): 190, more than S-B extended (150) with T-Z (30), or S-B (50)
    with T-Z-M (70)."""
    sol = _solve([("S", "B"), ("B", "Z"), ("Z", "M"), ("T", "Z")], [2, 3])
    assert sol.total == 190
    runs = {r["train"]: r for r in sol.routes}
    assert runs["t1"]["extension"] == [["Z", "M"]] and set(runs["t1"]["hexes"]) == {"S", "B", "Z"}
    assert set(runs["t0"]["hexes"]) == {"T", "Z"}


def test_two_extensions_compete_for_one_piece_of_track() -> None:
    """S-B (2-train) and T-X-B (3-train) both end in B and could each be extended over the
    only track to M, B-Z-M; one of them gets it."""
    edges = [("S", "B"), ("B", "Z"), ("Z", "M"), ("T", "X"), ("X", "B")]
    sol = _solve(edges, [2, 3])
    assert sol.total == 50 + 100 + 60  # S-B extended, T-X-B (60) without extension
    assert sum(1 for r in sol.routes if r.get("extension")) == 1


def test_an_extension_may_not_reuse_its_own_track() -> None:
    """B-X-M is shorter, but X-M crosses the hex side B-X already uses; the extension must go
    B-Z-X-M (the breadth-first shortcut cannot decide this; the exhaustive search does)."""
    edges = [("S", "B"), ("B", "X"), ("X", "M"), ("B", "Z"), ("Z", "X")]
    sol = _solve(edges, [2], shared={2: 1})
    assert sol.total == 150
    assert sol.routes[0]["extension"] == [["B", "Z"], ["Z", "X"], ["X", "M"]]
    assert _solve(edges[:3], [2], shared={2: 1}).total == 50  # no other way: no bonus


# ---------------------------------------------------------------------------- the real map
def _hartford() -> G1833NE:
    """HR (Hartford C24, New Haven C26) with a 3+3 train in phase III; track from Hartford over
    Springfield (D21) and Fitchburg (E20, an FRR station) to Boston (G22, B&L), and from New
    Haven over Bridgeport (B27) to New York (A28).  From random play."""
    g = new(4)
    _operating(g, "HR", 100)
    for hid, tile, rot in [("B27", "4-2", 1), ("C24", "15-1", 4), ("C26", "619-2", 3), ("D21", "619-1", 2),
                           ("D23", "25-1", 3), ("E20", "619-0", 5), ("F21", "4-1", 2), ("G22", "N23-0", 4)]:
        g.board.lay(hid, tile, rot)
    hr = g.corporations["HR"]
    for sym, hid in (("HR", "C26"), ("FRR", "E20"), ("B&L", "G22")):
        g.board.place_token(hid, 0, sym)
        if sym == "HR":
            tok = next(t for t in hr.tokens if not t.used)
            tok.used, tok.hex, tok.city = True, hid, 0
    g.change_phase(g.phase_index_of("III"))
    train = g.trains["4/7-2"]
    g.give_train(train, "HR")
    side = next(s for s in g.sides[train.id] if s.name == "3+3")
    g.chosen[train.id], train.name, train.distance = side, side.name, side.max_stops
    g.board.changed()
    g.round.state["tiles_laid"] = 2
    return g


def test_only_cross_bonuses_are_reached_by_extension() -> None:
    """A route through Boston may be extended to Ogdensburg (A6) or, once it pays, New York
    (A28) for a cross bonus, never to Montreal or Portland: those are direct bonuses, earned
    only with both places among the counted stops."""
    g = new()
    _operating(g, "BW", 100)
    bw = g.corporations["BW"]
    boston = [("G22", 0), ("F21", 0)]
    assert g.extension_gains(bw, boston) == {"A6": 40}  # New York pays nothing in phase I
    g.change_phase(g.phase_index_of("III"))
    assert g.extension_gains(bw, boston) == {"A6": 60, "A28": 50}
    assert g.bonuses(bw, boston, reached="B3") == g.bonuses(bw, boston)  # direct: no
    assert g.extension_gains(bw, [("B3", 0), ("C4", 0)]) == {"I14": 100}  # Montreal-Portland


def test_real_map_route_extended_to_boston_for_the_new_york_bonus() -> None:
    """HR's 3+3 runs Hartford-New Haven-Bridgeport-New York and extends from Hartford to
    Boston (through Fitchburg, FRR's station) for the New York-Boston cross bonus."""
    g = _hartford()
    sol = g.best_route_solution("HR", 10.0)
    assert sol.optimal
    (route,) = sol.routes
    assert route["hexes"][-1] == "A28" and route["extension"][-1][-1] == "G22"
    hr = g.corporations["HR"]
    stops = g.check_routes(hr, [{**route, "extension": [], "revenue": None}])[0]["stops"]
    gain = g.provisional.bonuses[4].value_in("III")  # New York-Boston (a provisional value)
    assert g.extension_gains(hr, stops) == {"G22": gain}
    plain = g.stops_revenue(hr, g.trains[route["train"]], stops)
    assert route["revenue"] == plain + gain == sol.total
    g.process(A.RunRoutes(entity="HR", entity_type="corporation", routes=tuple(sol.routes)))
    assert g.round.state["routes"][0]["revenue"] == plain + gain


@pytest.mark.parametrize(("change", "match"), [
    (lambda r: {**r, "extension": r["extension"][:-1]}, "completes no cross-connection bonus"),
    (lambda r: {**r, "extension": r["extension"][1:]}, "does not continue the route"),
    (lambda r: {**r, "extension": [*r["extension"], ["G22", "F21"]]}, "visits a stop twice"),
])
def test_real_map_bad_extensions_are_refused(change: Any, match: str) -> None:
    """An extension must end where it completes a cross bonus, continue the route from one
    of its ends and keep the route a simple line; a refused run changes nothing."""
    g = _hartford()
    route = g.best_route_solution("HR", 10.0).routes[0]
    rejected(g, A.RunRoutes(entity="HR", entity_type="corporation", routes=(change(route),)), match)


def test_extension_may_not_be_claimed_where_the_title_has_none() -> None:
    """1856 has no route extension: BBG's legal J13-J15 run with an extension is refused, and
    the state is unchanged."""
    from tests.positions import bbg_running, route, run

    g = bbg_running()
    legal = route("2-0", ["J13", "J15"], 40)
    rejected(g, A.RunRoutes(entity="BBG", entity_type="corporation",
                            routes=({**legal, "extension": [["J15", "K16"]]},)), "cannot be extended")
    run(g, "BBG", legal)


def test_a_refused_run_leaves_the_state_as_it_was() -> None:
    g = _hartford()
    before = state(g)
    route = g.best_route_solution("HR", 10.0).routes[0]
    with pytest.raises(GameError):
        g.process(A.RunRoutes(entity="HR", entity_type="corporation",
                              routes=({**route, "revenue": route["revenue"] + 10},)))
    assert state(g) == before
