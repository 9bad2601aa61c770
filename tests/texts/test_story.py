"""The story of a game: after every action the channel (and ``conductor replay --story``) tells
every fact the 18xx.games log tells for it, in the game's own words and currency, then who acts
next. Checked against 18xx.games logs stored in tests/fixtures/story/ (real games and games the
reference engine generated), and on the gaps a new player met (issue #23).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as conductor
from bot.commands.layer import CommandLayer
from bot.reply import Caller
from bot.terminal.textcmd import parse
from bot.texts.story import export_story, fit
from engine.replay import filter_actions
from tests.fixture_util import FIXTURES, load_export
from tests.story_facts import count

GAMES = [  # (folder of the export, name): the reference log is tests/fixtures/story/NAME.log.jsonl.gz
    ("1856", "89363"),
    ("1856", "51745"),
    ("1856", "1856_game_end_bank"),
    ("1856", "move_up_price_sr1"),
    ("1836jr56", "hotseat003"),
    ("1836jr56", "1836jr56_game_end_bank"),
    ("story", "g1856_5101"),
    ("story", "g36_5101"),
]


def reference_log(name: str) -> list[dict[str, Any]]:
    with gzip.open(FIXTURES / "story" / f"{name}.log.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


@cache
def story(folder: str, name: str) -> dict[int, list[str]]:
    lines, error = export_story(load_export(folder, name))
    assert error is None, error
    return {int(entry["id"]): entry["lines"] for entry in lines}


def told(folder: str, name: str, action: int) -> str:
    return "\n".join(story(folder, name)[action])


@pytest.mark.parametrize(("folder", "name"), GAMES, ids=[name for _, name in GAMES])
def test_story_tells_every_fact_of_the_18xx_games_log(folder: str, name: str) -> None:
    ours = [{"id": aid, "lines": lines} for aid, lines in story(folder, name).items()]
    result = count(reference_log(name), ours)
    assert sum(result.total.values()) > 0
    assert not result.untold, [f"{f.action}: {f.message}" for f in result.untold[:5]]


def test_payout_tells_amount_per_share_and_price_move() -> None:
    text = told("1856", "89363", 57)  # GW pays out its $50 run
    assert "GW pays out $50 = $5 per share ($15 to Player 3)" in text
    assert "GW's share price moves right from $75 to $80" in text


def test_a_corporation_that_does_not_run_tells_its_price_fall() -> None:
    text = told("1856", "89363", 24)  # GW has no train yet: it does not run
    assert "GW does not run (no revenue: it has no train)" in text
    assert "GW's share price moves left from $80 to $75" in text


def test_a_corporation_with_trains_that_does_not_run_says_why() -> None:
    """CA's tile leads to no second stop: "CA does not run (no revenue)" left its president
    guessing why its 2-train did not run (a play-test's CA laid into London's side without track)."""
    assert "CA does not run (no revenue: its track reaches no second stop)" in told("1856", "89363", 73)


def test_end_of_stock_round_price_moves_are_told() -> None:
    text = told("1856", "move_up_price_sr1", 15)  # BBG is sold out when the stock round ends
    assert "BBG's share price moves up from $65 to $70" in text
    assert text.index("moves up") < text.index("Operating Round 1.1 (of 1) begins")


def test_phase_change_tells_what_it_changes() -> None:
    lines = [ln for lines in story("1856", "1856_game_end_bank").values() for ln in lines if "-- Phase" in ln]
    three = next(ln for ln in lines if ln.startswith("-- Phase 3 "))
    assert "Train Limit: 4" in three and "green tiles may be laid now" in three
    assert "2 operating rounds after each stock round (was 1)" in three
    five = next(ln for ln in lines if ln.startswith("-- Phase 5 "))
    assert "the train limit is 2 (was 3" in five or "the train limit is 2 (was 4" in five


def test_rusting_names_the_trains_and_their_owners() -> None:
    lines = [ln for lines in story("1856", "1856_game_end_bank").values() for ln in lines]
    rust = next(ln for ln in lines if "rust" in ln)
    assert rust.startswith("-- Event: 2-trains rust (") and " x" in rust


def test_destination_is_explained() -> None:
    text = told("1856", "89363", 87)  # GW's tile connects LPS's home to London
    assert "LPS has destinated: its home C14 (Maudaumin) is connected to its destination F15 (London)" in text


def test_token_tells_the_hex_and_city_name() -> None:
    assert told("1856", "89363", 88).startswith("GW places a token on F17 (St. Thomas) for $40 (Player 3)")


def test_private_ability_token_tells_where_it_was_placed() -> None:
    text = told("1856", "51745", 297)  # WR uses WSRC's station in Kitchener
    assert text.startswith("WR (WSRC) places a token on I12 (Kitchener, city 2 of 2) (Player 2)")
    assert "WSRC closes at the end of the operating round" in text


def test_the_game_own_currency_is_used() -> None:
    text = "\n".join(ln for lines in story("1836jr56", "hotseat003").values() for ln in lines)
    assert "pays out 30 F = 3 F per share (9 F to Player 1, " in text and "$" not in text


def test_a_new_round_and_the_private_income_are_told() -> None:
    text = told("1856", "89363", 22)  # the last buy ends stock round 1
    assert "Operating Round 1.1 (of 1) begins" in text
    assert "Player 1 collects $5 from Flos Tramway and $20 from St. Clair Frontier Tunnel Company" in text
    assert "GW places its home token on F15 (London)" in text


def test_a_sale_tells_how_many_shares_and_each_price_step() -> None:
    text = told("story", "g1856_5101", 127)
    assert "Player 4 sells 2 shares (20%) of GT and receives $250" in text
    assert "GT's share price moves down from $125 to $110, then to $100" in text


def test_players_without_a_move_are_told_in_one_line() -> None:
    assert "Player 3, Player 4 and Player 1 have no valid actions and pass" in told("1856", "89363", 21)


def test_interest_is_told_with_the_loans_it_is_for() -> None:
    text = told("1856", "89363", 56)
    assert "GW pays $20 interest for 2 loans" in text and "owes" not in text


def test_a_train_bought_from_a_corporation_names_price_and_seller() -> None:
    assert told("1856", "1856_game_end_bank", 184).startswith("CA buys a 2-train for $105 from CPR (Player 2)")


def test_the_rising_percentage_to_operate_is_told() -> None:
    text = told("1856", "1856_game_end_bank", 52)
    assert "the last 2-train is sold (3-trains are available now)" in text
    assert "need 30% sold from the IPO to operate" in text


def test_the_national_formation_tells_its_price_holders_and_president() -> None:
    text = told("1856", "51745", 464)
    assert "CGR starts at a share price of $110" in text
    assert "Player 3 receives 25% of CGR for the merged shares" in text
    assert "Player 3 becomes the president of CGR" in text
    assert "WR's token in O16 (Niagara Falls) is replaced with a CGR token" in text


def test_game_over_tells_the_scores() -> None:
    text = told("1856", "89363", max(story("1856", "89363")))
    assert "-- Game over (the host ended it): Player 4 ($393), Player 1 ($374)" in text


def test_every_story_ends_with_who_acts_next() -> None:
    for lines in story("1856", "89363").values():
        assert lines[-1].startswith("next: ")


def test_replay_story_writes_one_line_per_processed_action(tmp_path: Path) -> None:
    src = FIXTURES / "1856" / "89363.json"
    out = tmp_path / "story.jsonl"
    assert conductor(["replay", str(src), "--story", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text().splitlines()]
    export = json.loads(src.read_text())
    assert [e["id"] for e in written] == [0] + [a["id"] for a in filter_actions(export["actions"])]
    assert {e["id"]: e["lines"] for e in written} == story("1856", "89363")


CH = "table"
USERS = ["alice", "bob", "carol", "dave"]


async def test_the_bot_posts_the_story_replay_tells(layer: CommandLayer) -> None:
    export = load_export("1856", "89363")
    export["actions"] = filter_actions(export["actions"])[:56]
    assert (await layer.handle(CH, Caller("alice", "alice"), "game import", {"file": json.dumps(export)})).ok
    for player, user in zip(export["players"], USERS, strict=False):
        cmd = parse(f'/game claim seat:"{player["name"]}"')
        assert (await layer.handle(CH, Caller(user, user), cmd.name, cmd.params)).ok
    cmd = parse("/dividend kind:payout")
    reply = await layer.handle(CH, Caller("carol", "carol"), cmd.name, cmd.params)
    assert reply.ok, reply.error
    assert [ln.replace("(carol)", "(Player 3)") for ln in reply.lines] == story("1856", "89363")[57]


def test_a_story_too_long_for_one_message_keeps_who_acts_next() -> None:
    lines = [f"Player {i % 4 + 1} has no valid actions and passes, round {i}" for i in range(200)]
    lines.append("next: Player 2, buy a share or pass (/buy, /pass)")
    short = fit(lines)
    assert len("\n".join(short)) <= 1900 and short[-1] == lines[-1] and short[0] == lines[0]
    assert short[-2].startswith("... (") and short[-2].endswith(" more lines)")
    assert fit(lines[-3:]) == lines[-3:]


def test_a_chat_message_in_an_export_is_told_as_said() -> None:
    export = load_export("1856", "89363")
    first = export["actions"][0]
    chat = {"type": "message", "entity": first["entity"], "entity_type": "player", "id": 999, "message": "hi"}
    export["actions"].insert(1, chat)
    lines, error = export_story(export)
    assert error is None
    said = next(e["lines"] for e in lines if e["id"] == 999)
    assert said[0] == 'Player 1 says: "hi"' and said[-1].startswith("next: ")


def test_ending_a_stock_turn_is_not_told_as_being_done() -> None:
    text = told("1856", "89363", 48)  # Player 1 bought a share, then passes: the turn ends
    assert text.startswith("Player 1 ends the turn") and "is done" not in text


def test_a_move_is_told_again_as_the_channel_told_it() -> None:
    """An undo names the move in the words the channel used when it was made
    (:func:`bot.texts.story.move_words`), seen on the game just before it, which is left as it
    was; a run of several trains is named by its total."""
    from bot.texts.story import move_words
    from engine import actions as A
    from tests.fixture_util import before_run

    game, sym = before_run("generated/1856", "1856_p3_s412", 192)
    raw = next(a for a in load_export("generated/1856", "1856_p3_s412")["actions"] if a.get("id") == 192)
    done = len(game.action_log)
    assert move_words(game, A.Action.from_dict(raw)) == f"{sym} runs for $80 in all"
    assert len(game.action_log) == done
    refused = A.Action.from_dict({**raw, "entity": "CA"})  # not CA's turn
    assert move_words(game, refused) is None
