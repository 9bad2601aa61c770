"""Time the route optimizer (run on demand: python bench/bench_router.py [--dense N] [--ne N]).

Before every ``run_routes`` action of every fixture that replays, :func:`engine.router.best_routes`
runs once; per fixture and overall we print cases, p50/p95/max milliseconds and how many were
proven optimal.  Targets (issue #7): p95 < 100 ms, max < 1 s, single-threaded.

``--dense N`` also times N synthetic late-game positions (:func:`dense_game`): the 1856 map
covered with random green/brown track, brown cities, phase D, several stations and two
D-trains: far more routes than real games reach, to see how the search scales.

``--ne N`` plays N random 1833NE games (3, 4, 5 players; standard and Takeover in turn; no
real exports exist) and times every route choice, with route extension for cross bonuses.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.game import Game  # noqa: E402
from engine.route_cli import percentile, route_cases  # noqa: E402
from engine.router import best_routes  # noqa: E402
from engine.titles.registry import new_game  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"

_CITY_TILES = ["63", "14", "15", "57", "6", "5"]
_TRACK_TILES = ["39", "40", "41", "42", "43", "44", "45", "46", "47", "70", "23", "24", "25", "26", "27",
                "28", "29", "7", "8", "9"]
_TOWN_TILES = ["3", "4", "58"]


def dense_game(seed: int = 1, *, title: str = "1856", stations: int = 4, blocked: int = 6,
               trains: tuple[str, ...] | None = None,
               sym: str | None = None) -> tuple[Game, str]:
    """A synthetic late-game position: every plain, city and town hex with a single-node tile
    gets a random tile (brown cities and brown track mostly, unlimited supply) in the rotation
    that joins most neighbours (no rule checks), the last phase, ``stations``
    stations of one corporation and ``trains`` (train names; default two of the longest) for it."""
    rng = random.Random(seed)
    game = new_game(title, [("1", "A"), ("2", "B"), ("3", "C")])
    board = game.board
    game.phase_index = len(game.phases) - 1
    todo = []
    for hid in sorted(board.hexes):
        h = board.hexes[hid]
        if h.color != "white" or h.laid:
            continue
        kinds = [n.kind for n in h.tile.nodes]
        if kinds == ["city"]:
            todo.append((hid, _CITY_TILES))
        elif kinds == ["town"]:
            todo.append((hid, _TOWN_TILES))
        elif not kinds:
            todo.append((hid, _TRACK_TILES))
    rng.shuffle(todo)
    for name in {*_CITY_TILES, *_TRACK_TILES, *_TOWN_TILES}:  # as many copies as the map can take
        have = board.supply.setdefault(name, [])
        have.extend(f"{name}-{i}" for i in range(100, 100 + len(todo)))
    pending = {hid for hid, _ in todo}
    for hid, names in todo:
        pending.discard(hid)
        name = names[0] if rng.random() < 0.6 else rng.choice(names)
        tile = board.tile_for(name)
        best, best_score = 0, -99.0
        for rot in range(6):
            score = rng.random() * 0.1
            for edge in tile.with_rotation(rot).exits:
                other = board.hexes[hid].neighbors.get(edge)
                if other is None:
                    score -= 1
                elif other in pending:
                    score += 0.5
                elif (edge + 3) % 6 in board.hexes[other].tile.exits:
                    score += 1
                else:
                    score -= 0.5
            if score > best_score:
                best, best_score = rot, score
        board.lay(hid, board.supply[name][0], best)
    corp = game.corporations[sym] if sym else next(iter(game.corporations.values()))
    cities = [(h.id, n.index) for h in board.hexes.values() for n in h.tile.cities
              if h.laid and h.tile.paths]
    rng.shuffle(cities)
    for hid, ci in cities[:stations]:
        board.place_token(hid, ci, corp.sym)
    # other corporations fill a few cities (blocking them for ``corp``)
    others = [c for c in game.corporations.values() if c.sym != corp.sym]
    for hid, ci in cities[stations:stations + blocked]:
        for other in others[:2]:
            try:
                board.place_token(hid, ci, other.sym)
            except Exception:  # noqa: BLE001 - a full city is fine
                break
    if trains is None:  # two of the longest trains
        top = max(game.trains.values(), key=lambda t: t.distance).name
        trains = (top, top)
    for name in trains:
        train = next(t for t in game.trains.values() if t.name == name and t.owner == "depot")
        game.give_train(train, corp.sym)
    return game, corp.sym


def bench_fixtures(time_budget: float) -> list[float]:
    every: list[float] = []
    for path in sorted(FIXTURES.glob("*/*.json")):
        export: dict[str, Any] = json.loads(path.read_text())
        times: list[float] = []
        optimal = 0
        for _game, case in route_cases(export, time_budget=time_budget):
            times.append(case.solution.elapsed_ms)
            optimal += case.solution.optimal
        every.extend(times)
        if times:
            print(f"{path.parent.name}/{path.stem:28s} {len(times):3d} cases  p50 {percentile(times, 50):6.2f} ms"
                  f"  p95 {percentile(times, 95):6.2f} ms  max {max(times):6.2f} ms  optimal {optimal}/{len(times)}")
    return every


def bench_dense(n: int, time_budget: float) -> list[float]:
    times: list[float] = []
    for seed in range(1, n + 1):
        game, sym = dense_game(seed)
        sol = best_routes(game, sym, time_budget=time_budget)
        times.append(sol.elapsed_ms)
        print(f"dense seed {seed:3d}: {sol.candidates:7d} routes, total {sol.total:5d}, "
              f"{sol.elapsed_ms:8.1f} ms, optimal {sol.optimal}")
    return times


def bench_1833ne(n: int, time_budget: float) -> list[float]:
    from engine.titles.g1833ne.game import G1833NE
    from engine.titles.g1833ne.selfplay import play_one

    times: list[float] = []
    stats = {"optimal": 0, "extended": 0}
    original = G1833NE.best_route_solution

    def timed(self: G1833NE, sym: str, budget: float = time_budget) -> Any:
        sol = original(self, sym, time_budget)
        times.append(sol.elapsed_ms)
        stats["optimal"] += sol.optimal
        stats["extended"] += any(r.get("extension") for r in sol.routes)
        return sol

    G1833NE.best_route_solution = timed  # type: ignore[method-assign]
    try:
        for seed in range(1, n + 1):
            players = 3 + seed % 3
            report = play_one(players, seed, ["takeover_game"] if seed % 2 else [], 6000)
            print(f"1833NE seed {seed:3d} ({players} players): {report.problem or 'clean'}")
    finally:
        G1833NE.best_route_solution = original  # type: ignore[method-assign]
    print(f"1833NE: {len(times)} route choices, {stats['optimal']} optimal, {stats['extended']} with an extension")
    return times


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--budget", type=float, default=1.0, help="time budget per case, seconds")
    ap.add_argument("--dense", type=int, default=0, help="also time this many synthetic dense positions")
    ap.add_argument("--ne", type=int, default=0, help="also time every route choice of this many 1833NE games")
    args = ap.parse_args(argv)
    every = bench_fixtures(args.budget)
    if every:
        print(f"{'all fixtures':35s} {len(every):3d} cases  p50 {percentile(every, 50):6.2f} ms"
              f"  p95 {percentile(every, 95):6.2f} ms  max {max(every):6.2f} ms")
    if args.dense:
        dense = bench_dense(args.dense, args.budget)
        print(f"{'dense':35s} {len(dense):3d} cases  p50 {percentile(dense, 50):6.2f} ms"
              f"  p95 {percentile(dense, 95):6.2f} ms  max {max(dense):6.2f} ms")
    if args.ne:
        ne = bench_1833ne(args.ne, args.budget)
        print(f"{'1833NE':35s} {len(ne):3d} cases  p50 {percentile(ne, 50):6.2f} ms"
              f"  p95 {percentile(ne, 95):6.2f} ms  max {max(ne):6.2f} ms")


if __name__ == "__main__":
    main()
