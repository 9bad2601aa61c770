"""The whole map drawn again only where it changed.

A turn changes a few hexes (a tile, a token); drawing the hundred others again took most of a
map's time. The last whole maps drawn are kept at their final size, each with a print of what
every hex's drawing reads and of the header (:func:`prints_of`). A new map of the same frame and
title (:func:`map_key`) starts from the kept map with the fewest changed hexes: the box each
changed hex's drawing stays in (:func:`render.map.layout.reach_box`) is drawn again on a scratch
canvas, with every hex whose drawing reaches into it, in the usual order; only the boxes are
reduced and copied into the kept map. The frame and the coordinates are the whole map's, so every
pixel is the one drawing the whole map makes: the picture is the same, byte for byte.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.game import Game
from engine.map import hexgrid

from ..draw import encode_png
from ..palette import BACKGROUND
from .layout import HEADER, MARGIN, Box, MapFrame, map_frame, meets, reach_box
from .state import (
    blocked_hexes,
    current_revenue_key,
    destination_hexes,
    header_text,
    home_reservations,
    phase_colors,
    phase_name,
)

KEPT = 4  # whole maps kept (at most about 8 MB each, at their final size)
REDRAW_SHARE = 0.35  # more hexes changed than this share of them: the whole map is drawn

Painter = Callable[[MapFrame, "set[str] | None", "Image.Image | None", bool], Image.Image]


@dataclass
class KeptMap:
    key: tuple[Any, ...]
    prints: dict[str, tuple[Any, ...]]
    image: Image.Image  # final size (reduced from the supersampled drawing)
    png: bytes
    reach: dict[str, Box]  # the box each hex's drawing stays in (:func:`render.map.layout.reach_box`)


_KEPT: list[KeptMap] = []  # newest first
_LOCK = threading.Lock()


def clear() -> None:
    """Forget the kept maps."""
    with _LOCK:
        _KEPT.clear()


def map_key(game: Game, frame: MapFrame) -> tuple[Any, ...]:
    """What the whole drawing depends on besides the hexes' contents and the header: the frame,
    the board's hexes, the title (its currency), the corporations' colours."""
    corps = tuple((sym, c.color, c.text_color) for sym, c in game.corporations.items())
    frame_key = (frame.layout, frame.axes, frame.origin, frame.size, frame.offset, frame.width, frame.height,
                 frame.scale)
    return frame_key, tuple(game.board.hexes), game.title, game.fmt(1234), corps


def prints_of(game: Game) -> dict[str, tuple[Any, ...]]:
    """What the drawing of each hex reads from the game (by hex id), and of the header (``""``:
    its text and the key's blocked sample)."""
    blocked = blocked_hexes(game)
    colors, phase = phase_colors(game), phase_name(game)
    reserved = home_reservations(game)
    ports = game.port_marks()
    leaving: dict[str, list[tuple[int, int, str]]] = {}
    for (hid, city, slot), sym in game.stations_leaving().items():
        leaving.setdefault(hid, []).append((city, slot, sym))
    goals: dict[str, list[str]] = {}
    for sym, hexes in destination_hexes(game).items():
        for hid in hexes:
            goals.setdefault(hid, []).append(sym)
    out: dict[str, tuple[Any, ...]] = {"": (header_text(game), bool(blocked))}
    for hid, h in game.board.hexes.items():
        now = tuple(current_revenue_key(n.revenue, colors, phase) for n in h.tile.nodes if isinstance(n.revenue, dict))
        out[hid] = (h.tile, h.printed, h.color, h.tile_id, h.location,
                    tuple((ci, tuple(slots)) for ci, slots in h.tokens.items()),
                    tuple(sorted(leaving.get(hid, ()))), tuple(reserved.get(hid, ())), tuple(h.markers),
                    tuple(sorted(h.assignments)), blocked.get(hid), tuple(ports.get(hid, ())),
                    tuple(goals.get(hid, ())), now)
    return out


def render_whole(game: Game, paint: Painter) -> bytes:
    """PNG of the whole map of ``game`` without routes (:func:`render.map.image.render_map`), its
    hexes drawn by ``paint(frame, only, onto, framed)`` (:func:`render.map.image.paint`)."""
    board = game.board
    frame = _whole_frame(tuple(board.hexes), board.layout, game.AXES)
    key = map_key(game, frame)
    prints = prints_of(game)
    kept = _take(key, prints)
    data = None
    if kept is None:
        image = paint(frame, None, None, True).reduce(frame.scale)
        reach = {hid: reach_box(frame, hid) for hid in board.hexes}
    else:
        image, reach = kept.image, kept.reach
        changed = [hid for hid, pr in prints.items() if kept.prints.get(hid) != pr]
        if not changed:
            data = kept.png
        else:
            boxes = [reach_box(frame, hid) if hid else (0, 0, frame.width, HEADER * frame.scale)
                     for hid in changed]
            scratch = Image.new("RGB", (frame.width, frame.height), None)  # only the boxes are used: cleared
            for box in boxes:
                scratch.paste(BACKGROUND, box)
            only = {hid for hid, near in reach.items() if any(meets(near, box) for box in boxes)}
            m = MARGIN * frame.scale
            inner = (m, HEADER * frame.scale + m, frame.width - m, frame.height - m)
            # the header and the coordinates (in the margin) only when a box reaches them
            paint(frame, only, scratch, any(not _within(box, inner) for box in boxes))
            for box in boxes:
                image.paste(scratch.reduce(frame.scale, box), (box[0] // frame.scale, box[1] // frame.scale))
    if data is None:
        data = encode_png(image, palette=True)
    with _LOCK:
        _KEPT.insert(0, KeptMap(key, prints, image, data, reach))
        del _KEPT[KEPT:]
    return data


def _within(a: Box, b: Box) -> bool:
    """Whether box ``a`` lies inside box ``b``."""
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


@functools.lru_cache(maxsize=KEPT)
def _whole_frame(hexes: tuple[str, ...], layout: hexgrid.Layout, axes: hexgrid.Axes | None) -> MapFrame:
    """The whole map's frame, kept with the centres and corners it worked out (only read)."""
    return map_frame(list(hexes), layout, axes)


def _take(key: tuple[Any, ...], prints: dict[str, tuple[Any, ...]]) -> KeptMap | None:
    """The kept map of ``key`` with the fewest hexes changed, taken out (while it is drawn on),
    or None when there is none with few enough."""
    with _LOCK:
        best, fewest = None, int(len(prints) * REDRAW_SHARE)
        for kept in _KEPT:
            if kept.key == key:
                n = sum(1 for hid, pr in prints.items() if kept.prints.get(hid) != pr)
                if n <= fewest:
                    best, fewest = kept, n
        if best is not None:
            _KEPT.remove(best)
        return best
