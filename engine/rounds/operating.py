"""The operating round: each corporation in turn runs through an ordered list of steps.

A step says which action types it accepts now (``actions``) and whether it holds the turn
(``blocks``).  An action goes to the first unfinished step that accepts it; a blocking
step that does not accept it rejects it.  Steps that block but have nothing to offer are
skipped automatically, which is how a turn moves on without explicit passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..entities import Corporation, Train
from ..errors import LIMIT, NOT_OWNER, NOT_YOUR_TURN, RULE, WRONG_STEP, GameError
from .stock import Round

if TYPE_CHECKING:
    from ..game import Game


class Step:
    name = "step"
    blocks_always = True

    def __init__(self, rnd: OperatingRound):
        self.round = rnd
        self.game: Game = rnd.game
        self.passed = False
        self.acted = False

    @property
    def corp(self) -> Corporation:
        return self.round.corp

    def blocks(self) -> bool:
        return self.blocks_always

    def actions(self, entity: str) -> list[str]:
        return []

    def active_entities(self) -> list[str]:
        return [self.corp.sym]

    def process(self, action: A.Action) -> None:
        raise GameError(f"{self.name} cannot handle {action.type}", WRONG_STEP, step=self.name, action=action.type)

    def skip(self) -> None:
        self.passed = True

    def setup(self) -> None:
        self.passed = False
        self.acted = False

    def blocking(self) -> bool:
        if not self.blocks():
            return False
        return any(self.actions(e) for e in self.active_entities())

    def offers_current(self) -> bool:
        """Whether the step lists anything for the first entity it waits for (18xx.games' active
        step's actions for its current entity)."""
        waiting = self.active_entities()
        return bool(waiting) and bool(self.actions(waiting[0]))

    def describe(self, entity: str) -> str:
        """What ``entity`` is asked to do in this step, in a player's words (its name, or more
        where the choice costs something: 1856's loans repaid or a merge)."""
        return self.name

    def pass_words(self, entity: str) -> str | None:
        """What passing this step does, for a pass button, when more than giving it up (None)."""
        return None

    def waits_for(self, entity: str) -> list[str]:
        """What ``entity`` may do first when this step offers it only a pass while it waits for
        that (in a player's words: "issue shares"); empty when nothing."""
        return []

    # what a title's step may list itself (None: the general rules decide)
    def buyable_trains(self) -> list[Train] | None:
        """The trains the operating corporation may buy in this step."""
        return None

    def sellable_bundles(self, pid: str) -> list[tuple[str, int]] | None:
        """``(corporation, percent)`` bundles the president ``pid`` may sell in this step."""
        return None

    def buyable_after_sale(self) -> list[Train] | None:
        """The trains the operating corporation could still buy once its president has sold
        shares for it in this step (None: the general rules decide, and a sale changes nothing)."""
        return None

    def discardable(self) -> list[str] | None:
        """Ids of the trains that may be discarded in this step."""
        return None

    def borrowable(self) -> list[str]:
        """Ids of the trains the operating corporation may borrow in this step."""
        return []


class OperatingRound(Round):
    name = "Operating Round"

    def __init__(self, game: Game, num: int, step_classes: list[type[Step]]):
        super().__init__(game)
        self.num = num
        self.entities: list[str] = [c.sym for c in game.operating_order()]
        self.index = 0
        self.steps = [cls(self) for cls in step_classes]
        self.state: dict[str, Any] = {}
        # facts about the whole round (``state`` is reset for each corporation)
        self.state_round: dict[str, Any] = {}
        self._finished = False
        # corporations closed when the action being processed began (titles whose referee
        # closes corporations only after an action: TitleHooks.closing_ends_idle_turn)
        self.closed_at_start: set[str] | None = None
        self.closed_current = False  # the current corporation was closed when the round reached it

    @property
    def corp(self) -> Corporation:
        return self.game.corporations[self.entities[self.index]]

    def start(self) -> None:
        self.game.payout_companies()
        self.game.on_operating_round_start(self)
        if not self.entities:
            self._finished = True
            return
        self.index = 0
        self._start_entity()

    # -- entity sequencing -------------------------------------------------------
    def _start_entity(self, *, closed_last_waits: bool = False) -> None:
        while True:
            corp = self.corp
            if corp.closed:  # passed over; its steps are not set up
                if self.index >= len(self.entities) - 1:
                    # after a closing that ended a turn (process), the last is current with the
                    # steps the one before left, if they offer it something
                    self.closed_current = closed_last_waits
                    self._finished = not (closed_last_waits and self.game.waits_for_closed_last(self))
                    return
                self.index += 1
                continue
            for s in self.steps:
                s.setup()
            self.state = {}
            if self.game.start_operating(self, corp):
                known, held = self._skip_steps()
                if (held if known else self.active_step()) is not None:
                    return
                self.game.end_of_turn(self, corp)
            if self.index >= len(self.entities) - 1:
                self._finished = True
                return
            self.index += 1

    def next_entity(self) -> None:
        self.game.end_of_turn(self, self.corp)
        if self.game.finished:
            return
        if self.index >= len(self.entities) - 1:
            self._finished = True
            return
        self.index += 1
        self._start_entity()

    def force_next_entity(self) -> None:
        if self.index >= len(self.entities) - 1:
            self._finished = True
            return
        self.index += 1
        self._start_entity()

    def recalculate_order(self) -> None:
        rest = self.entities[self.index + 1:]
        order = [c.sym for c in self.game.operating_order() if c.sym in rest]
        if self.closed_at_start is not None:
            # one closed by this action's price drop still counts until the action is through
            # (18xx.games closes after it), with its price at the bottom
            just_closed = self._closed() - self.closed_at_start
            order += [s for s in rest if s in just_closed]
        self.entities = self.entities[:self.index + 1] + order

    def finished(self) -> bool:
        return self._finished or self.game.finished

    # -- steps -------------------------------------------------------------------
    def active_step(self) -> Step | None:
        for s in self.steps:
            if not s.passed and s.blocking():
                return s
        return None

    def _skip_steps(self) -> tuple[bool, Step | None]:
        """Skips the steps that hold the turn but have nothing to offer, up to the first that has
        something. Returns (known, that step): known when nothing was skipped and no step passed
        over may hold the turn another way, so that the step (or None) is :meth:`active_step`."""
        known = True
        for s in self.steps:
            if s.passed:
                continue
            if not s.blocks():
                known = known and type(s).blocking is Step.blocking
                continue
            if s.blocking():
                return known, s
            s.skip()
            known = False
        return known, None

    def acting(self) -> list[str]:
        if self._finished:
            return []
        step = self.active_step()
        return step.active_entities() if step else []

    def action_types(self, entity: str) -> list[str]:
        if self.finished():
            return []
        out: list[str] = []
        for s in self.steps:
            if s.passed:
                continue
            for t in s.actions(entity):
                if t not in out:
                    out.append(t)
            if s.blocking():
                break
        return out

    def process(self, action: A.Action) -> None:
        if self.finished():
            raise GameError("The operating round is over", WRONG_STEP)
        entity = action.entity
        step = None
        for s in self.steps:
            if s.passed:
                continue
            accepts = action.type in s.actions(entity)
            if accepts:
                step = s
                break
            if s.blocking():
                who = ", ".join(self.game.name_of(e) for e in s.active_entities())
                allowed = ", ".join(s.actions(s.active_entities()[0])) if s.active_entities() else ""
                if entity not in s.active_entities() and self.game.controller_of(entity) is None:
                    raise GameError(f"{entity} cannot act now", NOT_YOUR_TURN, entity=entity)
                raise GameError(
                    f"{self.game.name_of(entity)} cannot {action.type.replace('_', ' ')} now: "
                    f"waiting for {who} to {s.name}" + (f" ({allowed})" if allowed else ""), NOT_YOUR_TURN, entity=entity, waiting=who, step=s.name)
        if step is None:
            raise GameError(f"{self.game.name_of(entity)} cannot {action.type.replace('_', ' ')} now", WRONG_STEP, entity=entity, action=action.type)
        closed_before = self.closed_at_start = self._closed() if self.game.closing_ends_idle_turn() else None
        left_current = self.closed_current and self.corp.closed  # (_start_entity)
        step.acted = True
        # 18xx.games closes a corporation by its price only after the action
        # (Game#action_processed), once its round has settled the action and skipped the steps
        # with nothing left to offer: a sale that drops another corporation to the closing
        # space closes it here after that too
        sold = self._sold_elsewhere(action) if closed_before is not None else None
        if sold is not None:
            self.game.defer_closings(sold)
        try:
            done, active = self._settle(step, action, closed_before, left_current)
        finally:
            if sold is not None:
                self.game.close_deferred()
        if done:
            return
        if active is None:
            self.next_entity()
        elif closed_before is not None and self._closed() - closed_before and not active.offers_current():
            # the closing emptied the step that held the turn after the action (18xx.games' active
            # step then lists nothing for whom it waits: the operating corporation, or a president
            # in a cash crisis, who still has their sale): the round moves to the next corporation
            # at once, past any later step (a loan repayment), without ending the turn; the
            # round's last corporation keeps its turn. A step the action itself left with nothing
            # (no train affordable once the interest is paid) was skipped before the closing, and
            # the later step that then holds the turn (the loan step) keeps it
            self._skip_steps()  # (what the emptied step leaves, as after any action)
            if self.index < len(self.entities) - 1:
                self.index += 1
                self._start_entity(closed_last_waits=True)

    def _sold_elsewhere(self, action: A.Action) -> str | None:
        """The corporation, other than the operating one, whose shares ``action`` sells."""
        if not isinstance(action, A.SellShares) or not action.shares:
            return None
        share = self.game.shares.get(action.shares[0])
        return share.corporation if share is not None and share.corporation != self.corp.sym else None

    def _settle(self, step: Step, action: A.Action, closed_before: set[str] | None,
                left_current: bool) -> tuple[bool, Step | None]:
        """Processes ``action`` in ``step`` and settles it: (done, the step then holding the
        turn); done when the round has already moved on or stays as it is."""
        operator_closed, president = self.corp.closed, self.corp.president
        step.process(action)
        # (a corporation closed by this action still counts as open until it is through)
        self.game.after_operating_action(self, None if operator_closed else (
            president if self.corp.closed else self.corp.president))
        self.state_round["acted"] = True
        if self.corp.closed and not left_current and not self.game.finished:
            # the operating corporation closed during its own turn: the next one operates (what
            # still waits for someone else, like the national's discard, then waits in its
            # turn); after the round's last turn that waiting is done before the round ends
            if self.game.bank < 0:  # the closing turn may still have broken the bank
                self.game.bank_broken()
            waiting = self.active_step()
            # closed by its price in an action someone else took (its president's crisis sale):
            # 18xx.games closes it only after the action, having found that step still waiting,
            # so the round stays with it until the step is done (see after_operating_action)
            # and nothing cut its turn short
            stays = not operator_closed and closed_before is not None and waiting is not None \
                and self.corp.sym in self._closed() - closed_before and self.corp.sym not in waiting.active_entities()
            if not operator_closed and not stays:  # (once, when it closes)
                self.game.turn_cut_short(self.corp)
            if all(self.game.corporations[e].closed for e in self.entities):
                # nobody of this round is left to operate: it ends at once, even with the
                # national's discard waiting (as 18xx.games ends it)
                self._finished = True
                return True, None
            if stays:
                return True, None
            later = any(not self.game.corporations[e].closed for e in self.entities[self.index + 1:])
            waiting = self.active_step()
            if not later and waiting is not None and self.corp.sym not in waiting.active_entities():
                return True, None  # the last turn of the round: what still waits is done first
            self.force_next_entity()
            return True, None
        self.game.after_step_action(self, action)
        if left_current:  # the closed corporation left current acts once; it holds no step after
            self.next_entity()
            return True, None
        if self.game.end_pending == "bankrupt":
            # 18xx.games skips no step after a bankruptcy (OperatingRound#skip_steps): the game
            # ends before a corporation that has not run yet is settled ("does not run"); the
            # round moves on only when no step of the corporation waits for it
            if self.active_step() is None:
                self.next_entity()
            return True, None
        known, held = self._skip_steps()
        if self.corp.closed and not operator_closed:
            # closed while its skipped steps were settled (a withheld non-run dropping its price
            # to 0): its own step was current, so 18xx.games cuts the turn short
            self.game.turn_cut_short(self.corp)
        if self.game.finished:
            return True, None
        return False, held if known else self.active_step()

    def _closed(self) -> set[str]:
        """The corporations closed by their price (in the market's closing cell)."""
        return {s for s, c in self.game.corporations.items() if c.closed and c.price is not None and "close" in c.price.types}


# ---------------------------------------------------------------------- steps


class TrackStep(Step):
    name = "lay track"

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym or self.round.state.get("track_done"):
            return []
        g = self.game
        if self.lays_left():
            return ["lay_tile", "pass"]
        # the step stays open (pass only) while a private's tile lay can still be bought or used
        if g.can_buy_tile_laying_company(self.corp) or g.owns_track_time_tile_lay(self.round, self.corp):
            return ["pass"]
        return []

    def waits_for(self, entity: str) -> list[str]:
        # its own lays done, the step stays open for a private company's tile lay
        if self.lays_left() or self.actions(entity) != ["pass"]:
            return []
        g = self.game
        out = []
        if g.owns_track_time_tile_lay(self.round, self.corp):
            out.append("use its private company's tile lay")
        if g.can_buy_tile_laying_company(self.corp):
            out.append("buy a private company that lays track")
        return out

    def lays_left(self) -> bool:
        laid: int = self.round.state.get("tiles_laid", 0)
        return laid < self.game.tile_lays_per_turn(self.corp)

    def process(self, action: A.Action) -> None:
        if isinstance(action, A.Pass):
            self.skip()
            return
        assert isinstance(action, A.LayTile)
        if not self.lays_left():
            raise GameError(f"{self.corp.sym} has already laid its tile this turn", LIMIT, corporation=self.corp.sym)
        self.game.lay_tile(self.corp, action)
        self.round.state["tiles_laid"] = self.round.state.get("tiles_laid", 0) + 1
        if not self.actions(self.corp.sym):
            # done for the turn, even if a loan later makes a tile-laying private affordable
            # (18xx.games passes its track step right after such a lay)
            self.round.state["track_done"] = True

    def skip(self) -> None:
        """Leaving the track step: the title checks destinations (1856 Escrow step)."""
        self.passed = True
        self.game.after_track(self.round, self.corp)


class TokenStep(Step):
    name = "place a token"

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym or self.round.state.get("tokened"):
            return []
        return ["place_token", "pass"] if self.game.can_place_token(self.corp, step=True) else []

    def process(self, action: A.Action) -> None:
        if isinstance(action, A.Pass):
            self.passed = True
            return
        assert isinstance(action, A.PlaceToken)
        self.game.place_token(self.corp, action)
        self.round.state["tokened"] = True
        self.passed = True


class RouteStep(Step):
    name = "run routes"

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym:
            return []
        return ["run_routes"] if self.game.can_run_routes(self.corp) else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.RunRoutes)
        self.round.state["routes"] = self.game.run_routes(self.corp, action)
        self.passed = True


