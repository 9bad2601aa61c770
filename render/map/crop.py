"""A part of the map as a PNG, drawn larger for a phone: the hexes that matter (a tile's hex, a
corporation's network and its routes) with a ring of neighbours around them, in the same drawing
as the whole map (:func:`render.map.image.draw_map`), hexes as large as a small map's. The bot
decides what to crop and posts it beside the whole map."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

from engine.game import Game
from engine.map import hexgrid

from . import routes as routes_
from .image import draw_map
from .layout import HEADER, MARGIN, MAX_HEX, SS, MapFrame, _unit_extent

CROP_SIDE = 900  # final image: longer side at most this many pixels (a phone's screen, zoomable)


def area(game: Game, hexes: Iterable[str], ring: int = 1) -> list[str]:
    """``hexes`` (those on the board) and every board hex within ``ring`` steps of one of them."""
    board = game.board
    every = tuple(board.hexes)
    shown: set[str] = set()
    for h in dict.fromkeys(hexes):
        if h in board.hexes:
            shown |= _around(h, every, board.layout, game.AXES, ring)
    return [h for h in board.hexes if h in shown]


@functools.lru_cache(maxsize=1024)
def _around(hid: str, hexes: tuple[str, ...], layout: hexgrid.Layout, axes: hexgrid.Axes | None,
            ring: int) -> frozenset[str]:
    """The hexes of ``hexes`` within ``ring`` steps of ``hid`` (the same few are asked again and again)."""
    return frozenset(h for h in hexes if hexgrid.distance(h, hid, layout, axes) <= ring)


def network_hexes(game: Game, corporation: str, routes: list[routes_.Route] | None = None) -> list[str]:
    """The hexes of a corporation's stations and of its routes (every hex a route passes)."""
    out = [hid for hid, h in game.board.hexes.items()
           if any(corporation in slots for slots in h.tokens.values())]
    for route in routes or []:
        for chain in route.get("connections") or []:
            out += [str(h) for h in chain]
    return list(dict.fromkeys(out))


def crop_frame(shown: list[str], game: Game, footer: int = 0, scale: int = SS) -> MapFrame:
    """The frame of the part ``shown`` of the map: the whole map's hex grid (same origin), hexes
    up to :data:`MAX_HEX`, the image at most :data:`CROP_SIDE` on its longer side."""
    board = game.board
    origin = _origin(tuple(board.hexes), board.layout, game.AXES)
    x0, y0, x1, y1 = _unit_extent(shown, board.layout, game.AXES, origin)
    avail = CROP_SIDE - 2 * MARGIN
    size = math.floor(min(MAX_HEX, avail / (x1 - x0), (avail - HEADER - footer) / (y1 - y0)))
    width = math.ceil((x1 - x0) * size) + 2 * MARGIN
    height = math.ceil((y1 - y0) * size) + 2 * MARGIN + HEADER + footer
    offset = ((MARGIN - x0 * size) * scale, (HEADER + MARGIN - y0 * size) * scale)
    return MapFrame(board.layout, game.AXES, origin, size * scale, offset, width * scale, height * scale, scale)


@functools.lru_cache(maxsize=8)
def _origin(hexes: tuple[str, ...], layout: hexgrid.Layout, axes: hexgrid.Axes | None) -> tuple[int, int]:
    return hexgrid.map_origin(hexes, layout, axes)


def render_crop(game: Game, hexes: Iterable[str], *, ring: int = 1, routes: list[routes_.Route] | None = None,
                where: str = "") -> bytes:
    """PNG of the part of the map around ``hexes`` (ValueError when none is on the board)."""
    shown = area(game, hexes, ring)
    if not shown:
        raise ValueError("no hex of the board to show")
    footer = 0
    if routes:
        footer = routes_.legend_height(game, routes, crop_frame(shown, game).width // SS)
    frame = crop_frame(shown, game, footer)
    return draw_map(game, frame, footer, routes, where or ", ".join(list(dict.fromkeys(hexes))[:3]))
