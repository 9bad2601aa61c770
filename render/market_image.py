"""The stock market as a PNG: the price grid with coloured zones, the corporations'
tokens stacked in arrival order (first arrived on top), and a legend of the zones.

A one-row market (1833NE) is wrapped onto several lines, read left to right, top to bottom.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import TypeVar

from PIL import Image, ImageDraw

from engine.game import Game
from engine.market import Cell

from .draw import paste_text, text_width, to_png
from .fonts import font
from .palette import (
    BACKGROUND,
    INK,
    MARKET_PLAIN,
    MARKET_ZONES,
    MUTED,
    ZONE_PRIORITY,
    corp_colors,
)

T = TypeVar("T")  # what a market cell holds where it is drawn

CELL_W = 70
CELL_H = 30  # price line
TOKEN_H = 30  # a token's chip: its name in TOKEN_FONT px, legible when a phone shrinks the picture
TOKEN_FONT = 22
MARGIN = 16
TITLE_H = 34
MAX_PER_LINE = 18  # wrapping of a one-row market
LEGEND_ORDER = ("par", "no_cert_limit", "unlimited", "multiple_buy", "endgame", "close")


Grid = list[list[Cell | None]]


def zone_of(cell: Cell) -> str | None:
    """The zone a market cell is drawn in (the most significant of its types)."""
    return next((z for z in ZONE_PRIORITY if z in cell.types), None)


def layout_rows(grid: Grid) -> Grid:
    """Rows as drawn: a 2D market as is; a one-row market wrapped into lines."""
    if len(grid) != 1:
        return grid
    row = grid[0]
    per = min(MAX_PER_LINE, max(1, (len(row) + 1) // 2)) if len(row) > MAX_PER_LINE else len(row)
    return [row[i:i + per] for i in range(0, len(row), per)]


def render_market(game: Game) -> bytes:
    """PNG of the stock market of ``game``."""
    grid = game.market.grid
    rows = layout_rows(grid)
    heights = []
    for row in rows:
        stack = max((len(c.corporations) for c in row if c is not None), default=0)
        heights.append(CELL_H + max(1, stack) * TOKEN_H + 6)
    cells = tuple(tuple((game.fmt(c.price), zone_of(c)) if c is not None else None for c in row) for row in rows)
    img = _grid(str(game.title), cells, tuple(heights), len(grid) == 1).copy()
    draw = ImageDraw.Draw(img)
    f_tok = font(TOKEN_FONT, True)
    for x, y, _, cell in _placed(rows, heights, _gap(len(grid) == 1)):
        for i, sym in enumerate(cell.corporations):
            cf, ct = corp_colors(game.corporations.get(sym))
            ty = y + CELL_H + i * TOKEN_H
            draw.rounded_rectangle((x + 3, ty, x + CELL_W - 3, ty + TOKEN_H - 2), radius=8, fill=cf,
                                   outline=INK if sum(cf) > 600 or sum(cf) < 120 else cf, width=1)
            size = TOKEN_FONT
            while size > 10 and text_width(sym, size, True) > CELL_W - 10:
                size -= 1
            fnt = f_tok if size == TOKEN_FONT else font(size, True)
            paste_text(img, (x + CELL_W / 2, ty + (TOKEN_H - 2) / 2), sym, fnt, ct)
    return to_png(img, palette=True)


def _placed(rows: Sequence[Sequence[T | None]], heights: Sequence[int], gap: int) -> Iterator[tuple[int, int, int, T]]:
    """Each cell of the market with its left and top edges and its line's height."""
    y = MARGIN + TITLE_H
    for row, h in zip(rows, heights, strict=True):
        for col, cell in enumerate(row):
            if cell is not None:
                yield MARGIN + col * CELL_W, y, h, cell
        y += h + gap


def _gap(one_d: bool) -> int:
    """Between the lines of a wrapped one-row market."""
    return 10 if one_d else 0


Cells = tuple[tuple[tuple[str, str | None] | None, ...], ...]  # per line: each cell's price text and zone


@functools.lru_cache(maxsize=4)  # at most about 5 MB each (1856's market)
def _grid(title: str, cells: Cells, heights: tuple[int, ...], one_d: bool) -> Image.Image:
    """The market without its tokens: the title, the cells with their prices (each line
    ``heights`` high) and the legend (only read: a market is drawn on a copy). Tokens stay inside
    their cells, so drawing them after every cell draws the pixels drawing them cell by cell did."""
    ncols = max((len(r) for r in cells), default=0)
    present = {c[1] for row in cells for c in row if c is not None}
    zones = [z for z in LEGEND_ORDER if z in present]
    f_price, f_leg, f_title = font(18, True), font(16), font(20, True)
    legend_h = 28 * ((len(zones) + 1) // 2) + 12
    width = MARGIN * 2 + ncols * CELL_W
    width = max(width, 760)
    gap = _gap(one_d)
    height = MARGIN + TITLE_H + sum(heights) + gap * (len(cells) - 1) + legend_h + MARGIN
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title = f"{title} stock market".strip()
    draw.text((MARGIN, MARGIN + TITLE_H / 2 - 4), title, font=f_title, fill=INK, anchor="lm")
    for x, y, h, (price, zone) in _placed(cells, heights, gap):
        fill, ink, _ = MARKET_ZONES[zone] if zone else (MARKET_PLAIN, INK, "")
        draw.rectangle((x, y, x + CELL_W, y + h), fill=fill, outline=(150, 146, 138))
        paste_text(img, (x + CELL_W / 2, y + CELL_H / 2 + 1), price, f_price, ink)
        if zone == "par":
            draw.rectangle((x + 2, y + 2, x + CELL_W - 2, y + h - 2), outline=(190, 40, 40), width=2)
    # legend
    y = MARGIN + TITLE_H + sum(heights) + gap * len(cells) + 10
    col_w = (width - 2 * MARGIN) // 2
    for i, zone in enumerate(zones):
        fill, _, text = MARKET_ZONES[zone]
        lx = MARGIN + (i % 2) * col_w
        ly = y + (i // 2) * 28
        draw.rectangle((lx, ly + 2, lx + 24, ly + 22), fill=fill, outline=MUTED)
        if zone == "par":
            draw.rectangle((lx + 2, ly + 4, lx + 22, ly + 20), outline=(190, 40, 40), width=2)
        draw.text((lx + 32, ly + 12), text, font=f_leg, fill=INK, anchor="lm")
    return img