class DividendStep(Step):
    name = "pay or withhold dividends"

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym:
            return []
        return ["dividend"] if self.game.can_choose_dividend(self.round, self.corp) else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.Dividend)
        if action.kind not in self.game.dividend_kinds(self.corp):
            raise GameError(f"{self.corp.sym} cannot {action.kind}", RULE, corporation=self.corp.sym, kind=action.kind)
        self.game.pay_dividend(self.round, self.corp, action.kind)
        self.passed = True

    def skip(self) -> None:
        self.game.pay_dividend(self.round, self.corp, "withhold")
        self.passed = True


class DiscardTrainStep(Step):
    name = "discard a train"

    def active_entities(self) -> list[str]:
        """The first crowded corporation is the one waited for; any crowded one may discard."""
        return [c.sym for c in self.game.crowded_corps()][:1]

    def blocking(self) -> bool:
        return bool(self.active_entities())

    def actions(self, entity: str) -> list[str]:
        return ["discard_train"] if entity in [c.sym for c in self.game.crowded_corps()] else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.DiscardTrain)
        train = self.game.train(action.train)
        if train.owner != action.entity:
            raise GameError(f"{action.entity} does not own {train.id}", NOT_OWNER, entity=action.entity, train=train.id)
        self.game.discard_train(train)

    def skip(self) -> None:
        pass


