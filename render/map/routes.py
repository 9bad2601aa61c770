"""Routes drawn over the map (each train in its own colour, its stops ringed; a 1833NE
extension thinner) and the legend of trains and revenues under it."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.map.board import NodeRef

from .. import geometry as geo
from ..draw import circle, left_text, text_size
from ..fonts import font
from ..palette import RGB, ROUTE_COLORS
from .canvas import MapCanvas
from .layout import Point
from .state import money

Route = dict[str, Any]  # a route in the 18xx.games shape: train, revenue, connections (hex chains)


def routes(p: MapCanvas, drawn: list[Route]) -> list[tuple[str, RGB]]:
    """Draw ``drawn``; the legend entries (label, colour)."""
    legend: list[tuple[str, RGB]] = []
    n = len(drawn)
    base_w = p.track_w * 1.9
    for i, route in enumerate(drawn):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        width = max(2, round(base_w * (1 - 0.5 * i / max(1, n))))
        stops = _route_paths(p, route.get("connections") or [], color, width)
        for _hid, pos, radius in stops:
            circle(p.draw, pos, radius + width * 0.4, None, color, max(2, round(width * 0.45)))
        # a route's extension (1833NE, to collect a bonus): thinner, its stops earn nothing
        reached = _route_paths(p, route.get("extension") or [], color, max(2, width // 2))
        if reached:
            _hid, pos, radius = reached[-1]
            circle(p.draw, pos, radius + width * 0.4, None, color, max(2, round(width * 0.3)))
        legend.append((route_label(p.game, route), color))
    return legend


def route_label(game: Game, route: Route) -> str:
    """ "3-train, $120: Toronto to Hamilton": the train as players name it, its revenue and
    where it runs (the places at its two ends)."""
    tid = str(route.get("train", "?"))
    train = game.trains.get(tid)
    name = f"{train.name}-train" if train is not None and train.name else tid
    chains = route.get("connections") or []
    ends = [chains[0][0], chains[-1][-1]] if chains and chains[0] and chains[-1] else []
    places = [(game.board.hexes[h].location or h) if h in game.board.hexes else h for h in ends]
    where = f": {places[0]} to {places[1]}" if len(places) == 2 and places[0] != places[1] else ""
    return f"{name}, {money(game, route.get('revenue', 0))}{where}"


def _route_paths(p: MapCanvas, chains: list[list[str]], color: RGB, width: int) -> list[tuple[str, Point, float]]:
    board = p.game.board
    stops: list[tuple[str, Point, float]] = []
    for raw in chains:
        chain = [str(h) for h in raw]
        found: tuple[list[NodeRef], list[tuple[str, int]]] | None
        try:
            found = board.route_stops([chain])
        except Exception:  # noqa: BLE001 - unknown track: fall back to straight hops
            found = None
        if found is None:
            pts = [p.frame.center(h) for h in chain if h in board.hexes]
            if len(pts) > 1:
                p.draw.line(pts, fill=color, width=width, joint="curve")
            continue
        node_refs, used = found
        for hid, pi in used:
            for seg in p.segments[hid][pi]:
                p.segment(seg, color, width)
                if isinstance(seg, geo.Line):
                    for pt in (seg.a, seg.b):
                        circle(p.draw, pt, width / 2, color, None)
        for hid, ni in node_refs:
            node = board.hexes[hid].tile.nodes[ni]
            radius = p.city_extent(node) if node.kind == "city" else p.s * 0.12
            pos = p.positions[hid][ni]
            if node.kind == "offboard":
                radius = p.s * 0.4
            stops.append((hid, pos, radius))
    return stops


LEGEND_CELL = 780  # final pixels per legend entry (a line holds as many as fit: two on the whole map)
LEGEND_FONT = 30  # final pixels: legible when a phone shows the 1586 px map about 400 px wide
LEGEND_MIN_FONT = 20  # a long label shrinks down to this, then goes on a second line, then is cut
LEGEND_LINE = 46
LEGEND_SECOND = 1.2  # a label's second line this many font sizes under its first


def _per_line(width_px: int) -> int:
    return max(1, (width_px - 20) // LEGEND_CELL)


def _room(width_px: int) -> int:
    """Final pixels a legend entry's label may take."""
    return min(LEGEND_CELL, width_px - 28) - 70


def _label_lines(label: str, room: float) -> tuple[int, list[str]]:
    """A legend label's font size and lines (final pixels): one line, shrunk down to
    :data:`LEGEND_MIN_FONT` when long; else two, the train and revenue above where it runs (a
    narrow part of the map cut "Niagara Falls to Fort..."), shrunk alike; a line still too long is cut."""
    head, colon, tail = label.partition(": ")
    tries = [[label]] + ([[head + colon.rstrip(), tail]] if tail else [])
    for lines in tries:
        for size in range(LEGEND_FONT, LEGEND_MIN_FONT - 1, -1):
            fnt = font(size, True)
            if all(text_size(line, fnt)[0] <= room for line in lines):
                return size, lines
    fnt = font(LEGEND_MIN_FONT, True)
    cut = []
    for line in tries[-1]:
        while len(line) > 4 and text_size(line, fnt)[0] > room:
            line = line[:-2].rstrip() + "…"
        cut.append(line)
    return LEGEND_MIN_FONT, cut


def _layout(labels: list[str], width_px: int) -> tuple[list[tuple[int, int, int, list[str]]], int]:
    """Where each legend entry goes (final pixels): its column, the top of its row, its font size
    (the smallest any label needs: entries alike) and lines; and the legend's height."""
    per_line = _per_line(width_px)
    room = _room(width_px)
    fitted = [_label_lines(label, room) for label in labels]
    size = min((s for s, _ in fitted), default=LEGEND_FONT)  # one size for all (lines that fit stay fitting)
    out: list[tuple[int, int, int, list[str]]] = []
    top = 14
    for start in range(0, len(fitted), per_line):
        row = fitted[start:start + per_line]
        for i, (_, lines) in enumerate(row):
            out.append((i, top, size, lines))
        top += LEGEND_LINE + round(LEGEND_SECOND * size) * (max(len(lines) for _, lines in row) - 1)
    return out, top


def legend_height(game: Game, drawn: list[Route] | None, width_px: int) -> int:
    """Height (final pixels) of the legend under the map; 0 without routes."""
    if not drawn:
        return 0
    return _layout([route_label(game, route) for route in drawn], width_px)[1]


def legend(p: MapCanvas, items: list[tuple[str, RGB]], top: float) -> None:
    sc = p.frame.scale
    placed, _ = _layout([label for label, _ in items], p.frame.width // sc)
    for (column, row_top, size, lines), (_, color) in zip(placed, items, strict=True):
        x = (14 + LEGEND_CELL * column) * sc
        y = top + (row_top + LEGEND_LINE / 2) * sc
        fnt = font(size * sc, True)
        p.draw.line([(x, y), (x + 48 * sc, y)], fill=color, width=12 * sc)
        for k, line in enumerate(lines):
            left_text(p.draw, (x + 58 * sc, y + round(LEGEND_SECOND * size) * k * sc), line, fnt)
