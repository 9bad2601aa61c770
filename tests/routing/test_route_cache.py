"""The best routes of a position are computed once and reused (engine.routing.cache.cached_best_routes):
the suggestion, the button and autocomplete ask for the same position; a change of the map or
of the corporation's trains makes them be computed again."""

from __future__ import annotations

from typing import Any

import pytest

from engine.decisions import suggest_routes
from engine.routing import cache as C
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

    monkeypatch.setattr(C, "best_routes", counted)
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

    monkeypatch.setattr(C, "best_routes", cut_short)
    assert not C.cached_best_routes(game, CORP, time_budget=0.1).optimal
    assert not C.cached_best_routes(game, CORP, time_budget=0.05).optimal
    assert C.cached_best_routes(game, CORP, time_budget=1.0).optimal
    assert C.cached_best_routes(game, CORP, time_budget=0.1).optimal
    assert budgets == [0.1, 1.0]


def test_a_caller_that_must_not_wait_sees_only_what_was_found() -> None:
    game = _position()
    assert C.known_best_routes(game, CORP) is None
    found = C.cached_best_routes(game, CORP)
    known = C.known_best_routes(game, CORP)
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

    monkeypatch.setattr(C, "best_routes", cut_short)
    C.cached_best_routes(game, CORP)  # the suggestion after the previous move
    monkeypatch.setattr(game, "action_types", lambda entity: ["run_routes"])
    labels = [c.label for c in option_choices(game, CORP, MOVES["routes"], "routes", {})]
    assert labels[0].startswith("auto: the best routes found in time (not proven best)")


def test_route_choices_name_trains_as_players_call_them() -> None:
    """The route choices' labels name each train by the kind it runs as ("2+1-train (2-4)":
    1833NE's card 2-4 run as its 2+1 side; "4-train" for 1856's 4-1), their values keep the ids
    a command takes."""
    from engine.moves import MOVES, option_choices
    from engine.moves.routes_text import format_routes
    from tests.positions import at

    game = at("selfplay/1833ne", "1833ne_emergency_sale", 60)
    assert game.trains["2-4"].name == "2+1" and "run_routes" in game.action_types("BW")
    choices = option_choices(game, "BW", MOVES["routes"], "routes", {})
    auto, written = choices[0], choices[1]
    assert "2+1-train (2-4): " in auto.label and "2+1-train (2-4): " in written.label
    assert written.value.startswith("2-4: ") and "-train" not in written.value
    assert format_routes([{"train": "4-1", "connections": [["F15", "G14"]]}],
                         named=lambda tid: "4-train") == "4-train: F15-G14"


def _plain_hex_far_away(game: Any) -> str:
    return str(next(hid for hid, h in sorted(game.board.hexes.items())
                    if hid[0] in "ABC" and h.color == "white" and not h.laid and not h.tile.nodes))


def test_a_network_solved_before_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Late in a game a corporation often runs the same network while the map changes out of
    its reach: the answer found for that network is reused, for the trains it has now."""
    game = _position()
    calls = _counting(monkeypatch)
    first = suggest_routes(game, CORP)
    far = _plain_hex_far_away(game)
    game.board.lay(far, game.board.supply["9"][0], 0)  # out of CA's reach: the same network
    assert suggest_routes(game, CORP) == first and calls == [CORP]
    game.give_train(game.trains["2-1"], CORP)  # another train: another search
    assert len(suggest_routes(game, CORP)) == 2 and calls == [CORP, CORP]
    # the same kinds of train under other ids: the routes are the known ones, for these trains
    for train in game.corp_trains(CORP):
        game.remove_train(train)
    game.give_train(game.trains["2-2"], CORP)
    game.give_train(game.trains["2-3"], CORP)
    again = suggest_routes(game, CORP)
    assert calls == [CORP, CORP]
    assert sorted(r["train"] for r in again) == ["2-2", "2-3"]
    assert R.check_routes(game, CORP, again) is None


def test_a_network_is_searched_again_when_what_it_earns_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same track with other prices (a new phase's off-board values, a port or a right) is
    another question: the price key (``game.route_price_key``) is part of what is remembered."""
    game = _position()
    calls = _counting(monkeypatch)
    suggest_routes(game, CORP)
    game.board.lay(_plain_hex_far_away(game), game.board.supply["9"][0], 0)
    monkeypatch.setattr(game, "port_assignment", {CORP: "J15"})
    suggest_routes(game, CORP)
    assert calls == [CORP, CORP]


def test_a_reused_network_answers_as_a_fresh_search_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a recorded game: at every route choice the answer asked as the bot asks (a network
    solved at an earlier position reused) is the one a fresh search finds, routes and trains
    alike; and some positions were answered without a search."""
    from engine import actions as A
    from engine.replay import filter_actions, game_from_export
    from tests.fixture_util import load_export

    export = load_export("1856", "51745")
    game = game_from_export(export)
    fresh_search = R.best_routes
    calls = _counting(monkeypatch)
    positions = 0
    for raw in filter_actions(export["actions"]):
        if raw["type"] == "run_routes":
            sym = str(raw["entity"])
            asked = C.cached_best_routes(game, sym)
            fresh = fresh_search(game, sym)
            assert (asked.routes, asked.total) == (fresh.routes, fresh.total)
            positions += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert positions > len(calls) > 0
