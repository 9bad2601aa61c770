"""Pictures at a turn change: what the bot draws after a move, on real games, as it does on Discord.

    python -m bench.bench_turn [--games 89363,jr56,1833ne] [--last N]

Each game is replayed action by action. After every action that changes whose turn it is (the
bot's rule, :func:`bot.texts.turns.turn_key`), the pictures the bot posts then are drawn with the
bot's own bookkeeping (:class:`bot.discord.posting.PostedPictures`, crops on as on Discord): the
map when the board changed, the market when a share price moved, and the larger part of the map
that changed. When a corporation is to run, the crop of its network with its routes is drawn too
(once per corporation and routes, as the bot does; the routes are the ones the game record ran:
the router's cost is not a picture's). The status picture is drawn only on request
(``/game status``); its cost is shown apart.

Figures per game: CPU time (this process; the machine is shared, so CPU is the fair figure) and
wall time per turn change that posted anything (apart: those that posted the map, with the market
and the crop when they changed too, and those that posted the market only), p50/p95/max.
Target: under 100 ms per turn change (p95 over all games). ``--last N`` draws only the last N
turn changes of each game.

Games: ``89363`` (1856, tests/fixtures/1856/89363.json), ``jr56`` (1836Jr56, the late game
tests/fixtures/1836jr56/1836jr56_game_end_bank.json), ``1833ne`` (a 4-player 1833NE game played by
the random player, seed 7).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.discord.posting import PostedPictures, routes_picture
from bot.service import render_images, warm_pictures
from bot.texts.turns import turn_key
from engine import actions as A
from engine.game import Game
from engine.replay import filter_actions, game_from_export, replay
from render.status_image import render_status
from tests.fixture_util import load_export

TARGET = 0.100


def export_1833ne() -> dict[str, Any]:
    from engine.export import export_game
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Game] = []
    play_one(4, 7, [], game_out=out)
    return export_game(out[0])


GAMES: dict[str, Callable[[], dict[str, Any]]] = {
    "89363": lambda: load_export("1856", "89363"),
    "jr56": lambda: load_export("1836jr56", "1836jr56_game_end_bank"),
    "1833ne": export_1833ne,
}


@dataclass
class Timing:
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)

    def add(self, cpu: float, wall: float, names: list[str]) -> None:
        self.cpu.append(cpu)
        self.wall.append(wall)
        for n in names:
            self.kinds[n] = self.kinds.get(n, 0) + 1

    def line(self, label: str) -> str:
        if not self.cpu:
            return f"  {label}: none"
        return (f"  {label}: {len(self.cpu)}, CPU p50 {ms(pct(self.cpu, 0.5))} p95 {ms(pct(self.cpu, 0.95))} "
                f"max {ms(max(self.cpu))}; wall p50 {ms(pct(self.wall, 0.5))} p95 {ms(pct(self.wall, 0.95))} "
                f"max {ms(max(self.wall))}; pictures {self.kinds}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def positions(export: dict[str, Any]) -> Iterator[tuple[Game, bool, list[dict[str, Any]] | None]]:
    """After every action: the game, whether the turn changed, and the routes the next action runs
    when it is a corporation's run (None otherwise)."""
    game = game_from_export(export)
    game.live = False
    raws = [raw for raw in filter_actions(export["actions"]) if raw.get("type") != "end_game"]
    for i, raw in enumerate(raws):
        before = turn_key(game)
        game.process(A.Action.from_dict(raw), safe=False)
        if game.finished:
            return
        nxt = raws[i + 1] if i + 1 < len(raws) else None
        routes = nxt.get("routes") if nxt and nxt.get("type") == "run_routes" else None
        yield game, turn_key(game) != before, routes


def timed(into: tuple[Timing, Timing], fn: Callable[..., list[str]], *args: Any) -> None:
    """Time ``fn``: into the first timing when it drew the map, the second when it drew others."""
    cpu, wall = time.process_time(), time.perf_counter()
    names = fn(*args)
    if names:
        into[0 if "map.png" in names else 1].add(time.process_time() - cpu, time.perf_counter() - wall, names)


def bench_game(name: str, last: int) -> tuple[Timing, Timing, Timing, int]:
    """Turn-change pictures and route pictures of one game (the last ``last`` turn changes only
    when ``last`` > 0; the earlier ones still update what counts as posted)."""
    export = GAMES[name]()
    posted = PostedPictures()
    posted.crops = True
    count = sum(1 for _ in _turn_changes(export))
    skip = max(0, count - last) if last else 0
    maps, markets, runs = Timing(), Timing(), Timing()
    for n, (game, changed, routes) in enumerate(_turn_changes(export)):  # one game, changed in place
        draw = n >= skip
        if routes and draw:  # first, as the bot: the routes picture may stand for the map
            timed((runs, runs), route_pictures, posted, game, game.acting()[0], routes)
        if changed:
            timed((maps, markets), turn_pictures, posted, game, draw)
    return maps, markets, runs, count


def _turn_changes(export: dict[str, Any]) -> Iterator[tuple[Game, bool, list[dict[str, Any]] | None]]:
    for game, changed, routes in positions(export):
        if changed or routes:
            yield game, changed, routes


def turn_pictures(posted: PostedPictures, game: Game, draw: bool) -> list[str]:
    """What ``GameService._settle`` draws at a turn change (one game, id 1)."""
    which = posted.changed(1, game)
    if not draw:
        posted.changes_picture(1, game)  # forget the changed hexes, as posting would
        return []
    files = render_images(game, which) if which else []
    files[:0] = posted.changes_picture(1, game)
    return [f.filename for f in files]


def route_pictures(posted: PostedPictures, game: Game, corp: str, routes: list[dict[str, Any]]) -> list[str]:
    """What ``GameService._show_routes`` draws when a corporation is to run (new routes only)."""
    if not posted.first_time(1, "routes", (corp, tuple(map(str, routes)))):
        return []
    hexes, covers = posted.routes_area(1, game, corp, routes)
    files = routes_picture(game, corp, hexes, routes)
    if files and covers:
        posted.mark(1, game, ("map",))
    return [f.filename for f in files]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument("--last", type=int, default=0, help="draw only the last N turn changes (0: all)")
    args = parser.parse_args()
    warm_pictures()  # what the Discord bot draws at start-up: fonts loaded, text caches warm
    all_turns: list[float] = []
    for name in args.games.split(","):
        maps, markets, runs, count = bench_game(name, args.last)
        print(f"{name}: {count} positions with a turn change or a run")
        print(maps.line("turn changes posting the map"))
        print(markets.line("turn changes posting the market only"))
        print(runs.line("runs (routes crop)"))
        all_turns += maps.cpu + markets.cpu
    export = GAMES["89363"]()
    late = replay({**export, "actions": [a for a in export["actions"] if a.get("type") != "end_game"]}).game
    render_status(late)
    cpu = time.process_time()
    for _ in range(5):
        render_status(late)
    print(f"status picture (on request only): CPU {ms((time.process_time() - cpu) / 5)} each")
    ok = pct(all_turns, 0.95) < TARGET
    print(f"all games: CPU p50 {ms(pct(all_turns, 0.5))}, p95 {ms(pct(all_turns, 0.95))}, max {ms(max(all_turns))} "
          f"per turn change that posted (target p95 < {ms(TARGET)}: {'met' if ok else 'NOT met'})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
