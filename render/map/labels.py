"""Texts and small items in the hexes: location names (on a plate over track), tile labels,
terrain costs, destination flags, the map's key and the coordinate of an empty hex; icons,
markers, private blocks and ports are drawn by :mod:`render.map.marks`, a laid tile's coordinate
and number by :mod:`render.map.numbers`."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from engine.map.board import HexState

from .. import geometry as geo
from ..draw import fit_size, text_box, text_size, text_width
from ..fonts import FontType, font
from ..palette import INK, MOUNTAIN, MUTED, WATER, WHITE, contrast, rgb
from . import marks
from .canvas import HALO, MapCanvas, Placed
from .layout import Point, Spots
from .numbers import draw_number

PLATE_OPACITY = 0.75  # of the white plate behind a location name over track
ID_INK = (105, 96, 80)  # the coordinate in an empty hex: quiet, like the hex outline


def is_empty(h: HexState) -> bool:
    """A plain hex without a tile, track or name (a town or city dot may be printed): it shows
    its coordinate."""
    return h.color == "white" and not h.laid and not h.tile.paths and not h.location


def place_name(p: MapCanvas, hid: str, h: HexState) -> Placed | None:
    """Reserve room for the location name: at the top or bottom of the hex where it is free,
    else (two cities above each other) beside them in smaller type, never over a city."""
    name = h.location
    if not name:
        return None
    spots = p.spots[hid]
    pos, text, size, half_w, half_h = spots.chosen(("name", name, p.s, p.frame.layout, p.fpx(0.18)),
                                                   lambda: _name_place(p, spots, name))
    for dx in (-1, -0.5, 0, 0.5, 1):
        spots.add((pos[0] + dx * max(0.0, half_w - half_h), pos[1]), half_h)
    return pos, text, font(size, True)


def _name_place(p: MapCanvas, spots: Spots, name: str) -> tuple[Point, str, int, float, float]:
    """(position, wrapped text, type size, half width, half height) of the name with most room."""
    c = spots.center
    flat = p.frame.layout == "flat"
    off = 0.68 * geo.apothem(p.s) if flat else 0.55 * p.s
    wide = p.s * (1.45 if flat else 1.15)
    side = 0.62 * p.s if flat else 0.5 * p.s
    # (position, wrap width, type scale): top and bottom first, then the sides, smaller
    places = [((c[0], c[1] - off), wide, 1.0), ((c[0], c[1] + off), wide, 1.0)]
    places += [((c[0] + dx * side, c[1] + dy * p.s * 0.18), p.s * 0.62, scale)
               for scale in (0.85, 0.72) for dy in (-1, 1) for dx in (-1, 1)]
    best: tuple[float, Point, str, int, float, float] | None = None
    for i, (pos, max_w, scale) in enumerate(places):
        text, size = _wrap(name, max(6, round(p.fpx(0.18) * scale)), max_w)
        f = font(size, True)
        line_h = text_size("Ag", f)[1] * 1.15
        n = text.count("\n") + 1
        half_w = max(text_size(t, f)[0] for t in text.split("\n")) / 2
        half_h = line_h * n / 2
        if i < 2 and n > 1:  # two lines at the top or bottom: moved in by half a line
            pos = (pos[0], pos[1] + (line_h / 2 if i == 0 else -line_h / 2))
        room = min(spots.clearance((pos[0] + dx * half_w, pos[1]), half_h) for dx in (-1, -0.5, 0, 0.5, 1))
        score = room - i * 0.01 * p.s
        if best is None or score > best[0]:
            best = (score, pos, text, size, half_w, half_h)
        if i == 1 and best[0] >= -0.04 * p.s:  # top or bottom has room: the usual place
            break
    assert best is not None
    return best[1:]


def place_id(p: MapCanvas, spots: Spots) -> Point:
    """Reserve the top of an empty hex for its coordinate."""
    c = spots.center
    off = 0.62 * geo.apothem(p.s) if p.frame.layout == "flat" else 0.55 * p.s
    pos = (c[0], c[1] - off)
    spots.add(pos, p.s * 0.12)
    return pos


def texts(p: MapCanvas, destinations: dict[str, list[str]], blocked: dict[str, str],
          ports: dict[str, list[str]]) -> None:
    """Every hex's texts and small items; ``blocked``: ``{hex: sym of the private blocking it}``,
    ``ports``: the title's own ports with their tags (:meth:`engine.hooks.TitleHooks.port_marks`)."""
    dest_by_hex: dict[str, list[str]] = {}
    for sym, hexes in destinations.items():
        for hid in hexes:
            dest_by_hex.setdefault(hid, []).append(sym)
    for hid, h in p.hexes.items():
        spots = p.spots[hid]
        tile = h.tile
        _name(p, hid, h)
        if tile.color == "blue" and not tile.paths and not tile.nodes and p.names.get(hid) is None:
            _water(p, hid)  # (1856's N5, a blank blue hex, puzzled a play-tester)
        if tile.label:
            f = font(p.fpx(0.24), True)
            w, _ = text_size(tile.label, f)
            spot = spots.best_box(spots.around(), w / 2 + p.s * 0.03, p.s * 0.12)
            p.text(spot, tile.label, f, halo=HALO, halo_width=p.frame.px(1.5))
        for up in tile.upgrades:
            if up.cost:
                _terrain(p, spots, up.cost, up.terrains)
        icons = list(tile.icons)
        if h.printed is not tile:  # sticky icons (ports) stay when a tile is laid
            icons += [i for i in h.printed.icons if i.sticky and all(i.name != j.name for j in icons)]
        if hid in blocked:
            marks.blocked(p, hid, blocked[hid])
        for icon in icons:
            marks.icon(p, spots, icon.name)
        for marker in [*h.markers, *sorted(h.assignments)]:
            marks.marker(p, hid, str(marker))
        if hid in ports:
            marks.port(p, hid, ports[hid], drawn=any(i.name == "port" for i in icons))
        for sym in dest_by_hex.get(hid, []):
            _destination(p, spots, sym)
        if h.tile_id:
            p.numbers[hid] = draw_number(p, spots, hid, h.tile_id)


