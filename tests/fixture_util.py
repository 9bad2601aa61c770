"""Load the real-game fixtures kept under tests/fixtures (exports + gzipped reference traces)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game

FIXTURES = Path(__file__).parent / "fixtures"


def load_export(title: str, name: str) -> dict[str, Any]:
    """``title`` is a folder under tests/fixtures ("1856", "generated/1836jr56", ...)."""
    plain = FIXTURES / title / f"{name}.json"
    if plain.exists():
        return json.loads(plain.read_text())
    with gzip.open(FIXTURES / title / f"{name}.json.gz", "rt") as fh:
        return json.load(fh)


def load_trace(title: str, name: str) -> list[dict[str, Any]]:
    with gzip.open(FIXTURES / title / f"{name}.trace.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


@cache
def before_run(title: str, name: str, action_id: int) -> tuple[Game, str]:
    """The real game ``name`` just before its run_routes action ``action_id``, and the
    corporation that ran (kept: callers must not change the game)."""
    from engine import actions as A
    from engine.replay import filter_actions, game_from_export

    export = load_export(title, name)
    game = game_from_export(export)
    for raw in filter_actions(export.get("actions", [])):
        if raw.get("type") == "run_routes" and raw.get("id") == action_id:
            return game, str(raw["entity"])
        game.process(A.Action.from_dict(raw), safe=False)
    raise AssertionError(f"no run_routes {action_id} in {name}")
