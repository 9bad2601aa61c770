"""Pictures kept per position: a game's map, market and status picture at one state id are drawn
once and reused (``/game status`` asked many times, by anyone, costs one drawing). A state id is
the log length, so a new action, an undo or a repair (a new game id) is a new position; the
oldest positions are forgotten first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from engine.game import Game

from .reply import Attachment

if TYPE_CHECKING:
    from .service import GameService

MAX_POSITIONS = 48  # (game, state id) pairs kept, each three pictures of about 180 kB in all


class PictureCache:
    """The pictures of the most recent positions, keyed by (game id, state id, picture name)."""

    def __init__(self, size: int = MAX_POSITIONS):
        self.size = size
        self._kept: OrderedDict[tuple[int, int], dict[str, Attachment]] = OrderedDict()

    async def pictures(
        self, service: GameService, game_id: int, seq: int, game: Game, which: tuple[str, ...]
    ) -> list[Attachment]:
        """The named pictures of ``game`` at state ``seq``, drawn only when not kept yet. (Commands
        on one game run one at a time, so two askers of one position do not draw it twice.)"""
        kept = self._kept.setdefault((game_id, seq), {})
        self._kept.move_to_end((game_id, seq))
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        missing = tuple(name for name in which if name not in kept)
        if missing:
            drawn = await service.render(game, missing)
            if len(drawn) != len(missing):  # a failed drawing is not kept: tried again next time
                return drawn
            kept.update(zip(missing, drawn, strict=True))
        return [kept[name] for name in which]


_CACHES: WeakKeyDictionary[GameService, PictureCache] = WeakKeyDictionary()


def cache_of(service: GameService) -> PictureCache:
    """The picture cache of ``service`` (one per bot)."""
    cache = _CACHES.get(service)
    if cache is None:
        cache = _CACHES[service] = PictureCache()
    return cache
