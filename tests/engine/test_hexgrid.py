"""Tests for engine.map.hexgrid: 18xx.games coordinates, edges and pixel geometry.

Real-game facts come from 18xx.games game 51745 (1856, tobymao/18xx
``spec/fixtures/1856/51745.json``) and from the preprinted track of the titles' maps
(``lib/engine/game/g_1856/map.rb``, ``g_1836_jr56/map.rb``, ``g_1833_ne/map.rb``).
"""

from __future__ import annotations

import math

import pytest

from engine.data.tile_catalog import TILES
from engine.map.hexgrid import (
    coord,
    default_axes,
    distance,
    edge_angle_degrees,
    edge_between,
    edge_midpoint,
    hex_center,
    hex_corners,
    hex_id,
    map_origin,
    neighbor,
    neighbors,
    opposite,
)
from engine.map.tiles import parse_tile

LAYOUTS = ("flat", "pointy")
SAMPLE_IDS = ["A20", "B13", "J13", "J15", "N11", "P17", "Q10", "H6", "A9", "K13", "E5", "AA7", "Z26"]


def _tile_exits(name: str, rotation: int) -> frozenset[int]:
    color, code = TILES[name]
    return parse_tile(name, code, color).with_rotation(rotation).exits


def _preprinted_exits(code: str) -> frozenset[int]:
    return parse_tile("hex", code, "red").exits


# --- coordinates ---------------------------------------------------------------------


def test_default_axes_follow_layout() -> None:
    assert default_axes("flat") == ("letter", "number")
    assert default_axes("pointy") == ("number", "letter")


@pytest.mark.parametrize(
    ("hid", "layout", "expected"),
    [
        ("A20", "flat", (0, 19)),
        ("J13", "flat", (9, 12)),
        ("Q10", "flat", (16, 9)),
        ("AA3", "flat", (26, 2)),
        ("AZ1", "flat", (51, 0)),
        ("A9", "pointy", (8, 0)),
        ("H6", "pointy", (5, 7)),
        ("K13", "pointy", (12, 10)),
    ],
)
def test_coord(hid: str, layout: str, expected: tuple[int, int]) -> None:
    assert coord(hid, layout) == expected  # type: ignore[arg-type]
    assert hex_id(*expected, layout) == hid  # type: ignore[arg-type]


def test_coord_explicit_axes_and_negative() -> None:
    assert coord("C5", "flat", ("number", "letter")) == (4, 2)
    assert hex_id(4, 2, "flat", ("number", "letter")) == "C5"
    assert coord("a1", "flat") == (-1, 0)
    assert hex_id(-1, 0, "flat") == "a1"
    with pytest.raises(ValueError):
        coord("12")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("hid", SAMPLE_IDS)
def test_neighbors_symmetric(layout: str, hid: str) -> None:
    for edge in range(6):
        other = neighbor(hid, edge, layout)  # type: ignore[arg-type]
        assert neighbor(other, opposite(edge), layout) == hid  # type: ignore[arg-type]
        assert edge_between(hid, other, layout) == edge  # type: ignore[arg-type]
        assert edge_between(other, hid, layout) == opposite(edge)  # type: ignore[arg-type]
        assert distance(hid, other, layout) == 1  # type: ignore[arg-type]
    assert len(set(neighbors(hid, layout).values())) == 6  # type: ignore[arg-type]


def test_opposite() -> None:
    assert [opposite(e) for e in range(6)] == [3, 4, 5, 0, 1, 2]


def test_not_adjacent() -> None:
    assert edge_between("J13", "J17", "flat") is None
    assert edge_between("J13", "J13", "flat") is None
    assert distance("J13", "J17", "flat") == 2


# --- real 1856 data (flat) -------------------------------------------------------------


def test_1856_flat_edges_from_game_51745() -> None:
    # M12 tile 9-0 rotation 1, route N11-M12-L13 (action 31, run at action 61).
    assert _tile_exits("9", 1) == {edge_between("M12", "N11", "flat"), edge_between("M12", "L13", "flat")}
    # L13 tile 57-1 rotation 1 faces M12; later upgraded to 14-0 rotation 0 (action 109).
    assert edge_between("L13", "M12", "flat") in _tile_exits("57", 1)
    assert edge_between("L13", "M12", "flat") in _tile_exits("14", 0)
    # O16 tile 5-0 rotation 5; 2-trains ran O16-O18 and O16-P17 (actions 24, 55).
    assert _tile_exits("5", 5) == {edge_between("O16", "O18", "flat"), edge_between("O16", "P17", "flat")}
    # O18 tile 6-0 rotation 1 reaches back to O16.
    assert edge_between("O18", "O16", "flat") in _tile_exits("6", 1)
    # B15 tile 7-0 rotation 3, route B13-B15-C14; C14 tile 5-1 rotation 1 (actions 35, 68, 70).
    assert _tile_exits("7", 3) == {edge_between("B15", "B13", "flat"), edge_between("B15", "C14", "flat")}
    assert edge_between("C14", "B15", "flat") in _tile_exits("5", 1)
    # O10 tile 9-1 rotation 1, route P9-O10-N11; P9 tile 57-0 rotation 1 also runs to Q8 (77, 80, 130).
    assert _tile_exits("9", 1) == {edge_between("O10", "P9", "flat"), edge_between("O10", "N11", "flat")}
    assert _tile_exits("57", 1) == {edge_between("P9", "O10", "flat"), edge_between("P9", "Q8", "flat")}


