"""1833NE: Railroading in New England (issue #4).

A plain :class:`engine.game.Game` (not of the 1856 family: no loans, national or
destinations) with 1833NE's own finances: incremental capitalization from a 20% start at a
free price, issuing and redeeming shares, a linear market moved by dividends relative to the
price, two-sided trains that become obsolete, connection bonuses and ferries, emergency issuing
before the president pays, bankruptcy that only eliminates the player, and the optional
Takeover game.

Rules come from the project's 1833NE rule summary (1833NE.de.txt, German); where it is silent
or unclear the decision taken is listed in ``engine/titles/g1833ne/notes.md`` (and marked
"# decision" in the data).

Two layers: :class:`G1833NESequence`, the round sequence (the operating order - the first OR
in ascending price order -, starting a corporation's turn (receivership), the phases and what
they remove, the takeover round, and the game's end: bank, last train, all closed,
bankruptcies), and :class:`G1833NE` over it (rounds, provisional values).
"""

from __future__ import annotations

from typing import Any, cast

from ... import actions as A
from ...entities import Corporation, Train
from ...errors import GAME_OVER, RULE, GameError
from ...mechanics.phase_text import phase_line
from ...rounds.operating import OperatingRound
from ...rounds.stock import Round
from . import provisional as provisional_rules
from . import takeover as _takeover  # noqa: F401  (registers the takeover actions)
from .companies import G1833NECompanies

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
        first = self.turn == 1 and self.round_num == 1 and (
            not isinstance(self.round, OperatingRound) or self.round.num == 1)
        if first:
            # summary: the first OR of the game runs in reverse (ascending) price order (while
            # it is set up and while it runs: a bankruptcy then re-sorts the rest that way)
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
        rusted: dict[str, list[str]] = {}
        obsolete: dict[str, list[str]] = {}
        for t, effect in self.phase_train_effects(name):
            owner = t.owner if t.owner != "discard" else "open market"
            if effect == "rust":
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
        return END_TEXTS.get(self.end_reason or "") or super().end_reason_text


class G1833NE(G1833NESequence):
    """The 1833NE game: its rule layers (base, finance, emergency, trains, routes, stations,
    Sherbrooke, track, companies, sequence) and its rounds, provisional values and takeovers."""

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Any:
        from .steps import NEAuctionRound

        return NEAuctionRound(self)

    def new_stock_round(self) -> Any:
        from .steps import NEStockRound

        return NEStockRound(self)

    def new_operating_round(self, num: int) -> OperatingRound:
        from .steps import operating_steps

        return OperatingRound(self, num, operating_steps())

    # ------------------------------------------------------------------ provisional values
    def provisional_rows(self) -> list[list[str]]:
        """The game's provisional values as rows [what, I, II, III, IV, V, source]."""
        return provisional_rules.table_rows(self.provisional, self.data)

    def provisional_lines(self) -> list[str]:
        """The game's provisional values as message lines (``/game new``, ``/game rules``)."""
        return provisional_rules.summary_lines(self.provisional, self.data, self.fmt)

    def _process(self, action: A.Action) -> None:
        if isinstance(action, provisional_rules.SetProvisional):  # any time, by the players' agreement
            self.recorded_auto, self.auto_done = {}, []
            self.change_provisional(action)
            return
        super()._process(action)

    def provisional_open(self) -> bool:
        """The host may change the provisional values until the first operating round."""
        return self.turn == 1 and not isinstance(self.round, OperatingRound) and not self.finished

    def change_provisional(self, action: provisional_rules.SetProvisional) -> None:
        """The provisional values changed in play (issue #25): until the first operating
        round the host sets them as the game's options (``/game rules``); later a table found
        wrong is changed by this action, logged, once every player has agreed (the same vote as
        an undo of other players' moves). It takes effect from here on (earlier runs keep the
        values they were paid with); ferry ports do not move once a ferry has been bought."""
        if self.finished:
            raise GameError("The game is over", GAME_OVER)
        entries = list(action.entries)
        if not entries or not all(provisional_rules.is_entry(e) for e in entries):
            raise GameError("set_provisional needs provisional-value entries", RULE)
        merged = provisional_rules.merge_entries(self.provisional_entries, entries)
        table = provisional_rules.table_from_options(merged, self.data)  # validates every entry
        if table.ferry_ports != self.provisional.ferry_ports:
            if any(owner for owner in self.ferries.values()) or self.ferries_removed:
                raise GameError("The ferry ports cannot move once a ferry has been bought", RULE)
            self.ferries = {h: None for h in table.ferry_ports}
        self.provisional_entries = merged
        self.provisional = table
        self.bank_reserve = table.bank_reserve
        self.log.append(
            "Provisional values changed by agreement of the players: "
            + provisional_rules.entries_text(entries, self.data, self.fmt)
        )
