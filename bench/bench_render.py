"""Benchmark of the renderers: mean / max milliseconds over repeated runs.

    python -m bench.bench_render [runs]

Renders the map (with and without routes), the stock market and the status of a fresh
1856 game and of a late-game 1856 state (tests/render_ref/late_1856.json).  Targets on
the 2-core reference machine: 1856 map < 300 ms, market < 100 ms.  The first render of a
process is reported apart: it loads fonts and fills the text cache. Times are wall clock, with
the CPU time (the fair figure on a shared machine) last. Each drawing starts from nothing kept
(:mod:`render.map.kept`'s maps, the market's grid): a turn change's pictures, drawn again only
where they changed, are measured by ``bench.bench_turn``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.game import Game
from engine.titles.g1856 import data as g1856_data
from render.demo import late_game, make_game
from render.map import kept
from render.map.image import render_map
from render.market_image import _grid, render_market
from render.status_image import render_status

ROOT = Path(__file__).resolve().parent.parent
ROUTES = [
    {"train": "5-0", "revenue": 260,
     "connections": [["N11", "M12", "L13"], ["L13", "L15"], ["L15", "M16", "N17"], ["N17", "O16"], ["O16", "P17"]]},
    {"train": "3-1", "revenue": 120, "connections": [["F15", "E14", "D15", "C14"], ["C14", "B13"]]},
]


def bench(name: str, fn: Callable[[], bytes], runs: int) -> None:
    start = time.perf_counter()
    fn()
    first = (time.perf_counter() - start) * 1000
    times, cpu = [], []
    for _ in range(runs):
        start, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    print(f"{name:<28} first {first:7.1f} ms   mean {statistics.mean(times):7.1f} ms   max {max(times):7.1f} ms"
          f"   CPU mean {statistics.mean(cpu):6.1f} ms")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    fresh = make_game(g1856_data, 4)
    late = late_game(g1856_data, ROOT / "tests" / "render_ref" / "late_1856.json")
    print(f"{runs} runs each")
    for label, game in (("fresh 1856", fresh), ("late 1856", late)):
        bench(f"{label} map", lambda g=game: _whole(g), runs)
        bench(f"{label} market", lambda g=game: _market(g), runs)
        bench(f"{label} status", lambda g=game: render_status(g), runs)
    bench("late 1856 map + routes", lambda: render_map(late, routes=ROUTES), runs)


def _whole(game: Game) -> bytes:
    kept.clear()
    return render_map(game)


def _market(game: Game) -> bytes:
    _grid.cache_clear()
    return render_market(game)


if __name__ == "__main__":
    main()
