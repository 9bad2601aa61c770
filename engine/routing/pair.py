"""Two trains that reach every stop: the best pair of routes without listing every route (issue #24).

A corporation with two D-trains on a dense late map may have millions of routes (1836Jr56's NBDS
with 28 stops: 944k after dominance, not all listed in 30 s), and both trains take from the
same list. Instead of listing them, this search follows the *first* route stop by stop (each
route from one of its ends, as :func:`engine.routing.listing.enumerate_routes` does) and keeps,
beside each partial first route, the best route the other train can run on the track it leaves
free (the *partner*):

- a pair beating the best found so far (``lower``) has a route earning more than half of it:
  a partial route whose bound (what it earns plus every stop it may still reach, as the long
  routes' search counts them: :mod:`engine.routing.long`) is at most ``lower / 2`` is dropped;
- the partner can only get worse as the first route takes more track: a partial route whose
  bound plus its partner's revenue is at most ``lower`` is dropped;
- the partner is searched again only when the first route takes track of the partner known so
  far; a partner found before and still free serves when it is good enough to keep the route
  (known partners are kept, best first). A partner found by search is the best there is, one
  taken from the known ones may not be: a complete first route with such a partner is then
  searched for its best partner before it is valued.

The partner search is the lone train's: follow a route while it may beat a threshold, which
rises with each route found. Its bounds count only stops reachable on the track left free.
Both searches skip a partial route over the same stops to the same end as one followed before
from the same start, on all of its track and more. The result is optimal when the search ends
within its budget; else the best pair found is returned, marked not proven.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .long import end_best, free_after, reach_parts, route_price, stop_links

if TYPE_CHECKING:
    from ..entities import Corporation
    from ..game import Game
    from .graph import Link, RouteGraph

# a route found: revenue, its own track, its stops and the links between them
Found = tuple[int, int, tuple[int, ...], tuple["Link", ...]]
Parts = tuple[tuple[int, int, int], ...]

_REGIONS_KEPT = 4096  # free-track regions whose reach is remembered (cleared beyond)


class _Region:
    """The stops one link away from each stop on free track, the stops a route may pass
    through there, and what :func:`reach_parts` found (per stop, stops visited)."""

    def __init__(self, nbr: list[int], through: int):
        self.nbr = nbr
        self.through = through
        self.memo: dict[tuple[int, int], Parts] = {}


class PairSearch:
    """The best two routes, sharing no track, for two trains reaching every stop.

    ``bounds``: :func:`engine.routing.long.stop_bounds` (plain, through a port); ``expired(work)``
    says whether the budget is spent (``work``: search steps since the last call)."""

    def __init__(self, game: Game, corp: Corporation, graph: RouteGraph, bounds: tuple[list[int], list[int]],
                 port: list[bool], port_min: int, expired: Callable[[int], bool]):
        self.game = game
        self.corp = corp
        self.price = game.route_pricer(corp)
        self.graph = graph
        self.expired = expired
        self.out = False
        self.port = port
        self.port_min = port_min
        n = len(graph.stops)
        reachable, tokened, through, groups = graph.reachable, graph.tokened, graph.through, graph.groups
        nbr, self.reach_mask, self.through_mask = stop_links(graph)
        self.whole = _Region(nbr, self.through_mask)
        self.regions: dict[tuple[int, ...], _Region] = {}
        # every link once, for the free-track regions
        self.links = [(lk.u, lk.v, lk.mask) for row in graph.adj for lk in row]
        # routes are found from the end that comes first: ports, stops a route may only end at,
        # stations, other stops (as the long routes' search orders them)
        self.starts = sorted((i for i in range(n) if reachable[i]),
                             key=lambda i: (self.through_mask >> i & 1, not port[i], not tokened[i], i))
        rank = [n] * n
        for r, i in enumerate(self.starts):
            rank[i] = r
        self.rank = rank
        self.later_ends = [sum(1 << i for i in range(n) if rank[i] > r) for r in range(len(self.starts))]
        self.bounds = {False: bounds[0], True: bounds[1]}  # by "the route starts at a port"
        onward = {id(lk): free_after(graph, lk) for row in graph.adj for lk in row}
        self.adj = {p: [[(lk.v, 1 << lk.v, lk.mask, lk.jmask, groups[lk.v], lk.terminal_u,
                          through[lk.v] and not lk.terminal_v, b[lk.v], tokened[lk.v], rank[lk.v], lk, onward[id(lk)])
                         for lk in row if reachable[lk.v]] for row in graph.adj]
                    for p, b in self.bounds.items()}
        self.revenue_of: dict[int, int] = {}
        self.firsts = 0  # first routes valued
        self.ticks = 0
        self.best: tuple[int, Found | None, Found | None] = (0, None, None)

    # ------------------------------------------------------------------ shared pieces
    def _tick(self) -> None:
        """One step of either search; the budget is looked at every 256 steps."""
        self.ticks += 1
        if self.ticks & 255 == 0 and self.expired(256):
            self.out = True

    def _revenue(self, visited: int, nodes: list[int]) -> int:
        """What a route over ``nodes`` earns (-1: not a legal route), memoised on its stops."""
        rev = self.revenue_of.get(visited)
        if rev is None:
            rev = self.revenue_of[visited] = route_price(self.price, self.graph, nodes, self.port,
                                                         self.port_min)
        return rev

    def _region(self, avoid: int) -> _Region:
        """Where routes go when the track ``avoid`` is taken."""
        if not avoid:
            return self.whole
        nbr = [0] * len(self.graph.stops)
        for u, v, mask in self.links:
            if not mask & avoid:
                nbr[u] |= 1 << v
        key = tuple(nbr)
        region = self.regions.get(key)
        if region is None:
            if len(self.regions) >= _REGIONS_KEPT:
                self.regions.clear()
            reach_mask = self.reach_mask
            through = self.through_mask & sum(1 << i for i, x in enumerate(nbr) if (x & reach_mask).bit_count() > 1)
            region = self.regions[key] = _Region(nbr, through)
        return region

    def _onward(self, region: _Region, v: int, visited: int, ends: int, end_only: int, bounds: list[int],
                after: int = -1) -> int:
        """The most a route now ending at ``v`` may add by going on (-1: it cannot end anywhere):
        into a part of the map with a stop in ``after`` (those it may go on to)."""
        got = -1
        if not after & ~visited:
            return got
        parts = region.memo.get((v, visited))
        if parts is None:
            parts = region.memo[(v, visited)] = reach_parts(v, visited, region.nbr, region.through,
                                                            self.reach_mask, bounds)
        for mids, reach, dead in parts:
            if reach & ends and reach & after:
                last = (reach & end_only) | (dead & ends)
                part = mids + end_best(last, bounds) if last else mids
                if part > got:
                    got = part
        return got

    @staticmethod
    def _dominated(followed: dict[int, list[tuple[int, int, int]]], visited: int, v: int, mask: int,
                   jmask: int) -> bool:
        """A partial route over the same stops to ``v`` on no more track was followed before."""
        tried = followed.get(visited)
        if tried is None:
            followed[visited] = [(v, mask, jmask)]
            return False
        for u, m, j in tried:
            if u == v and not m & ~mask and not j & ~jmask:
                return True
        tried.append((v, mask, jmask))
        return False

    # ------------------------------------------------------------------ one train
    def best_route(self, avoid: int, lower: int) -> Found | None:
        """The best route earning more than ``lower`` on track outside ``avoid`` (None: none)."""
        region = self._region(avoid)
        best: list[Any] = [lower, None]
        nodes: list[int] = []
        links: list[Link] = []
        groups, tokened = self.graph.groups, self.graph.tokened
        # dfs goes on through ``again``, emptied at the end: a function naming itself is a reference
        # cycle, kept with its region until the collector runs, and it is paused during the whole
        # search, which makes thousands of these (a 15-second proof peaked at 751 MB, now 200 MB)
        again: list[Callable[..., None]] = []

        def dfs(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool, most: int,
                adj: list[list[Any]], bounds: list[int], ends: int, end_only: int,
                followed: dict[int, list[tuple[int, int, int]]]) -> None:
            self._tick()
            if self.out:
                return
            at_start = len(nodes) == 1
            for v, bit, lmask, ljmask, gbits, term_u, open_v, bound_v, tok_here, rank_v, link, after in adj[cur]:
                if visited & bit or mask & lmask or jmask & ljmask or gmask & gbits or (term_u and not at_start):
                    continue
                low = best[0]
                vis = visited | bit
                most_v = most + bound_v
                tok_v = tok or tok_here
                end_here = tok_v and start_rank < rank_v and most_v > low
                got = self._onward(region, v, vis, ends, end_only, bounds, after) if open_v else -1
                if most_v + got <= low:
                    got = -1
                if not end_here and got < 0:
                    continue
                nodes.append(v)
                links.append(link)
                if end_here:
                    rev = self._revenue(vis, nodes)
                    if rev > best[0]:
                        best[0] = rev
                        best[1] = (rev, (mask | lmask) & ~avoid, tuple(nodes), tuple(links))
                if got >= 0 and most_v + got > best[0] \
                        and not self._dominated(followed, vis, v, mask | lmask, jmask | ljmask):
                    again[0](start_rank, v, vis, mask | lmask, jmask | ljmask, gmask | gbits, tok_v, most_v,
                             adj, bounds, ends, end_only, followed)
                links.pop()
                nodes.pop()

        again.append(dfs)
        for s in self.starts:
            bounds = self.bounds[self.port[s]]
            start_rank = self.rank[s]
            ends = self.later_ends[start_rank]
            end_only = ends & ~region.through
            if bounds[s] + self._onward(region, s, 1 << s, ends, end_only, bounds) <= best[0]:
                continue
            nodes.append(s)
            dfs(start_rank, s, 1 << s, avoid, 0, groups[s], tokened[s], bounds[s], self.adj[self.port[s]],
                bounds, ends, end_only, {})
            nodes.pop()
            if self.out:
                break
        again.clear()
        found: Found | None = best[1]
        return found

    # ------------------------------------------------------------------ two trains
    def run(self) -> tuple[int, Found | None, Found | None]:
        """The best total and its routes (the second may be None); optimal unless ``out``."""
        first = self.best_route(0, 0)
        if first is None:
            return self.best
        second = self.best_route(first[1], 0)
        self.best = (first[0] + (second[0] if second else 0), first, second)
        pool: list[Found] = [first] + ([second] if second else [])  # partners found, best first
        nodes: list[int] = []
        links: list[Link] = []
        groups, tokened = self.graph.groups, self.graph.tokened
        region = self.whole

        def known(avoid: int, above: int) -> Found | None:
            for route in pool:
                if route[0] <= above:
                    return None
                if not route[1] & avoid:
                    return route
            return None

        def search(avoid: int, above: int) -> Found | None:
            route = self.best_route(avoid, above)
            if route is not None:
                pool.append(route)
                pool.sort(key=lambda r: -r[0])
            return route

        def dfs(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool, most: int,
                partner: int, witness: Found, adj: list[list[Any]], bounds: list[int], ends: int, end_only: int,
                followed: dict[int, list[tuple[int, int, int]]]) -> None:
            # ``partner``: at least the best route beside this partial one, ``witness`` one of them
            self._tick()
            if self.out:
                return
            at_start = len(nodes) == 1
            for v, bit, lmask, ljmask, gbits, term_u, open_v, bound_v, tok_here, rank_v, link, after in adj[cur]:
                if visited & bit or mask & lmask or jmask & ljmask or gmask & gbits or (term_u and not at_start):
                    continue
                lower = self.best[0]
                vis = visited | bit
                most_v = most + bound_v
                tok_v = tok or tok_here
                end_here = tok_v and start_rank < rank_v
                got = self._onward(region, v, vis, ends, end_only, bounds, after) if open_v else -1
                bound = most_v + got if got >= 0 else (most_v if end_here else -1)
                if 2 * bound <= lower or bound + partner <= lower:
                    continue
                m_v = mask | lmask
                partner_v, witness_v = partner, witness
                if lmask & witness[1]:  # the route takes the witness's track: another partner
                    route = known(m_v, lower - bound)
                    if route is None:
                        route = search(m_v, lower - bound)
                        if route is None:
                            continue  # none good enough: no pair through here beats ``lower``
                        partner_v = route[0]  # the best there is
                    witness_v = route
                nodes.append(v)
                links.append(link)
                if end_here:
                    rev = self._revenue(vis, nodes)
                    if rev >= 0 and rev + partner_v > self.best[0]:
                        self.firsts += 1
                        if rev + witness_v[0] <= self.best[0]:  # a better partner may exist
                            route = search(m_v, self.best[0] - rev)
                            if route is None:
                                partner_v = min(partner_v, self.best[0] - rev)
                            else:
                                witness_v, partner_v = route, route[0]
                        if rev + witness_v[0] > self.best[0]:
                            self.best = (rev + witness_v[0], (rev, m_v, tuple(nodes), tuple(links)), witness_v)
                if got >= 0:
                    lower = self.best[0]
                    bound = most_v + got
                    if 2 * bound > lower and bound + partner_v > lower \
                            and not self._dominated(followed, vis, v, m_v, jmask | ljmask):
                        dfs(start_rank, v, vis, m_v, jmask | ljmask, gmask | gbits, tok_v, most_v, partner_v,
                            witness_v, adj, bounds, ends, end_only, followed)
                links.pop()
                nodes.pop()

        for s in self.starts:
            bounds = self.bounds[self.port[s]]
            start_rank = self.rank[s]
            ends = self.later_ends[start_rank]
            nodes.append(s)
            dfs(start_rank, s, 1 << s, 0, 0, groups[s], tokened[s], bounds[s], first[0], first,
                self.adj[self.port[s]], bounds, ends, ends & ~region.through, {})
            nodes.pop()
            if self.out:
                break
        return self.best
