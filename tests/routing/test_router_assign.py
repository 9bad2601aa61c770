"""Combining listed routes for the last two trains of one kind (engine.routing.assign.Assigner,
its shortcut ``_last_pair``, issue #24): at every position of four games where a corporation
runs two 4-, 5-, 6-, 8- or D-trains (with up to 4,000 routes), the router's total is the best of
every pair of listed routes sharing no track (checked one pair after another), and its routes
are legal. The bit sets of candidates per track bit (``bit_users``) are checked bit by bit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import actions as A
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.routing import router as R
from engine.routing.long import bit_users
from tests.fixture_util import load_export

# (fixture folder, game): games where corporations run two trains of one kind: 4+4 and 5+5 (1856),
# 5+5, 6+6 and D+D (1836Jr56), 8+8 (1836Jr56), D+D (1856)
GAMES = [("generated/1856", "1856_p3_s412"),
         ("generated/1836jr56", "1836jr56_p3_s412_diesel_variant"),
         ("generated/1836jr56", "1836jr56_p3_s403"),
         ("generated/1856", "1856_p3_s403_alternate_destinations_unlimited_bonus_tokens")]


def _best_pair(game: Game, sym: str) -> int | None:
    """The best total of two routes sharing no track (or one route), pair by pair (None: too
    many routes to check so)."""
    trains = R.runnable(game, sym)
    graph = game.route_graph(sym)
    routes = R.enumerate_routes(game, sym, graph, R._max_stops(trains, graph))
    if len(routes) > 4000:
        return None
    reach = min(R.reach(t) for t in trains)
    routes = sorted((c for c in routes if len(c.stops) <= reach), key=lambda c: -c.revenue)
    best = routes[0].revenue if routes else 0
    for i, a in enumerate(routes):
        if 2 * a.revenue <= best:
            break
        for b in routes[i + 1:]:
            if a.revenue + b.revenue <= best:
                break
            if not a.mask & b.mask:
                best = a.revenue + b.revenue
                break
    return best


@pytest.mark.parametrize(("folder", "stem"), GAMES)
def test_two_trains_of_one_kind_get_the_best_pair_of_listed_routes(folder: str, stem: str) -> None:
    export = load_export(folder, stem)
    game = game_from_export(export)
    checked = 0
    for raw in filter_actions(export["actions"]):
        names = [t.name for t in game.runnable_trains(game.corp(str(raw["entity"])))] \
            if raw.get("type") == "run_routes" else []
        if len(names) == 2 and names[0] == names[1]:
            sym = str(raw["entity"])
            best = _best_pair(game, sym)
            if best is not None:
                sol = R.best_routes(game, sym, time_budget=60.0)
                assert sol.optimal
                assert sol.total == best, (raw["id"], names)
                assert sum(r["revenue"] for r in sol.routes) == sol.total
                assert R.check_routes(game, sym, sol.routes) is None
                checked += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert checked >= 5


@given(st.lists(st.integers(min_value=0, max_value=(1 << 70) - 1), max_size=40), st.integers(min_value=1, max_value=9))
def test_bit_users_are_the_masks_having_each_bit(masks: list[int], chunk: int) -> None:
    got = bit_users(masks, chunk)
    width = max(masks, default=0).bit_length()
    expected = {b: sum(1 << j for j, m in enumerate(masks) if m >> b & 1) for b in range(width)}
    assert got == {b: users for b, users in expected.items() if users}
