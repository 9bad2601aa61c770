"""1833NE private companies and ferries: buying privates from players (P6 with a surcharge),
their income, the ferries for sale until phase IV and their values, and the privates flipped
in phase III and removed in phases III and IV."""

from __future__ import annotations

from ... import actions as A
from ...entities import Company, Corporation
from ...errors import RULE, GameError
from ...rounds.operating import OperatingRound
from .provisional import bank_line, place_name, source_of
from .track import G1833NETrack


class G1833NECompanies(G1833NETrack):
    """Privates, ferries and P5."""

    def can_buy_companies(self, corp: Corporation) -> bool:
        if not self.phase_status("can_buy_companies") or corp.president is None:
            return False
        if self.emergency_issued_trainless(corp):
            return False  # 18xx.games (1846 BuyCompany): after an emergency issue only with a train
        return any(self.company_price_floor(c) <= corp.cash for c in self.purchasable_companies())

    def emergency_issued_trainless(self, corp: Corporation) -> bool:
        """``corp`` issued shares in an emergency this turn and has no running train yet: its
        money is the train's (summary "Notverkauf": "Zuerst gibt sie die ganze Kasse aus")."""
        rnd = self.round
        return (
            isinstance(rnd, OperatingRound)
            and rnd.corp is corp
            and bool(rnd.state.get("emergency_issued"))
            and not any(t not in self.obsolete for t in corp.trains)
        )

    def company_price_floor(self, c: Company) -> int:
        surcharge: int = self.data.P6_PURCHASE_SURCHARGE if c.sym == "P6" else 0
        return self.company_min_price(c) + surcharge

    def company_max_price(self, c: Company) -> int:
        if c.sym == "P6" and isinstance(self.round, OperatingRound):
            # the $40 surcharge comes on top: the price offered leaves room for it
            cash: int = self.round.corp.cash
            surcharge: int = self.data.P6_PURCHASE_SURCHARGE
            return max(1, min(c.value, cash - surcharge))
        return c.value

    def company_surcharge(self, company: Company) -> int:
        return self.data.P6_PURCHASE_SURCHARGE if company.sym == "P6" else 0  # P6: $40 more to the bank

    def special_buy_names(self) -> list[str]:
        return [f"Ferry {hid}" for hid in self.ferries]

    def special_buys(self, corp: Corporation) -> list[str]:
        """Ferries for sale ($40 each) until phase IV."""
        if self.ferries_removed or corp.cash < self.data.FERRY_PRICE or corp.president is None:
            return []
        if self.emergency_issued_trainless(corp):
            return []  # as for privates: after an emergency issue the money is the train's
        return [f"Ferry {hid}" for hid, owner in self.ferries.items() if owner is None]

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        if action.description not in self.special_buys(corp):
            raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now", RULE)
        hid = action.description.split()[-1]
        self.spend(corp.sym, "bank", self.data.FERRY_PRICE)
        self.ferries[hid] = corp.sym
        self.ferry_order.append(hid)
        self.log.append(f"{corp.sym} buys the {place_name(hid, self.data)} ferry for {self.fmt(self.data.FERRY_PRICE)}")
        self.refresh_p5()

    def p5_choices(self) -> list[str]:
        """The ferries P5 may double: its corporation's, until the player has chosen one (summary:
        "verdoppelt den Wert einer der Fähren der Gesellschaft ...; kann nicht neu zugewiesen
        werden"; which one, and when, is the player's choice: /assign by P5)."""
        p5 = self.companies.get("P5")
        if p5 is None or p5.closed or self.p5_ferry is not None or p5.owner not in self.corporations or self.ferries_removed:
            return []
        return [h for h, owner in self.ferries.items() if owner == p5.owner]

    def refresh_p5(self) -> None:
        """P5 offers its choice (an ``assign_hexes`` ability, as 1856's port marker) while it has one."""
        p5 = self.companies.get("P5")
        if p5 is None:
            return
        hexes = self.p5_choices()
        p5.abilities = [{"type": "assign_hexes", "hexes": hexes}] if hexes else []

    def assign_p5(self, corp: Corporation, target: str) -> None:
        if target not in self.p5_choices():
            raise GameError(f"P5 may double one of {corp.sym}'s ferries: {', '.join(self.p5_choices()) or 'none'}", RULE)
        self.p5_ferry = target
        self.log.append(f"P5 doubles {corp.sym}'s {place_name(target, self.data)} ferry (for good)")
        self.refresh_p5()

    def port_marks(self) -> dict[str, list[str]]:
        """The ferries until phase IV: each tagged with its owner, and P5 on the one it doubles."""
        if self.ferries_removed:
            return {}
        marks: dict[str, list[str]] = {}
        for hid, owner in self.ferries.items():
            marks[hid] = ([owner] if owner else []) + (["P5"] if hid == self.p5_ferry else [])
        return marks

    def status_notes(self) -> list[str]:
        """Lines the status picture shows under the depot: the ferries while there are any,
        and when the bank counts as empty (both provisional unless the host set them)."""
        table = self.provisional
        bank = f"{bank_line(table)} ({source_of(table, 'notes')})"
        if self.ferries_removed:
            return [bank]
        parts = []
        for hid, owner in self.ferries.items():
            badge = self.ferry_badge(hid)
            who = owner if owner else f"for sale {self.fmt(self.data.FERRY_PRICE)}"
            parts.append(f"{place_name(hid, self.data)} {who}" + (f" ({badge})" if badge else ""))
        return [f"Ferries (ports {source_of(table, 'ports')}): " + "  ·  ".join(parts), bank]

    def company_income(self, company: Company) -> int:
        # summary, phase III: "P3-P6 werden umgedreht (sie bringen keine Einnahmen mehr ...)"
        return 0 if company.sym in self.flipped else company.revenue

    def payout_companies(self) -> None:
        income: dict[str, list[str]] = {}
        for c in self.companies.values():
            if c.closed or c.owner is None or not self.company_income(c):
                continue  # flipped privates (phase III) earn nothing
            self.bank_pays(c.owner, c.revenue)
            if c.revenue:
                income.setdefault(c.owner, []).append(f"{self.fmt(c.revenue)} from {c.name}")
        for owner, parts in income.items():
            self.log.append(f"{self.name_of(owner)} collects {' and '.join(parts)}")

    def phase_three_privates(self) -> None:
        """Summary, phase III: privates in players' hands and P1-P2 are removed; P3-P6 are
        flipped (no more revenue, ability kept)."""
        for c in self.companies.values():
            if c.closed:
                continue
            if c.owner in self.player_by_id or c.sym in ("P1", "P2"):
                self.close_company(c)
                self.removed_companies.add(c.sym)
            else:
                self.flipped.add(c.sym)
        self.log.append("-- Phase III: privates in players' hands and P1-P2 are removed; P3-P6 flip --")

    def phase_four(self) -> None:
        """Summary, phase IV: P3-P5 and all ferries are removed; reservations end."""
        for sym in ("P3", "P4", "P5"):
            c = self.companies.get(sym)
            if c and not c.closed:
                self.close_company(c)
                self.removed_companies.add(sym)
        for hid in self.ferries:
            self.ferries[hid] = None
        self.ferries_removed = True
        for sym in list(self.special_reservations):
            self.special_reservations.pop(sym)
            self._drop_reservation(sym)
        self.log.append("-- Phase IV: P3-P5 and the ferries are removed; reservations end --")

    def _drop_reservation(self, sym: str) -> None:
        corp = self.corporations[sym]
        for h in self.board.hexes.values():
            if h.id == corp.home:
                continue
            for res in h.reservations.values():
                while sym in res:
                    res.remove(sym)
        self.board.changed()

    def close_company(self, company: Company) -> None:
        super().close_company(company)
        if company.sym == "P5":
            self.p5_ferry = None

    def company_min_price(self, c: Company) -> int:
        return 1

    def purchasable_companies(self) -> list[Company]:
        out = super().purchasable_companies()
        rnd = self.round
        if isinstance(rnd, OperatingRound):
            out = [c for c in out if self.company_price_floor(c) <= rnd.corp.cash]
        return out

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        super().buy_company(corp, action)
        company = self.company(action.company)
        if company.sym == "P2":
            self.p2_bought_key = self.round_key()
        if company.sym == "P5":
            self.refresh_p5()  # its owner now chooses the ferry it doubles

    def has_any_time_ability(self, corp: Corporation) -> bool:
        return False
