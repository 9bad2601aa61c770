"""Exports 18xx.games can read: loan ids as its actions carry them, and round trips."""

from __future__ import annotations

import copy
import json

import pytest

from engine import actions as A
from engine.errors import GameError
from engine.replay import filter_actions, replay
from tests.fixture_util import load_export


def _loan_ids(actions: list[dict]) -> list[tuple[str, str, int | None]]:
    return [(a["type"], str(a["entity"]), a.get("loan")) for a in actions
            if a["type"] in ("take_loan", "payoff_loan")]


def test_loan_actions_are_recorded_with_the_ids_18xx_games_sends() -> None:
    """A generated game with 29 repayments, its loan ids removed: our replay records each
    take_loan/payoff_loan with the very id the 18xx.games export had."""
    original = load_export("generated/1856", "1856_p3_s102")
    stripped = copy.deepcopy(original)
    for a in stripped["actions"]:
        a.pop("loan", None)
    res = replay(stripped)
    assert res.error is None, res.error
    expected = _loan_ids(filter_actions(original["actions"]))
    assert len(expected) > 40
    assert _loan_ids(res.game.action_log) == expected


def test_a_corporation_may_repay_only_a_loan_it_holds() -> None:
    export = load_export("generated/1856", "1856_p3_s102")
    actions = filter_actions(export["actions"])
    i = next(i for i, a in enumerate(actions) if a["type"] == "payoff_loan")
    res = replay(export, upto=actions[i - 1]["id"])
    game = res.game
    payoff = actions[i]
    corp = payoff["entity"]
    foreign = next(n for n in range(110) if n not in game.loan_book.of(corp))
    before = json.dumps(game.action_log)
    with pytest.raises(GameError, match="does not belong"):
        game.process(A.Action.from_dict({**payoff, "loan": foreign}))
    assert json.dumps(game.action_log) == before
    game.process(A.Action.from_dict(payoff))
    assert game.action_log[-1]["loan"] == payoff["loan"]


def test_a_right_bought_without_its_cost_is_recorded_at_its_cost() -> None:
    """The bot's /right names the right only (cost 0): the export records its $50, which
    18xx.games needs to find the item ("Cannot buy unknown item" otherwise); another cost is
    refused and changes nothing."""
    export = load_export("1856", "hotseat005")
    actions = filter_actions(export["actions"])
    buy = next(a for a in actions if a["type"] == "special_buy")
    assert buy["cost"] == 50
    game = replay(export, upto=buy["id"] - 1).game
    before = json.dumps(game.action_log)
    with pytest.raises(GameError, match=r"costs \$50, not \$30"):
        game.process(A.Action.from_dict({**buy, "cost": 30}))
    assert json.dumps(game.action_log) == before
    game.process(A.Action.from_dict({**buy, "cost": 0}))
    assert game.action_log[-1]["cost"] == 50 and game.action_log[-1]["description"] == buy["description"]


def test_a_merge_without_its_corporation_is_recorded_with_it() -> None:
    """/merge may leave out the corporation (the one deciding now); 18xx.games fails on a merge
    that names none, so the export names it."""
    export = load_export("generated/1836jr56", "1836jr56_p2_s202")
    actions = filter_actions(export["actions"])
    merge = next(a for a in actions if a["type"] == "merge")
    game = replay(export, upto=merge["id"] - 1).game
    game.process(A.Action.from_dict({k: v for k, v in merge.items() if k != "corporation"}))
    assert game.action_log[-1]["corporation"] == merge["corporation"]


def _self_played(title: str, players: int, seed: int) -> dict:
    from engine.export import export_game
    from engine.selfplay import play_one

    games: list = []
    report = play_one(title, players, seed, [], 20000, game_out=games)
    assert report.problem is None, report.problem
    return json.loads(json.dumps(export_game(games[0])))


def test_a_self_played_game_exports_in_the_shape_18xx_games_reads() -> None:
    export = _self_played("1856", 4, 11)
    assert export["title"] == "1856" and export["settings"]["optional_rules"] == []
    assert [p["id"] for p in export["players"]] == [1, 2, 3, 4]
    actions = export["actions"]
    assert [a["id"] for a in actions] == list(range(1, len(actions) + 1))
    for a in actions:
        assert isinstance(a["entity"], int) == (a["entity_type"] == "player")
        if a["type"] in ("take_loan", "payoff_loan"):
            assert isinstance(a["loan"], int) and 0 <= a["loan"] < 110
        if a["type"] == "remove_token":
            assert isinstance(a["slot"], int)
        if a["type"] == "sell_shares":
            assert a["shares"] and isinstance(a["percent"], int)
    kinds = {a["type"] for a in actions}
    assert {"take_loan", "payoff_loan", "sell_shares", "buy_train", "run_routes"} <= kinds
    assert export["status"] == "finished" and set(export["result"]) == {"1", "2", "3", "4"}


def test_a_self_played_game_replays_from_its_export_to_the_same_state() -> None:
    """Export -> our replay: the same actions (loan ids included) and the same result."""
    export = _self_played("1836Jr56", 3, 12)
    res = replay(export)
    assert res.error is None, res.error
    assert res.game.finished
    assert {str(k): v for k, v in res.game.result().items()} == export["result"]
    again = [dict(a) for a in res.game.action_log]
    assert _loan_ids(again) == _loan_ids(export["actions"])
    assert len(again) == len(export["actions"])


def test_selfplay_export_writes_each_game(tmp_path) -> None:  # noqa: ANN001
    from bot.cli import main

    assert main(["selfplay", "--title", "1836Jr56", "--players", "2", "--games", "2", "--seed", "5",
                 "--export", str(tmp_path)]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["1836Jr56_2p_s5.json", "1836Jr56_2p_s6.json"]
    for name in files:
        export = json.loads((tmp_path / name).read_text())
        assert replay(export).error is None
