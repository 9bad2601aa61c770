"""Two bot processes on one database (run on demand: python bench/bench_pg_load.py).

``--games`` channels (default 100) per process, 2 processes, one database: every channel plays
tests/fixtures/1856/hotseat006.json from its own late position (channel i starts 2*i actions
later, as in bench_load.py), each sending its next command as soon as the previous reply is
back (each process has its games loaded first, as a running bot has). Printed for PostgreSQL and, beside it, for SQLite (one file shared by the two processes):
commands/s over both processes, median and p95 latency per command.

PostgreSQL: ``--url`` (or TEST_DATABASE_URL / DATABASE_URL), a server where a scratch database
may be created (and is dropped afterwards); ``.ci/run`` shows how to start a throwaway one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.collector import tune_collector  # noqa: E402
from bot.commands.layer import CommandLayer  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from tests.command_script import Step, script, send, set_up, user_of  # noqa: E402
from tests.fixture_util import load_export  # noqa: E402

START = 450  # hotseat006: the late game


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def scripts(channels: list[int], count: int) -> dict[int, tuple[dict[str, object], list[Step]]]:
    export = load_export("1856", "hotseat006")
    return {i: script(export, START + 2 * (i % 50), count) for i in channels}


async def prepare(db: str, games: int, count: int) -> None:
    store = await Store.open(db)
    try:
        layer = CommandLayer(store, images=False)
        for i, (head, _) in scripts(list(range(games)), count).items():
            await set_up(layer, f"table-{i}", head)
    finally:
        await store.close()


async def child(db: str, channels: list[int], count: int) -> None:
    """One bot process: its channels concurrently; prints its latencies and its busy period."""
    plays = scripts(channels, count)
    store = await Store.open(db)
    times: list[float] = []
    refused = 0

    async def play(i: int, steps: list[Step]) -> None:
        nonlocal refused
        for step in steps:
            t0 = time.perf_counter()
            reply = await send(layer, f"table-{i}", user_of(step.pid), step.line)
            times.append(time.perf_counter() - t0)
            if not reply.ok:
                refused += 1
                return

    try:
        layer = CommandLayer(store, images=False)
        for i in plays:  # warm: each game replayed into the process's cache (as a running bot has it)
            row = await store.open_game(f"table-{i}")
            assert row is not None
            await layer.load(row)
        start = time.time()
        await asyncio.gather(*(play(i, steps) for i, (_, steps) in plays.items()))
        end = time.time()
    finally:
        await store.close()
    print(json.dumps({"times": times, "start": start, "end": end, "refused": refused}))


def run_engine(db: str, games: int, count: int) -> tuple[float, float, float, int, int]:
    """commands/s, median and p95 (s), commands, refused: two processes of ``games`` channels."""
    asyncio.run(prepare(db, 2 * games, count))
    halves = [range(0, games), range(games, 2 * games)]
    procs = [subprocess.Popen([sys.executable, __file__, "--child", db, "--commands", str(count),
                               *map(str, half)], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}) for half in halves]
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    times = [t for r in results for t in r["times"]]
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    return (len(times) / wall, statistics.median(times), pct(times, 0.95), len(times),
            sum(r["refused"] for r in results))


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="channels per process")
    parser.add_argument("--commands", type=int, default=20, help="commands per channel")
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("channels", nargs="*", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        tune_collector()  # a bot process's settings
        asyncio.run(child(args.child, args.channels, args.commands))
        return 0
    if not args.url:
        print("bench_pg_load: give a PostgreSQL server with --url (or TEST_DATABASE_URL)", file=sys.stderr)
        return 2
    name = "bench_" + uuid.uuid4().hex[:12]
    asyncio.run(_admin(args.url, f"CREATE DATABASE {name}"))
    try:
        pg = run_engine(urlunsplit(urlsplit(args.url)._replace(path="/" + name)), args.games, args.commands)
    finally:
        asyncio.run(_admin(args.url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    with tempfile.TemporaryDirectory() as tmp:
        lite = run_engine(str(Path(tmp) / "bench.db"), args.games, args.commands)
    print(f"2 processes x {args.games} games, {args.commands} commands each, one database:")
    for engine, (rate, median, p95, n, refused) in (("PostgreSQL", pg), ("SQLite", lite)):
        print(f"  {engine:<10} {n} commands: {rate:.0f} commands/s, median {median * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms per command, {refused} games stopped by a refusal")
    return 0 if pg[4] == 0 and lite[4] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
