"""``/done``: end the turn in one command. The caller's acting entity passes every step that may
be passed (an operating corporation's loan, track, token, train and private steps; a player's
stock turn), stopping where the game needs a decision (routes, a dividend, a train that must be
bought) or when the turn is over. Each pass is an ordinary stored ``pass`` action, so the log and
exports stay the 18xx.games sequence of passes; the channel gets one message.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.moves import MOVES

from ..acting import resolve_entity
from ..reply import Caller, Reply, UserError
from ..service import DONE_USER
from ..texts.turns import activity

if TYPE_CHECKING:
    from ..service import GameService

MAX_PASSES = 12  # more steps than any title's operating turn has
DONE = replace(MOVES["pass"], command="done")  # acts for the entity /pass would; refusals name /done


async def done(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, cached, _, pids = await service.playing(channel_id, caller, params)
    game = cached.game
    entity = resolve_entity(game, DONE, pids, params.get("entity"), params)
    start = game.round_key()
    replies: list[Reply] = []
    for _ in range(MAX_PASSES):
        game = cached.game
        if game.finished or entity not in game.acting() or game.round_key() != start:
            break
        if "pass" not in game.action_types(entity):
            break  # a decision only the player can make (routes, a dividend, a forced train)
        # the passes after the first are logged as /done's: /game undo takes them back with it
        replies.append(await service.act(channel_id, caller, "pass", {"entity": entity},
                                         DONE_USER if replies else None))
        cached = await service.load(row)
    if not replies:
        raise UserError(f"{game.name_of(entity)} cannot pass now: {activity(game, entity)} first")
    merged = replies[-1]
    # one message: every pass's story, then the last reply's "who is next", pictures and ping
    merged.lines = [line for r in replies[:-1] for line in r.lines[:-1]] + merged.lines
    game = cached.game
    if not game.finished and entity in game.acting() and game.round_key() == start:
        merged.lines.append(f"{game.name_of(entity)} still has to {activity(game, entity)}")
    return merged
