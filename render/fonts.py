"""Fonts for the renderers: Roboto from the ``font-roboto`` pip package (Apache 2.0).

No system font is assumed.  When the package is missing, Pillow's built-in scalable
default font is used instead (legible, but the reference-image tests then skip).
"""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.cache
def font_files() -> dict[str, Path] | None:
    """``{"regular": path, "bold": path}`` from ``font_roboto``, or None when it is absent."""
    try:
        import font_roboto
    except ImportError:
        return None
    directory = Path(font_roboto.font_directory)
    regular, bold = directory / "Roboto-Regular.ttf", directory / "Roboto-Bold.ttf"
    if not (regular.is_file() and bold.is_file()):
        return None
    return {"regular": regular, "bold": bold}


def have_roboto() -> bool:
    """True when the packaged Roboto fonts are in use (renders are then reproducible)."""
    return font_files() is not None


@functools.lru_cache(maxsize=256)
def font(size: int, bold: bool = False) -> FontType:
    """Roboto (bold or regular) at ``size`` pixels; Pillow's default font as a fallback."""
    size = max(1, int(size))
    files = font_files()
    if files is not None:
        return ImageFont.truetype(str(files["bold" if bold else "regular"]), size)
    return ImageFont.load_default(size)
