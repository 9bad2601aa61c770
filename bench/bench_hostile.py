"""Hostile imports (issue 28), measured: the CPU ``read_export`` spends on an export with 8,000
players, on 25k messages followed by 25k undos naming an action, on undo and redo of a long stretch
over and over, and on the largest real export
of the fixtures. Run: ``python bench/bench_hostile.py``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.gamelog import read_export  # noqa: E402
from bot.reply import UserError  # noqa: E402
from engine.replay import filter_actions  # noqa: E402
from tests.fixture_util import load_export  # noqa: E402


def cpu(label: str, raw: str) -> None:
    start = time.process_time()
    try:
        read_export(raw)
        outcome = "accepted"
    except UserError as exc:
        outcome = f"refused: {str(exc)[:90]}"
    print(f"{label}: {time.process_time() - start:.2f} s CPU, {len(raw) / 1e6:.2f} MB, {outcome}")


def main() -> None:
    base: dict[str, Any] = load_export("1856", "hotseat001")
    many = dict(base, players=[{"id": i, "name": f"Player {i}"} for i in range(8000)])
    cpu("8,000 players", json.dumps(many))
    acts = filter_actions(base["actions"])[:6]
    msgs = [{"type": "message", "id": 100 + i, "entity": "Player 1", "entity_type": "player", "message": "hi"}
            for i in range(24_990)]
    undos = [{"type": "undo", "id": 25_100 + i, "entity": "Player 1", "entity_type": "player",
              "action_id": 25_089 - i} for i in range(24_990)]
    cpu("25k messages + 25k undos with action_id", json.dumps(dict(base, actions=acts + msgs + undos)))
    flaps = [{"type": "undo", "action_id": acts[0]["id"]} if i % 2 == 0 else {"type": "redo"} for i in range(40_000)]
    pad = [{"type": "message", "id": 100 + i} for i in range(9000)]
    cpu("9k messages undone and redone 20k times", json.dumps(dict(base, actions=acts + pad + flaps)))
    cpu("hotseat001 (a real export)", json.dumps(base))


async def status_twenty_times() -> None:
    """/game status asked 20 times by someone without a seat (three pictures each, unless kept)."""
    import asyncio
    import tempfile

    from bot.commands.layer import CommandLayer
    from bot.reply import Caller
    from bot.storage.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"{tmp}/bot.db")
        layer = CommandLayer(store, images=True)
        export = load_export("1856", "hotseat001")
        assert (await layer.handle("c", Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})).ok
        start = time.process_time()
        replies = await asyncio.gather(*[layer.handle("c", Caller(f"u{i}", "U"), "game status", {}) for i in range(20)])
        assert all(r.ok for r in replies)
        print(f"20 x /game status by non-players: {time.process_time() - start:.2f} s CPU")
        await store.close()


if __name__ == "__main__":
    main()
    import asyncio

    asyncio.run(status_twenty_times())
