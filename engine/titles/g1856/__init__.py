"""1856 (18xx.games g_1856): data, game class, its steps, loans and the nationalization."""

from .game import G1856

__all__ = ["G1856"]
