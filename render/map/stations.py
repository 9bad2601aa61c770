"""Cities with their station spaces, tokens and reserved homes; towns; revenues (flat
values in a circle, phase-dependent values as a strip of boxes with the current one marked)."""

from __future__ import annotations

import math

from engine.map.board import HexState
from engine.map.tiles import Node, Tile

from .. import geometry as geo
from ..draw import circle, fit_size
from ..fonts import font
from ..palette import INK, MUTED, RGB, TILE_COLORS, WHITE, contrast, corp_colors, mix, rgb
from .canvas import HALO, MapCanvas
from .layout import Point, Spots
from .state import current_revenue_key

Reserved = list[tuple[int | None, str]]  # (city index or None for the first city, corp sym)


def place_strip(p: MapCanvas, spots: Spots, node: Node) -> Point:
    """Centre of the phase-revenue strip of an off-board area, clear of its track."""
    assert isinstance(node.revenue, dict)
    widths, height = p.strip_size(node.revenue)
    total = sum(widths)
    c = spots.center
    cands = [(c[0] + dx * p.s, c[1] + dy * p.s)
             for dx, dy in ((0, 0), (0, -0.3), (0, 0.3), (0, -0.15), (0, 0.15), (0.2, 0), (-0.2, 0),
                            (0.15, -0.3), (-0.15, -0.3), (0.15, 0.3), (-0.15, 0.3))]

    def score(pt: Point) -> float:
        xs = [pt[0] - total / 2 + total * i / 6 for i in range(7)]
        return min(spots.clearance((x, pt[1]), height / 2) for x in xs)

    best = spots.chosen(("strip", total, height, p.s), lambda: max(cands, key=score))
    for i in range(7):
        spots.add((best[0] - total / 2 + total * i / 6, best[1]), height / 2)
    return best


def nodes(p: MapCanvas, reservations: dict[str, Reserved]) -> None:
    for hid, h in p.hexes.items():
        tile = h.tile
        for node in tile.nodes:
            pos = p.positions[hid][node.index]
            if node.kind == "city":
                _city(p, hid, h, node, pos, reservations.get(hid, []))
            elif node.kind in ("town", "halt"):
                _town(p, hid, tile, node, pos)
        _revenues(p, hid, h)


def _city(p: MapCanvas, hid: str, h: HexState, node: Node, pos: Point, reserved: Reserved) -> None:
    slots_n = max(1, node.slots)
    tokens: list[str | None] = list(h.tokens.get(node.index, []) or [])
    for (hx, city, slot), merged in p.leaving.items():  # merged into the national: shown until replaced
        if hx == hid and city == node.index and slot < len(tokens) and tokens[slot] is None:
            tokens[slot] = merged
    slots_n = max(slots_n, len(tokens))
    r = geo.slot_radius(p.s, slots_n, geo.crowded(h.tile))
    hex_c = p.frame.center(hid)
    centers = geo.slot_positions(pos, r, slots_n, geo.city_angle(hex_c, pos, slots_n))
    ow = p.outline_w
    if slots_n == 4 and geo.city_angle(hex_c, pos, slots_n) == 0.0:
        x0, y0 = centers[0]
        x1, y1 = centers[3]
        p.draw.rounded_rectangle((x0 - r - ow / 2, y0 - r - ow / 2, x1 + r + ow / 2, y1 + r + ow / 2),
                                 radius=r, fill=WHITE, outline=INK, width=ow)
    for c in centers:
        circle(p.draw, c, r + ow / 2, INK, None)
    if slots_n == 2:
        p.draw.line(centers, fill=INK, width=round(2 * r + ow))
        p.draw.line(centers, fill=WHITE, width=round(2 * r - ow))
    for c in centers:
        circle(p.draw, c, r - ow / 2, WHITE, None)
    if slots_n > 2:
        ring = centers if slots_n != 4 else [centers[0], centers[1], centers[3], centers[2]]
        p.draw.polygon(ring, fill=WHITE)
    free_res = [s for city, s in reserved if city in (None, node.index)]
    # a reservation without a city index goes to the first city only
    if reserved and any(city is None for city, _ in reserved) and node != h.tile.cities[0]:
        free_res = [s for city, s in reserved if city == node.index]
    for i, c in enumerate(centers):
        sym = tokens[i] if i < len(tokens) else None
        if sym is not None:
            _token(p, c, r - ow * 0.5, sym)
        elif free_res:
            _reserved(p, c, r - ow * 0.5, free_res.pop(0))


def _token(p: MapCanvas, c: Point, r: float, sym: str) -> None:
    fill, text = corp_colors(p.corps.get(sym))
    circle(p.draw, c, r, fill, WHITE, max(1, round(r * 0.1)))
    size = fit_size(sym, r * 1.75, round(r * 0.78), True)
    p.text(c, sym, font(size, True), fill=text)


