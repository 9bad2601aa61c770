"""1833NE routes: stop values by phase, train-side scoring, connection bonuses, ferries,
the P4/P6 off-board "stations", route checking and a best-routes search for random play.

The shared exact router (:mod:`engine.router`) scores routes per train through
``G1833NE.route_revenue_for_train`` (:func:`route_revenue` with the train), on
:func:`station_graph`; ``G1833NE.best_routes`` uses it.  :func:`best_routes` here is the older
bounded search, kept for the moves the engine makes itself (``deterministic``: a replay must
repeat them, which a time budget cannot promise).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..router import _route_order, _side_keys
from ..router_graph import RouteGraph, build_graph
from .g1833ne_trains import count_revenue

if TYPE_CHECKING:
    from ..entities import Corporation, Train
    from .g1833ne import G1833NE

NodeRef = tuple[str, int]


def stop_value(game: G1833NE, ref: NodeRef) -> int:
    """A stop's revenue now: printed revenue, or an off-board's value for the phase name
    (keys like ``"I/II"``)."""
    rev = game.board.node(ref).revenue
    if isinstance(rev, int):
        return rev
    name = game.phase["name"]
    for key, value in rev.items():
        if name in key.split("/"):
            return value
    return 0


def virtual_station_hexes(game: G1833NE, corp: Corporation) -> list[str]:
    """Off-boards the corporation uses "as if it had a marker there" (P4: A6, P6: A12)."""
    out = []
    d = game.data
    if game.owns_company(corp, "P4") and game.company_ability_live("P4"):
        out.append(d.A6_HEX)
    if game.owns_company(corp, "P6"):
        out.append(d.A12_HEX)
    return out


def is_station(game: G1833NE, corp: Corporation, ref: NodeRef) -> bool:
    h = game.board.hexes[ref[0]]
    if corp.sym in (h.tokens.get(ref[1]) or []):
        return True
    return ref[0] in virtual_station_hexes(game, corp) and game.board.node(ref).kind == "offboard"


def bonuses(game: G1833NE, corp: Corporation, stops: list[NodeRef]) -> int:
    """Connection bonuses and ferries a route with these stops earns."""
    d = game.data
    hexes = {s[0] for s in stops}
    phase = game.phase["name"]
    total = 0
    for b in d.CONNECTION_BONUS_TABLE:
        a, c = b["between"]
        if a in hexes and c in hexes:
            value = b["by_phase"].get(phase, 0)
            if d.A6_HEX in (a, c) and phase in d.P4_DOUBLES_IN_PHASES and game.owns_company(corp, "P4"):
                value *= 2  # P4 doubles the bonus for a route from A6 to Boston in phases I-III
            total += value
    for hid, owner in game.ferries.items():
        if owner == corp.sym and hid in hexes:
            total += game.ferry_value(corp, hid)
    return total


def route_revenue(game: G1833NE, corp: Corporation, train: Train | None, stops: list[NodeRef]) -> int:
    """Revenue of one route; GameError when it is illegal for this train or corporation."""
    d = game.data
    hexes = [s[0] for s in stops]
    values = [stop_value(game, s) for s in stops]
    if d.A12_HEX in hexes:
        if not game.owns_company(corp, "P6"):
            raise GameError(f"only the owner of P6 may run to {d.A12_HEX}")
        if d.A12_NEEDS_HEX not in hexes:
            values[hexes.index(d.A12_HEX)] = 0  # A12 pays only on a route through Montreal
    if not any(is_station(game, corp, s) for s in stops):
        raise GameError(f"the route does not include a {corp.sym} station")
    if train is None:
        return sum(values) + bonuses(game, corp, stops)
    side = game.train_side(train)
    kinds = [game.board.node(s).kind for s in stops]
    tokened = [is_station(game, corp, s) for s in stops]
    return count_revenue(side, values, kinds, tokened) + bonuses(game, corp, stops)


def check_routes(game: G1833NE, corp: Corporation, routes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validate submitted routes (18xx.games RunRoutes shape); returns the scored routes."""
    board = game.board
    seen: set[str] = set()
    paths_used: set[tuple[str, int]] = set()
    sides_used: set[tuple[str, int]] = set()
    out = []
    runnable = {t.id for t in game.runnable_trains(corp)}
    for route in routes:
        train = game.train(str(route.get("train")))
        if train.id not in runnable:
            raise GameError(f"{corp.sym} cannot run train {train.id}")
        if train.id in seen:
            raise GameError(f"train {train.id} runs twice")
        seen.add(train.id)
        stops, paths = _route_order(game, route)
        counted = [s for s in stops if board.node(s).kind != "junction"]
        if not counted:
            continue
        if len(counted) < 2:
            raise GameError("a route needs at least 2 stops")
        sides = _side_keys(game, paths)
        if len(set(paths)) != len(paths) or len(set(sides)) != len(sides):
            raise GameError(f"{train.id}'s route uses the same track twice")
        if paths_used & set(paths) or sides_used & set(sides):
            raise GameError(f"{train.id}'s route shares track with another route")
        paths_used |= set(paths)
        sides_used |= set(sides)
        for s in counted[1:-1]:
            node = board.node(s)
            if node.kind == "offboard":
                raise GameError(f"the route passes through the off-board {s[0]}")
            if node.kind == "city" and board.city_blocks(board.hexes[s[0]], s[1], corp.sym):
                raise GameError(f"the route passes through {s[0]}, full of other stations")
        for hid, pi in paths:
            path = board.hexes[hid].tile.paths[pi]
            if path.terminal and not all((hid, n) in (counted[0], counted[-1]) for n in path.node_indexes):
                raise GameError(f"the route runs on past the terminal track in {hid}")
        revenue = route_revenue(game, corp, train, counted)
        claimed = route.get("revenue")
        if claimed is not None and claimed != revenue:
            raise GameError(f"{train.id}'s route is worth {game.fmt(revenue)}, not {game.fmt(claimed)}")
        out.append({"train": train.id, "revenue": revenue, "stops": counted, "hexes": route.get("hexes", [])})
    return out


