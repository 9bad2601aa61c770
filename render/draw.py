"""Small drawing helpers on top of Pillow: centred text with a halo, badges, PNG output."""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

from .fonts import FontType, font
from .palette import INK, RGB, WHITE

Point = tuple[float, float]


def text_size(text: str, fnt: FontType) -> tuple[float, float]:
    left, top, right, bottom = fnt.getbbox(text)
    return right - left, bottom - top


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def fit_size(text: str, max_width: float, size: int, bold: bool = False, min_size: int = 6) -> int:
    """Largest font size <= ``size`` whose rendering of ``text`` is at most ``max_width`` wide."""
    while size > min_size and font(size, bold).getlength(text) > max_width:
        size -= 1
    return size


def center_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    fnt: FontType,
    fill: RGB = INK,
    halo: RGB | None = None,
    halo_width: int = 0,
) -> None:
    """Draw ``text`` centred on ``xy`` (middle of its ink), optionally with a halo."""
    if halo is not None and halo_width > 0:
        draw.text(xy, text, font=fnt, fill=fill, anchor="mm", stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


@functools.lru_cache(maxsize=4096)
def _sprite(text: str, fnt: FontType, fill: RGB, halo: RGB | None, halo_width: int) -> tuple[Image.Image, int, int]:
    """``text`` drawn once on a transparent image; offsets place its ink centre at (0, 0)."""
    stroke = halo_width if halo is not None else 0
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = probe.multiline_textbbox((0, 0), text, font=fnt, anchor="mm", align="center",
                                                        stroke_width=stroke, spacing=0)
    left, top = int(left) - 1, int(top) - 1
    sprite = Image.new("RGBA", (int(right) - left + 2, int(bottom) - top + 2), (*fill, 0))
    ImageDraw.Draw(sprite).multiline_text((-left, -top), text, font=fnt, fill=(*fill, 255), anchor="mm",
                                          align="center", spacing=0, stroke_width=stroke,
                                          stroke_fill=(*halo, 255) if halo is not None else None)
    return sprite, left, top


def paste_text(img: Image.Image, xy: Point, text: str, fnt: FontType, fill: RGB = INK,
               halo: RGB | None = None, halo_width: int = 0) -> None:
    """Like :func:`center_text` (multi-line allowed), through a cache of rendered texts: a map
    repeats many texts, and Pillow's text rendering is the slow part of drawing one."""
    sprite, left, top = _sprite(text, fnt, tuple(fill), tuple(halo) if halo else None, halo_width)
    img.paste(sprite, (round(xy[0]) + left, round(xy[1]) + top), sprite)


def left_text(draw: ImageDraw.ImageDraw, xy: Point, text: str, fnt: FontType, fill: RGB = INK) -> None:
    """Draw ``text`` with its left edge at x and its vertical middle at y."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="lm")


def circle(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: RGB | None,
           outline: RGB | None = INK, width: int = 1) -> None:
    x, y = center
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)


def badge(draw: ImageDraw.ImageDraw, center: Point, text: str, fnt: FontType, fill: RGB,
          text_fill: RGB = INK, outline: RGB | None = INK, pad: float = 3, width: int = 1) -> None:
    """A rounded rectangle around centred ``text``."""
    w, h = text_size(text, fnt)
    x, y = center
    box = (x - w / 2 - pad * 1.4, y - h / 2 - pad, x + w / 2 + pad * 1.4, y + h / 2 + pad)
    draw.rounded_rectangle(box, radius=min(h / 2 + pad, 8 + pad), fill=fill, outline=outline, width=width)
    center_text(draw, center, text, fnt, fill=text_fill)


def to_png(img: Image.Image, supersample: int = 1, palette: bool = False) -> bytes:
    """Downsample a supersampled drawing and encode it as PNG (fast compression).

    ``palette`` reduces it to 256 colours first: about half the encoding time and size."""
    if supersample > 1:
        img = img.reduce(supersample)
    if palette:
        img = img.quantize(256, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


__all__ = ["WHITE", "badge", "center_text", "circle", "fit_size", "left_text", "paste_text", "text_size",
           "text_width", "to_png"]
