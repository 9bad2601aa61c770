"""The track graph a corporation's trains run on, reduced to stops and the links between them.

A *stop* is a city, town or off-board a route counts.  A *link* is one way along the track
from a stop to the next stop: the tile paths it uses (through plain track and junctions, never
through another stop) and the hex sides it crosses.  Two routes of a corporation may not share
track, which 18xx.games checks by hex side (``Game::Base#check_overlap``) and our engine by tile
path: a link's ``mask`` has one bit per hex side it crosses (and one per path that touches no
side), so two links conflict exactly when their masks intersect: sharing a path means sharing
its sides.  Junction nodes get bits of their own (``jmask``) so that a single
route does not pass through one twice.  Stops of the same node group (the hexes of one
multi-hex off-board, 1836Jr56's ports) share a group bit: a route visits a group at most once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..map import hexgrid

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..game import Game

NodeRef = tuple[str, int]
PathRef = tuple[str, int]


@dataclass(frozen=True)
class Link:
    """Track from stop ``u`` to stop ``v`` (indexes into :attr:`RouteGraph.stops`)."""

    u: int
    v: int
    mask: int  # path and hex-side bits
    jmask: int  # junction bits
    paths: tuple[PathRef, ...]
    chain: tuple[str, ...]  # hexes from u's hex to v's hex, as an 18xx.games connection
    terminal_u: bool  # leaves u by a terminal path: u must end the route
    terminal_v: bool  # reaches v by a terminal path: v must end the route
    bits: tuple[int, ...] = ()  # indexes of the bits set in ``mask``


def unwind(chain: Any) -> tuple[Link, ...]:
    """The links of a chain as a route's search builds it, (last link, earlier chain), first
    link first."""
    out = []
    while chain is not None:
        out.append(chain[0])
        chain = chain[1]
    out.reverse()
    return tuple(out)


@dataclass
class RouteGraph:
    """Stops the corporation's trains may use and the links between them."""

    sym: str
    stops: list[NodeRef] = field(default_factory=list)
    index: dict[NodeRef, int] = field(default_factory=dict)
    kind: list[str] = field(default_factory=list)
    value: list[int] = field(default_factory=list)  # printed revenue in the current phase
    tokened: list[bool] = field(default_factory=list)  # holds one of the corporation's stations
    through: list[bool] = field(default_factory=list)  # a route may pass through (not an end only)
    groups: list[int] = field(default_factory=list)  # bit per node group (a route uses each once)
    adj: list[list[Link]] = field(default_factory=list)  # links leaving each stop
    reachable: list[bool] = field(default_factory=list)  # on some route from a station
    bit_names: list[Any] = field(default_factory=list)  # what each mask bit stands for

    def add_stop(self, ref: NodeRef, kind: str, value: int, tokened: bool, through: bool,
                 groups: int = 0) -> int:
        i = len(self.stops)
        self.stops.append(ref)
        self.index[ref] = i
        self.kind.append(kind)
        self.value.append(value)
        self.tokened.append(tokened)
        self.through.append(through)
        self.groups.append(groups)
        self.adj.append([])
        self.reachable.append(False)
        return i


_STOP_KINDS = ("city", "town", "halt", "offboard")


def build_graph(game: Game, sym: str, *, whole: bool | None = None) -> RouteGraph:
    """Stops, links and what a station of ``sym`` reaches on the current map. Only the stops a
    route may use have their links (late in a game most of the map is beyond a corporation's
    reach); every stop has them with ``whole``, by default with route extension (1833NE): an
    extension may pass where a route may not."""
    board = game.board
    colors = game.phase_colors()
    g = RouteGraph(sym)
    bits: dict[Any, int] = {}
    group_bits: dict[str, int] = {}

    def bit(key: Any) -> int:
        b = bits.get(key)
        if b is None:
            b = bits[key] = len(bits)
            g.bit_names.append(key)
        return 1 << b

    for h in board.hexes.values():
        for node in h.tile.nodes:
            if node.kind not in _STOP_KINDS:
                continue
            ref = (h.id, node.index)
            slots = h.tokens.get(node.index) or []
            tokened = node.kind == "city" and sym in slots
            through = node.kind != "offboard" and not (node.kind == "city" and board.city_blocks(h, node.index, sym))
            gmask = 0
            for name in node.groups:
                gmask |= 1 << group_bits.setdefault(name, len(group_bits))
            g.add_stop(ref, node.kind, board.stop_revenue(ref, colors), tokened, through, gmask)

    def links_of(i: int) -> None:
        hid, ni = g.stops[i]
        h = board.hexes[hid]
        for pi, path in enumerate(h.tile.paths):
            ends = path.ends
            if not any(e.kind == "node" and e.num == ni for e in ends):
                continue
            far = ends[1] if (ends[0].kind == "node" and ends[0].num == ni) else ends[0]
            _extend(g, board, bit, i, path.terminal, hid, pi, far, [(hid, pi)], [hid], _path_bit(bit, hid, pi, path), 0)

    if game.extends_routes if whole is None else whole:
        for i in range(len(g.stops)):
            links_of(i)
        mark_reachable(g)
        return g
    mark_reachable(g, links_of)  # each stop's links made when it is found reachable
    return g


