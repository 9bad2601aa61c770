"""Absent players: ``/game sub`` hands a seat to a substitute, ``/game concede`` leaves the game.

A seat changes hands at once when its holder asks or a server admin decides; the host decides
alone only for a free or conceded seat or one silent (no action) for the game's ``sub_days``
(:func:`bot.handlers.access.may_hand_over`). After that silence any other seated player may start a vote:
a majority of the other seated players carries it. Only its holder concedes a seat; it then
keeps playing automatically (:mod:`bot.robot`, the computer player) until a substitute takes it
over with ``/game sub``; ``/game robot`` (or ``/game sub user:robot``) hands a seat to the computer
player the same way.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..acting import waiting_for
from ..reminders import DAY, ReminderSettings, fmt_duration, start_turn
from ..reply import Button, Caller, Reply, UserError
from ..robot import ROBOT_NAMES, ROBOT_USER
from ..storage.rows import GameRow, Seat, SubRequest
from ..texts.game import find_seat
from . import offers
from .access import may_hand_over, seat_silence

if TYPE_CHECKING:
    from engine.game import Game

    from ..service import CachedGame, GameService


def _pick_seat(seats: list[Seat], caller: Caller, key: str | None) -> Seat:
    if key:
        return find_seat(seats, key)
    mine = [s for s in seats if s.user_id == caller.id]
    if len(mine) == 1:
        return mine[0]
    raise UserError("Say which seat with seat: (" + ", ".join(s.name for s in seats) + ")")


async def game_sub(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, cached = await service.active(channel_id)
    if cached.game.finished:
        raise UserError("The game is over")
    seats = await service.store.seats(row.id)
    vote = (params.get("vote") or "").strip().lower()
    if vote:
        return await _vote(service, row, seats, caller, params, vote)
    target = (params.get("user") or "").strip()
    if not target:
        raise UserError("Give user: the person who takes the seat")
    seat = _pick_seat(seats, caller, params.get("seat"))
    name = (params.get("user_name") or target).strip()
    if target.lower() in ROBOT_NAMES:  # the computer player takes the seat
        target, name = ROBOT_USER, "the computer player"
        if seat.user_id == ROBOT_USER or seat.conceded:
            raise UserError(f"The computer player already plays {seat.name}'s seat")
        if seat.user_id == caller.id:  # the holder's own: it stays theirs, they take it back with /game claim
            return await _concede(
                service, row, cached, seats, seat,
                f"The computer player plays {seat.name}'s seat for {caller.name} from now on; "
                f'{caller.name} takes it back with /game claim seat:"{seat.name}"',
            )
    if target == seat.user_id and not seat.conceded:
        raise UserError(f"{name} already holds {seat.name}'s seat")
    settings = ReminderSettings.from_dict(row.settings)
    silent = seat_silence(service, row, seat)
    if may_hand_over(row, seat, caller, silent, settings):
        return await _hand_over(service, row, seat, target, name, caller)
    seated = any(s.user_id == caller.id and not s.conceded for s in seats)
    if not seated and caller.id != row.host_id:
        raise UserError(f"Only {seat.name}, the host or a seated player (by a vote) can hand that seat over")
    if silent < settings.sub_days * DAY:
        raise UserError(
            f"{seat.name}: {_silence(seat, silent)}; a vote needs {settings.sub_days:g} days "
            f"of silence, and so does the host. {seat.name} can hand the seat over now."
        )
    if not seated:
        raise UserError(f"Only {seat.name}, the host or a seated player (by a vote) can hand that seat over")
    open_req = await service.store.sub_request(row.id, seat.position)
    if open_req is not None:  # asking for the same again is agreeing
        if open_req.target_user != target:
            raise UserError(f"A vote to hand {seat.name}'s seat to {open_req.target_name} is open; answer it "
                            f'first: /game sub seat:"{seat.name}" vote:yes (or vote:no)')
        return await _vote(service, row, seats, caller, {"seat": seat.name}, "yes")
    req = SubRequest(seat.position, target, name, caller.id, [caller.id])
    await service.store.save_sub_request(row.id, req, service.now())
    reply = await _count(
        service,
        row,
        seats,
        seat,
        req,
        f"{caller.name} asks to hand {seat.name}'s seat ({_silence(seat, silent)}) to {name}",
    )
    if reply.buttons:  # the vote is open: those whose answer it needs are told, and the holder
        reply.heads_up = [(uid, f"your vote: hand {seat.name}'s seat to {name}? (this message's buttons)")
                          for uid in sorted(_voters(seats, seat) - {caller.id})]
        if seat.user_id and not seat.conceded:
            reply.heads_up.append((seat.user_id, f"the other players vote on handing your seat ({seat.name}) to"
                                   f" {name}"))
    return reply


def _silence(seat: Seat, silent: float) -> str:
    """ "silent for 8d 2h", or "no move since the game started 8d 2h ago" for a holder who never moved."""
    if seat.last_action_at is None:
        return f"no move since the game started {fmt_duration(silent)} ago"
    return f"silent for {fmt_duration(silent)}"


def _voters(seats: list[Seat], seat: Seat) -> set[str]:
    """The other seated players (their user ids), who vote on a substitute for ``seat``."""
    return {s.user_id for s in seats if s.user_id and not s.conceded and s.user_id != seat.user_id}


async def _count(
    service: GameService, row: GameRow, seats: list[Seat], seat: Seat, req: SubRequest, head: str
) -> Reply:
    voters = _voters(seats, seat)
    need = len(voters) // 2 + 1
    yes = len(set(req.votes) & voters)
    no = len({v[1:] for v in req.votes if v.startswith("-")} & voters)
    if yes >= need:
        reply = await _hand_over(service, row, seat, req.target_user, req.target_name, None)
        reply.lines.insert(0, f"{head}: {yes} of {len(voters)} agree.")
        return reply
    if no > len(voters) - need:
        await service.store.delete_sub_request(row.id, seat.position)
        return Reply(lines=[f"{head}: refused ({no} of {len(voters)} against); {seat.name} keeps the seat."])
    return Reply(
        lines=[f"{head} ({yes} of the {need} votes needed, from the {len(voters)} other players)."],
        buttons=[
            Button("Agree", f'/game sub seat:"{seat.name}" vote:yes', "success"),
            Button("Refuse", f'/game sub seat:"{seat.name}" vote:no', "danger"),
        ],
    )


async def _vote(
    service: GameService, row: GameRow, seats: list[Seat], caller: Caller, params: dict[str, str], vote: str
) -> Reply:
    seat = find_seat(seats, params.get("seat") or "")
    req = await service.store.sub_request(row.id, seat.position)
    if req is None:
        raise UserError(f"There is no vote on {seat.name}'s seat now")
    if caller.id not in _voters(seats, seat):
        raise UserError("Only the other seated players vote on a substitute")
    if caller.id in req.votes or "-" + caller.id in req.votes:
        raise UserError("You have already voted")
    if vote not in ("yes", "no"):
        raise UserError("vote must be yes or no")
    was = list(req.votes)
    req.votes.append(caller.id if vote == "yes" else "-" + caller.id)
    await service.store.save_sub_request(row.id, req, service.now(), was)
    verb = "agrees" if vote == "yes" else "refuses"
    return await _count(
        service,
        row,
        seats,
        seat,
        req,
        f"{caller.name} {verb} to hand {seat.name}'s seat to {req.target_name}",
    )


async def _hand_over(
    service: GameService, row: GameRow, seat: Seat, user: str, name: str, caller: Caller | None
) -> Reply:
    store = service.store
    robot = user == ROBOT_USER
    await store.set_seat_user(row.id, seat.position, user, was=seat.user_id, user_name=None if robot else name)
    if seat.conceded != robot:  # the computer player's seat moves automatically
        await store.set_seat_conceded(row.id, seat.position, robot)
    await store.delete_sub_request(row.id, seat.position)
    if row.last_ping_seat == seat.player_id:
        await store.set_last_ping(row.id, None)
        row.last_ping_seat = None
    cached = await service.load(row)
    game = cached.game
    lines = [f"{name} takes over {seat.name}'s seat" + (f" ({caller.name} decided)" if caller else "")]
    reply = Reply(lines=lines, game_id=row.id)
    await offers.after_hand_over(service, row, seat, name, reply)
    if robot:  # it moves at once when the seat must act
        seats = [dataclasses.replace(s, user_id=user, conceded=True) if s.position == seat.position else s
                 for s in await store.seats(row.id)]
        await service.after_change(row, cached, seats, reply)
        return reply
    await greet(service, row, game, seat, user, reply)
    return reply


async def greet(service: GameService, row: GameRow, game: Game, seat: Seat, user: str, reply: Reply) -> None:
    """A person who now holds ``seat``: pinged when it is the seat's turn, whose clock (reminders, idle
    flag) starts again: the old holder's silence is not theirs."""
    if row.status != "active" or game.finished or seat.player_id is None:
        return
    await service.store.touch_seat(row.id, seat.player_id, service.now())  # their silence starts now
    acting = game.acting_players()
    if acting and acting[0] == seat.player_id:
        turn = await service.store.turn(row.id)
        await service.store.save_turn(start_turn(row.id, seat.player_id, service.now(),
                                                 ReminderSettings.from_dict(row.settings), turn))
        reply.ping = user
        reply.ping_text = f"your turn ({seat.name}): {waiting_for(game)}"
        await service.store.set_last_ping(row.id, seat.player_id)


