"""The command layer under load (run on demand: ``python -m bench.bench_load [--profile]``).

1. Per command, one game: tests/fixtures/1856/hotseat006.json imported up to a late position,
   then its next moves sent one after the other as the players' commands (no images).
   Target: p95 below 10 ms.
2. Many games at once: ``--games`` channels (default 50) each play that game concurrently, each
   from its own late position (game i starts 2*i actions later: games at one moment are at
   different points, not all laying track or all passing together), every channel sending its
   next command as soon as the previous reply is back (no time to think).
   Target: at least 300 commands/s in total, p95 below 250 ms.
3. Parsing a 1 MB command line (refused quickly).

The process runs with the bot's collector settings (:mod:`bot.collector`). The machine is
shared: the CPU time per command (process time, all threads) is printed too, as it does not
depend on what else runs (300 commands/s needs at most 3.3 ms per command); then the process's
peak memory.
``--profile`` runs part 2 under cProfile instead (the commands, not the set-up), the work the bot
hands to worker threads run in place so that it is counted, and prints where the time goes (the
project's functions by cumulative time, then every function by its own time).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import service  # noqa: E402
from bot.collector import tune_collector  # noqa: E402
from bot.commands.layer import CommandLayer  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.terminal.textcmd import CommandSyntaxError, parse  # noqa: E402
from tests.command_script import Step, script, send, set_up, user_of  # noqa: E402
from tests.fixture_util import load_export  # noqa: E402

START = 450  # hotseat006: 677 actions; from here on it is the late game (phases 5 to D)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play(layer: CommandLayer, channel: str, steps: list[Step], times: list[float]) -> int:
    """Send ``steps`` in order; returns how many were refused (the game stops at the first)."""
    for step in steps:
        t0 = time.perf_counter()
        reply = await send(layer, channel, user_of(step.pid), step.line)
        times.append(time.perf_counter() - t0)
        if not reply.ok:
            print(f"  {channel}: {step.line!r} refused: {reply.error}", file=sys.stderr)
            return 1
    return 0


async def one_game(db: str, count: int) -> list[float]:
    head, steps = script(load_export("1856", "hotseat006"), START, count)
    store = await Store.open(db)
    try:
        layer = CommandLayer(store, images=False)
        await set_up(layer, "solo", head)
        times: list[float] = []
        await play(layer, "solo", steps, times)
        return times
    finally:
        await store.close()


async def many_games(db: str, games: int, count: int,
                     profiler: cProfile.Profile | None = None) -> tuple[list[float], float, int, float]:
    """Part 2; ``profiler`` (if given) runs only while the commands are played, not the set-up."""
    export = load_export("1856", "hotseat006")
    scripts = [script(export, START + 2 * (i % 50), count) for i in range(games)]
    store = await Store.open(db)
    try:
        layer = CommandLayer(store, images=False)
        for i, (head, _) in enumerate(scripts):
            await set_up(layer, f"table-{i}", head)
        times: list[float] = []
        if profiler is not None:
            profiler.enable()
        t0, cpu = time.perf_counter(), time.process_time()
        failed = await asyncio.gather(*(play(layer, f"table-{i}", steps, times)
                                        for i, (_, steps) in enumerate(scripts)))
        if profiler is not None:
            profiler.disable()
        return times, time.perf_counter() - t0, sum(failed), time.process_time() - cpu
    finally:
        await store.close()


def profile(db: str, games: int, count: int) -> None:
    """Part 2 under cProfile, worker-thread calls made in place (cProfile sees one thread)."""

    async def in_place(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    asyncio.to_thread = in_place  # type: ignore[assignment]
    service.in_engine_thread = in_place  # type: ignore[assignment]
    profiler = cProfile.Profile()
    times, _, _, cpu = asyncio.run(many_games(db, games, count, profiler))
    print(f"{len(times)} commands, CPU {cpu / len(times) * 1000:.2f} ms per command under the profiler "
          "(the commands only: the set-up is not profiled)")
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(r"/(bot|engine|render)/", 40)
    stats.sort_stats("tottime").print_stats(25)  # own time, every function (sqlite3, the collector...)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--commands", type=int, default=200, help="commands per game in part 1")
    parser.add_argument("--concurrent-commands", type=int, default=100, help="commands per game in part 2")
    parser.add_argument("--profile", action="store_true", help="profile part 2 (try --games 10)")
    args = parser.parse_args()
    tune_collector()  # the collector's settings of the bot's process (`conductor run`, `conductor local`)
    if args.profile:
        with tempfile.TemporaryDirectory() as tmp:
            profile(str(Path(tmp) / "many.db"), args.games, args.concurrent_commands)
        return 0
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        times = asyncio.run(one_game(str(Path(tmp) / "one.db"), args.commands))
        p95 = pct(times, 0.95)
        ok &= p95 < 0.010
        print(f"1. one game, hotseat006 from action {START}, {len(times)} commands: "
              f"median {statistics.median(times) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, "
              f"max {max(times) * 1000:.1f} ms (target p95 < 10 ms: {'met' if p95 < 0.010 else 'NOT met'})")

        times, wall, failed, cpu = asyncio.run(many_games(str(Path(tmp) / "many.db"), args.games,
                                                          args.concurrent_commands))
        rate = len(times) / wall
        p95 = pct(times, 0.95)
        met = rate >= 300 and p95 < 0.250 and not failed
        ok &= met
        print(f"2. {args.games} games at once, {len(times)} commands in {wall:.1f} s: {rate:.0f} commands/s, "
              f"median {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {max(times) * 1000:.0f} ms, CPU {cpu / len(times) * 1000:.2f} ms per command, "
              f"{failed} games stopped by a refusal "
              f"(target >= 300/s, p95 < 250 ms: {'met' if met else 'NOT met'})")

    line = "/pass entity:" + "x" * 1_000_000
    t0 = time.perf_counter()
    try:
        parse(line)
        outcome = "accepted"
    except CommandSyntaxError as exc:
        outcome = f"refused ({str(exc)[:60]})"
    print(f"3. a 1 MB command line: {outcome} in {(time.perf_counter() - t0) * 1000:.1f} ms")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB "
          f"(the {args.games} games of part 2 loaded at once)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
