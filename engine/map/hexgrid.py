"""Hex coordinates, neighbours and pixel geometry, following 18xx.games conventions.

Hex ids are a letter part and a number part (``H6``, ``N11``, ``AA3``). 18xx.games maps
them onto a "doubled" coordinate system:

* one axis comes from the letter (``A`` = 0, ... ``Z`` = 25, ``AA`` = 26 ...; lower-case
  ``a``, ``b`` ... are -1, -2 ...), the other from the number minus one;
* which axis is which is the game's ``AXES``; when a title does not set it the default
  depends on the layout: ``flat`` -> x = letter, y = number; ``pointy`` -> x = number,
  y = letter.  1856 and 1833NE are ``flat``; 1836Jr56 is ``pointy``; none sets ``AXES``.

Edges are numbered 0..5 exactly as 18xx.games numbers them (``Engine::Hex::DIRECTIONS``),
with screen y growing downwards:

* flat (flat-topped hexes): 0 = bottom, 1 = lower-left, 2 = upper-left, 3 = top,
  4 = upper-right, 5 = lower-right (clockwise on screen).  Neighbour offsets (dx, dy):
  0: (0, +2), 1: (-1, +1), 2: (-1, -1), 3: (0, -2), 4: (+1, -1), 5: (+1, +1).
* pointy (pointy-topped hexes): 0 = lower-left, 1 = left, 2 = upper-left, 3 = upper-right,
  4 = right, 5 = lower-right.  Offsets: 0: (-1, +1), 1: (-2, 0), 2: (-1, -1), 3: (+1, -1),
  4: (+2, 0), 5: (+1, +1).

Pixel geometry matches the 18xx.games map view: a hex of circumradius ``size`` is centred
at ``(1.5 * size * x, sqrt(3)/2 * size * y)`` for flat and ``(sqrt(3)/2 * size * x,
1.5 * size * y)`` for pointy, offset so the map's minimum (x, y) sits at ``(size, size)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Literal

Layout = Literal["flat", "pointy"]
AxisSource = Literal["letter", "number"]
Axes = tuple[AxisSource, AxisSource]
"""``(source of x, source of y)``, e.g. ``("letter", "number")``."""

LETTER_X: Axes = ("letter", "number")
NUMBER_X: Axes = ("number", "letter")

EDGES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

DIRECTIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}
"""Offset (dx, dy) to the neighbour across edge ``i`` (index in the tuple)."""

_OFFSET_TO_EDGE: dict[str, dict[tuple[int, int], int]] = {
    layout: {offset: edge for edge, offset in enumerate(offsets)} for layout, offsets in DIRECTIONS.items()
}

# Screen angle (degrees, y down, so increasing angles turn clockwise) from a hex centre to
# the midpoint of edge 0; edge k is 60 * k further round.
_EDGE0_ANGLE: dict[str, float] = {"flat": 90.0, "pointy": 120.0}

_ID_RE = re.compile(r"^([A-Za-z]+)(-?[0-9]+)$")
_SQRT3 = math.sqrt(3.0)


def default_axes(layout: Layout) -> Axes:
    """The axes 18xx.games uses when a title does not set ``AXES``."""
    return LETTER_X if layout == "flat" else NUMBER_X


def _letters_to_index(letters: str) -> int:
    if letters.islower():
        if len(letters) != 1:
            raise ValueError(f"unsupported negative letter coordinate {letters!r}")
        return -(ord(letters) - ord("a") + 1)
    if not letters.isupper():
        raise ValueError(f"mixed-case letter coordinate {letters!r}")
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def _index_to_letters(index: int) -> str:
    if index < 0:
        if index < -26:
            raise ValueError(f"letter index {index} out of range")
        return chr(ord("a") - index - 1)
    value = index + 1
    out = ""
    while value > 0:
        value, rem = divmod(value - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def split_id(hex_id: str) -> tuple[str, int]:
    """``"AA12"`` -> ``("AA", 12)``."""
    match = _ID_RE.match(hex_id.strip())
    if not match:
        raise ValueError(f"not a hex id: {hex_id!r}")
    return match.group(1), int(match.group(2))


def coord(hex_id: str, layout: Layout = "flat", axes: Axes | None = None) -> tuple[int, int]:
    """(x, y) of ``hex_id`` in 18xx.games' doubled coordinates."""
    letters, number = split_id(hex_id)
    x_src, y_src = axes or default_axes(layout)
    letter_val = _letters_to_index(letters)
    number_val = number - 1
    x = letter_val if x_src == "letter" else number_val
    y = letter_val if y_src == "letter" else number_val
    return x, y


