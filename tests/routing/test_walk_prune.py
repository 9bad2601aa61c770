"""The network walk's pruning (engine.map.board.route_legal_walk, ``prune``) changes no result:
on dense real games, every walk made while replaying them finds the same nodes, touches the
same (hex, edge) pairs in the same order, enters hexes at the same edges and looks at the same
hexes with and without it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from engine.map import board as board_mod
from engine.replay import replay

FIXTURES = Path(__file__).parent.parent / "fixtures" / "generated"
GAMES = ["1836jr56/1836jr56_p3_s205_diesel_variant", "1836jr56/1836jr56_p2_s905",
         "1856/1856_p3_s801_unlimited_bonus_tokens"]


@pytest.mark.parametrize("name", GAMES)
def test_pruned_walk_finds_what_the_whole_walk_finds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with gzip.open(FIXTURES / f"{name}.json.gz", "rt") as fh:
        export = json.load(fh)
    walk = board_mod.route_legal_walk
    compared = []

    def both(board: Any, start: Any, sym: str, others: Any, touched: dict[Any, None],
             arrivals: set[Any] | None = None, looked: set[str] | None = None, **_: Any) -> Any:
        got = []
        for prune in (False, True):
            t, a, lk = dict(touched), set(arrivals or ()), set(looked or ())
            reached = walk(board, start, sym, others, t, arrivals=a, looked=lk, prune=prune)
            got.append((reached, list(t), a, lk))
        assert got[0] == got[1], (name, sym, start)
        compared.append(sym)
        reached, t_list, a, lk = got[1]
        touched.update(dict.fromkeys(t_list))
        if arrivals is not None:
            arrivals |= a
        if looked is not None:
            looked |= lk
        return reached

    monkeypatch.setattr(board_mod, "route_legal_walk", both)
    res = replay(export)
    assert res.error is None
    assert len(compared) > 100
