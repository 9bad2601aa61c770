"""Reminder commands: ``/game settings`` (per game), ``/game notify`` (per user: time zone, quiet
hours, direct messages) and ``/game remind`` (a seated player nudges the acting one, at most
once an hour). Handlers take the game service first; :mod:`bot.commands.table` registers them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.moves.spec import flag

from ..acting import waiting_for
from ..reminders import NUDGE_EVERY, ReminderSettings, fmt_window, parse_settings, parse_window, zone
from ..reply import Caller, Reply, UserError
from ..texts.turns import turn_key

if TYPE_CHECKING:
    from ..service import GameService


async def game_settings(
    service: GameService, channel_id: str, caller: Caller, params: dict[str, str]
) -> Reply:
    row = await service.row(channel_id)
    current = ReminderSettings.from_dict(row.settings)
    if not any(params.get(k) for k in ReminderSettings.KEYS):
        return Reply(
            lines=[
                f"Reminders in this game: {current.describe()}. The host changes them with "
                "/game settings remind_hours: repeat_hours: reminders: idle_days: sub_days:"
            ],
            ephemeral=True,
        )
    service.require_host(row, caller, "change the game's settings")
    new = parse_settings(params, current)
    row.settings = {**row.settings, **new.to_dict()}
    await service.store.set_settings(row.id, row.settings)
    turn = await service.store.turn(row.id)
    if turn is not None and turn.player_id and not turn.idle_flagged:
        # the next reminder follows the new delay (or repeat) from the last event
        if turn.reminders_sent == 0:
            turn.next_at = turn.since + new.delay_hours * 3600
        elif turn.reminders_sent < new.limit and turn.next_at is not None:
            turn.next_at = (
                max(turn.since, turn.next_at - current.repeat_hours * 3600) + new.repeat_hours * 3600
            )
        else:
            turn.next_at = None
        await service.store.save_turn(turn)
    return Reply(lines=[f"{caller.name} changed the reminders: {new.describe()}"])


async def game_notify(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Your reminder preferences (for every game): ``tz:``, ``quiet:22-7`` or ``quiet:off``, ``dm:yes``."""
    prefs = await service.store.prefs(caller.id)
    changed = False
    if (params.get("tz") or "").strip():
        zone(params["tz"])  # refuses unknown zones
        prefs = replace(prefs, tz=params["tz"].strip())
        changed = True
    if (params.get("quiet") or "").strip():
        window = parse_window(params["quiet"])
        prefs = replace(
            prefs, quiet_start=window[0] if window else None, quiet_end=window[1] if window else None
        )
        changed = True
    dm = flag(params, "dm")
    if dm is not None:
        prefs = replace(prefs, dm=dm)
        changed = True
    if changed:
        await service.store.save_prefs(prefs)
    how = (
        "your turns and reminders by direct message (a ping in the game's channel when a DM cannot be delivered)"
        if prefs.dm
        else "your turns and reminders with a ping in the game's channel"
    )
    head = "Saved: " if changed else "Your reminders: "
    return Reply(
        lines=[
            head + f"{how}, time zone {prefs.tz}, {fmt_window(prefs)}. Change with "
            "/game notify tz:Europe/Berlin quiet:22-7 dm:yes (quiet:off to clear)."
        ],
        ephemeral=True,
    )


async def game_remind(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Nudge the acting player now (any seated player; at most once an hour per game); an
    automatic seat that stopped after its cap of moves in a row goes on (a seated player's or
    the host's /game remind)."""
    row, cached = await service.active(channel_id)
    game = cached.game
    if game.finished:
        raise UserError("The game is over; nobody needs reminding")
    seats = await service.store.seats(row.id)
    seated = any(s.user_id == caller.id and not s.conceded for s in seats)
    acting = game.acting_players()
    seat = next((s for s in seats if acting and s.player_id == acting[0]), None)
    if seat is not None and seat.conceded and (seated or caller.id == row.host_id):
        # an automatic seat that stopped (a run of moves has a cap): it goes on
        reply = Reply(lines=[f"{caller.name} lets the automatic seats go on"])
        mine = next((s.player_id for s in seats if s.user_id == caller.id and not s.conceded), None)
        await service.after_change(row, cached, seats, reply, actor=mine, before=(game.round_key(), turn_key(game)))
        return reply
    if not any(s.user_id == caller.id for s in seats):
        raise UserError("Only a seated player can send a reminder")
    if seat is None or not seat.user_id:
        raise UserError("Nobody holds the acting seat; a free seat is taken with /game claim")
    if seat.conceded:
        raise UserError("The automatic seats go on when a seated player or the host types /game remind")
    if seat.user_id == caller.id:
        raise UserError("It is your own turn")
    now = service.now()
    turn = await service.store.turn(row.id)
    if turn is not None and turn.last_nudge_at is not None and now - turn.last_nudge_at < NUDGE_EVERY:
        wait = int((NUDGE_EVERY - (now - turn.last_nudge_at)) // 60) + 1
        raise UserError(f"{seat.name} was reminded less than an hour ago; try again in {wait} minutes")
    if turn is not None:
        turn.last_nudge_at = now
        await service.store.save_turn(turn)
    prefs = await service.store.prefs(seat.user_id)
    await service.store.log_reminder(row.id, seat.player_id, seat.user_id, "nudge", prefs.dm, now)
    text = f"{caller.name} reminds you: your turn in {row.title} ({seat.name}); {waiting_for(game)}"
    reply = Reply(
        lines=[f"{caller.name} reminds {seat.name} that it is their turn"], ping_text=text, game_id=row.id
    )
    if prefs.dm:
        reply.dm = seat.user_id
    else:
        reply.ping = seat.user_id
    return reply
