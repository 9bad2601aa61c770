"""The map as a PNG: hexes, track, cities and tokens, revenues, names, routes.

Drawn 2x supersampled and reduced, so lines are anti-aliased.  The hex size is chosen so
the whole map fits a Discord preview (at most ~1600 px on its longer side).  Small texts
get a light halo so they stay readable over track.  Placement of the small items in a
hex (revenue, label, terrain cost, tile number, icons, destination markers) picks, among
a few candidate spots, the one furthest from track and cities.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine import hexgrid
from engine.tiles import Node, Tile

from . import geometry as geo
from .draw import circle, fit_size, left_text, paste_text, text_size, to_png
from .fonts import font
from .palette import (
    BACKGROUND,
    FRAME,
    HEX_OUTLINE,
    IMPASSABLE,
    INK,
    MOUNTAIN,
    MUTED,
    RGB,
    ROUTE_COLORS,
    TILE_COLORS,
    TRACK,
    WATER,
    WHITE,
    contrast,
    mix,
    rgb,
)

SS = 2  # supersampling factor
MAX_SIDE = 1600  # final image: longer side at most this many pixels
MAX_HEX = 72  # final hex circumradius cap (small maps)
MARGIN = 26  # frame with the coordinates
HEADER = 30
HALO = (255, 255, 255)
ENOUGH = 0.05  # clearance (of the hex size) that counts as free room when placing items
PLATE_OPACITY = 0.75  # of the white plate behind a location name over track
ID_INK = (105, 96, 80)  # the coordinate in an empty hex: quiet, like the hex outline

Point = tuple[float, float]


# ----------------------------------------------------------------------------- layout


@dataclass
class MapFrame:
    """Where the map goes in the (supersampled) image."""

    layout: hexgrid.Layout
    axes: hexgrid.Axes | None
    origin: tuple[int, int]
    size: float  # hex circumradius in image pixels (supersampled)
    offset: Point
    width: int
    height: int
    scale: int = SS

    def center(self, hex_id: str) -> Point:
        x, y = hexgrid.hex_center(hex_id, self.layout, self.size, self.axes, self.origin)
        return x + self.offset[0], y + self.offset[1]

    def corners(self, hex_id: str) -> list[Point]:
        ox, oy = self.offset
        return [(x + ox, y + oy) for x, y in hexgrid.hex_corners(hex_id, self.layout, self.size, self.axes,
                                                                 self.origin)]

    def px(self, value: float) -> int:
        """A final-image pixel length in supersampled pixels."""
        return max(1, round(value * self.scale))


def _unit_extent(ids: Iterable[str], layout: hexgrid.Layout, axes: hexgrid.Axes | None,
                 origin: tuple[int, int]) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for hid in ids:
        for x, y in hexgrid.hex_corners(hid, layout, 1.0, axes, origin):
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def map_frame(hex_ids: list[str], layout: hexgrid.Layout, axes: hexgrid.Axes | None = None,
              footer: int = 0, scale: int = SS) -> MapFrame:
    """Choose the hex size and image size for a map (pure; used by tests too)."""
    origin = hexgrid.map_origin(hex_ids, layout, axes)
    x0, y0, x1, y1 = _unit_extent(hex_ids, layout, axes, origin)
    avail_w = MAX_SIDE - 2 * MARGIN
    avail_h = MAX_SIDE - 2 * MARGIN - HEADER - footer
    size = min(MAX_HEX, avail_w / (x1 - x0), avail_h / (y1 - y0))
    size = math.floor(size)
    width = math.ceil((x1 - x0) * size) + 2 * MARGIN
    height = math.ceil((y1 - y0) * size) + 2 * MARGIN + HEADER + footer
    offset = ((MARGIN - x0 * size) * scale, (HEADER + MARGIN - y0 * size) * scale)
    return MapFrame(layout, axes, origin, size * scale, offset, width * scale, height * scale, scale)


# ----------------------------------------------------------------------------- state helpers


def _phase_colors(game: Any) -> list[str]:
    phase = getattr(game, "phase", None) or {}
    return list(phase.get("tiles", [])) if isinstance(phase, dict) else []


def _phase_name(game: Any) -> str:
    phase = getattr(game, "phase", None) or {}
    return str(phase.get("name", "")) if isinstance(phase, dict) else ""


def current_revenue_key(revenue: dict[str, int], phase_colors: list[str], phase_name: str) -> str | None:
    """Which key of a phase-dependent revenue applies now (``yellow``/``brown``... keyed by
    tile colour, or ``I/II`` keyed by phase names as in 1833NE)."""
    for color in reversed(phase_colors):
        if color in revenue:
            return color
    for key in revenue:
        if phase_name and phase_name in key.split("/"):
            return key
    return None


def destination_hexes(game: Any) -> dict[str, list[str]]:
    """``{corp sym: [hex ids]}`` for corporations still heading for their destination."""
    data = getattr(game, "data", None)
    table = getattr(data, "DESTINATIONS", None) or {}
    if "alternate_destinations" in (getattr(game, "optional_rules", None) or []):
        table = getattr(data, "ALTERNATE_DESTINATIONS", None) or table
    out: dict[str, list[str]] = {}
    for sym, corp in (getattr(game, "corporations", None) or {}).items():
        if sym not in table or getattr(corp, "destinated", False) or getattr(corp, "closed", False):
            continue
        dest = table[sym]
        if isinstance(dest, str):
            out[sym] = [dest]
        elif dest and isinstance(dest[0], (list, tuple)):
            out[sym] = [str(h) for h in dest[0]]
        elif dest:
            out[sym] = [str(dest[0])]
    return out


def home_reservations(game: Any) -> dict[str, list[tuple[int | None, str]]]:
    """``{hex: [(city index or None, sym)]}`` of homes not yet tokened (plus the board's own
    reservations)."""
    out: dict[str, list[tuple[int | None, str]]] = {}
    board = game.board
    for h in board.hexes.values():
        for city, syms in (h.reservations or {}).items():
            for sym in syms:
                out.setdefault(h.id, []).append((city, sym))
    for sym, corp in (getattr(game, "corporations", None) or {}).items():
        home = getattr(corp, "home", None)
        if not home or home not in board.hexes or getattr(corp, "closed", False):
            continue
        h = board.hexes[home]
        if h.tokened_by(sym) or any(s == sym for _, s in out.get(home, [])):
            continue
        out.setdefault(home, []).append((getattr(corp, "home_city", None), sym))
    return out


# ----------------------------------------------------------------------------- placement


@dataclass
class Spots:
    """Obstacles in one hex, to find free room for small items."""

    center: Point
    size: float
    layout: hexgrid.Layout
    points: list[tuple[float, float, float]] = field(default_factory=list)  # (x, y, radius)

    def add(self, point: Point, radius: float) -> None:
        self.points.append((point[0], point[1], radius))

    def add_segment(self, seg: geo.Segment, width: float) -> None:
        if isinstance(seg, geo.Line):
            for i in range(5):
                t = i / 4
                self.add((seg.a[0] + (seg.b[0] - seg.a[0]) * t, seg.a[1] + (seg.b[1] - seg.a[1]) * t), width)
        else:
            span = (seg.end - seg.start) % 360.0
            for i in range(5):
                self.add(geo.polar(seg.center, seg.radius, seg.start + span * i / 4), width)

    def inside(self, point: Point) -> float:
        """Distance from ``point`` to the hex's border (negative outside)."""
        dx, dy = point[0] - self.center[0], point[1] - self.center[1]
        ap = geo.apothem(self.size)
        return min(ap - (dx * nx + dy * ny) for nx, ny in _normals(self.layout))

    def clearance(self, point: Point, radius: float) -> float:
        px, py = point
        hyp = math.hypot
        near = min([hyp(px - x, py - y) - r for x, y, r in self.points], default=self.size) - radius
        return min(near, (self.inside(point) - radius) * 1.5)

    def best(self, candidates: list[Point], radius: float) -> Point:
        """The first candidate with enough room, else the one with most room."""
        return self.best_box(candidates, radius, radius)

    def best_box(self, candidates: list[Point], half_w: float, half_h: float) -> Point:
        """Like :meth:`best` for a wide item (text): scored on points along its width."""
        enough = ENOUGH * self.size
        spread = max(0.0, half_w - half_h)
        offsets = (-spread, 0.0, spread) if spread > 0 else (0.0,)
        best_point, best_score = candidates[0], -1e9
        for i, cand in enumerate(candidates):
            room = min(self.clearance((cand[0] + dx, cand[1]), half_h) for dx in offsets)
            if room >= enough:
                best_point = cand
                break
            score = room - i * 0.001 * self.size
            if score > best_score:
                best_point, best_score = cand, score
        for dx in offsets:
            self.add((best_point[0] + dx, best_point[1]), half_h)
        return best_point

    def around(self) -> list[Point]:
        """Candidate spots: the corner areas, then nearer the centre."""
        return self.corners(0.6) + self.corners(0.72) + self.corners(0.42)

    def ring(self, around: Point, dist: float, start: float = 0.0, n: int = 12) -> list[Point]:
        return [geo.polar(around, dist, start + 360.0 * i / n) for i in range(n)]

    def corners(self, frac: float = 0.62) -> list[Point]:
        """Corner areas, then edge areas, in reading-friendly order (right, left first)."""
        c = self.center
        angles = [0.0, 180.0, 300.0, 240.0, 60.0, 120.0, 30.0, 150.0, 330.0, 210.0, 90.0, 270.0]
        if self.layout == "pointy":
            angles = [(a + 30.0) % 360.0 for a in angles]
        return [geo.polar(c, self.size * frac, a) for a in angles]


