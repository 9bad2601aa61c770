"""1833NE track: two lays a turn (one may be an upgrade), at least $20 a lay plus the costed
borders the new track completes, P2's free Lowell tile and B&L's restriction, and what a tile
laid in Sherbrooke or Boston sets off."""

from __future__ import annotations

from typing import Any

from ... import actions as A
from ...entities import Company, Corporation
from ...errors import LIMIT, RULE, GameError
from ...map.tiles import Tile
from ...mechanics.track import HexReach
from ...rounds.operating import OperatingRound
from .stations import G1833NEStations


def is_upgrade(h: Any) -> bool:
    """Whether a lay on ``h`` replaces track or a printed city (a second lay may not)."""
    return bool(h.tile.paths) or h.tile.color != "white"


class G1833NETrack(G1833NEStations):
    """Tile lays, their costs and limits, border costs."""

    def tile_lays_per_turn(self, corp: Corporation) -> int:
        if corp.sym == "B&L" and self.bl_restricted() and self.phase["name"] == "I":
            return 0  # P2: no B&L track in phase I until a corporation buys Lowell Merchants
        return 2

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

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False) -> Tile:
        tile = super().check_lay_static(corp, hex_id, tile_id, free=True)  # 1833NE's costs, not terrain's
        self.check_lay_limits(corp, self.board.hex(hex_id), free)
        return tile

    def check_lay_rotation(
        self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True,
        reach: HexReach | None = None,
    ) -> None:
        super().check_lay_rotation(corp, hex_id, tile, connected=connected, reach=reach)
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
