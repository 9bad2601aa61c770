"""Where a laid tile's coordinate and number ("L15 · 59") go on the map of real games: clear of
the cities and the name on tiles with two cities (a play-test found it over a city), on one
line in a corner where the hex has room."""

from __future__ import annotations

import math

import pytest

from engine.replay import replay
from render import geometry as geo
from render.draw import text_size
from render.map.canvas import MapCanvas
from render.map.image import paint
from render.map.layout import map_frame
from tests.fixture_util import load_export

Box = tuple[float, float, float, float]


def _map(title: str, name: str) -> MapCanvas:
    res = replay(load_export(title, name))
    assert res.error is None
    board = res.game.board
    return paint(res.game, map_frame(list(board.hexes), board.layout, res.game.AXES), 0)


def _gap(box: Box, other: Box) -> float:
    return math.hypot(max(other[0] - box[2], box[0] - other[2], 0.0), max(other[1] - box[3], box[1] - other[3], 0.0))


def _city_gap(p: MapCanvas, hid: str, box: Box) -> float:
    """How far the box stays from the nearest station space of the hex's cities."""
    h = p.hexes[hid]
    c = p.frame.center(hid)
    gaps = []
    for node in h.tile.cities:
        n = max(1, node.slots)
        r = geo.slot_radius(p.s, n, geo.crowded(h.tile))
        pos = p.positions[hid][node.index]
        for x, y in geo.slot_positions(pos, r, n, geo.city_angle(c, pos, n)):
            gaps.append(_gap(box, (x, y, x, y)) - r)
    return min(gaps)


def _name_box(p: MapCanvas, hid: str) -> Box | None:
    placed = p.names.get(hid)
    if placed is None:
        return None
    (x, y), text, f = placed
    lines = text.split("\n")
    w = max(text_size(t, f)[0] for t in lines)
    h = text_size("Ag", f)[1] * 1.15 * len(lines)
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


@pytest.mark.parametrize(("title", "name"), [("1856", "51745"), ("1856", "1856_game_end_bank"),
                                             ("generated/1856", "1856_p3_s808"),
                                             ("generated/1856", "1856_p4_s301_eight_train_variant"),
                                             ("1836jr56", "1836jr56_game_end_bank")])  # pointy hexes
def test_tile_number_keeps_clear_of_two_cities_and_the_name(title: str, name: str) -> None:
    p = _map(title, name)
    two_city = [hid for hid in p.numbers if len(p.hexes[hid].tile.cities) >= 2]
    assert len(two_city) >= 2  # 1856: Kitchener, Hamilton, Toronto, Welland are OO tiles by the end
    for hid in two_city:
        box = p.numbers[hid]
        assert _city_gap(p, hid, box) >= 0.0, (hid, p.hexes[hid].tile_id)
        name_box = _name_box(p, hid)
        assert name_box is None or _gap(box, name_box) > 0.02 * p.s, (hid, p.hexes[hid].tile_id)
        corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
        assert min(p.spots[hid].inside(pt) for pt in corners) >= 0.0, hid


def test_a_plain_tile_shows_its_number_on_one_line_in_a_corner() -> None:
    """51745 at its end: every yellow tile of plain track (no city, town or terrain) shows
    "K8 · 6" on one line, in the hex's outer half, clear of its track."""
    p = _map("1856", "51745")
    plain = [hid for hid, h in p.hexes.items() if hid in p.numbers and h.tile.color == "yellow"
             and not h.tile.nodes and not h.tile.upgrades]
    assert len(plain) >= 5
    for hid in plain:
        left, top, right, bottom = p.numbers[hid]
        assert bottom - top < 0.25 * p.s, hid  # one line (two are 0.33 of the hex size high)
        cx, cy = p.spots[hid].center
        assert math.dist(((left + right) / 2, (top + bottom) / 2), (cx, cy)) > 0.4 * p.s, hid
