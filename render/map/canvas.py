"""The map picture being drawn: the supersampled image, its frame, and what the preparing
pass worked out per hex (node positions, track segments, free room, where the name, the
coordinate and a phase-revenue strip go).  The drawing passes (``track``,
``stations``, ``labels``, ``routes``) paint onto it."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from engine.entities import Corporation
from engine.game import Game
from engine.map.board import HexState
from engine.map.tiles import Node

from .. import geometry as geo
from ..draw import paste_text, text_size
from ..fonts import FontType, font
from ..palette import BACKGROUND, INK, RGB
from .layout import MapFrame, Point, Spots
from .state import phase_colors, phase_name

HALO = (255, 255, 255)
Placed = tuple[Point, str, FontType]  # a placed text: centre, text (may hold newlines), font


class MapCanvas:
    def __init__(self, game: Game, frame: MapFrame, footer_px: int = 0, also: Iterable[str] = (),
                 only: set[str] | None = None, img: Image.Image | None = None):
        self.game = game
        self.frame = frame
        # the hexes in the picture (all of them on the whole map, a few on a part of it), and
        # ``also`` (a route's hexes: its track is drawn from theirs)
        self.shown: dict[str, HexState] = in_frame(game, frame, set(also))
        # the hexes drawn: those shown, or those of them in ``only`` when a map is drawn again
        # where it changed (:mod:`render.map.kept`), onto ``img``
        self.hexes = self.shown if only is None else {hid: h for hid, h in self.shown.items() if hid in only}
        self.footer_px = footer_px  # supersampled height of the route legend under the map
        self.s = frame.size
        self.img = img if img is not None else Image.new("RGB", (frame.width, frame.height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.img)
        self.phase_colors = phase_colors(game)
        self.phase_name = phase_name(game)
        self.corps: dict[str, Corporation] = game.corporations
        self.leaving = game.stations_leaving()  # drawn where they stood (1856's merged corporations)
        self.track_w = max(2, round(self.s * 0.085))
        self.outline_w = max(2, round(self.s * 0.03))
        self.positions: dict[str, dict[int, Point]] = {}
        self.segments: dict[str, list[list[geo.Segment]]] = {}
        self.spots: dict[str, Spots] = {}
        self.strips: dict[str, Point] = {}
        self.names: dict[str, Placed | None] = {}
        # a part of the map (render.map.crop): the box its hexes show in, the frame's margin
        # cleared around it (see cut)
        self.view: tuple[float, float, float, float] | None = None
        self.ids: dict[str, Point] = {}  # where an empty hex shows its coordinate
        # the box of each laid tile's coordinate and number (left, top, right, bottom)
        self.numbers: dict[str, tuple[float, float, float, float]] = {}
        self.tags: dict[str, list[tuple[str, RGB]]] = {}  # the tags drawn in each hex: text, colour

    def text(self, xy: Point, text: str, fnt: FontType, fill: RGB = INK, halo: RGB | None = None,
             halo_width: int = 0) -> None:
        paste_text(self.img, xy, text, fnt, fill, halo, halo_width)

    def cut(self, box: tuple[float, float, float, float]) -> bool:
        """Whether the edge of a part of the map (:attr:`view`) would cut ``box`` (left, top,
        right, bottom): a name, coordinate or value it would cut is left out, as a stub of one
        ("Ham" of Hamburg, "4" of "40 70") reads as a glitch."""
        view = self.view
        return view is not None and (box[0] < view[0] or box[1] < view[1] or box[2] > view[2] or box[3] > view[3])

    def font(self, px: float, bold: bool = False) -> FontType:
        """A font from a final-image pixel size."""
        return font(round(px * self.frame.scale), bold)

    def fpx(self, frac: float) -> int:
        """A font size (supersampled px) as a fraction of the hex size."""
        return max(6, round(self.s * frac))

    def segment(self, seg: geo.Segment, color: RGB, width: int) -> None:
        if isinstance(seg, geo.Line):
            self.draw.line([seg.a, seg.b], fill=color, width=width)
            return
        cx, cy = seg.center
        r = seg.radius + width / 2
        self.draw.arc((cx - r, cy - r, cx + r, cy + r), seg.start - 0.5, seg.end + 0.5, fill=color, width=width)

    def city_extent(self, node: Node) -> float:
        slots = max(1, node.slots)
        r = geo.slot_radius(self.s, slots)
        return r * (1 if slots == 1 else 2 if slots in (2, 3, 4) else 2.6)

    def strip_size(self, revenue: dict[str, int]) -> tuple[list[float], float]:
        """Widths of the boxes of a phase-revenue strip, and its height."""
        f = font(self.fpx(0.2), True)
        widths = [max(text_size(str(v), f)[0], self.s * 0.22) + self.s * 0.1 for v in revenue.values()]
        return widths, self.s * 0.3


def in_frame(game: Game, frame: MapFrame, also: set[str]) -> dict[str, HexState]:
    """The board's hexes that show in ``frame`` (their centre at most two hex sizes outside it:
    a hex's names and markers stay near it), and those in ``also``, in the board's order."""
    m = 2 * frame.size
    out = {}
    for hid, h in game.board.hexes.items():
        x, y = frame.center(hid)
        if hid in also or (-m <= x <= frame.width + m and -m <= y <= frame.height + m):
            out[hid] = h
    return out
