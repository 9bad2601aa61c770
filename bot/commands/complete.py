"""Autocomplete for every command option that has a fixed set of legal values now: game
actions (:mod:`bot.choices`), the entity to act for, seats, a title's options and command names.
Discord calls it as the user types; nothing here changes state, and the engine work runs in a
worker thread (the event loop keeps serving everyone else meanwhile).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from engine.decisions import Choice
from engine.errors import GameError
from engine.game import Game

from .. import robot
from ..acting import resolve_entity
from ..choices import action_choices, entity_choices, filter_choices, title_options
from ..play import MOVES, Move
from ..reply import Caller, UserError
from ..storage.rows import Seat
from .table import command_names

if TYPE_CHECKING:
    from ..service import GameService

# /game commands with a seat: option, and which seats they offer
SEAT_COMMANDS = {
    "game leave": "mine",
    "game concede": "mine",
    "game claim": "free",
    "game seat": "all",
    "game sub": "all",
}


async def autocomplete(
    service: GameService,
    channel_id: str,
    caller: Caller,
    name: str,
    param: str,
    params: dict[str, str],
    typed: str = "",
) -> list[tuple[str, str]]:
    """Legal (value, label) choices for ``param`` of ``/name`` for the caller now (at most 25)."""
    if param == "command" and name in ("help", "moves"):
        return filter_choices([Choice(n, f"/{n}") for n in command_names()], typed)
    if name == "game new" and param == "options":
        return _title_options(params.get("title") or "", typed)
    row = await service.store.open_game(channel_id)
    if row is None:
        return []
    if param == "seat" and name in SEAT_COMMANDS:
        seats = await service.store.seats(row.id)
        which = SEAT_COMMANDS[name]
        shown = [
            s
            for s in seats
            if which == "all"
            or (which == "free" and s.user_id is None)
            or (which == "mine" and s.user_id == caller.id)
        ]
        return filter_choices(
            [Choice(s.name, s.name + ("" if s.user_id else " (free)")) for s in shown], typed
        )
    cmd = MOVES.get("pass" if name == "done" else name)  # /done acts for the entity /pass would
    if cmd is None or row.status != "active":
        return []
    async with service.lock(channel_id):
        try:
            cached = await service.load(row)
            seats = await service.store.seats(row.id)
            pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id}
            # engine work (up to ~200 ms for /lay rotation) runs off the event loop, under the lock
            choices = await asyncio.to_thread(_choices, cached.game, cmd, pids, param, params, seats)
        except (GameError, UserError):
            return []
    return filter_choices(choices, typed)


def _choices(game: Game, cmd: Move, pids: set[str], param: str, params: dict[str, str],
             seats: list[Seat]) -> list[Choice]:
    """The engine's legal values of ``param`` (CPU-bound: called through ``asyncio.to_thread``);
    another corporation's train whose seat nobody answers for from the price it takes
    (:func:`bot.robot.absent_sellers_prices`: not the engine's $1)."""
    if param == "entity":
        return entity_choices(game, cmd, pids)
    entity = resolve_entity(game, cmd, pids, params.get("entity"))
    choices = action_choices(game, entity, cmd, param, params)
    if cmd.action_type == "buy_train" and param == "train":
        choices, _ = robot.absent_sellers_prices(game, entity, choices, seats)
    return choices


def _title_options(title: str, typed: str) -> list[tuple[str, str]]:
    """Several options go in one text: complete the last word, keep the ones before."""
    before, _, last = typed.rpartition(" ")
    taken = set(before.split())
    prefix = before + " " if before else ""
    choices = [Choice(prefix + c.value, c.label) for c in title_options(title) if c.value not in taken]
    return filter_choices(choices, last) if last else [(c.value, c.label) for c in choices][:25]
