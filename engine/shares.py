"""Shares: certificates, holdings and presidency, starting (par) and floating corporations,
selling to the market, and the stock round's hooks.

:class:`ShareRules` is a part of :class:`engine.game.Game`.
"""

from __future__ import annotations

from typing import Any

from .entities import Corporation
from .market import Cell


class ShareRules:
    """Holdings of certificates and the rules of buying and selling them."""

    def can_par(self, pid: str, corp: Corporation) -> bool:
        """Whether ``pid`` may start ``corp`` now."""
        return not corp.ipoed and not corp.closed

    def capitalization_type(self, corp: Corporation) -> str:
        """How ``corp`` is paid for its shares: "full" (at floating), "incremental" (per share)."""
        return self.CAPITALIZATION

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        """``pid`` starts ``corp`` at the par price ``cell``."""
        corp.capitalization = self.capitalization_type(corp)
        corp.ipoed = True
        corp.par = cell
        corp.price = cell
        cell.corporations.append(corp.sym)
        corp.president = pid

    def transfer_share_from_ipo(self, pid: str, share: Any, par_price: int) -> None:
        """``pid`` buys ``share`` from the IPO at ``par_price``."""
        corp = self.corporations[share.corporation]
        price = self.shares_worth(corp.sym, share.percent, par_price)
        self.pay_for_ipo_share(pid, corp, price)
        self.move_share(share, pid)
        self.log.append(f"{self.name_of(pid)} buys {share.id} from the IPO for {self.fmt(price)}")

    def pay_for_ipo_share(self, pid: str, corp: Corporation, price: int) -> None:
        """Who receives the price of an IPO share: the corporation when incrementally
        capitalized, else the bank (a fully capitalized one gets its money at floating)."""
        if corp.capitalization == "incremental":
            self.spend(pid, corp.sym, price)
        else:
            self.spend(pid, "bank", price)

    def after_share_bought(self, sym: str) -> None:
        """After a purchase: the presidency, and a fully capitalized corporation floats."""
        corp = self.corporations[sym]
        self.change_president(sym)
        if corp.capitalization == "full" and not corp.started and self.floatable(corp):
            self.bank_pays(corp.sym, corp.par.price * corp.total_shares if corp.par else 0)
            corp.started = True
            self.log.append(f"{sym} floats and receives {self.fmt(corp.par.price * corp.total_shares)}")

    def can_buy_share_hook(self, pid: str, share: Any) -> str | None:
        """Why ``pid`` may not buy ``share`` under the title's own rules (None: no objection)."""
        return None

    def can_sell_hook(self, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
        """Why ``pid`` may not sell ``percent``% of ``sym`` under the title's rules (None: may)."""
        return None

    def floatable(self, corp: Corporation) -> bool:
        """Whether enough of ``corp`` is sold for it to float (``FLOAT_PERCENT``)."""
        return 100 - self.percent_of(corp.sym, corp.sym) >= self.FLOAT_PERCENT

    def floated(self, corp: Corporation) -> bool:
        """Whether ``corp`` has floated (or will when it first operates)."""
        return corp.started or (corp.capitalization == "full" and self.floatable(corp))

    def bank_pays(self, receiver: str, amount: int) -> None:
        """The bank pays ``amount``, even past its last dollar (the game then ends)."""
        self.spend("bank", receiver, amount, allow_negative=True)
