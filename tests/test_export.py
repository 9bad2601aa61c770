"""Our games export to the 18xx.games shape and replay to the same result."""

from __future__ import annotations

import json

from engine.export import export_game
from engine.replay import replay
from engine.selfplay import play_one
from engine.titles.registry import new_game
from tests.fixture_util import load_export


def test_replayed_fixture_exports_and_replays_identically() -> None:
    original = load_export("1856", "89363")
    game = replay(original).game
    exported = json.loads(json.dumps(export_game(game)))
    assert len(exported["actions"]) == len(game.action_log)
    again = replay(exported)
    assert again.error is None
    assert again.game.result() == game.result()


def test_exported_self_played_game_replays_to_its_result() -> None:
    report = play_one("1836Jr56", 3, 7, [], 20000)
    assert report.finished
    # play the same game again keeping the object, then export and replay it
    import random

    from engine.selfplay import _default_router, random_action

    rng = random.Random(7)
    game = new_game("1836Jr56", [(str(i + 1), f"Player {i + 1}") for i in range(3)], [], 7)
    router = _default_router()
    while not game.finished:
        action = random_action(game, rng, router)
        assert action is not None
        game.process(action, safe=False)
    exported = json.loads(json.dumps(export_game(game)))
    res = replay(exported)
    assert res.error is None, res.error
    assert res.game.finished
    assert {str(k): v for k, v in res.game.result().items()} == exported["result"]
    # destination checks we computed are written as 18xx.games auto actions
    assert any(a.get("auto_actions") for a in exported["actions"] if a["type"] in ("lay_tile", "pass"))
