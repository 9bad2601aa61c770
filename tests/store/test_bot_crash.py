"""Kill the local bot with SIGKILL mid-stream; every acknowledged action must be in the database
and the game must go on after a restart on the same database."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.commands.layer import CommandLayer
from bot.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _start(db: Path, out: Path) -> subprocess.Popen[str]:
    code = (f"from bot.terminal.local import run_local; raise SystemExit(run_local(db={str(db)!r}, "
            f"out={str(out)!r}, images=False))")
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


async def _stored(db: Path) -> tuple[int, list[str], str]:
    store = await Store.open(str(db))
    try:
        row = (await store.all_games())[-1]
        layer = CommandLayer(store, images=False)
        game = (await layer.load(row)).game
        seats = await store.seats(row.id)
        acting = game.acting_players()[0]
        user = next(s.user_id for s in seats if s.player_id == acting)
        return await store.action_count(row.id), game.log, str(user)
    finally:
        await store.close()


def test_sigkill_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    db, out = tmp_path / "local.db", tmp_path / "out"
    setup = ["/as ann", "/game new title:1856", "/as ben", "/game join", "/as cat", "/game join",
             "/as ann", "/game start order:joined"]
    users = ["ann", "ben", "cat"]
    passes = []
    for i in range(60):  # everybody passes in the private auction, round after round
        passes += [f"/as {users[i % 3]}", "/pass"]
    proc = _start(db, out)
    assert proc.stdin and proc.stdout
    proc.stdin.write("\n".join(setup + passes) + "\n")
    proc.stdin.flush()
    acknowledged = 0
    for line in proc.stdout:
        if "passes bidding" in line or "minimum bid" in line:
            acknowledged += "passes bidding" in line
        if acknowledged >= 7:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    count, log, next_user = asyncio.run(_stored(db))
    assert count >= acknowledged  # each reply was printed only after its action was committed
    assert sum("passes bidding" in ln for ln in log) >= acknowledged

    # restart on the same database: the game is there and playable
    proc = _start(db, out)
    stdout, stderr = proc.communicate(f"/game status\n/as {next_user}\n/pass\n", timeout=60)
    assert proc.returncode == 0, stderr
    assert "waiting for" in stdout
    assert "passes bidding" in stdout.split(f"{next_user}> /pass", 1)[1]
    count_after, _, _ = asyncio.run(_stored(db))
    assert count_after == count + 1
