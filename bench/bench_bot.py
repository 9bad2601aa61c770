"""Time from a command to its reply in local mode (the command layer, no images) on a late-game
1856 position: tests/fixtures/1856/89363.json (without its final end_game) imported into a store.

    python -m bench.bench_bot [--runs N]

"warm": the bot has the game cached (the usual case); "cold": the first command after a restart,
which rebuilds the state by replaying the log. Target: under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.commands.layer import CommandLayer  # noqa: E402
from bot.reply import Caller  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from engine.replay import filter_actions  # noqa: E402


async def one_run(db: str, export: dict) -> tuple[float, float]:
    store = await Store.open(db)
    try:
        layer = CommandLayer(store, images=False)
        host = Caller("host", "Host")
        reply = await layer.handle("bench", host, "game import", {"file": json.dumps(export)})
        assert reply.ok, reply.error
        row = await store.open_game("bench")
        assert row is not None
        game = (await layer.load(row)).game
        acting = game.acting()[0]
        pid = game.controller_of(acting)
        user = Caller(f"user-{pid}", "Player")
        seat = next(s for s in await store.seats(row.id) if s.player_id == pid)
        await layer.handle("bench", user, "game claim", {"seat": seat.name})
        assert "pass" in game.action_types(acting), game.action_types(acting)

        t0 = time.perf_counter()
        reply = await layer.handle("bench", user, "pass", {})
        warm = time.perf_counter() - t0
        assert reply.ok, reply.error
        await layer.handle("bench", user, "game undo", {})

        cold_layer = CommandLayer(store, images=False)  # a restarted bot: nothing cached
        t0 = time.perf_counter()
        reply = await cold_layer.handle("bench", user, "pass", {})
        cold = time.perf_counter() - t0
        assert reply.ok, reply.error
        return warm, cold
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    export = json.loads((ROOT / "tests/fixtures/1856/89363.json").read_text())
    actions = filter_actions(export["actions"])
    export["actions"] = [a for a in actions if a["type"] != "end_game"]
    warm, cold = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            w, c = asyncio.run(one_run(str(Path(tmp) / f"b{i}.db"), export))
            warm.append(w)
            cold.append(c)
    print(f"89363 late game ({len(export['actions'])} actions), /pass, no images, {args.runs} runs")
    print(f"  warm (cached state): median {statistics.median(warm) * 1000:.1f} ms, "
          f"max {max(warm) * 1000:.1f} ms")
    print(f"  cold (replay first): median {statistics.median(cold) * 1000:.1f} ms, "
          f"max {max(cold) * 1000:.1f} ms")
    ok = statistics.median(warm) < 0.1
    print("  target < 100 ms:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
