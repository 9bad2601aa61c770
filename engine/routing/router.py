"""Best routes for a corporation's trains, found exactly (issue #7).

Algorithm:

1. :func:`engine.routing.graph.build_graph` reduces the map to stops (cities, towns,
   off-boards) and *links* (each way along the track from one stop to the next), each with a
   bit mask of the tile paths and hex sides it uses.
2. Every legal route is enumerated once by depth-first search from every stop a station
   reaches: simple in stops and junctions, no track used twice, at most as many stops as the
   longest train, at least two stops, a station of the corporation on it, off-boards, terminal
   paths and cities full of other corporations' tokens only at its ends, each node group
   (multi-hex off-boards) at most once; terminal track only to its ends.  Each route is kept
   with its revenue from ``game.route_revenue`` (title bonuses included) and its track mask.
   A title whose revenue depends on the train (1833NE's N/M and N+s sides) has
   ``game.route_revenue_for_train(corp, stops, train)``: routes are then listed up to the
   longest reach of any train and scored again for each kind of train (name and reach); a
   route a kind cannot run (GameError) or that earns it nothing is left out of its list.
   A route over the same stops as one listed before, on all of its track and more, is left out
   (it earns the same and frees less track; not with route extension, where its end matters).
3. Branch and bound assigns routes to trains (best-earning kinds and longest trains first;
   trains of the same kind take candidates in increasing order so no assignment is tried
   twice; "no route" is always an option).  Each kind of train has its own candidate list,
   sorted by what it earns there.  It starts from a greedy assignment and drops every candidate whose
   revenue plus the best the other trains could earn does not beat it.  Sets of candidates
   are bit sets (Python ints) over the list sorted by revenue, with, per candidate, the set
   of candidates sharing track with it; placing a route removes its conflicts from every
   kind's list.  The bound at each node is the revenue so far plus, for every train still to
   place, the best candidate of its kind still compatible with the routes placed: nothing those trains can add exceeds it, so a
   pruned branch cannot beat the best set found.  Trains of the kind just placed take routes
   after its own in the list, so they earn no more than it.

Long routes (:mod:`engine.routing.long`): when one train reaches more than five stops and
further than every other train (a D-train beside 5s and 6s; a lone train reaching more than
four), every route the other trains can run is listed first, then only the longer routes that may still be in an assignment as good as
the best found so far, by a search that stops following a partial route once an upper bound on
what it and the other trains can earn falls below that. Candidate lists are kept per train
reach, and conflicts are computed only for the lists of trains placed later.

Two trains that reach every stop (two D-trains, :mod:`engine.routing.pair`): when listing every
route takes more than half the budget (at most half a second), the pair search gets the rest:
it follows one route and keeps beside it the best route the other train can still run.

Route extension (1833NE cross-connection bonuses, :mod:`engine.routing.extension`): a title
with ``game.extension_gains`` lets a route go on past its counted stops to a bonus place.
Each candidate's revenue then includes an optimistic gain (an upper bound, so pruning stays
admissible), and every complete assignment is valued with its exact extensions.

When both phases finish the answer is optimal.  A time budget (default 1 s) is the safety
net: listing all routes may take 60 % of it; if it is cut short, routes of at most six stops
from every station are added (until 80 %), and branch and bound gets the rest.  The best set
found is then returned with ``optimal=False`` and ``stopped`` saying where it stopped.

The cyclic garbage collector is paused during a search: the collections its many short-lived
objects would trigger walk every object of the process (every loaded game).
"""

from __future__ import annotations

import gc
import time
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import neg
from typing import TYPE_CHECKING, Any, NamedTuple

from ..beside import Beside
from ..errors import NOT_OWNER, GameError
from .check import check_route, check_routes
from .check import route_order as _route_order
from .check import side_keys as _side_keys
from .extension import Extender, Path, route_terminal_needs, terminal_needs
from .graph import Link, RouteGraph, network_key
from .long import LongRoutes, bit_users, free_after, route_price, stop_bounds
from .pair import PairSearch

if TYPE_CHECKING:
    from ..entities import Train
    from ..game import Game
    from ..map.board import Board

NodeRef = tuple[str, int]

# route checks live in engine.routing.check; 1833NE's routes import its helpers from here too
__all__ = ["RouteSolution", "best_route_for_train", "best_routes", "cached_best_routes", "check_route",
           "known_best_routes", "check_routes",
           "enumerate_routes", "route_dict", "_route_order", "_side_keys"]

_LISTING_SHARE = 0.6  # share of the time budget listing all routes may take
_SHORT_STOPS = 6  # when that is not enough, routes of at most this many stops are listed too
_SHORT_SHARE = 0.8  # ... until this share of the budget
# solved positions per board (engine.routing.router.cached_best_routes)
_SOLVED: Beside[Board, dict[tuple[Any, ...], tuple[float, RouteSolution]]] = Beside(dict)
# solved networks per board (engine.routing.router._network_best_routes): key -> budget, trains, answer
_NETWORKS: Beside[Board, dict[tuple[Any, ...], tuple[float, tuple[str, ...], RouteSolution]]] = Beside(dict)
_SPLIT_LISTING_SHARE = 0.85  # share of the budget the listing with bounded long routes may take
_SPLIT_FROM = 5  # long routes are bounded (router_long) for a train reaching more stops than this
_LONE_FROM = 4  # ... and for a lone train reaching more stops than this
# two trains reaching every stop: listing all routes may take this share of the budget (at most
# _PAIR_LISTING_MOST seconds); when that is not enough, the pair search gets the rest
_PAIR_LISTING_SHARE = 0.5
_PAIR_LISTING_MOST = 0.5


