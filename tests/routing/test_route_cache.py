"""The best routes of a position are computed once and reused (engine.routing.router.cached_best_routes):
the suggestion, the button and autocomplete ask for the same position; a change of the map or
of the corporation's trains makes them be computed again."""

from __future__ import annotations

from typing import Any

import pytest

from engine.decisions import suggest_routes
from engine.routing import router as R
from engine.titles.registry import new_game

CORP = "CA"


def _position() -> Any:
    game = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    board = game.board
    for hid in ("J11", "J13", "J15"):
        tile = board.tile_for("57")
        rot = next(r for r in range(6) if tile.with_rotation(r).exits == frozenset({0, 3}))
        board.lay(hid, board.supply["57"][0], rot)
    board.place_token("J13", 0, CORP)
    game.give_train(game.trains["2-0"], CORP)
    return game


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = R.best_routes

    def counted(game: Any, sym: str, **kw: Any) -> R.RouteSolution:
        calls.append(sym)
        return real(game, sym, **kw)

    monkeypatch.setattr(R, "best_routes", counted)
    return calls


def test_the_same_position_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _position()
    calls = _counting(monkeypatch)
    first = suggest_routes(game, CORP)
    again = suggest_routes(game, CORP)
    assert first == again and first and calls == [CORP]
    again[0]["revenue"] = -1  # each caller gets its own copy
    assert suggest_routes(game, CORP)[0]["revenue"] == first[0]["revenue"]


def test_a_new_tile_or_train_means_a_new_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _position()
    calls = _counting(monkeypatch)
    suggest_routes(game, CORP)
    tile = game.board.tile_for("57")
    rot = next(r for r in range(6) if tile.with_rotation(r).exits == frozenset({0, 3}))
    game.board.lay("J17", game.board.supply["57"][0], rot)
    suggest_routes(game, CORP)
    game.give_train(game.trains["2-1"], CORP)
    suggest_routes(game, CORP)
    assert calls == [CORP, CORP, CORP]


def test_an_unproven_answer_is_not_reused_for_a_bigger_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _position()
    budgets: list[float] = []
    real = R.best_routes

    def cut_short(g: Any, sym: str, **kw: Any) -> R.RouteSolution:
        budgets.append(kw["time_budget"])
        sol = real(g, sym, **kw)
        sol.optimal = kw["time_budget"] >= 1.0  # as if only a second proves the optimum
        return sol

    monkeypatch.setattr(R, "best_routes", cut_short)
    assert not R.cached_best_routes(game, CORP, time_budget=0.1).optimal
    assert not R.cached_best_routes(game, CORP, time_budget=0.05).optimal
    assert R.cached_best_routes(game, CORP, time_budget=1.0).optimal
    assert R.cached_best_routes(game, CORP, time_budget=0.1).optimal
    assert budgets == [0.1, 1.0]


def test_a_caller_that_must_not_wait_sees_only_what_was_found() -> None:
    game = _position()
    assert R.known_best_routes(game, CORP) is None
    found = R.cached_best_routes(game, CORP)
    known = R.known_best_routes(game, CORP)
    assert known is not None and known.routes == found.routes and known.optimal


def test_a_suggestion_cut_short_says_it_is_not_proven_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """Autocomplete offers the answer already found for the position; one the search could not
    prove optimal in time is offered as the best found, not the best."""
    from engine.moves import MOVES, option_choices

    game = _position()
    real = R.best_routes

    def cut_short(g: Any, sym: str, **kw: Any) -> R.RouteSolution:
        sol = real(g, sym, **kw)
        sol.optimal, sol.stopped = False, "time"
        return sol

    monkeypatch.setattr(R, "best_routes", cut_short)
    R.cached_best_routes(game, CORP)  # the suggestion after the previous move
    monkeypatch.setattr(game, "action_types", lambda entity: ["run_routes"])
    labels = [c.label for c in option_choices(game, CORP, MOVES["routes"], "routes", {})]
    assert labels[0].startswith("auto: the best routes found in time (not proven best)")
