"""A choice offered for an action parameter, the shape of the functions that list them, and the
per-position memo that lets every asker share one computation of them."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .beside import Beside

if TYPE_CHECKING:
    from .game import Game

T = TypeVar("T")


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


# (game, entity, the parameters chosen so far) -> the legal values of the next one
ChoiceHandler = Callable[["Game", str, dict[str, str]], list[Choice]]
# a title's own handler also gets the general one, to fall back on or refine
TitleChoiceHandler = Callable[["Game", str, dict[str, str], ChoiceHandler], list[Choice]]

# game -> {position stamp: {key: value}}; kept beside the game, never saved with it
_MEMO: Beside[Game, dict[int, dict[Hashable, Any]]] = Beside(dict)
_POSITIONS_KEPT = 8  # a trial (Game.preview) visits positions of its own and comes back


def per_position(game: Game, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()`` once per position of a game that only ``process`` changes
    (``Game.process_only``: the bot's live games), shared by everyone who asks at that position
    (buttons, autocomplete, ``/moves``, the skipped steps, error messages); computed each time
    for any other game. A position is ``Game.position_stamp``: new after every processed action,
    restored with the state when an action is refused, tried or undone, so nothing computed
    before a move is offered after it. The value is shared: callers must not change it."""
    if not game.process_only:
        return compute()
    memo = _MEMO.of(game)
    here = memo.get(game.position_stamp)
    if here is None:
        if len(memo) >= _POSITIONS_KEPT:
            memo.clear()
        here = memo[game.position_stamp] = {}
    if key not in here:
        here[key] = compute()
    return here[key]  # type: ignore[no-any-return]