@dataclass
class RouteSolution:
    """The best routes found for ``corp``; ``routes`` can be submitted as a RunRoutes action."""

    corp: str
    routes: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    optimal: bool = True
    elapsed_ms: float = 0.0
    candidates: int = 0  # legal routes enumerated (for the longest train)
    stopped: str | None = None  # why the search stopped early (None when it finished)


class Candidate(NamedTuple):
    """One legal route: its revenue, track mask, stops and the links between them (a named
    tuple: thousands are made per search, twice as fast as a frozen dataclass)."""

    revenue: int
    mask: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]


WORK_RATE = 300_000.0  # steps of search per second of CPU in dense positions on this machine (measured)


class _Clock:
    """The search's budget: ``deadline`` for the whole search; ``out`` once it has passed. On
    the wall clock, or, with ``work_rate``, on a clock of work done: each step of the search
    counts ``1 / work_rate`` seconds, so that a search
    stops at the same point on a busy machine as on an idle one (the computer player's
    decisions are the same for the same game)."""

    def __init__(self, budget: float, work_rate: float | None = None):
        self.rate = work_rate
        self.looks = 0
        self.began = time.perf_counter()
        self.start = 0.0 if work_rate else self.began
        self.deadline = self.start + budget
        self.out = False

    def now(self, work: int = 1) -> float:
        if self.rate:
            self.looks += work
            return self.looks / self.rate
        return time.perf_counter()

    def expired(self, deadline: float | None = None, work: int = 1) -> bool:
        """``work``: the steps done since the caller last looked."""
        if self.now(work) > (self.deadline if deadline is None else deadline):
            self.out = True
        return self.out

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.began) * 1000.0


# ---------------------------------------------------------------------------- enumeration
def _port_rule(game: Game, graph: RouteGraph) -> tuple[list[bool], int]:
    """1836Jr56 port off-boards: a route visiting one needs ``PORT_MIN_STOPS`` stops."""
    hexes = set(game.rules.port_offboard_hexes)
    need = game.rules.port_min_stops
    return [ref[0] in hexes for ref in graph.stops], need


