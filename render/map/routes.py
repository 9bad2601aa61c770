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
LEGEND_MIN_FONT = 20  # a long label shrinks down to this, then is cut
LEGEND_LINE = 46


def _per_line(width_px: int) -> int:
    return max(1, (width_px - 20) // LEGEND_CELL)


def legend_height(drawn: list[Route] | None, width_px: int) -> int:
    """Height (final pixels) of the legend under the map; 0 without routes."""
    if not drawn:
        return 0
    per_line = _per_line(width_px)
    lines = (len(drawn) + per_line - 1) // per_line
    return 14 + LEGEND_LINE * lines


def legend(p: MapCanvas, items: list[tuple[str, RGB]], top: float) -> None:
    sc = p.frame.scale
    width = p.frame.width // sc
    per_line = _per_line(width)
    cell = min(LEGEND_CELL, width - 28)
    for i, (label, color) in enumerate(items):
        x = (14 + LEGEND_CELL * (i % per_line)) * sc
        y = top + (14 + LEGEND_LINE / 2 + LEGEND_LINE * (i // per_line)) * sc
        size = LEGEND_FONT
        room = (cell - 70) * sc
        while size > LEGEND_MIN_FONT and text_size(label, font(size * sc, True))[0] > room:
            size -= 1
        fnt = font(size * sc, True)
        while len(label) > 4 and text_size(label, fnt)[0] > room:
            label = label[:-2].rstrip() + "…"
        p.draw.line([(x, y), (x + 48 * sc, y)], fill=color, width=12 * sc)
        left_text(p.draw, (x + 58 * sc, y), label, fnt)
