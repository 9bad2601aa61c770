"""Choices for command options: what Discord's autocomplete offers and what ``/moves`` lists.

Game-action options come from the move table (:func:`engine.moves.option_choices`), the one
source of legality; the entity to act for is chosen here from who may act now. A title's
options and command names are the choices of the ``/game`` and ``/help`` options.
"""

from __future__ import annotations

from engine.choice import Choice
from engine.decisions import action_types
from engine.errors import GameError
from engine.game import Game
from engine.moves import Move, option_choices
from engine.titles.registry import title_info

from .acting import candidates, kind_ok
from .play import example_for as example_for  # (re-exported: callers find it here)
from .texts.turns import activity

MAX_CHOICES = 25


def action_choices(game: Game, entity: str, move: Move, param: str, params: dict[str, str]) -> list[Choice]:
    """Legal values of option ``param`` of ``move`` for ``entity`` now, given the options typed so far."""
    return option_choices(game, entity, move, param, params)


def entity_choices(game: Game, move: Move, pids: set[str]) -> list[Choice]:
    """The entities the caller (holding seats ``pids``) may use ``move`` for now."""
    out = []
    for e in candidates(game):
        if (
            game.controller_of(e) in pids
            and move.action_type in action_types(game, e)
            and kind_ok(game, move, e)
        ):
            out.append(Choice(e, f"{game.name_of(e)}: {activity(game, e)}"))
    return out


# ---------------------------------------------------------------------- /game and /help options
def title_options(title: str) -> list[Choice]:
    """A title's optional rules (``/game new options:``)."""
    try:
        rules = title_info(title).optional_rules
    except GameError:
        return []
    return [Choice(r["sym"], f"{r['sym']}: {r.get('short_name', '')}".strip(": ")) for r in rules]


def filter_choices(choices: list[Choice], typed: str) -> list[tuple[str, str]]:
    """(value, label) pairs matching what the user typed so far, at most 25."""
    typed = typed.lower()
    out = [
        (c.value, c.label)
        for c in choices
        if not typed or typed in c.value.lower() or typed in c.label.lower()
    ]
    return out[:MAX_CHOICES]


