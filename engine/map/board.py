"""The map in play: hexes with their current tiles and tokens, the tile supply, and the
track graph (what a corporation reaches, route stops and revenue; the walk itself in
:mod:`engine.map.walk`)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..beside import Beside
from ..errors import ILLEGAL_ROUTE, UNAVAILABLE, UNKNOWN, GameError
from . import hexgrid
from . import walk as network_walk
from .tiles import Node, Tile, make_tile, parse_tile
from .walk import StationWalk, TileWalk, WalkWatch, tile_walks_of

if TYPE_CHECKING:
    from ..game import Game

NodeRef = tuple[str, int]  # (hex id, node index on its current tile)


IMPASSABLE_HEX_COLORS = ("blue", "gray", "red")


def _open_slot(slots: list[str | None], reservations: list[str], sym: str) -> int | None:
    """The space a station of ``sym`` takes in a city: its reserved one, else the first free
    one past those reserved (a city's reservations hold its first spaces, as on 18xx.games)."""
    if sym in reservations:
        i = reservations.index(sym)
        if i < len(slots) and slots[i] is None:
            return i
    held = len(reservations)
    free = [i for i, s in enumerate(slots) if s is None]
    return next((i for i in free if i >= held), free[0] if free else None)


@dataclass
class HexState:
    id: str
    tile: Tile  # current tile, rotated
    printed: Tile
    color: str  # map colour of the printed hex (white, yellow, red, gray, blue)
    tile_id: str | None = None  # e.g. "57-0" once a supply tile is laid
    neighbors: dict[int, str] = field(default_factory=dict)
    tokens: dict[int, list[str | None]] = field(default_factory=dict)  # city node index -> slots
    reservations: dict[int, list[str]] = field(default_factory=dict)  # city node index -> corps
    tile_reservations: list[str] = field(default_factory=list)  # hex-level (city not chosen yet)
    location: str = ""
    assignments: set[str] = field(default_factory=set)
    markers: list[str] = field(default_factory=list)  # removable icons such as "tunnel"/"bridge"

    @property
    def laid(self) -> bool:
        return self.tile_id is not None

    def city_slots(self, node_index: int) -> list[str | None]:
        return self.tokens.setdefault(node_index, [None] * max(1, self.tile.nodes[node_index].slots))

    def tokened_by(self, sym: str) -> bool:
        return any(sym in slots for slots in self.tokens.values())


class Board:
    """Hex map plus tile supply. Graph queries are cached until the map changes."""

    def __init__(self, game: Game):
        self.game = game
        data = game.data
        self.layout: hexgrid.Layout = data.LAYOUT
        self.title = data.TITLE
        self.hexes: dict[str, HexState] = {}
        names = game.rules.location_names
        for color, group in data.HEXES.items():
            for ids, code in group.items():
                for hid in (ids if isinstance(ids, (tuple, list)) else (ids,)):
                    code_s = "" if code == "blank" else code
                    tile = parse_tile(hid, code_s, color)
                    self.hexes[hid] = HexState(hid, tile, tile, color, location=names.get(hid, ""))
        for h in self.hexes.values():
            blocked = {b.edge for b in h.tile.borders if b.type in (None, "impassable")}
            for edge in range(6):
                other = hexgrid.neighbor(h.id, edge, self.layout)
                if other in self.hexes and edge not in blocked:
                    oh = self.hexes[other]
                    back = hexgrid.opposite(edge)
                    if any(b.edge == back and b.type in (None, "impassable") for b in oh.tile.borders):
                        continue
                    # water, gray and red hexes are no neighbours unless their track points here
                    # (18xx.games' impassable hex colours)
                    if oh.color in IMPASSABLE_HEX_COLORS and back not in oh.tile.exits:
                        continue
                    h.neighbors[edge] = other
            self._init_tokens(h)
        # tile supply: name -> ids not on the map
        self.supply: dict[str, list[str]] = {}
        self.tile_color: dict[str, str] = {}
        for name, spec in data.TILES.items():
            given = spec if isinstance(spec, (int, str)) else spec["count"]
            count = 99 if given == "unlimited" else int(given)  # "unlimited": as many as anyone can lay
            self.supply[name] = [f"{name}-{i}" for i in range(count)]
        self.version = 0
        self._cache: dict[Any, Any] = {}
        self.tile_reservations_block = game.rules.tile_reservation_blocks_others == "always"
        # what a corporation's stations reach: every node of a walk that uses no track twice
        # (as 18xx.games walks it), or plain reachability along track
        self.route_legal_network = game.rules.network_walk == "route_legal"

    @property
    def tile_walks(self) -> dict[str, TileWalk]:
        """Hex -> its current tile indexed for the network walk (rebuilt when the tile changes);
        kept beside the board, not in it: no part of its state, never saved or copied."""
        return tile_walks_of(self)

    # ------------------------------------------------------------------ tiles
    def tile_for(self, name: str) -> Tile:
        spec = self.game.data.TILES.get(name)
        if isinstance(spec, dict):
            return parse_tile(name, spec["code"], spec["color"])
        try:
            return make_tile(name, self.title)
        except KeyError:
            raise GameError(f"Unknown tile {name}", UNKNOWN, what="tile", id=name) from None

    def hex(self, hid: str) -> HexState:
        try:
            return self.hexes[hid]
        except KeyError:
            raise GameError(f"There is no hex {hid} on this map", UNKNOWN, what="hex", id=hid) from None

    def _init_tokens(self, h: HexState) -> None:
        h.tokens = {n.index: [None] * max(1, n.slots) for n in h.tile.cities}

    def lay(self, hid: str, tile_id: str, rotation: int) -> Tile:
        """Put supply tile ``tile_id`` on ``hid``; tokens follow their cities. No rule checks."""
        h = self.hex(hid)
        name = tile_id.rsplit("-", 1)[0]
        if tile_id not in self.supply.get(name, []):
            raise GameError(f"Tile {tile_id} is not available", UNAVAILABLE, tile=tile_id)
        new = self.tile_for(name).with_rotation(rotation)
        old = h.tile
        if old.future_label is not None and old.future_label.color != new.color:
            new = replace(new, future_label=old.future_label)  # the hex's future label stays on it
        mapping = _city_mapping(old, new)
        old_tokens, old_res = h.tokens, h.reservations
        if len(new.cities) == 1 and h.tile_reservations and not old.cities:
            pass
        h.tokens = {n.index: [None] * max(1, n.slots) for n in new.cities}
        h.reservations = {}
        for oi, syms in old_res.items():  # reservations first: they keep their spaces
            ni = mapping.get(oi)
            if ni is not None:
                h.reservations.setdefault(ni, []).extend(syms)
        for oi, slots in old_tokens.items():
            ni = mapping.get(oi)
            if ni is None:
                continue
            target = h.tokens[ni]
            for sym in slots:
                if sym is None:
                    continue
                free = _open_slot(target, h.reservations.get(ni, []), sym)
                if free is None:
                    target.append(sym)
                else:
                    target[free] = sym
        if h.tile_id is not None:
            old_name = h.tile_id.rsplit("-", 1)[0]
            self.supply[old_name].append(h.tile_id)
            self.supply[old_name].sort(key=lambda t: int(t.rsplit("-", 1)[1]))
        self.supply[name].remove(tile_id)
        h.tile = new
        h.tile_id = tile_id
        self.changed_at(hid)
        return new

    def changed(self) -> None:
        self.version += 1
        self._cache.clear()

    def changed_at(self, hid: str, sym: str | None = None) -> None:
        """The tile or the stations of hex ``hid`` changed (a station of ``sym``, when given):
        a corporation's network (``connectivity``) is computed again only when its walk looked
        at that hex (every hex it looks at is a key of its edge map) or it is ``sym``'s, the walk
        from one station and a destination check (:meth:`hexes_connected`) only when they looked
        at that hex, a route's track only when it runs through that hex; every other cached
        answer is dropped. A board whose networks depend on more than its hexes
        (``connectivity`` overridden, like 1833NE's private off-board stations) drops them all."""
        if type(self).connectivity is not Board.connectivity:
            self.changed()
            return
        self.version += 1
        kept = {}
        for key, value in self._cache.items():
            if key[0] == "conn" and key[1] != sym and hid not in value[0]:
                kept[key] = value
                arrivals = self._cache.get(("arrivals", key[1]))
                if arrivals is not None:
                    kept[("arrivals", key[1])] = arrivals
            elif key[0] == "walk" and hid not in value.looked:
                kept[key] = value  # the walk read nothing there (its own stations elsewhere)
            elif key[0] == "chain" and hid not in key[1:]:
                kept[key] = value  # a route's track is traced along its own hexes only
            elif key[0] == "linked" and hid not in value[1]:
                kept[key] = value  # a destination's walk never read that hex
        self._cache = kept

    def terrain_cost(self, h: HexState) -> int:
        return sum(u.cost for u in h.tile.upgrades)

    # ------------------------------------------------------------------ tokens
    def reserve_home(self, hid: str, city: int | None, sym: str) -> None:
        """A home reservation: on the city when it is known (or the hex has one city),
        otherwise on the hex as a whole."""
        h = self.hex(hid)
        cities = h.tile.cities
        if city is None and len(cities) == 1:
            city = 0
        if city is not None and city < len(cities):
            h.reservations.setdefault(cities[city].index, []).append(sym)
        else:
            h.tile_reservations.append(sym)

    def remove_reservations(self, sym: str) -> None:
        for h in self.hexes.values():
            for res in h.reservations.values():
                while sym in res:
                    res.remove(sym)
            while sym in h.tile_reservations:
                h.tile_reservations.remove(sym)
        self.changed()

    def place_token(self, hid: str, city: int, sym: str, slot: int | None = None) -> None:
        h = self.hex(hid)
        slots = h.city_slots(city)
        res = h.reservations.get(city, [])
        if slot is None or slot >= len(slots) or slots[slot] is not None:
            slot = _open_slot(slots, res, sym)
        if sym in res:
            res.remove(sym)
        if sym in h.tile_reservations:
            h.tile_reservations.remove(sym)
        if slot is None:
            raise GameError(f"No free token space in {hid}", UNAVAILABLE, hex=hid)
        slots[slot] = sym
        self.changed_at(hid, sym)

    def remove_token(self, hid: str, city: int, sym: str) -> None:
        slots = self.hexes[hid].tokens.get(city, [])
        for i, s in enumerate(slots):
            if s == sym:
                slots[i] = None
        self.changed_at(hid, sym)

    def free_slots(self, h: HexState, city: int, sym: str) -> int:
        slots = h.city_slots(city)
        reserved = [r for r in h.reservations.get(city, []) if r != sym]
        free = sum(1 for s in slots if s is None) - len(reserved)
        others = sum(1 for r in h.tile_reservations if r != sym)
        if others:
            # a home reserved for the hex (not one city) keeps a space for its corporation:
            # where reservations block others ("always") nobody else may token there;
            # otherwise only when the reservations need every space left (as 18xx.games)
            if self.tile_reservations_block:
                if sym not in h.tile_reservations:
                    return min(free, 0)
            elif others >= sum(self._city_free(h, c.index, sym) for c in h.tile.cities):
                return min(free, 0)
        return free

    def _city_free(self, h: HexState, city: int, sym: str) -> int:
        slots = h.city_slots(city)
        return sum(1 for s in slots if s is None) - len([r for r in h.reservations.get(city, []) if r != sym])

    def city_blocks(self, h: HexState, city: int, sym: str | None) -> bool:
        """A city blocks ``sym``'s routes through it when all its slots hold other tokens."""
        if sym is None:
            return False
        slots = h.tokens.get(city)
        if not slots:
            return False
        return sym not in slots and all(s is not None for s in slots)

    # ------------------------------------------------------------------ graph
    def connectivity(self, sym: str) -> tuple[dict[str, set[int]], set[NodeRef]]:
        """(hex -> edges the corporation's network touches, nodes it reaches) from its tokens."""
        key = ("conn", sym)
        if key in self._cache:
            cached: tuple[dict[str, set[int]], set[NodeRef]] = self._cache[key]
            return cached
        starts = self.stations(sym)
        hex_edges: dict[str, set[int]] = {}
        for hid, _ in starts:
            hex_edges.setdefault(hid, set()).update(self.hexes[hid].neighbors.keys())
        arrivals: set[tuple[str, int]] = set()
        if self.route_legal_network:
            nodes = set(starts)
            touched: dict[tuple[str, int], None] = {}  # in the walks' order: the edge map's order
            for start in starts:
                walk = self._station_walk(sym, start, starts)
                nodes |= walk.reached
                touched.update(walk.touched)
                arrivals |= walk.arrivals
            for hid, edge in touched:
                got = hex_edges.get(hid)
                if got is None:
                    hex_edges[hid] = {edge}
                else:
                    got.add(edge)
        else:
            nodes = self._walk(starts, sym, hex_edges)
        result = (hex_edges, nodes)
        self._cache[key] = result
        self._cache[("arrivals", sym)] = arrivals
        return result

    def _station_walk(self, sym: str, start: NodeRef, starts: list[NodeRef]) -> StationWalk:
        """The route-legal walk from one of the corporation's stations, kept until a hex it
        looked at changes (see :meth:`changed_at`)."""
        got: StationWalk | None = self._cache.get(("walk", sym, start))
        if got is None:
            got = self._walk_station(sym, start, starts)
            assert got is not None  # an unwatched walk goes to its end
        return got

    def _walk_station(self, sym: str, start: NodeRef, starts: list[NodeRef],
                      watch: WalkWatch | None = None) -> StationWalk | None:
        """Walks from the station ``start`` and keeps the walk; None (nothing kept) when the
        ``watch`` stopped it early."""
        touched: dict[tuple[str, int], None] = {}
        arrivals: set[tuple[str, int]] = set()
        looked: set[str] = set()
        reached = network_walk.route_legal_walk(self, start, sym, set(starts) - {start}, touched,
                                   arrivals=arrivals, looked=looked, watch=watch)
        if watch is not None and watch.stopped:
            watch.stopped = False
            return None
        got = self._cache[("walk", sym, start)] = StationWalk(reached, touched, arrivals, frozenset(looked))
        return got

    def known_network(self, sym: str, hid: str) -> tuple[set[int], set[int]] | None:
        """What is known of the corporation's network at hex ``hid`` without walking again: the
        hex's edges it touches and those where it enters the hex from a neighbour, as far as the
        kept walks from its stations tell (and every edge of its stations' hexes); a part of what
        :meth:`connectivity` finds (all of it when every walk is kept). None where networks are
        not made of station walks. Worked out for every hex at once and kept beside the board
        while the same walks are kept (a listing of tile lays asks at hex after hex)."""
        if type(self).connectivity is not Board.connectivity or not self.route_legal_network:
            return None
        kept = self._kept_walks(sym)
        known = _KNOWN.of(self)
        got = known.get(sym)
        if got is None or len(got[0]) != len(kept) or any(
                a[0] != b[0] or a[1] is not b[1] for a, b in zip(got[0], kept, strict=True)):
            by_hex: dict[str, tuple[set[int], set[int]]] = {}
            for (station, _), _ in kept:
                by_hex.setdefault(station, (set(), set()))[0].update(self.hexes[station].neighbors)
            for _, walk in kept:
                if walk is not None:
                    for h, e in walk.touched:
                        by_hex.setdefault(h, (set(), set()))[0].add(e)
                    for h, e in walk.arrivals:
                        by_hex.setdefault(h, (set(), set()))[1].add(e)
            got = known[sym] = (kept, by_hex)  # (holding the walks: an id names the same walk)
        edges, entries = got[1].get(hid, ((), ()))
        return set(edges), set(entries)

    def walk_next_station(self, sym: str, watch: WalkWatch | None = None) -> bool:
        """Walks from the first station whose walk is not kept, so that :meth:`known_network`
        knows more (False: every walk is kept, or networks are not made of station walks).
        With ``watch`` first each such station once as far as the watch asks (what it found of
        the watched hex is in the watch), then to the end."""
        if type(self).connectivity is not Board.connectivity or not self.route_legal_network:
            return False
        starts = self.stations(sym)
        stale = [start for start, walk in self._kept_walks(sym) if walk is None]
        if not stale:
            return False
        if watch is not None:
            for start in stale:
                if start not in watch.walked:
                    watch.walked.add(start)
                    self._walk_station(sym, start, starts, watch)
                    return True
        self._station_walk(sym, stale[0], starts)
        return True

    def _kept_walks(self, sym: str) -> list[tuple[NodeRef, StationWalk | None]]:
        """The corporation's stations, each with its kept walk (None: to be walked again)."""
        return [(start, self._cache.get(("walk", sym, start))) for start in self.stations(sym)]

    def stations(self, sym: str) -> list[NodeRef]:
        """The cities holding the corporation's stations (every corporation's found at once and
        kept until the map changes)."""
        found: dict[str, list[NodeRef]] | None = self._cache.get(("stations",))
        if found is None:
            found = {}
            for h in self.hexes.values():
                for ci, slots in h.tokens.items():
                    for s in slots:
                        if s is not None and (h.id, ci) not in found.setdefault(s, []):
                            found[s].append((h.id, ci))
            self._cache[("stations",)] = found
        return list(found.get(sym, ()))

    def walks_looking_at(self, sym: str, hid: str) -> list[NodeRef] | None:
        """The stations of ``sym`` whose kept walks looked at hex ``hid`` (None unless every
        station's walk is kept): a walk that never looked at a hex does not change with it."""
        out = []
        for start, walk in self._kept_walks(sym):
            if walk is None:
                return None
            if hid in walk.looked:
                out.append(start)
        return out

    def entry_edges(self, sym: str, hid: str) -> set[int]:
        """Edges of hex ``hid`` at which the corporation's network (route-legal walk) enters it
        from the neighbouring hex."""
        self.connectivity(sym)
        return {e for o, e in self._cache.get(("arrivals", sym), set()) if o == hid}

    def _walk(self, starts: list[NodeRef], sym: str | None,
              hex_edges: dict[str, set[int]] | None = None) -> set[NodeRef]:
        nodes: set[NodeRef] = set(starts)
        seen: set[tuple[str, str, int]] = set()
        queue: deque[tuple[str, str, int]] = deque(("node", hid, ni) for hid, ni in starts)
        for state in queue:
            seen.add(state)
        while queue:
            kind, hid, num = queue.popleft()
            h = self.hexes[hid]
            for path in _incident(h.tile, kind, num):
                far = path.b if (path.a.kind == kind and path.a.num == num) else path.a
                if hex_edges is not None:
                    hex_edges.setdefault(hid, set()).update(path.edges)
                if far.kind == "edge":
                    other = h.neighbors.get(far.num)
                    if other is None:
                        continue
                    back = hexgrid.opposite(far.num)
                    if hex_edges is not None:
                        hex_edges.setdefault(other, set()).add(back)
                    state = ("edge", other, back)
                else:
                    ref = (hid, far.num)
                    nodes.add(ref)
                    node = h.tile.nodes[far.num]
                    if path.terminal or node.kind == "offboard":
                        continue
                    if node.kind == "city" and self.city_blocks(h, far.num, sym):
                        continue
                    state = ("node", hid, far.num)
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
        return nodes

    def hexes_connected(self, start: str, goals: list[str]) -> bool:
        """Is any of ``goals`` reachable by track from a city of ``start`` (tokens ignored)?
        Kept until a hex the walk looked at changes (see :meth:`changed_at`)."""
        key = ("linked", start, tuple(goals))
        got: tuple[bool, frozenset[str]] | None = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._linked(start, goals)
        return got[0]

    def _linked(self, start: str, goals: list[str]) -> tuple[bool, frozenset[str]]:
        """:meth:`hexes_connected`'s answer and the hexes whose tiles it read (the start's, those
        the walk reached or stepped into): only a change there can change it."""
        h = self.hexes.get(start)
        if h is None:
            return False, frozenset((start,))
        starts = [(start, c.index) for c in h.tile.cities]
        hex_edges: dict[str, set[int]] = {}
        nodes = self._walk(starts, None, hex_edges)
        looked = frozenset((start, *hex_edges))
        goal_set = set(goals)
        if any(hid in goal_set for hid, _ in nodes):
            return True, looked
        return any(hid in goal_set and hid != start and edges for hid, edges in hex_edges.items()
                   if any(p for p in self.hexes[hid].tile.paths)), looked

    # ------------------------------------------------------------------ routes
    def route_stops(self, connections: list[list[str]]) -> tuple[list[NodeRef], list[tuple[str, int]]]:
        """Stops and paths of a route given as 18xx.games connection hex chains."""
        stops: list[NodeRef] = []
        used: list[tuple[str, int]] = []
        for chain in connections:
            found = self._trace_chain(chain)
            if found is None:
                ends = [h for h in dict.fromkeys((chain[0], chain[-1])) if h in self.hexes
                        and not any(n.kind != "junction" for n in self.hexes[h].tile.nodes)]
                why = f" (a route runs from stop to stop: {' and '.join(ends)} {'has' if len(ends) == 1 else 'have'}" \
                      " no city, town or off-board)" if ends else ""
                apart = next(((x, y) for x, y in zip(chain, chain[1:], strict=False) if x in self.hexes
                              and y not in hexgrid.neighbors(x, self.layout).values()), None)
                if apart and not why:  # stops only, as "M4 N9 N11": the hexes between are missing
                    why = (f" ({apart[0]} and {apart[1]} are not neighbours: name every hex the route runs"
                           " through, in order, as M4-M6-N7)")
                raise GameError(f"No track connects {'-'.join(chain)}{why}", ILLEGAL_ROUTE, hexes=list(chain))
            a, b, paths = found
            for ref in (a, b):
                if ref not in stops:
                    stops.append(ref)
            used.extend(paths)
        return stops, used

    def split_chain(self, chain: list[str]) -> list[list[str]] | None:
        """A hex chain as a player writes a route ("F17-F15-G14-G12") cut into 18xx.games
        connections, each from one stop to the next ("F17-F15", "F15-G14-G12"): the fewest pieces
        that each follow track from a stop to a stop, joined at the hexes where they meet (None:
        no such cut; the whole chain when it is one connection already)."""
        if any(hid not in self.hexes for hid in chain):
            return None
        n = len(chain)
        came_from: dict[int, int] = {0: -1}
        todo = [0]
        while todo and n - 1 not in came_from:  # breadth first: the fewest pieces
            later = []
            for i in todo:
                for j in range(i + 1, n):
                    if j not in came_from and self._trace_chain(chain[i:j + 1]) is not None:
                        came_from[j] = i
                        later.append(j)
            todo = later
        if n - 1 not in came_from:
            return None
        pieces: list[list[str]] = []
        j = n - 1
        while j > 0:
            i = came_from[j]
            pieces.append(chain[i:j + 1])
            j = i
        return pieces[::-1]

    def _trace_chain(self, chain: list[str]) -> tuple[NodeRef, NodeRef, list[tuple[str, int]]] | None:
        if len(chain) < 2:
            return None
        key = ("chain", *chain)  # a route is traced by its check and again when it runs
        if key in self._cache:
            found: tuple[NodeRef, NodeRef, list[tuple[str, int]]] | None = self._cache[key]
            return None if found is None else (found[0], found[1], list(found[2]))
        found = self._trace_chain_now(chain)
        self._cache[key] = None if found is None else (found[0], found[1], list(found[2]))
        return found

    def _trace_chain_now(self, chain: list[str]) -> tuple[NodeRef, NodeRef, list[tuple[str, int]]] | None:
        first = self.hexes[chain[0]]
        for ni, node in enumerate(first.tile.nodes):
            if node.kind == "junction":
                continue
            res = self._follow(chain, 0, ("node", ni), [], start=(chain[0], ni))
            if res is not None:
                return res
        return None

    def _follow(self, chain: list[str], i: int, at: tuple[str, int], paths: list[tuple[str, int]],
                start: NodeRef) -> tuple[NodeRef, NodeRef, list[tuple[str, int]]] | None:
        hid = chain[i]
        h = self.hexes[hid]
        for pi, path in enumerate(h.tile.paths):
            if (hid, pi) in paths:
                continue
            ends = path.ends
            if not any(e.kind == at[0] and e.num == at[1] for e in ends):
                continue
            far = ends[1] if (ends[0].kind == at[0] and ends[0].num == at[1]) else ends[0]
            new_paths = [*paths, (hid, pi)]
            if far.kind == "node":
                node = h.tile.nodes[far.num]
                if node.kind == "junction":
                    res = self._follow(chain, i, ("node", far.num), new_paths, start)
                    if res is not None:
                        return res
                    continue
                if i == len(chain) - 1 and (hid, far.num) != start:
                    return start, (hid, far.num), new_paths
                continue
            if i + 1 >= len(chain):
                continue
            nxt = chain[i + 1]
            if h.neighbors.get(far.num) != nxt:
                continue
            res = self._follow(chain, i + 1, ("edge", hexgrid.opposite(far.num)), new_paths, start)
            if res is not None:
                return res
        return None

    def node(self, ref: NodeRef) -> Node:
        return self.hexes[ref[0]].tile.nodes[ref[1]]

    def stop_values(self, phase_colors: list[str]) -> dict[NodeRef, int]:
        """:meth:`stop_revenue` of every stop in these phase colours, filled as asked and kept
        until the map changes."""
        key = ("stop_values", *phase_colors)
        got: dict[NodeRef, int] | None = self._cache.get(key)
        if got is None:
            got = self._cache[key] = _StopValues(self, list(phase_colors))
        return got

    def stop_revenue(self, ref: NodeRef, phase_colors: list[str]) -> int:
        rev = self.node(ref).revenue
        if isinstance(rev, int):
            return rev
        for color in reversed(phase_colors):
            if color in rev:
                return rev[color]
        return 0


# board -> {corporation: (its stations' kept walks, Board.known_network's answers by hex)}; beside
# the board, never saved with it
_KNOWN: Beside[Board, dict[str, tuple[list[tuple[NodeRef, StationWalk | None]],
                                      dict[str, tuple[set[int], set[int]]]]]] = Beside(dict)


class _StopValues(dict[NodeRef, int]):
    """Stop -> its revenue in some phase colours, computed on first use."""

    def __init__(self, board: Board, colors: list[str]):
        super().__init__()
        self.board = board
        self.colors = colors

    def __missing__(self, ref: NodeRef) -> int:
        value = self[ref] = self.board.stop_revenue(ref, self.colors)
        return value


def _incident(tile: Tile, kind: str, num: int) -> list[Any]:
    return [p for p in tile.paths
            if (p.a.kind == kind and p.a.num == num) or (p.b.kind == kind and p.b.num == num)]


def _city_mapping(old: Tile, new: Tile) -> dict[int, int | None]:
    from .upgrades import city_correspondence

    if not old.cities:
        return {}
    return city_correspondence(old, new)
