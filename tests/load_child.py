"""A bot process for the load-and-fault tests (tests/store/test_load_faults.py): plays the scripted
moves of a real game in several channels of one database at once, and prints one JSON line per
reply, flushed only after the command returned (an acknowledgement), so the parent can kill it
mid-burst or run two of them on one database.

    python -m tests.load_child DB START COUNT FIRST_STEP CHANNEL [CHANNEL ...]

FIRST_STEP ``resume`` starts each channel after the moves its log already holds (a restart).
Every command carries ``state:`` (the log length it expects, as a button does), so a move that
another process made first is refused as out of date instead of being made twice.
"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from tests.command_script import script, send, user_of
from tests.fixture_util import load_export

TITLE, GAME = "1856", "hotseat006"


async def play(layer: CommandLayer, channel: str, base: int, steps: list, first: int | None) -> None:
    if first is None:
        row = await layer.store.open_game(channel)
        assert row is not None
        first = await layer.store.action_count(row.id) - base
    for i in range(first, len(steps)):
        reply = await send(layer, channel, user_of(steps[i].pid), f"{steps[i].line} state:{base + i}")
        print(json.dumps({"channel": channel, "step": i, "ok": reply.ok, "error": reply.error}), flush=True)


async def main(db: str, start: int, count: int, first: int | None, channels: list[str]) -> None:
    head, steps = script(load_export(TITLE, GAME), start, count)
    store = await Store.open(db)
    try:
        layer = CommandLayer(store, images=False)
        await asyncio.gather(*(play(layer, ch, len(head["actions"]), steps, first) for ch in channels))
    finally:
        await store.close()


if __name__ == "__main__":
    first = None if sys.argv[4] == "resume" else int(sys.argv[4])
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), first, sys.argv[5:]))
