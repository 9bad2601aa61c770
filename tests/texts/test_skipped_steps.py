"""Steps where nothing can be done (#23): after a move made in the bot, the bot passes for an entity
whose only legal move is pass, as a player typing /pass would (an ordinary stored pass, so the
log and exports keep 18xx.games' sequence), tells it in one line and pings who really acts next;
undo takes those passes back with the move; an import is stored as given."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.commands.layer import CommandLayer
from bot.service import SKIP_USER
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from bot.terminal.textcmd import action_to_command
from engine import actions as A
from engine.game import Game
from engine.moves import only_pass
from engine.replay import filter_actions, game_from_export, snapshot
from tests.command_script import send, set_up
from tests.fixture_util import load_export
from tests.local_play import lobby, play_export

CH = "chan-skip"


def _replayed(export: dict[str, Any]) -> Game:
    game = game_from_export(export)
    game.live = False  # programmed moves come from the record
    return game


def _move_before_a_skip(export: dict[str, Any]) -> int:
    """The index of the first recorded move (not a pass) after which its entity can only pass."""
    game = _replayed(export)
    actions = filter_actions(export["actions"])
    for i, raw in enumerate(actions):
        game.process(A.Action.from_dict(raw), safe=False)
        if raw["type"] != "pass" and only_pass(game) == raw["entity"]:
            return i
    raise AssertionError("no step where nothing can be done")


def _bare(action: dict[str, Any]) -> dict[str, Any]:
    """An action without its ids and times (its own and its automatic actions')."""
    kept = {k: v for k, v in action.items() if k not in ("id", "created_at", "original_id")}
    if "auto_actions" in kept:
        kept["auto_actions"] = [_bare(a) for a in kept["auto_actions"]]
    return kept


async def _logged(layer: CommandLayer) -> list[tuple[dict[str, Any], str | None]]:
    row = await layer.store.open_game(CH)
    assert row is not None
    return [(e.data, e.user_id) for e in await layer.store.actions(row.id)]


async def _at_the_move(layer: CommandLayer) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """89363 imported up to the move after which its corporation can only pass; returns the
    export, its actions and the move's command line (sent by the president's user)."""
    export = load_export("1856", "89363")
    actions = filter_actions(export["actions"])
    at = _move_before_a_skip(export)
    await set_up(layer, CH, {**export, "actions": actions[:at]})
    line = action_to_command(actions[at])
    assert line is not None
    return export, actions[: at + 2], line


async def _user_for(layer: CommandLayer, entity: str | None = None) -> str:
    """The user holding the seat that decides for ``entity`` (default: the one acting now)."""
    row = await layer.store.open_game(CH)
    assert row is not None
    game = (await layer.load(row)).game
    pid = game.controller_of(entity) if entity else game.acting_players()[0]
    return next(s.user_id for s in await layer.store.seats(row.id) if s.player_id == pid and s.user_id)


async def test_a_step_where_nothing_can_be_done_is_passed_by_the_bot_and_told(layer: CommandLayer) -> None:
    export, expected, line = await _at_the_move(layer)
    move, skipped = expected[-2], expected[-1]
    assert skipped["type"] == "pass" and skipped["entity"] == move["entity"]  # what the player did
    mover = await _user_for(layer, move["entity"])
    reply = await send(layer, CH, mover, line)
    assert reply.ok, reply.error
    assert "⏭ LPS has no tile it can lay: step skipped" in reply.lines
    logged = await _logged(layer)
    (typed, typer), (passed, passer) = logged[-2:]
    assert typed["type"] == move["type"] and typer != SKIP_USER
    assert passer == SKIP_USER
    # the very pass 18xx.games recorded there, with its destination check: nothing marks it in
    # the log or an export as the bot's (ids and times aside)
    assert _bare(passed) == _bare(skipped) and passed["entity"] == "LPS"
    # the reply ends with who really acts next: LPS's president, to run its trains (the mover
    # acts on, so nobody is pinged; a turn that passed to another player pings that player)
    nxt = await _user_for(layer)
    assert reply.lines[-1].startswith("next:") and "run routes" in reply.lines[-1]
    assert reply.ping == (None if nxt == mover else nxt)


async def test_the_stored_log_keeps_18xx_games_sequence_of_passes_when_steps_are_skipped(tmp_path: Path) -> None:
    """A whole real game typed from /game new: the bot's log is the export's sequence of actions
    (each pass where it was), though the players typed fewer commands; replayed, it ends as
    the export does. (Its export is accepted whole by 18xx.games' engine: see the report of
    issue #23, ``ruby load.rb``.)"""
    export = load_export("1856", "89363")
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
        await lobby(session, "1856", 4, "alternate_destinations")
        typed = [line async for line, _, _ in play_export(session, export)]
        row = (await store.all_games())[-1]
        stored = filter_actions([e.data for e in await store.actions(row.id)])
        pids = [str(p["id"]) for p in export["players"]]

        def move(a: dict[str, Any], ids: list[str]) -> tuple[str, str]:  # player ids: seats in order
            entity = str(a["entity"])
            return a["type"], str(ids.index(entity) + 1) if a.get("entity_type") == "player" else entity

        recorded = [a for a in filter_actions(export["actions"]) if a["type"] != "message"]
        assert [move(a, ["1", "2", "3", "4"]) for a in stored] == [move(a, pids) for a in recorded]
        assert len(typed) < len(recorded)
        assert sum(e.user_id == SKIP_USER for e in await store.actions(row.id)) == len(recorded) - len(typed)
    finally:
        await store.close()


async def test_undo_takes_back_the_automatic_passes_with_the_move(layer: CommandLayer) -> None:
    export, expected, line = await _at_the_move(layer)
    user = await _user_for(layer, expected[-2]["entity"])
    row = await layer.store.open_game(CH)
    assert row is not None
    before = snapshot((await layer.load(row)).game, {})
    assert (await send(layer, CH, user, line)).ok
    undo = await send(layer, CH, user, "/game undo")  # the mover's own move: no vote needed
    assert undo.ok, undo.error
    assert undo.lines[0].endswith("(and the 1 step skipped after it)"), undo.lines[0]
    game = (await layer.load(row)).game
    assert snapshot(game, {}) == before and game.acting() == [expected[-2]["entity"]]
    logged = await _logged(layer)
    data, _ = logged[-1]
    # one undo back to the action before the move, as 18xx.games undoes to an action id
    assert data["type"] == "undo" and data["action_id"] == logged[-4][0]["id"]
    assert len(filter_actions([d for d, _ in logged])) == len(expected) - 2
    # typed again, the move is followed by the same automatic pass
    again = await send(layer, CH, user, line)
    assert again.ok and "⏭ LPS has no tile it can lay: step skipped" in again.lines


async def test_a_step_with_a_real_choice_is_never_skipped() -> None:
    """Over real games: wherever the engine says only pass is left, the player recorded passed
    there; wherever the player did something else, only_pass never said so."""
    skips = 0
    for title, name in (("1856", "89363"), ("1856", "hotseat006"), ("1836jr56", "hotseat003")):
        export = load_export(title, name)
        game = _replayed(export)
        for raw in filter_actions(export["actions"]):
            if raw["type"] != "message":
                idle = only_pass(game)
                if idle is not None:
                    skips += 1
                    assert raw["type"] == "pass" and str(raw["entity"]) == idle, (name, raw)
            game.process(A.Action.from_dict(raw), safe=False)
    assert skips > 0


async def test_an_import_is_stored_as_given_even_where_nothing_can_be_done(layer: CommandLayer) -> None:
    export = load_export("1856", "89363")
    actions = filter_actions(export["actions"])
    head = actions[: _move_before_a_skip(export) + 1]  # LPS can only pass now
    await set_up(layer, CH, {**export, "actions": head})
    assert len(await _logged(layer)) == len(head)
    row = await layer.store.open_game(CH)
    assert row is not None
    assert only_pass((await layer.load(row)).game) == "LPS"
    assert json.dumps([d for d, _ in await _logged(layer)]) == json.dumps(head)


async def test_the_bots_log_names_each_loan_as_18xx_games_does(layer: CommandLayer) -> None:
    """A loan typed in the bot is stored with the loan's number, as 18xx.games' export carries it
    (its engine refuses a take_loan without one)."""
    export, expected, line = await _at_the_move(layer)
    assert expected[-2]["type"] == "take_loan" and line == "/loan"
    assert (await send(layer, CH, await _user_for(layer, "LPS"), line)).ok
    typed = [d for d, _ in await _logged(layer)][-2]
    assert typed["type"] == "take_loan" and typed["loan"] == expected[-2]["loan"]