def _water(p: MapCanvas, hid: str) -> None:
    """A hex of water without track says so: "water", "no track"."""
    p.text(p.frame.center(hid), "water\nno track", font(p.fpx(0.2), True), fill=WHITE)


def cut_by_view(p: MapCanvas, pos: Point, text: str, f: FontType) -> bool:
    """Whether the edge of a part of the map would cut ``text`` centred at ``pos`` (:meth:`MapCanvas.cut`)."""
    return p.view is not None and p.cut(text_box(pos, text, f))


def _name(p: MapCanvas, hid: str, h: HexState) -> None:
    placed = p.names.get(hid)
    if placed is None:
        return
    pos, text, f = placed
    if cut_by_view(p, pos, text, f):
        return
    if h.tile.paths:  # late in the game track runs under the name: a light plate keeps it readable
        _plate(p, pos, text, f)
    p.text(pos, text, f, INK, HALO, p.frame.px(1.5))


def _plate(p: MapCanvas, pos: Point, text: str, f: FontType) -> None:
    """A rounded, mostly opaque white plate behind a text (the track still shows through)."""
    lines = text.split("\n")
    w = max(text_size(t, f)[0] for t in lines)
    h = text_size("Ag", f)[1] * 1.15 * len(lines)
    pad = p.s * 0.04
    box = (round(pos[0] - w / 2 - pad), round(pos[1] - h / 2 - pad * 0.5),
           round(pos[0] + w / 2 + pad), round(pos[1] + h / 2 + pad * 0.5))
    region = p.img.crop(box)
    white, mask = _plate_images(region.size, round(pad * 1.5))
    p.img.paste(Image.blend(region, white, PLATE_OPACITY), box[:2], mask)


@functools.lru_cache(maxsize=512)
def _plate_images(size: tuple[int, int], radius: int) -> tuple[Image.Image, Image.Image]:
    """A plate's white and its rounded mask (the same few sizes recur on every map; only read)."""
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=255)
    return Image.new("RGB", size, WHITE), mask


def hex_ids(p: MapCanvas) -> None:
    f = font(p.fpx(0.22), False)
    for hid, pos in p.ids.items():
        if not cut_by_view(p, pos, hid, f):
            p.text(pos, hid, f, fill=ID_INK)


