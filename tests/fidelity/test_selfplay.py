"""Random legal games run to their end with every invariant holding (a small CI-sized run;
`conductor selfplay --games 200` is the full run, on demand)."""

from __future__ import annotations

import pytest

from engine.selfplay import check_invariants, play_one, play_seated
from engine.titles.registry import new_game


@pytest.mark.parametrize(("title", "players", "seed", "options"), [
    ("1856", 3, 101, []),
    ("1856", 5, 102, []),
    ("1836Jr56", 2, 201, []),
    ("1836Jr56", 4, 202, ["diesel_variant"]),
])
def test_random_game_ends_cleanly(title: str, players: int, seed: int, options: list[str]) -> None:
    report = play_one(title, players, seed, options, max_actions=20000)
    assert report.problem is None, report.problem
    assert report.finished
    assert report.end_reason in ("bank", "bankrupt", "stalled")


def test_invariants_hold_for_a_fresh_game_and_catch_lost_money() -> None:
    game = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    assert check_invariants(game) is None
    game.players[0].cash += 1
    assert "money is not conserved" in (check_invariants(game) or "")


def test_a_debt_left_when_a_cash_crisis_passes_to_a_new_president_is_no_broken_invariant() -> None:
    """1856, seed 107: player 4 owes the bank in a cash crisis, sells the presidency of TGB and
    the crisis passes to player 3; 18xx.games keeps player 4's remaining debt as negative cash
    and ends the game by bankruptcy two actions later (its engine accepts this game whole with
    the same result). Self-play finishes it the same way."""
    report = play_seated("1856", ["random", "robot", "random", "random"], 107, [], 2000)
    assert report.problem is None and report.finished
    assert report.actions == 577 and report.values[2:] == [-75, -46]
