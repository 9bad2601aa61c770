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


def _outermost_searched(layout: str, size: float, half_w: float, half_h: float) -> tuple[tuple[float, float], ...]:
    """:func:`render.map.numbers._outermost` as it was first written: a bisection asking, at every
    step, whether the box's four corners stay inside the hex with the margin."""
    from render.map.layout import Spots
    from render.map.numbers import BORDER

    first = 60.0 if layout == "flat" else 30.0
    corners = [first, 180.0 - first, 360.0 - first, 180.0 + first, *((0.0, 180.0) if layout == "flat" else (90.0, 270.0))]
    hex_ = Spots((0.0, 0.0), size, layout)  # type: ignore[arg-type]

    def fits(t: float, angle: float) -> bool:
        x, y = geo.polar((0.0, 0.0), t, angle)
        return all(hex_.inside((x + dx, y + dy)) >= BORDER * size for dx in (-half_w, half_w) for dy in (-half_h, half_h))

    out = []
    for angle in corners + [(a + 30.0) % 360.0 for a in corners]:
        low, high = 0.0, size
        if fits(low, angle):
            for _ in range(14):
                mid = (low + high) / 2
                low, high = (mid, high) if fits(mid, angle) else (low, mid)
        out.append(geo.polar((0.0, 0.0), low, angle))
    return tuple(out)


@pytest.mark.parametrize("layout", ["flat", "pointy"])
def test_the_furthest_places_worked_out_side_by_side_are_the_searched_ones(layout: str) -> None:
    """The search asks the box's corners only near the limit worked out from the hex's sides: the
    same places, to the last bit, for boxes small and too large, on hexes of every size drawn."""
    from render.map.numbers import _outermost

    for size in (40.0, 60.0, 64.0, 72.0, 90.0, 120.0, 134.0, 144.0, 37.3):
        for k in range(40):
            half_w, half_h = size * (0.02 + 0.025 * k), size * (0.01 + 0.017 * ((k * 7) % 40))
            assert _outermost.__wrapped__(layout, size, half_w, half_h) == _outermost_searched(
                layout, size, half_w, half_h), (size, half_w, half_h)