# ----------------------------------------------------------------------------- drawing


class MapPainter:
    def __init__(self, game: Any, frame: MapFrame):
        self.game = game
        self.frame = frame
        self.s = frame.size
        self.img = Image.new("RGB", (frame.width, frame.height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.img)
        self.phase_colors = _phase_colors(game)
        self.phase_name = _phase_name(game)
        self.corps = getattr(game, "corporations", None) or {}
        self.track_w = max(2, round(self.s * 0.085))
        self.outline_w = max(2, round(self.s * 0.03))
        self.positions: dict[str, dict[int, Point]] = {}
        self.segments: dict[str, list[list[geo.Segment]]] = {}
        self.spots: dict[str, Spots] = {}
        self.strips: dict[str, Point] = {}
        self.names: dict[str, tuple[Point, str, Any] | None] = {}
        self.ids: dict[str, Point] = {}  # where an empty hex shows its coordinate

    def text(self, xy: Point, text: str, fnt: Any, fill: RGB = INK, halo: RGB | None = None,
             halo_width: int = 0) -> None:
        paste_text(self.img, xy, text, fnt, fill, halo, halo_width)

    # -- fonts scaled from final pixel sizes
    def font(self, px: float, bold: bool = False):  # noqa: ANN201 - Pillow font
        return font(round(px * self.frame.scale), bold)

    def fpx(self, frac: float) -> int:
        """A font size (supersampled px) as a fraction of the hex size."""
        return max(6, round(self.s * frac))

    # -- passes
    def prepare(self) -> None:
        board = self.game.board
        for hid, h in board.hexes.items():
            c = self.frame.center(hid)
            positions = geo.node_positions(h.tile, self.frame.layout, c, self.s)
            self.positions[hid] = positions
            segs = [geo.path_segments(h.tile, p, self.frame.layout, c, self.s, positions) for p in h.tile.paths]
            self.segments[hid] = segs
            spots = Spots(c, self.s, self.frame.layout)
            for path_segs in segs:
                for seg in path_segs:
                    spots.add_segment(seg, self.track_w / 2)
            for node in h.tile.nodes:
                if node.kind == "city":
                    n = max(1, node.slots)
                    r = geo.slot_radius(self.s, n, geo.crowded(h.tile))
                    pos = positions[node.index]
                    for sc in geo.slot_positions(pos, r, n, geo.city_angle(c, pos, n)):
                        spots.add(sc, r)
                    if n > 2:
                        spots.add(pos, r)
                elif node.kind in ("town", "halt"):
                    spots.add(positions[node.index], self.s * 0.14)
            self.spots[hid] = spots
            self.names[hid] = self._place_name(hid, h)
            if _empty(h):
                self.ids[hid] = self._place_id(spots)
            for node in h.tile.nodes:
                if node.kind == "offboard" and not node.hidden and isinstance(node.revenue, dict) and node.revenue:
                    self.strips[hid] = self._place_strip(spots, node)

    def _strip_size(self, revenue: dict[str, int]) -> tuple[list[float], float]:
        f = font(self.fpx(0.2), True)
        widths = [max(text_size(str(v), f)[0], self.s * 0.22) + self.s * 0.1 for v in revenue.values()]
        return widths, self.s * 0.3

    def _place_strip(self, spots: Spots, node: Node) -> Point:
        """Centre of the phase-revenue strip of an off-board area, clear of its track."""
        assert isinstance(node.revenue, dict)
        widths, height = self._strip_size(node.revenue)
        total = sum(widths)
        c = spots.center
        cands = [(c[0] + dx * self.s, c[1] + dy * self.s)
                 for dx, dy in ((0, 0), (0, -0.3), (0, 0.3), (0, -0.15), (0, 0.15), (0.2, 0), (-0.2, 0),
                                (0.15, -0.3), (-0.15, -0.3), (0.15, 0.3), (-0.15, 0.3))]

        def score(p: Point) -> float:
            xs = [p[0] - total / 2 + total * i / 6 for i in range(7)]
            return min(spots.clearance((x, p[1]), height / 2) for x in xs)

        best = max(cands, key=score)
        for i in range(7):
            spots.add((best[0] - total / 2 + total * i / 6, best[1]), height / 2)
        return best

    def _city_extent(self, node: Node) -> float:
        slots = max(1, node.slots)
        r = geo.slot_radius(self.s, slots)
        return r * (1 if slots == 1 else 2 if slots in (2, 3, 4) else 2.6)

    def fills(self) -> None:
        for hid, h in self.game.board.hexes.items():
            color = TILE_COLORS.get(h.tile.color, rgb(h.tile.color, TILE_COLORS["white"]))
            corners = self.frame.corners(hid)
            self.draw.polygon(corners, fill=color)
            # outline as lines: Pillow draws wide polygon outlines through a full-size mask (slow)
            self.draw.line([*corners, corners[0]], fill=HEX_OUTLINE, width=self.frame.px(1))

    def track(self) -> None:
        for hid, h in self.game.board.hexes.items():
            for path, segs in zip(h.tile.paths, self.segments[hid], strict=True):
                for seg in segs:
                    self._segment(seg, TRACK, self.track_w)
                for end in path.ends:
                    if end.kind == "node":
                        node = h.tile.nodes[end.num]
                        pos = self.positions[hid][end.num]
                        if node.kind == "offboard":
                            self._arrowhead(segs[0] if path.a.kind == "edge" else segs[-1], path)
                        else:
                            circle(self.draw, pos, self.track_w / 2, TRACK, None)
            for stub in h.tile.stubs:
                c = self.frame.center(hid)
                a = geo.edge_point(c, self.s, self.frame.layout, stub)
                b = geo.polar(c, geo.apothem(self.s) * 0.55, hexgrid.edge_angle_degrees(stub, self.frame.layout))
                self._segment(geo.Line(a, b), TRACK, self.track_w)

    def _arrowhead(self, seg: geo.Segment, path: Any) -> None:
        """A pointed end where track runs into an off-board area."""
        tip = seg.b if path.a.kind == "edge" else seg.a
        base = seg.a if path.a.kind == "edge" else seg.b
        ang = math.radians(geo.angle_of(base, tip))
        w = self.track_w * 1.3
        length = self.track_w * 1.8
        nx, ny = -math.sin(ang), math.cos(ang)
        point = (tip[0] + math.cos(ang) * length, tip[1] + math.sin(ang) * length)
        self.draw.polygon([(tip[0] + nx * w, tip[1] + ny * w), point, (tip[0] - nx * w, tip[1] - ny * w)],
                          fill=TRACK)

    def _segment(self, seg: geo.Segment, color: RGB, width: int) -> None:
        if isinstance(seg, geo.Line):
            self.draw.line([seg.a, seg.b], fill=color, width=width)
            return
        cx, cy = seg.center
        r = seg.radius + width / 2
        self.draw.arc((cx - r, cy - r, cx + r, cy + r), seg.start - 0.5, seg.end + 0.5, fill=color, width=width)

    def borders(self) -> None:
        labelled: set[tuple[int, int]] = set()
        for hid, h in self.game.board.hexes.items():
            corners = self.frame.corners(hid)
            for border in h.tile.borders:
                if border.type is None:
                    continue
                a, b = corners[border.edge], corners[(border.edge + 1) % 6]
                color = {"water": WATER, "mountain": MOUNTAIN}.get(border.type or "", IMPASSABLE)
                if border.color:
                    color = rgb(border.color, color)
                    color = WATER if border.color == "blue" else color
                self.draw.line([a, b], fill=color, width=max(3, round(self.s * 0.1)))
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                key = (round(mid[0] / 4), round(mid[1] / 4))
                if border.cost and key not in labelled:
                    labelled.add(key)
                    c = self.frame.center(hid)
                    pos = (mid[0] + (c[0] - mid[0]) * 0.28, mid[1] + (c[1] - mid[1]) * 0.28)
                    f = self.font(10, True)
                    self.text(pos, f"${border.cost}", f, fill=color, halo=HALO,
                                halo_width=self.frame.px(2))

    def nodes(self, reservations: dict[str, list[tuple[int | None, str]]]) -> None:
        for hid, h in self.game.board.hexes.items():
            tile = h.tile
            for node in tile.nodes:
                pos = self.positions[hid][node.index]
                if node.kind == "city":
                    self._city(hid, h, node, pos, reservations.get(hid, []))
                elif node.kind in ("town", "halt"):
                    self._town(hid, tile, node, pos)
            self._revenues(hid, h)

    def _city(self, hid: str, h: Any, node: Node, pos: Point, reserved: list[tuple[int | None, str]]) -> None:
        slots_n = max(1, node.slots)
        tokens = list(h.tokens.get(node.index, []) or [])
        slots_n = max(slots_n, len(tokens))
        r = geo.slot_radius(self.s, slots_n, geo.crowded(h.tile))
        hex_c = self.frame.center(hid)
        centers = geo.slot_positions(pos, r, slots_n, geo.city_angle(hex_c, pos, slots_n))
        ow = self.outline_w
        if slots_n == 4 and geo.city_angle(hex_c, pos, slots_n) == 0.0:
            x0, y0 = centers[0]
            x1, y1 = centers[3]
            self.draw.rounded_rectangle((x0 - r - ow / 2, y0 - r - ow / 2, x1 + r + ow / 2, y1 + r + ow / 2),
                                        radius=r, fill=WHITE, outline=INK, width=ow)
        for c in centers:
            circle(self.draw, c, r + ow / 2, INK, None)
        if slots_n == 2:
            self.draw.line(centers, fill=INK, width=round(2 * r + ow))
            self.draw.line(centers, fill=WHITE, width=round(2 * r - ow))
        for c in centers:
            circle(self.draw, c, r - ow / 2, WHITE, None)
        if slots_n > 2:
            ring = centers if slots_n != 4 else [centers[0], centers[1], centers[3], centers[2]]
            self.draw.polygon(ring, fill=WHITE)
        free_res = [s for city, s in reserved if city in (None, node.index)]
        # a reservation without a city index goes to the first city only
        if reserved and any(city is None for city, _ in reserved) and node != h.tile.cities[0]:
            free_res = [s for city, s in reserved if city == node.index]
        for i, c in enumerate(centers):
            sym = tokens[i] if i < len(tokens) else None
            if sym is not None:
                self._token(c, r - ow * 0.5, sym)
            elif free_res:
                self._reserved(c, r - ow * 0.5, free_res.pop(0))

    def _token(self, c: Point, r: float, sym: str) -> None:
        corp = self.corps.get(sym)
        fill = rgb(getattr(corp, "color", None), (136, 136, 136))
        text = rgb(getattr(corp, "text_color", None), contrast(fill)) if corp else contrast(fill)
        if abs(sum(text) - sum(fill)) < 150:
            text = contrast(fill)
        circle(self.draw, c, r, fill, WHITE, max(1, round(r * 0.1)))
        size = fit_size(sym, r * 1.75, round(r * 0.78), True)
        self.text(c, sym, font(size, True), fill=text)

    def _reserved(self, c: Point, r: float, sym: str) -> None:
        corp = self.corps.get(sym)
        color = rgb(getattr(corp, "color", None), MUTED)
        circle(self.draw, c, r * 0.92, WHITE, color, max(2, round(r * 0.16)))
        size = fit_size(sym, r * 1.5, round(r * 0.62), True)
        ink = color if sum(color) < 500 else MUTED
        self.text(c, sym, font(size, True), fill=ink)

    def _town(self, hid: str, tile: Tile, node: Node, pos: Point) -> None:
        through = geo._through_edges(tile, node)
        if through is not None:
            seg = geo.edge_to_edge(self.frame.center(hid), self.s, self.frame.layout, *through)
            ang = math.radians(geo.segment_tangent_angle(seg, pos) + 90.0)
            half_l, half_w = self.s * 0.2, self.s * 0.065
            dx, dy = math.cos(ang), math.sin(ang)
            nx, ny = -dy, dx
            pts = [
                (pos[0] + dx * half_l + nx * half_w, pos[1] + dy * half_l + ny * half_w),
                (pos[0] + dx * half_l - nx * half_w, pos[1] + dy * half_l - ny * half_w),
                (pos[0] - dx * half_l - nx * half_w, pos[1] - dy * half_l - ny * half_w),
                (pos[0] - dx * half_l + nx * half_w, pos[1] - dy * half_l + ny * half_w),
            ]
            self.draw.polygon(pts, fill=INK)
            self.draw.line([*pts, pts[0]], fill=WHITE, width=max(1, self.frame.px(1)))
        else:
            circle(self.draw, pos, self.s * 0.1, INK, WHITE, max(1, self.frame.px(1.5)))

    def _revenues(self, hid: str, h: Any) -> None:
        tile = h.tile
        spots = self.spots[hid]
        flat: list[tuple[Node, int]] = []
        for node in tile.nodes:
            if node.hidden:
                continue
            if isinstance(node.revenue, dict):
                if node.revenue:
                    self._phase_revenue(hid, node)
            elif node.revenue and node.kind != "junction":
                flat.append((node, node.revenue))
        if not flat:
            return
        same = len({v for _, v in flat}) == 1 and len(flat) > 1 and all(n.kind == "city" for n, _ in flat)
        groups = [flat[0]] if same else flat
        rr = self.s * 0.15
        for node, value in groups:
            pos = self.positions[hid][node.index]
            if same:
                cands = spots.corners(0.6)
            else:
                extent = self._city_extent(node) if node.kind == "city" else self.s * 0.12
                cands = spots.ring(pos, extent + rr + self.s * 0.03, 0.0, 12) + spots.corners(0.6)
            spot = spots.best(cands, rr)
            circle(self.draw, spot, rr, WHITE, INK, max(1, round(self.outline_w * 0.7)))
            text = str(value)
            size = fit_size(text, rr * 1.7, round(self.s * 0.2), True)
            self.text(spot, text, font(size, True))

    def _phase_revenue(self, hid: str, node: Node) -> None:
        revenue = node.revenue
        assert isinstance(revenue, dict)
        current = current_revenue_key(revenue, self.phase_colors, self.phase_name)
        keys = list(revenue)
        f = font(self.fpx(0.2), True)
        fk = font(self.fpx(0.12), False)
        widths, box_h = self._strip_size(revenue)
        total = sum(widths)
        keyed_by_color = all(k in TILE_COLORS for k in keys)
        if hid in self.strips and node.kind == "offboard":
            pos = self.strips[hid]
        else:
            pos = self.spots[hid].best_box(self.spots[hid].around(), total / 2, box_h / 2)
        x = pos[0] - total / 2
        y = pos[1] - box_h / 2 + (0 if keyed_by_color else self.s * 0.08)
        for key, w in zip(keys, widths, strict=True):
            fill = TILE_COLORS.get(key, WHITE) if keyed_by_color else WHITE
            is_now = key == current
            if current is not None and not is_now:
                fill = mix(fill, WHITE, 0.45)
            box = (x, y, x + w, y + box_h)
            outline_w = max(2, round(self.s * 0.05)) if is_now else max(1, round(self.s * 0.015))
            self.draw.rectangle(box, fill=fill, outline=INK, width=outline_w)
            ink = contrast(fill)
            if current is not None and not is_now:
                ink = mix(ink, fill, 0.35)
            self.text((x + w / 2, y + box_h / 2), str(revenue[key]), f, fill=ink)
            if not keyed_by_color:
                self.text((x + w / 2, y - self.s * 0.09), key, fk, fill=INK, halo=HALO,
                            halo_width=self.frame.px(1.5))
            x += w

    def texts(self, destinations: dict[str, list[str]]) -> None:
        dest_by_hex: dict[str, list[str]] = {}
        for sym, hexes in destinations.items():
            for hid in hexes:
                dest_by_hex.setdefault(hid, []).append(sym)
        for hid, h in self.game.board.hexes.items():
            spots = self.spots[hid]
            tile = h.tile
            self._name(hid, h)
            if tile.label:
                f = font(self.fpx(0.24), True)
                w, _ = text_size(tile.label, f)
                spot = spots.best_box(spots.around(), w / 2 + self.s * 0.03, self.s * 0.12)
                self.text(spot, tile.label, f, halo=HALO, halo_width=self.frame.px(1.5))
            for up in tile.upgrades:
                if up.cost:
                    self._terrain(spots, up.cost, up.terrains)
            icons = list(tile.icons)
            if h.printed is not tile:  # sticky icons (ports) stay when a tile is laid
                icons += [i for i in h.printed.icons if i.sticky and all(i.name != j.name for j in icons)]
            for icon in icons:
                self._icon(spots, icon.name)
            for marker in [*getattr(h, "markers", []), *sorted(getattr(h, "assignments", ()) or ())]:
                self._marker(spots, str(marker))
            for sym in dest_by_hex.get(hid, []):
                self._destination(spots, sym)
            if h.tile_id:
                number = str(h.tile_id).rsplit("-", 1)[0]
                f = font(self.fpx(0.15), False)
                c = spots.center
                cands = [geo.polar(c, self.s * 0.7, a) for a in (60.0, 120.0, 300.0, 240.0)]
                if self.frame.layout == "pointy":
                    cands = [geo.polar(c, self.s * 0.68, a) for a in (30.0, 150.0, 330.0, 210.0)]
                w, h = text_size(number, f)
                spot = spots.best_box(cands + spots.around()[::-1], w / 2 + self.s * 0.02, h / 2 + self.s * 0.02)
                self.text(spot, number, f, fill=(60, 60, 60), halo=HALO, halo_width=self.frame.px(1))

    def _place_name(self, hid: str, h: Any) -> tuple[Point, str, Any] | None:
        """Reserve room for the location name at the top or bottom of the hex."""
        name = getattr(h, "location", "") or ""
        if not name:
            return None
        spots = self.spots[hid]
        c = spots.center
        flat = self.frame.layout == "flat"
        off = 0.68 * geo.apothem(self.s) if flat else 0.55 * self.s
        top, bottom = (c[0], c[1] - off), (c[0], c[1] + off)
        max_w = self.s * (1.45 if flat else 1.15)
        text, size = _wrap(name, self.fpx(0.18), max_w)
        f = font(size, True)
        line_h = text_size("Ag", f)[1] * 1.15
        n = text.count("\n") + 1
        half_w = max(text_size(t, f)[0] for t in text.split("\n")) / 2
        half_h = line_h * n / 2

        def score(p: Point) -> float:
            return min(spots.clearance((p[0] + dx * half_w, p[1]), half_h) for dx in (-1, -0.5, 0, 0.5, 1))

        pos = top if score(top) >= score(bottom) - 0.05 * self.s else bottom
        if n > 1:
            pos = (pos[0], pos[1] + (line_h / 2 if pos is top else -line_h / 2))
        for dx in (-1, -0.5, 0, 0.5, 1):
            spots.add((pos[0] + dx * max(0.0, half_w - half_h), pos[1]), half_h)
        return pos, text, f

    def _name(self, hid: str, h: Any) -> None:
        placed = self.names.get(hid)
        if placed is None:
            return
        pos, text, f = placed
        if h.tile.paths:  # late in the game track runs under the name: a light plate keeps it readable
            self._plate(pos, text, f)
        self.text(pos, text, f, INK, HALO, self.frame.px(1.5))

    def _plate(self, pos: Point, text: str, f: Any) -> None:
        """A rounded, mostly opaque white plate behind a text (the track still shows through)."""
        lines = text.split("\n")
        w = max(text_size(t, f)[0] for t in lines)
        h = text_size("Ag", f)[1] * 1.15 * len(lines)
        pad = self.s * 0.04
        box = (round(pos[0] - w / 2 - pad), round(pos[1] - h / 2 - pad * 0.5),
               round(pos[0] + w / 2 + pad), round(pos[1] + h / 2 + pad * 0.5))
        region = self.img.crop(box)
        mask = Image.new("L", region.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, region.size[0] - 1, region.size[1] - 1),
                                               radius=round(pad * 1.5), fill=255)
        self.img.paste(Image.blend(region, Image.new("RGB", region.size, WHITE), PLATE_OPACITY), box[:2], mask)

    def _place_id(self, spots: Spots) -> Point:
        """Reserve the top of an empty hex for its coordinate."""
        c = spots.center
        off = 0.62 * geo.apothem(self.s) if self.frame.layout == "flat" else 0.55 * self.s
        pos = (c[0], c[1] - off)
        spots.add(pos, self.s * 0.12)
        return pos

    def hex_ids(self) -> None:
        f = font(self.fpx(0.22), False)
        for hid, pos in self.ids.items():
            self.text(pos, hid, f, fill=ID_INK)

    def _terrain(self, spots: Spots, cost: int, terrains: tuple[str, ...]) -> None:
        """Terrain cost on one line: a blue wave (water) or brown peak (mountain), then $N."""
        water = "water" in terrains
        color = WATER if water else MOUNTAIN
        f = font(self.fpx(0.16), True)
        text = f"${cost}"
        w, h = text_size(text, f)
        sym = self.s * 0.09  # half width of the symbol
        half_w = (w + sym * 2 + self.s * 0.03) / 2
        x, y = spots.best_box(spots.around()[::-1], half_w, max(h / 2, sym) + self.s * 0.02)
        sx = x - half_w + sym
        if water:
            lw = max(1, self.frame.px(1.5))
            for k in (-1, 1):
                yy = y + k * sym * 0.35
                self.draw.line([(sx - sym, yy), (sx - sym / 2, yy - sym * 0.35), (sx, yy),
                                (sx + sym / 2, yy - sym * 0.35), (sx + sym, yy)], fill=color, width=lw)
        else:
            self.draw.polygon([(sx - sym, y + sym * 0.7), (sx + sym, y + sym * 0.7), (sx, y - sym * 0.9)],
                              fill=color)
        draw_x = x + half_w - w / 2
        self.text((draw_x, y), text, f, fill=color, halo=HALO, halo_width=self.frame.px(1.5))

    def _icon(self, spots: Spots, name: str) -> None:
        r = self.s * 0.12
        spot = spots.best(spots.around()[::-1], r)
        if name == "port":
            circle(self.draw, spot, r, (40, 90, 170), WHITE, max(1, self.frame.px(1)))
            self._anchor(spot, r * 0.75, WHITE)
        else:
            label = {"tunnel": "T", "bridge": "B"}.get(name, name[:1].upper())
            circle(self.draw, spot, r, (90, 90, 90), WHITE, max(1, self.frame.px(1)))
            self.text(spot, label, font(round(r * 1.2), True), fill=WHITE)

    def _anchor(self, c: Point, r: float, color: RGB) -> None:
        x, y = c
        w = max(1, round(r * 0.22))
        self.draw.line([(x, y - r * 0.75), (x, y + r * 0.8)], fill=color, width=w)
        self.draw.line([(x - r * 0.45, y - r * 0.35), (x + r * 0.45, y - r * 0.35)], fill=color, width=w)
        self.draw.arc((x - r * 0.8, y - r * 0.4, x + r * 0.8, y + r * 0.85), 20, 160, fill=color, width=w)
        circle(self.draw, (x, y - r * 0.85), r * 0.18, None, color, w)

    def _marker(self, spots: Spots, text: str) -> None:
        f = font(self.fpx(0.14), True)
        w, h = text_size(text, f)
        spot = spots.best_box(spots.around(), w / 2 + self.s * 0.05, h / 2 + self.s * 0.04)
        box = (spot[0] - w / 2 - self.s * 0.05, spot[1] - h / 2 - self.s * 0.04,
               spot[0] + w / 2 + self.s * 0.05, spot[1] + h / 2 + self.s * 0.04)
        self.draw.rounded_rectangle(box, radius=self.s * 0.05, fill=(30, 30, 30), outline=WHITE,
                                    width=self.frame.px(1))
        self.text(spot, text, f, fill=WHITE)

    def _destination(self, spots: Spots, sym: str) -> None:
        corp = self.corps.get(sym)
        fill = rgb(getattr(corp, "color", None), MUTED)
        ink = contrast(fill)
        f = font(fit_size(sym, self.s * 0.5, self.fpx(0.15), True), True)
        w, h = text_size(sym, f)
        pad = self.s * 0.045
        spot = spots.best_box(spots.around(), w / 2 + pad * 2, h / 2 + pad)
        x, y = spot
        # a small flag: corporation-coloured pennant with the symbol
        box = (x - w / 2 - pad, y - h / 2 - pad, x + w / 2 + pad, y + h / 2 + pad)
        self.draw.rectangle(box, fill=fill, outline=INK, width=self.frame.px(1))
        self.draw.polygon([(box[0], box[1]), (box[0] - pad * 2, (box[1] + box[3]) / 2), (box[0], box[3])], fill=INK)
        self.text(spot, sym, f, fill=ink)

    # -- routes
    def routes(self, routes: list[dict[str, Any]]) -> list[tuple[str, RGB]]:
        legend: list[tuple[str, RGB]] = []
        n = len(routes)
        base_w = self.track_w * 1.9
        for i, route in enumerate(routes):
            color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
            width = max(2, round(base_w * (1 - 0.5 * i / max(1, n))))
            stops = self._route_paths(route.get("connections") or [], color, width)
            for _hid, pos, radius in stops:
                circle(self.draw, pos, radius + width * 0.4, None, color, max(2, round(width * 0.45)))
            # a route's extension (1833NE, to collect a bonus): thinner, its stops earn nothing
            reached = self._route_paths(route.get("extension") or [], color, max(2, width // 2))
            if reached:
                _hid, pos, radius = reached[-1]
                circle(self.draw, pos, radius + width * 0.4, None, color, max(2, round(width * 0.3)))
            label = f"{route.get('train', '?')}: {_money(self.game, route.get('revenue', 0))}"
            legend.append((label, color))
        return legend

    def _route_paths(self, chains: list[list[str]], color: RGB, width: int) -> list[tuple[str, Point, float]]:
        board = self.game.board
        stops: list[tuple[str, Point, float]] = []
        for chain in chains:
            chain = [str(h) for h in chain]
            try:
                found = board.route_stops([chain])
            except Exception:  # noqa: BLE001 - unknown track: fall back to straight hops
                found = None
            if found is None:
                pts = [self.frame.center(h) for h in chain if h in board.hexes]
                if len(pts) > 1:
                    self.draw.line(pts, fill=color, width=width, joint="curve")
                continue
            node_refs, used = found
            for hid, pi in used:
                for seg in self.segments[hid][pi]:
                    self._segment(seg, color, width)
                    if isinstance(seg, geo.Line):
                        for p in (seg.a, seg.b):
                            circle(self.draw, p, width / 2, color, None)
            for hid, ni in node_refs:
                node = board.hexes[hid].tile.nodes[ni]
                radius = self._city_extent(node) if node.kind == "city" else self.s * 0.12
                pos = self.positions[hid][ni]
                if node.kind == "offboard":
                    radius = self.s * 0.4
                stops.append((hid, pos, radius))
        return stops

    # -- frame
    def coordinates(self) -> None:
        board = self.game.board
        layout, axes = self.frame.layout, self.frame.axes
        x_src = (axes or hexgrid.default_axes(layout))[0]
        cols: dict[str, float] = {}
        rows: dict[str, float] = {}
        for hid in board.hexes:
            letters, number = hexgrid.split_id(hid)
            cx, cy = self.frame.center(hid)
            col_label, row_label = (letters, str(number)) if x_src == "letter" else (str(number), letters)
            cols[col_label] = cx
            rows[row_label] = cy
        f = font(round(15 * self.frame.scale), True)
        m = MARGIN * self.frame.scale / 2
        top = HEADER * self.frame.scale + m
        bottom = self.frame.height - m - getattr(self, "footer_px", 0)
        for label, x in cols.items():
            self.text((x, top), label, f, fill=MUTED)
            self.text((x, bottom), label, f, fill=MUTED)
        for label, y in rows.items():
            self.text((m, y), label, f, fill=MUTED)
            self.text((self.frame.width - m, y), label, f, fill=MUTED)

    def header(self, text: str) -> None:
        sc = self.frame.scale
        self.draw.rectangle((0, 0, self.frame.width, HEADER * sc), fill=FRAME)
        left_text(self.draw, (10 * sc, HEADER * sc / 2), text, font(15 * sc, True))

    def legend(self, items: list[tuple[str, RGB]], top: float) -> None:
        sc = self.frame.scale
        f = font(15 * sc, True)
        x = 14 * sc
        y = top + 16 * sc
        for label, color in items:
            w = text_size(label, f)[0]
            if x + w + 40 * sc > self.frame.width:
                x = 14 * sc
                y += 26 * sc
            self.draw.line([(x, y), (x + 26 * sc, y)], fill=color, width=7 * sc)
            left_text(self.draw, (x + 32 * sc, y), label, f)
            x += w + 60 * sc


def _empty(h: Any) -> bool:
    """A plain hex without a tile, track or name (a town or city dot may be printed): it shows
    its coordinate."""
    return h.color == "white" and not h.laid and not h.tile.paths and not h.location


@functools.cache
def _normals(layout: str) -> tuple[tuple[float, float], ...]:
    angles = [hexgrid.edge_angle_degrees(e, layout) for e in range(6)]  # type: ignore[arg-type]
    return tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles)


def _wrap(name: str, size: int, max_w: float) -> tuple[str, int]:
    """``(text with newlines, font size)`` fitting ``max_w``: shrink a little, else wrap."""
    for s in (size, size - max(1, size // 8)):
        if font(s, True).getlength(name) <= max_w:
            return name, s
    words = name.replace(" - ", " -\n").replace(" & ", " &\n").split("\n")
    if len(words) == 1:
        parts = name.split(" ")
        half = max(1, len(parts) // 2)
        words = [" ".join(parts[:half]), " ".join(parts[half:])] if len(parts) > 1 else [name]
    lines = [w.strip() for w in words if w.strip()]
    text = "\n".join(lines)
    s = size
    while s > 6 and max(font(s, True).getlength(t) for t in lines) > max_w:
        s -= 1
    return text, s


def _money(game: Any, amount: Any) -> str:
    fmt = getattr(game, "fmt", None)
    if callable(fmt):
        try:
            return str(fmt(amount))
        except Exception:  # noqa: BLE001
            pass
    return f"${amount}"


def _legend_height(routes: list[dict[str, Any]] | None, width_px: int) -> int:
    if not routes:
        return 0
    per_line = max(1, (width_px - 20) // 180)
    lines = (len(routes) + per_line - 1) // per_line
    return 12 + 26 * lines


def render_map(game: Any, *, routes: list[dict[str, Any]] | None = None) -> bytes:
    """PNG of the map of ``game`` (optionally with ``routes`` drawn over it, with a legend)."""
    board = game.board
    layout: hexgrid.Layout = board.layout
    axes = getattr(getattr(game, "data", None), "AXES", None)
    ids = list(board.hexes)
    footer = _legend_height(routes, MAX_SIDE)
    frame = map_frame(ids, layout, axes, footer=footer)
    painter = MapPainter(game, frame)
    painter.footer_px = footer * frame.scale  # type: ignore[attr-defined]
    painter.prepare()
    title = getattr(game, "title", "") or getattr(getattr(game, "data", None), "TITLE", "")
    phase = _phase_name(game)
    header = f"{title}  ·  phase {phase}" if phase else str(title)
    colors = _phase_colors(game)
    if colors:
        header += f"  ·  tiles: {', '.join(colors)}"
    painter.header(header)
    painter.fills()
    painter.track()
    legend = painter.routes(routes) if routes else []
    painter.borders()
    painter.nodes(home_reservations(game))
    painter.texts(destination_hexes(game))
    painter.hex_ids()
    painter.coordinates()
    if legend:
        painter.legend(legend, frame.height - footer * frame.scale)
    return to_png(painter.img, frame.scale, palette=True)
