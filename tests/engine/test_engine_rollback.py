"""Rollback of a rejected action (Game.process): the state afterwards equals the state before,
compared object by object, both when the state is saved before every action (the default) and
when it is saved only every few actions and the actions since are replayed (live bot games).

An action is made to fail after it has changed the game (its round advance raises once), so
the rollback has real damage to undo; real games of every title are played through.
"""

from __future__ import annotations

import copy
import functools
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine import actions as A
from engine.errors import EngineBug, GameError
from engine.game import Game
from engine.replay import filter_actions, game_from_export, snapshot
from tests.fixture_util import load_export

CHECKS = 6  # failed actions tried per game, spread over it


def canonical(game: Game) -> Any:
    """The game's state as plain nested data: equal exactly when the two states are equal
    (object attributes in any order; sets sorted; cycles and the game itself named)."""
    stack: set[int] = set()

    def walk(o: Any) -> Any:
        if o is None or isinstance(o, bool | int | float | str | bytes):
            return o
        if o is game:
            return "<the game>"
        if isinstance(o, types.ModuleType):
            return ("module", o.__name__)
        if isinstance(o, types.FunctionType | type):
            return ("function", o.__qualname__)
        if id(o) in stack:
            return ("cycle", type(o).__name__)
        stack.add(id(o))
        try:
            if isinstance(o, list | tuple):
                return (type(o).__name__, [walk(x) for x in o])
            if isinstance(o, dict):
                return ("dict", [(walk(k), walk(v)) for k, v in o.items()])
            if isinstance(o, set | frozenset):
                return ("set", sorted(repr(walk(x)) for x in o))
            if isinstance(o, types.MethodType):
                return ("method", o.__func__.__qualname__, walk(o.__self__))
            if hasattr(o, "getstate") and hasattr(o, "setstate"):  # random.Random
                return ("rng", repr(o.getstate()))
            fields = getattr(o, "__dict__", None)
            if fields is None:
                return ("value", repr(o))
            return (type(o).__qualname__, sorted((k, walk(v)) for k, v in fields.items()
                                                 if k != "_checkpoint" and not _derived(o, k)))
        finally:
            stack.discard(id(o))

    return sorted((k, walk(v)) for k, v in game.__dict__.items() if k != "_checkpoint")


def _derived(o: Any, name: str) -> bool:
    """A value an immutable object (a tile) worked out from its fields when first asked: not
    state (a tile is shared by the saves and copies of a game, whoever asked first)."""
    return isinstance(getattr(type(o), name, None), functools.cached_property)


@contextmanager
def failing_once(game: Game) -> Iterator[None]:
    """The next round advance does its work, then raises (an engine bug halfway through)."""
    cls = type(game)
    original = cls.advance_rounds

    def advance_then_fail(self: Game) -> None:
        cls.advance_rounds = original  # type: ignore[method-assign]
        original(self)
        raise RuntimeError("injected failure after the round moved on")

    cls.advance_rounds = advance_then_fail  # type: ignore[method-assign]
    try:
        yield
    finally:
        cls.advance_rounds = original  # type: ignore[method-assign]


@functools.cache
def _1833ne_export() -> dict[str, Any]:
    from engine.export import export_game
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Game] = []
    assert play_one(3, 7, ["takeover_game"], 6000, game_out=out).problem is None
    return export_game(out[0])


GAMES = {
    "1856": lambda: load_export("1856", "hotseat006"),
    "1856 short": lambda: load_export("1856", "89363"),
    "1836Jr56 (programmed moves)": lambda: load_export("1836jr56", "1836jr56_game_end_bank"),
    "1833NE takeover": _1833ne_export,
}


@pytest.mark.parametrize(("name", "every"), [("1856", 5), ("1856 short", 1), ("1836Jr56 (programmed moves)", 5),
                                             ("1833NE takeover", 5)])