# ---------------------------------------------------------------------------- search
def station_graph(game: G1833NE, corp: Corporation) -> RouteGraph:
    """The shared route graph with the P4/P6 off-boards counted as the corporation's stations."""
    g = build_graph(game, corp.sym)
    virtual = set(virtual_station_hexes(game, corp))
    if virtual:
        for i, ref in enumerate(g.stops):
            if ref[0] in virtual and game.board.node(ref).kind == "offboard":
                g.tokened[i] = True
        queue = [i for i, t in enumerate(g.tokened) if t]
        for i in queue:
            g.reachable[i] = True
        while queue:
            u = queue.pop()
            for link in g.adj[u]:
                if not g.reachable[link.v]:
                    g.reachable[link.v] = True
                    if g.through[link.v]:
                        queue.append(link.v)
    return g


def _enumerate(g: RouteGraph, max_stops: int, deadline: float, cap: int) -> list[tuple[tuple[int, ...], tuple[Any, ...], int]]:
    """Routes as (stop indexes, links, track mask), each once (not also reversed)."""
    out: list[tuple[tuple[int, ...], tuple[Any, ...], int]] = []
    starts = [i for i in range(len(g.stops)) if g.reachable[i]]
    rank = {s: r for r, s in enumerate(sorted(starts, key=lambda i: (not g.tokened[i], i)))}
    nodes: list[int] = []
    links: list[Any] = []
    ticks = 0

    def dfs(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool,
            open_end: bool) -> bool:
        nonlocal ticks
        ticks += 1
        if ticks & 1023 == 0 and (time.perf_counter() > deadline or len(out) >= cap):
            return False
        if len(nodes) >= 2 and tok and start_rank < rank.get(cur, len(g.stops)):
            out.append((tuple(nodes), tuple(links), mask))
        if len(nodes) >= max_stops or not open_end:
            return True
        for link in g.adj[cur]:
            v = link.v
            if (visited >> v) & 1 or mask & link.mask or jmask & link.jmask or gmask & g.groups[v] \
                    or not g.reachable[v] or (len(nodes) > 1 and link.terminal_u):
                continue
            nodes.append(v)
            links.append(link)
            ok = dfs(start_rank, v, visited | (1 << v), mask | link.mask, jmask | link.jmask,
                     gmask | g.groups[v], tok or g.tokened[v], g.through[v] and not link.terminal_v)
            nodes.pop()
            links.pop()
            if not ok:
                return False
        return True

    for s in sorted(starts, key=lambda i: rank[i]):
        nodes.append(s)
        ok = dfs(rank[s], s, 1 << s, 0, 0, g.groups[s], g.tokened[s], True)
        nodes.pop()
        if not ok:
            break
    return out


