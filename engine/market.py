"""Stock market: a grid of share prices with zones, and price movements."""

from __future__ import annotations

from dataclasses import dataclass, field

# Zone letters used in market codes ("100p", "50y", "0c") and what they mean.
ZONE_NAMES = {
    "p": "par",
    "y": "no_cert_limit",
    "o": "unlimited",
    "b": "multiple_buy",
    "c": "close",
    "e": "endgame",
    "l": "ignore_one_sale",
}


@dataclass
class Cell:
    """One space of the market. ``corporations`` is the stack in arrival order."""

    row: int
    col: int
    price: int
    types: frozenset[str]
    corporations: list[str] = field(default_factory=list)

    @property
    def coordinates(self) -> tuple[int, int]:
        return (self.row, self.col)

    @property
    def can_par(self) -> bool:
        return "par" in self.types

    def __repr__(self) -> str:  # keep logs short
        return f"Cell({self.price}@{self.row},{self.col})"


def parse_code(code: str, row: int, col: int) -> Cell | None:
    if not code:
        return None
    digits = "".join(ch for ch in code if ch.isdigit())
    letters = code[len(digits):]
    types = frozenset(ZONE_NAMES.get(ch, ch) for ch in letters)
    return Cell(row, col, int(digits), types)


class StockMarket:
    """A 1D or 2D market. Movement follows the usual 18xx conventions:
    right at the end of a row moves up, left at the start of a row moves down."""

    def __init__(self, rows: list[list[str]]):
        self.grid: list[list[Cell | None]] = [
            [parse_code(code, r, c) for c, code in enumerate(row)] for r, row in enumerate(rows)
        ]
        self.par_prices = sorted(
            (cell for row in self.grid for cell in row if cell and cell.can_par),
            key=lambda cell: (cell.price, cell.col, cell.row),
            reverse=True,
        )
        self.one_d = len(self.grid) == 1

    def cell(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]):
            return self.grid[row][col]
        return None

    def par_cell(self, price: int) -> Cell | None:
        return next((c for c in self.par_prices if c.price == price), None)

    def cell_from_id(self, text: str) -> Cell:
        """Parse an 18xx.games share price id such as ``"65,5,4"`` (price,row,col)."""
        price, row, col = (int(x) for x in str(text).split(","))
        cell = self.cell(row, col)
        if cell is None or cell.price != price:
            raise ValueError(f"no share price {text}")
        return cell

    # Movement targets -------------------------------------------------
    def right_of(self, cell: Cell) -> Cell:
        nxt = self.cell(cell.row, cell.col + 1)
        if nxt is not None:
            return nxt
        return cell if self.one_d else self.up_of(cell)

    def left_of(self, cell: Cell) -> Cell:
        nxt = self.cell(cell.row, cell.col - 1) if cell.col > 0 else None
        if nxt is not None:
            return nxt
        return cell if self.one_d else self.down_of(cell)

    def up_of(self, cell: Cell) -> Cell:
        if self.one_d:
            return self.right_of(cell)
        nxt = self.cell(cell.row - 1, cell.col) if cell.row > 0 else None
        return nxt or cell

    def down_of(self, cell: Cell) -> Cell:
        if self.one_d:
            return self.left_of(cell)
        nxt = self.cell(cell.row + 1, cell.col)
        return nxt or cell

    @staticmethod
    def move(sym: str, src: Cell, dst: Cell) -> Cell:
        """Move corporation ``sym`` from ``src`` to ``dst``; it joins the end of the stack."""
        if dst is src:
            return src
        if sym in src.corporations:
            src.corporations.remove(sym)
        dst.corporations.append(sym)
        return dst
