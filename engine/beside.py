"""Values kept beside an object (a game, a board) and not in it: never saved, copied or compared
with it, gone with it. Most questions in a row are about one object, which is looked up without
the weak dictionary (whose lookup makes a weak reference each time)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Beside(Generic[K, V]):
    """``of(owner)``: the value kept beside ``owner``, made by ``make()`` when first asked. The
    value asked for last stays held until another owner is asked for (one value at most)."""

    def __init__(self, make: Callable[[], V]):
        self._make = make
        self._kept: weakref.WeakKeyDictionary[K, V] = weakref.WeakKeyDictionary()
        self._last: tuple[weakref.ref[K], V] | None = None

    def of(self, owner: K) -> V:
        last = self._last  # (read once: worker threads ask about other owners at the same time)
        if last is not None and last[0]() is owner:
            return last[1]
        got = self._kept.get(owner)
        if got is None:
            got = self._kept[owner] = self._make()
        self._last = (weakref.ref(owner), got)
        return got

    def get(self, owner: K) -> V | None:
        """The value kept beside ``owner``, None when nothing is (nothing is made)."""
        last = self._last
        if last is not None and last[0]() is owner:
            return last[1]
        return self._kept.get(owner)
