"""A choice offered for an action parameter, and the shape of the functions that list them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


# (game, entity, the parameters chosen so far) -> the legal values of the next one
ChoiceHandler = Callable[["Game", str, dict[str, str]], list[Choice]]
# a title's own handler also gets the general one, to fall back on or refine
TitleChoiceHandler = Callable[["Game", str, dict[str, str], ChoiceHandler], list[Choice]]
