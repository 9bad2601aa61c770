"""The titles this engine plays, by name (as 18xx.games spells it), with each title's extras.

Code outside a title's package asks the registry, never the title's name: how to make a game,
its data and optional rules, its self-play moves and summary, its provisional values."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import UNKNOWN, GameError
from ..game import Game
from ..rules import Rules

if TYPE_CHECKING:
    from ..selfplay import GameReport

Players = Iterable[tuple[str, str]]


@dataclass(frozen=True)
class TitleInfo:
    """One title: where its data and class live, and the optional modules it brings.

    ``selfplay``: a module with ``play_one(players, seed, options, max_actions, game_out=)`` and
    ``summary_facts(options, reports)`` when the title adds its own moves to the random player.
    ``provisional``: a module of per-game values the host sets (``parse_settings``,
    ``merge_entries``, ``is_entry`` ...), for a title whose rules leave values open."""

    name: str
    data_module: str
    game_class: str  # "module:Class"
    selfplay_module: str | None = None
    provisional_module: str | None = None
    blurb: str = ""

    @property
    def data(self) -> ModuleType:
        return importlib.import_module(self.data_module)

    def make(self, players: Players, optional_rules: Iterable[str] = (), seed: int | None = None) -> Game:
        module, cls = self.game_class.split(":")
        game_class: Any = getattr(importlib.import_module(module), cls)
        game: Game = game_class(self.data, list(players), list(optional_rules), seed)
        return game

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and most players the title takes."""
        return int(self.data.MIN_PLAYERS), int(self.data.MAX_PLAYERS)

    @property
    def optional_rules(self) -> list[dict[str, Any]]:
        return [dict(rule) for rule in Rules.from_data(self.data).optional_rules]

    @property
    def selfplay(self) -> ModuleType | None:
        return importlib.import_module(self.selfplay_module) if self.selfplay_module else None

    @property
    def provisional(self) -> ModuleType | None:
        return importlib.import_module(self.provisional_module) if self.provisional_module else None

    def summary_facts(self, options: list[str], reports: list[GameReport]) -> list[str] | None:
        module = self.selfplay
        if module is None:
            return None
        facts: list[str] = module.summary_facts(options, reports)
        return facts


_PKG = "engine.titles"

TITLES: dict[str, TitleInfo] = {
    "1856": TitleInfo("1856", f"{_PKG}.g1856.data", f"{_PKG}.g1856.game:G1856",
                      blurb="1856: Railroading in Upper Canada"),
    "1836Jr56": TitleInfo("1836Jr56", f"{_PKG}.g1836jr56.data", f"{_PKG}.g1856.game:G1856",
                          blurb="1856's rules on the 1836Jr map (Belgium)"),
    "1833NE": TitleInfo("1833NE", f"{_PKG}.g1833ne.data", f"{_PKG}.g1833ne.game:G1833NE",
                        selfplay_module=f"{_PKG}.g1833ne.selfplay",
                        provisional_module=f"{_PKG}.g1833ne.provisional",
                        blurb="1833NE: New England, 1846-style finance"),
}


def canonical_title(name: str) -> str:
    key = {k.lower(): k for k in TITLES}.get(name.lower())
    if key is None:
        raise GameError(f"Unknown title {name}; known: {', '.join(TITLES)}", UNKNOWN)
    return key


def title_info(name: str) -> TitleInfo:
    """The registry's entry for ``name`` (any case); GameError for an unknown title."""
    return TITLES[canonical_title(name)]


def new_game(title: str, players: Players, optional_rules: Iterable[str] = (),
             seed: int | None = None) -> Game:
    """A fresh game of ``title`` for ``players`` given as (id, name) pairs in seat order."""
    return title_info(title).make(players, optional_rules, seed)


def title_names() -> list[str]:
    return list(TITLES)
