"""1856's stock-round rules: capitalization by train era (escrow, incremental, full), the
percentage to operate, selling, and the national's shares and "false" president."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...entities import POOL, Corporation, Share
from ...errors import PRICE, GameError
from ...market import Cell
from .finance import G1856Finance

if TYPE_CHECKING:
    from ...rounds.stock import StockRound


class G1856Stock(G1856Finance):
    """The stock round of the 1856 family."""

    def can_par(self, pid: str, corp: Corporation) -> bool:
        return super().can_par(pid, corp) and corp.sym != self.national_sym

    def capitalization_type(self, corp: Corporation) -> str:
        if self.capitalization_mode == "escrow":
            return "incremental" if corp.destinated else "escrow"
        return self.capitalization_mode

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        super().par_corporation(corp, cell, pid)
        corp.escrow = 0 if corp.capitalization == "escrow" else None

    def pay_for_ipo_share(self, pid: str, corp: Corporation, price: int) -> None:
        """An escrow corporation receives the first half of its shares' price; the rest waits
        in escrow (at the bank) until it reaches its destination."""
        if corp.capitalization != "escrow":
            super().pay_for_ipo_share(pid, corp, price)
        elif 100 - self.percent_of(corp.sym, corp.sym) < 50:
            self.spend(pid, corp.sym, price)
        else:
            self.spend(pid, "bank", price)
            corp.escrow = (corp.escrow or 0) + price

    def can_buy_share_hook(self, pid: str, share: Share) -> str | None:
        corp = self.corporations[share.corporation]
        if self.false_national_president == pid and corp.sym != self.national_sym:
            return f"you must first buy up to the {self.national_sym} presidency"
        if share.owner == corp.sym and self.percent_of(POOL, corp.sym) + 10 > 60:
            return f"the market holds more than 50% of {corp.sym}"
        if corp.sym == self.national_sym and not corp.started:
            return f"{corp.sym} has not formed"
        return None

    def national_falls_off_market(self, sym: str, percent: int) -> bool:
        """True when selling ``percent``% of the national would move its price down onto no
        space of the market (its column ends in the row below). 18xx.games fails on such a
        sale (it looks up the missing space to keep the national from closing), so no player
        there can make it; we refuse it too, so that our games can be played there.  The sale
        still counts as possible for whose turn it is (18xx.games lists it)."""
        corp = self.corporations[sym]
        cell = corp.price
        if sym != self.national_sym or not self.national_ever_owned_permanent or cell is None \
                or self.market.one_d or percent < 10:
            return False
        row = cell.row
        for _ in range(percent // 10):  # one row down per full 10% sold
            if row + 1 >= len(self.market.grid):
                break
            target = self.market.cell(row + 1, cell.col)
            if target is None:
                return True
            if "close" not in target.types:  # the national never closes: it stays
                row += 1
        return False

    def can_sell_hook(self, rnd: StockRound, pid: str, sym: str, percent: int) -> str | None:
        corp = self.corporations[sym]
        if sym == self.national_sym and not corp.started:
            return f"{sym} has not formed"
        if sym in rnd.bought_this_turn:
            # at least one share must stay (a 5% one for a national with 20 shares)
            held = self.percent_of(pid, sym)
            if held - percent < self.share_unit(sym):
                return f"you cannot sell the {sym} share you just bought"
        return None

    # A "false" national president (one share after the exchange) must buy up to the full
    # president's certificate in the next stock round, selling shares if needed; failing
    # that, the game ends (as 18xx.games plays it).
    def restrict_stock_actions(self, rnd: StockRound, pid: str, actions: list[str]) -> list[str]:
        if pid != self.false_national_president:
            return actions
        out = []
        if "sell_shares" in actions:
            out.append("sell_shares")
        if "buy_shares" in actions and any(s.corporation == self.national_sym for s in rnd.buyable_shares(pid)):
            out.append("buy_shares")
        return out

    def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int:
        if shares:
            pct = sum(s.percent for s in shares) if percent is None else min(percent, sum(s.percent for s in shares))
            sym = shares[0].corporation
            cell = self.corporations[sym].price
            if cell is not None and self.national_falls_off_market(sym, pct):
                raise GameError(f"{sym}'s price cannot fall below {self.fmt(cell.price)} "
                                "here: 18xx.games refuses this sale", PRICE)
        self._selling = True
        try:
            return super().sell_shares(pid, shares, percent)
        finally:
            self._selling = False

    def exempt_from_forced_sale(self, pid: str) -> bool:
        return pid == self.false_national_president

    def went_bankrupt(self, pid: str) -> bool:
        # the false national president who could not raise the money ends the game bankrupt;
        # 18xx.games ("is unable to raise funds and is bankrupt") does not set the player's flag
        return super().went_bankrupt(pid) or (self.finished and self.end_reason == "bankrupt"
                                              and pid == self.false_national_president
                                              and not any(p.bankrupt for p in self.players))

    def stock_turn_stuck(self, rnd: StockRound, pid: str) -> bool:
        """The false national president with nothing to do is bankrupt, unless their cash and
        what they could sell of other corporations would pay for a national share (18xx.games'
        "national buy liquidity": then the turn just passes)."""
        if pid != self.false_national_president or rnd.action_types(pid) or self._national_liquidity(rnd, pid):
            return False
        self.log.append(f"-- {self.name_of(pid)} cannot raise the money for the {self.national_sym} "
                        "presidency and is bankrupt --")
        self.end_game("bankrupt")
        return True

    def _national_liquidity(self, rnd: StockRound, pid: str) -> bool:
        national = self.corporations[self.national_sym] if self.national_sym else None
        if national is None or national.price is None:
            return False
        price = national.price.price
        if national.par is not None and self.percent_of(POOL, national.sym) + 10 <= self.MARKET_SHARE_LIMIT:
            price = min(price, national.par.price)  # (its IPO shares, unless the market is full)
        value = self.player(pid).cash
        for sym in {s.corporation for s in self.shares_of(pid)} - {national.sym}:
            sellable = [pct for pct in range(10, self.percent_of(pid, sym) + 1, 10)
                        if rnd.why_not_sell(pid, sym, pct) is None]
            value += self.shares_worth(sym, max(sellable)) if sellable else 0
        return value >= price

    def buy_share_override(self, rnd: StockRound, pid: str, share: Share) -> bool:
        """While the national has a "false" president (half a president's certificate), buying
        one of its shares pays for the other half instead (the share stays where it is): the
        false president's own purchase, or (as 18xx.games plays it) one by another player who
        already holds national shares, who then swaps shares for the certificate and becomes
        president."""
        fp = self.false_national_president
        if fp is None or share.corporation != self.national_sym:
            return False
        corp = self.corporations[share.corporation]
        if pid != fp and not self.shares_of(pid, corp.sym):
            return False
        cell = corp.par if share.owner == corp.sym else corp.price
        assert cell is not None
        price = self.shares_worth(corp.sym, share.percent, cell.price)
        self.spend(pid, "bank", price)
        pres = next(s for s in self.corp_shares(corp.sym) if s.president)
        if pid != fp:
            self._hand_over_president_cert(corp.sym, pres, pid, fp)
            corp.president = pid
        elif pres.owner != pid:
            # the false president lost the certificate meanwhile: 18xx.games still counts the
            # half they pay for as theirs in its share-holder table (not its holder's), which
            # decides later presidencies
            adjust = self.national_table_adjust
            adjust[pid] = adjust.get(pid, 0) + pres.percent
            adjust[pres.owner] = adjust.get(pres.owner, 0) - pres.percent
        pres.percent *= 2
        self.false_national_president = None
        self.log.append(f"{self.name_of(pid)} pays {self.fmt(price)} for the full {corp.sym} presidency")
        return True

    def table_skew(self, pid: str, sym: str, percent: int) -> None:
        # only a share-holder table already apart from the certificates (a false president's
        # late payment) lets a partial sale of the president's certificate keep the presidency
        if sym == self.national_sym and percent:
            self.national_table_adjust[pid] = self.national_table_adjust.get(pid, 0) + percent
            if not self.national_table_adjust[pid]:
                del self.national_table_adjust[pid]

    def presidency_holdings(self, sym: str) -> dict[str, int]:
        holdings = super().presidency_holdings(sym)
        if sym == self.national_sym:
            for pid, extra in self.national_table_adjust.items():
                if pid in holdings:
                    holdings[pid] += extra
        return holdings

    def turn_cut_short(self, corp: Corporation) -> None:
        """The operating corporation closed in its turn. One that merged into the national
        cuts nothing short: 18xx.games closes the merged corporations when no step waits for
        the operator, so the national keeps its formation limit until its discard."""
        if not self.national_sym or corp.sym in self.nationalized_corps:
            return
        self.national_discard_done()

    def floatable(self, corp: Corporation) -> bool:
        return 100 - self.percent_of(corp.sym, corp.sym) >= self.percent_to_operate

    def float_percent(self) -> int | None:
        return self.percent_to_operate  # 20% at first, +10 as the last train of a kind is bought
