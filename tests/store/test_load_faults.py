"""The bot under load and faults, loopback only and bounded in time: many channels at once with
double clicks and wrong users, a bot process killed with SIGKILL mid-burst, two bot processes on
one database, and the disk filling up mid-burst. Each test checks that every acknowledged move is
stored exactly once, that every stored log replays, and that refused commands changed nothing.
(Damaged database files at start-up: tests/store/test_store_integrity.py; fuzzing: test_fuzz_commands.py.)
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.commands.layer import CommandLayer, build_game
from bot.storage.store import Store
from engine import actions as A
from engine.replay import filter_actions, replay, snapshot
from tests.command_script import Step, script, send, set_up, user_of
from tests.fixture_util import load_export

ROOT = Path(__file__).resolve().parents[2]
START, COUNT = 450, 40  # hotseat006 (tests/load_child.py plays the same game)


@functools.cache
def expected_state(start: int, done: int) -> dict[str, Any]:
    """The engine's own replay of hotseat006 after ``start`` + ``done`` scripted moves."""
    export = load_export("1856", "hotseat006")
    acts = [a for a in filter_actions(export["actions"]) if a.get("type") != "end_game"]
    head = {**export, "actions": acts[:start]}
    game = replay(head).game
    moved = 0
    for raw in acts[start:]:
        if moved == done:
            break
        game.process(A.Action.from_dict(raw), safe=False)
        moved += raw.get("type") != "message"
    return snapshot(game, {})


async def check_log(store: Store, channel: str, base: int, stored_moves: int) -> dict[str, Any]:
    """The channel's log holds the import plus ``stored_moves`` moves, at positions 1..n, each
    action id once, and replays (returns the state)."""
    row = await store.open_game(channel)
    assert row is not None
    logged = await store.actions(row.id)
    assert len(logged) == base + stored_moves, (channel, len(logged), base, stored_moves)
    assert [e.seq for e in logged] == list(range(1, len(logged) + 1))
    ids = [e.data.get("id") for e in logged]
    assert len(ids) == len(set(ids)), f"{channel}: an action id is stored twice"
    return snapshot(build_game(row, await store.seats(row.id), [e.data for e in logged]), {})


async def all_played(db: Path, channels: list[str], base: int, moves: int) -> None:
    """Every channel's log holds all ``moves`` once each and replays to the engine's state."""
    store = await Store.open(str(db))
    try:
        final = expected_state(START, moves)
        for channel in channels:
            assert await check_log(store, channel, base, moves) == final
    finally:
        await store.close()


# ---------------------------------------------------------------------- many channels at once
async def test_200_channels_with_double_clicks_and_wrong_users(tmp_path: Path) -> None:
    channels = [f"table-{i}" for i in range(200)]
    head, steps = script(load_export("1856", "hotseat001"), 9, 3)
    base = len(head["actions"])
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=False)
        await asyncio.gather(*(set_up(layer, ch, head) for ch in channels))
        pids = [str(p.get("id", p["name"])) for p in head["players"]]

        async def channel_play(channel: str) -> list[str]:
            refusals = []
            for i, step in enumerate(steps):
                line = f"{step.line} state:{base + i}"
                wrong = next(user_of(p) for p in pids if p != step.pid)
                replies = await asyncio.gather(
                    *(send(layer, channel, user_of(step.pid), line) for _ in range(3)),  # a triple click
                    send(layer, channel, wrong, line), send(layer, channel, "outsider", line))
                assert sum(r.ok for r in replies[:3]) == 1, (channel, i, [r.error for r in replies])
                assert not replies[3].ok and not replies[4].ok
                refusals += [r.error for r in replies if not r.ok]
            return refusals

        refusals = [e for errs in await asyncio.gather(*(channel_play(ch) for ch in channels)) for e in errs]
        assert len(refusals) == 200 * len(steps) * 4
        assert not [e for e in refusals if "went wrong" in e or "could not save" in e]
        export = load_export("1856", "hotseat001")
        export["actions"] = filter_actions(export["actions"])[:9 + len(steps)]
        expected = snapshot(replay(export).game, {})
        for channel in channels:
            assert await check_log(store, channel, base, len(steps)) == expected
    finally:
        await store.close()


# ---------------------------------------------------------------------- bot processes
def _child(db: Path, first: int | str, channels: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.load_child", str(db), str(START), str(COUNT), str(first),
                             *channels], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