async def game_robot(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Hand a seat to the computer player: as ``/game sub user:robot`` (its holder, the host for
    a free, conceded or silent seat, or a vote of the other players)."""
    sub = {"seat": params.get("seat") or "", "user": ROBOT_USER, "user_name": "the computer player"}
    if params.get("vote"):
        sub["vote"] = params["vote"]
    return await game_sub(service, channel_id, caller, sub)


async def game_concede(
    service: GameService, channel_id: str, caller: Caller, params: dict[str, str]
) -> Reply:
    """Leave the game: the seat moves automatically from now on (ask first, then confirm)."""
    row, cached = await service.active(channel_id)
    if cached.game.finished:
        raise UserError("The game is over")
    seats = await service.store.seats(row.id)
    if params.get("seat"):
        seat = find_seat(seats, params["seat"])
        if seat.user_id != caller.id:  # nobody concedes for someone else
            raise UserError(f"You do not hold {seat.name}'s seat; only its holder can concede it")
    else:
        mine = [s for s in seats if s.user_id == caller.id and not s.conceded]
        if not mine and any(s.user_id == caller.id for s in seats):
            raise UserError("The computer player already plays your seat; /game claim takes it back")
        if not mine:
            raise UserError("You hold no seat in this game")
        if len(mine) > 1:
            raise UserError("You hold several seats; say which with seat:")
        seat = mine[0]
    if seat.conceded:
        raise UserError(f"The computer player already plays {seat.name}'s seat; /game claim takes it back")
    _someone_left(seats, seat)
    if (params.get("confirm") or "").lower() != "yes":
        return Reply(
            lines=[
                f"Concede {seat.name}'s seat? The computer player then plays it until you take it back "
                f'(/game claim seat:"{seat.name}") or someone takes it over with /game sub.'
            ],
            ephemeral=True,
            buttons=[Button("Concede", f'/game concede seat:"{seat.name}" confirm:yes', "danger")],
        )
    return await _concede(service, row, cached, seats, seat,
                          f"{seat.name} concedes; the seat moves automatically from now on")


def _someone_left(seats: list[Seat], seat: Seat) -> None:
    """Refused when the computer player would then play every seat."""
    if not any(s.user_id and not s.conceded and s.position != seat.position for s in seats):
        raise UserError("Nobody else would be left playing; the host ends the game with /game end")


async def _concede(service: GameService, row: GameRow, cached: CachedGame, seats: list[Seat], seat: Seat,
                   line: str) -> Reply:
    """The computer player plays ``seat`` from now on (its holder stays: /game claim takes it back)."""
    _someone_left(seats, seat)
    seats = [dataclasses.replace(s, conceded=True) if s.position == seat.position else s for s in seats]
    reply = Reply(lines=[line])
    await service.robot_moves(row, cached, seats, reply)  # engine work before the first write
    await service.store.set_seat_conceded(row.id, seat.position, True)
    if row.last_ping_seat == seat.player_id:
        row.last_ping_seat = None
        await service.store.set_last_ping(row.id, None)
    await offers.after_hand_over(service, row, seat, "the computer player", reply)
    await service.after_change(row, cached, seats, reply)
    return reply
