"""1833NE track: two lays a turn (one may be an upgrade), at least $20 a lay plus the costed
borders the new track completes, P2's free Lowell tile and B&L's restriction, and what a tile
laid in Sherbrooke or Boston sets off."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...entities import Corporation
from ...errors import LIMIT, RULE, GameError
from ...map.tiles import Tile
from ...rounds.operating import OperatingRound
from . import sherbrooke

if TYPE_CHECKING:
    from .game import G1833NE


def tile_lays_per_turn(g: G1833NE, corp: Corporation) -> int:
    if corp.sym == "B&L" and bl_restricted(g) and g.phase["name"] == "I":
        return 0  # P2: no B&L track in phase I until a corporation buys Lowell Merchants
    return 2


def bl_restricted(g: G1833NE) -> bool:
    """Summary, P2: "Solange keine Gesellschaft sie gekauft hat, kann die Boston & Lowell in
    Phase I keine Gleise legen und weder in Phase I noch später Strecken fahren, solange
    Boston nicht aufgewertet ist" - so the route restriction outlives P2 (removed in phase
    III) when no corporation ever bought it."""
    return g.p2_bought_key is None


def base_tile_cost(g: G1833NE, corp: Corporation, h: Any) -> int:
    if h.id == "G20" and g.owns_company(corp, "P2") and g.p2_bought_key == g.round_key() and not h.laid:
        return 0  # P2: free tile in Lowell in the round it was bought
    minimum: int = g.data.TILE_COST
    return max(minimum, g.board.terrain_cost(h))


def tile_cost(g: G1833NE, corp: Corporation, h: Any, old: Tile, new: Tile) -> int:
    """Every lay or upgrade costs at least $20 (18xx.games: max(TILE_COST, terrain)), plus
    the bridges/tunnels/passes (costed borders) the new track completes."""
    cost = base_tile_cost(g, corp, h)
    if cost == 0:
        return 0
    return cost + sum(c for _, c in g.completed_borders(h, old, new))


def is_upgrade(h: Any) -> bool:
    """Whether a lay on ``h`` replaces track or a printed city (a second lay may not)."""
    return bool(h.tile.paths) or h.tile.color != "white"


def check_lay_limits(g: G1833NE, corp: Corporation, h: Any, free: bool) -> None:
    """The turn's limits on a lay (GameError): one lay per hex, one upgrade, the least cost."""
    rnd = g.round
    if isinstance(rnd, OperatingRound) and h.id in rnd.state.get("laid_hexes", ()):
        raise GameError(f"{corp.sym} cannot lay on {h.id} twice in one turn", LIMIT)
    if is_upgrade(h) and isinstance(rnd, OperatingRound) and rnd.state.get("upgraded") and not free:
        raise GameError(f"{corp.sym} has already upgraded a tile this turn; the second lay must be yellow", LIMIT)
    if not free and base_tile_cost(g, corp, h) > corp.cash:
        raise GameError(
            f"{corp.sym} cannot lay a tile on {h.id}: it costs at least {g.fmt(base_tile_cost(g, corp, h))}"
        , RULE)


def check_border_cost(g: G1833NE, corp: Corporation, h: Any, tile: Tile) -> None:
    """GameError when ``corp`` cannot pay for ``tile`` (rotated) with the borders it completes."""
    cost = tile_cost(g, corp, h, h.tile, tile)
    if cost > corp.cash:
        raise GameError(
            f"{corp.sym} cannot lay tile {tile.name} on {h.id} with rotation {tile.rotation}: "
            f"with the borders it crosses it costs {g.fmt(cost)}"
        , RULE)


def pay_for_lay(
    g: G1833NE,
    corp: Corporation,
    h: Any,
    cost: int,
    borders: list[tuple[tuple[str, int], int]],
    *,
    upgrade: bool,
) -> None:
    """After a tile is laid on ``h``: ``corp`` pays ``cost``, the completed ``borders`` are
    paid for good, the turn notes the hex (and the upgrade), and what the tile sets off."""
    if cost:
        g.spend(corp.sym, "bank", cost)
        g.log.append(f"{corp.sym} pays {g.fmt(cost)} for the tile on {h.id}")
    for key, _ in borders:
        g.paid_borders.add(key)
    if isinstance(g.round, OperatingRound):
        g.round.state.setdefault("laid_hexes", []).append(h.id)
        if upgrade:
            g.round.state["upgraded"] = True
    after_tile_laid(g, h)


def completed_borders(g: G1833NE, h: Any, old: Tile, new: Tile) -> list[tuple[tuple[str, int], int]]:
    out = []
    for edge in new.exits - old.exits:
        other = h.neighbors.get(edge)
        if other is None:
            continue
        back = (edge + 3) % 6
        key = min((h.id, edge), (other, back))
        if key in g.paid_borders:
            continue
        oh = g.board.hexes[other]
        cost = next((b.cost for b in h.printed.borders if b.edge == edge and b.cost), 0) or next(
            (b.cost for b in oh.printed.borders if b.edge == back and b.cost), 0
        )
        if cost and back in oh.tile.exits:
            out.append((key, cost))
    return out


def after_tile_laid(g: G1833NE, h: Any) -> None:
    if h.id == g.data.SHARED_TOKEN["hex"] and h.tile.cities:
        if g.sherbrooke_token_done:
            sherbrooke.settle(g)  # an upgrade: the shared marker stays one station
        else:
            sherbrooke.place_marker(g)
    # summary: B&P has a reserved place in Boston once the green tile is there (until IV)
    if (
        h.id == "G22"
        and h.tile.color == "green"
        and "B&P" not in g.special_reservations
        and g.phase_index < g.phase_index_of("IV")
    ):
        corp = g.corporations["B&P"]
        if not h.tokened_by("B&P") and not corp.closed:
            for c in h.tile.cities:
                if g.board.free_slots(h, c.index, "B&P") > 0:
                    h.reservations.setdefault(c.index, []).append("B&P")
                    g.special_reservations["B&P"] = "G22"
                    break
