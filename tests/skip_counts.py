"""How often the bot skips a step (#23): replays recorded games and, at every position where the
entity waited for may pass, asks :func:`engine.moves.only_pass` whether passing is all it can do;
prints the counts per step kind, and how often the recorded player did something else there
(never, if only_pass is right).

    python -m tests.skip_counts tests/fixtures/1856/*.json tests/fixtures/1836jr56/*.json
    python -m tests.skip_counts tests/fixtures/generated/*/*.json.gz   # any exports, gzipped or not
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from engine import actions as A
from engine.errors import GameError
from engine.game import Game
from engine.moves import only_pass
from engine.replay import filter_actions, game_from_export
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import AuctionRound, StockRound


def step_kind(game: Game) -> str:
    rnd = game.round
    if isinstance(rnd, OperatingRound):
        step = rnd.active_step()
        return step.name if step is not None else "operate"
    if isinstance(rnd, StockRound):
        return "stock turn"
    if isinstance(rnd, AuctionRound):
        return "auction"
    return type(rnd).__name__


def read(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def count(export: dict[str, Any], passable: Counter[str], only: Counter[str], wrong: Counter[str]) -> str | None:
    """Add one game's positions to the counters; returns why its replay stopped early, if it did."""
    game = game_from_export(export)
    game.live = False  # programmed moves come from the record
    for raw in filter_actions(export["actions"]):
        acting = game.acting()
        if raw.get("type") != "message" and acting and not game.finished and "pass" in game.action_types(acting[0]):
            kind = step_kind(game)
            passable[kind] += 1
            idle = only_pass(game)
            if idle is not None:
                only[kind] += 1
                if raw.get("type") != "pass" or str(raw.get("entity")) != idle:
                    wrong[kind] += 1
        try:
            game.process(A.Action.from_dict(raw), safe=False)
        except GameError as exc:
            return f"action {raw.get('id')}: {exc}"
    return None


def main(paths: list[str]) -> None:
    passable: Counter[str] = Counter()
    only: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for name in paths:
        stopped = count(read(Path(name)), passable, only, wrong)
        if stopped:
            print(f"{name}: replay stops at {stopped} (counted up to there)")
    print(f"{len(paths)} games: positions where the entity may pass / passing is all it can do / "
          "the player did something else there")
    for kind in sorted(passable):
        print(f"  {kind:40s} {passable[kind]:6d} {only[kind]:6d} {wrong[kind]:4d}")
    print(f"  {'all':40s} {sum(passable.values()):6d} {sum(only.values()):6d} {sum(wrong.values()):4d}")


if __name__ == "__main__":
    main(sys.argv[1:])
