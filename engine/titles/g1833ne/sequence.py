"""1833NE round sequence: the operating order (the first OR in ascending price order), starting
a corporation's turn (receivership), the phases and what they remove, the takeover round, and
the game's end (bank, last train, all closed, bankruptcies)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ... import actions as A
from ...entities import Corporation, Train
from ...mechanics.phase_text import phase_line
from ...rounds.operating import OperatingRound
from ...rounds.stock import Round
from .companies import G1833NECompanies

if TYPE_CHECKING:
    from .game import G1833NE

END_TEXTS = {  # why the game ended, in words (G1833NE.end_reason_text)
    "bank": "the bank ran out of money and the set of operating rounds was played to its end",
    "final_train": "the last train was sold and one more set of operating rounds was played",
    "all_closed": "every corporation and private company had closed",
    "bankrupt": "all players but one went bankrupt",
    "manually_ended": "the host ended it",
    "stalled": "nobody could act any more (no corporation left and no money to start one)",
}


class G1833NESequence(G1833NECompanies):
    """Operating order, phases, rounds and the end of the game."""

    def operating_order(self) -> list[Corporation]:
        corps = [c for c in self.corporations.values() if c.ipoed and not c.closed]
        if self.turn == 1 and self.round_num == 1 and not isinstance(self.round, OperatingRound):
            # summary: the first OR of the game runs in reverse (ascending) price order
            return sorted(
                corps,
                key=lambda c: (
                    c.price.price if c.price else 0,
                    c.price.corporations.index(c.sym) if c.price else 0,
                ),
            )
        return sorted(corps, key=self.operating_sort_key)

    def start_operating(self, rnd: OperatingRound, corp: Corporation) -> bool:
        corp.operated = True
        corp.started = True
        for tid in corp.trains:
            self.trains[tid].operated = False
        if corp.president is None:
            from .steps import operate_in_receivership

            operate_in_receivership(cast("G1833NE", self), rnd, corp)
            return False
        self.log.append(f"{self.name_of(corp.president or '')} operates {corp.sym}")
        return True

    def check_end_triggers(self) -> None:
        """Summary "Spielende": the bank running out ends the game after the current sequence
        (stock round and its operating rounds).  18xx.games' GAME_END_CHECK adds: the last
        train sold (one more full set of operating rounds) and every corporation and private
        closed (at once).  All players but one bankrupt ends it at once (bankrupt_player)."""
        if self.finished:
            return
        if self.bank <= self.bank_reserve:
            self.bank_broken()
        if all(c.closed for c in self.corporations.values()) and all(c.closed for c in self.companies.values()):
            self.log.append("-- Every corporation and private company has closed: the game ends --")
            self.end_game("all_closed")

    def bank_broken(self) -> None:
        self.trigger_end(
            "bank",
            self.turn,
            "-- The bank is empty: the $1,000 notes set aside are added; the game "
            "ends after this set of operating rounds --",
        )

    def trigger_end(self, reason: str, after_turn: int, message: str) -> None:
        """The game ends after the last operating round of set ``after_turn``; the earliest
        trigger wins (18xx.games keeps the earliest timing)."""
        if self.end_after_turn is not None and self.end_after_turn <= after_turn:
            return
        self.end_after_turn = after_turn
        self.game_end_triggered = reason
        self.log.append(message)

    def round_after_operating_set(self) -> Round | None:
        """The takeover game plays a takeover round after each set of operating rounds from
        phase II on (summary, Takeover game)."""
        if self.takeover_game and self.phase_index >= self.phase_index_of("II"):
            from .takeover import TakeoverRound

            return TakeoverRound(cast("G1833NE", self))
        return None

    def on_train_bought_from_depot(self, train: Train) -> None:
        card = self.card_of[train.id]
        for i, ph in enumerate(self.phases):
            if i > self.phase_index and ph.get("on") == card:
                self.change_phase(i)
                break
        train.events = []
        if not any(t.owner == "depot" for t in self.trains.values()):
            # 18xx.games GAME_END_CHECK final_train: one_more_full_or_set
            self.trigger_end(
                "final_train",
                self.turn + 1,
                "-- The last train is sold: the game ends after the next complete set of operating rounds --",
            )

    def change_phase(self, index: int) -> None:
        previous = self.phase
        self.phase_index = index
        name = self.phase["name"]
        self.log.append(phase_line(self.phase, previous))
        life = self.data.TRAIN_CARD_LIFE
        rusted: dict[str, list[str]] = {}
        obsolete: dict[str, list[str]] = {}
        for t in self.trains.values():
            obsolete_in, removed_in = life[self.card_of[t.id]]
            if t.owner in self.corporations or t.owner == "discard":
                owner = t.owner if t.owner != "discard" else "open market"
                if removed_in == name:
                    rusted.setdefault(t.name, []).append(owner)
                    self.scrap_train(t)
                elif obsolete_in == name:
                    if t.owner == "discard":
                        rusted.setdefault(t.name, []).append(owner)
                        self.scrap_train(t)
                    else:
                        obsolete.setdefault(t.name, []).append(owner)
                        self.obsolete.add(t.id)
        for train, owners in rusted.items():
            held = ", ".join(f"{o} x{owners.count(o)}" for o in dict.fromkeys(owners))
            self.log.append(f"-- Event: {train} trains rust and leave the game ({held}) --")
        for train, owners in obsolete.items():
            held = ", ".join(f"{o} x{owners.count(o)}" for o in dict.fromkeys(owners))
            self.log.append(f"-- Event: {train} trains are obsolete: each runs once more, then is removed ({held}) --")
        if name == "III":
            self.phase_three_privates()
        if name == "IV":
            self.phase_four()

    def check_game_end(self, after: str) -> bool:
        if after == "stock":
            return False  # the triggers are checked after each action; the end comes after an OR
        self.check_end_triggers()  # money paid between actions (privates at the start of an OR)
        if self.finished:
            return True
        if (
            after == "operating"
            and self.end_after_turn is not None
            and self.turn >= self.end_after_turn
            and self.round_num >= self.operating_rounds_in_set
            and self.game_end_triggered
        ):
            self.end_game(self.game_end_triggered)
            return True
        return False

    def close_corporation(self, corp: Corporation) -> None:
        """A corporation at $0 closes: trains, stations, ferries and privates go; its shares
        are worthless (they return to it)."""
        self.log.append(f"{corp.sym} closes")
        corp.closed = True
        if corp.price and corp.sym in corp.price.corporations:
            corp.price.corporations.remove(corp.sym)
        for tid in list(corp.trains):
            self.scrap_train(self.trains[tid])
        for h in self.board.hexes.values():
            for slots in h.tokens.values():
                for i, holder in enumerate(slots):
                    if holder == corp.sym:
                        slots[i] = None
            for res in h.reservations.values():
                while corp.sym in res:
                    res.remove(corp.sym)
        self.board.changed()
        self.sherbrooke_sharer_closed(corp)
        for s in self.corp_shares(corp.sym):
            self.move_share(s, corp.sym)
        for c in list(corp.companies):
            self.close_company(self.companies[c])
        for hid, owner in self.ferries.items():
            if owner == corp.sym:
                self.ferries[hid] = None
        self.special_reservations.pop(corp.sym, None)
        if corp.cash:
            self.spend(corp.sym, "bank", corp.cash)  # decision: a closed corporation's treasury returns to the bank
        corp.president = None
        self.pool_overflow.discard(corp.sym)

    def after_step_action(self, rnd: OperatingRound, action: A.Action) -> None:
        self.check_end_triggers()

    def after_action(self, action: A.Action) -> None:
        self.check_end_triggers()
        self.refresh_p5()  # ferries and P5 move with takeovers, close, go in phase IV

    def check_bank(self) -> None:
        """Whether the bank is down to its reserve (the game-end triggers, checked now)."""
        self.check_end_triggers()

    @property
    def end_reason_text(self) -> str | None:
        """Why the game ended, in words (the end-of-game summary shows it)."""
        return END_TEXTS.get(self.end_reason or "", self.end_reason)
