"""The next tap of a move made by taps: a select menu's choice that does not complete its command
(a tile's hex, a par's corporation) is answered privately with a select menu of the next option's
legal choices, each a complete command line as typed (``/lay hex:F17 tile:57 rotation:2 state:9``),
from the move table (:func:`bot.choices.action_choices`, what autocomplete offers). Two options in a
row (a tile and its rotation) share one menu when their pairs fit in it. A number no menu can
list, which the move needs typed now (``Option.span`` in the move table: a train bought from
another corporation at the price agreed, $1 up to the treasury), is asked in a box
(:class:`bot.reply.Ask`, a Discord modal), with the line to type said where no box can be shown.
Nothing here changes a game: the chosen line goes through the command layer like a typed command.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.decisions import Choice
from engine.errors import GameError
from engine.game import Game

from .. import robot
from ..acting import resolve_entity
from ..choices import action_choices
from ..play import MOVES, Move, move_help
from ..reply import Ask, Attachment, Button, Caller, Pick, Reply, UserError, pick
from ..storage.rows import Seat
from ..terminal.textcmd import format_command
from ..texts.game import MENU_SIZE

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger(__name__)

HIDDEN = ("state", "entity")  # options a menu keeps as they are, never asks for


async def next_pick(
    service: GameService, channel_id: str, caller: Caller, name: str, params: dict[str, str]
) -> Reply | dict[str, str]:
    """A private reply offering the next option of ``/name`` given ``params``, or the options to
    run the command with when nothing is left to choose (an option with a single legal value is
    filled in, as a player would type it); a command that cannot be helped is run as it is, so
    the command layer says why."""
    move = MOVES.get(name)
    if move is None:
        return params
    row = await service.store.open_game(channel_id)
    if row is None or row.status != "active":
        return params
    async with service.lock(channel_id):
        cached = await service.load(row)
        try:
            service.check_state(params, cached)
        except UserError as exc:
            return Reply.fail(str(exc))
        seats = await service.store.seats(row.id)
        pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id and not s.conceded}
        try:
            entity = resolve_entity(cached.game, move, pids, params.get("entity"), params)
        except (UserError, GameError):
            return params
        menu = await asyncio.to_thread(menu_reply, cached.game, entity, move, params, seats)
    return params if menu is None else menu


def menu_reply(game: Game, entity: str, move: Move, params: dict[str, str],
               seats: Sequence[Seat] = ()) -> Reply | None:
    """The menu of the first option with choices not given yet that must be chosen (required, or
    more than one legal value), else the box for a number the move needs typed now
    (:func:`number_box`); None when there is neither. An option with one legal value is written
    into ``params``."""
    given = {k: v for k, v in params.items() if k not in HIDDEN}
    asked = [o for o in move.options if o.choices is not None]
    for i, option in enumerate(asked):
        if option.name in given:
            continue
        choices = action_choices(game, entity, move, option.name, given)
        if len(choices) == 1 and not option.required:
            given[option.name] = params[option.name] = choices[0].value
            continue
        if not choices:
            if option.required:
                return None
            continue  # (an option this move does not use here: a side only a two-sided card has)
        then = asked[i + 1] if i + 1 < len(asked) and asked[i + 1].name not in given else None
        picks = _pairs(game, entity, move, params, option.name, choices, then.name if then else None)
        if picks is None:
            picks = [pick(c.label, format_command(move.command, {**params, option.name: c.value}))
                     for c in choices]
        picks = [p for p in picks if len(p.command) <= 100][:MENU_SIZE]
        what = f"{option.name} and {then.name}" if then and any(then.name + ":" in p.command for p in picks) \
            else option.name
        head = f"{game.name_of(entity)}, {move_help(game, move, entity)}: choose {what}"
        shown = ", ".join(f"{k} {v}" for k, v in given.items())
        more = f" (the first {MENU_SIZE} of {len(choices)}: type /{move.command} for the others)" \
            if len(choices) > MENU_SIZE else ""
        return Reply(
            lines=[head + (f" ({shown})" if shown else "") + more],
            ephemeral=True,
            buttons=[Button(f"Choose {what}"[:150], format_command(move.command, params), picks=tuple(picks))],
            files=_hex_picture(game, given.get("hex", "")),
        )
    return number_box(game, entity, move, params, seats)


def number_box(game: Game, entity: str, move: Move, params: dict[str, str],
               seats: Sequence[Seat] = ()) -> Reply | None:
    """A private reply asking for the number the move needs typed now, given ``params``, in a box
    (``Price for the 4-train from CA``, ``Price ($1-$733)``), its lines the command to type
    instead; None when the move needs none (the range and what it is for come from the move
    table: ``Option.span``; a train whose seller's seat nobody answers for from its face value,
    :func:`bot.robot.absent_seller_span`)."""
    given = {k: v for k, v in params.items() if k not in HIDDEN}
    for option in move.options:
        span = option.span(game, entity, given) if option.span is not None and option.name not in given else None
        if span is None:
            continue
        if move.action_type == "buy_train" and given.get("train"):  # (a seller nobody answers for: face value)
            span = robot.absent_seller_span(game, entity, given["train"], span, list(seats))
        name = option.name.capitalize()
        typed = format_command(move.command, {**{k: v for k, v in params.items() if k != "state"}, option.name: "N"})
        head = f"{game.name_of(entity)}, {move_help(game, move, entity)}: type {typed}"
        return Reply(
            lines=[f"{head} (N: the {option.name} for {span.what}, {span.text})"],
            ephemeral=True,
            ask=Ask(f"{name} for {span.what}", f"{name} ({span.text})", span.text,
                    format_command(move.command, params), option.name),
        )
    return None


def _pairs(
    game: Game, entity: str, move: Move, params: dict[str, str], first: str, choices: list[Choice],
    then: str | None,
) -> list[Pick] | None:
    """One pick per (choice, next option's choice) when they fit one menu, else None."""
    if then is None:
        return None
    given = {k: v for k, v in params.items() if k not in HIDDEN}
    out: list[Pick] = []
    for c in choices:
        seconds = action_choices(game, entity, move, then, {**given, first: c.value})
        if len(seconds) <= 1:
            out.append(pick(c.label, format_command(move.command, {**params, first: c.value})))
            continue
        for s in seconds:
            out.append(pick(f"{c.label}, {s.label}",
                            format_command(move.command, {**params, first: c.value, then: s.value})))
        if len(out) > MENU_SIZE:
            return None
    return out


def _hex_picture(game: Game, hex_id: str) -> list[Attachment]:
    """The hex a tile is chosen for and its neighbours, larger than on the whole map."""
    hex_id = hex_id.upper()
    if hex_id not in game.board.hexes:
        return []
    from render.map.crop import render_crop

    try:
        place = game.board.hexes[hex_id].location
        return [Attachment("hex.png", render_crop(game, [hex_id], where=f"{hex_id} {place}".strip()))]
    except Exception:  # a picture must not block the choice
        log.exception("drawing the hex %s failed", hex_id)
        return []
