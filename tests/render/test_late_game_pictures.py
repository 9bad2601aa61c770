"""The pictures of a late game, as the late-game play-test read them on a phone: the trains in
the open market are on the status picture, closed and unstarted corporations fold into one line
each, the market's tokens are legible, the map's route legend too."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from engine.game import Game
from engine.replay import filter_actions, replay
from render.status_image import market_trains_line, render_status, trains_line
from tests.fixture_util import load_export

NAME = "1856_game_end_bank"  # the national forms at actions 589-595; the bank breaks at 856


@cache
def at(action_id: int) -> Game:
    """The real game after action ``action_id`` (kept: callers must not change it)."""
    export = load_export("1856", NAME)
    export["actions"] = [a for a in filter_actions(export["actions"]) if a["id"] <= action_id]
    return replay(export).game


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_status_shows_the_trains_in_the_open_market_with_their_price(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the national formed it discarded four 4-trains: the picture said only "Depot: 6 ×1
    ($700) · D unlimited ($1100)"; a corporation can buy those 4-trains from the bank."""
    game = at(600)
    assert trains_line(game) == "Depot: 6 ×1 ($700)  ·  D unlimited ($1100)"
    assert market_trains_line(game) == "Open market (discarded trains, sold by the bank): 4-train ×4 ($350)"
    assert market_trains_line(at(580)) is None  # none discarded yet: no line
    drawn = size(render_status(game))
    monkeypatch.setattr("render.status_image.market_trains_line", lambda game: None)
    assert size(render_status(game))[1] == drawn[1] - 28  # the line is drawn under the depot


def test_every_corporation_s_name_contrasts_with_its_colour() -> None:
    """GT's white name on its light green (the data's "white" drawn as the map's cream) had a
    contrast of 1.6: the text is chosen by the fill's luminance when the given one reads badly;
    a corporation's own text colour stays where it reads (CA's white on red)."""
    from engine.titles.registry import new_game
    from render.palette import INK, WHITE, contrast_ratio, corp_colors

    for title in ("1856", "1836Jr56", "1833NE"):
        game = new_game(title, [("1", "A"), ("2", "B"), ("3", "C")])
        for corp in game.corporations.values():
            fill, text = corp_colors(corp)
            assert contrast_ratio(fill, text) >= 3.0, (title, corp.sym, fill, text)
    g1856 = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    assert corp_colors(g1856.corporations["GT"])[1] == INK
    assert corp_colors(g1856.corporations["CA"])[1] == WHITE


def test_the_market_s_tokens_are_large_enough_to_read_on_a_phone() -> None:
    """The tokens were about 60x17 px with 13 px names on a 1432 px picture (a phone shows it
    about 400 px wide): now 64x28 with 22 px names, the picture no wider."""
    from render import market_image
    from render.market_image import render_market

    game = at(600)
    assert market_image.TOKEN_FONT >= 22 and market_image.TOKEN_H >= 30
    w, h = size(render_market(game))
    assert w == 2 * market_image.MARGIN + 20 * market_image.CELL_W == 1432


def test_the_map_s_route_legend_is_legible_on_a_phone() -> None:
    """The legend under a map with routes was 12-15 px text on the 1586 px map (a phone shows it
    about 400 px wide): its labels are now about 30 px, two to a line, and a crop's row labels
    stay out of it."""
    from render.map import routes as routes_
    from render.map.image import render_map
    from tests.render.test_render import LATE_ROUTES, REF, g1856_data, late_game

    game = late_game(g1856_data, REF / "late_1856.json")
    img = Image.open(io.BytesIO(render_map(game, routes=LATE_ROUTES))).convert("L")
    footer = routes_.legend_height(game, LATE_ROUTES, img.width)
    assert footer == 14 + 2 * routes_.LEGEND_LINE  # three routes, two to a line
    top = img.height - footer
    first = img.crop((72, top, routes_.LEGEND_CELL - 20, top + 14 + routes_.LEGEND_LINE))
    inked = [y for y in range(first.height) if min(first.getpixel((x, y)) for x in range(first.width)) < 80]
    assert inked and inked[-1] - inked[0] >= 22, inked  # "5-train, $260: Toronto to Buffalo", 30 px bold


def test_a_long_route_label_goes_on_a_second_line_in_a_narrow_part_of_the_map() -> None:
    """A narrow crop cut "3-train, $50: Niagara Falls to Fort..." at its smallest size: the
    label goes on two lines (the train and revenue, then where it runs), whole, and the legend
    is as much taller; a label that fits stays on one line."""
    from render.map import routes as routes_

    label = "3-train, $50: Niagara Falls to Fort Erie"
    room = routes_._room(420)
    size, lines = routes_._label_lines(label, room)
    assert lines == ["3-train, $50:", "Niagara Falls to Fort Erie"] and size >= routes_.LEGEND_MIN_FONT
    placed, height = routes_._layout([label, "4-train, $100: Welland to Buffalo"], 420)
    assert [p[3] for p in placed][0] == lines and height > 14 + 2 * routes_.LEGEND_LINE
    assert routes_._label_lines("4-train, $100", room) == (routes_.LEGEND_FONT, ["4-train, $100"])
    # a far wider picture keeps it on one line
    assert routes_._label_lines(label, routes_._room(1586))[1] == [label]
