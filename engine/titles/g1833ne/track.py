"""1833NE track: two lays a turn (one may be an upgrade), at least $20 a lay plus the costed
borders the new track completes, P2's free Lowell tile and B&L's restriction, and what a tile
laid in Sherbrooke or Boston sets off.

Stations: two per corporation (the home and one more for $80; B&W's in Worcester
$40), homes placed when the corporation starts, and the P4/P6 off-boards its owner builds and
runs from "as if it had a marker there".

Sherbrooke's shared marker (summary: A&StL "teilt mit der StL&A einen Marker, der kostenlos in
Sherbrooke gelegt wird, sobald jemand dort das gelbe Plättchen legt").

The marker is one station: it takes one space of Sherbrooke's city however many corporations
share it. In the city's slot list the first sharer holds that space and the other sharers follow
past the city's spaces, so the board counts one station for all of them. A sharer that closes
leaves the marker to the others (the space frees only when nobody shares it any more); a
corporation taking over a sharer inherits its part of the marker ("erbt ... Marker").

Two layers: :class:`G1833NEStations` (over routes) and :class:`G1833NETrack` over it.
"""

from __future__ import annotations

from typing import Any

from ... import actions as A
from ...entities import Company, Corporation
from ...errors import CANNOT_AFFORD, LIMIT, NO_ROUTE, RULE, UNAVAILABLE, GameError
from ...map.tiles import Tile
from ...mechanics.track import HexReach
from ...rounds.operating import OperatingRound
from .routes import G1833NERoutes


