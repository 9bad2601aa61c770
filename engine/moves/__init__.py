"""One definition per action type: the moves players make, as commands.

Each :class:`Move` (one per command; a corporation's ``/issue`` and a player's ``/sell`` both
make ``sell_shares``) holds the command's options, the legal choices of each option now, how its
action is built from the options typed and read back as a command, its help and example, and
how the random player picks one. The front ends derive everything from this table: Discord's
slash commands and autocomplete, the terminal's parser, ``/moves``, ``/help``; self-play and
the computer player draw their actions from it.

A title may refine the choices of an action type (``Game.choice_overrides``: 1833NE's homes
and takeovers); the refinement gets the general chooser to fall back on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from .. import actions as A
from ..choice import Choice, per_position
from ..decisions import acting_entities, action_types, deciders
from ..errors import GameError
from ..game import Game
from . import operating, stock, track
from .spec import Move, Option, Params, base, entity_type

__all__ = ["MOVES", "Move", "Option", "choices_for", "command_for", "command_options", "move_for",
           "forced_discard", "moves_of_type", "only_pass", "option_choices", "real_moves", "sample_action"]

MOVES: dict[str, Move] = {m.command: m for m in (*stock.MOVES, *track.MOVES, *operating.MOVES)}

_BY_TYPE: dict[str, list[Move]] = {}
for _m in MOVES.values():
    _BY_TYPE.setdefault(_m.action_type, []).append(_m)


def moves_of_type(action_type: str) -> list[Move]:
    return list(_BY_TYPE.get(action_type, []))


def move_for(action_type: str, kind: str) -> Move | None:
    """The move an entity of ``kind`` (player, corporation, company) makes ``action_type`` with."""
    return next((m for m in _BY_TYPE.get(action_type, []) if m.fits(kind)), None)


def command_for(game: Game, entity: str, action_type: str) -> str:
    """The command ``entity`` types for ``action_type`` ("/issue" for a corporation's sale)."""
    move = move_for(action_type, entity_type(game, entity))
    return move.command if move else action_type


def option_choices(game: Game, entity: str, move: Move, name: str, given: Params) -> list[Choice]:
    """Legal values of option ``name`` of ``move`` for ``entity`` now, given the options typed
    before it (later ones are ignored); computed once per position (:func:`per_position`)."""
    option = move.option(name)
    if option is None or option.choices is None:
        return []
    before: Params = {}
    for o in move.options:
        if o.name == name:
            break
        if o.choices is not None and given.get(o.name):
            before[o.name] = given[o.name]
    if move.action_type in UNSHARED:
        return _option_choices(game, entity, move, name, before)
    key = ("choices", entity, move.command, name, tuple(sorted(before.items())))
    return list(per_position(game, key, lambda: _option_choices(game, entity, move, name, before)))


# the routes' choices come from the router's own answers for the position, which get better
# with the time given (engine.routing.cache.cached_best_routes): asked afresh each time
UNSHARED = ("run_routes",)


def _option_choices(game: Game, entity: str, move: Move, name: str, before: Params) -> list[Choice]:
    option = move.option(name)
    assert option is not None and option.choices is not None
    if not move.any_time and move.action_type not in action_types(game, entity):
        return []
    chooser = option.choices
    title = game.choice_overrides.get(move.action_type)
    if title is not None:
        return title(game, entity, before, chooser)
    return chooser(game, entity, before)


def choices_for(game: Game, entity: str, action_type: str, given: Params | None = None) -> list[Choice]:
    """Legal values for the next option of ``action_type`` not in ``given`` that has choices."""
    given = given or {}
    move = move_for(action_type, entity_type(game, entity))
    if move is None:
        return []
    for o in move.options:
        if o.choices is not None and o.name not in given:
            return option_choices(game, entity, move, o.name, given)
    return []


def command_options(action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The command and options a player types for an exported action (None for a chat message
    and the game's own records)."""
    kind = action.get("entity_type") or "player"
    move = move_for(str(action.get("type")), kind)
    if move is None:
        return None
    options = move.to_options(action)
    if kind == "company":  # a private's ability: its owner acts for it
        options["entity"] = action["entity"]
    return move.command, options


NOT_A_CHOICE = ("pass", "bankrupt")  # passing itself; giving up is never the alternative to a pass


def real_moves(game: Game, entity: str) -> Iterator[str]:
    """The action types that give ``entity``, or whoever may act with it (its president, its
    privates), a real choice now, found one by one: a move none of whose options has a legal
    value (a train it cannot pay for, no tile it can lay, no private it can afford) is none,
    nor are passing, bankruptcy and the standing orders; a move without options is one when the
    step offers it (a loan: its button is offered as it is, and the steps offer one only when
    it can be made)."""
    seen: set[str] = set()
    for who in deciders(game, entity):
        kind = entity_type(game, who)
        for t in action_types(game, who):
            if t in NOT_A_CHOICE or t in seen:
                continue
            move = move_for(t, kind)
            if move is not None and move.any_time:
                continue
            if move is None or _can_make(game, who, move):  # unknown to the move table: a decision
                seen.add(t)
                yield t


def _can_make(game: Game, entity: str, move: Move) -> bool:
    required = [o for o in move.options if o.required and o.choices is not None]
    if required:
        return bool(option_choices(game, entity, move, required[0].name, {}))
    return True  # free options only (routes, a merge) or none (a loan): a decision, not a step to skip


def only_pass(game: Game) -> str | None:
    """The entity the game waits for when passing is all it can do now (its step is one where
    nothing can be done: :func:`real_moves` is empty), else None."""
    return per_position(game, ("only_pass",), lambda: _only_pass(game))


def _only_pass(game: Game) -> str | None:
    acting = acting_entities(game)
    if game.finished or len(acting) != 1:
        return None
    entity = acting[0]
    if "pass" not in action_types(game, entity) or next(real_moves(game, entity), None) is not None:
        return None
    return entity


def forced_discard(game: Game) -> A.DiscardTrain | None:
    """The discard the game waits for when it leaves no choice: the one entity acting can only
    discard a train (no pass, no other move), and the trains it may discard are all alike
    (``Game.train_kind``: 1856's national after its formation with four 4-trains to scrap):
    which one goes changes nothing. None otherwise."""
    return per_position(game, ("forced_discard",), lambda: _forced_discard(game))


def _forced_discard(game: Game) -> A.DiscardTrain | None:
    acting = acting_entities(game)
    if game.finished or len(acting) != 1:
        return None
    entity = acting[0]
    types = action_types(game, entity)
    # (the cheap test first: the full one works out every move's choices)
    if "discard_train" not in types or "pass" in types or set(real_moves(game, entity)) != {"discard_train"}:
        return None
    move = move_for("discard_train", entity_type(game, entity))
    if move is None:
        return None
    trains = [game.trains[c.value] for c in option_choices(game, entity, move, "train", {})]
    if not trains or len({game.train_kind(t) for t in trains}) != 1:
        return None
    return A.DiscardTrain(**base(game, entity), train=trains[0].id)


def sample_action(game: Game, rng: random.Random, entity: str, action_type: str) -> A.Action | None:
    """A random legal-looking action of ``action_type`` for ``entity`` (self-play): the move's own
    sampler, else a random choice for each required option that has choices."""
    move = move_for(action_type, entity_type(game, entity))
    if move is None:
        return None
    if move.sample is not None:
        return move.sample(game, rng, entity)
    given: Params = {}
    for o in move.options:
        if o.choices is None or not o.required:
            continue
        offered = option_choices(game, entity, move, o.name, given)
        if not offered:
            return None
        given[o.name] = rng.choice(offered).value
    try:
        return move.build(game, entity, given)
    except GameError:
        return None