def _terrain(p: MapCanvas, spots: Spots, cost: int, terrains: tuple[str, ...]) -> None:
    """Terrain cost on one line: a blue wave (water) or brown peak (mountain), then $N."""
    water = "water" in terrains
    color = WATER if water else MOUNTAIN
    f = font(p.fpx(0.16), True)
    text = p.game.fmt(cost)
    w, h = text_size(text, f)
    sym = p.s * 0.09  # half width of the symbol
    half_w = (w + sym * 2 + p.s * 0.03) / 2
    x, y = spots.best_box(spots.around()[::-1], half_w, max(h / 2, sym) + p.s * 0.02)
    _terrain_symbol(p, (x - half_w + sym, y), sym, water)
    draw_x = x + half_w - w / 2
    p.text((draw_x, y), text, f, fill=color, halo=HALO, halo_width=p.frame.px(1.5))


def _terrain_symbol(p: MapCanvas, at: Point, sym: float, water: bool) -> None:
    """A blue wave (water) or a brown peak (mountain), ``sym`` wide on each side of ``at``."""
    sx, y = at
    if water:
        lw = max(1, p.frame.px(1.5))
        for k in (-1, 1):
            yy = y + k * sym * 0.35
            p.draw.line([(sx - sym, yy), (sx - sym / 2, yy - sym * 0.35), (sx, yy),
                         (sx + sym / 2, yy - sym * 0.35), (sx + sym, yy)], fill=WATER, width=lw)
    else:
        p.draw.polygon([(sx - sym, y + sym * 0.7), (sx + sym, y + sym * 0.7), (sx, y - sym * 0.9)], fill=MOUNTAIN)


def key(p: MapCanvas, y: float, size: int, blocked: bool = False, left: float = 0.0) -> None:
    """The map's key, right-aligned on the header line at ``y``: what the terrain symbols, the
    small grey numbers and "OO" mean, and with ``blocked`` a private's block (left out where it
    would reach the header's text, which ends at ``left``)."""
    f = font(size, False)
    items: list[tuple[str, str]] = [
        ("water", "water"), ("mountain", "mountain: cost to lay a tile"), ("", "grey: hex · tile number"),
        ("", "OO: two cities"),
    ]
    if blocked:
        items.insert(0, ("block", "blocked by a private"))
    sym = size * 0.5
    gap = size * 0.9
    x = p.frame.width - size * 0.8
    for kind, label in reversed(items):
        w, _ = text_size(label, f)
        if kind == "block" and x - w - size * 3 < left + gap:
            break
        p.text((x - w / 2, y), label, f, fill=MUTED)
        x -= w + size * 0.35
        if kind == "block":
            marks.block_sample(p, (x - sym * 1.4, y), sym)
            x -= 2.8 * sym + size * 0.25
        elif kind:
            _terrain_symbol(p, (x - sym, y), sym, kind == "water")
            x -= 2 * sym + size * 0.25
        x -= gap


def _destination(p: MapCanvas, spots: Spots, sym: str) -> None:
    corp = p.corps.get(sym)
    fill = rgb(corp.color if corp else None, MUTED)
    ink = contrast(fill)
    f = font(fit_size(sym, p.s * 0.5, p.fpx(0.15), True), True)
    w, h = text_size(sym, f)
    pad = p.s * 0.045
    x, y = spots.best_box(spots.around(), w / 2 + pad * 2, h / 2 + pad)
    # a small flag: corporation-coloured pennant with the symbol
    box = (x - w / 2 - pad, y - h / 2 - pad, x + w / 2 + pad, y + h / 2 + pad)
    p.draw.rectangle(box, fill=fill, outline=INK, width=p.frame.px(1))
    p.draw.polygon([(box[0], box[1]), (box[0] - pad * 2, (box[1] + box[3]) / 2), (box[0], box[3])], fill=INK)
    p.text((x, y), sym, f, fill=ink)


def _wrap(name: str, size: int, max_w: float) -> tuple[str, int]:
    """``(text with newlines, font size)`` fitting ``max_w``: shrink a little, else wrap."""
    for s in (size, size - max(1, size // 8)):
        if text_width(name, s, True) <= max_w:
            return name, s
    words = name.replace(" - ", " -\n").replace(" & ", " &\n").replace("/", "/\n").split("\n")
    if len(words) == 1:
        parts = name.split(" ")
        half = max(1, len(parts) // 2)
        words = [" ".join(parts[:half]), " ".join(parts[half:])] if len(parts) > 1 else [name]
    lines = [w.strip() for w in words if w.strip()]
    text = "\n".join(lines)
    s = size
    while s > 6 and max(text_width(t, s, True) for t in lines) > max_w:
        s -= 1
    return text, s
