"""An independent, plain route search for 1833NE, used only by tests as a cross-check of the
shared exact router (engine/routing/router.py): it lists routes by depth-first search, scores each per
train side with the engine's route rules and combines them by branch and bound."""

from __future__ import annotations

from typing import Any

from engine.errors import GameError
from engine.routing.graph import RouteGraph
from engine.titles.g1833ne.game import G1833NE


def _enumerate(g: RouteGraph, max_stops: int, cap: int) -> list[tuple[tuple[int, ...], tuple[Any, ...], int]]:
    """Routes as (stop indexes, links, track mask), each once (not also reversed)."""
    out: list[tuple[tuple[int, ...], tuple[Any, ...], int]] = []
    starts = [i for i in range(len(g.stops)) if g.reachable[i]]
    rank = {s: r for r, s in enumerate(sorted(starts, key=lambda i: (not g.tokened[i], i)))}
    nodes: list[int] = []
    links: list[Any] = []

    def dfs(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool,
            open_end: bool) -> bool:
        if len(out) >= cap:
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


def reference_routes(game: G1833NE, corp_sym: str, *, per_train: int = 10**6,
                     cap: int = 5000) -> list[dict[str, Any]]:
    """The best combination among the first ``cap`` routes listed, in the RunRoutes shape."""
    corp = game.corp(corp_sym)
    trains = game.runnable_trains(corp)
    if not trains:
        return []
    g = game.station_graph(corp)
    max_stops = max(game.train_side(t).max_stops for t in trains)
    cands = _enumerate(g, max_stops, cap)
    scored: list[list[tuple[int, int, tuple[int, ...], tuple[Any, ...]]]] = []
    for t in trains:
        side = game.train_side(t)
        rows = []
        for stops, links, mask in cands:
            if len(stops) > side.max_stops or not _terminals_ok(game, g, stops, links):
                continue
            try:
                rev = game.stops_revenue(corp, t, [g.stops[i] for i in stops])
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
