"""Two bot processes racing on the same game (on each engine): both send the next move at the
same moment, with the state it was built from (as a button does); the game is left loadable and
exactly one action further, and the process that lost is told so (out of date, or changed at
the same moment)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from tests.command_script import script, set_up
from tests.fixture_util import load_export
from tests.store.test_store_integrity import replays

ROOT = Path(__file__).resolve().parents[2]
START = 460  # hotseat006, late in the game
CHILD = """
import asyncio, json, os, sys, time
from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from tests.command_script import send, user_of
async def main(db, channel, user, line, go):
    store = await Store.open(db)
    layer = CommandLayer(store, images=False)
    row = await store.open_game(channel)
    await layer.load(row)  # both processes hold the game at the same state
    print("ready", flush=True)
    while not os.path.exists(go):
        await asyncio.sleep(0.001)
    reply = await send(layer, channel, user, line)
    print(json.dumps({"ok": reply.ok, "error": reply.error}), flush=True)
    await store.close()
asyncio.run(main(*sys.argv[1:]))
"""


async def _prepared(db: str) -> tuple[int, str, str]:
    from tests.command_script import user_of

    head, steps = script(load_export("1856", "hotseat006"), START, 1)
    store = await Store.open(db)
    try:
        await set_up(CommandLayer(store, images=False), "race", head)
    finally:
        await store.close()
    return len(head["actions"]), user_of(steps[0].pid), steps[0].line


async def test_two_processes_racing_on_one_game_leave_it_one_action_further(db_target: str, tmp_path: Path) -> None:
    base, user, line = await _prepared(db_target)
    go = tmp_path / "go"
    # with the state it was built from, as a button sends it: a move the other made first is out of date
    move = f"{line} state:{base}"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, db_target, "race", user, move, str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}) for _ in range(2)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    go.touch()  # both send the move now
    outcomes = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outcomes.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted(o["ok"] for o in outcomes) == [False, True], outcomes
    loser = next(o for o in outcomes if not o["ok"])
    assert "out of date" in loser["error"] or "at the same moment" in loser["error"], loser
    store = await Store.open(db_target)
    try:
        row = await store.open_game("race")
        assert row is not None and await store.action_count(row.id) == base + 1  # exactly one action further
        await replays(store, "race")  # loadable: positions 1..n, no id twice, the log replays
    finally:
        await store.close()
