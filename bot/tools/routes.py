"""``conductor routes FILE.json[.gz]``: replay an 18xx.games export and, before every ``run_routes``
action, compute the best routes for that corporation and compare with what the player ran."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.tools.fidelity import read_export
from engine import actions as A
from engine.errors import GameError
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.routing.router import RouteSolution, best_routes, check_routes


@dataclass
class RouteCase:
    """One ``run_routes`` action of a replay and what the router found before it."""

    action_id: Any
    corp: str
    recorded: int
    solution: RouteSolution
    engine_error: str | None  # our engine's objection to the router's routes (None: accepted)
    check_error: str | None  # check_routes' objection (None: legal)

    @property
    def verdict(self) -> str:
        if self.solution.total > self.recorded:
            return "better"
        if self.solution.total < self.recorded:
            return "worse"
        return "equal"


def route_cases(export: dict[str, Any], *, time_budget: float = 1.0,
                status: dict[str, Any] | None = None) -> Iterator[tuple[Game, RouteCase]]:
    """Replay ``export`` action by action; yield a case before each ``run_routes`` action.
    Stops at the first action our engine rejects (or fails on); ``status`` then gets its
    ``stopped_at`` id and the ``error``."""
    game = game_from_export(export)
    for raw in filter_actions(export.get("actions", [])):
        if raw.get("type") == "run_routes":
            sym = str(raw.get("entity"))
            recorded = sum(int(r.get("revenue", 0)) for r in raw.get("routes") or [])
            sol = best_routes(game, sym, time_budget=time_budget)
            yield game, RouteCase(raw.get("id"), sym, recorded, sol, _engine_error(game, sym, sol),
                                  check_routes(game, sym, sol.routes))
        try:
            game.process(A.Action.from_dict(raw), safe=False)
        except Exception as exc:  # noqa: BLE001 - the replay ends here, whatever the engine's reason
            if status is not None:
                status.update(stopped_at=raw.get("id"), error=f"{type(exc).__name__}: {exc}")
            return


def _engine_error(game: Game, sym: str, sol: RouteSolution) -> str | None:
    if not sol.routes:
        return None
    action = A.RunRoutes(entity=sym, entity_type="corporation", routes=tuple(sol.routes))
    try:
        game.run_routes(game.corp(sym), action)
    except GameError as exc:
        return str(exc)
    return None


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100.0 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summarize(cases: list[RouteCase]) -> dict[str, Any]:
    times = [c.solution.elapsed_ms for c in cases]
    return {
        "cases": len(cases),
        "optimal_at_least_recorded": sum(1 for c in cases if c.solution.optimal and c.verdict != "worse"),
        "better_than_recorded": sum(1 for c in cases if c.verdict == "better"),
        "worse_than_recorded": sum(1 for c in cases if c.verdict == "worse"),
        "p50_ms": round(statistics.median(times), 2) if times else 0.0,
        "p95_ms": round(percentile(times, 95), 2),
        "max_ms": round(max(times), 2) if times else 0.0,
        "unproven": sum(1 for c in cases if not c.solution.optimal),
    }


def main_routes(path: str, *, time_budget: float = 1.0) -> int:
    """Print one line per run_routes case and a JSON summary; 0 when no case is worse than recorded."""
    export = read_export(Path(path))
    cases: list[RouteCase] = []
    status: dict[str, Any] = {}
    for _game, case in route_cases(export, time_budget=time_budget, status=status):
        cases.append(case)
        sol = case.solution
        runs = "; ".join(f"{r['train']} {r['revenue_str']} {r['revenue']}" for r in sol.routes) or "no route"
        flags = "" if sol.optimal else f" [not proven optimal: {sol.stopped}]"
        problems = "".join(f" [{e}]" for e in (case.engine_error, case.check_error) if e)
        print(f"action {case.action_id} {case.corp}: recorded {case.recorded}, best {sol.total} "
              f"({case.verdict}, {sol.elapsed_ms:.1f} ms, {sol.candidates} routes): {runs}{flags}{problems}")
    if status:
        print(f"replay stopped at action {status['stopped_at']}: {status['error']}", file=sys.stderr)
    summary = summarize(cases)
    print(json.dumps(summary))
    return 0 if summary["worse_than_recorded"] == 0 else 1
