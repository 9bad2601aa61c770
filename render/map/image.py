"""The map as a PNG: hexes, track, cities and tokens, revenues, names, routes.

Drawn 2x supersampled and reduced, so lines are anti-aliased.  The hex size is chosen so
the whole map fits a Discord preview (at most ~1600 px on its longer side).  Small texts
get a light halo so they stay readable over track.

This module runs the passes in order; what they draw lives in ``track`` (fills, track,
borders), ``stations`` (cities, tokens, revenues), ``labels`` (names and small
items), ``routes`` (routes and their legend); ``layout`` places things,
``state`` reads the game.
"""

from __future__ import annotations

from PIL import Image

from engine.game import Game
from engine.map import hexgrid

from .. import geometry as geo
from ..draw import left_text, to_png
from ..fonts import font
from ..palette import BACKGROUND, FRAME, MUTED
from . import kept, labels, stations, track
from . import routes as routes_
from .canvas import MapCanvas, in_frame
from .layout import HEADER, MARGIN, MAX_SIDE, MapFrame, Spots, map_frame, meets, reach_box
from .state import blocked_hexes, destination_hexes, header_text, home_reservations

__all__ = ["MAX_SIDE", "draw_map", "render_map"]


def prepare(p: MapCanvas) -> None:
    """Work out node positions, track segments and the room taken in every hex, and reserve
    the places of names, coordinates and off-board revenue strips."""
    for hid, h in p.hexes.items():
        c = p.frame.center(hid)
        positions = geo.node_positions(h.tile, p.frame.layout, c, p.s)
        p.positions[hid] = positions
        segs = [geo.path_segments(h.tile, path, p.frame.layout, c, p.s, positions) for path in h.tile.paths]
        p.segments[hid] = segs
        spots = Spots(c, p.s, p.frame.layout)
        for path_segs in segs:
            for seg in path_segs:
                spots.add_segment(seg, p.track_w / 2)
        for node in h.tile.nodes:
            if node.kind == "city":
                n = max(1, node.slots)
                r = geo.slot_radius(p.s, n, geo.crowded(h.tile))
                pos = positions[node.index]
                for sc in geo.slot_positions(pos, r, n, geo.city_angle(c, pos, n)):
                    spots.add(sc, r)
                if n > 2:
                    spots.add(pos, r)
            elif node.kind in ("town", "halt"):
                spots.add(positions[node.index], p.s * 0.14)
        p.spots[hid] = spots
        p.names[hid] = labels.place_name(p, hid, h)
        if labels.is_empty(h):
            p.ids[hid] = labels.place_id(p, spots)
        for node in h.tile.nodes:
            if node.kind == "offboard" and not node.hidden and isinstance(node.revenue, dict) and node.revenue:
                p.strips[hid] = stations.place_strip(p, spots, node)


def coordinates(p: MapCanvas) -> None:
    """The column and row labels around the map."""
    layout, axes = p.frame.layout, p.frame.axes
    x_src = (axes or hexgrid.default_axes(layout))[0]
    cols: dict[str, float] = {}
    rows: dict[str, float] = {}
    for hid in p.game.board.hexes:
        letters, number = hexgrid.split_id(hid)
        cx, cy = p.frame.center(hid)
        col_label, row_label = (letters, str(number)) if x_src == "letter" else (str(number), letters)
        cols[col_label] = cx
        rows[row_label] = cy
    f = font(round(15 * p.frame.scale), True)
    m = MARGIN * p.frame.scale / 2
    top = HEADER * p.frame.scale + m
    bottom = p.frame.height - m - p.footer_px
    for label, x in cols.items():
        p.text((x, top), label, f, fill=MUTED)
        p.text((x, bottom), label, f, fill=MUTED)
    for label, y in rows.items():
        if y > bottom:  # a row out of the picture, where the route legend goes
            continue
        p.text((m, y), label, f, fill=MUTED)
        p.text((p.frame.width - m, y), label, f, fill=MUTED)


def header(p: MapCanvas, text: str, key: bool = True, blocked: bool = False) -> None:
    sc = p.frame.scale
    p.draw.rectangle((0, 0, p.frame.width, HEADER * sc), fill=FRAME)
    f = font(15 * sc, True)
    left_text(p.draw, (10 * sc, HEADER * sc / 2), text, f)
    if key:  # the symbols' key: on the whole map only (what a blocked hex looks like, when one is)
        labels.key(p, HEADER * sc / 2, round(12 * sc), blocked, 10 * sc + f.getlength(text))


def render_map(game: Game, *, routes: list[routes_.Route] | None = None) -> bytes:
    """PNG of the map of ``game`` (optionally with ``routes`` drawn over it, with a legend)."""
    if not routes:
        return kept.render_whole(
            game, lambda frame, only, onto, framed: paint(game, frame, 0, only=only, img=onto, framed=framed).img)
    board = game.board
    footer = routes_.legend_height(game, routes, MAX_SIDE)
    frame = map_frame(list(board.hexes), board.layout, game.AXES, footer=footer)
    return draw_map(game, frame, footer, routes)


def draw_map(game: Game, frame: MapFrame, footer: int, routes: list[routes_.Route] | None = None,
             where: str = "") -> bytes:
    """Every pass over ``frame`` (the whole map, or a part of it: :mod:`render.map.crop`)."""
    return to_png(paint(game, frame, footer, routes, where).img, frame.scale, palette=True)


def paint(game: Game, frame: MapFrame, footer: int, routes: list[routes_.Route] | None = None,
          where: str = "", only: set[str] | None = None, img: Image.Image | None = None,
          framed: bool = True) -> MapCanvas:
    """The drawn (supersampled) canvas of :func:`draw_map`, with where each thing went; with
    ``only``, the hexes drawn are those of them, onto ``img``; ``framed``: with the header and the
    coordinates around the map (in its margin)."""
    on_routes = [str(h) for r in routes or () for key in ("connections", "extension")
                 for chain in r.get(key) or () for h in chain]
    if where:  # a part of the map: only the hexes whose drawing reaches inside its margin (the band is cleared)
        m = MARGIN * frame.scale
        view = (m, HEADER * frame.scale + m, frame.width - m, frame.height - m - footer * frame.scale)
        seen = {hid for hid in in_frame(game, frame, set()) if meets(reach_box(frame, hid), view)}
        only = seen | set(on_routes) if only is None else only & (seen | set(on_routes))
    p = MapCanvas(game, frame, footer * frame.scale, on_routes, only, img)
    if where:
        p.view = view
    prepare(p)
    text = header_text(game, where)
    track.fills(p)
    track.track(p)
    legend = routes_.routes(p, routes) if routes else []
    track.borders(p)
    stations.nodes(p, home_reservations(game))
    blocked = blocked_hexes(game)
    labels.texts(p, destination_hexes(game), blocked, game.port_marks())
    labels.hex_ids(p)
    if where:  # a part of the map: hexes cut at the frame, the frame kept clear for coordinates
        margin(p, footer * frame.scale)
    if framed:
        coordinates(p)
        header(p, text, key=not where, blocked=bool(blocked))
    if legend:
        routes_.legend(p, legend, frame.height - footer * frame.scale)
    return p


def margin(p: MapCanvas, footer: float) -> None:
    """Clear the band around a part of the map (where the coordinates go) and the legend's room."""
    m = MARGIN * p.frame.scale
    w, h = p.frame.width, p.frame.height
    top = HEADER * p.frame.scale + m
    for box in ((0, 0, w, top), (0, h - m - footer, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        p.draw.rectangle(box, fill=BACKGROUND)