def test_1856_57_at_j13_and_j15_connect() -> None:
    # 57 at rotation 0 has exits {0, 3}: J13's edge 0 meets J15's edge 3.
    assert edge_between("J13", "J15", "flat") == 0
    assert edge_between("J15", "J13", "flat") == 3
    assert {0, 3} <= _tile_exits("57", 0)
    assert neighbor("J11", 3, "flat") == "J9"
    assert edge_between("J11", "J9", "flat") == 3


def test_1856_offboard_track_points_at_map_hexes() -> None:
    # A20 Detroit: path edges 4, 5 -> B19 Chatham and B21; Q8 Lower Canada: 1, 2 -> P9 Oshawa, P7.
    assert _preprinted_exits("offboard=revenue:30;path=a:4,b:_0;path=a:5,b:_0") == {4, 5}
    assert {neighbor("A20", e, "flat") for e in (4, 5)} == {"B19", "B21"}
    assert {neighbor("Q8", e, "flat") for e in (1, 2)} == {"P9", "P7"}


# --- real 1836Jr56 / 1833NE data ------------------------------------------------------------


def test_1836jr56_pointy_preprinted_track() -> None:
    # A9 Leeuwarden (gray, path edges 0 and 5) reaches B8 Enkhuizen and B10 Groningen.
    assert neighbor("A9", 0, "pointy") == "B8"
    assert neighbor("A9", 5, "pointy") == "B10"
    # E13 Dortmund / H12 Cologne offboards (edge 1) point at E11 Arnhem / H10 Maastricht.
    assert neighbor("E13", 1, "pointy") == "E11"
    assert neighbor("H12", 1, "pointy") == "H10"
    # K13 Strasbourg (edges 1, 2) -> K11 Arlon and J12; A13 Hamburg (edges 0, 1) -> B12, A11.
    assert {neighbor("K13", e, "pointy") for e in (1, 2)} == {"K11", "J12"}
    assert {neighbor("A13", e, "pointy") for e in (0, 1)} == {"B12", "A11"}


def test_1833ne_flat_boston() -> None:
    # G22 Boston: edges 0, 1, 3 -> G24 Mansfield, F23 Framingham, G20 Lowell.
    assert [neighbor("G22", e, "flat") for e in (0, 1, 3)] == ["G24", "F23", "G20"]


# --- pixel geometry --------------------------------------------------------------------------


def _close(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.isclose(p[0], q[0], abs_tol=1e-9) and math.isclose(p[1], q[1], abs_tol=1e-9)


def test_edge_angles() -> None:
    assert [edge_angle_degrees(e, "flat") for e in range(6)] == [90, 150, 210, 270, 330, 30]
    assert [edge_angle_degrees(e, "pointy") for e in range(6)] == [120, 180, 240, 300, 0, 60]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("hid", SAMPLE_IDS)
def test_shared_edge_midpoints(layout: str, hid: str) -> None:
    for edge in range(6):
        other = neighbor(hid, edge, layout)  # type: ignore[arg-type]
        here = edge_midpoint(hid, edge, layout, 50)  # type: ignore[arg-type]
        there = edge_midpoint(other, opposite(edge), layout, 50)  # type: ignore[arg-type]
        assert _close(here, there)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_corners_bound_edges(layout: str) -> None:
    corners = hex_corners("J13", layout, 40)  # type: ignore[arg-type]
    centre = hex_center("J13", layout, 40)  # type: ignore[arg-type]
    assert len(corners) == 6
    for edge in range(6):
        a, b = corners[edge], corners[(edge + 1) % 6]
        assert math.isclose(math.dist(a, centre), 40)
        assert _close(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), edge_midpoint("J13", edge, layout, 40))  # type: ignore[arg-type]


def test_flat_edge0_is_bottom_and_origin() -> None:
    cx, cy = hex_center("J13", "flat", 10)
    mx, my = edge_midpoint("J13", 0, "flat", 10)
    assert math.isclose(mx, cx) and my > cy
    origin = map_origin(["A20", "B13", "Q10"], "flat")
    assert origin == (0, 9)
    assert _close(hex_center("A10", "flat", 10, origin=origin), (10.0, 10.0))
