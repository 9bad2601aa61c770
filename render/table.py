"""A plain table layout for Pillow: measured column widths, header row, zebra stripes,
optional coloured chip cells (corporation colour + text, so colour is never the only cue)."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from .draw import paste_text, text_length
from .fonts import FontType, font
from .palette import INK, MUTED, RGB, WHITE

HEADER_FILL: RGB = (52, 58, 70)
STRIPE: RGB = (242, 240, 233)
PLAIN: RGB = (252, 251, 248)


@dataclass(frozen=True)
class Cell:
    """A table cell: text, optional chip colours, muted/bold style."""

    text: str
    chip: RGB | None = None
    chip_text: RGB = WHITE
    muted: bool = False
    bold: bool = False


CellLike = Cell | str | int | float | None


def as_cell(value: CellLike) -> Cell:
    if isinstance(value, Cell):
        return value
    if value is None:
        return Cell("")
    return Cell(str(value))


@dataclass
class Table:
    headers: list[str]
    rows: list[list[CellLike]]
    align: str = ""  # one letter per column: l / r / c (default: first l, others r)
    size: int = 17
    pad: int = 9
    row_h: int = 30
    # rows folded into one line each under the others: (label, chips), e.g. ("Closed:", [CA, GW])
    folds: list[tuple[str, list[Cell]]] = field(default_factory=list)

    def cells(self) -> list[list[Cell]]:
        return [[as_cell(v) for v in row] for row in self.rows]

    def alignment(self, col: int) -> str:
        if col < len(self.align):
            return self.align[col]
        return "l" if col == 0 else "r"

    def widths(self) -> list[float]:
        f, fb = font(self.size), font(self.size, True)
        widths = [text_length(h, fb) + 2 * self.pad for h in self.headers]
        for row in self.cells():
            for i, cell in enumerate(row):
                w = text_length(cell.text, fb if cell.bold or cell.chip else f) + 2 * self.pad
                if cell.chip is not None:
                    w += 10
                widths[i] = max(widths[i], w)
        return widths

    def _fold_width(self, label: str, chips: list[Cell]) -> float:
        fb = font(self.size, True)
        return (2 * self.pad + text_length(label, font(self.size))
                + sum(text_length(c.text, fb) + 14 + 6 for c in chips))

    def width(self) -> int:
        return int(max([sum(self.widths()), *(self._fold_width(*fold) for fold in self.folds)]))

    def height(self) -> int:
        return self.row_h * (len(self.rows) + 1 + len(self.folds))

    def draw(self, img: Image.Image, x: float, y: float) -> float:
        """Draw on ``img`` at (x, y); returns the y below the table."""
        draw = ImageDraw.Draw(img)
        widths = self.widths()
        total = float(self.width())
        widths[-1] += total - sum(widths)  # a long folded line widens the last column
        f, fb = font(self.size), font(self.size, True)
        draw.rectangle((x, y, x + total, y + self.row_h), fill=HEADER_FILL)
        cx = x
        for i, head in enumerate(self.headers):
            self._text(img, cx, y, widths[i], head, fb, WHITE, self.alignment(i))
            cx += widths[i]
        y += self.row_h
        for r, row in enumerate(self.cells()):
            draw.rectangle((x, y, x + total, y + self.row_h), fill=STRIPE if r % 2 else PLAIN)
            cx = x
            for i, cell in enumerate(row):
                fnt = fb if cell.bold or cell.chip else f
                if cell.chip is not None:
                    tw = text_length(cell.text, fnt) + 14
                    bx = cx + self.pad - 2 if self.alignment(i) == "l" else cx + (widths[i] - tw) / 2
                    self._chip(draw, bx, y, cell, fnt)
                else:
                    color = MUTED if cell.muted else INK
                    self._text(img, cx, y, widths[i], cell.text, fnt, color, self.alignment(i))
                cx += widths[i]
            y += self.row_h
        for r, (label, chips) in enumerate(self.folds, start=len(self.rows)):
            draw.rectangle((x, y, x + total, y + self.row_h), fill=STRIPE if r % 2 else PLAIN)
            self._text(img, x, y, total, label, f, MUTED, "l")
            cx = x + self.pad + text_length(label, f) + 6
            for chip in chips:
                cx += self._chip(draw, cx, y, chip, fb) + 6
            y += self.row_h
        draw.rectangle((x, y - self.height(), x + total, y), outline=(190, 186, 175))
        return y

    def _chip(self, draw: ImageDraw.ImageDraw, bx: float, y: float, cell: Cell, fnt: FontType) -> float:
        """A corporation's chip with its left edge at ``bx``; returns its width."""
        tw = text_length(cell.text, fnt) + 14
        draw.rounded_rectangle((bx, y + 4, bx + tw, y + self.row_h - 4), radius=6, fill=cell.chip,
                               outline=INK, width=1)
        draw.text((bx + tw / 2, y + self.row_h / 2), cell.text, font=fnt, fill=cell.chip_text, anchor="mm")
        return tw

    def _text(self, img: Image.Image, cx: float, y: float, w: float, text: str, fnt: FontType,
              color: RGB, align: str) -> None:
        mid = y + self.row_h / 2
        half = text_length(text, fnt) / 2  # pasted centred (cached sprites): the middle of its advance
        if align == "r":
            paste_text(img, (cx + w - self.pad - half, mid), text, fnt, color)
        elif align == "c":
            paste_text(img, (cx + w / 2, mid), text, fnt, color)
        else:
            paste_text(img, (cx + self.pad + half, mid), text, fnt, color)
