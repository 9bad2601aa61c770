"""Pure pixel geometry of a tile drawn in a hex: where nodes sit, how track runs.

Everything here is plain arithmetic on :mod:`engine.map.hexgrid` conventions (edge k's
midpoint is where track leaving edge k meets the hex side), so it is unit-tested without
drawing anything.  Angles are screen degrees (y down, clockwise), as Pillow uses them.

Track shapes follow 18xx.games: opposite edges are joined by a straight line, edges two
apart by a gentle arc, adjacent edges by a sharp arc; each arc is tangent to the track
directions at both edge midpoints, so its centre is where the two hex sides meet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.map.hexgrid import Layout, edge_angle_degrees
from engine.map.tiles import End, Node, Path, Tile

Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)

CITY_RADIUS = 0.26  # of the hex size (circumradius)
NODE_OFFSET = 0.5  # off-centre nodes sit at this fraction of the apothem


@dataclass(frozen=True)
class Line:
    a: Point
    b: Point


@dataclass(frozen=True)
class Arc:
    """Part of a circle; Pillow draws it clockwise from ``start`` to ``end`` (degrees).

    ``a`` and ``b`` are the track's end points in path order (``a`` is not necessarily at
    ``start``)."""

    center: Point
    radius: float
    start: float
    end: float
    a: Point
    b: Point


Segment = Line | Arc


def apothem(size: float) -> float:
    return SQRT3 / 2 * size


def polar(center: Point, dist: float, angle: float) -> Point:
    rad = math.radians(angle)
    return center[0] + dist * math.cos(rad), center[1] + dist * math.sin(rad)


def angle_of(origin: Point, point: Point) -> float:
    return math.degrees(math.atan2(point[1] - origin[1], point[0] - origin[0])) % 360.0


def distance(p: Point, q: Point) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def loc_angle(loc: float, layout: Layout) -> float:
    """Angle towards a (possibly fractional) edge number: 0.5 is the corner after edge 0."""
    return (edge_angle_degrees(0, layout) + 60.0 * loc) % 360.0


def edge_point(center: Point, size: float, layout: Layout, edge: int) -> Point:
    """Midpoint of side ``edge`` of the hex centred at ``center``."""
    return polar(center, apothem(size), edge_angle_degrees(edge, layout))


def corner_point(center: Point, size: float, layout: Layout, corner: int, frac: float = 1.0) -> Point:
    """Corner ``corner`` (edge k runs from corner k to corner k+1), pulled in by ``frac``."""
    return polar(center, size * frac, edge_angle_degrees(corner, layout) - 30.0)


def corner_angle(corner: int, layout: Layout) -> float:
    return (edge_angle_degrees(corner, layout) - 30.0) % 360.0


def _intersect(p: Point, d: Point, q: Point, e: Point) -> Point | None:
    """Intersection of lines p + t*d and q + s*e, or None when parallel."""
    det = d[0] * (-e[1]) - d[1] * (-e[0])
    if abs(det) < 1e-9:
        return None
    rx, ry = q[0] - p[0], q[1] - p[1]
    t = (rx * (-e[1]) - ry * (-e[0])) / det
    return p[0] + t * d[0], p[1] + t * d[1]


def arc_through(center: Point, a: Point, b: Point) -> Arc:
    """The shorter arc of the circle around ``center`` from ``a`` to ``b``."""
    radius = distance(center, a)
    ang_a, ang_b = angle_of(center, a), angle_of(center, b)
    if (ang_b - ang_a) % 360.0 <= 180.0:
        start, end = ang_a, ang_b
    else:
        start, end = ang_b, ang_a
    return Arc(center, radius, start, end, a, b)


def edge_to_edge(center: Point, size: float, layout: Layout, ea: int, eb: int) -> Segment:
    """Track between two edges: a line for opposite edges, else an arc."""
    pa, pb = edge_point(center, size, layout, ea), edge_point(center, size, layout, eb)
    ang_a, ang_b = edge_angle_degrees(ea, layout), edge_angle_degrees(eb, layout)
    # each hex side runs perpendicular to the direction of its midpoint from the centre
    da = (-math.sin(math.radians(ang_a)), math.cos(math.radians(ang_a)))
    db = (-math.sin(math.radians(ang_b)), math.cos(math.radians(ang_b)))
    pivot = _intersect(pa, da, pb, db)
    if pivot is None or (ea - eb) % 6 == 3:
        return Line(pa, pb)
    return arc_through(pivot, pa, pb)


def segment_midpoint(seg: Segment) -> Point:
    if isinstance(seg, Line):
        return (seg.a[0] + seg.b[0]) / 2, (seg.a[1] + seg.b[1]) / 2
    mid = seg.start + ((seg.end - seg.start) % 360.0) / 2
    return polar(seg.center, seg.radius, mid)


def segment_tangent_angle(seg: Segment, at: Point) -> float:
    """Direction (degrees) of the track at ``at`` (a point on the segment)."""
    if isinstance(seg, Line):
        return angle_of(seg.a, seg.b)
    return (angle_of(seg.center, at) + 90.0) % 360.0


def split_segment(seg: Segment) -> tuple[Segment, Segment]:
    """Halves ``a -> mid`` and ``mid -> b`` of a segment."""
    mid = segment_midpoint(seg)
    if isinstance(seg, Line):
        return Line(seg.a, mid), Line(mid, seg.b)
    return arc_through(seg.center, seg.a, mid), arc_through(seg.center, mid, seg.b)


def offset_line(a: Point, b: Point, dist: float) -> tuple[Point, Point]:
    """``a -> b`` moved ``dist`` to its right (screen coordinates)."""
    length = distance(a, b) or 1.0
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    return (a[0] + nx * dist, a[1] + ny * dist), (b[0] + nx * dist, b[1] + ny * dist)


# ----------------------------------------------------------------------------- nodes


def through_edges(tile: Tile, node: Node) -> tuple[int, int] | None:
    """The two edges of a town that track merely passes through (drawn on the curve)."""
    if node.kind not in ("town", "halt"):
        return None
    ends: list[End] = []
    for path in tile.paths:
        if node.index in path.node_indexes:
            ends.extend(e for e in path.ends if not (e.kind == "node" and e.num == node.index))
    if len(ends) == 2 and all(e.kind == "edge" for e in ends) and ends[0].num != ends[1].num:
        return ends[0].num, ends[1].num
    return None


def _exit_angles(tile: Tile, node: Node, layout: Layout) -> list[float]:
    return [edge_angle_degrees(e, layout) for e in sorted(tile.node_exits(node.index))]


def _mean_angle(angles: list[float]) -> float | None:
    sx = sum(math.cos(math.radians(a)) for a in angles)
    sy = sum(math.sin(math.radians(a)) for a in angles)
    if math.hypot(sx, sy) < 1e-6:
        return None
    return math.degrees(math.atan2(sy, sx)) % 360.0


def node_positions(tile: Tile, layout: Layout, center: Point, size: float) -> dict[int, Point]:
    """Pixel position of every node of ``tile`` (already rotated) in a hex at ``center``."""
    out: dict[int, Point] = {}
    ap = apothem(size)
    stops = tile.city_towns
    free: list[Node] = []
    straight: list[Node] = []
    for node in tile.nodes:
        if isinstance(node.loc, float):
            corner = abs(node.loc - round(node.loc)) > 0.25
            out[node.index] = polar(center, size * 0.55 if corner else ap * NODE_OFFSET,
                                    loc_angle(node.loc, layout))
            continue
        if node.kind in ("offboard", "junction"):
            out[node.index] = center
            continue
        through = through_edges(tile, node)
        if through is not None:
            out[node.index] = segment_midpoint(edge_to_edge(center, size, layout, *through))
            continue
        angles = _exit_angles(tile, node, layout)
        if len(stops) <= 1:
            out[node.index] = center
        elif not angles:
            free.append(node)
        else:
            mean = _mean_angle(angles)
            if mean is None:
                straight.append(node)
            else:
                far = ap * (0.6 if node.slots > 1 else NODE_OFFSET)
                out[node.index] = polar(center, far, mean)
    for node in straight:
        # track runs straight through: slide along it, away from the other stops
        others = [out[n.index] for n in stops if n.index in out and n is not node]
        angles = _exit_angles(tile, node, layout)
        if others:
            angles.sort(key=lambda a: -min(distance(polar(center, size, a), o) for o in others))
        out[node.index] = polar(center, size * 0.36, angles[0])
    if free:
        taken = [angle_of(center, out[n.index]) for n in stops if n.index in out and out[n.index] != center]
        base = 180.0 if layout == "flat" else 270.0
        if len(free) == 1 and not taken:
            out[free[0].index] = center
        else:
            step = 360.0 / (len(free) + len(taken))
            candidates = [(base + step * i) % 360.0 for i in range(len(free) + len(taken))]
            for node in free:
                best = max(candidates, key=lambda a: min([_angle_gap(a, t) for t in taken] or [360.0]))
                candidates.remove(best)
                taken.append(best)
                gap = max(size * 0.3, city_radius(size) + size * 0.04) if node.kind == "city" else ap * 0.45
                out[node.index] = polar(center, gap, best)
    _separate_overlaps(tile, layout, center, size, out)
    return out


def _angle_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _separate_overlaps(tile: Tile, layout: Layout, center: Point, size: float, out: dict[int, Point]) -> None:
    """Two towns on crossing straight track (tile 55) would share the centre: slide each
    along its own track towards its first exit."""
    stops = [n for n in tile.city_towns if n.index in out]
    for i, node in enumerate(stops):
        for other in stops[i + 1:]:
            if distance(out[node.index], out[other.index]) > size * 0.2:
                continue
            for moving in (node, other):
                exits = sorted(tile.node_exits(moving.index))
                if exits:
                    out[moving.index] = polar(center, apothem(size) * 0.4, edge_angle_degrees(exits[0], layout))


# ----------------------------------------------------------------------------- track


def path_segments(
    tile: Tile, path: Path, layout: Layout, center: Point, size: float, positions: dict[int, Point]
) -> list[Segment]:
    """The drawn shape of one path, from its ``a`` end to its ``b`` end."""
    a, b = path.a, path.b
    if a.kind == "edge" and b.kind == "edge":
        return [edge_to_edge(center, size, layout, a.num, b.num)]
    if a.kind == "node" and b.kind == "node":
        return [Line(positions[a.num], positions[b.num])]
    edge, node_end = (a, b) if a.kind == "edge" else (b, a)
    node = tile.nodes[node_end.num]
    through = through_edges(tile, node)
    if through is not None:
        whole = edge_to_edge(center, size, layout, *through)
        first, second = split_segment(whole)
        edge_to_mid = first if through[0] == edge.num else _reverse(second)
        return [edge_to_mid if a.kind == "edge" else _reverse(edge_to_mid)]
    start = edge_point(center, size, layout, edge.num)
    end = positions[node_end.num]
    if node.kind == "offboard" and end == center:
        end = polar(center, apothem(size) * 0.5, edge_angle_degrees(edge.num, layout))
    line = Line(start, end)
    return [line if a.kind == "edge" else Line(line.b, line.a)]


def _reverse(seg: Segment) -> Segment:
    if isinstance(seg, Line):
        return Line(seg.b, seg.a)
    return Arc(seg.center, seg.radius, seg.start, seg.end, seg.b, seg.a)


def track_endpoints(tile: Tile, layout: Layout, center: Point, size: float) -> list[tuple[Point, Point]]:
    """``(start, end)`` pixel points of every path of ``tile``, in path order."""
    positions = node_positions(tile, layout, center, size)
    out = []
    for path in tile.paths:
        segs = path_segments(tile, path, layout, center, size, positions)
        out.append((segs[0].a, segs[-1].b))
    return out


# ----------------------------------------------------------------------------- cities


def city_radius(size: float) -> float:
    return size * CITY_RADIUS


def slot_radius(size: float, slots: int, crowded: bool = False) -> float:
    """Radius of one token slot: smaller when many slots share a city, or when several
    cities (one of them with several slots) share a tile (``crowded``)."""
    r = city_radius(size) * (0.84 if crowded else 1.0)
    return r if slots <= 2 else r * 0.86


def crowded(tile: Tile) -> bool:
    """Several cities on the tile, one with more than one slot."""
    cities = tile.cities
    return len(cities) > 1 and any(c.slots > 1 for c in cities)


def slot_positions(center: Point, radius: float, slots: int, angle: float = 0.0) -> list[Point]:
    """Centres of the token circles of a city with ``slots`` slots, 18xx.games-style:
    one circle; two side by side; three in a triangle; four in a square; more in a ring.
    ``angle`` turns the arrangement (degrees, clockwise)."""
    cx, cy = center
    r = radius
    if slots <= 1:
        return [center]
    if slots == 2:
        offsets = [(-r, 0.0), (r, 0.0)]
    elif slots == 3:
        h = r / SQRT3
        offsets = [(0.0, -2 * h), (-r, h), (r, h)]
    elif slots == 4:
        offsets = [(-r, -r), (r, -r), (-r, r), (r, r)]
    else:
        ring = r / math.sin(math.pi / slots)
        return [polar(center, ring, angle - 90.0 + 360.0 * i / slots) for i in range(slots)]
    cos_a, sin_a = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + dx * cos_a - dy * sin_a, cy + dx * sin_a + dy * cos_a) for dx, dy in offsets]


def city_angle(center: Point, position: Point, slots: int) -> float:
    """How a city's slots are turned: a 2-slot city away from the hex centre lies along
    the hex side it is near (so two cities of one tile don't collide)."""
    if slots != 2 or distance(center, position) < 1e-6:
        return 0.0
    angle = (angle_of(center, position) + 90.0) % 180.0
    return angle if angle <= 90.0 else angle - 180.0


def token_position(
    tile: Tile, layout: Layout, center: Point, size: float, city_index: int, slot: int
) -> Point:
    """Where the token in ``slot`` of city node ``city_index`` is drawn."""
    positions = node_positions(tile, layout, center, size)
    node = tile.nodes[city_index]
    slots = max(1, node.slots)
    pos = positions[city_index]
    radius = slot_radius(size, slots, crowded(tile))
    return slot_positions(pos, radius, slots, city_angle(center, pos, slots))[slot]
