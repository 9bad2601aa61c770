"""Where things go on the map: the frame (hex size, image size, offsets) and, inside one
hex, the free room for small items (:class:`Spots`).

Placement of the small items in a hex (revenue, label, terrain cost, tile number, icons,
destination markers) picks, among a few candidate spots, the one furthest from track and
cities.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import threading
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.map import hexgrid

from .. import geometry as geo

SS = 2  # supersampling factor
MAX_SIDE = 1600  # final image: longer side at most this many pixels
MAX_HEX = 72  # final hex circumradius cap (small maps)
MARGIN = 26  # frame with the coordinates
HEADER = 30
ENOUGH = 0.05  # clearance (of the hex size) that counts as free room when placing items
# A hex's drawing reaches at most this far beyond its corners (in hex sizes; measured on the
# whole maps of real games: 0.05, a border's line on the hex's side).
REACH = 0.5

Point = tuple[float, float]
Box = tuple[int, int, int, int]  # left, top, right, bottom (image pixels)
T = TypeVar("T")


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
    # each hex's centre and corners, worked out once per frame (a drawing asks for them again and again)
    _centers: dict[str, Point] = field(default_factory=dict, init=False, repr=False, compare=False)
    _corners: dict[str, tuple[Point, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def center(self, hex_id: str) -> Point:
        c = self._centers.get(hex_id)
        if c is None:
            x, y = hexgrid.hex_center(hex_id, self.layout, self.size, self.axes, self.origin)
            c = self._centers[hex_id] = x + self.offset[0], y + self.offset[1]
        return c

    def corners(self, hex_id: str) -> list[Point]:
        cs = self._corners.get(hex_id)
        if cs is None:
            ox, oy = self.offset
            cs = self._corners[hex_id] = tuple((x + ox, y + oy) for x, y in hexgrid.hex_corners(
                hex_id, self.layout, self.size, self.axes, self.origin))
        return list(cs)

    def px(self, value: float) -> int:
        """A final-image pixel length in supersampled pixels."""
        return max(1, round(value * self.scale))


def reach_box(frame: MapFrame, hid: str, reach: float = REACH) -> Box:
    """The box around ``hid``'s corners, ``reach`` hex sizes wider on every side, on whole final
    pixels (a multiple of the supersampling), inside the picture: where its drawing stays."""
    corners = frame.corners(hid)
    pad = reach * frame.size
    s = frame.scale
    left = max(0, int((min(x for x, _ in corners) - pad) // s) * s)
    top = max(0, int((min(y for _, y in corners) - pad) // s) * s)
    right = min(frame.width // s * s, int(-(-(max(x for x, _ in corners) + pad) // s)) * s)
    bottom = min(frame.height // s * s, int(-(-(max(y for _, y in corners) + pad) // s)) * s)
    return left, top, right, bottom


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


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
    size = math.floor(min(MAX_HEX, avail_w / (x1 - x0), avail_h / (y1 - y0)))
    width = math.ceil((x1 - x0) * size) + 2 * MARGIN
    height = math.ceil((y1 - y0) * size) + 2 * MARGIN + HEADER + footer
    offset = ((MARGIN - x0 * size) * scale, (HEADER + MARGIN - y0 * size) * scale)
    return MapFrame(layout, axes, origin, size * scale, offset, width * scale, height * scale, scale)


@dataclass
class Spots:
    """Obstacles in one hex, to find free room for small items."""

    center: Point
    size: float
    layout: hexgrid.Layout
    points: list[tuple[float, float, float]] = field(default_factory=list)  # (x, y, radius)
    track: set[int] = field(default_factory=set)  # which of ``points`` stand for track
    _state: bytes | None = field(default=None, init=False, repr=False, compare=False)
    _around: list[Point] | None = field(default=None, init=False, repr=False, compare=False)

    def add(self, point: Point, radius: float) -> None:
        self.points.append((point[0], point[1], radius))
        self._state = None

    def state(self) -> bytes:
        """A digest of the hex's place, size and obstacles (which of them are track): what a
        placement in it depends on."""
        if self._state is None:
            flat = array("d", (*self.center, self.size, *itertools.chain.from_iterable(self.points)))
            track = array("q", sorted(self.track)).tobytes()
            self._state = hashlib.blake2b(flat.tobytes() + track + self.layout.encode(), digest_size=16).digest()
        return self._state

    def chosen(self, query: tuple[object, ...], choose: Callable[[], T], points: Iterable[Point] = ()) -> T:
        """``choose()``, a placement in this hex that depends only on its obstacles, ``query`` and
        the candidate ``points``, remembered by them (``query`` by its exact text): a map drawn
        again finds the placements of its unchanged hexes."""
        given = array("d", itertools.chain.from_iterable(points)).tobytes()
        key = hashlib.blake2b(self.state() + given + repr(query).encode(), digest_size=16).digest()  # small
        with _CHOSEN_LOCK:
            hit = _CHOSEN.get(key)
        if hit is None:
            hit = choose()
            with _CHOSEN_LOCK:
                if len(_CHOSEN) >= CHOSEN_KEPT:
                    del _CHOSEN[next(iter(_CHOSEN))]  # the oldest
                _CHOSEN[key] = hit
        return hit

    def add_segment(self, seg: geo.Segment, width: float) -> None:
        self.track.update(range(len(self.points), len(self.points) + 5))
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
        (n0x, n0y), (n1x, n1y), (n2x, n2y), (n3x, n3y), (n4x, n4y), (n5x, n5y) = side_normals(self.layout)
        return min(ap - (dx * n0x + dy * n0y), ap - (dx * n1x + dy * n1y), ap - (dx * n2x + dy * n2y),
                   ap - (dx * n3x + dy * n3y), ap - (dx * n4x + dy * n4y), ap - (dx * n5x + dy * n5y))

    def clearance(self, point: Point, radius: float) -> float:
        px, py = point
        hyp = math.hypot
        near = self.size
        if self.points:
            near = min([hyp(px - x, py - y) - r for x, y, r in self.points])
        return min(near - radius, (self.inside(point) - radius) * 1.5)

    def best(self, candidates: list[Point], radius: float) -> Point:
        """The first candidate with enough room, else the one with most room."""
        return self.best_box(candidates, radius, radius)

    def best_box(self, candidates: list[Point], half_w: float, half_h: float) -> Point:
        """Like :meth:`best` for a wide item (text): scored on points along its width."""
        spread = max(0.0, half_w - half_h)
        offsets = (-spread, 0.0, spread) if spread > 0 else (0.0,)
        best_point = self.chosen(("box", half_w, half_h), lambda: self._best_box(candidates, offsets, half_h),
                                 candidates)
        for dx in offsets:
            self.add((best_point[0] + dx, best_point[1]), half_h)
        return best_point

    def _best_box(self, candidates: list[Point], offsets: tuple[float, ...], half_h: float) -> Point:
        enough = ENOUGH * self.size
        best_point, best_score = candidates[0], -1e9
        for i, cand in enumerate(candidates):
            room = min(self.clearance((cand[0] + dx, cand[1]), half_h) for dx in offsets)
            if room >= enough:
                return cand
            score = room - i * 0.001 * self.size
            if score > best_score:
                best_point, best_score = cand, score
        return best_point

    def around(self) -> list[Point]:
        """Candidate spots: the corner areas, then nearer the centre (worked out once per hex)."""
        if self._around is None:
            self._around = self.corners(0.6) + self.corners(0.72) + self.corners(0.42)
        return list(self._around)

    def ring(self, around: Point, dist: float, start: float = 0.0, n: int = 12) -> list[Point]:
        return [geo.polar(around, dist, start + 360.0 * i / n) for i in range(n)]

    def corners(self, frac: float = 0.62) -> list[Point]:
        """Corner areas, then edge areas, in reading-friendly order (right, left first)."""
        c = self.center
        angles = [0.0, 180.0, 300.0, 240.0, 60.0, 120.0, 30.0, 150.0, 330.0, 210.0, 90.0, 270.0]
        if self.layout == "pointy":
            angles = [(a + 30.0) % 360.0 for a in angles]
        return [geo.polar(c, self.size * frac, a) for a in angles]


# digest of (Spots.state(), query) -> the placement chosen; shared by every map drawn (worker
# threads too)
_CHOSEN: dict[bytes, Any] = {}
_CHOSEN_LOCK = threading.Lock()
CHOSEN_KEPT = 20_000  # a full map takes about 150, a crop fewer; the oldest go first (a few MB)


@functools.cache
def side_normals(layout: hexgrid.Layout) -> tuple[tuple[float, float], ...]:
    """The outward unit normals of a hex's six sides."""
    angles = [hexgrid.edge_angle_degrees(e, layout) for e in range(6)]
    return tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles)
