"""Tile lays in words: where each rotation's track leads, the tiles that fit a hex, and the
engine's refusal of a lay with what would be legal instead (and of a train purchase a loan could
help pay for). Used by ``/moves``, ``/help lay`` and every refused move.
"""

from __future__ import annotations

from engine import actions as A
from engine.decisions import action_types, distinct_rotations, legal_tile_lays, tile_lay_hexes
from engine.errors import CANNOT_AFFORD, NO_ROUTE, GameError
from engine.game import Game
from engine.moves.track import rotations_text, tile_name, track_text

__all__ = ["explain_refusal", "tile_name", "tile_sort", "tiles_text", "track_text"]


def tiles_text(g: Game, hex_id: str, lays: dict[str, list[int]]) -> str:
    """ "7 (rotations 4, 5), 8 (rotations 3, 5)" for the tiles that may go on a hex."""

    def one(tile: str, rots: list[int]) -> str:
        rots = distinct_rotations(g, tile, rots)
        return f"{tile_name(tile)} (rotation{'s' if len(rots) > 1 else ''} {', '.join(map(str, rots))})"

    return ", ".join(one(t, r) for t, r in sorted(lays.items(), key=lambda kv: tile_sort(kv[0])))


def tile_sort(tile_id: str) -> tuple[int, str]:
    name = tile_name(tile_id)
    return (int(name), name) if name.isdigit() else (10**6, name)


def explain_refusal(g: Game, action: A.Action, error: GameError) -> str:
    """The engine's refusal of ``action``, with what would be legal instead (tile lays: the
    tiles and rotations that fit the hex, or the hexes where track can go; a train the
    corporation cannot afford: the loan it may take first)."""
    message = error.message
    if isinstance(action, A.BuyTrain) and error.code == CANNOT_AFFORD \
            and "take_loan" in action_types(g, action.entity):
        return f"{message}. {action.entity} may take a loan first (/loan)"
    if not isinstance(action, A.LayTile) or action.entity not in g.corporations:
        return message
    corp, hex_id, name = action.entity, action.hex, tile_name(action.tile)
    here = legal_tile_lays(g, corp, {hex_id}).get(hex_id, {})
    if not here:
        where = tile_lay_hexes(g, corp)
        if not where:
            return message
        return f"{message}. {corp} can lay track on: {', '.join(where)} (/moves lay lists tiles and rotations)"
    rots = next((r for t, r in here.items() if tile_name(t) == name), None)
    if rots is None:
        return f"{message}. On {hex_id} {corp} can lay: {tiles_text(g, hex_id, here)}"
    if action.rotation in rots:
        return message
    if error.code == NO_ROUTE:
        message = (
            f"{corp} cannot lay tile {name} on {hex_id} in rotation {action.rotation}: that rotation "
            f"does not connect to {corp}'s track"
        )
    return f"{message}. Tile {name} fits {hex_id} in rotation {rotations_text(g, hex_id, action.tile, rots)}"
