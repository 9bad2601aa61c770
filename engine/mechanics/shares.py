"""Shares: certificates, holdings and presidency, starting (par) and floating corporations,
selling to the market, and the stock round's hooks.

:class:`ShareRules` is a part of :class:`engine.game.Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from ..entities import POOL, Corporation, Share
from ..errors import NOT_OWNER, GameError
from ..hooks import TitleHooks
from ..market import Cell

if TYPE_CHECKING:
    from ..rounds.stock import StockRound


class ShareRules(TitleHooks):
    """Holdings of certificates and the rules of buying and selling them."""

    _share_seq = 0  # certificates moved so far (a share's ``seq``: the order they reached their owner)

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

    def share_words(self, share: Share) -> str:
        """A certificate as players name it: "a 10% share of GW", "the 20% president's share of GW"."""
        if share.president:
            return f"the {share.percent}% president's share of {share.corporation}"
        return f"a {share.percent}% share of {share.corporation}"

    def transfer_share_from_ipo(self, pid: str, share: Share, par_price: int) -> None:
        """``pid`` buys ``share`` from the IPO at ``par_price``."""
        corp = self.corporations[share.corporation]
        price = self.shares_worth(corp.sym, share.percent, par_price)
        self.pay_for_ipo_share(pid, corp, price)
        self.move_share(share, pid)
        self.log.append(f"{self.name_of(pid)} buys {self.share_words(share)} from the IPO for {self.fmt(price)}")

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
            capital = corp.par.price * corp.total_shares if corp.par else 0
            self.bank_pays(corp.sym, capital)
            corp.started = True
            self.log.append(f"{sym} floats and receives {self.fmt(capital)}")

    def can_buy_share_hook(self, pid: str, share: Share) -> str | None:
        """Why ``pid`` may not buy ``share`` under the title's own rules (None: no objection)."""
        return None

    def can_sell_hook(self, rnd: StockRound, pid: str, sym: str, percent: int) -> str | None:
        """Why ``pid`` may not sell ``percent``% of ``sym`` under the title's rules (None: may)."""
        return None

    def floatable(self, corp: Corporation) -> bool:
        """Whether enough of ``corp`` is sold for it to float (``FLOAT_PERCENT``)."""
        return 100 - self.percent_of(corp.sym, corp.sym) >= self.FLOAT_PERCENT

    def float_percent(self) -> int | None:
        """The percent of a corporation's shares that must be sold for it to float now (None:
        it floats when started)."""
        return self.FLOAT_PERCENT

    def floated(self, corp: Corporation) -> bool:
        """Whether ``corp`` has floated (or will when it first operates)."""
        return corp.started or (corp.capitalization == "full" and self.floatable(corp))

    def bank_pays(self, receiver: str, amount: int) -> None:
        """The bank pays ``amount``, even past its last dollar (the game then ends)."""
        self.spend("bank", receiver, amount, allow_negative=True)

    # ------------------------------------------------------------------ shares
    def move_share(self, share: Share, owner: str) -> None:
        self._share_seq += 1
        share.owner = owner
        share.seq = self._share_seq

    def shares_of(self, holder: str, sym: str | None = None) -> list[Share]:
        if sym is not None:
            return [s for s in self._by_corp.get(sym, ()) if s.owner == holder]
        return [s for s in self.shares.values() if s.owner == holder]

    def percent_of(self, holder: str, sym: str) -> int:
        return sum(s.percent for s in self._by_corp.get(sym, ()) if s.owner == holder)

    def corp_shares(self, sym: str) -> list[Share]:
        return list(self._by_corp.get(sym, ()))

    def player_percent(self, sym: str) -> int:
        return sum(s.percent for s in self.corp_shares(sym) if s.owner in self.player_by_id)

    def ipo_shares(self, sym: str) -> list[Share]:
        return sorted((s for s in self._by_corp.get(sym, ()) if s.owner == sym), key=_share_index)

    def pool_shares(self, sym: str) -> list[Share]:
        return sorted((s for s in self._by_corp.get(sym, ()) if s.owner == POOL), key=_share_index)

    def num_certs(self, pid: str) -> float:
        total = 0.0
        for s in self.shares.values():
            if s.owner == pid and self.counts_for_limit(s):
                total += s.cert_size
        player = self.player_by_id[pid]
        total += sum(1 for c in player.companies if not self.companies[c].closed)
        return total

    def counts_for_limit(self, share: Share) -> bool:
        corp = self.corporations[share.corporation]
        return not (corp.price and ("no_cert_limit" in corp.price.types or "unlimited" in corp.price.types))

    def cert_limit(self) -> int:
        """How many certificates a player may hold."""
        limit: int = self.data.CERT_LIMIT[len(self.players)]
        return limit

    def holding_ok(self, pid: str, sym: str, extra_percent: int = 0) -> bool:
        corp = self.corporations[sym]
        if corp.price and ("unlimited" in corp.price.types or "multiple_buy" in corp.price.types):
            return True
        return self.percent_of(pid, sym) + extra_percent <= self.HOLDING_LIMIT

    def share_unit(self, sym: str) -> int:
        """The percentage one share stands for: 10, or 5 for a corporation of 20 shares (its
        price is per certificate of that size, as 1856's CGR after a large exchange)."""
        return min((s.percent for s in self._by_corp.get(sym, ()) if not s.president), default=10)

    def shares_worth(self, sym: str, percent: int, price: int | None = None) -> int:
        """What ``percent``% of ``sym`` is worth at ``price`` (default: its market price)."""
        if price is None:
            cell = self.corporations[sym].price
            if cell is None:
                return 0
            price = cell.price
        return price * percent // self.share_unit(sym)

    def share_price_value(self, share: Share) -> float:
        corp = self.corporations[share.corporation]
        if not corp.price:
            return 0
        return self.shares_worth(share.corporation, share.percent)

    def change_president(self, sym: str, preferred: str | None = None) -> None:
        """Give the presidency to the player holding most shares (ties keep the current one;
        among new candidates the first after the current president in seat order wins)."""
        corp = self.corporations[sym]
        current = corp.president
        if current is None:
            holdings = self.presidency_holdings(sym)
            best = max(holdings.values(), default=0)
            if best:
                corp.president = next(pid for pid in self.seat_order_from(preferred) if holdings[pid] == best)
            return
        new = self._presidency_winner(sym, current)
        if new is None:
            return
        self._swap_president_cert(sym, current, new)
        corp.president = new
        self.log.append(f"{self.name_of(new)} becomes the president of {sym}")

    def president_after_sale(self, sym: str, pid: str, percent: int) -> str | None:
        """Who becomes president of ``sym`` if its president ``pid`` sells ``percent``% of it
        (None: ``pid`` stays president), as :meth:`_presidency_winner` decides after the sale."""
        holdings = self.presidency_holdings(sym)
        holdings[pid] = holdings.get(pid, 0) - percent
        return self._presidency_winner(sym, pid, holdings)

    def _presidency_winner(self, sym: str, current: str | None,
                           holdings: dict[str, int] | None = None) -> str | None:
        """The player who takes the presidency from ``current``, if anyone: the largest holder
        (a tie keeps ``current``; among others the first after them in seat order) holding, in
        certificates, at least the president's certificate. ``holdings``: those of
        :meth:`presidency_holdings` (default: now)."""
        holdings = self.presidency_holdings(sym) if holdings is None else holdings
        best = max(holdings.values(), default=0)
        if best == 0 or (current is not None and holdings.get(current, 0) >= best):
            return None
        pres = next((s for s in self.corp_shares(sym) if s.president), None)
        need = pres.percent if pres is not None else 0
        return next((p for p in self.seat_order_from(current)
                     if holdings[p] == best and self.percent_of(p, sym) >= need), None)

    def presidency_holdings(self, sym: str) -> dict[str, int]:
        """What each player holds of ``sym`` when the presidency is decided."""
        return {p.id: self.percent_of(p.id, sym) for p in self.players}

    def table_skew(self, pid: str, sym: str, percent: int) -> None:
        """``pid`` counts ``percent`` more of ``sym`` in :meth:`presidency_holdings` than the
        certificates they hold (the title's share-holder table; none by default)."""

    def seat_order_from(self, pid: str | None) -> list[str]:
        ids = [p.id for p in self.players]
        if pid is None or pid not in ids:
            return ids
        i = ids.index(pid)
        return ids[i + 1:] + ids[:i + 1]

    def _swap_president_cert(self, sym: str, old: str, new: str) -> None:
        pres = next(s for s in self.corp_shares(sym) if s.president)
        need = pres.percent
        theirs = sorted((s for s in self.shares_of(new, sym) if not s.president), key=lambda s: s.seq)
        given: list[Share] = []
        got = 0
        for s in theirs:
            if got >= need:
                break
            given.append(s)
            got += s.percent
        if pres.owner == old:
            for s in given:
                self.move_share(s, old)
            self.move_share(pres, new)
        elif pres.owner == new and pres.seq == self._share_seq:
            # they have just bought it from the market (see below): as on 18xx.games their first
            # certificates, the one just bought among them if they hold few, go to the old
            # president (or the market when the old one holds less than it) and it comes back
            swap_to = old if self.percent_of(old, sym) >= need else POOL
            for s in self.holding(new, sym)[:need // self.share_unit(sym)]:
                self.move_share(s, swap_to)
                if s is not pres:  # (18xx.games' share-holder table does not follow these)
                    self.table_skew(new, sym, s.percent)
                    if swap_to != POOL:
                        self.table_skew(swap_to, sym, -s.percent)
            self.move_share(pres, new)
        # otherwise (the old president sold it to the market, keeping the presidency by 18xx.games'
        # share-holder table) only the presidency moves: the certificate stays where it is

    def named_bundle(self, action: A.SellShares) -> tuple[list[Share], str, int]:
        """The certificates a sale names, their corporation and the percentage sold (less than
        their sum when the president's certificate is sold in part)."""
        pid = action.entity
        shares = [self.share(sid) for sid in action.shares]
        if not shares or any(s.owner != pid for s in shares) or len({s.corporation for s in shares}) != 1:
            raise GameError(f"{self.name_of(pid)} must name shares of one corporation they own", NOT_OWNER, player=pid)
        pct = sum(s.percent for s in shares)
        if action.percent is not None and any(s.president for s in shares):
            pct = min(pct, action.percent)
        return shares, shares[0].corporation, pct

    def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int:
        """Sell ``shares`` of one corporation from ``pid`` to the market (``percent`` of them when
        the president's certificate is only partly sold); returns the proceeds.

        Certificates move as on 18xx.games, which decides later share ids: the bundle goes to
        the market; a new president hands their first certificates for the president's one;
        for a partial sale the market's oldest certificates return to the seller."""
        sym = shares[0].corporation
        corp = self.corporations[sym]
        assert corp.price is not None
        total = sum(s.percent for s in shares)
        percent = total if percent is None else min(percent, total)
        amount = self.shares_worth(sym, percent)
        moves = self.sale_price_moves(corp, pid, percent)  # (asked before: who presides may change)
        previous = corp.president
        for s in shares:
            self.move_share(s, POOL)
        self.spend("bank", pid, amount, allow_negative=True)
        count = percent // self.share_unit(sym)
        what = f"a {percent}% share" if count == 1 else f"{count} shares ({percent}%)"
        self.log.append(f"{self.name_of(pid)} sells {what} of {sym} and receives {self.fmt(amount)}")
        # the whole bundle went to the market, but the seller's part of the president's
        # certificate not sold comes back only when the presidency changes
        kept = total - percent
        self.table_skew(pid, sym, kept)
        new = self._new_president(sym, previous)
        pres = next((s for s in self.corp_shares(sym) if s.president), None)
        # (a president's certificate neither sold nor the seller's, after 1856's share-holder
        # table kept a president without it, stays where it is)
        if new is not None and new != pid and previous is not None and pres is not None \
                and (pres in shares or pres.owner == previous):
            swap_to = previous if self.percent_of(previous, sym) >= pres.percent else POOL
            self._hand_over_president_cert(sym, pres, new, swap_to)
            for _ in range(kept // self.share_unit(sym)):
                self.move_share(self.holding(POOL, sym)[0], pid)
            self.table_skew(pid, sym, -kept)
        for direction in moves:
            self.move_price(corp, direction)
        return amount

    def holding(self, holder: str, sym: str) -> list[Share]:
        """``holder``'s certificates of ``sym`` in the order they were acquired."""
        return sorted(self.shares_of(holder, sym), key=lambda s: (s.seq, s.index))

    def _new_president(self, sym: str, previous: str | None) -> str | None:
        """After a transfer: the player who becomes president, if the presidency changes (the
        largest holder with at least the president's certificate; a tie keeps the current
        president, otherwise the first such player after them in seat order)."""
        corp = self.corporations[sym]
        new = self._presidency_winner(sym, previous)
        if new is not None:
            corp.president = new
            self.log.append(f"{self.name_of(new)} becomes the president of {sym}")
        return new

    def _hand_over_president_cert(self, sym: str, pres: Share, new: str, swap_to: str) -> None:
        """The new president gives their first certificates (as many as the president's
        certificate is worth in ordinary shares) to ``swap_to`` and takes the president's."""
        for s in self.holding(new, sym)[:pres.percent // self.share_unit(sym)]:
            self.move_share(s, swap_to)
        self.move_share(pres, new)

    def sale_price_moves(self, corp: Corporation, pid: str, percent: int) -> list[str]:
        """The steps (directions of :meth:`move_price`) ``corp``'s share price takes when ``pid``
        sells ``percent`` of it, asked before the sale: one row down per 10% sold
        (``SELL_MOVEMENT`` "down_per_10", 1856), else one row down per sale. Changes nothing."""
        steps = percent // 10 if self.SELL_MOVEMENT == "down_per_10" else (1 if percent else 0)
        return ["down"] * steps

    def price_after_sale(self, corp: Corporation, pid: str, percent: int) -> Cell | None:
        """Where ``corp``'s share price will be once ``pid`` has sold ``percent`` of it (the sale
        moves it by the same :meth:`sale_price_moves` and :meth:`price_target`); on a closing
        space the corporation closes and the price goes no further. Changes nothing."""
        cell = corp.price
        for direction in self.sale_price_moves(corp, pid, percent):
            if cell is None or "close" in cell.types:
                break
            cell = self.price_target(corp, direction, cell) or cell
        return cell

    def log_price_move(self, sym: str, direction: str, old: int, new: int) -> None:
        """ "GW's share price moves left from $90 to $80" (nothing when it stays)."""
        if old != new:
            self.log.append(f"{sym}'s share price moves {direction} from {self.fmt(old)} to {self.fmt(new)}")

    def price_target(self, corp: Corporation, direction: str, cell: Cell | None = None) -> Cell | None:
        """The space ``corp``'s share price moves to one step ``direction`` ("right", "left",
        "up", "down") from its price (or from ``cell``); None when it does not move. Changes nothing."""
        cell = corp.price if cell is None else cell
        if cell is None:
            return None
        m = self.market
        return {"right": m.right_of, "left": m.left_of, "up": m.up_of, "down": m.down_of}[direction](cell)

    def move_price(self, corp: Corporation, direction: str) -> None:
        cell, target = corp.price, self.price_target(corp, direction)
        if cell is None or target is None:
            return
        corp.price = self.market.move(corp.sym, cell, target)
        self.log_price_move(corp.sym, direction, cell.price, target.price)


def _share_index(share: Share) -> int:
    return share.index
