"""What players read when a game ends (found by the late-game play-test): the status after the
bank broke says so (not "bank -$2013"), a finished game says it is over (not "It is not your
turn"), a bankrupt player is ranked as 18xx.games' result ranks them and marked bankrupt, and the
bank breaks in the story where the 18xx.games log says it does: before the money that broke it."""

from __future__ import annotations

import gzip
import json
from typing import Any

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.terminal.textcmd import action_to_command, parse
from bot.texts.game import result_lines
from bot.texts.summary import standings
from engine.replay import filter_actions, replay
from render.status_image import header_lines
from tests.command_script import send as script_send
from tests.fixture_util import FIXTURES, load_export

CH = "table-end"


async def run(layer: CommandLayer, user: str, line: str) -> Reply:
    cmd = parse(line)
    return await layer.handle(CH, Caller(user, user), cmd.name, cmd.params)


async def one_move_from_the_end(layer: CommandLayer, name: str) -> tuple[list[str], dict[str, Any]]:
    """The 1856 export ``name`` without its last action, seats claimed by user1..userN; returns the
    users by seat and the last action."""
    export = load_export("1856", name)
    actions = filter_actions(export["actions"])
    imported = {**export, "actions": actions[:-1]}
    assert (await layer.handle(CH, Caller("host", "host"), "game import", {"file": json.dumps(imported)})).ok
    users = [f"user{i + 1}" for i in range(len(export["players"]))]
    for player, user in zip(export["players"], users, strict=True):
        assert (await run(layer, user, f'/game claim seat:"{player["name"]}"')).ok
    return users, actions[-1]


async def play_last(layer: CommandLayer, name: str) -> tuple[list[str], Reply]:
    users, last = await one_move_from_the_end(layer, name)
    row = await layer.store.open_game(CH)
    assert row is not None
    game = (await layer.load(row)).game
    seat = game.controller_of(str(last["entity"]))
    user = users[[p.id for p in game.players].index(seat)]
    line = action_to_command(last)
    assert line is not None
    reply = await script_send(layer, CH, user, line)  # (a bankruptcy is asked first: confirmed)
    assert reply.ok, reply.error
    return users, reply


async def test_a_finished_game_s_status_says_the_bank_broke_and_the_game_is_over(layer: CommandLayer) -> None:
    users, reply = await play_last(layer, "1856_game_end_bank")
    assert any(line.startswith("-- Game over") for line in reply.lines)
    status = await run(layer, users[0], "/game status")
    head = status.lines[0].splitlines()[0]
    assert " · bank broken · " in head and "bank -$" not in head, head  # it read "bank -$2013"
    assert "It is not your turn." not in status.lines
    assert "The game is over: there is nothing left to play; /game export saves it." in status.lines
    assert not status.buttons or all(b.command.startswith("/game") for b in status.buttons)
    game = replay(load_export("1856", "1856_game_end_bank")).game
    assert game.bank < 0 and header_lines(game)[1].startswith("Bank broken  ·  ")  # the status picture


async def test_a_bankrupt_player_is_ranked_as_18xx_games_ranks_them_and_marked(layer: CommandLayer) -> None:
    """hotseat005: Player 3 goes bankrupt; 18xx.games' result still ranks them by the shares they
    could not sell ($280, tied with Player 2), so the engine does too; the texts say they went bankrupt."""
    export = load_export("1856", "hotseat005")
    game = replay(export).game
    assert game.result() == {str(k): v for k, v in export["result"].items()}  # the reference's ranking
    users, reply = await play_last(layer, "hotseat005")
    result = next(line for line in reply.lines if line.startswith("**Result**: 1856 is over: a player went bankrupt;"))
    ranking = reply.lines[reply.lines.index(result) + 1:]
    # (each seat named with the user who claimed it)
    assert any(line.startswith("4. user3 (Player 3) (bankrupt): $280 (cash $0 + shares $300") for line in ranking), ranking
    assert not any("(Player 2) (bankrupt)" in line for line in ranking)
    status = await run(layer, users[0], "/game status")
    over = next(line for line in "\n".join(status.lines).splitlines() if line.startswith("Game over (a player went bankrupt): "))
    assert "Player 3 (bankrupt) $280" in over and "Player 2 $280" in over, over


def test_a_false_national_president_who_cannot_pay_is_marked_bankrupt() -> None:
    """hotseat006 ends when Player 3 cannot raise the money for the CGR presidency: 18xx.games
    ends the game as a bankruptcy without the player's bankrupt flag (our state agrees with it); the
    ranking and the summary mark Player 3 all the same (they marked nobody)."""
    game = replay(load_export("1856", "hotseat006")).game
    assert game.end_reason == "bankrupt" and not any(p.bankrupt for p in game.players)
    assert [p.id for p in game.players if game.went_bankrupt(p.id)] == ["Player 3"]
    assert "Player 3 (bankrupt) $" in result_lines(game)[0]
    assert [(st.name, st.bankrupt) for st in standings(game)][-1] == ("Player 3", True)


def test_the_bank_breaks_in_the_story_before_the_money_that_broke_it_as_in_the_18xx_games_log() -> None:
    """The play-test asked whether "-- The bank has broken --" should follow the payout that broke
    it: 18xx.games logs it the moment the bank cannot pay (Bank#check_cash, inside the payment),
    so before the payment's own line; the story keeps that order."""
    with gzip.open(FIXTURES / "story" / "1856_game_end_bank.log.jsonl.gz", "rt") as fh:
        ref = [json.loads(line) for line in fh]
    broke = next(i for i, e in enumerate(ref) if e["message"] == "-- The bank has broken --")
    aid, paid = ref[broke]["id"], ref[broke + 1]["message"]
    assert ref[broke + 1]["id"] == aid and paid == "WR receives $1000"
    export = load_export("1856", "1856_game_end_bank")
    export["actions"] = [a for a in filter_actions(export["actions"]) if a["id"] <= aid]
    ours = replay(export).game.log
    ours_broke = next(i for i, line in enumerate(ours) if line.startswith("-- The bank has broken"))
    assert any("receives $1000" in line for line in ours[ours_broke + 1:]), ours[ours_broke - 2:]
