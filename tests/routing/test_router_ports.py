"""The router's bounds where 1836Jr56's ports pay (engine/routing/long.py ``stop_bounds``): a port
earns its value once per station of the corporation on the route, so the bound of a route
through a port counts each station that much more. On positions of the generated 1836Jr56
games whose long searches ran out of time (issue #24): no route earns more than its stops'
bounds, and the bounded listing (a lone train, one train reaching further than the others)
finds the best total an exhaustive listing finds."""

from __future__ import annotations

import pytest

from engine.entities import Train
from engine.game import Game
from engine.routing import router as R
from engine.routing.long import stop_bounds
from tests.fixture_util import before_run

TITLE = "generated/1836jr56"
# (game, run_routes action id): a corporation reaching all three ports or two, on a map small
# enough to list every route of an unlimited train within seconds
POSITIONS = [("1836jr56_p3_s205_diesel_variant", 722), ("1836jr56_p2_s905", 773),
             ("1836jr56_p2_s905", 797), ("1836jr56_p2_s905", 850)]
D = 999  # a D-train's reach (unlimited)


def _position(stem: str, action_id: int) -> tuple[Game, str]:
    return before_run(TITLE, stem, action_id)


def _trains(reaches: tuple[int, ...]) -> list[Train]:
    """Trains reaching that many stops (only a train's reach and id matter to the router)."""
    return [Train(f"T{i}", str(d), d, 0) for i, d in enumerate(reaches)]


@pytest.mark.parametrize(("stem", "action_id"), POSITIONS)
def test_no_route_earns_more_than_its_stops_bounds(stem: str, action_id: int) -> None:
    game, sym = _position(stem, action_id)
    graph = game.route_graph(sym)
    bounds = stop_bounds(game, game.corp(sym), graph)
    assert bounds is not None
    plain, via_port = bounds
    ports = {i for i, ref in enumerate(graph.stops) if ref[0] in game.rules.port_offboard_hexes}
    assert ports and any(graph.reachable[i] for i in ports)
    routes = R.enumerate_routes(game, sym, graph, len(graph.stops))
    through_port = [c for c in routes if ports & set(c.stops)]
    assert through_port and len(through_port) < len(routes)
    for c in routes:
        assert c.revenue <= sum(plain[i] for i in c.stops), c.stops
        if ports & set(c.stops):
            assert c.revenue <= sum(via_port[i] for i in c.stops), c.stops
    # the bound through a port is tight for some route: each station counted once more
    assert any(c.revenue == sum(via_port[i] for i in c.stops) for c in through_port)


@pytest.mark.parametrize(("stem", "action_id"), POSITIONS)
@pytest.mark.parametrize("reaches", [(D,), (8,), (6,), (D, 6, 5), (8, 5), (D, 4)])
def test_bounded_listing_finds_the_exhaustive_best_total(
        stem: str, action_id: int, reaches: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    game, sym = _position(stem, action_id)
    trains = _trains(reaches)
    fast = R.best_routes(game, sym, time_budget=60.0, trains=trains)
    monkeypatch.setattr(R, "_split_listing", lambda *args: None)
    full = R.best_routes(game, sym, time_budget=60.0, trains=trains)
    assert fast.optimal and full.optimal
    assert fast.total == full.total
    assert fast.candidates <= full.candidates
    assert sum(r["revenue"] for r in fast.routes) == fast.total
