"""The coordinate and number of a laid tile ("L15 · 59"), small and grey in a free corner of its
hex: a laid tile hides the printed coordinate, and a player types it.

It is placed last in its hex, so cities, names, revenues, labels and markers are already there.
Each corner of the hex is tried as far out as the text fits, then the sides; where no place on
one line keeps clear of them (a tile with two cities has little free room), the text is set on
two lines ("L15" over "59"), which fits a corner better; then the same nearer the centre. With
no free room anywhere: the place with the most room, where crossing track counts less than
touching a city or a text.
"""

from __future__ import annotations

import functools
import math

from engine.map.hexgrid import Layout

from .. import geometry as geo
from ..draw import text_size
from ..fonts import FontType, font
from .canvas import HALO, MapCanvas
from .layout import Point, Spots, side_normals

NUMBER_INK = (60, 60, 60)
FREE = 0.06  # room (of the hex size) from everything else in the hex that counts as free
TRACK_SLACK = 0.08  # where nothing is free: crossing track (the text has a halo) counts as this
# much more room (of the hex size) than coming as near a city, a revenue or a text
BORDER = 0.04  # kept clear of the hex's border (of the hex size)
REACH = (1.0, 0.6, 0.3)  # the places tried: as far out as fits first, then nearer the centre

Box = tuple[float, float, float, float]  # left, top, right, bottom
Circle = tuple[float, float, float]  # x, y, radius


def number_text(hid: str, tile_id: str) -> str:
    """``"L15 · 59"``: the coordinate and the tile's number (without the copy's suffix)."""
    return f"{hid} · {str(tile_id).rsplit('-', 1)[0]}"


def draw_number(p: MapCanvas, spots: Spots, hid: str, tile_id: str) -> Box:
    """Place, reserve and draw the coordinate and tile number of ``hid``; its box (for tests)."""
    size = p.fpx(0.15)
    f = font(size, False)
    number = number_text(hid, tile_id)
    options = [number, number.replace(" · ", "\n")]
    pos, text = spots.chosen(("number", number, p.s, p.frame.layout),
                             lambda: _choose(p, spots, _track(p, hid), [(t, *_half(t, f, size)) for t in options]))
    half_w, half_h = _half(text, f, size)
    for pt, r in _samples(pos, half_w, half_h):
        spots.add(pt, r)
    p.text(pos, text, f, fill=NUMBER_INK, halo=HALO, halo_width=p.frame.px(1))
    return pos[0] - half_w, pos[1] - half_h, pos[0] + half_w, pos[1] + half_h


def _half(text: str, f: FontType, size: int) -> tuple[float, float]:
    """Half the width and height of ``text`` (one or more lines) with a little margin."""
    lines = text.split("\n")
    width = max(text_size(line, f)[0] for line in lines)
    height = text_size("Ag", f)[1] * (1 + 1.15 * (len(lines) - 1))
    pad = size * 0.12
    return width / 2 + pad, height / 2 + pad


def _choose(p: MapCanvas, spots: Spots, track: list[Circle],
            options: list[tuple[str, float, float]]) -> tuple[Point, str]:
    """The first place, in order of preference, clear of everything, else the one with most
    room (track counting less than the rest)."""
    others = [pt for k, pt in enumerate(spots.points) if k not in spots.track]
    best: tuple[float, Point, str] | None = None
    places = [(pos, text, half_w, half_h) for reach in REACH for text, half_w, half_h in options
              for pos in corner_places(spots, half_w, half_h, reach)]
    for i, (pos, text, half_w, half_h) in enumerate(places):
        box = (pos[0] - half_w, pos[1] - half_h, pos[0] + half_w, pos[1] + half_h)
        room, on_track = _room(box, others, spots.size), _room(box, track, spots.size)
        if min(room, on_track) >= FREE * p.s:
            return pos, text
        score = min(room, on_track + TRACK_SLACK * p.s) - i * 0.001 * p.s
        if best is None or score > best[0]:
            best = (score, pos, text)
    assert best is not None
    return best[1], best[2]


