"""1833NE's linear market ($0-$730): price moves after dividends, share sales, the end of
the stock round, and the prices of issued and redeemed shares (the 1846 financial system)."""

from __future__ import annotations

from ...market import Cell, StockMarket


def shifted(market: StockMarket, cell: Cell, columns: int) -> Cell:
    """The space ``columns`` to the right (negative: left), stopping at either end."""
    col = max(0, min(len(market.grid[0]) - 1, cell.col + columns))
    target = market.cell(cell.row, col)
    assert target is not None
    return target


def dividend_move(per_share: int, price: int) -> int:
    """Columns to move after paying ``per_share`` (rules summary "Linearer Markt"): less than
    half the price: left 1; half to below the price: none; at least the price: right 1; at
    least twice: right 2; at least three times and the price already $165 or more: right 3."""
    if per_share * 2 < price:
        return -1
    if per_share < price:
        return 0
    if per_share >= 3 * price and price >= 165:
        return 3
    if per_share >= 2 * price:
        return 2
    return 1


def issue_price(market: StockMarket, cell: Cell) -> int:
    """What the corporation gets for each share it issues: the price one column left
    (18xx.games ``issuable_shares``); the price itself does not move."""
    return shifted(market, cell, -1).price


def redeem_price(market: StockMarket, cell: Cell) -> int:
    """What the corporation pays for each share it redeems: the price one column right."""
    return shifted(market, cell, 1).price


def emergency_issue(market: StockMarket, cell: Cell, num: int) -> tuple[Cell, int]:
    """Emergency issue of ``num`` shares (rules summary "Notverkauf"): the price falls one
    column per share, and each share brings the price one column left of the new price
    (18xx.games: ``[:left] * (1 + num)``).  Returns (new price, money per share)."""
    new = shifted(market, cell, -num)
    return new, shifted(market, cell, -num - 1).price


MIN_EMERGENCY_PRICE = 20  # summary: no emergency issue that would take the price below $20
