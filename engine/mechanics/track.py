"""Track: laying and upgrading tiles, with every check a lay must pass.

:class:`TrackRules` is a part of :class:`engine.game.Game`. A title changes the upgrade table
(:meth:`TrackRules.upgrades_to`), which old track must be kept
(:meth:`TrackRules.old_paths_preserved`) or what follows a lay (:meth:`TrackRules.after_track`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..entities import Company, Corporation
from ..errors import BAD_OPTION, CANNOT_AFFORD, ILLEGAL_TILE, NO_ROUTE, UNAVAILABLE, UNKNOWN, GameError
from ..hooks import TitleHooks
from ..map import walk as network_walk
from ..map.tiles import COLOR_ORDER, Tile
from ..map.upgrades import labels_match, paths_preserved
from ..map.walk import WalkWatch
from ..rounds.operating import OperatingRound

if TYPE_CHECKING:
    from ..map.board import Board, HexState


class WalkNeeded(Exception):  # noqa: N818 - not an error: a check put off (see check_lay_rotation)
    """A lay's verdict needs the network walked with the new tile (``walk=False`` asked not to)."""


# (game class, title data, optional rules) -> {(hex, whether laid, its tile and rotation, the new
# tile and rotation, the edges the network touches there and enters by (None: not asked),
# whether it holds a station): whether the upgrade checks pass (TrackRules._kept_upgrade_check)}
_QUICK: dict[tuple[Any, ...], dict[tuple[Any, ...], bool]] = {}


