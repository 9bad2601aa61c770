"""The frozen rules object: every optional constant a title sets is read once, with one default."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from engine.rules import Rules
from engine.titles.registry import TITLES, new_game


def test_defaults_apply_to_a_title_that_sets_nothing() -> None:
    rules = Rules.from_data(SimpleNamespace())
    assert rules == Rules()
    assert rules.port_min_stops == 0 and rules.network_walk == "reach" and rules.num_loans == 0


@pytest.mark.parametrize("title", list(TITLES))
def test_each_field_is_what_the_title_data_says(title: str) -> None:
    data = TITLES[title].data
    rules = Rules.from_data(data)
    for f in dataclasses.fields(Rules):
        name = f.name.upper()
        value = getattr(rules, f.name)
        if hasattr(data, name):
            given = getattr(data, name)
            assert (list(value) if isinstance(given, list) else dict(value) if isinstance(given, dict)
                    else value) == given, name
        else:
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            assert value == default, name


def test_rules_are_frozen_and_shared_by_copies() -> None:
    import copy

    game = new_game("1836Jr56", [("1", "A"), ("2", "B"), ("3", "C")])
    assert game.rules.port_min_stops == 3 and game.rules.network_walk == "route_legal"
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.rules.port_min_stops = 2  # type: ignore[misc]
    assert copy.deepcopy(game).rules is game.rules


@pytest.mark.parametrize("title", ["1856", "1836Jr56"])
def test_the_1856_family_reads_its_constants_from_the_rules(title: str) -> None:
    data = TITLES[title].data
    game = new_game(title, [("1", "A"), ("2", "B"), ("3", "C")])
    assert game.rules.port_bonus == 20  # 1856's port marker, 1836Jr56's RdP (RDP_BONUS)
    assert (game.loan_value, game.interest_rate, game.loans_available) == (
        data.LOAN_VALUE, data.INTEREST_RATE, data.NUM_LOANS)
    assert game.national_sym == data.NATIONAL
    assert game.percent_to_operate == data.PERCENT_TO_OPERATE_START
    assert game.rules.percent_to_operate_max == 60 and game.rules.percent_to_operate_step == 10


def test_shared_engine_code_reads_no_optional_constant_from_the_data() -> None:
    """Optional constants come from ``game.rules`` (one default each), never from a
    ``getattr`` on the title data with a default of its own."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engine"
    files = [*root.glob("*.py"), *(root / "titles" / "g1856").glob("*.py"), *(root / "titles" / "g1836jr56").glob("*.py"),
             root / "titles" / "registry.py"]
    pattern = re.compile(r"(getattr|hasattr)\((self\.data|data|d|game\.data|g\.data)\b")
    offenders = [f"{f.name}:{n}" for f in files if f.name != "rules.py"
                 for n, line in enumerate(f.read_text().splitlines(), 1) if pattern.search(line)]
    assert offenders == []
