"""Tests for engine.map.tiles (DSL parsing, rotation, upgrade rules) and the tile catalogue.

Expected upgrades follow 18xx.games rules; the 57->14 and 5->14, 6->15 cases are real
lays from 18xx.games game 51745 (tobymao/18xx ``spec/fixtures/1856/51745.json``).
"""

from __future__ import annotations

import pytest

from engine.data.tile_catalog import TILES
from engine.map.tiles import COLOR_ORDER, End, make_tile, parse_revenue, parse_tile, tile_def
from engine.map.upgrades import (
    city_correspondence,
    color_upgrades,
    labels_match,
    legal_rotations,
    paths_preserved,
    upgrade_candidates_basic,
    upgrade_options,
)
from engine.titles.registry import title_info, title_names


@pytest.mark.parametrize("key", sorted(TILES))
def test_every_catalogue_tile_parses(key: str) -> None:
    tile = make_tile(key)
    assert tile.color in COLOR_ORDER
    assert tile.name == key.split("@")[0]
    assert not tile.others
    for path in tile.paths:
        for end in path.ends:
            if end.kind == "node":
                assert 0 <= end.num < len(tile.nodes)
            else:
                assert 0 <= end.num <= 5


def title_tiles(title: str) -> list[str]:
    """The tile names of ``title``'s manifest (its data's TILES)."""
    return list(title_info(title).data.TILES)


@pytest.mark.parametrize("title", title_names())
def test_title_tile_lists_resolve(title: str) -> None:
    for name in title_tiles(title):
        assert make_tile(name, title).name == name


def test_make_tile_is_memoized() -> None:
    assert make_tile("57") is make_tile("57")
    assert parse_tile("x", "path=a:0,b:3", "yellow") is parse_tile("x", "path=a:0,b:3", "yellow")


def test_title_specific_125() -> None:
    assert make_tile("125", "1856").label == "L"
    assert make_tile("125", "1836Jr56").label is None
    assert make_tile("125", "1856").exits == {1, 2, 3, 4, 5}
    assert tile_def("57", "1856") == TILES["57"]
    with pytest.raises(KeyError):
        make_tile("125")
    with pytest.raises(KeyError):
        make_tile("no-such-tile")


# --- well-known tiles -----------------------------------------------------------------


def test_tile_57() -> None:
    t = make_tile("57")
    assert t.color == "yellow"
    assert len(t.cities) == 1 and t.cities[0].revenue == 20 and t.cities[0].slots == 1
    assert t.exits == {0, 3}
    assert t.paths[0].a == ("edge", 0) and t.paths[0].b == ("node", 0)
    assert t.paths[1].a == End("node", 0) and t.paths[1].b == End("edge", 3)
    assert t.revenue_stops == t.cities


def test_tile_9_and_59_and_120() -> None:
    assert make_tile("9").exits == {0, 3}
    assert not make_tile("9").nodes
    t = make_tile("59")
    assert [c.revenue for c in t.cities] == [40, 40]
    assert t.label == "OO"
    assert t.node_exits(0) == {0} and t.node_exits(1) == {2}
    assert make_tile("120").label == "T"
    assert make_tile("121").label == "B-L"
    assert make_tile("14").cities[0].slots == 2


def test_node_refs_and_two_cities() -> None:
    t = make_tile("120")
    assert t.city_town_edges() == {0: {0, 1}, 1: {2, 3}}
    t = make_tile("1")
    assert len(t.towns) == 2
    assert t.node_exits(0) == {1, 3} and t.node_exits(1) == {0, 4}


# --- DSL parsing ------------------------------------------------------------------------


def test_parse_preprinted_hex_parts() -> None:
    code = (
        "offboard=revenue:yellow_20|brown_30|black_50,hide:1,groups:Canadian West;"
        "path=a:0,b:_0,terminal:1;path=a:1,b:_0,terminal:1;border=edge:5;icon=image:port,sticky:1;"
        "upgrade=cost:40,terrain:mountain|water;future_label=label:Bar,color:brown;frame=color:#800080;"
        "weird=thing:1"
    )
    t = parse_tile("N1", code, "red")
    (off,) = t.offboards
    assert off.revenue == {"yellow": 20, "brown": 30, "black": 50}
    assert off.hidden and off.groups == ("Canadian West",)
    assert all(p.terminal for p in t.paths)
    assert t.borders[0].edge == 5 and t.borders[0].type is None
    assert t.icons[0].name == "port" and t.icons[0].sticky
    assert t.upgrades[0].cost == 40 and t.upgrades[0].terrains == ("mountain", "water")
    assert t.future_label is not None and t.future_label.label == "Bar"
    assert [o.kind for o in t.others] == ["frame", "weird"]


