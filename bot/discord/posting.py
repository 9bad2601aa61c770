"""Which pictures a turn change posts: the map only when the board changed and the market only
when share prices moved since they were last posted in the game's channel (one post per turn;
``/game status`` shows everything on request).

When the map is posted again, the part of it that changed (the hexes whose tile, tokens or markers
differ from the map posted before) is posted first, larger (``changes.png``, drawn by
:func:`render.map.crop.render_crop`): on a phone the whole map's names are too small to read; the
whole map stays one tap away.

A corporation about to run gets its network with the suggested routes, cropped the same way, in
Discord and at the terminal (``routes.png``, :func:`routes_picture`): on the whole
map a phone showed the routes as thin lines in a corner, and beside the crop the whole map
halved the crop on a phone (two pictures share a row) while adding only the board of the map
posted just before. The crop takes in the hexes that changed since that map too (the tile and
token of the turn), so it stands for the map of the turn; when it cannot (the map was never
posted, too much changed) the whole map is posted at the turn change as usual.

What was posted is remembered per game in memory. After a restart the game's log is replayed
once anyway; the pictures of the position at its last turn change are taken as the ones posted
(:class:`TurnPrints`), so the first turn change posts only what changed, as any other (it posted
both pictures again: a /merge or /game undo after a restart re-posted an unchanged map and market).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from engine.decisions import acting_entities
from engine.game import Game

from ..reply import Attachment

log = logging.getLogger(__name__)

ROUTES_PICTURE = "routes.png"  # a corporation's network and suggested routes, larger than on the map
CHANGES_PICTURE = "changes.png"  # the part of the map that changed, larger
MAX_CHANGED = 12  # more hexes changed than this (a new game, a restart): the whole map says it all


def board_print(game: Game) -> tuple[Any, ...]:
    """Everything the map shows that can change: tiles, tokens, markers and assignments."""
    out = []
    leaving = game.stations_leaving()  # drawn as they stood: a merge changes nothing on the map
    for hid, h in game.board.hexes.items():
        shown = {ci: [leaving.get((hid, ci, i)) or s for i, s in enumerate(slots)] for ci, slots in h.tokens.items()}
        tokens = tuple(sorted((ci, tuple(s or "" for s in slots)) for ci, slots in shown.items() if any(slots)))
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


class TurnPrints:
    """Watches a replay (:func:`bot.gamelog.build_game`): the fingerprints of the position at the
    last turn change, when pictures are posted."""

    def __init__(self) -> None:
        self._turn: tuple[Any, ...] | None = None
        self.prints: dict[str, Any] = {}

    def __call__(self, game: Game) -> None:
        turn = (game.round_key(), tuple(acting_entities(game))) if game.round is not None else ()
        if turn != self._turn:
            self._turn = turn
            self.prints = {name: fingerprint(game) for name, fingerprint in PRINTS.items()}


class PostedPictures:
    """The fingerprints of the pictures last posted, per game."""

    def __init__(self) -> None:
        self._last: dict[int, dict[str, Any]] = {}
        self._changed: dict[int, list[str]] = {}  # the hexes that changed when the map was last posted
        self.crops = False  # post larger parts of the map too (Discord, read on phones: set by its cog)

    def changed(self, game_id: int, game: Game) -> tuple[str, ...]:
        """The pictures to post now (and remember as posted). A routes picture that showed every
        change was remembered as the map (:meth:`routes_area`)."""
        last = self._last.setdefault(game_id, {})
        out = []
        for name, fingerprint in PRINTS.items():
            now = fingerprint(game)
            if last.get(name) == now:
                continue
            if name == "map":
                self._changed[game_id] = changed_hexes(last.get(name), now)
            last[name] = now
            out.append(name)
        return tuple(out)

    def knows(self, game_id: int) -> bool:
        """Whether anything is remembered of the game (not after a restart)."""
        last = self._last.get(game_id, {})
        return any(name in last for name in PRINTS)

    def recall(self, game_id: int, prints: dict[str, Any]) -> None:
        """After a restart: the pictures last posted are taken to be ``prints`` (:class:`TurnPrints`)."""
        if not self.knows(game_id):
            self._last.setdefault(game_id, {}).update(prints)

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

    def changes_picture(self, game_id: int, game: Game) -> list[Attachment]:
        """The part of the map that changed since the map posted before (once; none when nothing,
        or too much, changed). CPU-bound: call through ``asyncio.to_thread``."""
        hexes = self._changed.pop(game_id, [])
        if not self.crops or not hexes or len(hexes) > MAX_CHANGED:
            return []
        return _crop(CHANGES_PICTURE, game, hexes, where="changed: " + ", ".join(hexes[:4]))

    def routes_area(self, game_id: int | None, game: Game, corporation: str,
                    routes: list[dict[str, Any]]) -> tuple[list[str], bool]:
        """The hexes of the routes picture: the corporation's stations and routes, and the hexes
        changed since the map was last posted; and whether that shows every change (then the
        picture stands for the map: :meth:`mark` it once posted)."""
        from render.map.crop import network_hexes

        hexes = network_hexes(game, corporation, routes)
        before = self._last.get(game_id, {}).get("map") if game_id is not None else None
        if before is None:
            return hexes, False
        changed = changed_hexes(before, board_print(game))
        if len(changed) > MAX_CHANGED:
            return hexes, False
        return list(dict.fromkeys(hexes + changed)), True


def changed_hexes(before: Any, now: Any) -> list[str]:
    """The hexes whose entry differs between two :func:`board_print` results ([] without a before)."""
    if before is None:
        return []
    old = {entry[0]: entry for entry in before[1]}
    new = {entry[0]: entry for entry in now[1]}
    return sorted(h for h in old.keys() | new.keys() if old.get(h) != new.get(h))


def routes_picture(game: Game, corporation: str, hexes: list[str], routes: list[dict[str, Any]],
                   proven: bool = True) -> list[Attachment]:
    """The part of the map around ``hexes`` (:meth:`PostedPictures.routes_area`) with the
    corporation's suggested routes and their legend (CPU-bound: call through ``asyncio.to_thread``);
    not ``proven`` best (the search ran out of time), its title says they are the best found."""
    where = f"{game.name_of(corporation)}'s routes" + ("" if proven else ": best found, not proven best")
    return _crop(ROUTES_PICTURE, game, hexes, routes=routes, where=where)


def _crop(filename: str, game: Game, hexes: list[str], **kwargs: Any) -> list[Attachment]:
    """A crop of the map as an attachment; none when drawing fails (a picture must not block play)."""
    from render.map.crop import render_crop

    try:
        return [Attachment(filename, render_crop(game, hexes, **kwargs))]
    except Exception:
        log.exception("drawing %s failed", filename)
        return []
