"""Route extension: lengthening a route past its counted stops to collect a bonus (1833NE).

Rules summary (1833NE, "Querverbindungsboni"): a route may be extended beyond what the train
allows, over track no other route of the corporation uses, even through blocked cities, to
collect a cross-connection bonus.  A title opts in with
``game.extension_gains(corp, stops) -> {hex: gain}``: what reaching a stop in ``hex`` past
the end of a route with these counted stops would add.  Decisions (
engine/titles/g1833ne/notes.md): one extension per route, from either end, ending at the bonus place;
its stops earn nothing; it may pass through any city or town (not through off-boards), not
through a stop of its own route, and uses no track any route of the corporation uses.

The router (:mod:`engine.routing.router`) adds to every route an optimistic gain (the best target in
the same piece of track as one of its ends, which bounds what an extension can add) and,
for each set of routes branch and bound completes, asks :meth:`Extender.best` for the exact
extensions: each route's best reachable target avoiding all routes' track and, when the
best extensions of two routes collide, an exhaustive search over extension paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..errors import GameError
from .graph import Link, RouteGraph

if TYPE_CHECKING:
    from ..game import Game


class _Cand(Protocol):
    mask: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]


Path = tuple[Link, ...]


def terminal_needs(game: Game, graph: RouteGraph) -> dict[int, tuple[int, ...]]:
    """``id(link)`` -> the stops that must end a route using the link (its terminal paths'
    nodes, -1 for a node that is not a stop); links without terminal track are left out."""
    out: dict[int, tuple[int, ...]] = {}
    index = graph.index
    for row in graph.adj:
        for link in row:
            need = {index.get((hid, n), -1)
                    for hid, pi in link.paths for path in (game.board.hexes[hid].tile.paths[pi],)
                    if path.terminal for n in path.node_indexes}
            if need:
                out[id(link)] = tuple(need)
    return out


def route_terminal_needs(game: Game, graph: RouteGraph) -> dict[int, tuple[int, ...]]:
    """:func:`terminal_needs` without the links whose terminal track is only at their own ends
    (a route search enforces those itself: a link leaving its first stop by terminal track only
    starts a route, one reaching its stop by it ends the route)."""
    needs = terminal_needs(game, graph)
    for row in graph.adj:
        for link in row:
            need = needs.get(id(link))
            if need is not None and set(need) <= {link.u, link.v}:
                del needs[id(link)]
    return needs


class Extender:
    """Exact extensions for ``game``'s corporation ``corp`` on ``graph`` over candidates
    ``cands`` (indexed as in the router's list of all candidates)."""

    def __init__(self, game: Game, corp: Any, graph: RouteGraph, cands: list[Any],
                 term_needs: dict[int, tuple[int, ...]], expired: Any = lambda: False):
        self.hook = game.extension_gains
        self.corp = corp
        self.graph = graph
        self.cands = cands
        self.term_needs = term_needs
        self.expired = expired
        self.by_hex: dict[str, list[int]] = {}
        for i, ref in enumerate(graph.stops):
            self.by_hex.setdefault(ref[0], []).append(i)
        self._memo: dict[frozenset[int], dict[int, int]] = {}
        self._leaf: dict[tuple[int, ...], tuple[int, dict[int, Path]]] = {}
        self.piece = self._pieces()

    # ------------------------------------------------------------------ what can be gained
    def gains(self, g: int) -> dict[int, int]:
        """Target stop -> gain for candidate ``g`` (memoised on its set of stops)."""
        c = self.cands[g]
        key = frozenset(c.stops)
        got = self._memo.get(key)
        if got is None:
            got = {}
            stops = self.graph.stops
            try:
                by_hex = self.hook(self.corp, [stops[i] for i in c.stops])
            except GameError:
                by_hex = {}
            for hid, gain in by_hex.items():
                if gain > 0:
                    for t in self.by_hex.get(hid, ()):
                        if t not in key:
                            got[t] = max(got.get(t, 0), gain)
            self._memo[key] = got
        return got

    def ends(self, c: _Cand) -> list[int]:
        """Ends a route may be extended from: not an off-board, not reached by terminal track."""
        kind = self.graph.kind
        out = []
        if kind[c.stops[0]] != "offboard" and not c.links[0].terminal_u:
            out.append(c.stops[0])
        if kind[c.stops[-1]] != "offboard" and not c.links[-1].terminal_v:
            out.append(c.stops[-1])
        return out

    def _pieces(self) -> list[int]:
        """A label per stop: stops joined by track through cities and towns share it; an
        off-board (never passed through) gets a label of its own."""
        kind, adj = self.graph.kind, self.graph.adj
        label = [-1] * len(kind)
        for s in range(len(kind)):
            if label[s] >= 0:
                continue
            label[s] = s
            if kind[s] == "offboard":
                continue
            queue = [s]
            while queue:
                u = queue.pop()
                for link in adj[u]:
                    v = link.v
                    if label[v] < 0 and kind[v] != "offboard":
                        label[v] = s
                        queue.append(v)
        return label

    def optimistic(self, g: int) -> int:
        """At least what any extension of candidate ``g`` can add (same piece of track as
        one of its ends; an off-board target next to that piece)."""
        gains = self.gains(g)
        if not gains:
            return 0
        c = self.cands[g]
        pieces = {self.piece[e] for e in self.ends(c)}
        if not pieces:
            return 0
        best = 0
        adj, kind = self.graph.adj, self.graph.kind
        for t, gain in gains.items():
            if gain <= best:
                continue
            if self.piece[t] in pieces or (kind[t] == "offboard"
                                            and any(self.piece[link.v] in pieces for link in adj[t])):
                best = gain
        return best

    # ------------------------------------------------------------------ exact extensions
    def _steps(self, u: int, line: int, mask: int, jmask: int, targets: dict[int, int]) -> Any:
        """Links an extension at ``u`` may take next, as (link, ends here); ``line``: stops
        already on the route and its extension, ``mask``/``jmask``: track it may not use."""
        kind = self.graph.kind
        for link in self.graph.adj[u]:
            v = link.v
            if (line >> v) & 1 or link.mask & mask or link.jmask & jmask or link.terminal_u:
                continue
            need = self.term_needs.get(id(link))
            final = kind[v] == "offboard" or link.terminal_v or need is not None
            if final and (v not in targets or (need is not None and any(n != v for n in need))):
                continue
            yield link, final

    @staticmethod
    def _line(c: _Cand) -> tuple[int, int]:
        line = jmask = 0
        for s in c.stops:
            line |= 1 << s
        for link in c.links:
            jmask |= link.jmask
        return line, jmask

    def _bfs(self, c: _Cand, mask: int, targets: dict[int, int]) -> tuple[int, Path] | None:
        """Best gain an extension of ``c`` can reach avoiding track ``mask``, and its path;
        None when breadth-first search cannot tell.

        Each stop is entered once, by the first path found.  That is exact unless a step was
        refused only because it would reuse track of the path that reached its stop (another
        path to that stop might allow it) while a better target than the one found exists:
        then None, and the caller searches every path instead."""
        line, jmask = self._line(c)
        best, best_path = 0, ()
        seen = line
        unsure = False
        frontier: list[tuple[int, Path, int, int]] = [(e, (), 0, jmask) for e in self.ends(c)]
        while frontier:
            nxt: list[tuple[int, Path, int, int]] = []
            for u, path, own, jm in frontier:
                for link, final in self._steps(u, seen, mask, 0, targets):
                    if link.mask & own or link.jmask & jm:
                        unsure = True
                        continue
                    v = link.v
                    p = (*path, link)
                    gain = targets.get(v, 0)
                    if gain > best:
                        best, best_path = gain, p
                    seen |= 1 << v
                    if not final:
                        nxt.append((v, p, own | link.mask, jm | link.jmask))
            frontier = nxt
        if unsure and any(gain > best for gain in targets.values()):
            return None
        return best, best_path

    def _paths(self, c: _Cand, mask: int, targets: dict[int, int]) -> Any:
        """Every simple extension path of ``c`` to a target avoiding ``mask``: (gain, path)."""
        line, jmask = self._line(c)

        def walk(u: int, line: int, used: int, jm: int, path: Path) -> Any:
            for link, final in self._steps(u, line, used, jm, targets):
                v = link.v
                p = (*path, link)
                if targets.get(v, 0) > 0:
                    yield targets[v], p
                if not final and not self.expired():
                    yield from walk(v, line | (1 << v), used | link.mask, jm | link.jmask, p)

        for e in self.ends(c):
            yield from walk(e, line, mask, jmask, ())

    def reach(self, c: _Cand, mask: int, targets: dict[int, int]) -> tuple[int, Path]:
        """Best gain and path of one extension of ``c`` avoiding ``mask`` (exact)."""
        got = self._bfs(c, mask, targets)
        if got is not None:
            return got
        top = max(targets.values())
        best: tuple[int, Path] = (0, ())
        for gain, path in self._paths(c, mask, targets):
            if gain > best[0]:
                best = (gain, path)
                if gain == top:
                    break
        return best

    def best(self, chosen: list[int]) -> tuple[int, dict[int, Path]]:
        """Greatest total gain of extensions of the candidates ``chosen`` (global indexes of
        routes sharing no track), and the extension path of each route that has one."""
        key = tuple(sorted(chosen))
        got = self._leaf.get(key)
        if got is not None:
            return got
        items = [(g, self.gains(g)) for g in key]
        items = [(g, t) for g, t in items if t]
        used = 0
        for g in key:
            used |= self.cands[g].mask
        result: tuple[int, dict[int, Path]] = (0, {})
        if items:
            solo = [(g, *self.reach(self.cands[g], used, t)) for g, t in items]
            total = sum(gain for _, gain, _ in solo)
            paths = {g: p for g, gain, p in solo if gain}
            masks = [sum_mask(p) for p in paths.values()]
            if all(a & b == 0 for i, a in enumerate(masks) for b in masks[i + 1:]):
                result = (total, paths)
            else:
                result = self._search(items, used, [gain for _, gain, _ in solo])
        self._leaf[key] = result
        return result

    def _search(self, items: list[tuple[int, dict[int, int]]], used: int,
                solo: list[int]) -> tuple[int, dict[int, Path]]:
        """Exhaustive: extensions of ``items`` that may not share track with each other."""
        best: list[Any] = [0, {}]
        chosen: dict[int, Path] = {}

        def go(i: int, used: int, acc: int) -> None:
            if acc + sum(solo[i:]) <= best[0] or self.expired():
                return
            if i == len(items) - 1:
                g, targets = items[i]
                gain, path = self.reach(self.cands[g], used, targets)
                if acc + gain > best[0]:
                    best[0] = acc + gain
                    best[1] = {**chosen, **({g: path} if gain else {})}
                return
            g, targets = items[i]
            for gain, path in self._paths(self.cands[g], used, targets):
                chosen[g] = path
                go(i + 1, used | sum_mask(path), acc + gain)
                del chosen[g]
                if self.expired():
                    return
            go(i + 1, used, acc)

        go(0, used, 0)
        return best[0], best[1]


def sum_mask(path: Path) -> int:
    """Track bits of all links of ``path``."""
    m = 0
    for link in path:
        m |= link.mask
    return m
