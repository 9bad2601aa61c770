"""``conductor selfplay``: random (and computer-player) games played out, one line per game and a
summary, exports written on request. The players and their checks are the engine's
(:mod:`engine.selfplay`, :mod:`engine.computer`); this module prints and writes files.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter

from engine.export import export_game
from engine.game import Game
from engine.selfplay import GameReport, default_router, play_one, play_seated
from engine.titles.registry import title_info


def run_seated(title: str, seats: list[str], games: int, seed: int, options: list[str], *,
               max_actions: int = 20000, export_dir: str | None = None) -> int:
    """Play ``games`` games with the seats' policies; print each result and, per policy, its
    win rate (a shared first place counts for each) and mean final value."""
    t0 = time.perf_counter()
    reports = []
    for i in range(games):
        # the seats rotate, so no policy always sits first
        shift = i % len(seats)
        order = seats[shift:] + seats[:shift]
        played: list[Game] = []
        r = play_seated(title, order, seed + i, options, max_actions, game_out=played)
        reports.append(r)
        if export_dir is not None and played:
            write_export(played[0], export_dir)
        best = max(r.values) if r.values else 0
        shown = ", ".join(f"{pol} {v}" + ("*" if v == best else "") for pol, v in zip(r.seats, r.values, strict=True))
        print(f"game {i + 1} seed {r.seed}: {r.actions} actions, end={r.end_reason}; {shown}"
              + (f"; slowest robot decision {r.slowest * 1000:.0f} ms ({r.slowest_what})" if "robot" in r.seats else "")
              + (f"; {r.counts['train bought away from a robot']} trains bought away from robots' corporations"
                 if r.counts["train bought away from a robot"] else "")
              + (f"  PROBLEM: {r.problem}" if r.problem else ""))
    wins: Counter[str] = Counter()
    seated: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for r in reports:
        best = max(r.values) if r.values else 0
        won = set()
        for pol, v in zip(r.seats, r.values, strict=True):
            seated[pol] += 1
            total[pol] += v
            if v == best and not r.problem:
                won.add(pol)
        wins.update(won)
    games_with = {pol: sum(1 for r in reports if pol in r.seats) for pol in seated}
    parts = [f"{pol}: wins {wins[pol]}/{games_with[pol]} ({100 * wins[pol] / max(1, games_with[pol]):.0f}%), "
             f"mean value {total[pol] / max(1, seated[pol]):.0f}" for pol in sorted(seated)]
    bad = [r for r in reports if r.problem]
    slow = max((r.slowest for r in reports), default=0.0)
    print(f"selfplay {title} seats {','.join(seats)}: {len(reports)} games, {len(reports) - len(bad)} ended cleanly; "
          + "; ".join(parts) + f"; slowest robot decision {slow * 1000:.0f} ms; {time.perf_counter() - t0:.1f} s")
    return 1 if bad else 0


def write_export(game: Game, folder: str) -> str:
    """Write ``game`` as an 18xx.games export into ``folder``; the file's path."""

    opts = "".join(f"_{o}" for o in sorted(game.optional_rules))
    name = f"{game.title}_{len(game.players)}p_s{game.seed}{opts}"
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name}.json")
    with open(path, "w") as fh:
        json.dump(export_game(game, game_id=f"conductor-{name}"), fh)
    return path


def run_selfplay(title: str, players: int, games: int, seed: int, options: list[str], *,
                 max_actions: int = 20000, verbose: bool = False, export_dir: str | None = None) -> int:
    """Play ``games`` random games; with ``export_dir`` each is written there as an 18xx.games
    export (``<title>_<n>p_s<seed>.json``), finished or not."""
    extras = title_info(title).selfplay  # a title may add its own moves to the random player
    router = default_router()
    t0 = time.perf_counter()
    reports = []
    for i in range(games):
        n = players if players > 0 else 0
        played: list[Game] = []
        if extras is not None:
            r = extras.play_one(n, seed + i, options, max_actions, game_out=played)
        else:
            r = play_one(title, n, seed + i, options, max_actions, router, game_out=played)
        reports.append(r)
        if export_dir is not None and played:
            write_export(played[0], export_dir)
        if verbose or r.problem:
            print(f"game {i + 1} seed {r.seed}: {r.actions} actions, end={r.end_reason}, "
                  f"phases={sorted(r.phases)}, national={r.national_formed}" + (f"  PROBLEM: {r.problem}" if r.problem else ""))
    bad = [r for r in reports if r.problem]
    elapsed = time.perf_counter() - t0
    ends: dict[str, int] = {}
    for r in reports:
        ends[r.end_reason or "unfinished"] = ends.get(r.end_reason or "unfinished", 0) + 1
    ended = ", ".join(f"{n} {why}" for why, n in sorted(ends.items(), key=lambda kv: -kv[1]))
    print(f"selfplay {title}: {len(reports)} games, {len(reports) - len(bad)} ended cleanly (end: {ended}), "
          + "".join(f"{fact}, " for fact in title_facts(title, options, reports))
          + f"{sum(r.actions for r in reports)} actions in {elapsed:.1f} s")
    counts: Counter[str] = Counter()
    for r in reports:
        counts.update(r.counts)
    print(f"corporations closed: {sum(r.closed for r in reports)}; actions by kind: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if bad else 0


def title_facts(title: str, options: list[str], reports: list[GameReport]) -> list[str]:
    """Counts worth printing for this title (a title's self-play module may supply them as
    ``summary_facts``); the default suits the 1856 family."""
    facts = title_info(title).summary_facts(options, reports)
    if facts is not None:
        return facts
    return [f"{sum(r.national_formed for r in reports)} formed the national",
            f"{sum(1 for r in reports if '5' in r.phases)} reached phase 5"]
