"""A game's life in a channel: ``/game new``, ``join``, ``leave``, ``start``, ``status``, ``claim``,
``seat``, ``end``, ``export`` and ``import``. Handlers take the game service first
(:mod:`bot.service`); :mod:`bot.commands.table` registers them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from engine import actions as A
from engine.moves.spec import entity_type
from engine.titles.registry import canonical_title, new_game, title_info, title_names

from ..choices import title_options
from ..commands import limits
from ..gamelog import MAX_IMPORT_BYTES, DamagedGame, damage_of, max_id, players, read_export
from ..picture_cache import cache_of
from ..reminders import ReminderSettings, fmt_duration
from ..reply import Attachment, Button, Caller, Reply, UserError
from ..robot import ROBOT_USER
from ..service import CachedGame
from ..storage.rows import GameRow, Seat, ever_started
from ..texts import story
from ..texts.game import decision_buttons, find_seat, status_text, you_can
from ..version import ENGINE_VERSION
from . import access, offers, seating
from . import rules as rules_cmds

if TYPE_CHECKING:
    from ..service import GameService

MAX_SEATS = 8
IMPORTS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="import")  # see game_import


async def game_new(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    given = (params.get("title") or "").strip()
    if not given:
        raise UserError(f"Give title: the game to play ({', '.join(title_names())})")
    title = canonical_title(given)
    await access.may_create(service, caller)
    existing = await service.store.open_game(channel_id)
    if existing:
        raise UserError(
            f"This channel already has a game of {existing.title} ({existing.status}); "
            "the host or an admin can end it with /game end"
        )
    options = [o for o in (params.get("options") or "").replace(",", " ").split() if o]
    known = [c.value for c in title_options(title)]
    unknown = [o for o in options if o not in known]
    if known and unknown:
        raise UserError(f"{title} has no option {unknown[0]}; its options: {', '.join(known)}")
    if (params.get("bonuses") or "").strip():  # 1833NE's provisional values (bot.handlers.rules)
        options = rules_cmds.merged_options(title, options, params["bonuses"])
    robots = _robot_count(params.get("robots"), title)
    gid = await service.store.create_game(
        channel_id, title, options, caller.id, ENGINE_VERSION, guild_id=caller.guild
    )
    await service.store.add_seats(
        gid, [Seat(0, caller.name, caller.id, user_name=caller.name)] + [Seat(i + 1, f"Robot {i + 1}", ROBOT_USER) for i in range(robots)]
    )
    shown = rules_cmds.plain_options(options)
    return Reply(
        lines=[
            f"{caller.name} opened a game of {title}"
            + (f" (options: {', '.join(shown)})" if shown else "")
            + (f" with {robots} computer player{'s' if robots > 1 else ''}" if robots else "")
            + ". Join with /game join; the host starts it with /game start.",
            *rules_cmds.table_lines(title, options, hint=True),
        ]
    )


def _robot_count(raw: str | None, title: str) -> int:
    """``robots:`` of /game new: how many seats the computer player takes beside the host's (up
    to the title's most players less one)."""
    text = (raw or "").strip()
    if not text:
        return 0
    most = min(MAX_SEATS, title_info(title).players[1]) - 1
    if not text.isascii() or not text.isdigit() or not 0 <= int(text) <= most:
        raise UserError(f"robots must be a whole number from 0 to {most} ({title} takes at most {most + 1} players)")
    return int(text)


def called_off(row: GameRow) -> str:
    return f"The {row.title} game {row.id} was called off before it started"


_STARTED = {  # what a lobby command can do instead once the game has started
    "join": "a free seat is taken with /game claim seat:NAME",
    "leave": "/game concede or /game robot lets the computer player play your seat; /game seat hands it to "
             "someone",
    "start": "/game status shows where it stands",
}


async def _lobby(service: GameService, channel_id: str, command: str) -> tuple[GameRow, list[Seat]]:
    row = await service.row(channel_id)
    damage = damage_of(row)
    if damage is not None:  # e.g. its optional rules are unreadable: it must not start without them
        raise DamagedGame(damage)
    if row.status != "lobby":
        raise UserError(f"The game has already started: {_STARTED[command]}")
    return row, await service.store.seats(row.id)


