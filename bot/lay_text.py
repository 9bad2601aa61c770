"""Tile lays in words: the legal rotations of a tile on a hex (without those laying the same
track), where each rotation's track leads, the tiles that fit a hex, and the engine's refusal of a
lay with what would be legal instead. Used to build ``/lay`` and by ``/moves`` and ``/help lay``.
"""

from __future__ import annotations

from engine import actions as A
from engine.decisions import legal_tile_lays, track_exits
from engine.game import Game

from .reply import UserError


def tile_name(tile_id: str) -> str:
    return tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id


def _rotations_at(g: Game, corp: str, hex_id: str, name: str) -> list[int] | None:
    """The legal rotations of tile ``name`` on ``hex_id`` for a normal lay (None: not legal there)."""
    if corp not in g.corporations:
        return None
    for tid, rots in legal_tile_lays(g, corp, {hex_id}).get(hex_id, {}).items():
        if tile_name(tid) == name:
            return rots
    return None


def distinct_rotations(g: Game, tile_id: str, rotations: list[int]) -> list[int]:
    """``rotations`` without those that lay the same track as an earlier one (a straight tile at
    rotation 2 and 5)."""
    base = g.board.tile_for(tile_name(tile_id))
    seen: set[frozenset[tuple[frozenset[int], tuple[tuple[str, int], ...]]]] = set()
    out = []
    for r in rotations:
        shape = frozenset(
            (frozenset(p.edges), tuple(sorted((e.kind, e.num) for e in p.ends if e.kind != "edge")))
            for p in base.with_rotation(r).paths
        )
        if shape not in seen:
            seen.add(shape)
            out.append(r)
    return out


def track_text(g: Game, hex_id: str, tile_id: str, rotation: int) -> str:
    """ "track to D15, E18": where the tile's track leads at that rotation."""
    return "track to " + ", ".join(track_exits(g, hex_id, tile_id, rotation))


def rotations_text(g: Game, hex_id: str, tile_id: str, rotations: list[int]) -> str:
    """ "3 (track to D15, E18) or 5 (track to D17, F17)"."""
    return " or ".join(
        f"{r} ({track_text(g, hex_id, tile_id, r)})" for r in distinct_rotations(g, tile_id, rotations)
    )


def only_rotation(g: Game, e: str, hex_id: str, tile: str) -> int:
    """No rotation given: the only legal one, else the choice is the player's."""
    rots = _rotations_at(g, e, hex_id, tile_name(tile))
    if not rots:
        return 0  # not a normal lay here: the engine says why (or a private's lay takes it)
    rots = distinct_rotations(g, tile, rots)
    if len(rots) == 1:
        return rots[0]
    raise UserError(
        f"Tile {tile_name(tile)} fits {hex_id} in rotation {rotations_text(g, hex_id, tile, rots)}; "
        f"add rotation:, for example /lay hex:{hex_id} tile:{tile_name(tile)} rotation:{rots[0]}"
    )


def tiles_text(g: Game, hex_id: str, lays: dict[str, list[int]]) -> str:
    """ "7 (rotations 4, 5), 8 (rotations 3, 5)" for the tiles that may go on a hex."""

    def one(tile: str, rots: list[int]) -> str:
        rots = distinct_rotations(g, tile, rots)
        return f"{tile_name(tile)} (rotation{'s' if len(rots) > 1 else ''} {', '.join(map(str, rots))})"

    return ", ".join(one(t, r) for t, r in sorted(lays.items(), key=lambda kv: tile_sort(kv[0])))


def tile_sort(tile_id: str) -> tuple[int, str]:
    name = tile_name(tile_id)
    return (int(name), name) if name.isdigit() else (10**6, name)


def explain_refusal(g: Game, action: A.Action, message: str) -> str:
    """The engine's refusal of ``action``, with what would be legal instead (tile lays: the
    tiles and rotations that fit the hex, or the hexes where track can go)."""
    if not isinstance(action, A.LayTile) or action.entity not in g.corporations:
        return message
    corp, hex_id, name = action.entity, action.hex, tile_name(action.tile)
    here = legal_tile_lays(g, corp, {hex_id}).get(hex_id, {})
    if not here:
        where = sorted(legal_tile_lays(g, corp))
        if not where:
            return message
        return f"{message}. {corp} can lay track on: {', '.join(where)} (/help lay lists tiles and rotations)"
    rots = next((r for t, r in here.items() if tile_name(t) == name), None)
    if rots is None:
        return f"{message}. On {hex_id} {corp} can lay: {tiles_text(g, hex_id, here)}"
    if action.rotation in rots:
        return message
    if "no route" in message:
        message = (
            f"{corp} cannot lay tile {name} on {hex_id} in rotation {action.rotation}: that rotation "
            f"does not connect to {corp}'s track"
        )
    return f"{message}. Tile {name} fits {hex_id} in rotation {rotations_text(g, hex_id, action.tile, rots)}"
