"""1833NE's provisional values changed in play (issue #25).

Until the first operating round the host sets them as the game's options (``/game rules``). Later
a table found wrong is changed by a ``set_provisional`` action in the log: it takes effect from
that action on (earlier runs keep the values they were paid with) and is told in the game's log.
The bot appends it once every player at the table has agreed (the same vote as an undo of other
players' moves). Ferry ports do not move once a ferry has been bought."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ... import actions as A
from ...errors import GAME_OVER, RULE, GameError
from . import provisional as P

if TYPE_CHECKING:
    from .game import G1833NE


@dataclass(frozen=True)
class SetProvisional(A.Action):
    """New provisional values (entries as :func:`provisional.parse_settings` returns them)."""

    type: ClassVar[str] = P.SET_ACTION
    entries: tuple[str, ...] = ()

    def describe(self) -> str:
        return "changes the provisional values"


def apply(g: G1833NE, action: SetProvisional) -> None:
    if g.finished:
        raise GameError("The game is over", GAME_OVER)
    entries = list(action.entries)
    if not entries or not all(P.is_entry(e) for e in entries):
        raise GameError("set_provisional needs provisional-value entries", RULE)
    merged = P.merge_entries(g.provisional_entries, entries)
    table = P.table_from_options(merged, g.data)  # validates every entry
    if table.ferry_ports != g.provisional.ferry_ports:
        if any(owner for owner in g.ferries.values()) or g.ferries_removed:
            raise GameError("The ferry ports cannot move once a ferry has been bought", RULE)
        g.ferries = {h: None for h in table.ferry_ports}
    g.provisional_entries = merged
    g.provisional = table
    g.bank_reserve = table.bank_reserve
    g.log.append(
        "Provisional values changed by agreement of the players: "
        + P.entries_text(entries, g.data, g.fmt)
    )
