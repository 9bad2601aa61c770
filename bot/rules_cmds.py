"""A title's provisional values (1833NE: bonuses, ferries, the bank's reserve), which no
source gives: ``/game new title:1833NE bonuses:...`` sets them when the game is opened,
``/game rules`` shows them and ``/game rules bonuses:...`` (host) changes them until the first
operating round.  They are stored as entries of the game's optional rules, so exports and
replays carry them.  Handlers take the game service first; :mod:`bot.command_table` registers them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.errors import GameError
from engine.titles.registry import TITLES, canonical_title, title_info

from .gamelog import build_game
from .reply import Caller, Reply, UserError

if TYPE_CHECKING:
    from .service import GameService

PARAM = "bonuses"
HEADER = "Provisional values (provisional: set from your rulebook)"
HINT = (
    'The host sets them until the first operating round: /game rules bonuses:"Boston-Portland=50/50/80/80/0; '
    'Montreal-Portland=cross:60/60/100/100/50; ferry=20; new=20; last=20; ports=G22,I14,C26,E26,I26; notes=2" '
    "(a pair takes its values in phases I-V; cross: may be reached by extending a route)"
)


def _title_module(title: str) -> tuple[Any, Any] | None:
    """(provisional-values module, title data) for a title that has such values, else None."""
    info = title_info(title)
    module = info.provisional
    return (module, info.data) if module is not None else None


def has_provisional(title: str) -> bool:
    return _title_module(title) is not None


def parse_entries(title: str, text: str) -> list[str]:
    """What the host typed as option entries; UserError saying what is wrong."""
    found = _title_module(title)
    if found is None:
        raise UserError(f"{canonical_title(title)} has no provisional values to set")
    module, data = found
    try:
        entries: list[str] = module.parse_settings(text, data)
        return entries
    except GameError as exc:
        raise UserError(f"{PARAM}: {exc}") from None


def merged_options(title: str, options: list[str], text: str) -> list[str]:
    module, _ = _title_module(title) or (None, None)
    entries = parse_entries(title, text)
    return module.merge_entries(options, entries) if module else options


def plain_options(options: list[str]) -> list[str]:
    """The optional rules a player chose (without provisional-value entries)."""
    modules = [m for m in (info.provisional for info in TITLES.values()) if m is not None]
    return [o for o in options if not any(m.is_entry(o) for m in modules)]


def table_lines(title: str, options: list[str], *, hint: bool = False) -> list[str]:
    """The game's provisional values as message lines (with how to set them: ``hint``); []
    for a title without any."""
    found = _title_module(title)
    if found is None:
        return []
    module, data = found
    try:
        table = module.table_from_options(options, data)
    except GameError as exc:  # a stored entry the engine no longer reads
        return [f"{HEADER}: cannot be read ({exc})"]
    return [f"**{HEADER}**", *module.summary_lines(table, data), *([HINT] if hint else [])]


async def game_rules(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Show the game's provisional values; the host changes them with ``bonuses:`` until the
    first operating round."""
    row = await service.row(channel_id)
    text = (params.get(PARAM) or "").strip()
    if not has_provisional(row.title):
        if text:
            raise UserError(f"{row.title} has no provisional values to set")
        return Reply(
            lines=[f"{row.title} plays by its rules as built in; it has no provisional values."],
            ephemeral=True,
        )
    if not text:
        return Reply(
            lines=table_lines(row.title, row.optional_rules, hint=await _still_open(service, row)),
            ephemeral=True,
        )
    service.require_host(row, caller, "change the provisional values")
    options = merged_options(row.title, row.optional_rules, text)
    if not await _still_open(service, row):
        raise UserError("The provisional values are fixed once the first operating round has begun")
    if row.status == "active":
        seats = await service.store.seats(row.id)
        logged = await service.store.actions(row.id)
        build_game(replace(row, optional_rules=options), seats, [e.data for e in logged])  # still replays
    await service.store.set_optional_rules(row.id, options)
    row.optional_rules = options
    service.forget(row.id)  # rebuilt with the new values on the next load
    return Reply(lines=[f"{caller.name} set provisional values:", *table_lines(row.title, options)[1:]])


async def _still_open(service: GameService, row: Any) -> bool:
    """Values may change in the lobby and, once started, until the first operating round."""
    if row.status == "lobby":
        return True
    if row.status != "active":
        return False
    game = (await service.load(row)).game
    return game.provisional_open()
