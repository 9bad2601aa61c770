"""The network walk as 18xx.games walks it (``route_legal_walk``): from a station along track,
using no track twice, with each hex's tile indexed for it (``TileWalk``, kept beside the board)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..beside import Beside
from . import hexgrid

if TYPE_CHECKING:
    from .board import Board, HexState, NodeRef


def tile_walks_of(board: Board) -> dict[str, TileWalk]:
    """Hex -> its current tile indexed for the network walk (:attr:`Board.tile_walks`)."""
    return _TILE_WALKS.of(board)


class StationWalk:
    """What the route-legal walk from one station found: the nodes it reached, the (hex, edge)
    pairs it touched, where it entered hexes from a neighbour, and every hex it looked at."""

    def __init__(self, reached: set[NodeRef], touched: dict[tuple[str, int], None],
                 arrivals: set[tuple[str, int]], looked: frozenset[str]):
        self.reached = reached
        self.touched = touched
        self.arrivals = arrivals
        self.looked = looked


def route_legal_walk(board: Board, start: NodeRef, sym: str, others: set[NodeRef],
                     touched: dict[tuple[str, int], None],
                     arrivals: set[tuple[str, int]] | None = None,
                     looked: set[str] | None = None, *, prune: bool = True,
                     watch: WalkWatch | None = None,
                     paths: set[int] | None = None) -> set[NodeRef]:
    """The nodes a corporation's network reaches from the station ``start``, as 18xx.games
    finds them: a depth-first walk along track in the tiles' path order in which a piece of
    track (a tile path) is entered at most once, a hex edge is never crossed twice on the way
    out, a junction is passed at most twice, and a city full of other stations is not passed
    through. A path shared by several exits of one tile (a converging exit) may be walked
    again by another branch. ``others`` (the corporation's other stations) are not entered.
    Adds the (hex, edge) pairs the walk touches to ``touched`` in the order walked (what is
    built from them then does not depend on how a set was made, e.g. restored from a save),
    the (hex, edge) where it enters a hex from its neighbour to ``arrivals``, and every hex
    whose tile or stations it read to ``looked``, and the numbers of the paths it took to
    ``paths`` (:func:`path_indexes` turns them into a hex's path indexes).

    Past a converging exit the walk tries every way through again (exponentially many on a
    map of switches), each leaving what it changed as it found it. With ``prune`` (the tests
    compare without) the walk skips such a way when nothing it has not found yet can lie on
    it (:func:`_reachable` bounds what may), and ends once it has found everything it still
    might (bounded again every so often, the paths and stops it is done with left out): what
    it returns is the same.

    With ``watch`` the walk stops as soon as what it found of the watched hex satisfies the
    watch (:class:`WalkWatch`); it then returns nothing, and ``watch.stopped`` is set. What it
    found by then is a part of what the whole walk finds: the walk goes the same way until then."""
    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    hexes = board.hexes
    # paths, edges, junctions and nodes are counted and remembered by number (see TileWalk)
    visited_nodes: set[int] = {_node_num(ref) for ref in others}
    visited_others = set(visited_nodes)
    # the paths and the stops the walk is done with (but on a converging way): never taken again
    done_paths: set[int] = set()
    done_stops: set[int] = set()
    crossed: set[int] = set()  # edges crossed on the way out (at most once each)
    counter: dict[int, int] = {}  # junctions passed (at most twice each)
    walked: dict[int, _PathWalk] = {}  # every path the walk took
    seen_walks: dict[str, TileWalk] = {}  # the hexes' walk tables, checked once per walk (the hexes looked at)
    found_arrivals: set[tuple[str, int]] = set()
    blocks: dict[int, bool] = {}  # stops the walk may not pass (off-boards, full cities)
    start_num = _node_num(start)
    calls = 0  # ways tried (pruning starts only where trying them all gets long)
    next_check = _PRUNE_AFTER if prune else -1  # when pruning starts, then bounds again

    def stops_walk(num: int, ref: NodeRef) -> bool:
        got = blocks.get(num)
        if got is None:
            h = hexes[ref[0]]
            kind = h.tile.nodes[ref[1]].kind
            got = blocks[num] = kind == "offboard" or (kind == "city" and board.city_blocks(h, ref[1], sym))
        return got

    # what the walk may still find (paths by number, arrivals: a hex is looked at as an arrival
    # into it is found); None: no pruning (yet)
    left: set[int | tuple[str, int]] | None = None
    tables = _WalkTables(board, stops_walk)

    def start_pruning() -> None:
        nonlocal left
        left = set()
        _reachable(tables, [(firsts(), 1, -1)], visited_others | {start_num}, found=left)
        left.difference_update(walked, found_arrivals)
        retighten(set(), set())

    def firsts() -> tuple[_State, ...]:
        return tables[start[0]].node_entries.get(start[1], ())

    def retighten(finished: set[int], closed: set[int]) -> None:
        """Keeps in ``left`` what a walk from the start might still find that takes no path in
        ``finished`` and passes no stop in ``closed`` (beside the start and the other stations)."""
        nonlocal left
        assert left is not None
        closed |= visited_others
        closed.add(start_num)
        goals = _Goals(tables, left)
        got = _reachable(tables, [(firsts(), goals.mask, -1)], closed, finished, goals=goals)
        left = {item for bit, item in goals.owner.items() if got & bit}
        if not left:
            raise _AllFound

    def found(item: int | tuple[str, int]) -> None:
        assert left is not None
        left.discard(item)
        if not left:
            raise _AllFound

    tile_walks = board.tile_walks

    def tw(hid: str) -> TileWalk:
        t = seen_walks[hid] = _tile_walk(board, hid, tile_walks)
        return t

    goals_now: list[_Goals] = []  # what is left as goals of _reachable, made again as it shrinks

    def may_find(rec: _PathWalk, skip: int, vpaths: set[int]) -> bool:
        """Whether the walk into path ``rec`` at edge ``skip`` might find anything it has not
        found yet (a hex is looked at only as an arrival into it is found)."""
        assert left is not None
        if not goals_now or goals_now[0].size != len(left):
            goals_now[:] = [_Goals(tables, left)]
        goals = goals_now[0]
        return _reachable(tables, [(((rec[0], skip, -1, -1, _state_num(rec[0], skip)),), goals.mask, -1)], visited_nodes, vpaths,
                          crossed, counter, goals=goals, first=True) != 0

    def walk_node(num: int, ref: NodeRef, vpaths: set[int], converging_node: bool) -> None:
        if num in visited_nodes:
            return
        visited_nodes.add(num)
        for rec in (seen_walks.get(ref[0]) or tw(ref[0])).node_paths.get(ref[1], ()):
            if rec[0] not in vpaths:
                walk_path(num, rec, None, -1, vpaths, converging_node)
        if converging_node:
            visited_nodes.discard(num)
        else:
            done_stops.add(num)

    def walk_path(origin: int, rec: _PathWalk, skip: int | None, jskip: int,
                  vpaths: set[int], converging: bool) -> None:
        # the caller has checked that the path is not on the way already (``vpaths``)
        nonlocal calls, next_check
        key, junction, terminal, edge_keys, nodes, exits, _, jrecs, _, _ = rec
        if junction >= 0 and (counter.get(junction, 0) > 1 or terminal):
            return
        if not crossed.isdisjoint(edge_keys):
            return
        calls += 1
        if calls == next_check:
            next_check += _PRUNE_AFTER
            if left is None:
                start_pruning()
            else:
                retighten(set(done_paths), set(done_stops))
        vpaths.add(key)
        if junction >= 0:
            counter[junction] = counter.get(junction, 0) + 1
        if key not in walked:
            walked[key] = rec
            if left is not None:
                found(key)
            if watch is not None:
                watch.saw_path(rec[6])
        if not terminal:
            for num, ref in nodes:
                if num == origin or num in visited_nodes:
                    continue
                ends = blocks.get(num)
                if ends or (ends is None and stops_walk(num, ref)):
                    continue  # an off-board, or a city full of other stations, ends the walk
                walk_node(num, ref, vpaths, converging)
        if junction >= 0 and junction != jskip:
            for jrec in jrecs:
                if jrec[0] not in vpaths:
                    walk_path(origin, jrec, None, junction, vpaths, converging)
        for e, ek, other, back, conv_e, arrival in exits:
            if e == skip:
                continue
            crossed.add(ek)
            if arrival not in found_arrivals:
                found_arrivals.add(arrival)
                if left is not None:
                    found(arrival)
                if watch is not None:
                    watch.saw_arrival(arrival)
            for nrec in (seen_walks.get(other) or tw(other)).by_edge.get(back, ()):
                if nrec[0] not in vpaths:
                    # a way past a converging exit changes nothing: it may be left out
                    if conv_e and left is not None and not may_find(nrec, back, vpaths):
                        continue
                    walk_path(origin, nrec, back, -1, vpaths, converging or conv_e)
            crossed.discard(ek)
        if converging:
            vpaths.discard(key)
        else:
            done_paths.add(key)
        if junction >= 0:
            counter[junction] -= 1

    try:
        walk_node(start_num, start, set(), False)
    except _AllFound:
        pass
    except _Watched:  # (only a watch raises it)
        if watch is not None:
            watch.stopped = True
        return set()
    if arrivals is not None:
        arrivals |= found_arrivals
    if paths is not None:
        paths.update(walked)
    if looked is not None:
        looked.update(seen_walks)
    reached: set[NodeRef] = set()
    pairs: list[tuple[str, int]] = []
    for rec in walked.values():
        reached.update(rec[8])
        pairs.extend(rec[6])
    touched.update(dict.fromkeys(pairs))
    return reached


_PRUNE_AFTER = 2000  # paths a walk takes before it starts pruning (a short walk is not worth it)


class WalkWatch:
    """What a walk has found of one hex so far (the hex's edges its paths touch, the edges where
    it enters the hex) and a test of them: a walk watched stops once the test passes
    (:func:`route_legal_walk`). A tile lay's checks only grow more true as more of the network
    is known, so a walk from a station need not go on once they pass (see
    :meth:`engine.mechanics.track.TrackRules.check_lay_rotation`)."""

    def __init__(self, hid: str, test: Callable[[set[int], set[int]], bool]):
        self.hid = hid
        self.test = test
        self.edges: set[int] = set()
        self.entries: set[int] = set()
        self.walked: set[NodeRef] = set()  # the stations walked with this watch
        self.stopped = False

    def saw_path(self, touches: Sequence[tuple[str, int]]) -> None:
        grew = False
        for hid, edge in touches:
            if hid == self.hid and edge not in self.edges:
                self.edges.add(edge)
                grew = True
        if grew and self.test(self.edges, self.entries):
            raise _Watched

    def saw_arrival(self, arrival: tuple[str, int]) -> None:
        if arrival[0] == self.hid and arrival[1] not in self.entries:
            self.entries.add(arrival[1])
            if self.test(self.edges, self.entries):
                raise _Watched


class _Watched(Exception):
    """A watched walk has found enough (see :class:`WalkWatch`)."""


class _AllFound(Exception):
    """The network walk has found everything it could find (see :func:`route_legal_walk`)."""


class _Goals:
    """What a walk may still find (paths by number, arrivals) as goals of :func:`_reachable`,
    one bit each way it may be found: the walk takes a path only if it has crossed none of its
    edges on the way out, so a path is found only if a way there leaves its hex through none of
    its edges, an arrival only if a way so gets to a path of the hex it leaves at the arrival's
    edge, not entering it there (a hex is looked at exactly as an arrival into it is found)."""

    def __init__(self, tables: _WalkTables, items: set[int | tuple[str, int]]):
        self.size = len(items)
        self.forbid: dict[int, int] = {}  # edge number -> the goals its crossing ends
        self.at: dict[int, list[tuple[int, int]]] = {}  # path -> its goals (bit, edge not entered at)
        self.owner: dict[int, int | tuple[str, int]] = {}
        bit = 2  # bit 1: no goal (see _reachable)
        for item in items:
            if isinstance(item, int):
                ways = [(item, -1)]
            else:
                other = tables.board.hexes[item[0]].neighbors[item[1]]
                not_at = hexgrid.opposite(item[1])
                ways = [(r[0], not_at) for r in tables[other].by_edge.get(not_at, ())]
            for key, not_at in ways:
                for ek in tables.rec(key)[3]:
                    self.forbid[ek] = self.forbid.get(ek, 0) | bit
                self.at.setdefault(key, []).append((bit, not_at))
                self.owner[bit] = item
                bit <<= 1
        self.mask = bit - 2


def _reachable(tables: _WalkTables, todo: list[tuple[Sequence[_State], int, int]], closed: set[int],
               on_way: AbstractSet[int] = frozenset(), crossed: AbstractSet[int] = frozenset(),
               counter: dict[int, int] | None = None, goals: _Goals | None = None, first: bool = False,
               found: set[int | tuple[str, int]] | None = None) -> int:
    """What :func:`route_legal_walk` might find from the paths in ``todo`` (states, each group
    with its goal bits and a path it may not take: -1 for none), at most: the ``goals`` reached
    (their bits; with ``first`` once one is) and, into ``found``, the paths (numbers) and
    arrivals ((hex, edge)) that track leads to when no rule of the walk holds but these: a path
    is not left where it was entered nor entered from a stop it was left for, a path ending at
    a junction, a path ``on_way``, a path at an edge ``crossed`` or at a junction the
    ``counter`` has passed twice is not taken, a terminal path and the stops ``closed`` or
    ended by the walk's rule (off-boards, full cities) are not passed through. Each state is
    taken once per goal (bit 1 for none), in time linear in the size of that network times the
    goals."""
    seen: dict[int, int] = {}  # state (by number) -> goal bits it was taken with
    steps = tables.steps
    forbid = goals.forbid if goals is not None else {}
    at = goals.at if goals is not None else {}
    every = goals.mask if goals is not None else 0
    passed = counter if counter is not None else {}
    push = todo.append
    reached = 0
    while todo:
        states, bits_in, barred = todo.pop()
        for key, skip, jskip, came, num in states:
            old = seen.get(num, 0)
            bits = bits_in & ~(old | reached)
            if not bits:
                continue
            if key == barred:
                continue
            seen[num] = old | bits
            junction, terminal, edge_keys, stops, ways, jentries = steps.get(key) or tables.step(key)
            if junction >= 0 and (terminal or passed.get(junction, 0) > 1):
                continue
            if key in on_way or not crossed.isdisjoint(edge_keys):
                continue
            goal_ways = at.get(key)
            if goal_ways is not None:
                for bit, not_at in goal_ways:
                    if bits & bit and skip != not_at:
                        reached |= bit
                if reached and (first or reached == every):
                    return reached
                bits &= ~reached
                if not bits:
                    continue
            if found is not None:
                found.add(key)
            if not terminal:
                for num, entries in stops:
                    if num != came and num not in closed:
                        push((entries, bits, key))
            if junction >= 0 and junction != jskip:
                push((jentries, bits, -1))
            for e, ek, arrival, entries in ways:
                if e == skip:
                    continue
                out = bits & ~forbid.get(ek, 0)
                if not out:
                    continue
                if found is not None:
                    found.add(arrival)
                if entries:
                    push((entries, out, -1))
    return reached


def _tile_walk(board: Board, hid: str, walks: dict[str, TileWalk] | None = None) -> TileWalk:
    """Hex ``hid``'s walk table (:attr:`Board.tile_walks`, or ``walks`` when already fetched),
    built again when its tile changed."""
    if walks is None:
        walks = board.tile_walks
    h = board.hexes[hid]
    t = walks.get(hid)
    if t is None or t.tile is not h.tile:
        t = walks[hid] = TileWalk(h)
    return t


# A path of a tile on the map as the walk uses it: its number, junction's number (-1: none),
# terminal flag, edge numbers, stops (junctions apart: (number, node)), exits to neighbouring
# hexes ((edge, edge number, neighbour, its edge, converging, (neighbour, its edge))), the
# (hex, edge) pairs it touches, the paths at its junction, its stops, the states (_State) of the
# paths at its junction entered from it. A hex's paths, edges and nodes are numbered from the
# hex's number (_HEX_NUMS) times 64.
_PathWalk = list[Any]
# A path to take as _reachable has it: (path number, edge it is entered at, junction it is
# entered from, stop it is entered from; None or -1: none; the state's own number, _state_num)
_State = tuple[int, int | None, int, int, int]
_HEX_NUMS: dict[str, int] = {}
_HEX_IDS: list[str] = []  # by hex number / 64


def path_indexes(hid: str, numbers: AbstractSet[int], count: int) -> set[int]:
    """The indexes, among the ``count`` paths of hex ``hid``'s tile, of the path ``numbers`` a
    walk took (``route_legal_walk(paths=...)``)."""
    base = _hex_num(hid)
    return {n - base for n in numbers if base <= n < base + count}


def _hex_num(hid: str) -> int:
    got = _HEX_NUMS.get(hid)
    if got is None:
        got = _HEX_NUMS[hid] = len(_HEX_NUMS) * 64
        _HEX_IDS.append(hid)
    return got


# how a path is entered, as a state's number tells it: at edge 0 to 5, from its junction, from
# its stop (node) n: _FROM_STOP + n
_FROM_JUNCTION = 6
_FROM_STOP = 8


def _state_num(key: int, entry: int) -> int:
    """A state's number (a small int is hashed faster than the state): its path and entry."""
    return key * 128 + entry


def _node_num(ref: NodeRef) -> int:
    return _hex_num(ref[0]) + ref[1]


class _WalkTables(dict[str, "TileWalk"]):
    """The walk tables of the hexes one walk's pruning reads (:func:`_tile_walk`) and, for
    :func:`_reachable`, each path as it leads on (:meth:`step`)."""

    def __init__(self, board: Board, stops_walk: Callable[[int, NodeRef], bool]):
        super().__init__()
        self.board = board
        self.stops_walk = stops_walk
        self.steps: dict[int, _Step] = {}

    def __missing__(self, hid: str) -> TileWalk:
        t = self[hid] = _tile_walk(self.board, hid)
        return t

    def rec(self, key: int) -> _PathWalk:
        """Path number ``key`` (see _hex_num)."""
        rec: _PathWalk = self[_HEX_IDS[key >> 6]].recs[key & 63]
        return rec

    def step(self, key: int) -> _Step:
        """Path ``key``'s junction, terminal flag, edge numbers, the stops it leads on to (the
        walk may pass: (number, the states of their paths)), its exits ((edge, edge number,
        arrival, the states of the paths there)) and the states of the paths at its junction."""
        _, junction, terminal, edge_keys, nodes, exits, _, _, _, jentries = self.rec(key)
        stops = tuple((num, self[ref[0]].node_entries.get(ref[1], ())) for num, ref in nodes
                      if not self.stops_walk(num, ref))
        ways = tuple((e, ek, arrival, self[other].edge_entries.get(back, ()))
                     for e, ek, other, back, _, arrival in exits)
        got = self.steps[key] = (junction, terminal, edge_keys, stops, ways, jentries)
        return got


_Step = tuple[int, bool, tuple[int, ...], tuple[tuple[int, tuple[_State, ...]], ...],
              tuple[tuple[int, int, tuple[str, int], tuple[_State, ...]], ...], tuple[_State, ...]]


class TileWalk:
    """A hex's current tile indexed for the walk (built once per tile laid, see
    :attr:`Board.tile_walks`): its paths (:data:`_PathWalk`), those at each edge and at each
    node."""

    def __init__(self, h: HexState):
        tile = self.tile = h.tile
        hid = h.id
        base = _hex_num(hid)
        self.by_edge: dict[int, list[_PathWalk]] = {}
        self.node_paths: dict[int, list[_PathWalk]] = {}
        if len(tile.paths) > 58 or len(tile.nodes) > 58:
            raise ValueError(f"tile {tile.name} has too many paths or nodes to number")
        counts = [0] * 6
        for p in tile.paths:
            for e in p.edges:
                counts[e] += 1
        recs: list[_PathWalk] = []
        for i, p in enumerate(tile.paths):
            edges = p.edges
            node_indexes = p.node_indexes
            # the junction's counter number follows the edges' (hex number + 6 + node index)
            jn = next((n for n in node_indexes if tile.nodes[n].kind == "junction"), None)
            touches = []
            exits = []
            for e in edges:
                touches.append((hid, e))
                other = h.neighbors.get(e)
                if other is not None:
                    back = hexgrid.opposite(e)
                    touches.append((other, back))
                    exits.append((e, base + e, other, back, counts[e] > 1, (other, back)))
            stops = [n for n in node_indexes if tile.nodes[n].kind != "junction"]
            rec: _PathWalk = [base + i, -1 if jn is None else base + 6 + jn, p.terminal,
                              tuple(base + e for e in edges), tuple((base + n, (hid, n)) for n in stops),
                              tuple(exits), tuple(touches), (), tuple((hid, n) for n in stops), ()]
            recs.append(rec)
            if p.params_flag("ignore"):
                continue
            for e in edges:
                self.by_edge.setdefault(e, []).append(rec)
            for n in node_indexes:
                self.node_paths.setdefault(n, []).append(rec)
        for rec in recs:
            if rec[1] >= 0:
                rec[7] = tuple(self.node_paths.get(rec[1] - base - 6, ()))
                rec[9] = tuple((r[0], None, rec[1], -1, _state_num(r[0], _FROM_JUNCTION)) for r in rec[7])
        self.base = base
        self.recs = recs  # by path index

    # what _reachable puts on its list to take next: the paths entered at an edge, from a stop
    @cached_property
    def edge_entries(self) -> dict[int, tuple[_State, ...]]:
        return {e: tuple((r[0], e, -1, -1, _state_num(r[0], e)) for r in rs) for e, rs in self.by_edge.items()}

    @cached_property
    def node_entries(self) -> dict[int, tuple[_State, ...]]:
        return {n: tuple((r[0], None, -1, self.base + n, _state_num(r[0], _FROM_STOP + n))
                         for r in rs) for n, rs in self.node_paths.items()}


_TILE_WALKS: Beside[Board, dict[str, TileWalk]] = Beside(dict)
