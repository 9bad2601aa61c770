"""Hex fills, track (with arrowheads into off-board areas and stubs) and the borders
printed on hex sides (water, mountains, impassable) with their costs."""

from __future__ import annotations

import math

from engine.map import hexgrid
from engine.map.tiles import Path

from .. import geometry as geo
from ..draw import circle
from ..palette import HEX_OUTLINE, IMPASSABLE, MOUNTAIN, TILE_COLORS, TRACK, WATER, rgb
from .canvas import HALO, MapCanvas


def fills(p: MapCanvas) -> None:
    for hid, h in p.hexes.items():
        color = TILE_COLORS.get(h.tile.color, rgb(h.tile.color, TILE_COLORS["white"]))
        corners = p.frame.corners(hid)
        p.draw.polygon(corners, fill=color)
        # outline as lines: Pillow draws wide polygon outlines through a full-size mask (slow)
        p.draw.line([*corners, corners[0]], fill=HEX_OUTLINE, width=p.frame.px(1))


def track(p: MapCanvas) -> None:
    for hid, h in p.hexes.items():
        for path, segs in zip(h.tile.paths, p.segments[hid], strict=True):
            for seg in segs:
                p.segment(seg, TRACK, p.track_w)
            for end in path.ends:
                if end.kind == "node":
                    node = h.tile.nodes[end.num]
                    pos = p.positions[hid][end.num]
                    if node.kind == "offboard":
                        _arrowhead(p, segs[0] if path.a.kind == "edge" else segs[-1], path)
                    else:
                        circle(p.draw, pos, p.track_w / 2, TRACK, None)
        for stub in h.tile.stubs:
            c = p.frame.center(hid)
            a = geo.edge_point(c, p.s, p.frame.layout, stub)
            b = geo.polar(c, geo.apothem(p.s) * 0.55, hexgrid.edge_angle_degrees(stub, p.frame.layout))
            p.segment(geo.Line(a, b), TRACK, p.track_w)


def _arrowhead(p: MapCanvas, seg: geo.Segment, path: Path) -> None:
    """A pointed end where track runs into an off-board area."""
    tip = seg.b if path.a.kind == "edge" else seg.a
    base = seg.a if path.a.kind == "edge" else seg.b
    ang = math.radians(geo.angle_of(base, tip))
    w = p.track_w * 1.3
    length = p.track_w * 1.8
    nx, ny = -math.sin(ang), math.cos(ang)
    point = (tip[0] + math.cos(ang) * length, tip[1] + math.sin(ang) * length)
    p.draw.polygon([(tip[0] + nx * w, tip[1] + ny * w), point, (tip[0] - nx * w, tip[1] - ny * w)], fill=TRACK)


def borders(p: MapCanvas) -> None:
    labelled: set[tuple[int, int]] = set()
    # every hex shown, also those not drawn: a side's cost is labelled by the first of its two hexes
    for hid, h in p.shown.items():
        if all(border.type is None for border in h.tile.borders):
            continue
        corners = p.frame.corners(hid)
        for border in h.tile.borders:
            if border.type is None:
                continue
            a, b = corners[border.edge], corners[(border.edge + 1) % 6]
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            key = (round(mid[0] / 4), round(mid[1] / 4))
            label = bool(border.cost) and key not in labelled
            if label:
                labelled.add(key)
            if hid not in p.hexes:
                continue
            color = {"water": WATER, "mountain": MOUNTAIN}.get(border.type or "", IMPASSABLE)
            if border.color:
                color = rgb(border.color, color)
                color = WATER if border.color == "blue" else color
            p.draw.line([a, b], fill=color, width=max(3, round(p.s * 0.1)))
            if label:
                c = p.frame.center(hid)
                pos = (mid[0] + (c[0] - mid[0]) * 0.28, mid[1] + (c[1] - mid[1]) * 0.28)
                p.text(pos, p.game.fmt(border.cost), p.font(10, True), fill=color, halo=HALO, halo_width=p.frame.px(2))