def _terminals_ok(game: G1833NE, g: RouteGraph, stops: tuple[int, ...], links: tuple[Any, ...]) -> bool:
    """Terminal track (Portland's crossing) may only lead to the route's first or last stop."""
    ends = (g.stops[stops[0]], g.stops[stops[-1]])
    for link in links:
        for hid, pi in link.paths:
            path = game.board.hexes[hid].tile.paths[pi]
            if path.terminal and not all((hid, n) in ends for n in path.node_indexes):
                return False
    return True


def best_routes(game: G1833NE, corp_sym: str, *, time_budget: float = 0.5, per_train: int = 40,
                deterministic: bool = False) -> list[dict[str, Any]]:
    """Good (not always optimal) routes for the corporation's runnable trains, in the
    RunRoutes shape.  ``deterministic``: no clock, a fixed cap on the routes listed (for
    moves the engine makes itself, which a replay must repeat)."""
    corp = game.corp(corp_sym)
    trains = game.runnable_trains(corp)
    if not trains:
        return []
    deadline = float("inf") if deterministic else time.perf_counter() + time_budget
    g = station_graph(game, corp)
    max_stops = max(game.train_side(t).max_stops for t in trains)
    cands = _enumerate(g, max_stops, deadline, 5000 if deterministic else 30000)
    scored: list[list[tuple[int, int, tuple[int, ...], tuple[Any, ...]]]] = []
    for t in trains:
        side = game.train_side(t)
        rows = []
        for stops, links, mask in cands:
            if len(stops) > side.max_stops or not _terminals_ok(game, g, stops, links):
                continue
            try:
                rev = route_revenue(game, corp, t, [g.stops[i] for i in stops])
            except GameError:
                continue
            if rev > 0:
                rows.append((rev, mask, stops, links))
        rows.sort(key=lambda r: -r[0])
        scored.append(rows[:per_train])
    best: tuple[int, list[Any]] = (0, [None] * len(trains))
    chosen: list[Any] = [None] * len(trains)
    order = sorted(range(len(trains)), key=lambda i: -(scored[i][0][0] if scored[i] else 0))
    tops = [scored[i][0][0] if scored[i] else 0 for i in order]

    def search(k: int, used: int, acc: int) -> None:
        nonlocal best
        if acc + sum(tops[k:]) <= best[0]:
            return
        if k == len(order):
            best = (acc, list(chosen))
            return
        i = order[k]
        for row in scored[i]:
            if row[1] & used:
                continue
            chosen[i] = row
            search(k + 1, used | row[1], acc + row[0])
            chosen[i] = None
        search(k + 1, used, acc)

    search(0, 0, 0)
    out = []
    for t, row in zip(trains, best[1], strict=True):
        if row is None:
            continue
        rev, _, stops, links = row
        hexes = [g.stops[i][0] for i in stops]
        out.append({"train": t.id, "connections": [list(link.chain) for link in links], "hexes": hexes,
                    "revenue": rev, "revenue_str": "-".join(hexes)})
    return out
