"""1833NE finance (the 1846 system): incremental capitalization at the current price, the
certificate limit, share sales, the linear market's price moves, full/half/no dividends, and
issuing and redeeming treasury shares."""

from __future__ import annotations

from typing import Any

from ...entities import POOL, Corporation, Share
from ...errors import RULE, GameError
from ...market import Cell, StockMarket
from ...mechanics.revenue import DividendEffect
from ...rounds.operating import OperatingRound
from .base import G1833NEBase


def shares_text(num: int) -> str:
    """"1 share", "3 shares"."""
    return f"{num} share" if num == 1 else f"{num} shares"


# The linear market ($0-$730): the spaces prices move to and what issued and redeemed shares fetch.

_COLUMNS = {"right": 1, "up": 1, "left": -1, "down": -1}  # a step of the price on the linear market


def shifted(market: StockMarket, cell: Cell, columns: int) -> Cell:
    """The space ``columns`` to the right (negative: left), stopping at either end."""
    col = max(0, min(len(market.grid[0]) - 1, cell.col + columns))
    target = market.cell(cell.row, col)
    assert target is not None
    return target


def dividend_move(paid: int, price: int) -> int:
    """Columns to move after the corporation pays out ``paid`` in all (rules summary "Linearer
    Markt": "Schüttet eine Gesellschaft weniger als die Hälfte des Kurses aus": what the
    corporation pays out, not a share's part; 18xx.games' 1846, whose market this is, compares
    the revenue less what the corporation keeps): less than half the price: left 1; half to
    below the price: none; at least the price: right 1; at least twice: right 2; at least three
    times and the price already $165 or more: right 3."""
    if paid * 2 < price:
        return -1
    if paid < price:
        return 0
    if paid >= 3 * price and price >= 165:
        return 3
    if paid >= 2 * price:
        return 2
    return 1


def dividend_split(revenue: int, kind: str) -> tuple[int, int]:
    """(per share, what the treasury keeps besides its own shares' part) of a full or half
    payout: whole dollars per share, the rest of the revenue stays."""
    paid = revenue if kind == "payout" else revenue // 2
    per_share = paid // 10
    return per_share, revenue - per_share * 10


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