async def game_join(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, seats = await _lobby(service, channel_id, "join")
    given = (params.get("name") or "").strip()
    name = limits.clean_name(given)
    if given and not name:
        raise UserError("A seat name needs letters or digits (markup and control characters are dropped)")
    if not name:
        if any(s.user_id == caller.id for s in seats):
            raise UserError(
                "You already have a seat; to play another seat yourself (hotseat), "
                'give it a name: /game join name:"Second Seat"'
            )
        name = caller.name
    if len(name) > 32:
        raise UserError("Seat names are at most 32 characters")
    if any(s.name.lower() == name.lower() for s in seats):
        raise UserError(f"There is already a seat called {name}")
    most = min(MAX_SEATS, title_info(row.title).players[1])
    if len(seats) >= most:
        raise UserError(f"The game is full: {row.title} takes at most {most} players")
    pos = max((s.position for s in seats), default=-1) + 1
    await service.store.add_seats(row.id, [Seat(pos, name, caller.id, user_name=caller.name)])
    count = len(seats) + 1
    return Reply(lines=[f"{name} joins the game ({count} seat{'' if count == 1 else 's'})"])


async def game_leave(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, seats = await _lobby(service, channel_id, "leave")
    named = (params.get("seat") or "").strip().lower()
    mine = [s for s in seats if s.user_id == caller.id and (not named or s.name.lower() == named)]
    if not mine and named and (caller.id == row.host_id or caller.admin):  # the host clears any seat
        mine = [s for s in seats if s.name.lower() == named]
    if not mine:
        if named and any(s.name.lower() == named for s in seats):
            raise UserError(f"{params['seat'].strip()} is not your seat; the host can take any seat out")
        raise UserError("You have no such seat in this game" if named else "You have no seat in this game")
    seat = mine[-1]
    await service.store.remove_seat(row.id, seat.position)
    if seat.user_id == caller.id:
        return Reply(lines=[f"{seat.name} leaves the game"])
    reply = Reply(lines=[f"{caller.name} takes {seat.name}'s seat out of the game"])
    if seat.user_id is not None and seat.user_id != ROBOT_USER:  # a person is told
        reply.heads_up = [(seat.user_id, f"the host took your seat ({seat.name}) out of the {row.title} game;"
                           " /game join takes another")]
    return reply


async def game_start(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, seats = await _lobby(service, channel_id, "start")
    service.require_host(row, caller, "start the game")
    order = (params.get("order") or "random").lower()
    if order not in ("random", "joined"):
        raise UserError("order must be random or joined")
    seed = random.SystemRandom().randrange(1, 2**31)
    seats = sorted(seats, key=lambda s: s.position)
    if order == "random":
        random.Random(seed).shuffle(seats)
    started = [Seat(i, s.name, s.user_id, str(i + 1), user_name=s.user_name) for i, s in enumerate(seats)]
    low, high = title_info(row.title).players
    if not low <= len(started) <= high:
        fix = (f"more join with /game join (or /game end and /game new title:{row.title} robots:N)" if len(started) < low
               else "the host removes seats with /game leave seat:NAME")
        raise UserError(f"{row.title} needs {low} to {high} players, not {len(started)}: {fix}")
    new_game(row.title, players(started), row.optional_rules, seed)
    await service.store.start_game(row.id, seed, started, service.now())
    for i, s in enumerate(started):  # the computer player's seats move automatically from the start
        if s.user_id == ROBOT_USER:
            await service.store.set_seat_conceded(row.id, s.position, True)
            started[i] = dataclasses.replace(s, conceded=True)
    row.status, row.seed, row.started_at = "active", seed, service.now()
    cached = await service.load(row)
    reply = Reply(
        lines=[
            f"{row.title} starts (seed {seed}, {order} order): " + ", ".join(s.name for s in started),
            *story.opening(cached.game),
        ]
    )
    await service.after_change(row, cached, started, reply)
    return reply


async def game_status(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = (
        await service.store.open_game(channel_id)
        or await service.latest(channel_id)
        or await service.row(channel_id)
    )
    seats = await service.store.seats(row.id)
    if not ever_started(seats) and row.status != "lobby":
        return Reply(lines=[called_off(row)], ephemeral=True)
    if row.status == "lobby":
        return Reply(
            lines=[
                f"{row.title}, not started. Seats: "
                + (", ".join(s.name for s in seats) or "none yet (/game join)")
                + ". The host starts it with /game start."
            ],
            ephemeral=True,
        )
    cached = await service.load(row)
    # private: the caller's own line ("you act for ...") and pictures nobody else asked for
    reply = Reply(
        lines=[status_text(row, cached.game, seats)],
        status=status_text(row, cached.game, seats),
        game_id=row.id,
        ephemeral=True,
    )
    note = None if cached.game.finished else await offers.offer_note(service, row, cached, caller.id)
    if note:
        reply.lines.append(note)
    turn = await service.store.turn(row.id)
    if turn is not None and not cached.game.finished and turn.player_id and service.now() - turn.since >= 60:
        settings = ReminderSettings.from_dict(row.settings)
        thinking = (
            f"{cached.game.name_of(turn.player_id)} has been thinking for "
            f"{fmt_duration(service.now() - turn.since)}"
        )
        if turn.idle_flagged:
            thinking += " (flagged to the host as idle; no more reminders)"
        elif turn.reminders_sent:
            thinking += f" ({turn.reminders_sent}/{settings.limit} reminders sent)"
        reply.lines.append(thinking)
    reply.lines += you_can(cached.game, seats, caller)
    if not cached.game.finished:
        reply.buttons = decision_buttons(cached.game, cached.seq, seats)
    if service.images:
        reply.files = await cache_of(service).pictures(
            service, row.id, cached.seq, cached.game, ("map", "market", "status")
        )
        service.posted.mark(row.id, cached.game, ("map", "market"))
    return reply


async def game_claim(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = await service.store.open_game(channel_id)
    ended = None if row is not None else await service.latest(channel_id)
    if ended is not None:
        seats = await service.store.seats(ended.id)
        if any(s.player_id and s.user_id is None for s in seats):
            return await _claim_result(service, ended, seats, caller, params)  # a finished import: its result
    row = row or await service.row(channel_id)
    seats = await service.store.seats(row.id)
    seat = find_seat(seats, params.get("seat") or "")
    if seat.user_id == ROBOT_USER:
        raise UserError(f"The computer player plays {seat.name}'s seat; the host hands it to you with "
                        f'/game seat seat:"{seat.name}" user:@you')
    if seat.user_id is not None and not (seat.conceded and seat.user_id == caller.id):
        if seat.user_id == caller.id:
            raise UserError(f"You hold {seat.name}'s seat already")
        if seat.conceded:
            raise UserError(f"The computer player plays {seat.name}'s seat for its holder, who takes it back with "
                            "/game claim; the host can hand it to you with /game seat")
        raise UserError(f"{seat.name}'s seat is already held; its holder can hand it over with /game seat")
    reply = Reply(lines=[f"{caller.name} takes the seat of {seat.name}"], game_id=row.id)
    if seat.user_id == caller.id:  # back from the computer player
        await service.store.set_seat_conceded(row.id, seat.position, False)
        reply.lines = [f"{caller.name} takes {seat.name}'s seat back from the computer player"]
    else:
        await service.store.set_seat_user(row.id, seat.position, caller.id, was=None, user_name=caller.name)
    if row.status == "active":
        await seating.greet(service, row, (await service.load(row)).game, seat, caller.id, reply)
    return reply


async def _claim_result(service: GameService, row: GameRow, seats: list[Seat], caller: Caller,
                        params: dict[str, str]) -> Reply:
    """A free seat of a finished game (imported over): claimed, its final standing counts for
    the claimer in /stats and /game history."""
    seat = find_seat(seats, params.get("seat") or "")
    if seat.user_id is not None:
        raise UserError(f"{seat.name}'s seat is already held; the {row.title} game {row.id} is over")
    held = next((s.name for s in seats if s.user_id == caller.id), None)
    if held is not None:  # one result per person and game
        raise UserError(f"You hold {held}'s seat in this finished game already; its result is yours")
    await service.store.set_seat_user(row.id, seat.position, caller.id, was=None, user_name=caller.name)
    mine = [r for r in await service.store.results(row.id) if r.position == seat.position]
    if mine:
        await service.store.set_result_user(row.id, seat.position, caller.id)
    told = f": its result (rank {mine[0].rank}, value {mine[0].value}) counts for {caller.name} in /stats" if mine else ""
    return Reply(lines=[f"{caller.name} takes the seat of {seat.name} in the finished {row.title} game {row.id}{told}"])


async def game_seat(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = await service.row(channel_id)
    seats = await service.store.seats(row.id)
    seat = find_seat(seats, params.get("seat") or "")
    target = (params.get("user") or "").strip()
    if not target:
        raise UserError("Give user: the person who takes the seat")
    if target == seat.user_id and not seat.conceded:
        raise UserError(f"{params.get('user_name') or target} already holds {seat.name}'s seat")
    settings = ReminderSettings.from_dict(row.settings)
    if not access.may_hand_over(row, seat, caller, access.seat_silence(service, row, seat), settings):
        raise UserError(
            f"You do not hold {seat.name}'s seat. Its holder hands it over; the host can "
            f"after {settings.sub_days:g} days of silence (/game sub)"
        )
    shown = params.get("user_name") or target
    await service.store.set_seat_user(row.id, seat.position, target, was=seat.user_id,
                                      user_name=None if target == ROBOT_USER else shown)
    if seat.conceded != (target == ROBOT_USER):  # a person plays it now (it stayed automatic)
        await service.store.set_seat_conceded(row.id, seat.position, target == ROBOT_USER)
    if row.last_ping_seat == seat.player_id:
        await service.store.set_last_ping(row.id, None)  # the new holder gets pinged next time
    reply = Reply(lines=[f"{caller.name} hands {seat.name}'s seat to {shown}"], game_id=row.id)
    await offers.after_hand_over(service, row, seat, shown, reply)
    if row.status == "active" and target != ROBOT_USER:
        await seating.greet(service, row, (await service.load(row)).game, seat, target, reply)
    return reply


async def game_end(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = await service.row(channel_id)
    service.require_host(row, caller, "end the game")
    reply = Reply(lines=[f"{caller.name} ends the game"], game_id=row.id)
    if row.status == "lobby":  # nothing was played: no result, nothing to export
        await service.store.end_game(row.id)
        return Reply(lines=[f"{caller.name} calls off the {row.title} game before it started. "
                            f"/game new title:{row.title} opens another"])
    if row.status == "active":
        try:
            cached = await service.load(row)
        except UserError as exc:  # a damaged or unreplayable record: ended as it is, no result
            await service.store.end_game(row.id)
            service.forget(row.id)
            why = exc.what if isinstance(exc, DamagedGame) else "its log does not replay"
            return Reply(
                lines=[
                    f"{caller.name} ends the game; its record is kept as it is ({why}), "
                    "without a result. /game export still takes it away."
                ],
                game_id=row.id,
            )
        game = cached.game
        if not game.finished and (params.get("confirm") or "").lower() != "yes":
            return Reply(
                lines=[f"End the {row.title} game now? It ends as it stands: the players are ranked by "
                       "what they have now (cash and shares), and the result counts in /stats."],
                ephemeral=True,
                buttons=[Button("End the game", "/game end confirm:yes", "danger")],
            )
        if not game.finished:
            entity = (game.acting() or [game.players[0].id])[0]
            seats = await service.store.seats(row.id)
            action = A.EndGame(entity=entity, entity_type=entity_type(game, entity))
            reply = await service.apply(row, cached, caller, action, seats)
            reply.lines[0] = f"{caller.name} ends the game"
    await service.store.end_game(row.id)
    return reply


async def game_export(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = await service.store.open_game(channel_id) or await service.latest(channel_id)
    if row is None:
        raise UserError("There is no game in this channel to export")
    if row.status != "lobby" and not ever_started(await service.store.seats(row.id)):
        raise UserError(called_off(row) + ": there is nothing to export")
    export = await service.export(row)
    data = json.dumps(export, indent=1).encode()
    line = f"Export of {row.title} game {row.id} ({len(export['actions'])} actions)"
    damage = damage_of(row)
    if damage is not None:
        line += f". Its stored record is damaged ({damage}); the host or an admin can end it with /game end"
    elif "replay_error" in export:
        line += (
            ". Its log does not replay with this engine; the host can cut it back to the last "
            "action that does with /game repair"
        )
    return Reply(lines=[line], files=[Attachment(f"{row.title}-game-{row.id}.json", data)])


async def game_import(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    await access.may_create(service, caller)
    if await service.store.open_game(channel_id):
        raise UserError("This channel already has a game; end it first with /game end")
    raw = params.get("file") or ""
    if not raw:
        raise UserError("Attach an 18xx.games export (JSON) as file:")
    if len(raw) > MAX_IMPORT_BYTES:
        raise UserError("That file is too large for an 18xx.games export")
    # in the imports' own two threads: imports at once cannot fill the pool every move draws in
    title, settings, seats, actions, game = await asyncio.get_running_loop().run_in_executor(
        IMPORTS, read_export, raw
    )
    # one transaction: the game, its seats and its log land together or not at all
    gid = await service.store.create_game(
        channel_id,
        title,
        list(settings.get("optional_rules") or []),
        caller.id,
        ENGINE_VERSION,
        status="active",
        seed=settings.get("seed"),
        guild_id=caller.guild,
        started_at=service.now(),
    )
    await service.store.add_seats(gid, seats)
    if actions:
        await service.store.append_actions(gid, actions, None, seq=1)
    row = await service.store.game(gid)
    assert row is not None
    cached = CachedGame(len(actions), game, max_id(actions))
    service.remember(gid, cached)
    processed = len(game.action_log)
    reply = Reply(
        lines=[
            f"{caller.name} imported a game of {title} ({processed} actions). "
            "Seats: " + ", ".join(s.name for s in seats) + ". Claim yours with /game claim seat:NAME"
            + (" (the game is over: its result then counts for you in /stats)." if game.finished else ".")
        ]
    )
    await service.after_change(row, cached, seats, reply)
    return reply