def enumerate_routes(game: Game, corp_sym: str, graph: RouteGraph, max_stops: int,
                     clock: _Clock | None = None, deadline: float | None = None,
                     long: LongRoutes | None = None) -> list[Candidate]:
    """Every legal route of at most ``max_stops`` stops, best revenue first.

    Revenue comes from ``game.route_revenue`` (a route it refuses with GameError is illegal),
    memoised on the set of stops: it depends on which stops a route visits, not their order.
    Routes are found from the end that comes first in the order stations, other stops; so
    when ``deadline`` cuts the search short, routes ending at a station are already in.

    With ``long`` only routes of more than ``long.short_max`` stops are listed, those that may
    beat its threshold (:mod:`engine.routing.long`)."""
    corp = game.corp(corp_sym)
    clock = clock or _Clock(float("inf"))
    limit = clock.deadline if deadline is None else deadline
    adj, through, tokened, reachable = graph.adj, graph.through, graph.tokened, graph.reachable
    groups = graph.groups
    port, port_min = _port_rule(game, graph)
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

    def record(visited: int, mask: int, allowed: int = 0, rest: int = 0) -> bool:
        """Keep the route in ``nodes``/``links`` when legal (True)."""
        if term_needs:
            ends = (nodes[0], nodes[-1])
            for link in links:
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
            out.append(Candidate(rev, mask, tuple(nodes), tuple(links)))
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
            dfs(start_rank, v, visited | bit, mask | lmask, jmask | ljmask, gmask | gbits, tok or tok_v, open_v)
            nodes.pop()
            links.pop()
            if clock.out:
                return

    def dfs_long(start_rank: int, cur: int, visited: int, mask: int, jmask: int, gmask: int, tok: bool,
                 most: int, allowed: int, rest: int, picks: int) -> None:
        # as dfs, listing only long routes, following a partial route only while it may pay
        # (``most``: the bounds of its stops; ``allowed``: the other trains' candidates that
        # share no track with it, ``rest`` and ``picks`` the best of them as others_best tells);
        # the caller has checked that ``cur`` leaves the route open
        nonlocal ticks
        ticks += 1
        if ticks & 4095 == 0 and clock.expired(limit, 4096):
            return
        count = len(nodes)
        if count >= max_stops:
            return
        assert long is not None
        lower = long.lower
        ends = later_ends[start_rank]
        end_only = ends & ~through_mask
        first = count == 1
        for v, bit, lmask, ljmask, gbits, term_u, open_v, bound_v, tok_here, rank_v, link, conf, after in ladj[cur]:
            if visited & bit or mask & lmask or jmask & ljmask or gmask & gbits or (term_u and not first):
                continue
            vis = visited | bit
            most_v = most + bound_v
            tok_v = tok or tok_here
            # first with ``rest`` (what the others add beside the route before this link, at
            # least what they add beside it with the link): may the route end here, go on?
            end_here = count >= short_max and tok_v and start_rank < rank_v and most_v + rest >= lower
            got = -1
            if open_v and count + 1 < max_stops and after & ~vis:
                # onwards only while it may pay: in a part of the map it may go on to (by a link
                # sharing no track with this one: to a stop in ``after``), with a stop where a
                # route from this start may end, all stops it may pass through and the best it
                # may end at
                parts = memo.get((v, vis))
                if parts is None:  # (none at all is kept too)
                    parts = long.reach_of(v, vis)
                for mids, reach, dead in parts:
                    if reach & ends and reach & after:
                        last = (reach & end_only) | (dead & ends)
                        part = mids + long.end_best(last) if last else mids
                        if not unlimited:
                            part = long.capped(part, reach, count + 1, ends)
                        if part > got:
                            got = part
                if got >= 0 and most_v + got + rest < lower:
                    got = -1
            if not end_here and got < 0:
                continue
            allowed_v = allowed & ~conf
            if conf & picks:  # one of the others' best candidates is taken away
                rest_v, picks_v = long.others_best(allowed_v)
            else:
                rest_v, picks_v = rest, picks
            nodes.append(v)
            if end_here and most_v + rest_v >= lower:
                links.append(link)
                if record(vis, mask | lmask, allowed_v, rest_v):
                    allowed_of[len(out) - 1] = allowed_v
                links.pop()
                lower = long.lower
            if got >= 0 and most_v + got + rest_v >= lower:
                # a partial route from this start to v over the same stops on less track has
                # been followed: this one can only list routes it beats (when legality depends
                # only on stops and track: no terminal track that must end a route)
                m_v, j_v = mask | lmask, jmask | ljmask
                tried = followed.get(vis)
                dominated = False
                if tried is None:
                    followed[vis] = [(v, m_v, j_v)]
                else:
                    if not term_needs:
                        for u, m, j in tried:
                            if u == v and not m & ~m_v and not j & ~j_v:
                                dominated = True
                                break
                    if not dominated:
                        tried.append((v, m_v, j_v))
                if not dominated:
                    links.append(link)
                    dfs_long(start_rank, v, vis, m_v, j_v, gmask | gbits, tok_v, most_v, allowed_v, rest_v, picks_v)
                    links.pop()
            nodes.pop()
            if clock.out:
                return

    allowed_of: dict[int, int] = {}  # long routes listed: index in ``out`` -> allowed (see dfs_long)
    # links as tuples, unreachable stops left out; for the long search with what it reads of
    # their far stop (with the bounds of routes from a port or from other stops: ``via_port``)
    # and the other trains' candidates sharing track with them
    tadj = [[(lk.v, 1 << lk.v, lk.mask, lk.jmask, groups[lk.v], tokened[lk.v], through[lk.v] and not lk.terminal_v,
              lk.terminal_u, lk) for lk in row if reachable[lk.v]] for row in adj]
    ladjs: dict[bool, list[list[Any]]] = {}  # per bounds in use (from a port or not)

    def long_links(bounds: list[int]) -> list[list[Any]]:
        assert long is not None
        return [[(lk.v, 1 << lk.v, lk.mask, lk.jmask, groups[lk.v], lk.terminal_u, through[lk.v] and not lk.terminal_v,
                  bounds[lk.v], tokened[lk.v], rank[lk.v], lk, long.conflicts(lk), free_after(graph, lk))
                 for lk in row if reachable[lk.v]] for row in adj]

    ladj: list[list[Any]] = []
    short_max = long.short_max if long is not None else 0
    memo = long.memo if long is not None else {}
    unlimited = long.unlimited if long is not None else False
    through_mask = long.through_mask if long is not None else 0
    # per start rank: the stops a route found from that start may end at (those ranked after it)
    later_ends = [sum(1 << i for i in range(len(stops)) if rank[i] > r) for r in range(len(starts))] \
        if long is not None else []
    followed: dict[int, list[tuple[int, int, int]]] = {}  # per start: stops -> (end, track, junctions)
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
            dfs_long(rank[s], s, 1 << s, 0, 0, groups[s], tokened[s], bounds[s], long.all_short,
                     *long.others_best(long.all_short))
        nodes.pop()
        if clock.out:
            break
    if long is not None:  # those that may still pay with the final lower bound
        found = [c for i, c in enumerate(out) if c.revenue + long.others_best(allowed_of[i])[0] >= long.lower]
    else:
        found = list(out)
    found.sort(key=lambda c: -c.revenue)
    # the recursive functions above refer to themselves, so what they use waits for the garbage
    # collector (paused during a search, see best_routes) unless emptied now
    for kept in (out, revenue_of, listed, followed, allowed_of, memo, tadj, ladj, ladjs):
        kept.clear()
    return found


# ---------------------------------------------------------------------------- branch and bound
_GREEDY_STARTS = 8  # first routes tried by the greedy start
_GREEDY_SCAN = 4096  # candidates the greedy start looks through for each further train


class _Space:
    """The candidates one kind of train may run, best revenue for that kind first.

    Trains whose revenue does not depend on the train (the 1856 family) share one space,
    told apart only by how many stops they reach (``fits``); for 1833NE each side (``N/M``,
    ``N+s``, ...) scores routes its own way and has a space of its own.  ``glob[j]`` is the
    index in the list of all candidates of local candidate j, ``rev[j]`` its revenue here."""

    def __init__(self, glob: list[int], rev: list[int]):
        self.glob = glob
        self.rev = rev
        self.n = len(glob)
        self.fits: dict[int, int] = {}
        self.users: dict[int, int] = {}  # track bit -> local candidates running on it
        self.conf: dict[int, int] = {}  # global candidate -> local candidates sharing track with it
        self.link_conf: dict[int, int] = {}  # id(link) -> local candidates sharing track with it


