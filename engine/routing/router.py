"""Best routes for a corporation's trains, found exactly (issue #7).

Algorithm:

1. :func:`engine.routing.graph.build_graph` reduces the map to stops (cities, towns,
   off-boards) and *links* (each way along the track from one stop to the next), each with a
   bit mask of the tile paths and hex sides it uses.
2. Every legal route is enumerated once (:mod:`engine.routing.listing`) by depth-first search
   from every stop a station reaches: simple in stops and junctions, no track used twice, at most as many stops as the
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
3. Branch and bound (:mod:`engine.routing.assign`) assigns routes to trains (best-earning
   kinds and longest trains first; trains of the same kind take candidates in increasing order so no assignment is tried
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
it follows one route and keeps beside it the best route the other train can still run. When
the routes of at most six stops foretell more than a few thousand routes, it gets the whole
budget: it is then the faster.

Route extension (1833NE cross-connection bonuses, :mod:`engine.routing.extension`): a title
with ``game.extension_gains`` lets a route go on past its counted stops to a bonus place.
Each candidate's revenue then includes an optimistic gain (an upper bound, so pruning stays
admissible), and every complete assignment is valued with its exact extensions.

When both phases finish the answer is optimal.  A time budget (default 1 s) is the safety
net: listing all routes may take 60 % of it; if it is cut short, routes of at most six stops
from every station are added (until 80 %), and branch and bound gets the rest.  The best set
found is then returned with ``optimal=False`` and ``stopped`` saying where it stopped.

The answers are computed once per position and reused (:mod:`engine.routing.cache`).

The cyclic garbage collector is paused during a search: the collections its many short-lived
objects would trigger walk every object of the process (every loaded game).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import NOT_OWNER, GameError
from .assign import Assigner
from .check import check_route, check_routes
from .check import route_order as _route_order
from .check import side_keys as _side_keys
from .clock import WORK_RATE, Clock
from .extension import Extender, Path, route_terminal_needs, terminal_needs
from .graph import RouteGraph
from .listing import Candidate, enumerate_routes, port_rule
from .long import LongRoutes, stop_bounds
from .pair import PairSearch

if TYPE_CHECKING:
    from ..entities import Train
    from ..game import Game


# route checks live in engine.routing.check; 1833NE's routes import its helpers from here too
__all__ = ["RouteSolution", "best_route_for_train", "best_routes", "check_route", "check_routes",
           "enumerate_routes", "route_dict", "_route_order", "_side_keys"]

_LISTING_SHARE = 0.6  # share of the time budget listing all routes may take
_SHORT_STOPS = 6  # when that is not enough, routes of at most this many stops are listed too
_SHORT_SHARE = 0.8  # ... until this share of the budget
_SPLIT_LISTING_SHARE = 0.85  # share of the budget the listing with bounded long routes may take
_SPLIT_FROM = 5  # long routes are bounded (router_long) for a train reaching more stops than this
_LONE_FROM = 4  # ... and for a lone train reaching more stops than this
# two trains reaching every stop: listing all routes may take this share of the budget (at most
# _PAIR_LISTING_MOST seconds); when that is not enough, the pair search gets the rest
_PAIR_LISTING_SHARE = 0.5
_PAIR_LISTING_MOST = 0.5
# ... unless the routes of at most _PAIR_PROBE stops foretell more than _PAIR_ROUTES_MOST routes:
# the pair search starts at once (on the bench's 53 two-D positions it was the faster above about
# 3,500 foretold: BBG 733 -> 581 ms, CA 102 -> 65 ms, NBDS's proofs; below, within 10 ms either way)
_PAIR_PROBE = 6
_PAIR_ROUTES_MOST = 3_500


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


def runnable(game: Game, corp_sym: str) -> list[Train]:
    return list(game.runnable_trains(game.corp(corp_sym)))


def _max_stops(trains: list[Train], graph: RouteGraph) -> int:
    return min(max((reach(t) for t in trains), default=0), len(graph.stops))


def _spaces(game: Game, corp_sym: str, graph: RouteGraph, cands: list[Candidate], trains: list[Train],
            clock: Clock) -> tuple[list[tuple[list[int], list[int], int]], list[tuple[int, int]]]:
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
            d = reach(t)
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
        key = (t.name, reach(t))
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
                     spaces: list[tuple[list[int], list[int], int]], clock: Clock,
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


def reach(train: Train) -> int:
    """Stops a train may visit (for 1833NE the side's M of N/M or N+s)."""
    return int(train.distance)


def _split_listing(game: Game, corp_sym: str, graph: RouteGraph, trains: list[Train], max_stops: int,
                   clock: Clock, deadline: float) -> list[Candidate] | None:
    """When one train reaches further than all others: every route the others could run, and
    only the longer routes that may pay (:mod:`engine.routing.long`); for a lone train only the
    routes that may pay. None when that does not apply (the caller lists every route)."""
    reaches = sorted((reach(t) for t in trains), reverse=True)
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
                      [c.links for c in short])
    longer = enumerate_routes(game, corp_sym, graph, max_stops, clock, deadline, long)
    return sorted(short + longer, key=lambda c: -c.revenue)


