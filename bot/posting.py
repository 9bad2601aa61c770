"""Which pictures a turn change posts: the map only when the board changed and the market only
when share prices moved since they were last posted in the game's channel (one post per turn;
``/game status`` shows everything on request).

What was posted is remembered per game in memory; after a restart the first turn change posts
both pictures again, which is harmless.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.game import Game

from .reply import Attachment

ROUTES_PICTURE = "routes.png"  # the map with the suggested routes: it shows the board too


def board_print(game: Game) -> tuple[Any, ...]:
    """Everything the map shows that can change: tiles, tokens, markers and assignments."""
    out = []
    for hid, h in game.board.hexes.items():
        tokens = tuple(sorted((ci, tuple(s or "" for s in slots)) for ci, slots in h.tokens.items() if any(slots)))
        markers = tuple(h.markers)
        assigned = tuple(sorted(h.assignments))
        if h.tile_id or tokens or markers or assigned:
            out.append((hid, h.tile_id, h.tile.rotation, tokens, markers, assigned))
    return (game.phase.get("name"), tuple(out))


def market_print(game: Game) -> tuple[Any, ...]:
    """Where every corporation's marker stands on the share market."""
    out = []
    for sym, corp in game.corporations.items():
        cell = corp.price
        if cell is not None:
            out.append((sym, cell.price, cell.row, cell.col))
    return tuple(out)


PRINTS = {"map": board_print, "market": market_print}


class PostedPictures:
    """The fingerprints of the pictures last posted, per game."""

    def __init__(self) -> None:
        self._last: dict[int, dict[str, Any]] = {}

    def changed(self, game_id: int, game: Game, already: Iterable[Attachment] = ()) -> tuple[str, ...]:
        """The pictures to post now (and remember as posted). A routes picture already in the
        reply counts as the map."""
        last = self._last.setdefault(game_id, {})
        names = {f.filename for f in already}
        out = []
        for name, fingerprint in PRINTS.items():
            now = fingerprint(game)
            if last.get(name) == now:
                continue
            last[name] = now
            if not (name == "map" and ROUTES_PICTURE in names):
                out.append(name)
        return tuple(out)

    def first_time(self, game_id: int, kind: str, key: Any) -> bool:
        """True once per ``key`` in a row (the same suggested routes are drawn once)."""
        last = self._last.setdefault(game_id, {})
        if last.get(kind) == key:
            return False
        last[kind] = key
        return True

    def mark(self, game_id: int, game: Game, names: Iterable[str]) -> None:
        """Remember pictures posted on request (``/game status``)."""
        last = self._last.setdefault(game_id, {})
        for name in names:
            if name in PRINTS:
                last[name] = PRINTS[name](game)