def test_a_rejected_action_leaves_the_state_exactly_as_it_was(name: str, every: int) -> None:
    """``every`` 1: the state saved before each action; 5: saved every 5, the rest replayed."""
    export = GAMES[name]()
    game = game_from_export(export)
    game.live = False  # programmed moves as recorded, as when the bot rebuilds a game
    game.checkpoint_every = every
    acts = [a for a in filter_actions(export["actions"]) if a.get("type") != "message"]
    step = max(1, len(acts) // CHECKS)
    tried = 0
    for i, raw in enumerate(acts):
        action = A.Action.from_dict(raw)
        if i % step == step // 2:
            before = canonical(copy.deepcopy(game))
            with failing_once(game), pytest.raises(EngineBug, match="injected failure"):
                game.process(action)
            assert canonical(game) == before, f"{name}: state changed by rejected action {i} ({raw['type']})"
            wrong = next(p.id for p in game.players if p.id not in game.acting())
            with pytest.raises(GameError):
                game.process(A.Bid(entity=wrong, company="NOPE", price=1))
            assert canonical(game) == before
            tried += 1
        game.process(action)
    assert tried >= CHECKS - 1
    expected = game_from_export(export)
    expected.live = False
    for raw in acts:
        expected.process(A.Action.from_dict(raw), safe=False)
    assert snapshot(game, {}) == snapshot(expected, {}) and game.log == expected.log


def test_rejected_actions_cost_no_copy_of_the_game_between_checkpoints() -> None:
    """With ``checkpoint_every`` N the state is saved once every N actions, not before each."""
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    game.checkpoint_every = 32
    saves = 0
    original = Game._snapshot

    def counting(self: Game) -> bytes:
        nonlocal saves
        saves += 1
        return original(self)

    Game._snapshot = counting  # type: ignore[method-assign]
    try:
        for raw in filter_actions(export["actions"])[:320]:
            game.process(A.Action.from_dict(raw))
    finally:
        Game._snapshot = original  # type: ignore[method-assign]
    assert saves == 10


def test_accepts_tries_an_action_and_leaves_the_game_as_it_was() -> None:
    """Game.accepts: True for the recorded next action, False for a refused one; either way
    the state, the log and the save are what they were, and the action can then be processed."""
    export = load_export("1856", "89363")
    game = game_from_export(export)
    game.live = False
    acts = [a for a in filter_actions(export["actions"]) if a.get("type") != "message"]
    for raw in acts[:40]:
        action = A.Action.from_dict(raw)
        before, log, saved = canonical(copy.deepcopy(game)), list(game.action_log), game.__dict__.get("_checkpoint")
        assert game.accepts(action)
        wrong = next(p.id for p in game.players if p.id not in game.acting())
        assert not game.accepts(A.Bid(entity=wrong, company="NOPE", price=1))
        assert canonical(game) == before and game.action_log == log
        assert game.__dict__.get("_checkpoint") is saved
        game.process(action)


def test_route_scoring_hooks_say_which_titles_change_them() -> None:
    """A title that overrides route_revenue_for_train / extension_gains says so; the others get
    the neutral defaults (a route earns what it earns, no extensions)."""
    from engine.titles.registry import new_game

    plain = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    ne = new_game("1833NE", [("1", "A"), ("2", "B"), ("3", "C")])
    assert not plain.scores_routes_per_train and not plain.extends_routes
    assert ne.scores_routes_per_train and ne.extends_routes
    corp = next(iter(plain.corporations.values()))
    train = next(iter(plain.trains.values()))
    assert plain.extension_gains(corp, []) == {}
    assert plain.route_revenue_for_train(corp, [], train) == plain.route_revenue(corp, [])
    assert plain.issue_choices(corp) is None and plain.side_floor(corp, train) == 0
    assert plain.par_prices(corp) == plain.market.par_prices and not plain.provisional_open()


def test_an_unexpected_exception_is_an_engine_bug_and_the_state_is_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule refusal is a GameError with a code; anything else raised inside the engine is an
    EngineBug (not a refusal), and the game is exactly as before either way."""
    from engine.errors import NOT_YOUR_TURN, EngineBug

    export = load_export("1856", "hotseat001")
    actions = filter_actions(export["actions"])
    game = game_from_export(export)
    for raw in actions[:6]:
        game.process(A.Action.from_dict(raw))
    before = canonical(game)
    wrong = A.Action.from_dict({**actions[6], "entity": actions[7]["entity"]})
    if wrong.entity != A.Action.from_dict(actions[6]).entity:
        with pytest.raises(GameError) as refused:
            game.process(wrong)
        assert refused.value.code == NOT_YOUR_TURN and refused.value.facts["entity"] == wrong.entity
        assert canonical(game) == before
    kind = type(game.round)
    original = kind.process

    def broken(self: Any, action: A.Action) -> None:
        original(self, action)
        raise KeyError("a bug after the action changed the game")

    monkeypatch.setattr(kind, "process", broken)
    with pytest.raises(EngineBug) as bug:
        game.process(A.Action.from_dict(actions[6]))
    assert not isinstance(bug.value, GameError) and isinstance(bug.value.__cause__, KeyError)
    assert canonical(game) == before


def test_a_restore_puts_back_the_very_tiles_and_trials_keep_no_more_of_them() -> None:
    """Tiles are saved by reference (engine.mechanics.processing): a trial of a lay and a refused
    action give every hex back the very tile object it had, the state equal to the one before,
    and trials at one position after another add nothing to the tiles kept for the saves; a
    copied game shares its tiles."""
    from engine.mechanics import processing
    from engine.replay import replay

    export = load_export("1856", "hotseat006")
    acts = [a for a in filter_actions(export["actions"]) if a.get("type") != "end_game"]
    at = next(i for i, a in enumerate(acts) if i > 300 and a["type"] == "lay_tile")
    game = replay({**export, "actions": acts[:at]}).game
    lay = A.Action.from_dict(acts[at])
    assert isinstance(lay, A.LayTile)
    tiles = {hid: (h.tile, h.printed) for hid, h in game.board.hexes.items()}
    before = canonical(game)
    assert game.accepts(lay)
    with pytest.raises(GameError):
        game.process(A.LayTile(entity=lay.entity, entity_type=lay.entity_type, hex=lay.hex, tile="no-such-tile",
                               rotation=0))
    assert {hid: (h.tile, h.printed) for hid, h in game.board.hexes.items()} == tiles
    assert all(h.tile is tiles[hid][0] and h.printed is tiles[hid][1] for hid, h in game.board.hexes.items())
    assert canonical(game) == before
    game.process(lay)
    assert game.board.hexes[lay.hex].tile is not tiles[lay.hex][0]
    kept = len(processing._SAVED_TILES)
    for raw in acts[at + 1:at + 40]:
        game.accepts(A.Action.from_dict(raw))
        game.process(A.Action.from_dict(raw))
    assert len(processing._SAVED_TILES) <= kept + 40  # at most the tiles laid meanwhile
    copied = copy.deepcopy(game)
    assert all(copied.board.hexes[hid].tile is h.tile for hid, h in game.board.hexes.items())