class G1833NEFinance(G1833NEBase):
    """Certificates, share sales, prices, dividends, issuing and redeeming."""

    def can_par(self, pid: str, corp: Corporation) -> bool:
        if corp.ipoed or corp.closed:
            return False
        if corp.home is None:  # a takeover-game corporation: from phase II, where a city is free
            return self.phase_index >= self.phase_index_of(self.data.TAKEOVER_START_PHASE) and bool(self.variable_homes(corp))
        return True

    def par_prices(self, corp: Corporation) -> list[Cell]:
        """Start prices allowed for ``corp``: a takeover corporation whose only homes cost
        $120 must start at $60 or more."""
        cells = list(self.market.par_prices)
        if corp.home is None and not any(
            h[2] < self.data.TAKEOVER_HOME_TOKEN_PRICE["other"] for h in self.variable_homes(corp)
        ):
            cells = [c for c in cells if c.price >= self.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN]
        return cells

    def transfer_share_from_ipo(self, pid: str, share: Share, par_price: int) -> None:
        """Incremental capitalization: every treasury share pays the current price (the
        president's 20% twice the start price) to the corporation."""
        corp = self.corporations[share.corporation]
        assert corp.price is not None
        price = corp.price.price * share.percent // 10
        self.spend(pid, corp.sym, price)
        self.move_share(share, pid)
        self.log.append(f"{self.name_of(pid)} buys {share.percent}% of {corp.sym} from the treasury for {self.fmt(price)}")

    def can_sell_hook(self, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
        corp = self.corporations[sym]
        if not corp.operated and corp.president != pid:
            return f"before {sym} has operated only its president may sell"
        return None

    def sale_price_moves(self, corp: Corporation, pid: str, percent: int) -> list[str]:
        """Summary: only the president's sales move the price, one column left however many
        (the seller was president before the sale)."""
        return ["left"] if percent and corp.president == pid else []

    def finish_stock_round(self) -> None:
        """Summary: at the end of the stock round corporations with shares in the market
        fall one column; those 100% in players' hands rise one."""
        for corp in sorted(
            (c for c in self.corporations.values() if c.ipoed and not c.closed), key=self.operating_sort_key
        ):
            if self.percent_of(POOL, corp.sym) > 0:
                self.move_price(corp, "left")
            elif self.player_percent(corp.sym) >= 100:
                self.move_price(corp, "right")
        self._or_set_size = self.phase["operating_rounds"]

    def price_target(self, corp: Corporation, direction: str, cell: Cell | None = None) -> Cell | None:
        """One column on the linear market (:func:`shifted`, as :meth:`move_price` moves): right
        ("right", "up") or left ("left", "down"), staying at either end. Changes nothing."""
        cell = corp.price if cell is None else cell
        return None if cell is None or corp.closed else shifted(self.market, cell, _COLUMNS[direction])

    def move_price(self, corp: Corporation, direction: str) -> None:
        self.shift_price(corp, _COLUMNS[direction])

    def shift_price(self, corp: Corporation, columns: int) -> None:
        cell = corp.price
        if cell is None or columns == 0 or corp.closed:
            return
        target = shifted(self.market, cell, columns)
        corp.price = self.market.move(corp.sym, cell, target)
        self.log_price_move(corp.sym, "right" if columns > 0 else "left", cell.price, target.price)
        if "close" in target.types:
            self.close_corporation(corp)

    def corporations_in_play(self) -> int:
        return sum(1 for c in self.corporations.values() if not c.closed)

    def cert_limit(self) -> int:
        table: dict[int, int] = self.data.CERT_LIMIT[len(self.players)]
        n = max(min(self.corporations_in_play(), max(table)), min(table))
        return table[n]

    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        revenue: int = sum(r["revenue"] for r in rnd.state.get("routes", []))
        return revenue > 0

    def pay_dividend(self, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        """Full, half or no payout; treasury shares earn for the corporation, market shares
        for nobody (decision).  The price moves by what the corporation pays out in all against
        the price (notes.md #8); withholding moves it one column left."""
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        assert corp.price is not None
        price = corp.price.price
        if kind == "withhold" or revenue <= 0:
            if revenue > 0:
                self.bank_pays(corp.sym, revenue)
                self.log.append(f"{corp.sym} withholds {self.fmt(revenue)}")
            else:
                self.log.append(f"{corp.sym} earns nothing")
            self.shift_price(corp, -1)
        else:
            per_share, kept = dividend_split(revenue, kind)
            paid_to: list[str] = []
            for p in self.players:
                n = self.percent_of(p.id, corp.sym) // 10
                if n:
                    self.bank_pays(p.id, per_share * n)
                    paid_to.append(f"{self.fmt(per_share * n)} to {p.name}")
            treasury = self.percent_of(corp.sym, corp.sym) // 10
            self.bank_pays(corp.sym, per_share * treasury + kept)
            if treasury:
                paid_to.append(f"{self.fmt(per_share * treasury)} to {corp.sym}'s treasury shares")
            how = f"pays out {self.fmt(revenue)}" if kind == "payout" else \
                f"pays half of {self.fmt(revenue)} ({self.fmt(revenue - kept)})"
            self.log.append(
                f"{corp.sym} {how} = {self.fmt(per_share)} per share"
                + (f" ({', '.join(paid_to)})" if paid_to else "")
                + (f" and keeps {self.fmt(kept)}" if kept else "")
            )
            self.shift_price(corp, dividend_move(revenue - kept, price))
        rnd.state["dividend_done"] = True

    def dividend_effect(self, corp: Corporation, revenue: int, kind: str) -> DividendEffect:
        assert corp.price is not None
        if kind == "withhold" or revenue <= 0:
            per_share, kept, paid, columns = 0, max(revenue, 0), 0, -1
        else:
            per_share, kept = dividend_split(revenue, kind)
            paid = revenue - kept
            columns = dividend_move(paid, corp.price.price)
        cash = corp.cash + per_share * (self.percent_of(corp.sym, corp.sym) // 10) + kept
        if columns == 0 or corp.closed:
            return DividendEffect(corp.price, cash, paid, per_share)
        target = shifted(self.market, corp.price, columns)  # closing: the treasury goes to the bank
        return DividendEffect(target, 0 if "close" in target.types else cash, paid, per_share)

    def issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        """(shares, money) the corporation may issue now (normal issue)."""
        if corp.price is None:
            return []
        each = issue_price(self.market, corp.price)
        if each <= 0:
            return []
        return [(n, n * each) for n in range(1, self.issuable_count(corp) + 1)]

    def may_issue_for(self, corp: Corporation, amount: int) -> bool:
        """Whether the operating corporation, short of ``amount`` now, could still raise it this
        turn by a normal issue (summary: "Die Gesellschaft kann Aktien aus der Kasse am Markt
        ausgeben, um Geld zu beschaffen"; in 1846's order the issue comes before track and
        stations, so the money may pay for them)."""
        rnd = self.round
        if not isinstance(rnd, OperatingRound) or rnd.corp is not corp or corp.president is None:
            return False
        if rnd.state.get("issued_or_redeemed") or rnd.state.get("dividend_done"):
            return False
        return corp.cash + max((money for _, money in self.issue_options(corp)), default=0) >= amount

    def redeem_options(self, corp: Corporation) -> list[tuple[int, int]]:
        if corp.price is None:
            return []
        each = redeem_price(self.market, corp.price)
        pool = self.percent_of(POOL, corp.sym) // 10
        return [(n, n * each) for n in range(1, pool + 1) if n * each <= corp.cash]

    def issue_shares(self, corp: Corporation, num: int) -> None:
        opts = dict(self.issue_options(corp))
        if num not in opts:
            raise GameError(f"{corp.sym} cannot issue {shares_text(num)} now", RULE)
        shares = [s for s in self.ipo_shares(corp.sym) if not s.president][:num]
        for s in shares:
            self.move_share(s, POOL)
        self.bank_pays(corp.sym, opts[num])
        self.log.append(f"{corp.sym} issues {shares_text(num)} for {self.fmt(opts[num])}")

    def redeem_shares(self, corp: Corporation, num: int) -> None:
        opts = dict(self.redeem_options(corp))
        if num not in opts:
            raise GameError(f"{corp.sym} cannot redeem {shares_text(num)} now", RULE)
        shares = self.pool_shares(corp.sym)[:num]
        for s in shares:
            self.move_share(s, corp.sym)
        self.spend(corp.sym, "bank", opts[num])
        if self.percent_of(POOL, corp.sym) <= self.MARKET_SHARE_LIMIT:
            self.pool_overflow.discard(corp.sym)
        self.log.append(f"{corp.sym} redeems {shares_text(num)} for {self.fmt(opts[num])}")

    def issuable_count(self, corp: Corporation) -> int:
        """Summary: as many shares as players hold, less those already in the market."""
        players = self.player_percent(corp.sym) // 10
        market = self.percent_of(POOL, corp.sym) // 10
        treasury = len([s for s in self.ipo_shares(corp.sym) if not s.president])
        room = (self.MARKET_SHARE_LIMIT - self.percent_of(POOL, corp.sym)) // 10
        return max(0, min(players - market, treasury, room))

    def player_value(self, player: Any) -> int:
        value = player.cash
        for s in self.shares.values():
            if s.owner == player.id:
                value += self.share_price_value(s)
        if self.phase_index < self.phase_index_of("III"):
            value += sum(self.companies[c].value for c in player.companies if not self.companies[c].closed)
        return int(value)

    def capitalization_type(self, corp: Corporation) -> str:
        return "incremental"  # always (the 1846 finance system); no escrow, no full capitalization

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        super().par_corporation(corp, cell, pid)
        corp.started = True

    def after_share_bought(self, sym: str) -> None:
        self.change_president(sym)

    def change_president(self, sym: str, preferred: str | None = None) -> None:
        """The holder of the president's certificate is the president; while it lies in the
        market (after a bankruptcy) the corporation has none (decision)."""
        pres = next(s for s in self.corp_shares(sym) if s.president)
        corp = self.corporations[sym]
        if pres.owner == POOL:
            corp.president = None
            return
        if pres.owner in self.player_by_id and corp.president != pres.owner:
            corp.president = pres.owner
        super().change_president(sym, preferred)

    def floatable(self, corp: Corporation) -> bool:
        return corp.ipoed

    def float_percent(self) -> int | None:
        return None  # a corporation floats when it is started

    def floated(self, corp: Corporation) -> bool:
        return corp.ipoed and not corp.closed

    def dividend_kinds(self, corp: Corporation) -> list[str]:
        return ["payout", "half", "withhold"]
