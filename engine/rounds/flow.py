"""The sequence of rounds, and the operating round's hooks.

:class:`RoundFlow` is a part of :class:`engine.game.Game`: which round follows which, what
happens when a stock round ends, the operating order, starting a corporation's turn, and
when the game ends.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import Company, Corporation
from ..hooks import TitleHooks
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
from .stock import AuctionRound, Round, StockRound


class RoundFlow(TitleHooks):
    """Rounds one after another, and each corporation's operating turn."""

    def new_operating_round(self, num: int) -> OperatingRound:
        """Operating round ``num`` of the set, with the title's steps."""
        steps: list[type[Step]] = [
            SpecialStep, BuyCompanyStep, HomeTokenStep, SpecialBuyStep, TrackStep, TokenStep, RouteStep,
            DividendStep, DiscardTrainStep, BuyTrainStep, FinalBuyCompanyStep,
        ]
        return OperatingRound(self.as_game(), num, steps)

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

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        """The first round (the private auction)."""
        return AuctionRound(self.as_game())

    def new_stock_round(self) -> Round:
        """A stock round."""
        return StockRound(self.as_game())

    def next_round(self) -> None:
        """Called when the current round has finished."""
        r = self.round
        self.on_round_end(r)
        ids = [p.id for p in self.players]
        if isinstance(r, AuctionRound) and self.AUCTION_PRIORITY_FROM_TURN:
            # 18xx.games: the player whose turn to bid or pass would come next starts the stock
            # round (the turn order does not move while a company is auctioned)
            self.priority = ids.index(r.current)
        elif isinstance(r, StockRound) and r.waiting_on is not None:
            # the player a closing left with nothing to do passed last and ended the round: the
            # turn does not move on once more (18xx.games' cached step), they get the priority
            self.priority = ids.index(r.waiting_on)
        elif isinstance(r, (AuctionRound, StockRound)) and r.last_to_act is not None:
            self.priority = (ids.index(r.last_to_act) + 1) % len(ids)
            while self.players[self.priority].bankrupt:  # a bankrupt player left (1833NE)
                self.priority = (self.priority + 1) % len(ids)
        if isinstance(r, AuctionRound):
            self.round = self.new_stock_round()
        elif isinstance(r, StockRound):
            self.finish_stock_round()
            if self.check_game_end("stock"):
                return
            self.round_num = 1
            self.round = self.new_operating_round(1)
        elif isinstance(r, OperatingRound):
            if self.check_game_end("operating"):
                return
            if self.round_num < self.operating_rounds_in_set:
                self.round_num += 1
                self.round = self.new_operating_round(self.round_num)
            else:
                self.round = self.round_after_operating_set() or self.next_turn_stock_round()
        else:  # the title's round between a set of operating rounds and the next stock round
            self.round = self.next_turn_stock_round()
        self.log_round_start()
        self.round.start()

    def round_after_operating_set(self) -> Round | None:
        """A round the title plays after the last operating round of a set, before the next
        stock round (1833NE's takeover round); None: the stock round follows at once."""
        return None

    def next_turn_stock_round(self) -> Round:
        """The next turn begins with its stock round."""
        self.turn += 1
        self.round_num = 1
        return self.new_stock_round()

    def log_round_start(self) -> None:
        """ "-- Stock Round 2 --" (with who has the priority deal), "-- Operating Round 2.1 (of 2) --"."""
        r = self.round
        if isinstance(r, OperatingRound):
            self.log.append(f"-- Operating Round {self.turn}.{self.round_num} (of {self.operating_rounds_in_set}) --")
        elif isinstance(r, StockRound):
            self.log.append(f"-- Stock Round {self.turn} --")
            if self.players:
                self.log.append(f"{self.players[self.priority].name} has the priority deal (acts first)")

    def advance_rounds(self) -> None:
        """Move on while rounds end without anyone able to act. Without ``MAX_TURN``, a full
        stock round plus its operating rounds in which nobody can do anything twice in a row is
        a stalled game (no money and no corporation able to operate): it ends rather than loop
        forever."""
        empty_srs = 0
        while self.round.finished() and not self.finished:
            if self.MAX_TURN is not None:
                if self.turn >= self.MAX_TURN:
                    self.log.append(f"-- Turn {self.turn}: the game ends --")
                    self.end_game("dnf")
                    return
                self.next_round()
                continue
            was_sr = isinstance(self.round, StockRound)
            acted = self.round.last_to_act is not None
            self.next_round()
            if was_sr:
                empty_srs = 0 if acted else empty_srs + 1
                if empty_srs >= 3:
                    self.log.append("-- Nobody can act any more: the game ends --")
                    self.end_game("stalled")
                    return

    @property
    def operating_rounds_in_set(self) -> int:
        return self._or_set_size

    def finish_stock_round(self) -> None:
        """Sold-out corporations rise one space; the OR set size is fixed for this set."""
        # counted as presidencies are (1856: 18xx.games' share-holder table, see presidency_holdings)
        sold_out = [c for c in self.corporations.values()
                    if c.ipoed and not c.closed and c.price and sum(self.presidency_holdings(c.sym).values()) == 100]
        for corp in sorted(sold_out, key=self.operating_sort_key):
            self.move_price(corp, "up")
        self._or_set_size = self.phase["operating_rounds"]

    @staticmethod
    def operating_sort_key(c: Corporation) -> tuple[int, int, int]:
        """Higher price first, then further right, then earlier arrival on the space."""
        cell = c.price
        if cell is None:
            return (1, 0, 0)
        pos = cell.corporations.index(c.sym) if c.sym in cell.corporations else 99
        return (-cell.price, -cell.col, pos)

    def check_game_end(self, after: str) -> bool:
        if self.game_end_triggered == "bank" and after == "operating" and \
                self.round_num >= self.operating_rounds_in_set:
            self.end_game("bank")
            return True
        return False

    def bank_broken(self) -> None:
        if self.game_end_triggered is None:
            self.game_end_triggered = "bank"
            self.log.append("-- The bank has broken: the game ends after this set of operating rounds --")

    def end_game(self, reason: str) -> None:
        self.finished = True
        self.end_reason = reason
        ranked = sorted(self.result().items(), key=lambda kv: -kv[1])
        scores = ", ".join(f"{self.name_of(pid)} ({self.fmt(value)})" for pid, value in ranked)
        self.log.append(f"-- Game over ({self.end_reason_text}): {scores} --")
