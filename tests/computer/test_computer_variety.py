"""All-computer self-play varies with its seed (each seat plays with small leanings drawn from
it, :class:`engine.computer.Personality`), plays the same game for the same seed in any Python
process, and leaves the bot's computer seats (no leanings) as they were."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from engine import actions as A
from engine.computer import NEUTRAL, Personality, decide
from engine.game import Game
from engine.selfplay import play_seated
from engine.titles.registry import new_game

# the first actions of an all-computer game: past the first stock round and the first lays
OPENING = {"1856": 150, "1836Jr56": 150}
OPTIONS = {"1856": [], "1836Jr56": ["diesel_variant"]}


def _opening(title: str, seed: int, *, players: int = 3, personalities: bool | None = None,
             actions: int | None = None) -> tuple[list[dict[str, Any]], Game]:
    out: list[Game] = []
    report = play_seated(title, ["robot"] * players, seed, OPTIONS.get(title, []), actions or OPENING[title],
                         game_out=out, personalities=personalities)
    assert report.problem is None or report.problem.startswith("did not end"), report.problem
    return list(out[0].action_log), out[0]


@pytest.mark.parametrize("title", ["1856", "1836Jr56"])
def test_two_seeds_play_different_all_computer_games_and_one_seed_the_same(title: str) -> None:
    one, _ = _opening(title, 1)
    other, _ = _opening(title, 2)
    again, _ = _opening(title, 1)
    assert len(one) == len(other) == OPENING[title]
    assert one != other
    assert one == again


def test_without_leanings_the_seed_changes_nothing() -> None:
    """The bot's computer seat (no leanings): two seeds, the same moves (the seed only seeds
    the fallback, which a steady game never reaches), as before leanings existed."""
    one, _ = _opening("1856", 1, personalities=False, actions=100)
    other, _ = _opening("1856", 2, personalities=False, actions=100)
    assert one == other


def _chosen(action: dict[str, Any]) -> dict[str, Any]:
    """What a player chooses in an action (not its log number, nor what the engine added)."""
    return {k: v for k, v in action.items() if k not in ("id", "auto_actions")}


def test_a_seat_beside_a_random_player_plays_without_leanings() -> None:
    """Mixed seats: the robots play exactly as the bot's computer seats (their moves are those
    :func:`decide` makes with no personality in the same position)."""
    out: list[Game] = []
    play_seated("1856", ["robot", "random", "robot"], 3, [], 60, game_out=out)
    log = out[0].action_log
    game = new_game("1856", [(str(i + 1), f"Player {i + 1}") for i in range(3)], [], 3)
    robots = {"1", "3"}
    checked = 0
    for raw in log:
        action = A.Action.from_dict(raw)
        who = game.controller_of(game.acting()[0])
        if who in robots:
            d = decide(game, game.acting()[0], seed=3 * 100_003 + len(game.action_log), personality=NEUTRAL)
            assert d is not None and _chosen(d.action.to_dict()) == _chosen(raw)
            checked += 1
        game.process(action, safe=False)
    assert checked > 10


def test_leanings_are_drawn_per_seat_and_the_same_every_time() -> None:
    seats = [Personality.draw(7, i) for i in range(4)]
    assert seats == [Personality.draw(7, i) for i in range(4)]
    assert len({p.salt for p in seats}) == 4
    assert all(not p.neutral for p in seats) and NEUTRAL.neutral
    p = seats[0]
    assert p.appeal("PRR") == Personality.draw(7, 0).appeal("PRR")
    assert abs(p.appeal("PRR")) <= p.taste and abs(p.tie("A1", "57", 0)) <= p.jitter
    assert NEUTRAL.appeal("PRR") == 0.0 and NEUTRAL.tie("A1") == 0.0


_CHILD = """
import hashlib, json, sys
from engine.selfplay import play_seated
out = []
play_seated(sys.argv[1], ["robot"] * 3, int(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4]), game_out=out)
print(hashlib.sha256(json.dumps(out[0].action_log, sort_keys=True).encode()).hexdigest())
"""


def test_a_seed_plays_the_same_game_whatever_the_string_hashing() -> None:
    """Two Python processes with different string hashes (set iteration orders) play the same
    moves for the same seed, as this process does: nothing depends on ``hash()``."""
    title, seed, actions = "1856", 4, 100
    here, _ = _opening(title, seed, actions=actions)
    digest = hashlib.sha256(json.dumps(here, sort_keys=True).encode()).hexdigest()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", _CHILD, title, str(seed), json.dumps(OPTIONS[title]), str(actions)],
                             capture_output=True, text=True, env=env, check=True)
        assert run.stdout.strip() == digest
