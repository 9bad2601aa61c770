"""/done: one command ends a corporation's operating turn or a player's stock turn; the stored
log is the 18xx.games sequence of passes, and it stops where the player must decide."""

from __future__ import annotations

import copy

from bot.commands.layer import CommandLayer
from engine import actions as A
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import StockRound
from tests.bot.test_bot_errors import USERS, run, setup_game
from tests.fixture_util import load_export


async def _stored_types(layer: CommandLayer) -> list[str]:  # noqa: F811
    row = await layer.store.open_game("chan-a")
    assert row is not None
    return [e.data["type"] for e in await layer.store.actions(row.id)]


async def test_done_ends_the_operating_turn_with_passes(layer: CommandLayer) -> None:  # noqa: F811
    await setup_game(layer, 18)  # BBG (alice) lays track
    assert (await run(layer, "alice", "/lay hex:J15 tile:57 rotation:0")).ok
    before = len(await _stored_types(layer))
    reply = await run(layer, "alice", "/done")
    assert reply.ok, reply.error
    stored = (await _stored_types(layer))[before:]
    assert stored and set(stored) == {"pass"}  # one pass per step, as 18xx.games records them
    assert "WGB" in reply.lines[-1] and reply.ping  # the next corporation's president is pinged once
    assert sum(line.startswith("next:") for line in reply.lines) == 1


async def test_an_undo_takes_back_the_whole_done(layer: CommandLayer) -> None:  # noqa: F811
    """/done then /game undo took back its last pass only: play came back at the loan step, not
    where /done was typed (play-test). /done's passes are one move for /game undo."""
    await setup_game(layer, 18)  # BBG (alice) lays track
    assert (await run(layer, "alice", "/lay hex:J15 tile:57 rotation:0")).ok
    laid = len(await _stored_types(layer))
    row = await layer.store.open_game("chan-a")
    game = (await layer.load(row)).game
    assert isinstance(game.round, OperatingRound)
    step = game.round.active_step().name  # where /done is typed
    done = await run(layer, "alice", "/done")
    passes = len(await _stored_types(layer)) - laid
    assert done.ok and passes >= 2, done.lines
    undone = await run(layer, "alice", "/game undo")  # her own move, the turn it ended still hers
    assert undone.ok and undone.lines[0].startswith("↩ Alice undoes: BBG passes (buy trains) (and the 1 further pass of /done"), undone.lines
    assert "further pass" in undone.lines[0] and "of /done after it)" in undone.lines[0], undone.lines
    game = (await layer.load(row)).game
    assert game.acting() == ["BBG"] and isinstance(game.round, OperatingRound)
    assert game.round.active_step().name == step, (game.round.active_step().name, step)


async def test_done_ends_a_stock_turn_after_a_purchase(layer: CommandLayer) -> None:  # noqa: F811
    """In a later stock round a player who bought may still sell: /done ends the turn."""
    export = load_export("1856", "hotseat001")
    game = game_from_export(export)
    upto = None
    for i, raw in enumerate(filter_actions(export["actions"])):
        game.process(A.Action.from_dict(raw), safe=False)
        if raw["type"] == "buy_shares" and isinstance(game.round, StockRound) and raw["entity"] in game.acting():
            upto = i + 1
            break
    assert upto is not None
    await setup_game(layer, upto)
    user = USERS[game.name_of(game.acting()[0])]
    reply = await run(layer, user, "/done")
    assert reply.ok, reply.error
    assert (await _stored_types(layer))[-1] == "pass"
    refused = await run(layer, user, "/done")
    assert not refused.ok and "not your turn" in (refused.error or "").lower()


def _stops_for_a_decision(game: Game) -> bool:
    """Whether passing every passable step leaves the acting corporation still to decide."""
    trial = copy.deepcopy(game)
    corp = trial.acting()[0]
    for _ in range(12):
        if corp not in trial.acting() or "pass" not in trial.action_types(corp):
            break
        trial.process(A.Pass(entity=corp, entity_type="corporation"))
    return corp in trial.acting()


async def test_done_stops_where_the_corporation_must_decide(layer: CommandLayer) -> None:  # noqa: F811
    """A corporation with a run to make: /done passes what may be passed, then leaves the run (a
    decision) to the player and says so."""
    export = load_export("1856", "hotseat001")
    game = game_from_export(export)
    upto = None
    for i, raw in enumerate(filter_actions(export["actions"])):
        acting = game.acting()
        if i > 18 and isinstance(game.round, OperatingRound) and acting and acting[0] in game.corporations \
                and "lay_tile" in game.action_types(acting[0]) and _stops_for_a_decision(game):
            upto = i
            break
        game.process(A.Action.from_dict(raw), safe=False)
    assert upto is not None
    await setup_game(layer, upto)
    corp = game.acting()[0]
    user = {"Player 1": "alice", "Player 2": "bob", "Player 3": "carol"}[game.controller_of(corp) or ""]
    reply = await run(layer, user, "/done")
    assert reply.ok, reply.error
    assert f"{corp} still has to" in reply.lines[-1]
