"""``/game undo``: your own last move during your turn at once; anything else when every
player at the table agrees (automatic seats do not vote; a free seat must be claimed first). A
purchase from you was your offer to accept (:mod:`bot.handlers.offers`): taking it back is the
table's, as any other move; an undo, like any move, withdraws an offer still open (and says so).
The bot's passes for steps where nothing can be done and the automatic seats' moves go with the
move they followed. The undo is an appended ``undo`` action, as
18xx.games records it; the state after it is rebuilt by replay before anything is stored.

The vote itself (:func:`table_vote`) serves any motion the whole table must agree to: an undo of
other players' moves, and a change of the provisional values once the game is under way
(:mod:`bot.handlers.rules`). :func:`append_action` appends what a passed motion decided.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.decisions import round_title
from engine.replay import filter_actions

from ..gamelog import build_game, describe_action
from ..reply import Button, Caller, Reply, UserError
from ..robot import ROBOT_USER
from ..service import DONE_USER, SKIP_USER, CachedGame
from ..storage.rows import GameRow, Seat, UndoRequest
from ..texts import story
from . import offers

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Motion:
    """What the table votes on. ``agree``: the words after "agree to" ("undo P1 lays 57 on F17");
    ``command``: the command its buttons send (with ``vote:`` and ``state:``); ``topic``: what is
    proposed, stored with the request so a vote counts only for the motion it was cast on ("" for
    an undo, which is decided by the game's state alone); ``button``: the agree button's verb."""

    agree: str
    command: str
    topic: str = ""
    button: str = "undo"

    def requested_by(self, user_id: str) -> str:
        return f"{user_id}\n{self.topic}" if self.topic else user_id


@dataclass
class VoteResult:
    """``reply`` None: the motion passes now; then ``record`` (a vote to store) is saved by
    :func:`save_vote` once what it decided is done."""

    reply: Reply | None = None
    record: tuple[UndoRequest, list[str]] | None = None


def motion_topic(req: UndoRequest) -> str:
    return req.requested_by.partition("\n")[2]


async def open_motion(service: GameService, row: GameRow, state: int) -> UndoRequest | None:
    return await service.store.undo_request(row.id, state)


async def table_vote(
    service: GameService,
    row: GameRow,
    cached: CachedGame,
    caller: Caller,
    seats: list[Seat],
    vote: str | None,
    motion: Motion,
) -> VoteResult:
    """Ask for (``vote`` None) or vote on (``yes``/``no``) ``motion``: it passes when every seated
    player agreed (at once when the caller is the only one); a free seat must be claimed first."""
    playing = [s for s in seats if not s.conceded]
    seated_users = {s.user_id for s in playing if s.user_id}
    free = [s.name for s in playing if s.user_id is None]
    buttons = [
        Button(f"Agree to {motion.button}", f"{motion.command} vote:yes state:{cached.seq}", "success"),
        Button("Refuse", f"{motion.command} vote:no state:{cached.seq}", "danger"),
    ]
    if vote is None:
        req = await open_motion(service, row, cached.seq)
        if req is not None and motion_topic(req) == motion.topic and not any(v.startswith("-") for v in req.votes):
            # the same request again (another player asks for the same undo): a vote for it
            if caller.id in req.votes:
                agreed = len(set(req.votes) & seated_users)
                raise UserError(
                    f"You have already agreed to {motion.agree} ({agreed}/{len(seated_users)}); "
                    "the others agree with its buttons, or by asking for it too"
                )
            vote = "yes"
    if vote is None:
        if not free and seated_users <= {caller.id}:
            return VoteResult()
        if free:
            raise UserError(
                f"Every player must agree to {motion.agree}, and nobody holds the seat of "
                f"{', '.join(free)} to agree: claim it first (/game claim)"
            )
        await service.store.save_undo_request(
            row.id, UndoRequest(cached.seq, motion.requested_by(caller.id), [caller.id])
        )
        n = len(seated_users)
        agreed = len({caller.id} & seated_users)
        asked = Reply(
            lines=[f"{caller.name} asks to {motion.agree}. Every seated player must agree ({agreed}/{n})."],
            buttons=buttons,
        )
        # those whose answer it needs are told (as for a seat's hand-over)
        asked.heads_up = [(uid, f"your answer: {motion.agree}? (this message's buttons)")
                          for uid in sorted(seated_users - {caller.id})]
        return VoteResult(asked)
    req = await open_motion(service, row, cached.seq)
    if req is None or motion_topic(req) != motion.topic:
        raise UserError(f"There is no request to {motion.button} open now")
    if any(v.startswith("-") for v in req.votes):
        raise UserError(f"That request to {motion.button} was refused")
    if caller.id not in seated_users:
        raise UserError("Only the players at the table vote")
    was = list(req.votes)
    if vote == "no":
        req.votes.append("-" + caller.id)
        await service.store.save_undo_request(row.id, req, was)
        return VoteResult(Reply(lines=[f"{caller.name} refuses to {motion.agree}; nothing changes"]))
    if vote != "yes":
        raise UserError("vote must be yes or no")
    if caller.id in req.votes:
        raise UserError("You have already agreed")
    req.votes.append(caller.id)
    if not free and seated_users <= set(req.votes):
        return VoteResult(record=(req, was))
    await service.store.save_undo_request(row.id, req, was)
    agreed = len(set(req.votes) & seated_users)
    return VoteResult(
        Reply(lines=[f"{caller.name} agrees to {motion.agree} ({agreed}/{len(seated_users)})"], buttons=buttons)
    )


async def save_vote(service: GameService, row: GameRow, result: VoteResult) -> None:
    if result.record is not None:
        await service.store.save_undo_request(row.id, *result.record)


async def game_undo(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Undo the last move: your own during your turn at once; anything else when every player at
    the table agrees (automatic seats do not vote; a free seat must be claimed first)."""
    row, cached = await service.active(channel_id)
    vote = (params.get("vote") or "").lower() or None
    if vote is not None and "state" not in params and await open_motion(service, row, cached.seq) is None:
        raise UserError("No undo request is open now; /game undo asks for one")
    service.check_state(params, cached)  # (a typed vote without state: on the request open now)
    seats = await service.store.seats(row.id)
    mine = {s.player_id for s in seats if s.user_id == caller.id}
    if not mine:
        raise UserError("You do not hold a seat in this game")
    logged = await service.store.actions(row.id)
    by_obj = {id(e.data): e.user_id for e in logged}
    active = filter_actions([e.data for e in logged])
    moves = [a for a in active if a.get("type") != "message"]
    # the bot's passes for steps where nothing can be done, and the automatic seats' moves, go
    # with the move they followed (an automatic seat's move undone alone is made again at once)
    skipped = robots = done = 0
    while skipped + robots + done < len(moves) - 1 and \
            (by := by_obj.get(id(moves[-1 - skipped - robots - done]))) in (SKIP_USER, ROBOT_USER, DONE_USER):
        if by == SKIP_USER:
            skipped += 1
        elif by == DONE_USER:
            done += 1
        else:
            robots += 1
    target = moves[-1 - skipped - robots - done] if moves else None
    if target is None:
        raise UserError("There is nothing to undo")
    at = next(i for i, a in enumerate(active) if a is target)
    what = await _told(row, seats, active[:at], target) or describe_action(cached.game, target)
    after = []
    if skipped:
        after.append(f"the {skipped} " + ("step skipped" if skipped == 1 else "steps skipped"))
    if robots:
        after.append(f"the {robots} " + ("move of the automatic seats" if robots == 1 else "moves of the automatic seats"))
    if done:
        after.append(f"the {done} further " + ("pass" if done == 1 else "passes") + " of /done")
    if after:
        what += f" (and {' and '.join(after)} after it)"
    skipped += robots + done
    # (undone to the action before it: to id 0, the start, when it was the first; 18xx.games
    # also cuts every action after the id an undo names)
    back_to = (active[at - 1] if at else {"id": 0}) if skipped else None
    own = by_obj.get(id(target)) == caller.id
    if vote is None and own and (skipped or bool(mine & set(cached.game.acting_players()))):
        # your own move in your turn (the turn the skipped steps may have ended is still yours)
        return await _undo(service, row, cached, caller, target, what, back_to)
    result = await table_vote(service, row, cached, caller, seats, vote, Motion(f"undo {what}", "/game undo"))
    if result.reply is not None:
        return result.reply
    asker = result.record[0].requested_by.partition("\n")[0] if result.record is not None else caller.id
    by = caller.name if asker == caller.id else next((s.name for s in seats if s.user_id == asker), caller.name)
    who = f"{by} undoes, the table agreeing" if result.record is not None else f"{caller.name} undoes"
    reply = await _undo(service, row, cached, caller, target, what, back_to, who)
    await save_vote(service, row, result)
    return reply


async def _told(row: GameRow, seats: list[Seat], earlier: list[dict[str, Any]],
                target: dict[str, Any]) -> str | None:
    """The move ``target`` as the channel told it when it was made (seen again on the game just
    before it: the log is replayed without it), or None when that cannot be told."""
    try:
        action = A.Action.from_dict(target)
        game = await asyncio.to_thread(build_game, row, seats, earlier)
        return await asyncio.to_thread(story.move_words, game, action)
    except Exception:  # (the words are a courtesy: the undo does not depend on them)
        log.exception("could not tell the move to undo")
        return None


async def _undo(
    service: GameService,
    row: GameRow,
    cached: CachedGame,
    caller: Caller,
    target: dict[str, Any],
    what: str,
    back_to: dict[str, Any] | None = None,
    who: str | None = None,
) -> Reply:
    """One ``undo`` action: of the last move, or (``back_to``) of everything after that action,
    as 18xx.games undoes to an action id; ``who`` heads the line ("Bob undoes, the table
    agreeing"; by default the caller undoes)."""
    data: dict[str, Any] = {
        "type": "undo",
        "entity": target.get("entity"),
        "entity_type": target.get("entity_type", "player"),
    }
    if back_to is not None:
        data["action_id"] = back_to.get("id")
    return await append_action(service, row, cached, caller, data, f"↩ {who or f'{caller.name} undoes'}: {what}")


async def append_action(
    service: GameService, row: GameRow, cached: CachedGame, caller: Caller, data: dict[str, Any], line: str
) -> Reply:
    """Append ``data`` (an action the table decided) to the game's log: the state after it is
    rebuilt by replay before anything is stored, so a log that would not replay is never
    written; then the channel is told (``line``) as after any move."""
    data = {**data, "id": cached.max_id + 1, "created_at": int(service.now())}
    before = cached.game
    lapsed = await offers.lapsing_lines(service, row, cached, votes=False)  # (read at the position it ends)
    seats = await service.store.seats(row.id)
    raw = [e.data for e in await service.store.actions(row.id)] + [data]
    game = await asyncio.to_thread(build_game, row, seats, raw)
    cached = CachedGame(cached.seq, game, cached.max_id + 1, pending=[(data, caller.id)])
    service.remember(row.id, cached)
    reply = Reply(lines=[line, *lapsed])
    if round_title(game) != round_title(before):  # (an undo across a round's start)
        reply.lines.append(f"Play is back in {round_title(game)}")
    await service.after_change(row, cached, seats, reply)
    return reply
