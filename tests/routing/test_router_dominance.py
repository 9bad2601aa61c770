"""The router leaves out dominated routes (a route over the same stops as another on all of its
track and more; a partial long route so dominated is not followed) and pauses the garbage
collector while it searches: the best totals stay those of a search without either shortcut,
the collector is left as it was found, and listing routes leaves it nothing to collect."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from engine.game import Game
from engine.routing import router as R
from tests.routing.test_router_long import CORP, _brown_map


def _without_shortcuts(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    """The title seen as one with route extension (gaining nothing): every route is listed, none
    is left out as dominated, and long routes are not bounded."""
    monkeypatch.setattr(type(game), "extends_routes", property(lambda self: True))


@pytest.mark.parametrize(("seed", "share"), [(2, 1.0), (5, 0.9), (6, 1.0)])
@pytest.mark.parametrize("trains", [("D", "D"), ("D", "6", "5"), ("6", "5", "4")])
def test_leaving_out_dominated_routes_keeps_the_best_total(
        seed: int, share: float, trains: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    game = _brown_map(seed, trains, stations=5, share=share)
    fast = R.best_routes(game, CORP, time_budget=60.0)
    _without_shortcuts(monkeypatch, game)
    full = R.best_routes(game, CORP, time_budget=60.0)
    assert fast.optimal and full.optimal
    assert fast.total == full.total
    assert fast.candidates <= full.candidates
    assert R.check_routes(game, CORP, fast.routes) is None


def test_no_listed_route_runs_on_the_track_of_an_earlier_one_over_the_same_stops() -> None:
    game = _brown_map(6, ("D", "D"), stations=5, share=1.0)
    graph = game.route_graph(CORP)
    seen: dict[frozenset[int], list[int]] = {}
    cands = R.enumerate_routes(game, CORP, graph, len(graph.stops))
    assert cands
    for cand in cands:  # (same stops: same revenue, so the sort keeps the order they were listed in)
        earlier = seen.setdefault(frozenset(cand.stops), [])
        assert not any(m & cand.mask == m for m in earlier)
        earlier.append(cand.mask)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_search_leaves_the_garbage_collector_as_it_was(enabled: bool) -> None:
    game = _brown_map(1, ("D", "6"), share=0.8)
    was = gc.isenabled()
    try:
        if enabled:
            gc.enable()
        else:
            gc.disable()
        R.best_routes(game, CORP, time_budget=60.0)
        assert gc.isenabled() is enabled
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


@pytest.mark.parametrize("trains", [("D", "6", "5"), ("6", "5")])
def test_listing_routes_leaves_nothing_for_the_garbage_collector(
        trains: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    # (the searches run with the collector paused: what they leave in reference cycles stays
    # until a later collection walks it; listing, with or without the long routes' search, frees
    # all it made as it returns)
    game = _brown_map(2, trains, share=0.8)
    listings: list[int] = []
    listing = R.enumerate_routes

    def counted(*args: Any, **kwargs: Any) -> list[R.Candidate]:
        gc.collect()
        got = listing(*args, **kwargs)
        listings.append(gc.collect())
        return got

    monkeypatch.setattr(R, "enumerate_routes", counted)
    was = gc.isenabled()
    gc.disable()
    try:
        R.best_routes(game, CORP, time_budget=60.0)
    finally:
        if was:
            gc.enable()
    assert listings and listings == [0] * len(listings)
