"""Pictures drawn from what was kept are, byte for byte, the pictures drawn from nothing: the whole
map drawn again only where it changed (:mod:`render.map.kept`), through real games (tiles, tokens,
phases, closed privates, 1856's national, 1833NE's ports and ferries), two games of a title drawn in
turn, the kept maps bounded; the stock market drawn over its kept grid."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import actions as A
from engine.export import export_game
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.titles.g1833ne.selfplay import play_one
from render.map import kept
from render.map.image import draw_map, render_map
from render.map.layout import map_frame
from render.market_image import _grid, render_market
from tests.fixture_util import load_export

CHECKS = 24  # map changes compared per game (spread over the game)


def drawn_whole(game: Game) -> bytes:
    """The map drawn whole, every hex (no kept map)."""
    board = game.board
    return draw_map(game, map_frame(list(board.hexes), board.layout, game.AXES), 0)


def replayed(export: dict[str, Any]) -> Iterator[Game]:
    """The game after each of its actions (one game, changed in place)."""
    game = game_from_export(export)
    for raw in filter_actions(export["actions"]):
        if raw.get("type") == "end_game":
            return
        game.process(A.Action.from_dict(raw), safe=False)
        yield game


def changes(export: dict[str, Any]) -> Iterator[Game]:
    """The game at about :data:`CHECKS` positions after its map changed, spread over the game."""
    seen = [kept.prints_of(game) for game in replayed(export)]
    changed = [i for i in range(1, len(seen)) if seen[i] != seen[i - 1]]
    step = max(1, len(changed) // CHECKS)
    wanted = set(changed[step - 1::step])
    for i, game in enumerate(replayed(export)):
        if i in wanted:
            yield game


def export_1833ne(seed: int) -> dict[str, Any]:
    out: list[Game] = []
    play_one(4, seed, [], game_out=out)
    return export_game(out[0])


@pytest.fixture(autouse=True)
def _no_kept_maps() -> Iterator[None]:
    kept.clear()
    yield
    kept.clear()


@pytest.mark.parametrize("source", ["1856_game_end_bank", "1836jr56_game_end_bank", "1833ne"])
def test_a_map_drawn_again_where_it_changed_is_the_map_drawn_whole(source: str) -> None:
    if source == "1833ne":
        export = export_1833ne(7)
    else:
        export = load_export("1856" if source.startswith("1856") else "1836jr56", source)
    compared = redrawn = 0
    for game in changes(export):
        before = list(kept._KEPT)
        picture = render_map(game)
        redrawn += bool(before and kept._KEPT[0].image is before[0].image)  # drawn onto the kept map
        assert picture == drawn_whole(game), f"{source}: {len(game.actions)} actions"
        compared += 1
    assert compared >= CHECKS // 2
    assert redrawn >= compared // 2  # most maps were drawn where they changed only


def test_two_games_of_a_title_drawn_in_turn_each_get_their_own_map() -> None:
    """Two games of one title drawn in turn (each map may start from the other game's)."""
    games = [replayed(export_1833ne(seed)) for seed in (7, 8)]
    for n, pair in enumerate(zip(*games, strict=False)):
        if n % 40 != 39:
            continue
        for game in pair:
            assert render_map(game) == drawn_whole(game)
        assert len(kept._KEPT) <= kept.KEPT


def test_kept_maps_are_bounded_and_a_cleared_cache_draws_the_same() -> None:
    export = load_export("1856", "89363")
    pictures = []
    for n, game in enumerate(replayed(export)):
        if n % 30 == 29:
            pictures.append(render_map(game))
            assert len(kept._KEPT) <= kept.KEPT
            assert render_map(game) == pictures[-1]  # nothing changed: the kept picture
            kept.clear()
            assert render_map(game) == pictures[-1]
    assert len(pictures) >= 3


@pytest.mark.parametrize("source", ["1856_game_end_bank", "1833ne"])
def test_a_market_drawn_over_its_kept_grid_is_the_market_drawn_from_nothing(source: str) -> None:
    export = export_1833ne(7) if source == "1833ne" else load_export("1856", source)
    drawn: set[bytes] = set()
    from_kept = 0
    for n, game in enumerate(replayed(export)):
        if n % 25 == 0:
            render_market(game)  # kept: the grid of 24 actions before
        if n % 25 != 24:
            continue
        hits = _grid.cache_info().hits
        kept_grid = render_market(game)
        from_kept += _grid.cache_info().hits > hits
        _grid.cache_clear()
        assert render_market(game) == kept_grid, f"{source}: {len(game.actions)} actions"
        drawn.add(kept_grid)
        assert _grid.cache_info().currsize <= 4
    assert len(drawn) > 5  # the prices moved: new pictures, not a kept one
    assert from_kept > len(drawn) // 2
