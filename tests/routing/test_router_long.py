"""The router lists long routes only where they can pay (engine/routing/long.py): with one train
reaching further than the others, the best total is the one found by listing every route (and the
one found following each way along parallel track on its own), and a search cut short by its
budget says so (the routes summary counts it as unproven)."""

from __future__ import annotations

import random

import pytest

from bot.tools.routes import RouteCase, summarize
from engine.game import Game
from engine.routing import listing
from engine.routing import router as R
from engine.titles.registry import new_game
from tests.fixture_util import before_run

CORP = "CA"


def _brown_map(seed: int, trains: tuple[str, ...], stations: int = 3, share: float = 0.5) -> Game:
    """A ``share`` of the map's plain and city hexes in brown track and brown cities, each tile
    turned to join most of its laid neighbours, ``stations`` stations of CA, ``trains``."""
    rng = random.Random(seed)
    game = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    board = game.board
    game.phase_index = len(game.phases) - 1
    track = ["39", "40", "41", "42", "43", "44", "45", "46", "47", "70"]
    for name in ("63", *track):
        board.supply[name] = [f"{name}-{i}" for i in range(300)]
    todo = [h.id for h in board.hexes.values()
            if h.color == "white" and not h.laid and len(h.tile.nodes) <= 1
            and all(n.kind == "city" for n in h.tile.nodes)]
    todo = sorted(todo)
    rng.shuffle(todo)
    todo = todo[: int(len(todo) * share)]
    pending = set(todo)
    cities = []
    for hid in todo:
        pending.discard(hid)
        name = "63" if board.hexes[hid].tile.cities else rng.choice(track)
        tile = board.tile_for(name)
        best, best_score = 0, -99.0
        for rot in range(6):
            score = rng.random() * 0.1
            for edge in tile.with_rotation(rot).exits:
                other = board.hexes[hid].neighbors.get(edge)
                if other is None:
                    score -= 1
                elif other in pending:
                    score += 0.5
                elif (edge + 3) % 6 in board.hexes[other].tile.exits:
                    score += 1
            if score > best_score:
                best, best_score = rot, score
        board.lay(hid, board.supply[name][0], best)
        if name == "63":
            cities.append(hid)
    rng.shuffle(cities)
    for hid in cities[:stations]:
        board.place_token(hid, 0, CORP)
    for name in trains:
        train = next(t for t in game.trains.values() if t.name == name and t.owner == "depot")
        game.give_train(train, CORP)
    return game


# (six stations on a map all of brown track: many links of a stop share track, so a partial route
# often cannot go on to some of the stops next to its open end)
@pytest.mark.parametrize(("seed", "share", "stations"), [
    (1, 0.8, 3), (2, 0.8, 3), (3, 0.8, 3), (2, 1.0, 3), (4, 0.9, 3), (5, 0.9, 3),
    (6, 1.0, 6), (7, 1.0, 6), (11, 1.0, 6), (12, 1.0, 6)])
@pytest.mark.parametrize("trains", [("D", "5"), ("D", "6", "5"), ("D", "4", "4")])
def test_listing_only_paying_long_routes_finds_the_same_best_total(
        seed: int, share: float, stations: int, trains: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    game = _brown_map(seed, trains, stations=stations, share=share)
    fast = R.best_routes(game, CORP, time_budget=60.0)
    monkeypatch.setattr(R, "_split_listing", lambda *args: None)
    full = R.best_routes(game, CORP, time_budget=60.0)
    assert fast.optimal and full.optimal
    assert fast.total == full.total
    assert R.check_routes(game, CORP, fast.routes) is None
    assert sum(r["revenue"] for r in fast.routes) == fast.total


def test_routes_over_the_same_stops_differing_only_in_track_behind_them_are_followed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 1836Jr56's MESS runs a 5, a 6 and a D on a map with many parallel links: partial D routes
    # over the same stops to the same end whose track differs only on links between stops they
    # have visited (and that leave the other trains the same candidates or more) go on alike
    game, sym = before_run("generated/1836jr56", "1836jr56_p3_s205_diesel_variant", 1041)
    assert sorted(t.name for t in game.runnable_trains(game.corp(sym))) == ["5", "6", "D"]
    once = R.best_routes(game, sym, time_budget=60.0)
    monkeypatch.setattr(listing, "behind", lambda *args: False)
    each = R.best_routes(game, sym, time_budget=60.0)
    assert once.optimal and each.optimal
    assert once.total == each.total
    assert once.candidates < each.candidates
    assert R.check_routes(game, sym, once.routes) is None


def test_summary_counts_positions_not_proven_optimal() -> None:
    proven = R.RouteSolution("CA", total=100, optimal=True, elapsed_ms=1.0)
    cut = R.RouteSolution("CA", total=90, optimal=False, elapsed_ms=1000.0, stopped="time budget spent")
    cases = [RouteCase(1, "CA", 100, proven, None, None), RouteCase(2, "CA", 80, cut, None, None)]
    assert summarize(cases)["unproven"] == 1