class TrackRules(TitleHooks):
    """Tile lays: what may be laid where, what it costs, and laying it."""

    # ------------------------------------------------------------------ track
    def tile_lays_per_turn(self, corp: Corporation) -> int:
        return 1

    def owns_track_time_tile_lay(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """An owned private's extra tile lay (not replacing the normal one) keeps the track
        step open until it is used or the step is passed."""
        for sym in corp.companies:
            c = self.companies[sym]
            ab = c.ability("tile_lay")
            if ab and not c.closed and ab.get("when") == "track" and not ab.get("consume_tile_lay") \
                    and (c.sym, "tile_lay") not in self.used_abilities:
                return True
        return False

    def can_buy_tile_laying_company(self, corp: Corporation) -> bool:
        """While a private with a track-time tile lay could still be bought, the track step stays open."""
        if not self.phase_status("can_buy_companies"):
            return False
        return any(self.company_min_price(c) <= corp.cash and any(
            a.get("type") == "tile_lay" and a.get("when") in (None, "track") for a in c.abilities)
            for c in self.purchasable_companies())

    def lay_tile(self, corp: Corporation, action: A.LayTile, *, company: Company | None = None,
                 free: bool = False, connected: bool = True) -> None:
        b = self.board
        h = b.hex(action.hex)
        name = action.tile.rsplit("-", 1)[0]
        tile, cost = self.check_lay_tile(corp, action.hex, action.tile, action.rotation,
                                         free=free, connected=connected)
        old = h.tile
        if cost:
            self.spend(corp.sym, "bank", cost)
        pending = self._lift_ambiguous_tokens(h, old, tile)
        b.lay(h.id, action.tile, action.rotation)
        self.map_cache_cleared()
        self._resync_token_cities(h)
        for sym in pending:
            self.pending_tokens.append((sym, h.id, corp.sym))
        for sym, hid in self.rules.close_after_use_at_or_end.items():
            if hid == h.id and company is None:  # the private's own tile is no longer needed
                self.used_abilities.add((sym, "tile_lay"))
        by = f" ({company.sym})" if company is not None else ""
        self.log.append(f"{corp.sym}{by} lays tile #{name} with rotation {action.rotation} on {self.place_words(h.id)}"
                        + (f" for {self.fmt(cost)}" if cost else ""))

    def check_lay_tile(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int, *,
                       free: bool = False, connected: bool = True) -> tuple[Tile, int]:
        """Why ``corp`` may not lay ``tile_id`` on ``hex_id`` at ``rotation`` (GameError), else
        the rotated tile and what it costs. Changes nothing."""
        if not 0 <= rotation <= 5:
            raise GameError(f"Rotation must be 0 to 5, not {rotation}", BAD_OPTION, option="rotation", rotation=rotation)
        base = self.check_lay_static(corp, hex_id, tile_id, free=free)
        tile = base.with_rotation(rotation)
        self.check_lay_rotation(corp, hex_id, tile, connected=connected)
        return tile, (0 if free else self.board.terrain_cost(self.board.hexes[hex_id]))

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False,
                         fitted: bool = False) -> Tile:
        """The checks that do not depend on the rotation; returns the unrotated tile. ``fitted``:
        the tile is known to be an upgrade of the hex's in a colour of the phase (a listing's
        :func:`engine.decisions._fitting_rotations`), which is not checked again."""
        b = self.board
        h = b.hex(hex_id)
        name = tile_id.rsplit("-", 1)[0]
        if name not in b.supply:
            raise GameError(f"{corp.sym} cannot lay tile {name}: {self.title} has no tile {name}", UNKNOWN, what="tile", id=name)
        tile = b.tile_for(name)
        old = h.tile
        blocker = self.hex_blocked_by(h.id)
        if blocker:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: blocked by {blocker}", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id, blocker=blocker)
        if not fitted and tile.color not in self.phase["tiles"]:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: {tile.color} tiles are not "
                            f"available in phase {self.phase['name']}", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id, color=tile.color)
        if tile_id not in b.supply.get(name, []):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: no {name} tile left", UNAVAILABLE, corporation=corp.sym, tile=name, hex=h.id)
        if not fitted and not self.upgrades_to(h, old, tile):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: it is not an upgrade of "
                            f"{old.name if h.laid else 'the printed hex'}", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id)
        cost = 0 if free else b.terrain_cost(h)
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: it costs {self.fmt(cost)}", CANNOT_AFFORD, corporation=corp.sym, tile=name, hex=h.id, cost=cost, cash=corp.cash)
        return tile

    def check_lay_rotation(self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True,
                           reach: HexReach | None = None, walk: bool = True, fitted: bool = False) -> None:
        """The checks for one rotation of the new tile (already rotated). ``reach`` (from
        :meth:`hex_reach`, for this corporation and hex) lets the many tiles and rotations tried
        on one hex look the network up once. Without ``walk``, a verdict that needs the network
        walked with the new tile on the hex raises :class:`WalkNeeded` instead (a listing tries
        the other tiles first). ``fitted``: the rotation is known to stay on the map and keep the
        old track (:func:`engine.decisions._fitting_rotations`), which is not checked again."""
        b = self.board
        h = b.hexes[hex_id]
        old = h.tile
        name, rotation = tile.name, tile.rotation
        exits = tile.exits
        if not fitted and any(e not in h.neighbors for e in exits):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id} with rotation "
                            f"{rotation}: track would run off the map or into a barrier", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id, rotation=rotation)
        if not fitted and not self.old_paths_preserved(old, tile):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id} with rotation "
                            f"{rotation}: existing track must be kept", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id, rotation=rotation)
        if not connected:
            return
        if reach is None:
            reach = self.hex_reach(corp, hex_id)
        # the quick checks only grow more true as more of the network is known: walk the
        # stations whose walks the last lays made stale one at a time until they pass (each
        # walk first only until what it found of this hex lets them pass)

        def passes(edges: set[int], entries: set[int]) -> bool:
            return self._quick_connected(corp, h, tile, exits, edges, entries)

        while not self._known_connected(corp, h, tile, exits, reach):
            if not reach.walk_one_more(passes):
                break
        else:
            return
        touched = reach.touched
        if not (exits & touched):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: no route to {h.id}", NO_ROUTE, corporation=corp.sym, tile=name, hex=h.id, rotation=rotation)
        if self._quick_connected(corp, h, tile, exits, touched, reach.entries):  # (as it is for a new hex or a replay)
            return
        if self._kept_upgrade_check(corp, h, tile, touched, None):
            if not walk:
                raise WalkNeeded(hex_id, tile.name, tile.rotation)
            if self._upgrade_useful(old, tile, touched, self._new_paths_walked(corp, h, tile)):
                return
        raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: an upgrade must add track "
                        f"{corp.sym} can use or raise a city's value", ILLEGAL_TILE, corporation=corp.sym, tile=name, hex=h.id, rotation=rotation)

    def hex_reach(self, corp: Corporation, hex_id: str) -> HexReach:
        """Where ``corp``'s network touches and enters hex ``hex_id``, each looked up when first
        needed; valid while the board does not change."""
        return HexReach(self.board, corp.sym, hex_id)

    def _known_connected(self, corp: Corporation, h: HexState, tile: Tile, exits: frozenset[int],
                         reach: HexReach) -> bool:
        """Whether the part of the network known without walking again (:meth:`Board.known_network`)
        already passes the quick checks of :meth:`check_lay_rotation`: they only grow more true
        as the network grows, so they then pass for the whole network (a no is decided on the
        whole network)."""
        known = reach.known
        if known is None:
            return False
        return self._quick_connected(corp, h, tile, exits, *known)

    def _quick_connected(self, corp: Corporation, h: HexState, tile: Tile, exits: frozenset[int],
                         touched: set[int], entries: set[int]) -> bool:
        """The quick checks of :meth:`check_lay_rotation` on a part of the network: the hex
        edges it touches there and where it enters the hex."""
        if not (exits & touched):
            return False
        old = h.tile
        # a game replayed from its record skips the upgrade's track restriction, as 18xx.games
        # does while loading one (Tracker#check_track_restrictions! returns when loading)
        return not old.paths or not self.live or self._kept_upgrade_check(corp, h, tile, touched, entries)

    def _kept_upgrade_check(self, corp: Corporation, h: HexState, tile: Tile, touched: set[int],
                            entries: set[int] | None) -> bool:
        """:meth:`_upgrade_useful` for ``tile`` on hex ``h``: on the paths at the ``touched`` edges,
        and (``entries`` given) on those the network enters by ``entries`` too. The answer
        depends on the two tiles, the hex and the edges only: kept for all games of a title."""
        old = h.tile
        key = (h.id, h.laid, old.name, old.rotation, tile.name, tile.rotation, frozenset(touched),
               None if entries is None else frozenset(entries),
               any(s for slots in h.tokens.values() for s in slots))
        known = _QUICK.setdefault((type(self), self.data, tuple(self.optional_rules)), {})
        got = known.get(key)
        if got is None:
            got = self._upgrade_useful(old, tile, touched)
            if got and entries is not None:
                got = self._upgrade_useful(old, tile, touched, self._new_paths_entered(corp, h, tile, entries))
            known[key] = got
        return got

    def _upgrade_useful(self, old: Tile, new: Tile, touched: set[int], reached: set[int] | None = None) -> bool:
        """1856's track restriction (18xx.games "semi-restrictive"): among the new tile's paths
        that the corporation reaches, one must be new track or lead to a city whose value changed.
        18xx.games counts the paths its network walk takes once the tile is laid (a branch of a
        switch entered from its other branch is not reached). Without ``reached`` a path counts
        when it touches an edge the network touches now (quick, a superset); with ``reached``
        (indexes of the new tile's paths: :meth:`_new_paths_entered`, quick and nearly exact, or
        :meth:`_new_paths_walked`, exact) when it is one of them."""
        from ..map.upgrades import _path_within

        for pi, np in enumerate(new.paths):
            if reached is not None:
                if pi not in reached:
                    continue
            elif not (set(np.edges) & touched):
                continue
            op = next((p for p in old.paths if _path_within(new, np, old, p)), None)
            if op is None:
                return True
            old_rev = sorted(_max_rev(old.nodes[i].revenue) for i in op.node_indexes)
            new_rev = sorted(_max_rev(new.nodes[i].revenue) for i in np.node_indexes)
            if old_rev != new_rev:
                return True
        return False

    def _new_paths_walked(self, corp: Corporation, h: HexState, new: Tile) -> set[int] | None:
        """Indexes of ``new``'s paths the corporation's network walks once ``new`` lies on hex
        ``h`` (None when the hex holds stations, whose cities the new tile may number
        differently: then every touched path counts)."""
        b = self.board
        if not b.route_legal_network or any(s for slots in h.tokens.values() for s in slots):
            return None
        starts = b.stations(corp.sym)
        # a station whose walk never looked at the hex walks the same with the new tile there:
        # it enters nothing on the hex
        looking = b.walks_looking_at(corp.sym, h.id)
        taken: set[int] = set()
        old_tile = h.tile
        walks = b.tile_walks
        kept = walks.get(h.id)  # the hex's walk table, put back after (not built again)
        h.tile = new
        try:
            for st in (starts if looking is None else looking):
                network_walk.route_legal_walk(b, st, corp.sym, set(starts) - {st}, {}, paths=taken)
        finally:
            h.tile = old_tile
            if kept is not None:
                walks[h.id] = kept
        # the paths the walk took, not all those at the edges it arrived by: 18xx.games' walk
        # (Path#walk) does not enter a path by an edge of the hex it has left the hex through
        # on its way there (a loop back into the hex), so such a path may stay unconnected
        return network_walk.path_indexes(h.id, taken, len(new.paths))

    @staticmethod
    def _paths_from(new: Tile, entries: set[int]) -> set[int]:
        """Paths of ``new`` a walk entering at ``entries`` surely takes: those at an entry edge
        and what they reach through the tile's own stops, each with edges no other path of the
        tile has. (A path sharing an edge may be left out: 18xx.games' walk does not enter a
        path by an edge of a hex it left the hex through on its way, and a walk arriving may
        have come through the hex first; only walking tells.)"""
        shared = {e for e, n in Counter(e for p in new.paths for e in p.edges).items() if n > 1}
        sure = {pi for pi, p in enumerate(new.paths) if not shared & set(p.edges)}
        reached = {pi for pi in sure if set(new.paths[pi].edges) & entries}
        stops = {ni for pi in reached for ni in new.paths[pi].node_indexes}
        grew = True
        while grew:
            grew = False
            for pi, p in enumerate(new.paths):
                if pi in sure and pi not in reached and set(p.node_indexes) & stops:
                    reached.add(pi)
                    stops |= set(p.node_indexes)
                    grew = True
        return reached

    def _new_paths_entered(self, corp: Corporation, h: HexState, new: Tile,
                           entries: set[int] | None = None) -> set[int] | None:
        """:meth:`_new_paths_walked` from where the network enters the hex now (no walk; from
        ``entries`` when given, else the whole network's)."""
        b = self.board
        if not b.route_legal_network or any(s for slots in h.tokens.values() for s in slots):
            return None
        return self._paths_from(new, b.entry_edges(corp.sym, h.id) if entries is None else entries)

    def _resync_token_cities(self, h: HexState) -> None:
        """After an upgrade the board says which city each station is in now."""
        for ci, slots in h.tokens.items():
            for sym in slots:
                if sym is None or sym not in self.corporations:
                    continue
                toks = [t for t in self.corporations[sym].tokens if t.used and t.hex == h.id]
                if toks:
                    toks[0].city = ci

    def _lift_ambiguous_tokens(self, h: HexState, old: Tile, new: Tile) -> list[str]:
        """Tokens on a multi-city hex without track cannot follow a particular city of the new
        tile: they come off and their owners place them again (as 18xx.games does)."""
        if len(old.cities) < 2 or len(new.cities) < 2 or any(old.node_exits(c.index) for c in old.cities):
            return []
        lifted = []
        for ci, slots in h.tokens.items():
            for i, sym in enumerate(slots):
                if sym is None:
                    continue
                slots[i] = None
                corp = self.corporations[sym]
                for tok in corp.tokens:
                    if tok.used and tok.hex == h.id and tok.city == ci:
                        tok.used, tok.hex, tok.city = False, None, None
                        break
                lifted.append(sym)
        return lifted

    def hex_blocked_by(self, hid: str) -> str | None:
        for c in self.companies.values():
            if c.closed or c.owner not in self.player_by_id:
                continue
            ab = c.ability("blocks_hexes")
            if ab and hid in ab.get("hexes", []):
                return c.sym
        return None

    def basic_upgrade(self, old: Tile, new: Tile) -> bool:
        if old.color not in COLOR_ORDER or new.color not in COLOR_ORDER:
            return False
        if COLOR_ORDER.index(new.color) != COLOR_ORDER.index(old.color) + 1:
            return False
        if not labels_match(old, new):
            return False
        if len(old.towns) != len(new.towns):
            return False
        if len(old.cities) != len(new.cities) and not (old.label and old.cities):
            return False
        if old.color == "white" and not old.cities and not old.towns and (new.cities or new.towns):
            return False
        return True

    def old_paths_preserved(self, old: Tile, new: Tile) -> bool:
        """Whether ``new`` keeps the track of ``old`` (every old path, rotated as laid). Every
        old exit must be one of the new tile's: the quick test that most rotations fail."""
        return old.exits <= new.exits and paths_preserved(old, new)

    def upgrades_to(self, h: HexState, old: Tile, new: Tile) -> bool:
        """Whether ``new`` may replace ``old`` on hex ``h`` (titles add their special tiles)."""
        return self.basic_upgrade(old, new)

    def after_track(self, rnd: OperatingRound, corp: Corporation) -> None:
        """Called when ``corp``'s track step has ended (1856: destinations are checked)."""


