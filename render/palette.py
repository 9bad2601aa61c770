"""Colours shared by the renderers (18xx.games map colours, market zones, route colours)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import ImageColor

if TYPE_CHECKING:
    from engine.entities import Corporation

RGB = tuple[int, int, int]

TILE_COLORS: dict[str, RGB] = {
    "white": (234, 224, 200),
    "yellow": (253, 233, 0),
    "green": (113, 191, 68),
    "brown": (203, 119, 69),
    "gray": (188, 189, 192),
    "black": (60, 60, 60),
    "red": (236, 35, 42),
    "blue": (53, 167, 255),
    "orange": (245, 130, 32),
    "purple": (150, 80, 190),
}

BACKGROUND: RGB = (250, 250, 247)
FRAME: RGB = (236, 233, 224)
INK: RGB = (20, 20, 20)
MUTED: RGB = (110, 110, 110)
WHITE: RGB = (255, 255, 255)
TRACK: RGB = (0, 0, 0)
HEX_OUTLINE: RGB = (120, 120, 120)
IMPASSABLE: RGB = (200, 20, 20)
WATER: RGB = (30, 110, 220)
MOUNTAIN: RGB = (120, 80, 40)

# Bright, mutually distinct route colours (readable on every tile colour).
ROUTE_COLORS: tuple[RGB, ...] = (
    (230, 25, 200),  # magenta
    (0, 200, 255),  # cyan
    (255, 120, 0),  # orange
    (120, 60, 255),  # violet
    (0, 220, 90),  # green
    (255, 40, 40),  # red
    (160, 110, 0),  # ochre
    (0, 90, 200),  # blue
)

# Stock market zones: (fill, text colour, legend text).
MARKET_ZONES: dict[str, tuple[RGB, RGB, str]] = {
    "par": ((250, 160, 160), INK, "par price (a corporation may start here)"),
    "no_cert_limit": ((255, 236, 90), INK, "yellow: shares don't count toward the certificate limit"),
    "unlimited": ((255, 160, 50), INK, "orange: not counted toward the limit, and may hold more than 60%"),
    "multiple_buy": ((190, 130, 80), INK, "brown: several shares may be bought at once"),
    "close": ((45, 45, 45), WHITE, "close: the corporation closes when it reaches this price"),
    "endgame": ((90, 150, 255), INK, "blue: the game ends when a share price reaches this space"),
}
MARKET_PLAIN: RGB = (246, 244, 238)

ZONE_PRIORITY = ("close", "endgame", "unlimited", "no_cert_limit", "multiple_buy", "par")


def rgb(value: object, default: RGB = (136, 136, 136)) -> RGB:
    """Parse ``"#abc"``, ``"#aabbcc"`` or a CSS colour name; ``default`` when unparseable."""
    if isinstance(value, tuple) and len(value) >= 3:
        return int(value[0]), int(value[1]), int(value[2])
    if not isinstance(value, str) or not value:
        return default
    if value in TILE_COLORS:
        return TILE_COLORS[value]
    try:
        parsed = ImageColor.getrgb(value)
    except ValueError:
        return default
    return parsed[0], parsed[1], parsed[2]


def luminance(color: RGB) -> float:
    r, g, b = color
    return 0.299 * r + 0.587 * g + 0.114 * b


def contrast(color: RGB) -> RGB:
    """Black or white, whichever reads better on ``color``."""
    return INK if luminance(color) > 140 else WHITE


def relative_luminance(color: RGB) -> float:
    """WCAG 2 relative luminance (0 black .. 1 white)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = color
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours (1 .. 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


MIN_TEXT_CONTRAST = 3.0  # WCAG's minimum for large or bold text: a token's name on its colour


def corp_colors(corp: Corporation | None) -> tuple[RGB, RGB]:
    """``(fill, text)`` of a corporation's token or chip: its colours, the text switched to
    black or white (whichever reads better, by the fill's luminance) when it contrasts too little
    with the fill (GT's white on light green); grey for an unknown corporation. A text colour is
    a CSS colour ("white" is white, not the map's cream)."""
    fill = rgb(corp.color if corp else None)
    text = _css(corp.text_color if corp else None, contrast(fill))
    if contrast_ratio(text, fill) < MIN_TEXT_CONTRAST:
        text = INK if contrast_ratio(INK, fill) >= contrast_ratio(WHITE, fill) else WHITE
    return fill, text


def _css(value: object, default: RGB) -> RGB:
    if isinstance(value, str) and value:
        try:
            parsed = ImageColor.getrgb(value)
        except ValueError:
            return default
        return parsed[0], parsed[1], parsed[2]
    return default


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
