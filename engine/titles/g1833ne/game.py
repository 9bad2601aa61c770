"""1833NE: Railroading in New England (issue #4).

A plain :class:`engine.game.Game` (not of the 1856 family: no loans, national or
destinations) with 1833NE's own finances: incremental capitalization from a 20% start at a free price, issuing and
redeeming shares, a linear market moved by dividends relative to the price, two-sided
trains that become obsolete, connection bonuses and ferries, emergency issuing before the
president pays, bankruptcy that only eliminates the player, and the optional Takeover game.

Rules come from the project's 1833NE rule summary (1833NE.de.txt, German); where it is silent or unclear the
decision taken is listed in ``engine/titles/g1833ne/notes.md`` (and marked "# decision" in
the data).
"""

from __future__ import annotations

from typing import Any

from ... import actions as A
from ...errors import GAME_OVER, RULE, GameError
from ...rounds.operating import OperatingRound
from . import provisional as provisional_rules
from . import takeover as _takeover  # noqa: F401  (registers the takeover actions)
from .sequence import G1833NESequence


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
