"""The collector's settings of a process serving games (bot.collector, issue #24): local mode
sets them, and cyclic garbage is still collected without anyone asking."""

from __future__ import annotations

import gc
import io
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.collector import THRESHOLDS, YOUNG, tune_collector
from bot.terminal.local import run_local


@pytest.fixture(autouse=True)
def _thresholds_kept() -> Iterator[None]:
    was = gc.get_threshold()
    yield
    gc.set_threshold(*was)


def test_local_mode_serves_games_with_the_bots_collector_settings(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    gc.set_threshold(700, 10, 10)
    monkeypatch.setattr(sys, "stdin", io.StringIO("/game new title:1856\n"))
    assert run_local(db=str(tmp_path / "local.db"), out=str(tmp_path / "images"), images=False) == 0
    assert gc.get_threshold() == THRESHOLDS


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_cycles_are_still_collected_by_allocation_alone() -> None:
    assert gc.isenabled()
    tune_collector()
    gc.collect()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    assert gone() is not None  # a cycle: reference counting alone does not free it
    kept: list[list[int]] = [[] for _ in range(3 * YOUNG)]  # allocations only, no explicit collection
    assert gone() is None
    assert len(kept) == 3 * YOUNG
