"""``/game undo``: your own last move during your turn at once; anything else when every player at
the table agrees (automatic seats do not vote; a free seat must be claimed first). The undo is an
appended ``undo`` action, as 18xx.games records it; the state after it is rebuilt by replay
before anything is stored.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engine.replay import filter_actions

from .gamelog import build_game, describe_action
from .reply import Button, Caller, Reply, UserError
from .service import CachedGame
from .store_rows import GameRow, Seat, UndoRequest

if TYPE_CHECKING:
    from .service import GameService


async def game_undo(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """Undo the last move: your own during your turn at once; anything else when every player at
    the table agrees (automatic seats do not vote; a free seat must be claimed first)."""
    row, cached = await service.active(channel_id)
    vote = (params.get("vote") or "").lower() or None
    if vote is not None and "state" not in params:
        raise UserError("Vote with the buttons of the undo request")
    service.check_state(params, cached)
    seats = await service.store.seats(row.id)
    mine = {s.player_id for s in seats if s.user_id == caller.id}
    if not mine:
        raise UserError("You do not hold a seat in this game")
    logged = await service.store.actions(row.id)
    by_obj = {id(e.data): e.user_id for e in logged}
    active = filter_actions([e.data for e in logged])
    target = next((a for a in reversed(active) if a.get("type") != "message"), None)
    if target is None:
        raise UserError("There is nothing to undo")
    what = describe_action(cached.game, target)
    playing = [s for s in seats if not s.conceded]
    seated_users = {s.user_id for s in playing if s.user_id}
    free = [s.name for s in playing if s.user_id is None]
    buttons = [
        Button("Agree to undo", f"/game undo vote:yes state:{cached.seq}", "success"),
        Button("Refuse", f"/game undo vote:no state:{cached.seq}", "danger"),
    ]
    if vote is None:
        own = by_obj.get(id(target)) == caller.id and bool(mine & set(cached.game.acting_players()))
        if own or (not free and seated_users <= {caller.id}):
            return await _undo(service, row, cached, caller, target, seats, what)
        if free:
            raise UserError(
                f"Every player must agree to undo {what}, and nobody holds the seat of "
                f"{', '.join(free)} to agree: claim it first (/game claim)"
            )
        await service.store.save_undo_request(row.id, UndoRequest(cached.seq, caller.id, [caller.id]))
        n = len(seated_users)
        return Reply(
            lines=[f"{caller.name} asks to undo: {what}. Every seated player must agree (1/{n})."],
            buttons=buttons,
        )
    req = await service.store.undo_request(row.id, cached.seq)
    if req is None:
        raise UserError("There is no undo request open now")
    if any(v.startswith("-") for v in req.votes):
        raise UserError("That undo request was refused")
    if caller.id not in seated_users:
        raise UserError("Only the players at the table vote on an undo")
    was = list(req.votes)
    if vote == "no":
        req.votes.append("-" + caller.id)
        await service.store.save_undo_request(row.id, req, was)
        return Reply(lines=[f"{caller.name} refuses to undo {what}; nothing changes"])
    if vote != "yes":
        raise UserError("vote must be yes or no")
    if caller.id in req.votes:
        raise UserError("You have already agreed")
    req.votes.append(caller.id)
    if not free and seated_users <= set(req.votes):
        return await _undo(service, row, cached, caller, target, seats, what, (req, was))
    await service.store.save_undo_request(row.id, req, was)
    agreed = len(set(req.votes) & seated_users)
    return Reply(
        lines=[f"{caller.name} agrees to undo {what} ({agreed}/{len(seated_users)})"], buttons=buttons
    )


async def _undo(
    service: GameService,
    row: GameRow,
    cached: CachedGame,
    caller: Caller,
    target: dict[str, Any],
    seats: list[Seat],
    what: str,
    vote: tuple[UndoRequest, list[str]] | None = None,
) -> Reply:
    data = {
        "type": "undo",
        "entity": target.get("entity"),
        "entity_type": target.get("entity_type", "player"),
        "id": cached.max_id + 1,
        "created_at": int(service.now()),
    }
    # the state after the undo is rebuilt by replay before anything is stored: a log that would
    # not replay is never written
    raw = [e.data for e in await service.store.actions(row.id)] + [data]
    game = await asyncio.to_thread(build_game, row, seats, raw)
    if vote is not None:
        await service.store.save_undo_request(row.id, *vote)
    cached = CachedGame(cached.seq, game, cached.max_id + 1, pending=[(data, caller.id)])
    service.remember(row.id, cached)
    reply = Reply(lines=[f"↩ {caller.name} undoes: {what}"])
    await service.after_change(row, cached, seats, reply)
    return reply