def _reserved(p: MapCanvas, c: Point, r: float, sym: str) -> None:
    corp = p.corps.get(sym)
    color = rgb(corp.color if corp else None, MUTED)
    circle(p.draw, c, r * 0.92, WHITE, color, max(2, round(r * 0.16)))
    size = fit_size(sym, r * 1.5, round(r * 0.62), True)
    ink = color if sum(color) < 500 else MUTED
    p.text(c, sym, font(size, True), fill=ink)


def _town(p: MapCanvas, hid: str, tile: Tile, node: Node, pos: Point) -> None:
    through = geo.through_edges(tile, node)
    if through is not None:
        seg = geo.edge_to_edge(p.frame.center(hid), p.s, p.frame.layout, *through)
        ang = math.radians(geo.segment_tangent_angle(seg, pos) + 90.0)
        half_l, half_w = p.s * 0.2, p.s * 0.065
        dx, dy = math.cos(ang), math.sin(ang)
        nx, ny = -dy, dx
        pts = [
            (pos[0] + dx * half_l + nx * half_w, pos[1] + dy * half_l + ny * half_w),
            (pos[0] + dx * half_l - nx * half_w, pos[1] + dy * half_l - ny * half_w),
            (pos[0] - dx * half_l - nx * half_w, pos[1] - dy * half_l - ny * half_w),
            (pos[0] - dx * half_l + nx * half_w, pos[1] - dy * half_l + ny * half_w),
        ]
        p.draw.polygon(pts, fill=INK)
        p.draw.line([*pts, pts[0]], fill=WHITE, width=max(1, p.frame.px(1)))
    else:
        circle(p.draw, pos, p.s * 0.1, INK, WHITE, max(1, p.frame.px(1.5)))


def _revenues(p: MapCanvas, hid: str, h: HexState) -> None:
    tile = h.tile
    spots = p.spots[hid]
    flat: list[tuple[Node, int]] = []
    for node in tile.nodes:
        if node.hidden:
            continue
        if isinstance(node.revenue, dict):
            if node.revenue:
                _phase_revenue(p, hid, node)
        elif node.revenue and node.kind != "junction":
            flat.append((node, node.revenue))
    if not flat:
        return
    same = len({v for _, v in flat}) == 1 and len(flat) > 1 and all(n.kind == "city" for n, _ in flat)
    groups = [flat[0]] if same else flat
    rr = p.s * 0.15
    for node, value in groups:
        pos = p.positions[hid][node.index]
        if same:
            cands = spots.corners(0.6)
        else:
            extent = p.city_extent(node) if node.kind == "city" else p.s * 0.12
            cands = spots.ring(pos, extent + rr + p.s * 0.03, 0.0, 12) + spots.corners(0.6)
        spot = spots.best(cands, rr)
        if p.cut((spot[0] - rr, spot[1] - rr, spot[0] + rr, spot[1] + rr)):
            continue
        circle(p.draw, spot, rr, WHITE, INK, max(1, round(p.outline_w * 0.7)))
        text = str(value)
        size = fit_size(text, rr * 1.7, round(p.s * 0.2), True)
        p.text(spot, text, font(size, True))


def _phase_revenue(p: MapCanvas, hid: str, node: Node) -> None:
    revenue = node.revenue
    assert isinstance(revenue, dict)
    current = current_revenue_key(revenue, p.phase_colors, p.phase_name)
    keys = list(revenue)
    f = font(p.fpx(0.2), True)
    fk = font(p.fpx(0.12), False)
    widths, box_h = p.strip_size(revenue)
    total = sum(widths)
    keyed_by_color = all(k in TILE_COLORS for k in keys)
    if hid in p.strips and node.kind == "offboard":
        pos = p.strips[hid]
    else:
        pos = p.spots[hid].best_box(p.spots[hid].around(), total / 2, box_h / 2)
    x = pos[0] - total / 2
    y = pos[1] - box_h / 2 + (0 if keyed_by_color else p.s * 0.08)
    if p.cut((x, y, x + total, y + box_h)):
        return
    for key, w in zip(keys, widths, strict=True):
        fill: RGB = TILE_COLORS.get(key, WHITE) if keyed_by_color else WHITE
        is_now = key == current
        if current is not None and not is_now:
            fill = mix(fill, WHITE, 0.45)
        box = (x, y, x + w, y + box_h)
        outline_w = max(2, round(p.s * 0.05)) if is_now else max(1, round(p.s * 0.015))
        p.draw.rectangle(box, fill=fill, outline=INK, width=outline_w)
        ink = contrast(fill)
        if current is not None and not is_now:
            ink = mix(ink, fill, 0.35)
        p.text((x + w / 2, y + box_h / 2), str(revenue[key]), f, fill=ink)
        if not keyed_by_color:
            p.text((x + w / 2, y - p.s * 0.09), key, fk, fill=INK, halo=HALO, halo_width=p.frame.px(1.5))
        x += w