class _Assigner:
    """Disjoint candidates, at most one per train, of greatest total revenue.

    ``trains``: (space, stops reached) per train.  Starts from a greedy assignment
    (``best_total``); keeps only candidates that could beat it (revenue above it minus what
    the other trains could earn at best).  Sets of candidates are Python ints used as bit
    sets, one per space, over that space's list (best revenue first, so the lowest set bit
    is the best member).  ``_Space.users[b]``: the candidates running on track bit b;
    ``_Space.fits[d]``: those a train running d stops can take."""

    def __init__(self, cands: list[Candidate], spaces: list[tuple[list[int], list[int]]],
                 trains: list[tuple[int, int]], clock: _Clock, extender: Extender | None = None,
                 optimistic: dict[int, int] | None = None,
                 scan: list[tuple[list[int], list[int]]] | None = None):
        self.cands = cands
        self.clock = clock
        # the lists the greedy start looks through, per space (default: the spaces themselves)
        self.scan = scan
        # route extension: revenues in the spaces include each candidate's optimistic gain
        # (``optimistic``); a complete assignment is valued with the exact extensions
        self.extender = extender
        self.optimistic = optimistic or {}
        self.spaces = [_Space(g, r) for g, r in spaces]
        for sp in self.spaces:  # stop counts each space's trains reach
            sp.fits = {d: 0 for s, d in trains if self.spaces[s] is sp}
        self.trains = trains
        lens = [len(c.stops) for c in cands]
        tops = [next((sp.rev[j] for j in range(sp.n) if lens[sp.glob[j]] <= d), 0)
                for sp, d in ((self.spaces[s], d) for s, d in trains)]
        self.best_total, self.greedy = self._greedy(lens)
        others = sum(tops) - min(tops, default=0)
        floor = self.best_total - others
        n_total = 0
        for sp in self.spaces:
            cut = sp.n
            while cut and sp.rev[cut - 1] <= floor:
                cut -= 1
            sp.glob, sp.rev, sp.n = sp.glob[:cut], sp.rev[:cut], cut
            n_total += cut
        self.ok = bool(trains)
        # spaces whose candidates must be narrowed after placing train i: those of trains after i
        self.later: list[list[int]] = [sorted({s for s, _ in trains[i + 1:]}) for i in range(len(trains))]
        needed = {s for s, _ in trains[1:]}
        for si, sp in enumerate(self.spaces):
            n = sp.n
            # (a reach every candidate fits in needs no bit set built one by one)
            fits = {d: bytearray((n + 8) // 8) for d in sp.fits if not all(lens[g] <= d for g in sp.glob)}
            if fits:
                for j, g in enumerate(sp.glob):
                    for d, arr in fits.items():
                        if lens[g] <= d:
                            arr[j >> 3] |= 1 << (j & 7)
            sp.fits = {d: int.from_bytes(fits[d], "little") if d in fits else (1 << n) - 1 for d in sp.fits}
            if si not in needed:  # only the first train takes from it: conflicts never asked
                continue
            sp.users = bit_users([cands[g].mask for g in sp.glob])
            if clock.expired(work=n):
                self.ok = False  # out of time: the greedy assignment stands
                break
        self.best: list[int | None] | None = None  # None: the greedy assignment is still the best
        self.chosen: list[int | None] = [None] * len(trains)
        self.same_after = [next((n for n, t in enumerate(trains[i + 1:]) if t != trains[i]), len(trains) - i - 1)
                           for i in range(len(trains))]
        self.nodes = 0

    def _greedy(self, lens: list[int]) -> tuple[int, list[tuple[int, int] | None]]:
        """A good feasible assignment: for each of the best few routes of the first train,
        the other trains take the best routes still free, in order (among the first few
        thousand of their space)."""
        trains, cands = self.trains, self.cands
        best_total: int = 0
        best: list[tuple[int, int] | None] = [None] * len(trains)
        if not trains:
            return best_total, best
        s0, d0 = trains[0]
        glob0, rev0 = (self.spaces[s0].glob, self.spaces[s0].rev) if self.scan is None else self.scan[s0]
        masks = [c.mask for c in cands]
        for j0 in range(min(len(glob0), _GREEDY_STARTS)):
            g0 = glob0[j0]
            if lens[g0] > d0:
                continue
            picks: list[tuple[int, int] | None] = [(g0, rev0[j0])]
            used = cands[g0].mask
            total = rev0[j0]
            for s, d in trains[1:]:
                sglob, srev = (self.spaces[s].glob, self.spaces[s].rev) if self.scan is None else self.scan[s]
                pick = None
                for at in range(min(len(sglob), _GREEDY_SCAN)):
                    g = sglob[at]
                    if lens[g] <= d and not masks[g] & used:
                        pick = (g, srev[at])
                        break
                picks.append(pick)
                if pick is not None:
                    used |= cands[pick[0]].mask
                    total += pick[1]
            total = self.actual(total, [p[0] for p in picks if p is not None])
            if total > best_total:
                best_total, best = total, picks
        return best_total, best

    def actual(self, total: int, globs: list[int]) -> int:
        """``total`` (with optimistic extension gains) with the exact extensions instead."""
        if self.extender is None:
            return total
        opt = self.optimistic
        return total - sum(opt.get(g, 0) for g in globs) + self.extender.best(globs)[0]

    def conflicts(self, s: int, g: int, keep: bool = True) -> int:
        """Space ``s``'s candidates sharing track with candidate ``g``: the union, over g's
        links, of those sharing track with the link. Kept per candidate when ``keep``: the
        first train's candidates are each placed once, so theirs are not (one bit per
        candidate each: kept, tens of thousands of them took hundreds of megabytes)."""
        sp = self.spaces[s]
        got = sp.conf.get(g)
        if got is None:
            got = 0
            for link in self.cands[g].links:
                got |= self._link_conflicts(sp, link)
            if keep:
                sp.conf[g] = got
        return got

    @staticmethod
    def _link_conflicts(sp: _Space, link: Link) -> int:
        """``sp``'s candidates sharing track with ``link`` (kept per link: routes share links)."""
        lc = sp.link_conf.get(id(link))
        if lc is None:
            lc = 0
            for b in link.bits:
                lc |= sp.users.get(b, 0)
            sp.link_conf[id(link)] = lc
        return lc

    def _last_pairs(self, i: int, x: int, acc: int, m: int, rest_other: int) -> None:
        """Trains i and i + 1, the last two, of one kind: for each candidate j in ``x`` on
        train i (best first, while it may pay), the best candidate after it that the last train
        may run beside it, if the pair beats the best total. Only candidates earning enough are
        looked at, so the bit sets narrowed link by link are those candidates' length, not the
        whole list's; the candidates are read off ``x`` once (not a bit set step per candidate).
        ``x``: the candidates both trains may run (fitting their reach, from the first allowed)."""
        sp = self.spaces[self.trains[i][0]]
        rev, glob, cands, link_conf = sp.rev, sp.glob, self.cands, sp.link_conf
        upto: dict[int, int] = {}  # per number of candidates earning enough: those of ``x``
        for j in _set_bits(x):
            self.nodes += 1
            if self.nodes & 255 == 0 and self.clock.expired(work=256):
                return
            r = rev[j]
            if acc + r * (m + 1) + rest_other <= self.best_total:
                break
            need = self.best_total - acc - r  # the last train must earn more than this
            hi = bisect_left(rev, -need, key=neg) if need >= 0 else sp.n  # those earning more: [0, hi)
            found = None
            if hi > j + 1:
                top = upto.get(hi)
                if top is None:
                    top = upto[hi] = x & ((1 << hi) - 1)
                cand = top >> (j + 1) << (j + 1)
                for link in cands[glob[j]].links:
                    lc = link_conf.get(id(link))
                    cand ^= cand & (self._link_conflicts(sp, link) if lc is None else lc)
                    if not cand:
                        break
                if cand:
                    found = (cand & -cand).bit_length() - 1
            total = acc + r + (rev[found] if found is not None else 0)
            if total > self.best_total:
                self.best_total = total
                self.chosen[i], self.chosen[i + 1] = j, found
                self.best = list(self.chosen)
                self.chosen[i + 1] = None

    def bound(self, allowed: list[int], i: int) -> int:
        """Upper bound on what trains i.. can add using candidates in ``allowed``: each
        takes the best candidate it may run that is still compatible with the routes placed."""
        total = 0
        spaces = self.spaces
        for s, d in self.trains[i:]:
            sp = spaces[s]
            x = allowed[s] & sp.fits[d]
            if x:
                total += sp.rev[(x & -x).bit_length() - 1]
        return total

    def run(self) -> tuple[int, list[tuple[int, int] | None]]:
        """Best total and, per train in ``trains`` order, its route (index into the list of all
        candidates) and revenue there (optimistic extension gain included), or None."""
        if self.ok and not self.clock.out:
            self.search(0, [(1 << sp.n) - 1 for sp in self.spaces], 0, 0)
        if self.best is None:
            return self.best_total, self.greedy
        out: list[tuple[int, int] | None] = []
        for (s, _), j in zip(self.trains, self.best, strict=True):
            sp = self.spaces[s]
            out.append(None if j is None else (sp.glob[j], sp.rev[j]))
        return self.best_total, out

    def search(self, i: int, allowed: list[int], acc: int, first: int) -> None:
        trains = self.trains
        k = len(trains)
        if i == k:
            if acc > self.best_total and self.extender is not None:
                acc = self.actual(acc, [self.spaces[s].glob[j] for (s, _), j in zip(trains, self.chosen, strict=True)
                                        if j is not None])
            if acc > self.best_total:
                self.best_total = acc
                self.best = list(self.chosen)
            return
        clock = self.clock
        s, d = trains[i]
        sp = self.spaces[s]
        same_next = i + 1 < k and trains[i + 1] == trains[i]
        rest = self.bound(allowed, i + 1)
        # the m trains of this kind after it take candidates after its own (earning no more)
        m = self.same_after[i]
        rest_other = self.bound(allowed, i + 1 + m) if m else rest
        x = (allowed[s] & sp.fits[d]) >> first << first
        rev, glob = sp.rev, sp.glob
        later = self.later[i]
        if same_next and i == k - 2 and self.extender is None:
            self._last_pairs(i, x, acc, m, rest_other)
            if clock.out:
                return
            x = 0  # (every candidate of train i was tried there)
        while x:
            self.nodes += 1
            if self.nodes & 255 == 0 and clock.expired(work=256):
                return
            low = x & -x
            x ^= low
            j = low.bit_length() - 1
            r = rev[j]
            if acc + r * (m + 1) + rest_other <= self.best_total:
                break
            g = glob[j]
            narrowed = list(allowed)
            for t in later:
                narrowed[t] = allowed[t] & ~self.conflicts(t, g, i > 0)
            if same_next:
                narrowed[s] &= -(low << 1)
            if i + 1 < k and acc + r + self.bound(narrowed, i + 1) <= self.best_total:
                continue
            self.chosen[i] = j
            self.search(i + 1, narrowed, acc + r, j + 1 if same_next else 0)
            if clock.out:
                return
        self.chosen[i] = None
        if acc + rest > self.best_total:
            # train i runs nothing; trains of its kind after it then run nothing either
            self.search(i + 1, allowed, acc, sp.n if same_next else 0)


def _set_bits(x: int) -> Iterator[int]:
    """The indexes of the bits set in ``x``, lowest first (read off its binary digits)."""
    digits = format(x, "b")[::-1]
    at = digits.find("1")
    while at >= 0:
        yield at
        at = digits.find("1", at + 1)


# ---------------------------------------------------------------------------- output
def route_dict(game: Game, graph: RouteGraph, cand: Candidate, train_id: str,
               revenue: int | None = None, extension: Path = ()) -> dict[str, Any]:
    """A candidate in the 18xx.games RunRoutes shape (``revenue``: what this train earns on it).
    An extension (1833NE) goes under ``extension``: its connections, outwards from the end of
    the route it continues."""
    hexes = [graph.stops[i][0] for i in cand.stops]
    out: dict[str, Any] = {
        "train": train_id,
        "connections": [list(link.chain) for link in cand.links],
        "hexes": hexes,
        "revenue": cand.revenue if revenue is None else revenue,
        "revenue_str": "-".join(hexes),
    }
    if extension:
        out["extension"] = [list(link.chain) for link in extension]
        out["revenue_str"] += " +" + "-".join(graph.stops[link.v][0] for link in extension)
    return out


def _trains(game: Game, corp_sym: str) -> list[Train]:
    return list(game.runnable_trains(game.corp(corp_sym)))


def _max_stops(trains: list[Train], graph: RouteGraph) -> int:
    return min(max((_reach(t) for t in trains), default=0), len(graph.stops))


def _spaces(game: Game, corp_sym: str, graph: RouteGraph, cands: list[Candidate], trains: list[Train],
            clock: _Clock) -> tuple[list[tuple[list[int], list[int], int]], list[tuple[int, int]]]:
    """Candidate lists per kind of train, and (space, stops reached) per train.

    Without ``game.route_revenue_for_train`` every train earns a route's ``revenue``: one space,
    in the order of ``cands``.  With it (1833NE), trains of one name and reach score alike and
    share a space: every candidate within their reach is scored for them (memoised on the set
    of stops), those they cannot run (GameError) or that earn nothing are left out.  A space is
    (global indexes, revenues, best revenue) with revenues in decreasing order."""
    if not game.scores_routes_per_train:
        # one space per reach: each train's list holds only the routes it can run, so placing a
        # route narrows short lists, not the long one of a D-train
        by_reach: dict[int, int] = {}
        lens = [len(c.stops) for c in cands]
        spaces_r: list[tuple[list[int], list[int], int]] = []
        kinds_r: list[tuple[int, int]] = []
        for t in trains:
            d = _reach(t)
            s = by_reach.get(d)
            if s is None:
                s = by_reach[d] = len(spaces_r)
                glob = [g for g, n in enumerate(lens) if n <= d]
                rev = [cands[g].revenue for g in glob]
                spaces_r.append((glob, rev, rev[0] if rev else 0))
            kinds_r.append((s, d))
        return spaces_r, kinds_r
    corp = game.corp(corp_sym)
    stops = graph.stops
    keys: dict[tuple[str, int], int] = {}
    spaces: list[tuple[list[int], list[int], int]] = []
    kinds: list[tuple[int, int]] = []
    for t in trains:
        key = (t.name, _reach(t))
        s = keys.get(key)
        if s is None:
            s = keys[key] = len(spaces)
            memo: dict[frozenset[int], int] = {}
            rows: list[tuple[int, int]] = []
            for g, c in enumerate(cands):
                if len(c.stops) > key[1]:
                    continue
                visited = frozenset(c.stops)
                r = memo.get(visited)
                if r is None:
                    try:
                        r = game.route_revenue_for_train(corp, [stops[i] for i in c.stops], t)
                    except GameError:
                        r = 0
                    memo[visited] = r
                if r > 0:
                    rows.append((r, g))
                if g & 1023 == 1023 and clock.expired(work=1024):
                    break
            rows.sort(key=lambda row: (-row[0], row[1]))
            spaces.append(([g for _, g in rows], [r for r, _ in rows], rows[0][0] if rows else 0))
        kinds.append((s, key[1]))
    return spaces, kinds


def _with_extensions(game: Game, corp_sym: str, graph: RouteGraph, cands: list[Candidate],
                     spaces: list[tuple[list[int], list[int], int]], clock: _Clock,
                     ) -> tuple[Extender | None, dict[int, int], list[tuple[list[int], list[int], int]]]:
    """For a title with route extension (``game.extension_gains``): the extender, every
    candidate's optimistic gain (when above 0) and the spaces with those gains added."""
    if not game.extends_routes:
        return None, {}, spaces
    ext = Extender(game, game.corp(corp_sym), graph, cands, terminal_needs(game, graph), clock.expired)
    opt: dict[int, int] = {}
    out = []
    for glob, rev, _ in spaces:
        rows = []
        for g, r in zip(glob, rev, strict=True):
            o = opt.get(g)
            if o is None:
                o = opt[g] = ext.optimistic(g)
            rows.append((r + o, g))
        rows.sort(key=lambda row: (-row[0], row[1]))
        out.append(([g for _, g in rows], [r for r, _ in rows], rows[0][0] if rows else 0))
    return ext, {g: o for g, o in opt.items() if o}, out


def _reach(train: Train) -> int:
    """Stops a train may visit (for 1833NE the side's M of N/M or N+s)."""
    return int(train.distance)


def _split_listing(game: Game, corp_sym: str, graph: RouteGraph, trains: list[Train], max_stops: int,
                   clock: _Clock, deadline: float) -> list[Candidate] | None:
    """When one train reaches further than all others: every route the others could run, and
    only the longer routes that may pay (:mod:`engine.routing.long`); for a lone train only the
    routes that may pay. None when that does not apply (the caller lists every route)."""
    reaches = sorted((_reach(t) for t in trains), reverse=True)
    if len(reaches) == 1:
        reaches.append(1)  # a lone train: every route is long, bounded by the best found so far
    if reaches[0] == reaches[1] or max_stops <= max(reaches[1], _SPLIT_FROM if reaches[1] > 1 else _LONE_FROM):
        return None  # (listing every route of a few stops costs less than bounding them)
    corp = game.corp(corp_sym)
    bounds = stop_bounds(game, corp, graph)
    if bounds is None:
        return None
    short_max = reaches[1]
    short = enumerate_routes(game, corp_sym, graph, short_max, clock, deadline)
    if clock.out:
        return short
    rows = [(c.revenue, c.mask, len(c.stops)) for c in short]
    lower, used = 0, 0  # a first assignment from the short routes, longest train first
    for d in reaches:
        pick = next(((r, m) for r, m, n in rows if n <= d and not m & used), None)
        if pick is not None:
            lower += pick[0]
            used |= pick[1]
    long = LongRoutes(graph, bounds, short_max, max_stops, lower, rows, reaches[1:len(trains)],
                      [[b for link in c.links for b in link.bits] for c in short])
    longer = enumerate_routes(game, corp_sym, graph, max_stops, clock, deadline, long)
    return sorted(short + longer, key=lambda c: -c.revenue)


def _pair_bounds(game: Game, corp_sym: str, graph: RouteGraph,
                 trains: list[Train]) -> tuple[list[int], list[int]] | None:
    """The stop bounds of the pair search (:mod:`engine.routing.pair`) when it applies: the
    corporation runs two trains reaching every stop and routes are priced stop by stop; else None."""
    if len(trains) != 2 or min(_reach(t) for t in trains) < len(graph.stops):
        return None
    bounds = stop_bounds(game, game.corp(corp_sym), graph)
    if bounds is None or route_terminal_needs(game, graph):
        return None
    return bounds


def _pair_search(game: Game, corp_sym: str, graph: RouteGraph, trains: list[Train],
                 clock: _Clock) -> PairSearch | None:
    """The search for two trains that reach every stop, when it applies (:func:`_pair_bounds`)."""
    bounds = _pair_bounds(game, corp_sym, graph, trains)
    if bounds is None:
        return None
    corp = game.corp(corp_sym)
    port, port_min = _port_rule(game, graph)
    return PairSearch(game, corp, graph, bounds, port, port_min, lambda work: clock.expired(None, work))


def _pair_solution(game: Game, graph: RouteGraph, search: PairSearch, trains: list[Train], sol: RouteSolution,
                   clock: _Clock) -> RouteSolution:
    """``sol`` with the pair search's routes (the first train runs the first route)."""
    sol.total, *routes = search.run()
    for train, found in zip(trains, routes, strict=True):
        if found is not None:
            sol.routes.append(route_dict(game, graph, Candidate(*found), train.id))
    sol.candidates = search.firsts
    sol.optimal = not search.out
    if search.out:
        sol.stopped = "time budget spent while pairing routes"
    sol.elapsed_ms = clock.elapsed_ms()
    return sol


def best_routes(game: Game, corp_sym: str, *, time_budget: float = 1.0,
                trains: list[Train] | None = None, graph: RouteGraph | None = None,
                deterministic: bool = False) -> RouteSolution:
    """The set of routes, one per train at most, that earns ``corp_sym`` the most revenue.

    ``trains`` defaults to ``game.runnable_trains``; routes come in that order, in the
    18xx.games RunRoutes shape (``train``, ``connections``, ``hexes``, ``revenue``,
    ``revenue_str``), ready for ``A.RunRoutes(routes=...)`` or ``render_map(routes=...)``.
    ``deterministic``: the budget is counted in work done (:data:`WORK_RATE` looks at the clock
    per second), not on the wall clock: an answer not proven best is the same on any machine."""
    with _collector_paused():
        return _best_routes(game, corp_sym, time_budget, trains, graph, WORK_RATE if deterministic else None)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused: a search allocates many short-lived objects (freed
    by reference counting as it goes), and every collection they would trigger walks all the
    objects of the process (every loaded game): that took up to half of a search's time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
            # the youngest objects now, as the collector would at the next allocation; but not
            # the older generations that may have come due meanwhile (a walk of every object
            # of the process): the collector gets to them later, outside this call
            gc.collect(0)


def _best_routes(game: Game, corp_sym: str, time_budget: float, trains: list[Train] | None,
                 graph: RouteGraph | None, work_rate: float | None) -> RouteSolution:
    clock = _Clock(time_budget, work_rate)
    trains = _trains(game, corp_sym) if trains is None else trains
    sol = RouteSolution(corp_sym)
    if not trains:
        sol.elapsed_ms = clock.elapsed_ms()
        return sol
    graph = game.route_graph(corp_sym) if graph is None else graph
    max_stops = _max_stops(trains, graph)
    listing_deadline = clock.start + _LISTING_SHARE * time_budget
    # the long-route listing leaves little to combine: it may take more of the budget
    all_cands = _split_listing(game, corp_sym, graph, trains, max_stops, clock,
                               clock.start + _SPLIT_LISTING_SHARE * time_budget)
    if all_cands is None:
        # (the listing's time is cut short only where the pair search can take over)
        pairs = _pair_bounds(game, corp_sym, graph, trains) is not None
        if pairs:  # few routes are listed at once; many are left to the pair search
            listing_deadline = clock.start + min(_PAIR_LISTING_SHARE * time_budget, _PAIR_LISTING_MOST)
        all_cands = enumerate_routes(game, corp_sym, graph, max_stops, clock, listing_deadline)
        pair = _pair_search(game, corp_sym, graph, trains, clock) if pairs and clock.out else None
        if pair is not None:
            clock.out = False
            return _pair_solution(game, graph, pair, trains, sol, clock)
    enumerated = not clock.out
    if not enumerated and max_stops > _SHORT_STOPS:
        # cut short: the routes found all start near one station; add short routes from everywhere
        clock.out = False
        short = enumerate_routes(game, corp_sym, graph, _SHORT_STOPS, clock,
                                 clock.start + _SHORT_SHARE * time_budget)
        all_cands = sorted(all_cands + short, key=lambda c: -c.revenue)
    sol.candidates = len(all_cands)
    clock.out = False  # combining gets the rest of the budget even when listing was cut short
    spaces, kinds = _spaces(game, corp_sym, graph, all_cands, trains, clock)
    extender, optimistic, spaces = _with_extensions(game, corp_sym, graph, all_cands, spaces, clock)
    order = sorted(range(len(trains)), key=lambda i: (-spaces[kinds[i][0]][2], -kinds[i][1], kinds[i]))
    scan = None
    if not game.scores_routes_per_train:  # the greedy start looks through all routes, best first
        every = (list(range(len(all_cands))), [c.revenue for c in all_cands])
        scan = [every] * len(spaces)
    total, picks = _Assigner(all_cands, [(g, r) for g, r, _ in spaces], [kinds[i] for i in order], clock,
                             extender, optimistic, scan).run()
    sol.total = total
    paths: dict[int, Path] = {}
    if extender is not None:
        paths = extender.best([p[0] for p in picks if p is not None])[1]
    for i, pick in zip(order, picks, strict=True):
        if pick is not None:
            g, revenue = pick
            path = paths.get(g, ())
            if extender is not None:
                revenue += (extender.gains(g)[path[-1].v] if path else 0) - optimistic.get(g, 0)
            sol.routes.append(route_dict(game, graph, all_cands[g], trains[i].id, revenue, path))
    rank = {t.id: i for i, t in enumerate(trains)}
    sol.routes.sort(key=lambda r: rank[r["train"]])
    sol.optimal = enumerated and not clock.out
    if not sol.optimal:
        sol.stopped = ("time budget spent while listing routes" if not enumerated
                       else "time budget spent while combining routes")
    sol.elapsed_ms = clock.elapsed_ms()
    return sol


def cached_best_routes(game: Game, corp_sym: str, *, time_budget: float = 1.0) -> RouteSolution:
    """:func:`best_routes`, computed once per position and corporation and reused (the route
    suggestion, the button that runs it and autocomplete ask for the same position).

    Answers are kept beside the board (never saved with the game; a rolled-back game has a new
    board and starts without them), keyed by the board's version (every change of the map), the
    number of actions processed and the phase (any other change of the game) and the
    corporation's trains. A result not proven optimal is reused only for a budget no larger
    than the one it had. Each call gets its own copy of the routes. A position not asked before
    is answered without a search when the corporation's network was solved at an earlier
    position (:func:`_network_best_routes`)."""
    key = _position_key(game, corp_sym)
    cache = _SOLVED.of(game.board)
    kept = cache.get(key)
    if kept is None or not (kept[1].optimal or kept[0] >= time_budget):
        if len(cache) > 64:
            cache.clear()
        kept = cache[key] = (time_budget, _network_best_routes(game, corp_sym, time_budget))
    sol = kept[1]
    return RouteSolution(sol.corp, [dict(r) for r in sol.routes], sol.total, sol.optimal, sol.elapsed_ms,
                         sol.candidates, sol.stopped)


def _network_best_routes(game: Game, corp_sym: str, time_budget: float) -> RouteSolution:
    """:func:`best_routes`, reused from an earlier position of the game where the corporation had
    the same network (:func:`engine.routing.graph.network_key`: nothing it can reach changed), the
    same kinds of train and the same prices (``game.route_price_key``): late in a game a
    corporation often runs the same network several times while the map changes elsewhere. The
    routes are renamed for the trains of now (the same kinds, in the same order); ``elapsed_ms``
    is this call's. A title without a price key is searched every time."""
    began = time.perf_counter()
    trains = _trains(game, corp_sym)
    price_key = game.route_price_key(game.corp(corp_sym)) if trains else None
    if price_key is None:
        return best_routes(game, corp_sym, time_budget=time_budget)
    graph = game.route_graph(corp_sym)
    key = (corp_sym, price_key, tuple((t.name, _reach(t)) for t in trains), network_key(graph))
    ids = tuple(t.id for t in trains)
    memo = _NETWORKS.of(game.board)
    kept = memo.get(key)
    if kept is None or not (kept[2].optimal or kept[0] >= time_budget):
        if len(memo) > 256:
            memo.clear()
        kept = memo[key] = (time_budget, ids, best_routes(game, corp_sym, time_budget=time_budget,
                                                           trains=trains, graph=graph))
        return kept[2]
    _, then, sol = kept
    rename = dict(zip(then, ids, strict=True))
    return RouteSolution(sol.corp, [{**r, "train": rename[r["train"]]} for r in sol.routes], sol.total,
                         sol.optimal, (time.perf_counter() - began) * 1000.0, sol.candidates, sol.stopped)


def known_best_routes(game: Game, corp_sym: str) -> RouteSolution | None:
    """What :func:`cached_best_routes` found for this position, without searching (None when
    it has not been asked yet): for callers that must not wait, like an event loop."""
    kept = (_SOLVED.get(game.board) or {}).get(_position_key(game, corp_sym))
    if kept is None:
        return None
    sol = kept[1]
    return RouteSolution(sol.corp, [dict(r) for r in sol.routes], sol.total, sol.optimal, sol.elapsed_ms,
                         sol.candidates, sol.stopped)


def _position_key(game: Game, corp_sym: str) -> tuple[Any, ...]:
    return (corp_sym, game.board.version, len(game.action_log), game.phase_index,
            tuple(t.id for t in game.runnable_trains(game.corp(corp_sym))))


def best_route_for_train(game: Game, corp_sym: str, train_id: str, *,
                         time_budget: float = 1.0) -> RouteSolution:
    """The best route ``train_id`` alone could run for ``corp_sym`` (other trains ignored)."""
    train = game.train(train_id)
    if train.owner != corp_sym:
        raise GameError(f"{corp_sym} does not own train {train_id}", NOT_OWNER, corporation=corp_sym, train=train_id)
    return best_routes(game, corp_sym, time_budget=time_budget, trains=[train])