def test_parse_misc() -> None:
    t = parse_tile("I14", "city=revenue:30,loc:5.5;junction;path=a:3,b:_0;path=a:1,b:_1,terminal:1", "yellow")
    assert [n.kind for n in t.nodes] == ["city", "junction"]
    assert t.cities[0].loc == 5.5
    assert t.rotate(1).cities[0].loc == 0.5
    t = parse_tile("n", "town=revenue:10;path=a:0,b:_0,track:narrow,lanes:2", "yellow")
    assert t.paths[0].track == "narrow" and t.paths[0].params == (("lanes", "2"),)
    assert parse_tile("blank", "", "white").nodes == ()
    assert parse_revenue("I/II_10|III/IV_30|V_10") == {"I/II": 10, "III/IV": 30, "V": 10}
    assert parse_revenue("20") == 20
    with pytest.raises(ValueError):
        parse_tile("bad", "path=a:0,b:_3", "yellow")


# --- rotation ---------------------------------------------------------------------------


def test_rotation_shifts_edges() -> None:
    t = make_tile("57")
    assert t.rotate(1).exits == {1, 4}
    assert t.rotate(2).rotate(5).exits == {1, 4}
    assert t.with_rotation(1).rotation == 1
    assert t.rotate(6) is t
    assert make_tile("7").rotate(5).exits == {5, 0}
    b = parse_tile("h", "border=edge:4,type:impassable;stub=edge:1", "white").rotate(3)
    assert b.borders[0].edge == 1 and b.stubs == (4,)


# --- upgrade rules -------------------------------------------------------------------------


def test_color_order() -> None:
    assert color_upgrades("yellow", "green")
    assert color_upgrades("white", "yellow")
    assert color_upgrades("brown", "gray")
    assert not color_upgrades("yellow", "brown")
    assert not color_upgrades("green", "green")
    assert not color_upgrades("red", "yellow")


def test_57_to_green_cities() -> None:
    assert legal_rotations(make_tile("57"), make_tile("14")) == [0, 2, 3, 5]
    assert legal_rotations(make_tile("57"), make_tile("15")) == [0, 3]
    # game 51745: 57 rot 1 -> 14 rot 0 (L13) and 57 rot 1 -> 14 rot 1 (P9); 5 rot 1 -> 14 rot 1 (C14);
    # 6 rot 1 -> 15 rot 1 (O18)
    assert 0 in legal_rotations(make_tile("57").rotate(1), make_tile("14"))
    assert 1 in legal_rotations(make_tile("57").rotate(1), make_tile("14"))
    assert 1 in legal_rotations(make_tile("5").rotate(1), make_tile("14"))
    assert 1 in legal_rotations(make_tile("6").rotate(1), make_tile("15"))


def test_track_upgrades() -> None:
    assert legal_rotations(make_tile("9"), make_tile("16")) == []
    assert not upgrade_candidates_basic(make_tile("9"), make_tile("16"))
    assert legal_rotations(make_tile("9"), make_tile("18")) == [0, 3]
    assert legal_rotations(make_tile("7"), make_tile("18")) == [5]
    assert legal_rotations(make_tile("7"), make_tile("26")) == [1]
    assert legal_rotations(make_tile("7"), make_tile("28")) == [1]
    assert legal_rotations(make_tile("8"), make_tile("24")) == [0]
    assert legal_rotations(make_tile("8"), make_tile("16")) == [0, 5]
    assert legal_rotations(make_tile("8").rotate(2), make_tile("16")) == [1, 2]


def test_upgrade_options_for_8() -> None:
    greens = [make_tile(n) for n in title_tiles("1856") if make_tile(n, "1856").color == "green"]
    opts = upgrade_options(make_tile("8"), greens)
    assert set(opts) == {"16", "17", "19", "23", "24", "25", "28", "29"}
    assert opts["24"] == [0] and opts["28"] == [2]
    assert "14" not in opts and "9" not in opts