class G1833NEStations(G1833NERoutes):
    """Station costs, placing tokens and homes, the shared Sherbrooke marker."""

    def token_cost(self, corp: Corporation, hex_id: str | None = None) -> int | None:
        tok = corp.next_token()
        if tok is None:
            return None
        if corp.sym == "BW" and hex_id == "E22":
            return 40  # summary: B&W's marker in Worcester always costs $40
        return tok.price

    def can_place_token(self, corp: Corporation, *, step: bool = False) -> bool:
        cost = self.cheapest_station(corp)
        return cost is not None and cost <= corp.cash

    def cheapest_station(self, corp: Corporation) -> int | None:
        """What the corporation's cheapest station it may place now costs (None: none)."""
        if corp.next_token() is None:
            return None
        return min((self.token_cost(corp, hid) or 0 for hid, _ in self.tokenable_cities(corp)), default=None)

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        hid, city = self.parse_city(action.city)
        if (hid, city) not in self.tokenable_cities(corp):
            raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space", NO_ROUTE)
        cost = self.token_cost(corp, hid)
        if cost is None:
            raise GameError(f"{corp.sym} has no station left", UNAVAILABLE)
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot afford a station ({self.fmt(cost)})", CANNOT_AFFORD)
        self.board.place_token(hid, city, corp.sym, action.slot)
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        self.spend(corp.sym, "bank", cost)
        if self.special_reservations.get(corp.sym) == hid:
            self.special_reservations.pop(corp.sym)
        self.log.append(f"{corp.sym} places a station on {hid} for {self.fmt(cost)}")

    def place_home(self, corp: Corporation, hid: str | None = None, city: int | None = None) -> None:
        """Home stations are placed when the corporation starts (HOME_TOKEN_TIMING float)."""
        hid = hid or corp.home
        if not hid or not corp.tokens or corp.tokens[0].used:
            return
        h = self.board.hex(hid)
        if city is None:
            cities = h.tile.cities
            reserved = [ci for ci, res in h.reservations.items() if corp.sym in res]
            if reserved:
                city = reserved[0]  # the reservation follows its city through upgrades
            elif corp.home_city is not None and corp.home_city < len(cities):
                city = cities[corp.home_city].index
            else:
                city = next(
                    (c.index for c in cities if self.board.free_slots(h, c.index, corp.sym) > 0), cities[0].index
                )
        self.board.place_token(hid, city, corp.sym)
        tok = corp.tokens[0]
        tok.used, tok.hex, tok.city = True, hid, city

    def virtual_stations(self, sym: str) -> list[tuple[str, int]]:
        corp = self.corporations.get(sym)
        if corp is None or corp.closed:
            return []
        out = []
        for hid in self.virtual_station_hexes(corp):
            h = self.board.hexes[hid]
            out += [(hid, n.index) for n in h.tile.offboards]
        return out

    def _sherbrooke_city(self) -> tuple[Any, int] | None:
        h = self.board.hexes.get(self.data.SHARED_TOKEN["hex"])
        if h is None or not h.tile.cities:
            return None
        return h, h.tile.cities[0].index

    def place_sherbrooke_marker(self) -> None:
        """The yellow tile is laid: the open sharers' marker goes into the city's free space."""
        found = self._sherbrooke_city()
        if found is None:
            return
        self.sherbrooke_sharers = [s for s in self.sherbrooke_sharers if not self.corporations[s].closed]
        self.sherbrooke_token_done = True
        h, ci = found
        slots = h.city_slots(ci)
        h.tokens[ci] = [s for s in slots if s is not None] + self.sherbrooke_sharers
        self.settle_sherbrooke()
        if self.sherbrooke_sharers:
            self.log.append(f"{' and '.join(self.sherbrooke_sharers)} place their shared marker in Sherbrooke")

    def settle_sherbrooke(self) -> None:
        """Keep the shared marker in one space of the city (after a lay, a closing or a takeover)."""
        found = self._sherbrooke_city()
        if found is None or not self.sherbrooke_token_done:
            return
        h, ci = found
        slots = h.tokens.get(ci)
        if slots is None:
            return
        spaces = max(1, h.tile.nodes[ci].slots)
        sharers = [s for s in self.sherbrooke_sharers if s in slots]
        first = next((i for i, s in enumerate(slots) if s in sharers), None)
        base = [None if s in sharers else s for s in slots]
        while len(base) > spaces and None in base:
            del base[len(base) - 1 - base[::-1].index(None)]  # the last free entry
        base += [None] * (spaces - len(base))
        if sharers and None not in base:
            base += sharers  # decision: a city already full (a takeover-game home) takes it past its spaces
        elif sharers:
            at = first if first is not None and first < len(base) and base[first] is None else base.index(None)
            base[at] = sharers[0]
            base += sharers[1:]
        slots[:] = base
        self.board.changed()

    def sherbrooke_sharer_closed(self, corp: Corporation) -> None:
        """A closing sharer leaves the marker to the others."""
        if corp.sym in self.sherbrooke_sharers:
            self.sherbrooke_sharers.remove(corp.sym)
            self.settle_sherbrooke()

    def sherbrooke_sharer_taken_over(self, target: Corporation, acq: Corporation) -> None:
        """The acquirer inherits the target's part of the marker (unless it has its own station
        there, which it keeps)."""
        if target.sym not in self.sherbrooke_sharers or not self.sherbrooke_token_done:
            return
        found = self._sherbrooke_city()
        i = self.sherbrooke_sharers.index(target.sym)
        if found is not None and acq.sym not in found[0].tokens.get(found[1], []):
            self.sherbrooke_sharers[i] = acq.sym
            slots = found[0].tokens[found[1]]
            slots[slots.index(target.sym)] = acq.sym
        else:
            self.sherbrooke_sharers.pop(i)
            if found is not None and target.sym in found[0].tokens.get(found[1], []):
                found[0].tokens[found[1]].remove(target.sym)
        self.settle_sherbrooke()


def is_upgrade(h: Any) -> bool:
    """Whether a lay on ``h`` replaces track or a printed city (a second lay may not)."""
    return bool(h.tile.paths) or h.tile.color != "white"


