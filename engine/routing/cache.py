"""Best routes computed once per position and reused (issue #24): the route suggestion, the
button that runs it and autocomplete ask for the same position; late in a game a corporation often
runs the same network at several positions."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..beside import Beside
from .graph import network_key
from .router import RouteSolution, best_routes, reach, runnable

if TYPE_CHECKING:
    from ..game import Game
    from ..map.board import Board

# solved positions per board (cached_best_routes)
_SOLVED: Beside[Board, dict[tuple[Any, ...], tuple[float, RouteSolution]]] = Beside(dict)
# solved networks per board (_network_best_routes): key -> budget, trains, answer
_NETWORKS: Beside[Board, dict[tuple[Any, ...], tuple[float, tuple[str, ...], RouteSolution]]] = Beside(dict)


def cached_best_routes(game: Game, corp_sym: str, *, time_budget: float = 1.0) -> RouteSolution:
    """:func:`best_routes`, computed once per position and corporation and reused (the route
    suggestion, the button that runs it and autocomplete ask for the same position).

    Answers are kept beside the board (never saved with the game; a rolled-back game has a new
    board and starts without them), keyed by the board's version (every change of the map), the
    number of actions processed and the phase (any other change of the game) and the
    corporation's trains. A result not proven optimal is reused only for a budget no larger
    than the one it had. Each call gets its own copy of the routes. A position not asked before
    is answered without a search when the corporation's network was solved at an earlier
    position (:func:`_network_best_routes`)."""
    key = _position_key(game, corp_sym)
    cache = _SOLVED.of(game.board)
    kept = cache.get(key)
    if kept is None or not (kept[1].optimal or kept[0] >= time_budget):
        if len(cache) > 64:
            cache.clear()
        kept = cache[key] = (time_budget, _network_best_routes(game, corp_sym, time_budget))
    sol = kept[1]
    return RouteSolution(sol.corp, [dict(r) for r in sol.routes], sol.total, sol.optimal, sol.elapsed_ms,
                         sol.candidates, sol.stopped)


def _network_best_routes(game: Game, corp_sym: str, time_budget: float) -> RouteSolution:
    """:func:`best_routes`, reused from an earlier position of the game where the corporation had
    the same network (:func:`engine.routing.graph.network_key`: nothing it can reach changed), the
    same kinds of train and the same prices (``game.route_price_key``): late in a game a
    corporation often runs the same network several times while the map changes elsewhere. The
    routes are renamed for the trains of now (the same kinds, in the same order); ``elapsed_ms``
    is this call's. A title without a price key is searched every time."""
    began = time.perf_counter()
    trains = runnable(game, corp_sym)
    price_key = game.route_price_key(game.corp(corp_sym)) if trains else None
    if price_key is None:
        return best_routes(game, corp_sym, time_budget=time_budget)
    graph = game.route_graph(corp_sym)
    key = (corp_sym, price_key, tuple((t.name, reach(t)) for t in trains), network_key(graph))
    ids = tuple(t.id for t in trains)
    memo = _NETWORKS.of(game.board)
    kept = memo.get(key)
    if kept is None or not (kept[2].optimal or kept[0] >= time_budget):
        if len(memo) > 256:
            memo.clear()
        kept = memo[key] = (time_budget, ids, best_routes(game, corp_sym, time_budget=time_budget,
                                                           trains=trains, graph=graph))
        return kept[2]
    _, then, sol = kept
    rename = dict(zip(then, ids, strict=True))
    return RouteSolution(sol.corp, [{**r, "train": rename[r["train"]]} for r in sol.routes], sol.total,
                         sol.optimal, (time.perf_counter() - began) * 1000.0, sol.candidates, sol.stopped)


def known_best_routes(game: Game, corp_sym: str) -> RouteSolution | None:
    """What :func:`cached_best_routes` found for this position, without searching (None when
    it has not been asked yet): for callers that must not wait, like an event loop."""
    kept = (_SOLVED.get(game.board) or {}).get(_position_key(game, corp_sym))
    if kept is None:
        return None
    sol = kept[1]
    return RouteSolution(sol.corp, [dict(r) for r in sol.routes], sol.total, sol.optimal, sol.elapsed_ms,
                         sol.candidates, sol.stopped)


def _position_key(game: Game, corp_sym: str) -> tuple[Any, ...]:
    return (corp_sym, game.board.version, len(game.action_log), game.phase_index,
            tuple(t.id for t in game.runnable_trains(game.corp(corp_sym))))
