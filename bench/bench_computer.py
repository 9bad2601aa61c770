"""Time the computer player's decisions (run on demand: python bench/bench_computer.py [--actions N]).

For each title, four computer players play from the start (seed 1) for N actions (default
600) or to the end; every decision (:func:`engine.computer.decide`) is timed. Per title and
per kind of action we print cases, p50/p95/max milliseconds. Targets (issue #27): a decision
under 200 ms typically, at most one second in the worst position, on this 2-core machine.

``--seated 1833NE --seeds 100-119``: the games ``conductor selfplay --seats robot,random``
plays (a robot among random players, the seats rotating), with each game's result and the
robot's slowest decision in wall-clock and in CPU time (the process's own: on a machine other
programs load, the wall clock counts their time too), and the robot's win rate.

``--ends``: all-computer games, each title at each player count, without and with each of its
optional rules: how each ends (reason and phase), how many trains the bank sold and how many
corporations bought them. All-computer games do not depend on the seed (it only seeds the
computer's fallback moves), so the player counts and rules are what varies.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.tools.routes import percentile  # noqa: E402
from engine.computer import Decision, decide  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.selfplay import play_seated  # noqa: E402
from engine.titles.registry import new_game, title_info, title_names  # noqa: E402


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


def seated(title: str, first: int, last: int) -> int:
    """Play seeds ``first``..``last`` as ``conductor selfplay --seats robot,random --seed first``
    does; print each game and the summary. 1 when a game did not end cleanly."""
    import engine.computer

    decide_timed = engine.computer.decide
    slowest = [0.0, 0.0]

    def timed(game: Game, entity: str | None = None, seed: int = 0) -> Decision | None:
        w0, c0 = time.perf_counter(), time.process_time()
        d = decide_timed(game, entity, seed=seed)
        slowest[0] = max(slowest[0], time.perf_counter() - w0)
        slowest[1] = max(slowest[1], time.process_time() - c0)
        return d

    engine.computer.decide = timed  # play_seated looks it up at each game
    seats = ["robot", "random", "random", "random"]
    wins, worst, bad = 0, [0.0, 0.0], 0
    try:
        for i, seed in enumerate(range(first, last + 1)):
            slowest[:] = [0.0, 0.0]
            order = seats[i % 4:] + seats[:i % 4]
            r = play_seated(title, order, seed, [], 20000)
            robot = r.values[order.index("robot")] if r.values else 0
            won = not r.problem and robot == max(r.values)
            wins += won
            bad += bool(r.problem)
            worst = [max(worst[0], slowest[0]), max(worst[1], slowest[1])]
            print(f"{title} seed {seed}: {r.actions} actions, end={r.end_reason}; robot {robot} "
                  f"{'wins' if won else 'loses'} (best {max(r.values, default=0)}); slowest decision "
                  f"{slowest[0] * 1000:.0f} ms wall, {slowest[1] * 1000:.0f} ms CPU"
                  + (f"  PROBLEM: {r.problem}" if r.problem else ""), flush=True)
    finally:
        engine.computer.decide = decide_timed
    n = last - first + 1
    print(f"{title} seeds {first}-{last}: robot wins {wins}/{n} ({100 * wins / n:.0f}%); slowest decision "
          f"{worst[0] * 1000:.0f} ms wall, {worst[1] * 1000:.0f} ms CPU")
    return 1 if bad else 0


_BANK_SALE = re.compile(r"^(\S+) buys an? \S+-train for .+ from the depot$")


def ends(titles: list[str]) -> int:
    """Print how all-computer games end (see the module docstring); 1 when one did not end cleanly."""
    bad = 0
    for title in titles:
        info = title_info(title)
        low, high = info.data.MIN_PLAYERS, info.data.MAX_PLAYERS
        for options in [[], *([r["sym"]] for r in info.optional_rules)]:
            for n in range(low, high + 1):
                played: list[Game] = []
                r = play_seated(title, ["robot"] * n, 1, options, 20000, game_out=played)
                sales = [m.group(1) for line in played[0].log if (m := _BANK_SALE.match(line))]
                bad += bool(r.problem)
                print(f"{title} {n}p {','.join(options) or '-'}: end={r.end_reason} phase={played[0].phase['name']} "
                      f"bank trains sold {len(sales)}, to {len(set(sales))} corporations"
                      + (f"  PROBLEM: {r.problem}" if r.problem else ""), flush=True)
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--title", action="append", help="only these titles")
    ap.add_argument("--seated", metavar="TITLE", help="a robot among random players in TITLE (see --seeds)")
    ap.add_argument("--seeds", default="100-119", help="with --seated: FIRST-LAST")
    ap.add_argument("--ends", action="store_true", help="how all-computer games end, per player count and rules")
    args = ap.parse_args()
    if args.ends:
        return ends(args.title or title_names())
    if args.seated:
        first, _, last = args.seeds.partition("-")
        return seated(args.seated, int(first), int(last or first))
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