def test_oo_upgrades_keep_each_city() -> None:
    old = make_tile("59")
    expected = {"64": [2, 4], "65": [0, 4], "66": [0, 5], "67": [0, 2], "68": [2, 5]}
    for name, rotations in expected.items():
        new = make_tile(name)
        assert upgrade_candidates_basic(old, new)
        assert legal_rotations(old, new) == rotations
        assert legal_rotations(old, new, distinct_cities=True) == rotations
        for r in rotations:
            rotated = new.with_rotation(r)
            mapping = city_correspondence(old, rotated)
            assert sorted(mapping.values()) == [0, 1]  # type: ignore[type-var]
            for old_i, new_i in mapping.items():
                assert new_i is not None
                assert old.node_exits(old_i) <= rotated.node_exits(new_i)
    # 64 at rotation 0 would leave one brown city unconnected to either old city.
    assert not paths_preserved(old, make_tile("64"))
    # an OO tile cannot become a single city or a T tile
    assert not upgrade_candidates_basic(old, make_tile("63"))
    assert not upgrade_candidates_basic(old, make_tile("122"))


def test_labels_and_counts() -> None:
    assert upgrade_candidates_basic(make_tile("120"), make_tile("122"))
    assert legal_rotations(make_tile("120"), make_tile("122")) == [0]
    assert upgrade_candidates_basic(make_tile("122"), make_tile("124"))
    assert not upgrade_candidates_basic(make_tile("57"), make_tile("120"))
    assert not upgrade_candidates_basic(make_tile("57"), make_tile("121"))
    assert not upgrade_candidates_basic(make_tile("57"), make_tile("57"))
    assert not upgrade_candidates_basic(make_tile("57"), make_tile("63"))
    assert upgrade_candidates_basic(make_tile("14"), make_tile("63"))
    assert upgrade_candidates_basic(make_tile("4"), make_tile("N40"))  # town stays a town
    assert not upgrade_candidates_basic(make_tile("4"), make_tile("14"))
    # 1856 B-L hex (M4/F15 preprinted yellow) takes the green B-L tile, then brown by future label
    bl = parse_tile(
        "M4",
        "city=revenue:30;path=a:0,b:_0;path=a:4,b:_0;label=B-L;future_label=label:Bar,color:brown",
        "yellow",
    )
    assert upgrade_candidates_basic(bl, make_tile("121"))
    green_bl = parse_tile("M4", make_tile("121").raw + ";future_label=label:Bar,color:brown", "green")
    assert labels_match(green_bl, make_tile("127"))
    assert not labels_match(green_bl, make_tile("126"))
    # 1856 white hex with a future L label in brown: plain green, then the 1856 '125' (label L)
    white_l = parse_tile("B19", "city=revenue:0;future_label=label:L,color:brown", "white")
    assert upgrade_candidates_basic(white_l, make_tile("57"))
    green_l = parse_tile("B19", make_tile("14").raw + ";future_label=label:L,color:brown", "green")
    assert upgrade_candidates_basic(green_l, make_tile("125", "1856"))
    assert not upgrade_candidates_basic(green_l, make_tile("63"))


def test_white_hexes() -> None:
    assert legal_rotations(make_tile("city"), make_tile("57")) == list(range(6))
    white_oo = parse_tile("I12", "city=revenue:0;city=revenue:0;label=OO", "white")
    assert not upgrade_candidates_basic(white_oo, make_tile("57"))
    # 1856 I12/N17 are preprinted yellow OO hexes without track: any rotation of 59 fits
    yellow_oo = parse_tile("I12", "city=revenue:0;city=revenue:0;label=OO", "yellow")
    assert upgrade_candidates_basic(yellow_oo, make_tile("59"))
    assert legal_rotations(yellow_oo, make_tile("59")) == list(range(6))
    assert city_correspondence(yellow_oo, make_tile("59").rotate(2)) == {0: 0, 1: 1}
    blank = make_tile("blank")
    assert upgrade_candidates_basic(blank, make_tile("9"))
    assert not upgrade_candidates_basic(blank, make_tile("57"))


def test_remembered_preservation_answers_equal_fresh_ones() -> None:
    """paths_preserved keeps its answer per (old tile, rotated new tile): asked twice over every
    pair of catalogue tiles one colour apart, in every rotation, it answers as the check made
    afresh (some pairs keep the track, most do not)."""
    from engine.map.upgrades import _preserved

    tiles = [make_tile(k) for k in sorted(TILES)]
    kept = 0
    for old in tiles:
        for new in tiles:
            if old.color not in COLOR_ORDER or new.color not in COLOR_ORDER \
                    or COLOR_ORDER.index(new.color) != COLOR_ORDER.index(old.color) + 1:
                continue
            for r in range(6):
                turned = new.with_rotation(r)
                fresh = _preserved(old, turned, False)
                assert paths_preserved(old, turned) == fresh == paths_preserved(old, turned), (old.name, new.name, r)
                kept += fresh
    assert kept > 100