class HexReach:
    """Where a corporation's network touches and enters one hex: the part known without walking
    again (:meth:`Board.known_network`; None where there is none) and the whole network's (the
    edges it touches, where it enters), each looked up once when first needed."""

    def __init__(self, board: Board, sym: str, hid: str):
        self.board, self.sym, self.hid = board, sym, hid
        self.watch: WalkWatch | None = None  # what the walks stopped early found of the hex

    @cached_property
    def known(self) -> tuple[set[int], set[int]] | None:
        known = self.board.known_network(self.sym, self.hid)
        if known is None:
            return None
        edges, entries = known
        if self.watch is not None:
            edges |= self.watch.edges
            entries |= self.watch.entries
        return edges, entries

    def walk_one_more(self, passes: Callable[[set[int], set[int]], bool] | None = None) -> bool:
        """Walks one more of the corporation's stations (:meth:`Board.walk_next_station`), so
        that :attr:`known` grows; False when nothing is left to walk. With ``passes`` (a test
        of what is known of the hex: the edges the network touches there, where it enters it)
        a station's walk stops once the test passes on what is known with it, the first time
        that station is walked for this hex."""
        if passes is not None:
            known = self.known
            if known is None:
                return False
            edges0, entries0 = known

            def test(edges: set[int], entries: set[int]) -> bool:
                return passes(edges0 | edges, entries0 | entries)

            if self.watch is None:
                self.watch = WalkWatch(self.hid, test)
            self.watch.test = test
        if not self.board.walk_next_station(self.sym, self.watch if passes is not None else None):
            return False
        self.__dict__.pop("known", None)
        return True

    @cached_property
    def touched(self) -> set[int]:
        edges, _ = self.board.connectivity(self.sym)
        return edges.get(self.hid, set())

    @cached_property
    def entries(self) -> set[int]:
        return self.board.entry_edges(self.sym, self.hid)


def _max_rev(revenue: Any) -> int:
    return max(revenue.values()) if isinstance(revenue, dict) else int(revenue)
