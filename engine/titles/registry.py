"""Find a title's game class and data by name (as 18xx.games spells it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..errors import GameError
from ..game import Game


def _g1856(players: Iterable[tuple[str, str]], optional_rules: Iterable[str] = (),
           seed: int | None = None) -> Game:
    from . import g1856_data
    from .g1856 import G1856

    return G1856(g1856_data, players, optional_rules, seed)


def _g1836jr56(players: Iterable[tuple[str, str]], optional_rules: Iterable[str] = (),
               seed: int | None = None) -> Game:
    from . import g1836jr56_data
    from .g1856 import G1856

    return G1856(g1836jr56_data, players, optional_rules, seed)


def _g1833ne(players: Iterable[tuple[str, str]], optional_rules: Iterable[str] = (),
             seed: int | None = None) -> Game:
    from .g1833ne import G1833NE

    return G1833NE(players, optional_rules, seed)


TITLES: dict[str, Callable[..., Game]] = {
    "1856": _g1856,
    "1836Jr56": _g1836jr56,
    "1833NE": _g1833ne,
}

ALIASES = {"1856": "1856"}


def canonical_title(name: str) -> str:
    key = {k.lower(): k for k in TITLES}.get(name.lower())
    if key is None:
        raise GameError(f"Unknown title {name}; known: {', '.join(TITLES)}")
    return key


def new_game(title: str, players: Iterable[tuple[str, str]], optional_rules: Iterable[str] = (),
             seed: int | None = None) -> Game:
    """A fresh game of ``title`` for ``players`` given as (id, name) pairs in seat order."""
    return TITLES[canonical_title(title)](list(players), list(optional_rules), seed)


def title_names() -> list[str]:
    return list(TITLES)

