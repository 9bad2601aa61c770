"""Long routes listed only where they can pay (the router's dense late positions, issue #24).

When one train reaches further than every other (a D-train beside 5- and 6-trains, a national's
8-train), routes longer than the others' reach are its alone. A lone train is the case without
other trains: its routes are listed only while they may beat the best found so far. The best
total is at least any feasible assignment found so far (``lower``); the other trains add at most
the sum of their best routes (``others``); so a long route earning less than ``lower - others``
is in no assignment as good and need not be listed (those earning that much are kept: the
assignment worth ``lower`` stays in the lists). The search for long routes stops following a partial route as
soon as what it earns plus an upper bound on what its continuation can add is below that
threshold; ``lower`` grows during the search (each long route that may beat it is valued
with the best the other trains can run beside it, by a small exact search), so the threshold
does too.

The bound on a continuation from the route's open end: every stop still reachable from there
without passing a stop already visited or a stop a route may only end at (an off-board, a full
city, a stop joined to one stop only), in the best of the parts of the map the end's neighbours
lead to (a route cannot come back through its end to a second part; only neighbours it may go on
to by a link sharing no track with the one it came by count); those it could only end
at count once (the best of them); each stop counts its :func:`stop_bounds` value (what it
earns alone; a route through one of 1836Jr56's ports, which pays once per station on it, counts
each station that much more and the port nothing). Each route is listed from one of its ends:
stops a route may only end at come first in that order, ports first of all, so a route from any
other stop cannot end at one and its bound leaves them out.

A partial route over the same stops to the same stop as one followed before from the same
start, on all of its track and more, is not followed: its routes would each be beaten by one
over the same stops on less track. Nor is one whose track beyond the other's is all on links
between stops both have visited (:func:`behind`: no route goes on there) when the other trains
have at least the same candidates beside the one followed (1836Jr56's parallel track: MESS's
long routes 85 -> 44 ms). Partial routes over the same stops that differ only in track
(parallel links between two stops) are followed together: each stop's bound and reach is
worked out once for all of them, their track and the other trains' candidates each their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..entities import Corporation
    from ..game import Game
    from .graph import Link, NodeRef, RouteGraph


def stop_bounds(game: Game, corp: Corporation, graph: RouteGraph) -> tuple[list[int], list[int]] | None:
    """Per stop, the most it can add to a route's revenue: its own revenue with the title's
    bonuses for it alone (never below its printed value); and the same for a route through a
    port off-board (1836Jr56, ``game.rules.port_offboard_hexes``), which earns nothing of its
    own but its value for every station of the corporation on the route: there the port
    counts nothing and each station its value more (a route visits one port at most: they are
    one node group). In the first list a port counts its value once per station on the map.
    None when routes are not priced stop by stop (per-train pricing, route extension)."""
    if game.scores_routes_per_train or game.extends_routes:
        return None
    ports = set(game.rules.port_offboard_hexes)
    stations = sum(graph.tokened)
    price = game.route_pricer(corp)
    plain: list[int] = []
    for i, ref in enumerate(graph.stops):
        if ref[0] in ports:
            plain.append(max(graph.value[i], 0) * stations)
            continue
        try:
            alone = price([ref])
        except GameError:
            return None
        plain.append(max(alone, graph.value[i], 0))
    port_values = [max(graph.value[i], 0) for i, ref in enumerate(graph.stops) if ref[0] in ports]
    if not port_values:
        return plain, plain
    per_station = max(port_values)
    via_port = [0 if ref[0] in ports else b + per_station * graph.tokened[i]
                for i, (ref, b) in enumerate(zip(graph.stops, plain, strict=True))]
    return plain, via_port


def route_price(price: Callable[[list[NodeRef]], int], graph: RouteGraph, nodes: list[int], port: list[bool],
                port_min: int) -> int:
    """What a route over the stops ``nodes`` earns, -1 when it is not legal: the title refuses it
    (``price``: the title's ``route_pricer``, raising GameError), or it visits one of 1836Jr56's
    ports (``port``) with fewer than ``port_min`` stops."""
    if port_min and len(nodes) < port_min and any(port[i] for i in nodes):
        return -1
    try:
        return price([graph.stops[i] for i in nodes])
    except GameError:
        return -1


def stop_links(graph: RouteGraph) -> tuple[list[int], int, int]:
    """Per stop the stops one link away (a bit set each); the stops reachable from a station; the
    stops a route may pass through: not an off-board or a full city, and joined to two stops a
    route may visit (one joined to a single stop can only start or end a route)."""
    n = len(graph.stops)
    nbr = [0] * n
    for u in range(n):
        for link in graph.adj[u]:
            nbr[u] |= 1 << link.v
    reach_mask = sum(1 << i for i in range(n) if graph.reachable[i])
    through_mask = sum(1 << i for i in range(n) if graph.through[i] and (nbr[i] & reach_mask).bit_count() > 1)
    return nbr, reach_mask, through_mask


def free_after(graph: RouteGraph, link: Link) -> int:
    """The stops a route may go on to from the far end of ``link`` by a link sharing no track
    (and no junction) with it, not leaving by a terminal path."""
    free = 0
    for lk in graph.adj[link.v]:
        if graph.reachable[lk.v] and not (lk.terminal_u or lk.mask & link.mask or lk.jmask & link.jmask):
            free |= 1 << lk.v
    return free


def bit_stops(graph: RouteGraph) -> tuple[dict[int, int], dict[int, int]]:
    """Per track bit and per junction bit (by index) the stops of the links using it (a bit set)."""
    track: dict[int, int] = {}
    junctions: dict[int, int] = {}
    for row in graph.adj:
        for lk in row:
            ends = 1 << lk.u | 1 << lk.v
            for b in lk.bits:
                track[b] = track.get(b, 0) | ends
            x = lk.jmask
            while x:
                low = x & -x
                x ^= low
                b = low.bit_length() - 1
                junctions[b] = junctions.get(b, 0) | ends
    return track, junctions


def behind(bits: int, visited: int, stops_of: dict[int, int]) -> bool:
    """Whether every link using one of ``bits`` (``stops_of``: as :func:`bit_stops` gives) joins
    two stops of ``visited``: a route over those stops goes on on none of them. Of two partial
    routes over the same stops to the same end, one whose track beyond the other's is all
    behind it can go on wherever the other can."""
    while bits:
        low = bits & -bits
        bits ^= low
        if stops_of.get(low.bit_length() - 1, 0) & ~visited:
            return False
    return True


def reach_parts(cur: int, visited: int, nbr: list[int], through: int, reach_mask: int,
                bounds: list[int]) -> tuple[tuple[int, int, int], ...]:
    """Where a continuation from stop ``cur`` may go (not passing ``visited`` or a stop a route
    may only end at, those not in ``through``; ``nbr[u]``: the stops one link from ``u``): per
    part of the map it may enter (it never comes back to ``cur`` to enter another), the sum of
    the ``bounds`` of the stops there it may pass through, all its stops, and the stops there
    it could only end at although ``through`` has them (a bit set each): those joined to one
    stop it may still use (``cur`` included) cannot be passed through now."""
    free = reach_mask & ~visited  # (positive bit sets: the faster operations)
    usable = free | 1 << cur
    todo = nbr[cur] & free
    parts = []
    while todo:
        reach = todo & -todo
        frontier = reach & through
        mids = dead = 0
        while frontier:  # each stop it may pass through is in the frontier once
            new = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                v = low.bit_length() - 1
                joined = nbr[v] & usable
                if joined & (joined - 1):  # two stops or more: it may be passed through
                    mids += bounds[v]
                    new |= joined
                else:
                    dead |= low
            new &= free
            new ^= new & reach
            reach |= new
            frontier = new & through
        # (a stop it may not pass, beside two parts, is in both)
        todo ^= todo & reach
        parts.append((mids, reach, dead))
    return tuple(parts)


def bit_users(masks: list[int], chunk: int = 8192) -> dict[int, int]:
    """Per bit set in any of ``masks``, the masks that have it as a bit set (bit j: ``masks[j]``).
    The masks are written in binary, one row each, and every column read off at once: C string
    operations instead of a Python step per mask and bit (93,000 routes: 0.1 s instead of 0.26)."""
    used = 0
    for m in masks:
        used |= m
    width = used.bit_length()
    bits = [b for b in range(width) if used >> b & 1]
    fmt = f"0{width}b"
    out: dict[int, int] = {}
    for start in range(0, len(masks), chunk):  # (rows of a few megabytes at most)
        rows = "".join([format(m, fmt) for m in masks[start:start + chunk]])
        for b in bits:
            column = int(rows[width - 1 - b::width][::-1], 2)
            if column:
                out[b] = out.get(b, 0) | column << start
    return out


def end_best(last: int, bounds: list[int]) -> int:
    """The best of the ``bounds`` of the stops in ``last`` (a route's last stop is one of them)."""
    end = 0
    while last:
        low = last & -last
        last ^= low
        got = bounds[low.bit_length() - 1]
        if got > end:
            end = got
    return end


class LongRoutes:
    """Lists the routes of more than ``short_max`` and at most ``max_stops`` stops that could be
    in an assignment better than ``lower`` (see the module docstring).

    ``short`` (revenue, mask, stops) are the other trains' candidates, best first,
    ``short_links`` their links, and ``other_reaches`` the other trains' reaches. A partial
    route also carries the set of those candidates that share no track with it: the other
    trains add at most the best of them (:meth:`others_best`)."""

    def __init__(self, graph: RouteGraph, bounds: tuple[list[int], list[int]], short_max: int, max_stops: int,
                 lower: int, short: list[tuple[int, int, int]], other_reaches: list[int],
                 short_links: list[tuple[Link, ...]]):
        self.graph = graph
        self.plain_bounds, self.port_bounds = bounds
        self.bounds = self.plain_bounds  # those of the routes listed now (see via_port)
        self.short_max = short_max
        self.max_stops = max_stops
        self.lower = lower
        self.short = short
        self.other_reaches = other_reaches
        self.nbr, self.reach_mask, self.through_mask = stop_links(graph)
        # the other trains' candidates as bit sets (bit j: short[j]): per track bit those using
        # it, per reach those fitting, per link (by id) those sharing track with it
        self.short_rev = [r for r, _, _ in short]
        self.users = bit_users([m for _, m, _ in short])
        # (bit sets of thousands of candidates are written out in binary: a sum of powers of two
        # would take time growing with the square of their number)
        self.fits = [int("".join(["1" if n <= d else "0" for _, _, n in reversed(short)]) or "0", 2)
                     for d in other_reaches]
        self.all_short = (1 << len(short)) - 1
        self.link_conf: dict[int, int] = {}
        self.short_links = short_links
        self.short_conf: dict[int, int] = {}
        self._beat = 0  # the best the other trains earn together, while _best_others runs
        self.memo: dict[tuple[int, int], tuple[tuple[int, int, int], ...]] = {}
        self.unlimited = max_stops >= len(graph.stops)

    def via_port(self, port: bool) -> list[int]:
        """The bounds of routes from a port (``port``) or from any other stop, now in use."""
        self.bounds = self.port_bounds if port else self.plain_bounds
        return self.bounds

    def reach_of(self, cur: int, visited: int) -> tuple[tuple[int, int, int], ...]:
        """Where a continuation from stop ``cur`` may go (:func:`reach_parts`, kept in ``memo``)."""
        kept = self.memo[(cur, visited)] = reach_parts(cur, visited, self.nbr, self.through_mask,
                                                      self.reach_mask, self.bounds)
        return kept

    def end_best(self, last: int) -> int:
        """The best bound of the stops in ``last`` (a route's last stop is one of them)."""
        return end_best(last, self.bounds)

    def capped(self, got: int, reach: int, count: int, ends: int) -> int:
        """``got`` for a train reaching ``max_stops`` stops of which the route has ``count``:
        at most the best of the stops it may still visit."""
        left = self.max_stops - count
        if (reach & self.through_mask).bit_count() + 1 <= left:
            return got
        values = []
        x = reach & (self.through_mask | ends)
        while x:
            low = x & -x
            x ^= low
            values.append(self.bounds[low.bit_length() - 1])
        values.sort(reverse=True)
        return min(got, sum(values[:left]))

    def conflicts(self, link: Link) -> int:
        """The other trains' candidates sharing track with ``link``."""
        got = self.link_conf.get(id(link))
        if got is None:
            got = 0
            users = self.users
            for b in link.bits:
                got |= users.get(b, 0)
            self.link_conf[id(link)] = got
        return got

    def others_best(self, allowed: int) -> tuple[int, int]:
        """Most the other trains can add with candidates in ``allowed`` (each its best one),
        and those best candidates (a bit set: while none of them is taken away, the sum stays)."""
        total = picks = 0
        rev = self.short_rev
        for fits in self.fits:
            x = allowed & fits
            if x:
                low = x & -x
                total += rev[low.bit_length() - 1]
                picks |= low
        return total, picks

    def found(self, revenue: int, allowed: int, rest: int) -> None:
        """A long route earning ``revenue`` was listed, beside which the other trains may run
        candidates in ``allowed`` (earning at most ``rest``): the best they earn there raises
        ``lower``."""
        if revenue + rest <= self.lower:
            return
        total = revenue + self._best_others(allowed, self.lower - revenue)
        if total > self.lower:
            self.lower = total

    def _best_others(self, allowed: int, beat: int) -> int:
        """The most the other trains earn together with candidates in ``allowed`` (their routes
        sharing no track), when that is more than ``beat`` (else at most ``beat``)."""
        self._beat = beat
        self._others_from(0, allowed, 0)
        return self._beat

    def _others_from(self, i: int, allowed: int, acc: int) -> None:
        # branch and bound over the other trains from the i-th on, ``acc`` earned before it
        fits, rev = self.fits, self.short_rev
        if i == len(fits):
            if acc > self._beat:
                self._beat = acc
            return
        rest = 0
        for f in fits[i + 1:]:
            x = allowed & f
            if x:
                rest += rev[(x & -x).bit_length() - 1]
        x = allowed & fits[i]
        while x:
            low = x & -x
            x ^= low
            j = low.bit_length() - 1
            if acc + rev[j] + rest <= self._beat:
                break
            self._others_from(i + 1, allowed & ~self._short_conflicts(j), acc + rev[j])
        if acc + rest > self._beat:
            self._others_from(i + 1, allowed, acc)

    def _short_conflicts(self, j: int) -> int:
        """The other trains' candidates sharing track with candidate ``j`` (itself included)."""
        got = self.short_conf.get(j)
        if got is None:
            got = 0
            for link in self.short_links[j]:
                got |= self.conflicts(link)
            self.short_conf[j] = got
        return got