def network_key(g: RouteGraph) -> tuple[Any, ...]:
    """Everything a route search reads of ``g``, as one hashable value: the stops a station
    reaches, in order, with their kind, value, station, whether a route may pass, node groups and
    links (far stop, track and junction bits, paths, hexes, terminal ends). Stops out of reach are
    left out: a tile laid or upgraded beyond the corporation's network leaves the key as it was
    (the reachable stops keep their order, so a search of either graph lists the same routes in the
    same order)."""
    stops = g.stops
    return tuple((ref, g.kind[i], g.value[i], g.tokened[i], g.through[i], g.groups[i],
                  tuple((stops[lk.v], lk.mask, lk.jmask, lk.paths, lk.chain, lk.terminal_u, lk.terminal_v)
                        for lk in g.adj[i]))
                 for i, ref in enumerate(stops) if g.reachable[i])


def bit_indexes(mask: int) -> list[int]:
    """Positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _path_bit(bit: Any, hid: str, pi: int, path: Any) -> int:
    """A path's own bit; 0 for a path reaching a hex side, whose side bit already stands for it
    (two routes on one path both use its sides)."""
    return 0 if path.edges else bit((hid, pi))


def _extend(g: RouteGraph, board: Any, bit: Any, u: int, term_u: bool, hid: str, pi: int, far: Any,
            paths: list[PathRef], chain: list[str], mask: int, jmask: int) -> None:
    """Follow the track from path ``pi`` of ``hid`` towards its end ``far``; add links to stops."""
    h = board.hexes[hid]
    tile = h.tile
    last_terminal = tile.paths[pi].terminal
    if far.kind == "node":
        node = tile.nodes[far.num]
        if node.kind == "junction":
            jb = bit(("junction", hid, far.num))
            if jmask & jb:
                return
            for qi, q in enumerate(tile.paths):
                if qi == pi or not any(e.kind == "node" and e.num == far.num for e in q.ends):
                    continue
                qb = _path_bit(bit, hid, qi, q)
                if mask & qb:
                    continue
                nxt = q.ends[1] if (q.ends[0].kind == "node" and q.ends[0].num == far.num) else q.ends[0]
                _extend(g, board, bit, u, term_u, hid, qi, nxt, [*paths, (hid, qi)], chain, mask | qb, jmask | jb)
            return
        v = g.index.get((hid, far.num))
        if v is None or v == u:
            return
        g.adj[u].append(Link(u, v, mask, jmask, tuple(paths), tuple(chain), term_u, last_terminal,
                             tuple(bit_indexes(mask))))
        return
    other = h.neighbors.get(far.num)
    if other is None:
        return
    back = hexgrid.opposite(far.num)
    side = min((hid, far.num), (other, back))
    sb = bit(("side", *side))
    if mask & sb:
        return
    oh = board.hexes[other]
    for qi, q in enumerate(oh.tile.paths):
        if not any(e.kind == "edge" and e.num == back for e in q.ends):
            continue
        qb = _path_bit(bit, other, qi, q)
        if mask & qb:
            continue
        nxt = q.ends[1] if (q.ends[0].kind == "edge" and q.ends[0].num == back) else q.ends[0]
        _extend(g, board, bit, u, term_u, other, qi, nxt, [*paths, (other, qi)], [*chain, other],
                mask | sb | qb, jmask)


def mark_reachable(g: RouteGraph, found: Callable[[int], None] | None = None) -> None:
    """Stops reachable from a station without passing through a blocked city or an off-board
    (terminal paths ignored: an over-approximation, only used to choose where routes start);
    ``found(i)`` is called as stop i is found reachable, before its links are read."""
    queue = [i for i, t in enumerate(g.tokened) if t]
    for i in queue:
        g.reachable[i] = True
        if found is not None:
            found(i)
    while queue:
        u = queue.pop()
        for link in g.adj[u]:
            v = link.v
            if not g.reachable[v]:
                g.reachable[v] = True
                if found is not None:
                    found(v)
                if g.through[v]:
                    queue.append(v)
