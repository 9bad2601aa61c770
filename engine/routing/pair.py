"""Two trains that reach every stop: the best pair of routes without listing every route (issue #24).

A corporation with two D-trains on a dense late map may have millions of routes (1836Jr56's NBDS
with 28 stops: 944k after dominance, not all listed in 30 s), and both trains take from the
same list. Instead of listing them, this search follows the *first* route stop by stop (each
route from one of its ends, as :func:`engine.routing.listing.enumerate_routes` does) and keeps,
beside each partial first route, a bound on what the other train can run on the track it leaves
free (the *partner*) and a route it could run there (the *witness*):

- a pair beating the best found so far (``lower``) has a route earning more than half of it,
  and the first route is taken to be that one (the better of the two): a partial route whose
  bound (what it earns plus every stop it may still reach, as the long routes' search counts
  them: :mod:`engine.routing.long`) is at most ``lower / 2`` is dropped, and a complete route
  earning at most half the best so far is not valued (its pair is found from the other route);
- the partner can only get worse as the first route takes more track: a partial route whose
  bound plus its partner's bound is at most ``lower`` is dropped;
- partial first routes over the same stops that differ only in track (parallel links between
  two stops: a dense map has many) are followed together, as *ways* of one route: their partner
  is what a route earns on the track one of them leaves free (at least each one's own);
- while a way leaves the witness free the partner's bound stands; once every way takes some of
  its track, the bound is also at most what the best part of the map left free can earn
  (:meth:`_Region.most`: all its stops and the best two beside it; a region is worked out from
  the last one on the way there, looking only at the stops joined by the track taken since);
- a complete first route is valued with the best partner beside one of its ways: the witness
  when it is known to be that, else the one searched for (when that fits beside none of the
  ways, each way's own); that partner is the bound and witness of the routes going on from it.

The partner search is the lone train's: follow a route while it may beat a threshold, which
rises with each route found; its ways too are followed together. Its bounds count only stops
reachable on the track left free; a start is skipped when its part of the map (the stops joined
to it through stops a route may pass, and the best stop beside them) cannot beat the threshold
or reaches no station; a whole search when its region cannot, counting in each part of the map the
stops of its best chain of blocks only (:mod:`engine.routing.blocks`: a route cannot come back
into a piece of the map it left by a single stop; on the sparse track a first route leaves, two
thirds of the searches that would find nothing end there at once).

Neither search keeps the partial routes it followed to skip one over the same stops to the same
end on all of a followed one's track and more (the long routes' search does): on NBDS's proofs
fewer than 2% of the look-ups found one, and the look-ups, a scan of every partial route kept
for those stops, took more than following them (proofs 16-22% faster without).

The result is optimal when the search ends within its budget; else the best pair found is
returned, marked not proven. (NBDS's harder proof: 41,814 partner searches and 10.7 s while each
step searched the partner again; 4,504 and 1.0 s now.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .blocks import blocks_of, chain_most
from .graph import unwind
from .long import end_best, free_after, reach_parts, route_price, stop_links

if TYPE_CHECKING:
    from ..entities import Corporation
    from ..game import Game
    from .graph import Link, RouteGraph

# a route found: revenue, its own track, its stops and the links between them
Found = tuple[int, int, tuple[int, ...], tuple["Link", ...]]
Parts = tuple[tuple[int, int, int], ...]
# a partial route's way along the track: its track, junctions and links as (last, earlier)
Way = tuple[int, int, Any]
# track taken and where routes go then (PairSearch._region)
Known = tuple[int, "_Region"]

_REGIONS_KEPT = 4096  # free-track regions whose reach is remembered (cleared beyond)
# a step of this search takes about as long as this many of the router's clock (engine.routing.clock:
# WORK_RATE steps a second; this search's steps, with their parts of the map, 45-52k a second)
_STEP_WORK = 6


def _sum_tables(bounds: list[int]) -> list[list[int]]:
    """Per byte of a bit set of stops, the sum of ``bounds`` for each value of it."""
    tables = []
    for lo in range(0, len(bounds), 8):
        chunk = bounds[lo:lo + 8]
        table = [0] * 256
        for x in range(1, 256):
            low = x & -x
            table[x] = table[x ^ low] + (chunk[low.bit_length() - 1] if low.bit_length() <= len(chunk) else 0)
        tables.append(table)
    return tables


def _bit_sum(sums: list[list[int]], stops: int) -> int:
    """The sum of the bounds of ``stops`` (``sums``: :func:`_sum_tables`)."""
    total = 0
    for table in sums:
        if not stops:
            break
        total += table[stops & 255]
        stops >>= 8
    return total


class _Region:
    """The stops one link away from each stop on free track, the stops a route may pass
    through there, and what :func:`reach_parts` found (per stop, stops visited)."""

    def __init__(self, nbr: list[int], through: int):
        self.nbr = nbr
        self.through = through
        self.memo: dict[tuple[int, int], Parts] = {}
        self.split: list[tuple[int, int]] | None = None  # the parts (stops, stops beside)
        self.parts_of: dict[bool, list[tuple[int, int, int]]] = {}  # per kind of bounds: parts
        self.from_stop: dict[bool, list[int]] = {}  # per kind of bounds: start_bounds
        self.best: int | None = None  # the most of those (PairSearch._region_best)
        # ... counting each part's best chain of blocks where its stops earn more than a threshold:
        # (threshold, bound)
        self.chained: tuple[int, int] | None = None
        self.chains: dict[tuple[bool, int], int] = {}  # per kind of bounds and part: its chain's
        self.blocks: dict[int, list[tuple[int, int]]] = {}  # per part: its blocks

    def parts(self, kind: bool, bounds: list[int], sums: list[list[int]], reach_mask: int) -> list[tuple[int, int, int]]:
        """The parts of the map here (stops a route may pass through, joined through such
        stops), each as its stops, what they earn together (``bounds``, of ``kind``) and the
        stops beside it a route may only end at. The parts are worked out once, summed on the
        way for the first kind asked and from ``sums`` (:func:`_sum_tables` of ``bounds``) for
        the other."""
        got = self.parts_of.get(kind)
        if got is not None:
            return got
        split = self.split
        if split is not None:
            got = self.parts_of[kind] = [(part, _bit_sum(sums, part), beside) for part, beside in split]
            return got
        nbr, through = self.nbr, self.through & reach_mask
        split = self.split = []
        got = self.parts_of[kind] = []
        left = through
        while left:
            part = frontier = left & -left
            total = beside = 0
            while frontier:  # (each stop of the part is in the frontier once)
                new = 0
                while frontier:
                    b = frontier & -frontier
                    frontier ^= b
                    i = b.bit_length() - 1
                    total += bounds[i]
                    new |= nbr[i]
                beside |= new
                frontier = new & through & ~part
                part |= frontier
            left &= ~part
            beside &= reach_mask & ~through
            split.append((part, beside))
            got.append((part, total, beside))
        return got

    def most(self, kind: bool, bounds: list[int], sums: list[list[int]], reach_mask: int, tokened: int,
             two_most: int, chains: int | None = None) -> int:
        """What no route here earns more than: in a part of the map that reaches a station, all
        its stops (where that is more than ``chains``: those of its best chain of blocks,
        :mod:`engine.routing.blocks`) and the best two beside it (stops a route may only end at); or two such stops
        joined to each other, one of them a station (not looked for when the parts give
        ``two_most`` or more: no two stops joined anywhere on the map earn more)."""
        nbr, through = self.nbr, self.through & reach_mask
        most = 0
        for part, total, beside in self.parts(kind, bounds, sums, reach_mask):
            if not (part | beside) & tokened:
                continue
            top = second = 0
            while beside:
                b = beside & -beside
                beside ^= b
                got = bounds[b.bit_length() - 1]
                if got > top:
                    top, second = got, top
                elif got > second:
                    second = got
            if chains is not None and total + top + second > chains:
                blocks = self.blocks.get(part)
                if blocks is None:
                    blocks = self.blocks[part] = blocks_of(part, nbr)
                chain = self.chains[(kind, part)] = chain_most(part, bounds, blocks)
                total = min(total, chain)
            most = max(most, total + top + second)
        if most >= two_most:
            return most
        ends = reach_mask & ~through
        x = ends
        while x:
            b = x & -x
            x ^= b
            i = b.bit_length() - 1
            y = nbr[i] & ends & (-1 if tokened >> i & 1 else tokened)
            while y:
                c = y & -y
                y ^= c
                most = max(most, bounds[i] + bounds[c.bit_length() - 1])
        return most

    def start_bounds(self, kind: bool, bounds: list[int], sums: list[list[int]], reach_mask: int,
                     tokened: int) -> list[int]:
        """Per stop, what no route from it earns more than here: every stop it may pass through
        in its part of the map and the best stop beside that part it may only end at; 0 where no
        route from it reaches a station."""
        nbr, through = self.nbr, self.through & reach_mask
        n = len(nbr)
        whole = [0] * n  # per stop a route may pass through: what its part earns at most
        station = 0  # the stops a route may pass through whose part reaches a station
        chains = self.chains
        for part, total, beside in self.parts(kind, bounds, sums, reach_mask):
            total = min(total, chains.get((kind, part), total)) + end_best(beside, bounds)
            if (part | beside) & tokened:
                station |= part
            x = part
            while x:
                b = x & -x
                x ^= b
                whole[b.bit_length() - 1] = total
        out = [0] * n
        for i in range(n):
            if through >> i & 1:
                out[i] = whole[i] if station >> i & 1 else 0
                continue
            got, x = 0, nbr[i] & reach_mask
            own = tokened >> i & 1
            while x:
                b = x & -x
                x ^= b
                j = b.bit_length() - 1
                if through >> j & 1:
                    if own or station >> j & 1:
                        got = max(got, whole[j])
                elif own or tokened >> j & 1:
                    got = max(got, bounds[j])
            out[i] = bounds[i] + got if got else 0
        return out


def _by_far_stop(row: list[Link], reachable: list[bool], groups: list[int], through: list[bool],
                 tokened: list[bool], bounds: list[int], rank: list[int], onward: dict[int, int]) -> list[Any]:
    """The links leaving a stop grouped by the stop they lead to, the stops that may add the most
    first (good pairs are found sooner: NBDS's best in 0.39 s instead of 0.42, 0.04 instead of 0.10)."""
    by_stop: dict[int, list[Any]] = {}
    for lk in row:
        if reachable[lk.v]:
            by_stop.setdefault(lk.v, []).append((lk.mask, lk.jmask, lk.terminal_u, through[lk.v] and not lk.terminal_v,
                                                 lk, onward[id(lk)]))
    return sorted(((v, 1 << v, groups[v], bounds[v], tokened[v], rank[v], group, _after_any(group))
                   for v, group in by_stop.items()), key=lambda step: -step[3])


def _after_any(group: list[Any]) -> int:
    """The stops a route may go on to by any of ``group``'s links (before the ways are known)."""
    after = 0
    for step in group:
        if step[3]:
            after |= step[5]
    return after


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
        # the same links per pair of stops (u, v as a bit, their masks), and per track bit the
        # pairs (a bit set) with a link on it
        joined: dict[tuple[int, int], list[int]] = {}
        for u, v, mask in self.links:
            joined.setdefault((u, v), []).append(mask)
        self.pairs = [(u, 1 << v, tuple(masks)) for (u, v), masks in joined.items()]
        self.pairs_of_bit: dict[int, int] = {}
        for k, (_, _, masks) in enumerate(self.pairs):
            for m in masks:
                while m:
                    b = m & -m
                    m ^= b
                    i = b.bit_length() - 1
                    self.pairs_of_bit[i] = self.pairs_of_bit.get(i, 0) | 1 << k
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
        self.sums = {p: _sum_tables(b) for p, b in self.bounds.items()}
        onward = {id(lk): free_after(graph, lk) for row in graph.adj for lk in row}
        # the steps of a route: per stop, per far stop (in the order of the first link there) its links
        self.adjg = {p: [_by_far_stop(row, reachable, groups, through, tokened, b, rank, onward) for row in graph.adj]
                     for p, b in self.bounds.items()}
        self.kinds = sorted({port[i] for i in self.starts})  # of bounds: from a port or not
        # per kind of bounds, the most two stops joined by a link earn, one of them a station
        self.two_most = {p: max((b[lk.u] + b[lk.v] for row in graph.adj for lk in row
                                 if tokened[lk.u] or tokened[lk.v]), default=0) for p, b in self.bounds.items()}
        self.tokened_mask = sum(1 << i for i in range(n) if tokened[i])
        self.revenue_of: dict[int, int] = {}
        self.firsts = 0  # first routes valued
        self.ticks = 0
        self.best: tuple[int, Found | None, Found | None] = (0, None, None)

    # ------------------------------------------------------------------ shared pieces
    def _tick(self) -> None:
        """One step of either search; the budget is looked at every 256 steps, each counted as
        :data:`_STEP_WORK` steps of the router's clock."""
        self.ticks += 1
        if self.ticks & 255 == 0 and self.expired(256 * _STEP_WORK):
            self.out = True

    def _revenue(self, visited: int, nodes: list[int]) -> int:
        """What a route over ``nodes`` earns (-1: not a legal route), memoised on its stops."""
        rev = self.revenue_of.get(visited)
        if rev is None:
            rev = self.revenue_of[visited] = route_price(self.price, self.graph, nodes, self.port,
                                                         self.port_min)
        return rev

    def _region(self, avoid: int, base: Known | None = None) -> _Region:
        """Where routes go when the track ``avoid`` is taken; ``base``: a region worked out
        before for less of it (only the stops joined by track it has not taken are looked at)."""
        if not avoid:
            return self.whole
        from_base = None  # the base's region when worked out from it
        changed = 0  # ... the stops whose links changed from it
        if base is not None and not base[0] & ~avoid:
            from_base = base[1]
            nbr = list(from_base.nbr)
            new, touched = avoid & ~base[0], 0
            while new:
                b = new & -new
                new ^= b
                touched |= self.pairs_of_bit.get(b.bit_length() - 1, 0)
            pairs = self.pairs
            parted: list[tuple[int, int]] = []
            while touched:
                b = touched & -touched
                touched ^= b
                u, v_bit, masks = pairs[b.bit_length() - 1]
                if nbr[u] & v_bit:
                    for m in masks:  # (no generator: this runs a few hundred thousand times)
                        if not m & avoid:
                            break
                    else:  # every link between them takes some of it
                        nbr[u] ^= v_bit
                        changed |= 1 << u
                        parted.append((u, v_bit))
            if not changed:  # (no two stops parted: the same region)
                return from_base
        else:
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
            if from_base is None:
                through = self.through_mask & sum(1 << i for i, x in enumerate(nbr) if (x & reach_mask).bit_count() > 1)
            else:  # (a stop may be passed through when joined to two stops)
                through = from_base.through
                while changed:
                    b = changed & -changed
                    changed ^= b
                    if (nbr[b.bit_length() - 1] & reach_mask).bit_count() < 2:
                        through &= ~b
            region = self.regions[key] = _Region(nbr, through)
            if from_base is not None and through == from_base.through and all(
                    through >> u & 1 and through & v_bit and nbr[u] & nbr[v_bit.bit_length() - 1] & through
                    for u, v_bit in parted):
                # every two stops parted are still joined through a third that routes may pass: the
                # parts of the map, their sums and what is beside them are the base's. The start
                # bounds are copied, not shared: they count this region's chains of blocks once it
                # has them (fewer links, shorter chains), which would be too few for the base
                region.split, region.parts_of = from_base.split, from_base.parts_of
                region.from_stop = dict(from_base.from_stop)
                region.best = from_base.best
        return region

    def _region_best(self, region: _Region) -> int:
        """What no route in ``region`` earns more than (:meth:`_Region.most`)."""
        if region.best is None:
            region.best = max(region.most(port, self.bounds[port], self.sums[port], self.reach_mask,
                                          self.tokened_mask, self.two_most[port]) for port in self.kinds)
        return region.best

    def _region_chained(self, region: _Region, beat: int) -> int:
        """The same counting in each part only the stops of its best chain of blocks
        (:mod:`engine.routing.blocks`): tighter, five times the work. A partner search asks
        it before it starts (NBDS #840: of 4,409 searches, 4,359 find nothing, two thirds of
        them told by this at once); the first route's steps do not (34k regions: it cost more
        than it cut there)."""
        kept = region.chained
        if kept is None or kept[0] > beat < kept[1]:  # (asked before for more and not told: look again)
            kept = region.chained = (beat, max(region.most(port, self.bounds[port], self.sums[port], self.reach_mask,
                                                           self.tokened_mask, self.two_most[port], beat)
                                               for port in self.kinds))
        return kept[1]

    def _start_bounds(self, region: _Region, port: bool) -> list[int]:
        """Per stop, what no route from it earns more than in ``region`` (routes from a port or
        not: ``port``)."""
        from_stop = region.from_stop.get(port)
        if from_stop is None:
            from_stop = region.from_stop[port] = region.start_bounds(port, self.bounds[port], self.sums[port],
                                                                     self.reach_mask, self.tokened_mask)
        return from_stop

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

    # ------------------------------------------------------------------ one train
    def best_route(self, avoid: int, lower: int, base: Known | None = None) -> Found | None:
        """The best route earning more than ``lower`` on track outside ``avoid`` (None: none);
        ``base``: as for :meth:`_region`."""
        region = self._region(avoid, base)
        if self._region_best(region) <= lower or self._region_chained(region, lower) <= lower:
            return None  # (no route in the region earns more than its best)
        best: list[Any] = [lower, None]
        nodes: list[int] = []
        groups, tokened = self.graph.groups, self.graph.tokened
        # dfs goes on through ``again``, emptied at the end: a function naming itself is a reference
        # cycle, kept with its region until the collector runs, and it is paused during the whole
        # search, which makes thousands of these (a 15-second proof peaked at 751 MB, now 200 MB)
        again: list[Callable[..., None]] = []

        def dfs(start_rank: int, cur: int, visited: int, gmask: int, tok: bool, most: int, ways: list[Way],
                adj: list[list[Any]], bounds: list[int], ends: int, end_only: int) -> None:
            # ``ways``: the partial routes over ``nodes`` (differing in track: parallel links)
            self._tick()
            if self.out:
                return
            at_start = len(nodes) == 1
            free = region.nbr[cur]  # (the stops a link not on ``avoid`` leads to)
            for v, bit, gbits, bound_v, tok_here, rank_v, group, any_after in adj[cur]:
                if visited & bit or gmask & gbits or not free & bit:
                    continue
                low = best[0]
                most_v = most + bound_v
                tok_v = tok or tok_here
                end_here = tok_v and start_rank < rank_v and most_v > low
                vis = visited | bit
                # (bounded first with every link's onward stops: most steps end here, before their ways)
                got = self._onward(region, v, vis, ends, end_only, bounds, any_after) if any_after else -1
                if most_v + got <= low:
                    got = -1
                if not end_here and got < 0:
                    continue
                new, going, after = _steps(ways, group, at_start)
                if not new:
                    continue
                if after != any_after and got >= 0:
                    got = self._onward(region, v, vis, ends, end_only, bounds, after) if after else -1
                    if most_v + got <= low:
                        got = -1
                    if not end_here and got < 0:
                        continue
                nodes.append(v)
                if end_here:
                    rev = self._revenue(vis, nodes)
                    if rev > best[0]:
                        way = min(new, key=lambda w: w[0].bit_count())  # (the least track)
                        best[0] = rev
                        best[1] = (rev, way[0] & ~avoid, tuple(nodes), unwind(way[2]))
                if going and got >= 0 and most_v + got > best[0]:
                    again[0](start_rank, v, vis, gmask | gbits, tok_v, most_v, going, adj, bounds, ends, end_only)
                nodes.pop()

        again.append(dfs)
        from_stop = {port: self._start_bounds(region, port) for port in self.kinds}
        port = self.port
        for s in self.starts:
            if from_stop[port[s]][s] <= best[0]:
                continue
            bounds = self.bounds[port[s]]
            start_rank = self.rank[s]
            ends = self.later_ends[start_rank]
            end_only = ends & ~region.through
            if bounds[s] + self._onward(region, s, 1 << s, ends, end_only, bounds) <= best[0]:
                continue
            nodes.append(s)
            dfs(start_rank, s, 1 << s, groups[s], tokened[s], bounds[s], [(avoid, 0, None)], self.adjg[self.port[s]],
                bounds, ends, end_only)
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
        nodes: list[int] = []
        region = self.whole

        def pair(rev: int, way: Way, partner: Found) -> None:
            self.best = (rev + partner[0], (rev, way[0], tuple(nodes), unwind(way[2])), partner)

        def value(rev: int, ways: list[Way], common: int, partner: int, witness: Found,
                  known: Known) -> tuple[int, Found]:
            """A complete first route over ``nodes`` earning ``rev``, run by any of ``ways``
            (``common``: the track all of them take; ``known``: a region worked out for less):
            the best pair it makes, when better than the best so far. Returns the partner bound
            and witness for the routes going on."""
            fit = next((w for w in ways if not w[0] & witness[1]), None)
            if fit is not None and witness[0] >= partner:  # the witness is the best beside any way
                if rev + witness[0] > self.best[0]:
                    pair(rev, fit, witness)
                return partner, witness
            if fit is not None and rev + witness[0] > self.best[0]:
                pair(rev, fit, witness)
            # the best partner beside any of the ways: on the track one of them leaves free
            route = self.best_route(common, self.best[0] - rev, known)
            if route is None:
                return min(partner, self.best[0] - rev), witness
            fit = next((w for w in ways if not w[0] & route[1]), None)
            if fit is not None:
                pair(rev, fit, route)
            else:  # it fits beside none of them: each way's own best partner
                for way in ways:
                    own = self.best_route(way[0], self.best[0] - rev, known)
                    if own is not None:
                        pair(rev, way, own)
            return route[0], route

        def dfs(start_rank: int, cur: int, visited: int, gmask: int, tok: bool, most: int, ways: list[Way],
                partner: int, witness: Found, known: Known, adj: list[list[Any]], bounds: list[int], ends: int,
                end_only: int) -> None:
            # ``ways``: the partial first routes over ``nodes`` (differing in track: parallel
            # links); ``partner``: at least the best route beside any of them, ``witness`` one
            # route on the track one of them leaves free; ``known``: the last region worked out
            # on the way here
            self._tick()
            if self.out:
                return
            at_start = len(nodes) == 1
            for v, bit, gbits, bound_v, tok_here, rank_v, group, any_after in adj[cur]:
                if visited & bit or gmask & gbits:
                    continue
                lower = self.best[0]
                vis = visited | bit
                most_v = most + bound_v
                tok_v = tok or tok_here
                end_here = tok_v and start_rank < rank_v
                got = self._onward(region, v, vis, ends, end_only, bounds, any_after) if any_after else -1
                bound = most_v + got if got >= 0 else (most_v if end_here else -1)
                if 2 * bound <= lower or bound + partner <= lower:
                    continue
                new, going, after = _steps(ways, group, at_start)
                if not new:
                    continue
                if after != any_after and got >= 0:
                    got = self._onward(region, v, vis, ends, end_only, bounds, after) if after else -1
                    bound = most_v + got if got >= 0 else (most_v if end_here else -1)
                    if 2 * bound <= lower or bound + partner <= lower:
                        continue
                common = -1
                for way in new:
                    common &= way[0]
                partner_v, witness_v, known_v = partner, witness, known
                if common & witness[1]:  # every way takes some of the witness's track: the partner may be worse
                    known_v = (common, self._region(common, known))
                    most_free = self._region_best(known_v[1])
                    if bound + most_free <= lower:
                        continue  # no pair through here beats ``lower``
                    partner_v = min(partner, most_free)
                nodes.append(v)
                if end_here:
                    rev = self._revenue(vis, nodes)
                    if rev >= 0 and rev + partner_v > self.best[0] and 2 * rev > self.best[0]:
                        self.firsts += 1
                        partner_v, witness_v = value(rev, new, common, partner_v, witness_v, known_v)
                if got >= 0:
                    lower = self.best[0]
                    bound = most_v + got
                    if going and 2 * bound > lower and bound + partner_v > lower:
                        dfs(start_rank, v, vis, gmask | gbits, tok_v, most_v, going,  # noqa: F821 (see below)
                            partner_v, witness_v, known_v, adj, bounds, ends, end_only)
                nodes.pop()

        for s in self.starts:
            bounds = self.bounds[self.port[s]]
            start_rank = self.rank[s]
            ends = self.later_ends[start_rank]
            nodes.append(s)
            dfs(start_rank, s, 1 << s, self.graph.groups[s], self.graph.tokened[s], bounds[s], [(0, 0, None)],
                first[0], first, (0, region), self.adjg[self.port[s]], bounds, ends, ends & ~region.through)
            nodes.pop()
            if self.out:
                break
        # (dfs names itself: the reference cycle would keep every region of this search for the
        # collector, paused meanwhile, which then walks them all: 98k objects, 44 ms on NBDS)
        del dfs
        return self.best


def _steps(ways: list[Way], group: list[Any], at_start: bool) -> tuple[list[Way], list[Way], int]:
    """The ways of a route going on to a stop by one of ``group``'s links (those sharing no
    track or junction with the way): all of them, those that may go on from there, and the stops
    those may go on to."""
    new: list[Way] = []
    going: list[Way] = []
    after = 0
    for mask, jmask, chain in ways:
        for lmask, ljmask, term_u, open_v, link, after_v in group:
            if mask & lmask or jmask & ljmask or (term_u and not at_start):
                continue
            way = (mask | lmask, jmask | ljmask, (link, chain))
            new.append(way)
            if open_v:
                going.append(way)
                after |= after_v
    return new, going, after
