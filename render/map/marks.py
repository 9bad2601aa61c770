"""Marks on a hex beside its tile's track and texts: icons (ports, tunnels, bridges), markers and
assignments (1856's port private, rights), a private company's block (a red tag with its symbol,
while a player owns it: no tile may be laid there), and the ports a title keeps beside the map's
tiles (1833NE's ferries: a port, tagged with its owner and the private doubling it, as 1856's
port private is drawn)."""

from __future__ import annotations

from ..draw import circle, text_size
from ..fonts import font
from ..palette import RGB, WHITE
from .canvas import MapCanvas
from .layout import Point, Spots

PORT = (40, 90, 170)
BLOCK = (185, 30, 35)  # a private's block: red, as a closed road
MARKER = (30, 30, 30)


def blocked(p: MapCanvas, hid: str, sym: str) -> None:
    """The blocking private's symbol on a red tag."""
    _tag(p, hid, sym, BLOCK)


def block_sample(p: MapCanvas, at: Point, half: float) -> None:
    """The red tag, small and empty, for the map's key."""
    x, y = at
    p.draw.rounded_rectangle((x - half * 1.4, y - half * 0.8, x + half * 1.4, y + half * 0.8), radius=half * 0.4,
                             fill=BLOCK)


def port(p: MapCanvas, hid: str, tags: list[str], drawn: bool) -> None:
    """A port (unless the hex's tile shows one) and its tags."""
    if not drawn:
        icon(p, p.spots[hid], "port")
    for tag in tags:
        marker(p, hid, tag)


def icon(p: MapCanvas, spots: Spots, name: str) -> None:
    r = p.s * 0.12
    spot = spots.best(spots.around()[::-1], r)
    if name == "port":
        circle(p.draw, spot, r, PORT, WHITE, max(1, p.frame.px(1)))
        anchor(p, spot, r * 0.75, WHITE)
    else:
        label = {"tunnel": "T", "bridge": "B"}.get(name, name[:1].upper())
        circle(p.draw, spot, r, (90, 90, 90), WHITE, max(1, p.frame.px(1)))
        p.text(spot, label, font(round(r * 1.2), True), fill=WHITE)


def anchor(p: MapCanvas, c: Point, r: float, color: RGB) -> None:
    x, y = c
    w = max(1, round(r * 0.22))
    p.draw.line([(x, y - r * 0.75), (x, y + r * 0.8)], fill=color, width=w)
    p.draw.line([(x - r * 0.45, y - r * 0.35), (x + r * 0.45, y - r * 0.35)], fill=color, width=w)
    p.draw.arc((x - r * 0.8, y - r * 0.4, x + r * 0.8, y + r * 0.85), 20, 160, fill=color, width=w)
    circle(p.draw, (x, y - r * 0.85), r * 0.18, None, color, w)


def marker(p: MapCanvas, hid: str, text: str) -> None:
    """A marker or assignment: white on a dark tag."""
    _tag(p, hid, text, MARKER)


def _tag(p: MapCanvas, hid: str, text: str, fill: RGB) -> None:
    """``text`` on a tag of colour ``fill`` where the hex has room (noted in ``p.tags``)."""
    spots = p.spots[hid]
    p.tags.setdefault(hid, []).append((text, fill))
    f = font(p.fpx(0.14), True)
    w, h = text_size(text, f)
    spot = spots.best_box(spots.around(), w / 2 + p.s * 0.05, h / 2 + p.s * 0.04)
    box = (spot[0] - w / 2 - p.s * 0.05, spot[1] - h / 2 - p.s * 0.04,
           spot[0] + w / 2 + p.s * 0.05, spot[1] + h / 2 + p.s * 0.04)
    p.draw.rounded_rectangle(box, radius=p.s * 0.05, fill=fill, outline=WHITE, width=p.frame.px(1))
    p.text(spot, text, f, fill=WHITE)