def _track(p: MapCanvas, hid: str) -> list[Circle]:
    """The hex's track as closely spaced circles as wide as it."""
    r = p.track_w / 2
    out: list[Circle] = []
    for path in p.segments.get(hid, []):
        for seg in path:
            for k in range(17):
                if isinstance(seg, geo.Line):
                    x, y = seg.a[0] + (seg.b[0] - seg.a[0]) * k / 16, seg.a[1] + (seg.b[1] - seg.a[1]) * k / 16
                else:
                    x, y = geo.polar(seg.center, seg.radius, seg.start + (seg.end - seg.start) % 360.0 * k / 16)
                out.append((x, y, r))
    return out


def _room(box: Box, circles: list[Circle], default: float) -> float:
    """The distance from ``box`` to the nearest of ``circles`` (negative: over it)."""
    left, top, right, bottom = box
    hyp = math.hypot
    nearest = math.inf
    for x, y, r in circles:  # a plain loop: the hottest of the map's placements
        d = hyp(left - x if x < left else x - right if x > right else 0.0,
                top - y if y < top else y - bottom if y > bottom else 0.0) - r
        if d < nearest:
            nearest = d
    return nearest if circles else default


def corner_places(spots: Spots, half_w: float, half_h: float, reach: float = 1.0) -> list[Point]:
    """Where a box of this size goes: towards each corner of the hex (the lower ones first, then
    the upper ones, then the two others), then towards each side, each ``reach`` of the way
    from the centre to where the box still stays inside the hex with a margin."""
    cx, cy = spots.center
    return [(cx + dx * reach, cy + dy * reach) for dx, dy in _outermost(spots.layout, spots.size, half_w, half_h)]


@functools.lru_cache(maxsize=1024)
def _outermost(layout: Layout, size: float, half_w: float, half_h: float) -> tuple[Point, ...]:
    """From the centre of a hex, the furthest points towards each corner and side (in the order
    of :func:`corner_places`) where the box fits inside with the margin (the same few sizes recur
    on every map)."""
    flat = layout == "flat"
    first = 60.0 if flat else 30.0  # the lower right corner (the y axis points down)
    corners = [first, 180.0 - first, 360.0 - first, 180.0 + first, *((0.0, 180.0) if flat else (90.0, 270.0))]
    hex_ = Spots((0.0, 0.0), size, layout)
    margin = BORDER * size

    def fits(t: float, angle: float) -> bool:
        x, y = geo.polar((0.0, 0.0), t, angle)
        return all(hex_.inside((x + dx, y + dy)) >= margin for dx in (-half_w, half_w) for dy in (-half_h, half_h))

    ap = geo.apothem(size)
    sides = [(nx, ny, ap - margin - half_w * abs(nx) - half_h * abs(ny)) for nx, ny in side_normals(layout)]
    out = []
    for angle in corners + [(a + 30.0) % 360.0 for a in corners]:
        # once it fits at the centre, the box fits exactly up to ``reach`` (worked out side by side);
        # a step of the search asks ``fits`` only that near it, where float rounding may differ
        rad = math.radians(angle)
        ux, uy = math.cos(rad), math.sin(rad)
        reach = min((room / (ux * nx + uy * ny) for nx, ny, room in sides if ux * nx + uy * ny > 0), default=math.inf)
        low, high = 0.0, size
        if fits(low, angle):
            for _ in range(14):
                mid = (low + high) / 2
                inside = mid < reach if abs(mid - reach) > 1e-6 * size else fits(mid, angle)
                low, high = (mid, high) if inside else (low, mid)
        out.append(geo.polar((0.0, 0.0), low, angle))
    return tuple(out)


def _samples(pos: Point, half_w: float, half_h: float) -> list[tuple[Point, float]]:
    """Circles covering the box around ``pos``: along its longer side, as wide as the shorter."""
    r = min(half_w, half_h)
    spread = abs(half_w - half_h)
    n = max(1, math.ceil(spread / r) + 1)
    steps = [(-spread + 2 * spread * k / (n - 1)) if n > 1 else 0.0 for k in range(n)]
    if half_w >= half_h:
        return [((pos[0] + d, pos[1]), r) for d in steps]
    return [((pos[0], pos[1] + d), r) for d in steps]
