"""1856's own operating-round steps: loans, the port marker, and 1836Jr56 CdH's station."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ... import actions as A
from ...errors import NOT_OWNER, GameError
from ...rounds.operating import Step

if TYPE_CHECKING:
    from ...game import Game
    from .game import G1856


def as_g1856(game: Game) -> G1856:
    """``game`` as the 1856-family game it is (the 1856 steps run in no other)."""
    return cast("G1856", game)


class LoanStep(Step):
    """Loans may be taken any time in the turn; after buying trains the corporation may repay."""

    name = "take or repay loans"

    def blocks(self) -> bool:
        g = as_g1856(self.game)
        return not g.post_nationalization and self.round.state.get("bought_trains_done", False)

    def describe(self, entity: str) -> str:
        """ "take a loan" or "repay a loan" where only one of the two is open (as 18xx.games: "Take
        Loans", "Payoff Loans"), "take or repay loans" where both are."""
        acts = self.actions(entity)
        take, repay = "take_loan" in acts, "payoff_loan" in acts
        if take != repay:
            return "take a loan" if take else "repay a loan"
        return self.name

    def actions(self, entity: str) -> list[str]:
        g = as_g1856(self.game)
        corp = self.corp
        if entity != corp.sym:
            return []
        if corp.closed and not self.round.closed_current:  # (G1856.waits_for_closed_last)
            return []
        out = []
        done = self.round.state.get("bought_trains_done")
        if done and corp.loans and corp.cash >= g.loan_value:
            out.append("payoff_loan")
        if g.can_take_loan(self.round, corp):
            out.append("take_loan")
        # more loans than shares in players' hands are repaid when the step ends (a pass)
        forced = done and corp.loans > g.maximum_loans(corp)
        if (out or forced) and self.blocks():
            out.append("pass")
        return out

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        corp = self.corp
        if isinstance(action, A.Pass):
            self.passed = True
        elif isinstance(action, A.TakeLoan):
            g.take_loan(self.round, corp, action.loan)
        elif isinstance(action, A.PayoffLoan):
            if not corp.loans:
                raise GameError(f"{corp.sym} has no loan to repay", NOT_OWNER)
            g.export_fill["loan"] = g.loan_book.repay(corp.sym, action.loan)
            g.spend(corp.sym, "bank", g.loan_value)
            corp.loans -= 1
            g.loans_available += 1
            self.round.state["redeemed_loan"] = True
            g.log.append(f"{corp.sym} pays off a loan for {g.fmt(g.loan_value)}")


class AssignStep(Step):
    """A private's one-off marker (1856 GLSC port marker) placed by its owning corporation."""

    name = "place a private's marker"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        company = self.game.companies.get(entity)
        if company and not company.closed and company.owner == self.corp.sym and \
                company.ability("assign_hexes"):
            return ["assign"]
        return []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.Assign)
        as_g1856(self.game).assign(self.corp, action)


class TeleportTokenStep(Step):
    """After a teleport lay (1836Jr56 CdH on J8) the private places the corporation's station
    there for free, or passes; it holds the turn until then (as on 18xx.games). The station
    is the turn's token."""

    name = "place the private's station"

    def company(self) -> str | None:
        return self.round.state.get("teleported")

    def active_entities(self) -> list[str]:
        c = self.company()
        return [c] if c else []

    def blocking(self) -> bool:
        return self.company() is not None

    def actions(self, entity: str) -> list[str]:
        return ["place_token", "pass"] if entity == self.company() else []

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        if isinstance(action, A.PlaceToken):
            g.teleport_token(self.round, self.corp, action)
        else:
            g.log.append(f"{action.entity} declines to place a station")
        self.round.state.pop("teleported", None)

    def skip(self) -> None:
        pass
