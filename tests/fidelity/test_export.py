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

    from engine.selfplay import default_router, random_action

    rng = random.Random(7)
    game = new_game("1836Jr56", [(str(i + 1), f"Player {i + 1}") for i in range(3)], [], 7)
    router = default_router()
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


def test_exported_1833ne_game_replays_with_conductor_replay(tmp_path, capsys) -> None:  # noqa: ANN001
    """Issue #4: a game we export replays with ``conductor replay`` to the same result."""
    from bot.cli import main
    from engine.titles.g1833ne.selfplay import play_one as play_1833ne

    games: list = []
    report = play_1833ne(3, 11, [], 20000, game_out=games)
    assert report.problem is None, report.problem
    path = tmp_path / "1833ne.json"
    path.write_text(json.dumps(export_game(games[0])))
    assert main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["title"] == "1833NE"
    assert summary["finished"] is True
    assert summary["matches_export"] is True
