"""Time the computer player's decisions (run on demand: python bench/bench_computer.py [--actions N]).

For each title, four computer players play from the start (seed 1) for N actions (default
600) or to the end; every decision (:func:`engine.computer.decide`) is timed. Per title and
per kind of action we print cases, p50/p95/max milliseconds. Targets (issue #27): a decision
under 200 ms typically, at most one second in the worst position, on this 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.tools.routes import percentile  # noqa: E402
from engine.computer import decide  # noqa: E402
from engine.titles.registry import new_game, title_names  # noqa: E402


def time_title(title: str, actions: int, seed: int) -> dict[str, list[float]]:
    names = [(str(i + 1), f"Player {i + 1}") for i in range(4)]
    game = new_game(title, names, [], seed)
    times: dict[str, list[float]] = defaultdict(list)
    for n in range(actions):
        if game.finished:
            break
        t0 = time.perf_counter()
        d = decide(game, seed=seed * 100_003 + n)
        ms = (time.perf_counter() - t0) * 1000
        if d is None:
            print(f"{title}: no decision at action {n} ({game.acting()})")
            break
        times[d.action.type].append(ms)
        times["all"].append(ms)
        game.process(d.action, safe=False)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--title", action="append", help="only these titles")
    args = ap.parse_args()
    worst = 0.0
    for title in args.title or title_names():
        times = time_title(title, args.actions, args.seed)
        for kind, ms in sorted(times.items(), key=lambda kv: kv[0] != "all"):
            ms.sort()
            print(f"{title:9} {kind:16} {len(ms):5} decisions  p50 {percentile(ms, 50):6.1f} ms  "
                  f"p95 {percentile(ms, 95):6.1f} ms  max {ms[-1]:7.1f} ms")
        worst = max(worst, max(times["all"], default=0.0))
    print(f"slowest decision: {worst:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
