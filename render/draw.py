"""Small drawing helpers on top of Pillow: centred text with a halo, badges, PNG output."""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

from .fonts import FontType, font
from .palette import INK, RGB, WHITE

Point = tuple[float, float]


# Measuring a text lays it out with FreeType (a fifth of a map's drawing time); a map, and the
# next map of the same game, measure the same names, numbers and symbols again and again.
@functools.lru_cache(maxsize=16384)
def text_size(text: str, fnt: FontType) -> tuple[float, float]:
    """Width and height of the ink of ``text`` (cached: fonts come from :func:`font`, one object
    per size)."""
    left, top, right, bottom = fnt.getbbox(text)
    return right - left, bottom - top


@functools.lru_cache(maxsize=16384)
def text_length(text: str, fnt: FontType) -> float:
    """``fnt.getlength(text)``, the advance width of ``text`` (cached like :func:`text_size`)."""
    return fnt.getlength(text)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return text_length(text, font(size, bold))


def fit_size(text: str, max_width: float, size: int, bold: bool = False, min_size: int = 6) -> int:
    """Largest font size <= ``size`` whose rendering of ``text`` is at most ``max_width`` wide."""
    while size > min_size and text_width(text, size, bold) > max_width:
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


def text_box(xy: Point, text: str, fnt: FontType) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) of the ink of ``text`` centred at ``xy`` as
    :func:`paste_text` draws it (multi-line allowed)."""
    left, top, right, bottom = _ink_box(text, fnt)
    return xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom


@functools.lru_cache(maxsize=4096)
def _ink_box(text: str, fnt: FontType) -> tuple[float, float, float, float]:
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    box = probe.multiline_textbbox((0, 0), text, font=fnt, anchor="mm", align="center", spacing=0)
    return float(box[0]), float(box[1]), float(box[2]), float(box[3])


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


PALETTE_PROBE = 3  # the palette is chosen on every third pixel of every third row


def to_png(img: Image.Image, supersample: int = 1, palette: bool = False) -> bytes:
    """Downsample a supersampled drawing and encode it as PNG (fast compression).

    ``palette`` reduces it to 256 colours first: about half the encoding time and size. The colours
    are chosen (fast octree) on a sample of the pixels, then every pixel takes the nearest: a third
    of the time of choosing on all of them, as close to the drawing (a drawing's flat areas and
    anti-aliased edges repeat everywhere; the sample holds anything larger than 3 px)."""
    if supersample > 1:
        img = img.reduce(supersample)
    return encode_png(img, palette)


def encode_png(img: Image.Image, palette: bool = False) -> bytes:
    """:func:`to_png` of an image drawn at its final size."""
    if palette:
        probe = img.resize((max(1, img.width // PALETTE_PROBE), max(1, img.height // PALETTE_PROBE)),
                           Image.Resampling.NEAREST)
        chosen = probe.quantize(256, method=Image.Quantize.FASTOCTREE)
        img = img.quantize(palette=chosen, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


__all__ = ["WHITE", "badge", "center_text", "circle", "encode_png", "fit_size", "left_text", "paste_text", "text_length",
           "text_size", "text_width", "to_png"]
