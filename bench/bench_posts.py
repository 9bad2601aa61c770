"""Pictures a channel receives: a real 4-player 1856 game (tests/fixtures/1856/89363.json, 150
actions) typed in local mode from /game new to its end, with pictures on.

    python bench/bench_posts.py

Prints the files posted, files per 100 actions, their size, and how many replies posted any.
Target (issue 14): map only when the board changed, market only when prices moved, at most
one post per turn; before that change the game posted 142 files (95 per 100 actions, 9.0 MB).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.commands import CommandLayer  # noqa: E402
from bot.local import LocalSession  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.textcmd import action_to_command  # noqa: E402
from engine.replay import filter_actions  # noqa: E402
from tests.fixture_util import load_export  # noqa: E402

USERS = ["alice", "bob", "carol", "dave"]


async def main() -> None:
    export = load_export("1856", "89363")
    pids = [str(p["id"]) for p in export["players"]]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "bench.db"))
        try:
            layer = CommandLayer(store, images=True)
            session = LocalSession(layer, Path(tmp) / "images", user="alice")
            await session.run_line("/game new title:1856 options:alternate_destinations")
            for user in USERS[1:]:
                session.user = user
                await session.run_line("/game join")
            session.user = "alice"
            printed = [await session.run_line("/game start order:joined")]
            row = await store.open_game("local")
            actions = 0
            for raw in filter_actions(export["actions"]):
                line = action_to_command(raw)
                if line is None:
                    continue
                game = (await layer.load(row)).game
                entity = str(pids.index(str(raw["entity"])) + 1) if raw.get("entity_type") == "player" \
                    else str(raw["entity"])
                session.user = "alice" if raw["type"] == "end_game" else USERS[int(game.controller_of(entity)) - 1]
                printed.append(await session.run_line(line))
                actions += 1
            files = [ln.split(" ", 1)[1] for out in printed for ln in out if ln.startswith("[file]")]
            size = sum(Path(f).stat().st_size for f in files)
            posting = sum(any(ln.startswith("[file]") for ln in out) for out in printed)
            kinds: dict[str, int] = {}
            for f in files:
                kind = Path(f).name.split("-", 1)[1]
                kinds[kind] = kinds.get(kind, 0) + 1
            print(f"{actions} actions: {len(files)} files ({100 * len(files) / actions:.0f} per 100 actions), "
                  f"{size / 1e6:.1f} MB, posted with {posting} of {len(printed)} replies; {kinds}")
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