class G1833NETrack(G1833NEStations):
    """Tile lays, their costs and limits, border costs."""

    def tile_lays_per_turn(self, corp: Corporation) -> int:
        if corp.sym == "B&L" and self.bl_restricted() and self.phase["name"] == "I":
            return 0  # P2: no B&L track in phase I until a corporation buys Lowell Merchants
        return 2

    def lay_affordable(self, corp: Corporation) -> bool:
        """Whether the corporation can pay for a lay now: every lay costs at least $20, but the
        Lowell tile is free in the round its buyer bought P2 (summary, P2)."""
        if corp.cash >= self.data.TILE_COST:
            return True
        lowell = self.board.hexes.get("G20")
        return lowell is not None and self.base_tile_cost(corp, lowell) == 0

    def p2_may_free_bl(self, corp: Corporation) -> bool:
        """B&L, kept from track in phase I, may still buy P2 this turn (which lifts that)."""
        return corp.sym == "B&L" and self.bl_restricted() and self.phase["name"] == "I" \
            and any(c.sym == "P2" for c in self.purchasable_companies())

    def bl_restricted(self) -> bool:
        """Summary, P2: "Solange keine Gesellschaft sie gekauft hat, kann die Boston & Lowell in
        Phase I keine Gleise legen und weder in Phase I noch später Strecken fahren, solange
        Boston nicht aufgewertet ist" - so the route restriction outlives P2 (removed in phase
        III) when no corporation ever bought it."""
        return self.p2_bought_key is None

    def base_tile_cost(self, corp: Corporation, h: Any) -> int:
        if h.id == "G20" and self.owns_company(corp, "P2") and self.p2_bought_key == self.round_key() and not h.laid:
            return 0  # P2: free tile in Lowell in the round it was bought
        minimum: int = self.data.TILE_COST
        return max(minimum, self.board.terrain_cost(h))

    def tile_cost(self, corp: Corporation, h: Any, old: Tile, new: Tile) -> int:
        """Every lay or upgrade costs at least $20 (18xx.games: max(TILE_COST, terrain)), plus
        the bridges/tunnels/passes (costed borders) the new track completes."""
        cost = self.base_tile_cost(corp, h)
        if cost == 0:
            return 0
        return cost + sum(c for _, c in self.completed_borders(h, old, new))

    def lay_cost(self, corp: Corporation, hex_id: str, tile: Tile) -> int:
        h = self.board.hexes[hex_id]
        return self.tile_cost(corp, h, h.tile, tile)

    def check_lay_limits(self, corp: Corporation, h: Any, free: bool) -> None:
        """The turn's limits on a lay (GameError): one lay per hex, one upgrade, the least cost."""
        rnd = self.round
        if isinstance(rnd, OperatingRound) and h.id in rnd.state.get("laid_hexes", ()):
            raise GameError(f"{corp.sym} cannot lay on {h.id} twice in one turn", LIMIT)
        if is_upgrade(h) and isinstance(rnd, OperatingRound) and rnd.state.get("upgraded") and not free:
            raise GameError(f"{corp.sym} has already upgraded a tile this turn; the second lay must be yellow", LIMIT)
        if not free and self.base_tile_cost(corp, h) > corp.cash:
            raise GameError(
                f"{corp.sym} cannot lay a tile on {h.id}: it costs at least {self.fmt(self.base_tile_cost(corp, h))}"
            , RULE)

    def check_border_cost(self, corp: Corporation, h: Any, tile: Tile) -> None:
        """GameError when ``corp`` cannot pay for ``tile`` (rotated) with the borders it completes."""
        cost = self.tile_cost(corp, h, h.tile, tile)
        if cost > corp.cash:
            raise GameError(
                f"{corp.sym} cannot lay tile {tile.name} on {h.id} with rotation {tile.rotation}: "
                f"with the borders it crosses it costs {self.fmt(cost)}"
            , RULE)

    def pay_for_lay(self, corp: Corporation,
        h: Any,
        cost: int,
        borders: list[tuple[tuple[str, int], int]],
        *,
        upgrade: bool,
    ) -> None:
        """After a tile is laid on ``h``: ``corp`` pays ``cost``, the completed ``borders`` are
        paid for good, the turn notes the hex (and the upgrade), and what the tile sets off."""
        if cost:
            self.spend(corp.sym, "bank", cost)
            self.log.append(f"{corp.sym} pays {self.fmt(cost)} for the tile on {h.id}")
        for key, _ in borders:
            self.paid_borders.add(key)
        if isinstance(self.round, OperatingRound):
            self.round.state.setdefault("laid_hexes", []).append(h.id)
            if upgrade:
                self.round.state["upgraded"] = True
        self.after_tile_laid(h)

    def completed_borders(self, h: Any, old: Tile, new: Tile) -> list[tuple[tuple[str, int], int]]:
        out = []
        for edge in new.exits - old.exits:
            other = h.neighbors.get(edge)
            if other is None:
                continue
            back = (edge + 3) % 6
            key = min((h.id, edge), (other, back))
            if key in self.paid_borders:
                continue
            oh = self.board.hexes[other]
            cost = next((b.cost for b in h.printed.borders if b.edge == edge and b.cost), 0) or next(
                (b.cost for b in oh.printed.borders if b.edge == back and b.cost), 0
            )
            if cost and back in oh.tile.exits:
                out.append((key, cost))
        return out

    def after_tile_laid(self, h: Any) -> None:
        if h.id == self.data.SHARED_TOKEN["hex"] and h.tile.cities:
            if self.sherbrooke_token_done:
                self.settle_sherbrooke()  # an upgrade: the shared marker stays one station
            else:
                self.place_sherbrooke_marker()
        # summary: B&P has a reserved place in Boston once the green tile is there (until IV)
        if (
            h.id == "G22"
            and h.tile.color == "green"
            and "B&P" not in self.special_reservations
            and self.phase_index < self.phase_index_of("IV")
        ):
            corp = self.corporations["B&P"]
            if not h.tokened_by("B&P") and not corp.closed:
                for c in h.tile.cities:
                    if self.board.free_slots(h, c.index, "B&P") > 0:
                        h.reservations.setdefault(c.index, []).append("B&P")
                        self.special_reservations["B&P"] = "G22"
                        break

    def check_lay_tile(
        self,
        corp: Corporation,
        hex_id: str,
        tile_id: str,
        rotation: int,
        *,
        free: bool = False,
        connected: bool = True,
    ) -> tuple[Tile, int]:
        self._free_lay = free
        try:
            tile, _ = super().check_lay_tile(corp, hex_id, tile_id, rotation, free=free, connected=connected)
        finally:
            self._free_lay = False
        h = self.board.hex(hex_id)
        return tile, (0 if free else self.tile_cost(corp, h, h.tile, tile))

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False,
                         fitted: bool = False) -> Tile:
        # 1833NE's costs, not terrain's
        tile = super().check_lay_static(corp, hex_id, tile_id, free=True, fitted=fitted)
        self.check_lay_limits(corp, self.board.hex(hex_id), free)
        return tile

    def check_lay_rotation(
        self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True,
        reach: HexReach | None = None, walk: bool = True, fitted: bool = False,
    ) -> None:
        super().check_lay_rotation(corp, hex_id, tile, connected=connected, reach=reach, walk=walk, fitted=fitted)
        if not self._free_lay:
            self.check_border_cost(corp, self.board.hexes[hex_id], tile)

    def lay_tile(
        self,
        corp: Corporation,
        action: A.LayTile,
        *,
        company: Company | None = None,
        free: bool = False,
        connected: bool = True,
    ) -> None:
        h = self.board.hex(action.hex)
        upgrade, old = is_upgrade(h), h.tile
        tile, cost = self.check_lay_tile(
            corp, action.hex, action.tile, action.rotation, free=free, connected=connected
        )
        borders = [] if free else self.completed_borders(h, old, tile)
        super().lay_tile(corp, action, company=company, free=True, connected=connected)  # paid below
        self.pay_for_lay(corp, h, cost, borders, upgrade=upgrade and company is None)

    def can_run_routes(self, corp: Corporation) -> bool:
        if not corp.trains:
            return False
        if corp.sym == "B&L" and self.bl_restricted() and self.board.hexes["G22"].tile.color == "yellow":
            return False  # P2: no B&L routes while Boston is not upgraded, unless a corporation bought P2
        return True
