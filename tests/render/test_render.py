"""Tests for render/: pure geometry, valid PNGs for every title, reference images.

Reference images live in ``tests/render_ref/``.  After a deliberate change to the drawing,
look at the new images, then regenerate them with::

    UPDATE_RENDER_REFS=1 pytest tests/render/test_render.py -k reference

The comparison allows small differences (mean absolute difference < 2 per channel and
fewer than 0.5% of pixels differing by more than 40), and is skipped when the packaged
Roboto font is missing (Pillow's fallback font draws different pixels).
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import actions as A
from engine.game import Game
from engine.map import hexgrid
from engine.map.tiles import make_tile
from engine.titles.g1833ne import data as g1833ne_data
from engine.titles.g1836jr56 import data as g1836jr56_data
from engine.titles.g1856 import data as g1856_data
from engine.titles.registry import new_game
from render import geometry as geo
from render.chart_image import nice_ticks, render_value_chart
from render.demo import late_game, make_game
from render.fonts import font, have_roboto
from render.map.image import render_map
from render.map.layout import MAX_SIDE, map_frame
from render.map.state import current_revenue_key, destination_hexes
from render.market_image import layout_rows, render_market, zone_of
from render.status_image import render_status

REF = Path(__file__).parent.parent / "render_ref"
LAYOUTS = ("flat", "pointy")
CENTER = (300.0, 200.0)
SIZE = 60.0


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.dist(p, q) <= tol


def edge_mid(edge: int, layout: str) -> tuple[float, float]:
    """Edge midpoint via engine.map.hexgrid for a hex whose centre is CENTER."""
    cx, cy = hexgrid.hex_center("A1", layout, SIZE)  # type: ignore[arg-type]
    mx, my = hexgrid.edge_midpoint("A1", edge, layout, SIZE)  # type: ignore[arg-type]
    return CENTER[0] + mx - cx, CENTER[1] + my - cy


# ----------------------------------------------------------------------------- geometry


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rotation", range(6))
@pytest.mark.parametrize("name", ["7", "8", "9"])
def test_track_ends_on_edge_midpoints(name: str, rotation: int, layout: str) -> None:
    tile = make_tile(name).with_rotation(rotation)
    (start, end), = geo.track_endpoints(tile, layout, CENTER, SIZE)  # type: ignore[arg-type]
    path = tile.paths[0]
    assert close(start, edge_mid(path.a.num, layout))
    assert close(end, edge_mid(path.b.num, layout))
    assert {path.a.num, path.b.num} == {(e + rotation) % 6 for e in make_tile(name).exits}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rotation", range(6))
def test_curve_shapes(rotation: int, layout: str) -> None:
    """Sharp curves are arcs of radius size/2 spanning 120 degrees, gentle ones radius
    1.5*size spanning 60; straights are lines through the centre."""
    positions: dict[int, tuple[float, float]] = {}
    for name, radius, span in (("7", SIZE / 2, 120.0), ("8", SIZE * 1.5, 60.0)):
        tile = make_tile(name).with_rotation(rotation)
        seg, = geo.path_segments(tile, tile.paths[0], layout, CENTER, SIZE, positions)  # type: ignore[arg-type]
        assert isinstance(seg, geo.Arc)
        assert seg.radius == pytest.approx(radius)
        assert (seg.end - seg.start) % 360 == pytest.approx(span)
        for p in (seg.a, seg.b):
            assert math.dist(seg.center, p) == pytest.approx(radius)
        # the arc is tangent to the track direction: its centre lies on the hex side line
        for p in (seg.a, seg.b):
            to_center = (p[0] - CENTER[0], p[1] - CENTER[1])
            to_pivot = (seg.center[0] - p[0], seg.center[1] - p[1])
            assert to_center[0] * to_pivot[0] + to_center[1] * to_pivot[1] == pytest.approx(0, abs=1e-6)
    tile = make_tile("9").with_rotation(rotation)
    seg, = geo.path_segments(tile, tile.paths[0], layout, CENTER, SIZE, positions)  # type: ignore[arg-type]
    assert isinstance(seg, geo.Line)
    assert close(geo.segment_midpoint(seg), CENTER)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rotation", range(6))
def test_city_tile_57(rotation: int, layout: str) -> None:
    tile = make_tile("57").with_rotation(rotation)
    ends = geo.track_endpoints(tile, layout, CENTER, SIZE)  # type: ignore[arg-type]
    assert len(ends) == 2
    (a0, b0), (a1, b1) = ends
    assert close(a0, edge_mid(rotation % 6, layout))  # path a:0 -> city
    assert close(b0, CENTER)
    assert close(a1, CENTER)
    assert close(b1, edge_mid((3 + rotation) % 6, layout))  # path city -> 3
    # the single slot's token sits on the city circle's centre
    assert close(geo.token_position(tile, layout, CENTER, SIZE, 0, 0), CENTER)  # type: ignore[arg-type]


def test_slot_positions() -> None:
    r = 10.0
    assert geo.slot_positions(CENTER, r, 1) == [CENTER]
    left, right = geo.slot_positions(CENTER, r, 2)
    assert close(left, (CENTER[0] - r, CENTER[1])) and close(right, (CENTER[0] + r, CENTER[1]))
    for n in (3, 4, 6):
        pts = geo.slot_positions(CENTER, r, n)
        assert len(pts) == n
        # slots never overlap
        assert min(math.dist(p, q) for i, p in enumerate(pts) for q in pts[i + 1:]) >= 2 * r - 1e-6
        centroid = (sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n)
        assert math.dist(centroid, CENTER) < r


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rotation", range(6))
def test_tokens_in_their_own_city(rotation: int, layout: str) -> None:
    """On two-city tiles each city's token is nearer (one of) its own exits than the other city's,
    slots of one city never overlap those of the other, and all stay inside the hex."""
    for name in ("59", "64", "65", "66", "67", "68", "120", "122"):
        tile = make_tile(name).with_rotation(rotation)
        cities = tile.cities
        r = geo.slot_radius(SIZE, max(c.slots for c in cities), geo.crowded(tile))
        slots = {c.index: [geo.token_position(tile, layout, CENTER, SIZE, c.index, s)  # type: ignore[arg-type]
                           for s in range(c.slots)] for c in cities}
        for city in cities:
            other = next(c for c in cities if c is not city)
            # (a city that track crosses straight can't be nearest to both of its exits)
            assert any(
                min(math.dist(p, edge_mid(edge, layout)) for p in slots[city.index])
                < min(math.dist(p, edge_mid(edge, layout)) for p in slots[other.index])
                for edge in tile.node_exits(city.index)
            ), (name, rotation)
            for p in slots[city.index]:
                assert math.dist(p, CENTER) + r <= SIZE + 1e-6
                assert all(math.dist(p, q) >= 2 * r - 1e-6 for q in slots[other.index]), (name, rotation)


def test_towns_on_curves_and_bars() -> None:
    """A town on a curve (tile 58) sits at the middle of the arc; both halves meet it."""
    for layout in LAYOUTS:
        tile = make_tile("58").with_rotation(2)
        pos = geo.node_positions(tile, layout, CENTER, SIZE)[0]  # type: ignore[arg-type]
        whole = geo.edge_to_edge(CENTER, SIZE, layout, *sorted(tile.exits))  # type: ignore[arg-type]
        assert close(pos, geo.segment_midpoint(whole))
        for start, end in geo.track_endpoints(tile, layout, CENTER, SIZE):  # type: ignore[arg-type]
            assert close(start, pos) or close(end, pos)


def test_map_frame_fits_preview() -> None:
    for data in (g1856_data, g1836jr56_data, g1833ne_data):
        ids = [h for group in data.HEXES.values() for key in group for h in (key if isinstance(key, tuple) else (key,))]
        frame = map_frame(ids, data.LAYOUT)
        assert frame.width // frame.scale <= MAX_SIDE + 2
        assert frame.height // frame.scale <= MAX_SIDE + 2
        assert frame.size / frame.scale >= 40  # hexes stay big enough to read


def test_revenue_key_and_destinations() -> None:
    rev = {"yellow": 30, "brown": 50, "black": 60}
    assert current_revenue_key(rev, ["yellow"], "2") == "yellow"
    assert current_revenue_key(rev, ["yellow", "green"], "3") == "yellow"
    assert current_revenue_key(rev, ["yellow", "green", "brown"], "5") == "brown"
    assert current_revenue_key({"I/II": 10, "III/IV": 30, "V": 10}, ["yellow", "green"], "III") == "III/IV"
    game = make_game(g1856_data, 3)
    dest = destination_hexes(game)
    assert dest["GW"] == ["A20"] and "CGR" not in dest
    game.corporations["GW"].destinated = True
    assert "GW" not in destination_hexes(game)


def test_destination_markers_follow_the_titles_table() -> None:
    """The map's destination flags come from the title (``Game.destination_goals``): 1856's
    alternate destinations when that option is on (a goal of two hexes flags both), none for
    1833NE, and none for a title without destinations (the base game's neutral default)."""
    seats = [("1", "A"), ("2", "B"), ("3", "C")]
    alternate = destination_hexes(new_game("1856", seats, ["alternate_destinations"]))
    assert alternate["GW"] == ["J15"] and alternate["CA"] == ["A20"] and alternate["TGB"] == ["O2", "N1"]
    assert destination_hexes(new_game("1836Jr56", seats, ["alternate_destinations"])) == \
        destination_hexes(new_game("1836Jr56", seats))  # 1836Jr56 has no alternate table
    assert destination_hexes(new_game("1833NE", seats)) == {}
    assert Game.destination_goals(new_game("1856", seats)) == {}


def test_market_helpers() -> None:
    game = make_game(g1856_data, 3)
    grid = game.market.grid
    assert layout_rows(grid) is grid
    assert zone_of(grid[0][4]) == "par" and zone_of(grid[9][0]) == "close"
    one_row = [[object()] * 35]
    rows = layout_rows(one_row)  # type: ignore[arg-type]
    assert len(rows) == 2 and sum(len(r) for r in rows) == 35


def test_nice_ticks() -> None:
    ticks = nice_ticks(0, 3400)
    assert ticks[0] == 0 and ticks[-1] >= 3400 and len(ticks) <= 8


def test_font_is_packaged() -> None:
    f = font(20, bold=True)
    assert f.getlength("Toronto") > 0
    if have_roboto():
        assert "Roboto" in f.getname()[0]


# ----------------------------------------------------------------------------- renders


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


GAMES = [
    ("1856", lambda: make_game(g1856_data, 4)),
    ("1836Jr56", lambda: make_game(g1836jr56_data, 3)),
    ("1833NE", lambda: make_game(g1833ne_data, 4)),
    ("1856-late", lambda: late_game(g1856_data, REF / "late_1856.json")),
    ("1836Jr56-late", lambda: late_game(g1836jr56_data, REF / "late_1836jr56.json")),
]


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def game(request: pytest.FixtureRequest):  # noqa: ANN201
    return request.param[1]()


def test_render_map(game) -> None:  # noqa: ANN001
    img = png(render_map(game))
    assert 600 <= img.width <= MAX_SIDE + 2 and 600 <= img.height <= MAX_SIDE + 2


def test_render_market(game) -> None:  # noqa: ANN001
    img = png(render_market(game))
    assert 500 <= img.width <= 2000 and 150 <= img.height <= 1200


def test_render_status(game) -> None:  # noqa: ANN001
    img = png(render_status(game))
    assert 500 <= img.width <= 2400 and 300 <= img.height <= 2400


def test_render_chart() -> None:
    img = png(render_value_chart({"Ann": [300, 500, 900], "Bo": [300, 200, 450]}, ["SR1", "OR1", "end"], "Value"))
    assert 800 <= img.width <= 1000 and img.height >= img.width * 0.8  # tall enough for a phone


LATE_ROUTES = [
    {"train": "5-0", "revenue": 260, "hexes": ["N11", "L13", "L15", "N17", "O16", "P17"],
     "connections": [["N11", "M12", "L13"], ["L13", "L15"], ["L15", "M16", "N17"], ["N17", "O16"], ["O16", "P17"]]},
    {"train": "3-1", "revenue": 120, "hexes": ["F15", "C14", "B13"],
     "connections": [["F15", "E14", "D15", "C14"], ["C14", "B13"]]},
    {"train": "4-0", "revenue": 150, "hexes": ["J13", "L13", "L15", "K16"],
     "connections": [["J13", "K12", "L13"], ["L13", "L15"], ["L15", "K16"]]},
]


def test_routes_are_drawn() -> None:
    game = late_game(g1856_data, REF / "late_1856.json")
    plain = png(render_map(game)).convert("RGB")
    routed = png(render_map(game, routes=LATE_ROUTES)).convert("RGB")
    assert routed.height > plain.height  # the legend
    # a route that cannot be traced on the track still draws (as straight hops)
    png(render_map(game, routes=[{"train": "2-0", "revenue": 30, "connections": [["A20", "Q8"]]}]))


# ----------------------------------------------------------------------------- references


def _compare(name: str, data: bytes) -> None:
    path = REF / name
    if os.environ.get("UPDATE_RENDER_REFS") == "1":
        path.write_bytes(data)
        return
    if not have_roboto():
        # Justified: reference pixels are drawn with Roboto (a declared dependency, so CI has
        # it); only a broken install falls back to Pillow's font, whose pixels differ.
        pytest.skip("font-roboto is not installed: renders use Pillow's fallback font")
    if not path.exists():
        pytest.fail(f"missing reference {path}; run with UPDATE_RENDER_REFS=1 and look at it")
    new = png(data).convert("RGB")
    ref = png(path.read_bytes()).convert("RGB")
    assert new.size == ref.size, f"{name}: size {new.size} != reference {ref.size}"
    diff = ImageChops.difference(new, ref).convert("L")
    hist = diff.histogram()
    total = new.width * new.height
    mean = sum(i * n for i, n in enumerate(hist)) / total
    big = sum(hist[41:]) / total
    assert mean < 2.0, f"{name}: mean pixel difference {mean:.2f}"
    assert big < 0.005, f"{name}: {big:.2%} of pixels differ by more than 40"


def test_reference_map_fresh_1856() -> None:
    _compare("map_1856_fresh.png", render_map(make_game(g1856_data, 4)))


def test_reference_map_late_1856_routes() -> None:
    _compare("map_1856_late_routes.png",
             render_map(late_game(g1856_data, REF / "late_1856.json"), routes=LATE_ROUTES))


def test_reference_map_late_1836jr56() -> None:
    _compare("map_1836jr56_late.png", render_map(late_game(g1836jr56_data, REF / "late_1836jr56.json")))


def test_reference_market_and_status_late_1856() -> None:
    game = late_game(g1856_data, REF / "late_1856.json")
    _compare("market_1856_late.png", render_market(game))
    _compare("status_1856_late.png", render_status(game))


def test_1833ne_status_shows_sides_ferries_treasury_and_obsolete_trains() -> None:
    """1833NE's status picture: the depot gives both sides of each card with their prices,
    a line lists the ferries (owner or price, "New"), shares in the treasury are called so,
    there is no loans column, and obsolete trains say so."""
    from render.status_image import corporations_table, trains_line
    from tests.g1833ne.test_1833ne import _operating, new

    g = new()
    _operating(g, "CV", 100)
    assert "2 ×8 (2 $75 or 2+1 $100)" in trains_line(g)
    g.process(A.SpecialBuy(entity="CV", entity_type="corporation", description="Ferry C26", cost=40))
    assert g.status_notes() == ["Ferries (ports provisional): Boston for sale $40  ·  Portland for sale $40  ·  "
                                "New Haven CV (New)  ·  Norwich for sale $40  ·  Hyannis for sale $40",
                                "Bank: 2 $1,000 notes set aside; it counts as empty with $2,000 left (provisional)"]
    g.give_train(g.trains["2-0"], "CV")
    g.obsolete.add("2-0")
    table = corporations_table(g)
    assert "Treasury" in table.headers and "Loans" not in table.headers
    cv = next(row for row in table.rows if getattr(row[0], "text", None) == "CV")
    assert any(getattr(c, "text", c) == "2 (obsolete)" for c in cv)
    assert Image.open(io.BytesIO(render_status(g))).size[0] > 600


def test_status_explains_capitalization_floating_and_private_abilities() -> None:
    """The status picture's notes: what escrow (and the other capitalizations shown) means, the
    percent a corporation must sell to float, each open private's ability; a started corporation
    that has not floated says how far it is."""
    from render.status_image import company_notes, corporation_notes, corporations_table

    game = late_game(g1856_data, REF / "late_1856.json")
    notes = corporation_notes(game)
    assert any(n.startswith("A corporation floats (operates) once ") for n in notes)
    abilities = company_notes(game)
    open_privates = [c for c in game.companies.values() if not c.closed and not c.desc.lower().startswith("no special")]
    assert len(abilities) == len(open_privates)
    # 1836Jr56's ACC has no ability but blocks Amsterdam: that is said (1856's "No special abilities." is not)
    jr = make_game(g1836jr56_data, 3)
    assert "ACC: No special ability. Blocks hex D6 while owned by player." in company_notes(jr)
    assert not any(n.startswith("FT") or "No special abilities" in n for n in company_notes(make_game(g1856_data, 4)))
    fresh = make_game(g1856_data, 4)
    sym = next(iter(fresh.corporations))
    corp = fresh.corporations[sym]
    corp.ipoed = True
    for share in fresh.corp_shares(sym)[:2]:
        share.owner = fresh.players[0].id
    rows = corporations_table(fresh).rows
    # 30% sold, 20% needed in phase 2: it floats when it first operates (not "floats at 20%")
    assert any("floats when it first operates (30% sold)" in str(cell) for row in rows for cell in row)
    fresh.corp_shares(sym)[1].owner = sym  # back to 20% sold, in a phase asking for 30%
    fresh.float_percent = lambda: 30
    rows = corporations_table(fresh).rows
    assert any("floats at 30% (20% sold)" in str(cell) for row in rows for cell in row)


def test_status_names_each_corporation_s_destination_until_it_gets_there() -> None:
    """1856's corporations head for a destination (escrow is paid when they reach it): the
    status picture names it ("Brantford J15"), then says "reached"; 1833NE has no such column."""
    from render.status_image import corporations_table
    from render.table import Cell
    from tests.g1833ne.test_1833ne import new

    game = late_game(g1856_data, REF / "late_1856.json")
    goals = game.destination_goals()

    def shown() -> dict[str, str]:
        table = corporations_table(game)
        col = table.headers.index("Destination")
        return {row[0].text: row[col].text for row in table.rows
                if isinstance(row[0], Cell) and isinstance(row[col], Cell)}

    before = shown()
    heading = [sym for sym in before if not game.corporations[sym].destinated]
    assert heading
    sym = heading[0]
    place = game.board.hexes[goals[sym][0]].location
    assert before[sym] == f"{place} {goals[sym][0]}" and place
    game.corporations[sym].destinated = True
    assert shown()[sym] == "reached"
    assert "Destination" not in corporations_table(new()).headers


def test_a_part_of_the_map_leaves_out_the_names_its_edge_would_cut() -> None:
    """A crop (the routes picture) shows its neighbours' hexes cut at its edge: their names,
    coordinates and values would be cut too ("Ham" of Hamburg, "7" of C7, "4" of its "40 70"):
    they are left out, those inside stay; the whole map has no such edge."""
    from render.map.crop import area, crop_frame
    from render.map.image import paint
    from render.map.labels import cut_by_view

    game = new_game("1836Jr56", [("1", "A"), ("2", "B"), ("3", "C")])
    shown = area(game, ["A9", "B10"])
    p = paint(game, crop_frame(shown, game), 0, where="NFL")
    assert p.view is not None
    placed = {hid: got for hid, got in p.names.items() if got is not None}
    cut = {hid for hid, (pos, text, f) in placed.items() if cut_by_view(p, pos, text, f)}
    assert "A13" in cut  # Hamburg, two hexes east of Groningen: half of its hex shows
    assert {"A9", "B10"} <= set(placed) - cut  # Leeuwarden and Groningen, in the middle
    left, top, right, bottom = p.view  # (a value strip or circle is left out the same way)
    assert p.cut((right - 5, top + 5, right + 5, top + 15)) and not p.cut((left + 5, top + 5, left + 15, top + 15))
    whole = paint(game, map_frame(list(game.board.hexes), game.board.layout, game.AXES), 0)
    assert whole.view is None
    assert not any(cut_by_view(whole, *got) for got in whole.names.values() if got is not None)


def test_placements_remembered_from_earlier_drawings_draw_the_same_pictures() -> None:
    """Placements in a hex (names, labels, tile numbers, revenue strips) are remembered by the
    hex's obstacles (``Spots.chosen``): a map and a crop drawn after other drawings, of another
    position of the game, are byte for byte the ones drawn with nothing remembered."""
    from engine.replay import filter_actions, game_from_export
    from render.map import kept, layout
    from render.map.crop import render_crop
    from tests.fixture_util import load_export

    export = load_export("1856", "89363")
    game = game_from_export(export)
    actions = [a for a in filter_actions(export["actions"]) if a.get("type") != "end_game"]
    for raw in actions[:80]:
        game.process(A.Action.from_dict(raw), safe=False)
    render_map(game)  # remembered: the board 60 actions earlier
    for raw in actions[80:140]:
        game.process(A.Action.from_dict(raw), safe=False)
    lays = [a["hex"] for a in actions[80:140] if a["type"] == "lay_tile"]
    assert lays
    remembered = render_map(game), render_crop(game, lays)
    layout._CHOSEN.clear()
    kept.clear()  # the whole map drawn again, not the kept one
    assert (render_map(game), render_crop(game, lays)) == remembered


def test_closed_and_unstarted_corporations_fold_into_one_line_each() -> None:
    """1856_game_end_bank after the national formed: the merged corporations' rows showed a
    president, a price and stations as if they still played; then a full empty row each
    ("closed"), which with the unstarted ones took half the table on a phone (late-game
    play-test): now one line of chips each, "Closed:" and "Not started:"."""
    from render.status_image import corporations_table, players_table
    from tests.positions import at

    g = at("1856", "1856_game_end_bank", 600)
    table = corporations_table(g)
    rows = {str(getattr(r[0], "text", r[0])): r for r in table.rows}
    assert g.corp("GW").closed
    assert set(rows) == {"CV", "CGR"} and getattr(rows["CGR"][1], "text", "") != ""
    assert [(label, [c.text for c in chips]) for label, chips in table.folds] == [
        ("Closed:", ["CA", "CPR", "GT", "GW", "LPS", "TGB", "THB"]),
        ("Not started:", ["BBG", "WR", "WGB"]),
    ]
    assert table.height() == table.row_h * (1 + 2 + 2)  # header, two rows, two folded lines
    assert players_table(g).headers == ["Player", "Cash", "Certs", "CV", "CGR", "Privates", "Value"]


def test_status_notes_say_what_value_takes_off_for_loans_and_what_tokens_count() -> None:
    from render.status_image import corporation_notes, player_notes

    game = late_game(g1856_data, REF / "late_1856.json")
    charges = {p.name: game.loan_charge(p) for p in game.players}
    assert charges["Player 1"] == 150  # 30% of BBG (1 loan) and 60% of LPS (2 loans): $1 per percent per loan
    assert player_notes(game) == ["Value: cash, shares at their price and privates, less the loans of the"
                                  " corporations whose shares they hold (Player 1 -$150, Player 2 -$20, Player 3 -$40)"]
    assert "Tokens: stations still to place / all of its stations" in corporation_notes(game)


def test_status_says_how_1836jr56_ports_pay() -> None:
    """Harwich, Dover and Paris show "20 | 30" on the map, yet pay that for each of the running
    corporation's stations on the route, and only on a route with 2 other stops (game.rb
    revenue_for): a play-tester read B's 240 F run to Paris (60 + 30 + 60 + 3 x 30) as wrong. The
    status picture's notes say it; 1856 has no such ports."""
    from render.status_image import corporation_notes

    notes = corporation_notes(make_game(g1836jr56_data, 3))
    assert ("Ports (Harwich E3, Dover G1 and Paris J2): 20 F from the green phases, 30 F from the brown phases, "
            "for each station of the running corporation on the route; a route to a port needs 2 other stops") in notes
    assert not any(n.startswith("Ports") for n in corporation_notes(make_game(g1856_data, 4)))


def test_a_train_limit_no_corporation_could_reach_reads_no_limit() -> None:
    """1836Jr56's MESS keeps 18xx.games' +99 until its first discard after forming (in the game
    that ends by the bank it never discards): the status picture's header said "train limit 2
    (MESS 101)"; it says "(MESS no limit)" now, and a limit of its own within reach stays a number."""
    from engine.replay import replay
    from render.status_image import header_lines
    from tests.fixture_util import load_export

    game = replay(load_export("1836jr56", "1836jr56_game_end_bank")).game
    mess = game.corporations["MESS"]
    assert game.stated_train_limit(mess) == game.train_limit + 99
    title, _ = header_lines(game)
    assert f"train limit {game.train_limit} (MESS no limit)" in title, title
    game.national_train_limit_extra = 1  # (after its discard: one above the phase's)
    assert f"(MESS {game.train_limit + 1})" in header_lines(game)[0]
