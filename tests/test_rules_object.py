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
