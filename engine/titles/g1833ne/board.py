"""The 1833NE board: P4/P6 count as stations of their owner."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...map.board import Board

if TYPE_CHECKING:
    from .game import G1833NE


class NEBoard(Board):
    """The 1833NE board: P4/P6 let their owner build and run from an off-board "as if it had
    a marker there", so those off-boards start the owner's track network too."""

    def connectivity(self, sym: str) -> tuple[dict[str, set[int]], set[tuple[str, int]]]:
        extra = cast("G1833NE", self.game).virtual_stations(sym)  # only G1833NE builds this board
        if not extra:
            return super().connectivity(sym)
        key = ("conn", sym)
        if key in self._cache:
            cached: tuple[dict[str, set[int]], set[tuple[str, int]]] = self._cache[key]
            return cached
        starts = [(h.id, ci) for h in self.hexes.values() for ci, slots in h.tokens.items() if sym in slots]
        starts += extra
        hex_edges: dict[str, set[int]] = {}
        for hid, _ in starts:
            hex_edges.setdefault(hid, set()).update(self.hexes[hid].neighbors.keys())
        nodes = self._walk(starts, sym, hex_edges)
        self._cache[key] = (hex_edges, nodes)
        return hex_edges, nodes
