"""1856's money rules: loans (one per operating round, at most one per share in players' hands),
interest, forced repayment, a president's cash crisis and bankruptcy."""

from __future__ import annotations

from ...entities import POOL, Corporation, Player, Share
from ...errors import RULE, GameError
from ...rounds.operating import OperatingRound
from .base import G1856Base
from .nationalization import CashCrisisStep
from .steps import as_g1856
from .trains import G1856BuyTrainStep, ebuy_bundles, sale_bundles


class G1856Finance(G1856Base):
    """Loans, interest and cash crises."""

    def maximum_loans(self, corp: Corporation) -> int:
        return self.player_percent(corp.sym) // 10

    def loan_terms(self) -> str:
        return (f"{self.fmt(self.loan_value)} each; one per operating round, at most one per 10% of its shares "
                "held by players; none once the national has formed")

    def loans_ended(self) -> str | None:
        return "no loans are given once the national has formed" if self.post_nationalization else None

    def loan_blocker(self, rnd: OperatingRound, corp: Corporation) -> str | None:
        ended = self.loans_ended()
        if ended:
            return ended
        if self.phase_status("no_loans"):
            return f"no loans are given in phase {self.phase['name']}"
        if rnd.state.get("took_loan"):
            return f"{corp.sym} has taken its loan this operating round: one per round"
        if rnd.state.get("redeemed_loan"):
            return f"{corp.sym} has paid off a loan this operating round"
        most = self.maximum_loans(corp)
        if corp.loans >= most:
            return (f"{corp.sym} has {corp.loans} loan{'s' if corp.loans != 1 else ''}, the most it may have:"
                    f" one per 10% of its shares held by players")
        if self.loans_available <= 0:
            return "the bank has no loans left"
        return None

    def take_loan(self, rnd: OperatingRound, corp: Corporation, loan: int | None = None) -> None:
        why = self.loan_blocker(rnd, corp)
        if why is not None:
            raise GameError(f"{corp.sym} cannot take a loan: {why}", RULE, corporation=corp.sym, reason=why)
        self.export_fill["loan"] = self.loan_book.take(corp.sym, loan)
        amount = self.loan_value - (self.interest_rate if rnd.state.get("paid_interest") else 0)
        self.bank_pays(corp.sym, amount)
        corp.loans += 1
        self.loans_available -= 1
        rnd.state["took_loan"] = True
        # (interest paid this round already: the new loan's is kept back, 18xx.games' loan_amount)
        less = (f" ({self.fmt(self.loan_value)} less this round's {self.fmt(self.loan_value - amount)} interest on it)"
                if amount != self.loan_value else "")
        self.log.append(f"{corp.sym} takes a loan and receives {self.fmt(amount)}{less}")

    def interest_owed(self, corp: Corporation) -> int:
        return 0 if self.post_nationalization else self.interest_rate * corp.loans

    def pay_interest(self, rnd: OperatingRound, corp: Corporation) -> None:
        rnd.state["paid_interest"] = True
        owed = self.interest_owed(corp)
        if not corp.loans or owed <= 0:
            return
        loans = f"{corp.loans} loan" if corp.loans == 1 else f"{corp.loans} loans"
        payment = min(owed, corp.cash - corp.cash % 10)
        if payment > 0:
            self.spend(corp.sym, "bank", payment)
        if payment == owed:
            self.log.append(f"{corp.sym} pays {self.fmt(payment)} interest for {loans}")
            return
        if payment > 0:
            self.log.append(f"{corp.sym} owes {self.fmt(owed)} interest for {loans} and pays {self.fmt(payment)}:"
                            f" it still owes {self.fmt(owed - payment)}")
        else:
            self.log.append(f"{corp.sym} owes {self.fmt(owed)} interest for {loans} and has no money to pay it")
        owed -= payment
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        deduction = min(owed, revenue)
        if deduction > 0:
            owed -= deduction
            rnd.state["interest_penalty"] = deduction
            self.log.append(f"{corp.sym} deducts {self.fmt(deduction)} from its run for the unpaid interest")
        if owed > 0:
            president = corp.president
            assert president is not None
            self.spend(president, "bank", owed, allow_negative=True)
            self.log.append(f"{self.name_of(president)} pays {self.fmt(owed)} of {corp.sym}'s unpaid interest")
            rnd.state["player_interest_penalty"] = owed
            self._maybe_cash_crisis(president, corp)

    def force_repay_loans(self, rnd: OperatingRound, corp: Corporation) -> None:
        excess = corp.loans - self.maximum_loans(corp)
        if excess <= 0:
            return
        owed = self.loan_value * excess
        corp.loans -= excess
        self.loan_book.repay_newest(corp.sym, excess)
        self.loans_available += excess
        rnd.state["redeemed_loan"] = True
        loans = "loan" if excess == 1 else "loans"
        self.log.append(f"{corp.sym} has more loans than it may have ({self.maximum_loans(corp)}): it must repay {excess} "
                        f"{loans} and owes {self.fmt(owed)}")
        payment = min(owed, corp.cash)
        if payment:
            self.spend(corp.sym, "bank", payment)
            self.log.append(f"{corp.sym} pays {self.fmt(payment)} to redeem {loans}")
        owed -= payment
        if owed > 0 and corp.president:
            self.spend(corp.president, "bank", owed, allow_negative=True)
            self.log.append(f"{corp.sym} cannot pay the remaining {self.fmt(owed)}: its president "
                            f"{self.name_of(corp.president)} pays it")
            self._maybe_cash_crisis(corp.president, corp)

    def buying_power_for_token(self, corp: Corporation) -> int:
        rnd = self.round
        extra = 0
        if isinstance(rnd, OperatingRound) and self.can_take_loan(rnd, corp):
            extra = self.loan_value - (self.interest_rate if rnd.state.get("paid_interest") else 0)
        return corp.cash + extra

    def revenue_deduction(self, rnd: OperatingRound, corp: Corporation) -> int:
        return int(rnd.state.get("interest_penalty", 0))

    def _maybe_cash_crisis(self, pid: str, corp: Corporation | None) -> None:
        """``pid`` in a cash crisis if their cash is negative; ``corp``: the company in trouble
        (None for a debt left standing from before)."""
        if self.player(pid).cash < 0:
            self.cash_crisis_player = pid
            self.cash_crisis_corp = corp.sym if corp is not None else None
            if pid not in self.crisis_debtors:
                self.crisis_debtors = (*self.crisis_debtors, pid)
            self.log.append(f"{self.name_of(pid)} owes the bank {self.fmt(-self.player(pid).cash)} "
                            "and must raise money")

    def crisis_sellable(self, pid: str) -> list[tuple[str, int]]:
        """Bundles a president in a cash crisis may sell: not the presidency of the company
        that caused the debt, and no more than needed."""
        need = -self.player(pid).cash
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            for pct in range(self.share_unit(sym), held + 1, self.share_unit(sym)):
                if self.percent_of(POOL, sym) + pct > self.MARKET_SHARE_LIMIT:
                    break
                if c.president == pid:
                    # measured by the share-holder table (see presidency_holdings)
                    table = self.presidency_holdings(sym)
                    others = max((v for p, v in table.items() if p != pid), default=0)
                    pres = next(s for s in self.corp_shares(sym) if s.president)
                    pres_pct = pres.percent
                    if pres.owner == pid and held - pct < pres_pct and others < pres_pct:
                        break  # nobody could take the president's certificate
                    if sym == self.cash_crisis_corp and table.get(pid, 0) - pct < others:
                        # keep the presidency of the company in trouble (18xx.games checks this
                        # only right after the debt arose: see after_step_action)
                        break
                # only as much as needed: without its smallest certificate the sale would not
                # cover the debt (a bundle of the president's certificate alone counts it whole)
                if self.shares_worth(sym, pct) - self._smallest_certificate(pid, sym, pct) >= need:
                    break
                out.append((sym, pct))
        return out

    def _smallest_certificate(self, pid: str, sym: str, pct: int) -> int:
        """The value of the smallest certificate in ``pid``'s bundle of ``pct``% of ``sym``."""
        shares = next((b for b, p in sale_bundles(as_g1856(self), pid, sym) if p == pct), self.shares_of(pid, sym))
        return min(self.shares_worth(sym, s.percent) for s in shares)

    def declare_player_bankrupt(self, rnd: OperatingRound, pid: str) -> None:
        """18xx.games' "Declare Bankruptcy": the player's shares are sold as the open step allows
        (largest bundle first, corporations in operating order; in a cash crisis only while the
        debt is not covered), their cash, even a debt, is settled with the bank, and the game
        ends (rules-deviations #26)."""
        player = self.player(pid)
        self.log.append(f"-- {player.name} goes bankrupt --")
        step = rnd.active_step()
        if isinstance(step, CashCrisisStep) and self.cash_crisis_player == pid:
            def sellable() -> list[tuple[str, int]]:
                return self.crisis_sellable(pid)
        elif isinstance(step, G1856BuyTrainStep):
            def sellable() -> list[tuple[str, int]]:
                return ebuy_bundles(as_g1856(self), rnd, pid)
        else:
            def sellable() -> list[tuple[str, int]]:
                return []
        held = {s.corporation for s in self.shares_of(pid)}
        for corp in sorted((self.corporations[s] for s in held), key=self.operating_sort_key):
            while True:
                # (not a national sale its market could not follow: 18xx.games fails on one, so
                # a bankruptcy there would stop the game; the player keeps those shares)
                options = [pct for s2, pct in sellable()
                           if s2 == corp.sym and not self.national_falls_off_market(s2, pct)]
                if not options:
                    break
                pct = max(options)
                self.sell_shares(pid, self.pick_bundle(pid, corp.sym, pct), pct)
                if isinstance(step, G1856BuyTrainStep):
                    rnd.state.setdefault("ebuy_sold", set()).add(corp.sym)
        rnd.recalculate_order()
        self.bank += player.cash
        player.cash = 0
        player.bankrupt = True
        self.log.append(f"-- {player.name} is bankrupt: the game ends --")
        self.end_pending = "bankrupt"

    def pick_bundle(self, pid: str, sym: str, percent: int) -> list[Share]:
        """Certificates making up ``percent``% of ``sym``: ordinary shares first, then the
        president's certificate (sold in part when ``percent`` ends inside it)."""
        held = sorted(self.shares_of(pid, sym), key=lambda s: (s.president, s.seq))
        picked, total = [], 0
        for s in held:
            if total >= percent:
                break
            picked.append(s)
            total += s.percent
        return picked

    def loan_charge(self, player: Player) -> int:
        # each share held counts $10 less per loan its corporation still has (18xx.games'
        # player_value, the rules' end-of-game valuation): $1 per percent per loan
        return sum(s.percent * self.corporations[s.corporation].loans
                   for s in self.shares.values() if s.owner == player.id)
