"""A title's route pricer (``route_pricer``: what every route of a position reads worked out
once, then reused by the router for thousands of routes) answers every route as
``route_revenue`` (for 1856 and 1836Jr56 a pricer made afresh for that one route): the same
revenue, the same refusals, whatever was priced before. On games with every kind of bonus (a
corporation's port, tunnel and bridge rights, 1836Jr56's port off-boards paying per station),
before every route run. (That the revenue itself is right, the fidelity tests check against
18xx.games.)"""

from __future__ import annotations

import random

import pytest

from engine import actions as A
from engine.errors import GameError
from engine.replay import filter_actions, game_from_export
from tests.fixture_util import load_export

GAMES = [("1856", "89363"), ("1856", "hotseat006"), ("generated/1856", "1856_p3_s101"),
         ("generated/1856", "1856_p3_s103"), ("generated/1836jr56", "1836jr56_p2_s905")]


def _answer(fn: object, *args: object) -> int | str:
    try:
        return fn(*args)  # type: ignore[operator, no-any-return]
    except GameError as exc:
        return f"refused: {exc}"


@pytest.mark.parametrize(("title", "name"), GAMES)
def test_route_pricer_answers_as_route_revenue(title: str, name: str) -> None:
    export = load_export(title, name)
    game = game_from_export(export)
    rng = random.Random(name)
    asked = bonus = refused = 0
    for raw in filter_actions(export["actions"]):
        if raw.get("type") == "run_routes":
            corp = game.corp(raw["entity"])
            price = game.route_pricer(corp)
            stops = game.route_graph(corp.sym).stops
            values = game.board.stop_values(game.phase_colors())
            for _ in range(40):
                route = rng.sample(stops, rng.randint(1, min(10, len(stops))))
                got = _answer(price, route)
                assert got == _answer(game.route_revenue, corp, route), (raw["id"], corp.sym, route)
                asked += 1
                refused += isinstance(got, str)
                bonus += isinstance(got, int) and got != sum(values[s] for s in route)
        game.process(A.Action.from_dict(raw), safe=False)
    assert asked > 200 and bonus >= 5
    if "1836jr56" in title:
        assert refused > 10  # a port off-board with too few other stops