def _make_id(x: int, y: int, layout: Layout, axes: Axes | None) -> str:
    x_src, _ = axes or default_axes(layout)
    letter_val, number_val = (x, y) if x_src == "letter" else (y, x)
    return f"{_index_to_letters(letter_val)}{number_val + 1}"


def hex_id(x: int, y: int, layout: Layout = "flat", axes: Axes | None = None) -> str:
    """Inverse of :func:`coord`."""
    return _make_id(x, y, layout, axes)


def opposite(edge: int) -> int:
    """The edge facing ``edge`` from the neighbouring hex."""
    return (edge + 3) % 6


def neighbor(hex_id: str, edge: int, layout: Layout, axes: Axes | None = None) -> str:
    """Id of the hex across ``edge`` of ``hex_id`` (whether or not it is on a map)."""
    x, y = coord(hex_id, layout, axes)
    dx, dy = DIRECTIONS[layout][edge % 6]
    return _make_id(x + dx, y + dy, layout, axes)


def neighbors(hex_id: str, layout: Layout, axes: Axes | None = None) -> dict[int, str]:
    """``{edge: neighbour id}`` for all six edges."""
    return {edge: neighbor(hex_id, edge, layout, axes) for edge in EDGES}


def edge_between(a: str, b: str, layout: Layout, axes: Axes | None = None) -> int | None:
    """The edge of ``a`` facing ``b``, or None when they are not adjacent."""
    ax, ay = coord(a, layout, axes)
    bx, by = coord(b, layout, axes)
    return _OFFSET_TO_EDGE[layout].get((bx - ax, by - ay))


def distance(a: str, b: str, layout: Layout, axes: Axes | None = None) -> int:
    """Number of hex steps between ``a`` and ``b``."""
    ax, ay = coord(a, layout, axes)
    bx, by = coord(b, layout, axes)
    dx, dy = abs(bx - ax), abs(by - ay)
    if layout == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)


def edge_angle_degrees(edge: int, layout: Layout) -> float:
    """Screen angle (y down) from a hex centre towards the midpoint of ``edge``."""
    return (_EDGE0_ANGLE[layout] + 60.0 * (edge % 6)) % 360.0


def map_origin(hex_ids: Iterable[str], layout: Layout, axes: Axes | None = None) -> tuple[int, int]:
    """Minimum (x, y) over a map's hexes: pass it as ``origin`` to the pixel helpers."""
    coords = [coord(h, layout, axes) for h in hex_ids]
    if not coords:
        return 0, 0
    return min(c[0] for c in coords), min(c[1] for c in coords)


def hex_center(
    hex_id: str,
    layout: Layout,
    size: float,
    axes: Axes | None = None,
    origin: tuple[int, int] = (0, 0),
) -> tuple[float, float]:
    """Pixel centre of a hex of circumradius ``size``; the hex at ``origin`` is at (size, size)."""
    x, y = coord(hex_id, layout, axes)
    dx, dy = x - origin[0], y - origin[1]
    if layout == "flat":
        return size + 1.5 * size * dx, size + _SQRT3 / 2 * size * dy
    return size + _SQRT3 / 2 * size * dx, size + 1.5 * size * dy


def hex_corners(
    hex_id: str,
    layout: Layout,
    size: float,
    axes: Axes | None = None,
    origin: tuple[int, int] = (0, 0),
) -> list[tuple[float, float]]:
    """The six corners; edge k runs from corner k to corner (k + 1) % 6."""
    cx, cy = hex_center(hex_id, layout, size, axes, origin)
    corners = []
    for edge in EDGES:
        angle = math.radians(edge_angle_degrees(edge, layout) - 30.0)
        corners.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return corners


def edge_midpoint(
    hex_id: str,
    edge: int,
    layout: Layout,
    size: float,
    axes: Axes | None = None,
    origin: tuple[int, int] = (0, 0),
) -> tuple[float, float]:
    """Where track ending at ``edge`` leaves the hex (midpoint of that side)."""
    cx, cy = hex_center(hex_id, layout, size, axes, origin)
    angle = math.radians(edge_angle_degrees(edge, layout))
    apothem = _SQRT3 / 2 * size
    return cx + apothem * math.cos(angle), cy + apothem * math.sin(angle)


def hex_order(hex_id: str) -> tuple[str, int, str]:
    """Hexes in reading order: letters, then the number as a number (K6 before K10)."""
    letters = hex_id.rstrip("0123456789")
    digits = hex_id[len(letters):]
    return (letters, int(digits) if digits else 0, hex_id)
