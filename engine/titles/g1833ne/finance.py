"""1833NE finance (the 1846 system): incremental capitalization at the current price, the
certificate limit, share sales, the linear market's price moves, full/half/no dividends, and
issuing and redeeming treasury shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...entities import POOL, Corporation, Share
from ...errors import RULE, GameError
from ...market import Cell
from ...rounds.operating import OperatingRound
from . import market as M

if TYPE_CHECKING:
    from .game import G1833NE


def can_par(g: G1833NE, pid: str, corp: Corporation) -> bool:
    if corp.ipoed or corp.closed:
        return False
    if corp.home is None:  # a takeover-game corporation: from phase II, where a city is free
        return g.phase_index >= g.phase_index_of(g.data.TAKEOVER_START_PHASE) and bool(g.variable_homes(corp))
    return True


def par_prices(g: G1833NE, corp: Corporation) -> list[Cell]:
    """Start prices allowed for ``corp``: a takeover corporation whose only homes cost
    $120 must start at $60 or more."""
    cells = list(g.market.par_prices)
    if corp.home is None and not any(
        h[2] < g.data.TAKEOVER_HOME_TOKEN_PRICE["other"] for h in g.variable_homes(corp)
    ):
        cells = [c for c in cells if c.price >= g.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN]
    return cells


def transfer_share_from_ipo(g: G1833NE, pid: str, share: Share, par_price: int) -> None:
    """Incremental capitalization: every treasury share pays the current price (the
    president's 20% twice the start price) to the corporation."""
    corp = g.corporations[share.corporation]
    assert corp.price is not None
    price = corp.price.price * share.percent // 10
    g.spend(pid, corp.sym, price)
    g.move_share(share, pid)
    g.log.append(f"{g.name_of(pid)} buys {share.percent}% of {corp.sym} from the treasury for {g.fmt(price)}")


def can_sell_hook(g: G1833NE, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
    corp = g.corporations[sym]
    if not corp.operated and corp.president != pid:
        return f"before {sym} has operated only its president may sell"
    return None


def price_drop_after_sale(
    g: G1833NE, corp: Corporation, shares: list[Share], percent: int | None, was_president: bool
) -> None:
    """Summary: only the president's sales move the price, one column however many (the
    seller was president before the sale)."""
    total = sum(s.percent for s in shares)
    sold = total if percent is None else min(percent, total)
    if sold and was_president:
        g.move_price(corp, "left")


def finish_stock_round(g: G1833NE) -> None:
    """Summary: at the end of the stock round corporations with shares in the market
    fall one column; those 100% in players' hands rise one."""
    for corp in sorted(
        (c for c in g.corporations.values() if c.ipoed and not c.closed), key=g.operating_sort_key
    ):
        if g.percent_of(POOL, corp.sym) > 0:
            g.move_price(corp, "left")
        elif g.player_percent(corp.sym) >= 100:
            g.move_price(corp, "right")
    g._or_set_size = g.phase["operating_rounds"]


def move_price(g: G1833NE, corp: Corporation, direction: str) -> None:
    step = {"right": 1, "up": 1, "left": -1, "down": -1}[direction]
    shift_price(g, corp, step)


def shift_price(g: G1833NE, corp: Corporation, columns: int) -> None:
    cell = corp.price
    if cell is None or columns == 0 or corp.closed:
        return
    target = M.shifted(g.market, cell, columns)
    corp.price = g.market.move(corp.sym, cell, target)
    g.log_price_move(corp.sym, "right" if columns > 0 else "left", cell.price, target.price)
    if "close" in target.types:
        g.close_corporation(corp)


def corporations_in_play(g: G1833NE) -> int:
    return sum(1 for c in g.corporations.values() if not c.closed)


def cert_limit(g: G1833NE) -> int:
    table: dict[int, int] = g.data.CERT_LIMIT[len(g.players)]
    n = max(min(corporations_in_play(g), max(table)), min(table))
    return table[n]


def can_choose_dividend(g: G1833NE, rnd: OperatingRound, corp: Corporation) -> bool:
    revenue: int = sum(r["revenue"] for r in rnd.state.get("routes", []))
    return revenue > 0


def pay_dividend(g: G1833NE, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
    """Full, half or no payout; treasury shares earn for the corporation, market shares
    for nobody (decision).  The price moves by the payout per share against the price;
    withholding moves it one column left."""
    revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
    assert corp.price is not None
    price = corp.price.price
    if kind == "withhold" or revenue <= 0:
        if revenue > 0:
            g.bank_pays(corp.sym, revenue)
            g.log.append(f"{corp.sym} withholds {g.fmt(revenue)}")
        else:
            g.log.append(f"{corp.sym} earns nothing")
        shift_price(g, corp, -1)
    else:
        paid = revenue if kind == "payout" else revenue // 2
        per_share = paid // 10
        kept = revenue - per_share * 10
        paid_to: list[str] = []
        for p in g.players:
            n = g.percent_of(p.id, corp.sym) // 10
            if n:
                g.bank_pays(p.id, per_share * n)
                paid_to.append(f"{g.fmt(per_share * n)} to {p.name}")
        treasury = g.percent_of(corp.sym, corp.sym) // 10
        g.bank_pays(corp.sym, per_share * treasury + kept)
        if treasury:
            paid_to.append(f"{g.fmt(per_share * treasury)} to {corp.sym}'s treasury shares")
        how = "pays out" if kind == "payout" else "pays half of"
        g.log.append(
            f"{corp.sym} {how} {g.fmt(revenue)} = {g.fmt(per_share)} per share"
            + (f" ({', '.join(paid_to)})" if paid_to else "")
            + (f" and keeps {g.fmt(kept)}" if kept else "")
        )
        shift_price(g, corp, M.dividend_move(per_share, price))
    rnd.state["dividend_done"] = True


def issue_options(g: G1833NE, corp: Corporation) -> list[tuple[int, int]]:
    """(shares, money) the corporation may issue now (normal issue)."""
    if corp.price is None:
        return []
    each = M.issue_price(g.market, corp.price)
    if each <= 0:
        return []
    return [(n, n * each) for n in range(1, issuable_count(g, corp) + 1)]


def redeem_options(g: G1833NE, corp: Corporation) -> list[tuple[int, int]]:
    if corp.price is None:
        return []
    each = M.redeem_price(g.market, corp.price)
    pool = g.percent_of(POOL, corp.sym) // 10
    return [(n, n * each) for n in range(1, pool + 1) if n * each <= corp.cash]


def issue_shares(g: G1833NE, corp: Corporation, num: int) -> None:
    opts = dict(g.issue_options(corp))
    if num not in opts:
        raise GameError(f"{corp.sym} cannot issue {num} share(s) now", RULE)
    shares = [s for s in g.ipo_shares(corp.sym) if not s.president][:num]
    for s in shares:
        g.move_share(s, POOL)
    g.bank_pays(corp.sym, opts[num])
    g.log.append(f"{corp.sym} issues {num} share(s) for {g.fmt(opts[num])}")


def redeem_shares(g: G1833NE, corp: Corporation, num: int) -> None:
    opts = dict(g.redeem_options(corp))
    if num not in opts:
        raise GameError(f"{corp.sym} cannot redeem {num} share(s) now", RULE)
    shares = g.pool_shares(corp.sym)[:num]
    for s in shares:
        g.move_share(s, corp.sym)
    g.spend(corp.sym, "bank", opts[num])
    if g.percent_of(POOL, corp.sym) <= g.MARKET_SHARE_LIMIT:
        g.pool_overflow.discard(corp.sym)
    g.log.append(f"{corp.sym} redeems {num} share(s) for {g.fmt(opts[num])}")


def issuable_count(g: G1833NE, corp: Corporation) -> int:
    """Summary: as many shares as players hold, less those already in the market."""
    players = g.player_percent(corp.sym) // 10
    market = g.percent_of(POOL, corp.sym) // 10
    treasury = len([s for s in g.ipo_shares(corp.sym) if not s.president])
    room = (g.MARKET_SHARE_LIMIT - g.percent_of(POOL, corp.sym)) // 10
    return max(0, min(players - market, treasury, room))


def player_value(g: G1833NE, player: Any) -> int:
    value = player.cash
    for s in g.shares.values():
        if s.owner == player.id:
            value += g.share_price_value(s)
    if g.phase_index < g.phase_index_of("III"):
        value += sum(g.companies[c].value for c in player.companies if not g.companies[c].closed)
    return int(value)