async def _prepared(db: Path, channels: list[str]) -> tuple[int, list[Step]]:
    head, steps = script(load_export("1856", "hotseat006"), START, COUNT)
    store = await Store.open(str(db))
    try:
        layer = CommandLayer(store, images=False)
        for channel in channels:
            await set_up(layer, channel, head)
    finally:
        await store.close()
    return len(head["actions"]), steps


def test_sigkill_mid_burst_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    channels = [f"burst-{i}" for i in range(6)]
    base, steps = asyncio.run(_prepared(db, channels))
    proc = _child(db, 0, channels)
    acked: dict[str, int] = dict.fromkeys(channels, 0)
    assert proc.stdout is not None
    for line in proc.stdout:
        reply = json.loads(line)
        assert reply["ok"], reply
        acked[reply["channel"]] = max(acked[reply["channel"]], reply["step"] + 1)
        if sum(acked.values()) >= 90:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    async def after_the_kill() -> dict[str, int]:
        store = await Store.open(str(db))  # quick_check passes: the file is whole
        try:
            stored = {}
            for channel in channels:
                row = await store.open_game(channel)
                n = len(await store.actions(row.id)) - base
                # every acknowledged move is there; at most one more was committed unacknowledged
                assert acked[channel] <= n <= acked[channel] + 1, (channel, acked[channel], n)
                assert await check_log(store, channel, base, n) == expected_state(START, n)
                stored[channel] = n
            return stored
        finally:
            await store.close()

    stored = asyncio.run(after_the_kill())
    assert sum(stored.values()) >= 90
    # a restarted bot carries on from where each channel stopped
    rest = _child(db, "resume", channels)
    out, err = rest.communicate(timeout=120)
    assert rest.returncode == 0, err
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == len(channels) * len(steps) - sum(stored.values()) and all(r["ok"] for r in replies)

    asyncio.run(all_played(db, channels, base, len(steps)))


def test_two_bot_processes_on_one_database_store_each_move_once(tmp_path: Path) -> None:
    """Two processes send the same moves in the same channels at the same time: each move is
    stored exactly once, the process that comes second is refused (out of date, or lost the
    race for the log position) and nothing is stored that does not replay."""
    db = tmp_path / "bot.db"
    channels = [f"shared-{i}" for i in range(4)]
    base, steps = asyncio.run(_prepared(db, channels))
    procs = [_child(db, 0, channels), _child(db, 0, channels)]
    outputs = [p.communicate(timeout=180) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    replies = [json.loads(line) for out, _ in outputs for line in out.splitlines()]
    for channel in channels:
        for i in range(len(steps)):
            mine = [r for r in replies if r["channel"] == channel and r["step"] == i]
            assert len(mine) == 2
            assert sum(r["ok"] for r in mine) == 1, mine
            loser = next(r for r in mine if not r["ok"])
            assert "out of date" in loser["error"] or "at the same moment" in loser["error"], loser

    asyncio.run(all_played(db, channels, base, len(steps)))


# ---------------------------------------------------------------------- the disk fills up
async def test_disk_full_mid_burst_keeps_every_acknowledged_move_and_nothing_else(tmp_path: Path) -> None:
    channels = [f"full-{i}" for i in range(8)]
    head, steps = script(load_export("1856", "hotseat006"), START, COUNT)
    base = len(head["actions"])
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=False)
        for channel in channels:
            await set_up(layer, channel, head)
        pages = (await store.db.execute_fetchall("PRAGMA page_count"))[0][0]
        await store.db.execute(f"PRAGMA max_page_count = {pages + 3}")  # full after a few moves

        async def until_full(channel: str) -> tuple[int, list[str]]:
            for i, step in enumerate(steps):
                reply = await send(layer, channel, user_of(step.pid), f"{step.line} state:{base + i}")
                if not reply.ok:
                    return i, [reply.error or ""]
            return len(steps), []

        results = await asyncio.gather(*(until_full(ch) for ch in channels))
        errors = [e for _, errs in results for e in errs]
        assert errors and all("full" in e and "nothing was changed" in e for e in errors), errors
        for channel, (done, _) in zip(channels, results, strict=True):
            assert await check_log(store, channel, base, done) == expected_state(START, done)
        await store.db.execute("PRAGMA max_page_count = 1073741823")
        channel, (done, _) = channels[0], results[0]
        step = steps[done]
        assert (await send(layer, channel, user_of(step.pid), f"{step.line} state:{base + done}")).ok
    finally:
        await store.close()
