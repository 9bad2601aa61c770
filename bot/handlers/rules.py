"""A title's provisional values (1833NE: bonuses, ferries, the bank's reserve), which no
source gives: ``/game new title:1833NE bonuses:...`` sets them when the game is opened,
``/game rules`` shows them and ``/game rules bonuses:...`` (host) changes them: until the first
operating round as entries of the game's optional rules (so exports and replays carry them);
later, once every player at the table agrees (the vote of :mod:`bot.handlers.undo`), as an action appended
to the log that takes effect from then on and is told in the game's log.  Handlers take the game
service first; :mod:`bot.commands.table` registers them.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.errors import GameError
from engine.titles.registry import TITLES, canonical_title, title_info

from ..gamelog import build_game
from ..reply import Caller, Reply, UserError
from .undo import Motion, append_action, motion_topic, open_motion, save_vote, table_vote

if TYPE_CHECKING:
    from ..service import GameService

PARAM = "bonuses"
HEADER = "Provisional values (provisional: set from your rulebook)"
HINT = (
    'The host sets them (after the first operating round with every player\'s agreement): '
    '/game rules bonuses:"Boston-Portland=50/50/80/80/0; '
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


def table_lines(title: str, options: list[str], *, hint: bool = False, decisions: bool = False) -> list[str]:
    """The game's provisional values as message lines (with how to set them: ``hint``; with the
    fixed decisions no source settles: ``decisions``); [] for a title without any."""
    found = _title_module(title)
    if found is None:
        return []
    module, data = found
    try:
        table = module.table_from_options(options, data)
    except GameError as exc:  # a stored entry the engine no longer reads
        return [f"{HEADER}: cannot be read ({exc})"]
    return [f"**{HEADER}**", *module.summary_lines(table, data), *([HINT] if hint else []),
            *(module.decision_lines() if decisions else [])]


async def game_rules(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Show the game's provisional values; the host changes them with ``bonuses:`` (once the
    first operating round has begun, when every player at the table agrees)."""
    row = await service.row(channel_id)
    text = (params.get(PARAM) or "").strip()
    vote = (params.get("vote") or "").lower() or None
    if not has_provisional(row.title):
        if text:
            raise UserError(f"{row.title} has no provisional values to set")
        return Reply(
            lines=[f"{row.title} plays by its rules as built in; it has no provisional values."],
            ephemeral=True,
        )
    if vote is not None:
        return await _vote_on_change(service, row, caller, params, vote)
    if not text:
        return Reply(
            lines=table_lines(row.title, row.optional_rules, hint=row.status in ("lobby", "active"), decisions=True),
            ephemeral=True,
        )
    service.require_host(row, caller, "change the provisional values")
    options = merged_options(row.title, row.optional_rules, text)
    if not await _still_open(service, row):
        if row.status != "active":
            raise UserError("The game is over: its provisional values stay as they were")
        return await _propose_change(service, row, caller, params, parse_entries(row.title, text))
    if row.status == "active":
        seats = await service.store.seats(row.id)
        logged = await service.store.actions(row.id)
        # the log still replays with the new values (a replay: in a worker thread, off the event loop)
        await asyncio.to_thread(build_game, replace(row, optional_rules=options), seats, [e.data for e in logged])
    await service.store.set_optional_rules(row.id, options)
    row.optional_rules = options
    service.forget(row.id)  # rebuilt with the new values on the next load
    return Reply(lines=[f"{caller.name} set provisional values:", *table_lines(row.title, options)[1:]])


def _described(row: Any, entries: list[str]) -> str:
    info = title_info(row.title)
    return info.provisional.entries_text(entries, info.data) if info.provisional else " ".join(entries)


def _motion(row: Any, entries: list[str]) -> Motion:
    return Motion(f"change the provisional values: {_described(row, entries)}", "/game rules", " ".join(entries), "change")


def _done(row: Any, caller: Caller, entries: list[str]) -> str:
    return f"{caller.name}: provisional values changed with every player's agreement: {_described(row, entries)}"


def _change(row: Any, cached: Any, seats: list[Any], caller: Caller, entries: list[str]) -> dict[str, Any]:
    """The action that makes the change, checked on a copy of the game (refused: UserError)."""
    info = title_info(row.title)
    assert info.provisional is not None
    entity = next((s.player_id for s in seats if s.user_id == caller.id and s.player_id), None)
    data: dict[str, Any] = {
        "type": info.provisional.SET_ACTION,
        "entity": entity or (seats[0].player_id if seats else "host"),
        "entity_type": "player",
        "entries": entries,
    }
    try:
        copy.deepcopy(cached.game).process(A.Action.from_dict(data))
    except GameError as exc:
        raise UserError(f"{PARAM}: {exc}") from None
    return data


async def _propose_change(
    service: GameService, row: Any, caller: Caller, params: dict[str, str], entries: list[str]
) -> Reply:
    """In play: the change is put to the table (passed at once when the host is its only player)."""
    _, cached = await service.active(row.channel_id)
    service.check_state(params, cached)
    seats = await service.store.seats(row.id)
    data = _change(row, cached, seats, caller, entries)
    result = await table_vote(service, row, cached, caller, seats, None, _motion(row, entries))
    if result.reply is not None:
        return result.reply
    return await append_action(service, row, cached, caller, data, _done(row, caller, entries))


async def _vote_on_change(
    service: GameService, row: Any, caller: Caller, params: dict[str, str], vote: str
) -> Reply:
    if "state" not in params:
        raise UserError("Vote with the buttons of the request")
    _, cached = await service.active(row.channel_id)
    service.check_state(params, cached)
    req = await open_motion(service, row, cached.seq)
    topic = motion_topic(req) if req is not None else ""
    if not topic:
        raise UserError("There is no request to change the provisional values open now")
    entries = topic.split(" ")
    seats = await service.store.seats(row.id)
    result = await table_vote(service, row, cached, caller, seats, vote, _motion(row, entries))
    if result.reply is not None:
        return result.reply
    data = _change(row, cached, seats, caller, entries)
    reply = await append_action(service, row, cached, caller, data, _done(row, caller, entries))
    await save_vote(service, row, result)
    return reply


async def _still_open(service: GameService, row: Any) -> bool:
    """Values may change in the lobby and, once started, until the first operating round."""
    if row.status == "lobby":
        return True
    if row.status != "active":
        return False
    game = (await service.load(row)).game
    return game.provisional_open()