def _pair_bounds(game: Game, corp_sym: str, graph: RouteGraph,
                 trains: list[Train]) -> tuple[list[int], list[int]] | None:
    """The stop bounds of the pair search (:mod:`engine.routing.pair`) when it applies: the
    corporation runs two trains reaching every stop and routes are priced stop by stop; else None."""
    if len(trains) != 2 or min(reach(t) for t in trains) < len(graph.stops):
        return None
    bounds = stop_bounds(game, game.corp(corp_sym), graph)
    if bounds is None or route_terminal_needs(game, graph):
        return None
    return bounds


def _too_many_routes(game: Game, corp_sym: str, graph: RouteGraph, clock: Clock) -> bool:
    """Whether two trains reaching every stop have more routes than listing them all pays for
    (:data:`_PAIR_ROUTES_MOST`), as the routes of at most :data:`_PAIR_PROBE` stops foretell: their
    number grows about geometrically with the stops a route has, and a route has up to twenty;
    ``n * growth ** 5`` (``n`` routes of at most six stops, ``growth`` from five stops to six)
    came within a factor of two of the whole listing in the corpus's densest positions (BBG 74k
    for 103k routes, CA 13k for 16k, 1836Jr56's NBDS 1.5M for 690k)."""
    short = enumerate_routes(game, corp_sym, graph, _PAIR_PROBE, clock)
    upto = len(short)
    below = sum(1 for c in short if len(c.stops) < _PAIR_PROBE)
    return below > 0 and upto * (upto / below) ** 5 > _PAIR_ROUTES_MOST


def _pair_search(game: Game, corp_sym: str, graph: RouteGraph, trains: list[Train],
                 clock: Clock) -> PairSearch | None:
    """The search for two trains that reach every stop, when it applies (:func:`_pair_bounds`)."""
    bounds = _pair_bounds(game, corp_sym, graph, trains)
    if bounds is None:
        return None
    corp = game.corp(corp_sym)
    port, port_min = port_rule(game, graph)
    return PairSearch(game, corp, graph, bounds, port, port_min, lambda work: clock.expired(None, work))


def _pair_solution(game: Game, graph: RouteGraph, search: PairSearch, trains: list[Train], sol: RouteSolution,
                   clock: Clock) -> RouteSolution:
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
    clock = Clock(time_budget, work_rate)
    trains = runnable(game, corp_sym) if trains is None else trains
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
        if pairs and _too_many_routes(game, corp_sym, graph, clock):
            all_cands, clock.out = [], True  # (the pair search gets the whole budget)
        else:
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
    total, picks = Assigner(all_cands, [(g, r) for g, r, _ in spaces], [kinds[i] for i in order], clock,
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



def best_route_for_train(game: Game, corp_sym: str, train_id: str, *,
                         time_budget: float = 1.0) -> RouteSolution:
    """The best route ``train_id`` alone could run for ``corp_sym`` (other trains ignored)."""
    train = game.train(train_id)
    if train.owner != corp_sym:
        raise GameError(f"{corp_sym} does not own train {train_id}", NOT_OWNER, corporation=corp_sym, train=train_id)
    return best_routes(game, corp_sym, time_budget=time_budget, trains=[train])
