"""The sequence of rounds, and the operating round's hooks.

:class:`RoundFlow` is a part of :class:`engine.game.Game`: which round follows which, what
happens when a stock round ends, the operating order, starting a corporation's turn, and
when the game ends.
"""

from __future__ import annotations

from . import actions as A
from .entities import Company, Corporation
from .operating import (
    BuyCompanyStep,
    BuyTrainStep,
    DiscardTrainStep,
    DividendStep,
    FinalBuyCompanyStep,
    OperatingRound,
    RouteStep,
    Step,
    TokenStep,
    TrackStep,
)
from .special_steps import HomeTokenStep, SpecialBuyStep, SpecialStep


class RoundFlow:
    """Rounds one after another, and each corporation's operating turn."""

    def new_operating_round(self, num: int) -> OperatingRound:
        """Operating round ``num`` of the set, with the title's steps."""
        steps: list[type[Step]] = [
            SpecialStep, BuyCompanyStep, HomeTokenStep, SpecialBuyStep, TrackStep, TokenStep, RouteStep,
            DividendStep, DiscardTrainStep, BuyTrainStep, FinalBuyCompanyStep,
        ]
        return OperatingRound(self, num, steps)

    def operating_order(self) -> list[Corporation]:
        """The corporations that operate this round, in order."""
        corps = [c for c in self.corporations.values()
                 if not c.closed and c.ipoed and (self.floated(c) or self.floatable(c))]
        return sorted(corps, key=self.operating_sort_key)

    def on_operating_round_start(self, rnd: OperatingRound) -> None:
        """Called when operating round ``rnd`` starts (after the privates paid)."""

    def start_operating(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """``corp``'s turn begins: it floats if it can (else it is skipped: False), and places
        its home station."""
        if not corp.started and self.floatable(corp):
            corp.started = True
            self.log.append(f"{corp.sym} floats")
        if not corp.started:
            self.log.append(f"{corp.sym} failed to float and is skipped")
            self.failed_to_float(corp)
            return False
        corp.operated = True
        for tid in corp.trains:
            self.trains[tid].operated = False
        self.log.append(f"{self.name_of(corp.president or '')} operates {corp.sym}")
        self.place_home_token(rnd, corp)
        self.note_route(corp)
        return True

    def failed_to_float(self, corp: Corporation) -> None:
        """``corp`` was to operate but has not floated (its turn is skipped)."""

    def end_of_turn(self, rnd: OperatingRound, corp: Corporation) -> None:
        """Called when ``corp``'s operating turn ends."""

    def after_step_action(self, rnd: OperatingRound, action: A.Action) -> None:
        """Called after each action of an operating turn."""
        self.note_route(rnd.corp)
        if self.bank < 0:
            self.bank_broken()

    def after_buy_company(self, pid: str, company: Company, price: int) -> None:
        """Called when ``pid`` has bought ``company`` (in the auction)."""
