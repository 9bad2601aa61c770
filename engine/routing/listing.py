"""Every legal route of a corporation, listed once (step 2 of :mod:`engine.routing.router`):
depth-first from every stop a station reaches, each route kept with its revenue and track."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .clock import Clock
from .extension import route_terminal_needs
from .graph import Link, RouteGraph, unwind
from .long import LongRoutes, behind, bit_stops, free_after, route_price

if TYPE_CHECKING:
    from ..game import Game


class Candidate(NamedTuple):
    """One legal route: its revenue, track mask, stops and the links between them (a named
    tuple: thousands are made per search, twice as fast as a frozen dataclass)."""

    revenue: int
    mask: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]



def port_rule(game: Game, graph: RouteGraph) -> tuple[list[bool], int]:
    """1836Jr56 port off-boards: a route visiting one needs ``PORT_MIN_STOPS`` stops."""
    hexes = set(game.rules.port_offboard_hexes)
    need = game.rules.port_min_stops
    return [ref[0] in hexes for ref in graph.stops], need



def enumerate_routes(game: Game, corp_sym: str, graph: RouteGraph, max_stops: int,
                     clock: Clock | None = None, deadline: float | None = None,
                     long: LongRoutes | None = None) -> list[Candidate]:
    """Every legal route of at most ``max_stops`` stops, best revenue first.

    Revenue comes from ``game.route_revenue`` (a route it refuses with GameError is illegal),
    memoised on the set of stops: it depends on which stops a route visits, not their order.
    Routes are found from the end that comes first in the order stations, other stops; so
    when ``deadline`` cuts the search short, routes ending at a station are already in.

    With ``long`` only routes of more than ``long.short_max`` stops are listed, those that may
    beat its threshold (:mod:`engine.routing.long`)."""
    corp = game.corp(corp_sym)
    clock = clock or Clock(float("inf"))
    limit = clock.deadline if deadline is None else deadline
    adj, through, tokened, reachable = graph.adj, graph.through, graph.tokened, graph.reachable
    groups = graph.groups
    port, port_min = port_rule(game, graph)
    price = game.route_pricer(corp)
    stops = graph.stops
    # (long routes: from stops a route may only end at first, so that a route from any other
    # stop cannot end at one, which bounds it the sooner; ports first of all: their bound, a
    # share of every station's, then counts only for routes from them)
    starts = sorted((i for i in range(len(stops)) if reachable[i]),
                    key=lambda i: (long is not None and long.through_mask >> i & 1,
                                   long is not None and not port[i], not tokened[i], i))
    rank = [len(stops)] * len(stops)
    for r, i in enumerate(starts):
        rank[i] = r
    # terminal track (1833NE's Portland crossing) only leads to a route's first or last stop
    term_needs = route_terminal_needs(game, graph)
    revenue_of: dict[int, int] = {}
    # routes listed per set of stops, by track (with route extension a route's end matters too)
    listed: dict[int, list[int]] = {}
    dominance = not game.extends_routes
    out: list[Candidate] = []
    nodes: list[int] = []
    links: list[Link] = []
    ticks = 0

    def record(visited: int, mask: int, allowed: int = 0, rest: int = 0,
               way: tuple[Link, ...] | None = None) -> bool:
        """Keep the route in ``nodes``/``links`` (or ``way``) when legal (True)."""
        route_links = links if way is None else way
        if term_needs:
            ends = (nodes[0], nodes[-1])
            for link in route_links:
                need = term_needs.get(id(link))
                if need and any(i not in ends for i in need):
                    return False
        if dominance:
            # a route over the same stops (same revenue) on less track serves wherever this one would
            kept = listed.get(visited)
            if kept is None:
                listed[visited] = [mask]
            else:
                for m in kept:
                    if m & mask == m:
                        return False
                kept.append(mask)
        rev = revenue_of.get(visited)
        if rev is None:
            rev = revenue_of[visited] = route_price(price, graph, nodes, port, port_min)
        if rev >= 0:
            out.append(Candidate(rev, mask, tuple(nodes), tuple(route_links)))
            if long is not None:
                long.found(rev, allowed, rest)
            return True
        return False

    def dfs(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool,
            open_end: bool) -> None:
        nonlocal ticks
        ticks += 1
        if ticks & 4095 == 0 and clock.expired(limit, 4096):
            return
        count = len(nodes)
        if count >= 2 and tok and start_rank < rank[cur]:
            record(visited, mask)
        if count >= max_stops or not open_end:
            return
        for v, bit, lmask, ljmask, gbits, tok_v, open_v, term_u, link in tadj[cur]:
            if visited & bit or mask & lmask or jmask & ljmask or gmask & gbits or (count > 1 and term_u):
                continue
            nodes.append(v)
            links.append(link)
            dfs(start_rank, v, visited | bit, mask | lmask, jmask | ljmask, gmask | gbits, tok or tok_v,  # noqa: F821
                open_v)  # (F821: the name is deleted once the listing is done, see below)
            nodes.pop()
            links.pop()
            if clock.out:
                return

    def dfs_long(start_rank: int, cur: int, visited: int, gmask: int, tok: bool, most: int,
                 ways: list[tuple[int, int, int, int, int, Any]]) -> None:
        # as dfs, listing only long routes, following a partial route only while it may pay
        # (``most``: the bounds of its stops); the partial routes over the same stops that differ
        # in track (parallel links) are followed together, one of ``ways`` each: (track,
        # junctions, the other trains' candidates sharing no track with it, ``rest`` and
        # ``picks``: the best of those as others_best tells, its links as (last, earlier));
        # the caller has checked that ``cur`` leaves the route open; each way counts as a step
        nonlocal ticks
        ticks += len(ways)
        if ticks >= 4096:
            work, ticks = ticks, 0
            if clock.expired(limit, work):
                return
        count = len(nodes)
        if count >= max_stops:
            return
        assert long is not None
        ends = later_ends[start_rank]
        end_only = ends & ~through_mask
        first = count == 1
        may_end = count >= short_max
        for v, bit, gbits, bound_v, tok_here, rank_v, group in ladj[cur]:
            if visited & bit or gmask & gbits:
                continue
            lower = long.lower
            vis = visited | bit
            vis_v = vis << end_bits | v  # (the stops and the end: a key of ``followed``)
            most_v = most + bound_v
            tok_v = tok or tok_here
            end_v = may_end and tok_v and start_rank < rank_v
            gots: dict[int, int] = {}  # onward bound per stops it may go on to (``after``)
            parts = None
            onward: list[tuple[int, int, int, int, int, Any]] = []
            stepped = False
            for mask, jmask, allowed, rest, picks, chain in ways:
                for lmask, ljmask, term_u, open_v, link, conf, free, after in group:
                    if mask & lmask or jmask & ljmask or (term_u and not first):
                        continue
                    # first with ``rest`` (what the others add beside the route before this
                    # link, at least what they add beside it with the link): may the route end
                    # here, go on?
                    end_here = end_v and most_v + rest >= lower
                    got = -1
                    if open_v and count + 1 < max_stops and after & ~vis:
                        got = gots.get(after, -2)
                        if got == -2:
                            # onwards only while it may pay: in a part of the map it may go on
                            # to (by a link sharing no track with this one: to a stop in
                            # ``after``), with a stop where a route from this start may end,
                            # all stops it may pass through and the best it may end at
                            if parts is None:
                                parts = memo.get((v, vis))
                                if parts is None:  # (none at all is kept too)
                                    parts = long.reach_of(v, vis)
                            got = -1
                            for mids, reach, dead in parts:
                                if reach & ends and reach & after:
                                    last = (reach & end_only) | (dead & ends)
                                    part = mids + long.end_best(last) if last else mids
                                    if not unlimited:
                                        part = long.capped(part, reach, count + 1, ends)
                                    if part > got:
                                        got = part
                            gots[after] = got
                        if got >= 0 and most_v + got + rest < lower:
                            got = -1
                    if not end_here and got < 0:
                        continue
                    allowed_v = allowed & free
                    if conf & picks:  # one of the others' best candidates is taken away
                        rest_v, picks_v = long.others_best(allowed_v)
                    else:
                        rest_v, picks_v = rest, picks
                    if not stepped:
                        nodes.append(v)
                        stepped = True
                    chain_v = (link, chain)
                    if end_here and most_v + rest_v >= lower:
                        if record(vis, mask | lmask, allowed_v, rest_v, unwind(chain_v)):
                            allowed_of[len(out) - 1] = allowed_v
                        lower = long.lower
                    if got >= 0 and most_v + got + rest_v >= lower:
                        # a partial route from this start to v over the same stops has been
                        # followed on less track (or on other track only behind them, see
                        # long.behind), beside at least the same candidates of the other
                        # trains: this one can only list routes it serves as well (when
                        # legality depends only on stops and track: no terminal track that
                        # must end a route)
                        m_v, j_v = mask | lmask, jmask | ljmask
                        tried = followed.get(vis_v)
                        dominated = False
                        if tried is None:
                            followed[vis_v] = [(m_v, j_v, allowed_v)]
                        else:
                            if not term_needs:
                                for m, j, a in tried:
                                    extra, extra_j = m & ~m_v, j & ~j_v
                                    if extra or extra_j:
                                        if allowed_v & a != allowed_v or not (
                                                behind(extra, vis, track_stops)
                                                and behind(extra_j, vis, junction_stops)):
                                            continue
                                    dominated = True
                                    break
                            if not dominated:
                                tried.append((m_v, j_v, allowed_v))
                        if not dominated:
                            onward.append((m_v, j_v, allowed_v, rest_v, picks_v, chain_v))
            if onward:
                dfs_long(start_rank, v, vis, gmask | gbits, tok_v, most_v, onward)  # noqa: F821 (see dfs)
            if stepped:
                nodes.pop()
            if clock.out:
                return

    allowed_of: dict[int, int] = {}  # long routes listed: index in ``out`` -> allowed (see dfs_long)
    # links as tuples, unreachable stops left out; for the long search with what it reads of
    # their far stop (with the bounds of routes from a port or from other stops: ``via_port``)
    # and the other trains' candidates sharing track with them and those not
    tadj = [[(lk.v, 1 << lk.v, lk.mask, lk.jmask, groups[lk.v], tokened[lk.v], through[lk.v] and not lk.terminal_v,
              lk.terminal_u, lk) for lk in row if reachable[lk.v]] for row in adj]
    ladjs: dict[bool, list[list[Any]]] = {}  # per bounds in use (from a port or not)

    def long_links(bounds: list[int]) -> list[list[Any]]:
        # per stop, per far stop (in the order of the first link there): its links
        assert long is not None
        rows = []
        for row in adj:
            by_stop: dict[int, list[Any]] = {}
            for lk in row:
                if reachable[lk.v]:
                    by_stop.setdefault(lk.v, []).append(
                        (lk.mask, lk.jmask, lk.terminal_u, through[lk.v] and not lk.terminal_v, lk,
                         long.conflicts(lk), long.all_short & ~long.conflicts(lk), free_after(graph, lk)))
            rows.append([(v, 1 << v, groups[v], bounds[v], tokened[v], rank[v], group)
                         for v, group in by_stop.items()])
        return rows

    ladj: list[list[Any]] = []
    short_max = long.short_max if long is not None else 0
    memo = long.memo if long is not None else {}
    unlimited = long.unlimited if long is not None else False
    through_mask = long.through_mask if long is not None else 0
    # per start rank: the stops a route found from that start may end at (those ranked after it)
    later_ends = [sum(1 << i for i in range(len(stops)) if rank[i] > r) for r in range(len(starts))] \
        if long is not None else []
    followed: dict[int, list[tuple[int, int, int]]] = {}  # per start: stops and end -> (track, junctions, allowed)
    end_bits = len(stops).bit_length()
    track_stops, junction_stops = bit_stops(graph)
    for s in starts:
        nodes.append(s)
        followed.clear()
        if long is None:
            dfs(rank[s], s, 1 << s, 0, 0, groups[s], tokened[s], True)
        else:
            bounds = long.via_port(port[s])
            if port[s] not in ladjs:
                ladjs[port[s]] = long_links(bounds)
            ladj = ladjs[port[s]]
            rest, picks = long.others_best(long.all_short)
            dfs_long(rank[s], s, 1 << s, groups[s], tokened[s], bounds[s], [(0, 0, long.all_short, rest, picks, None)])
        nodes.pop()
        if clock.out:
            break
    if long is not None:  # those that may still pay with the final lower bound
        found = [c for i, c in enumerate(out) if c.revenue + long.others_best(allowed_of[i])[0] >= long.lower]
    else:
        found = list(out)
    found.sort(key=lambda c: -c.revenue)
    # the recursive functions above refer to themselves: the reference cycle would keep all they
    # use (the long search's lists of the other trains' candidates too) for the garbage collector
    # (paused during a search, see best_routes) unless broken now
    del dfs, dfs_long
    return found