class BuyTrainStep(Step):
    name = "buy trains"

    def actions(self, entity: str) -> list[str]:
        """A corporation that must buy a train it cannot afford gets its president's help:
        the president may sell shares, contribute cash, or (when even that cannot reach the
        cheapest train) declare bankruptcy."""
        g = self.game
        corp = self.corp
        emergency = g.must_buy_train(corp) and g.needs_emergency_money(corp)
        if emergency and entity == corp.president and entity != corp.sym:
            return ["sell_shares"] if g.president_can_sell_for_train(corp) else []
        if entity != corp.sym:
            return []
        if emergency:
            out = []
            # the president pays what the treasury lacks, selling shares first when their cash
            # is short (18xx.games' emergency buy: the step waits for the sale; 1833NE summary
            # "Notverkauf": "muss ... eigene Aktien verkaufen")
            if g.president_can_fund_train(corp) or g.president_can_sell_for_train(corp):
                out.append("buy_train")
            if g.can_go_bankrupt(corp):
                out.append("bankrupt")
            return out
        if g.can_buy_train(corp):
            return ["buy_train"] if g.must_buy_train(corp) else ["buy_train", "pass"]
        return []

    def active_entities(self) -> list[str]:
        return [self.corp.sym]

    def process(self, action: A.Action) -> None:
        corp = self.corp
        if isinstance(action, A.Pass):
            if self.game.must_buy_train(corp):
                raise GameError(f"{corp.sym} must buy a train", RULE, corporation=corp.sym)
            self.passed = True
            self.game.after_buy_train_step(self.round, corp)
            return
        if isinstance(action, A.SellShares):
            self.game.emergency_sell(self.round, corp, action)
            return
        if isinstance(action, A.Bankrupt):
            self.game.declare_bankrupt(self.round, corp)
            return
        assert isinstance(action, A.BuyTrain)
        self.game.buy_train(self.round, corp, action)
        if not self.game.can_buy_train(corp):
            self.passed = True
            self.game.after_buy_train_step(self.round, corp)

    def skip(self) -> None:
        self.passed = True
        self.game.after_buy_train_step(self.round, self.corp)


class BuyCompanyStep(Step):
    """Buying a private from a player; ``blocking=True`` is the final, passable step."""

    name = "buy private companies"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym or not self.game.can_buy_companies(self.corp):
            return []
        return ["buy_company", "pass"] if self.blocks() else ["buy_company"]

    def process(self, action: A.Action) -> None:
        if isinstance(action, A.Pass):
            self.passed = True
            return
        assert isinstance(action, A.BuyCompany)
        self.game.buy_company(self.corp, action)


class FinalBuyCompanyStep(BuyCompanyStep):
    blocks_always = True

    def actions(self, entity: str) -> list[str]:
        out = super().actions(entity)
        if not out and entity == self.corp.sym and self.game.has_any_time_ability(self.corp):
            return ["pass"]
        return out

