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
