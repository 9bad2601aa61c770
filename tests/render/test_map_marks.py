"""What the map shows of the private companies' blocks and of 1833NE's ferries: a play-test
found neither on 1833NE's map, and 1856 drew no block either. Blocks are drawn the same way in
every title (a red tag with the private's symbol, while the engine refuses tiles there); ferries
as 1856's ports and port private (a port, tagged with its owner and P5)."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.game import Game
from engine.replay import replay
from render.map.canvas import MapCanvas
from render.map.image import paint
from render.map.layout import map_frame
from render.map.marks import BLOCK, MARKER, PORT
from render.map.state import blocked_hexes
from tests.fixture_util import load_export
from tests.g1833ne.test_1833ne import new
from tests.g1833ne.test_1833ne_rules import _trainless

NE_BLOCKS = {"H23": "P1", "G20": "P2", "C4": "P3", "C6": "P3"}  # entities.py: P1-P3 block hexes
FERRY_PORTS = ("G22", "I14", "C26", "E26", "I26")  # the provisional ports


def _paint(game: Game) -> MapCanvas:
    board = game.board
    return paint(game, map_frame(list(board.hexes), board.layout, game.AXES), 0)


def _pixels(p: MapCanvas, hid: str, color: tuple[int, int, int]) -> int:
    """How many pixels of ``color`` lie within 0.8 of the hex size of its centre."""
    cx, cy = p.frame.center(hid)
    r = 0.8 * p.s
    region = p.img.crop((round(cx - r), round(cy - r), round(cx + r), round(cy + r)))
    return sum(n for n, c in region.getcolors(1 << 20) or [] if c == color)


def _tagged(p: MapCanvas, color: tuple[int, int, int]) -> dict[str, list[str]]:
    return {hid: [t for t, c in tags if c == color] for hid, tags in p.tags.items()
            if any(c == color for _, c in tags)}


def _auction(g: Game, privates: list[tuple[str, int]]) -> None:
    for sym, price in privates:
        g.process(A.Bid(entity=g.acting()[0], entity_type="player", company=sym, price=price))


def test_1833ne_blocked_hexes_show_the_private_while_a_player_owns_it() -> None:
    g = new()
    assert blocked_hexes(g) == {}  # the bank's privates block nothing (the engine's rule)
    assert _tagged(_paint(g), BLOCK) == {}
    _auction(g, [("P1", 15), ("P2", 40), ("P3", 50)])
    assert blocked_hexes(g) == NE_BLOCKS
    p = _paint(g)
    assert _tagged(p, BLOCK) == {hid: [sym] for hid, sym in NE_BLOCKS.items()}
    for hid in NE_BLOCKS:
        assert _pixels(p, hid, BLOCK) > 50, hid
        assert g.hex_blocked_by(hid) == NE_BLOCKS[hid]


def test_1856_blocked_hexes_are_drawn_the_same_way() -> None:
    """51745 after its auction: FT, WSRC and TCC, held by players, block L3, I12 and H11; once a
    corporation has bought WSRC (by action 200) Kitchener is free and its tag gone."""
    export = load_export("1856", "51745")
    early = _paint(replay(export, upto=60).game)
    assert _tagged(early, BLOCK) == {"L3": ["FT"], "I12": ["WSRC"], "H11": ["TCC"]}
    assert all(_pixels(early, hid, BLOCK) > 50 for hid in ("L3", "I12", "H11"))
    later = replay(export, upto=200).game
    assert blocked_hexes(later) == {"H11": "TCC"}
    assert _tagged(_paint(later), BLOCK) == {"H11": ["TCC"]}


def test_1833ne_ferries_are_ports_tagged_with_owner_and_p5() -> None:
    g, _ = _trainless(400)
    fresh = _paint(g)
    assert all(_pixels(fresh, hid, PORT) > 50 for hid in FERRY_PORTS)  # all five, for sale
    assert _tagged(fresh, MARKER) == {}
    g.companies["P5"].owner = "CV"  # set by hand, as test_1833ne_last_differences does
    g.corporations["CV"].companies.append("P5")
    for hid in ("G22", "I14"):
        g.process(A.SpecialBuy(entity="CV", entity_type="corporation", description=f"Ferry {hid}"))
    g.process(A.Assign(entity="P5", entity_type="company", target="G22", target_type="hex"))
    p = _paint(g)
    assert _tagged(p, MARKER) == {"G22": ["CV", "P5"], "I14": ["CV"]}
    assert all(_pixels(p, hid, PORT) > 50 for hid in FERRY_PORTS)


def test_1833ne_ferries_leave_the_map_in_phase_iv() -> None:
    g, _ = _trainless(400)
    g.process(A.SpecialBuy(entity="CV", entity_type="corporation", description="Ferry G22"))
    assert g.port_marks()["G22"] == ["CV"]
    g.change_phase(3)  # phase IV (as test_1833ne.test_ferry_new_bonus_and_removal)
    assert g.port_marks() == {}
    p = _paint(g)
    assert _tagged(p, MARKER) == {} and all(_pixels(p, hid, PORT) == 0 for hid in FERRY_PORTS)


def test_a_blank_water_hex_says_it_is_water_without_track(monkeypatch: pytest.MonkeyPatch) -> None:
    """1856's N5 is a blue hex with no track and no name: a play-tester asked what it was. It
    now reads "water / no track" in white; hexes of water with track (1833NE's ports) are not
    labelled so."""
    from engine.titles.registry import new_game
    from render.map import labels
    from render.palette import WHITE

    g = new_game("1856", [("1", "a"), ("2", "b"), ("3", "c")])
    assert g.board.hexes["N5"].tile.color == "blue" and not g.board.hexes["N5"].tile.paths
    assert _pixels(_paint(g), "N5", WHITE) > 100
    said: list[str] = []
    water = labels._water
    monkeypatch.setattr(labels, "_water", lambda p, hid: (said.append(hid), water(p, hid)))
    _paint(g)
    ne = new()
    _paint(ne)
    assert said == ["N5"]
    assert any(h.tile.color == "blue" for h in ne.board.hexes.values())


def test_a_long_name_with_a_slash_breaks_after_it_and_stays_readable() -> None:
    """1833NE's C8 "St. Albans/Burlington" was split at its only space ("St." over
    "Albans/Burlington") and shrunk to a size no phone can read; it breaks after the slash now,
    both lines in the size a one-line name of that width gets shrunk to at most."""
    from render.draw import text_width
    from render.map import labels

    g = new()
    name = g.board.hexes["C8"].location
    assert name == "St. Albans/Burlington"
    size, room = 14, text_width("St. Albans/", 13, True) + 1
    text, got = labels._wrap(name, size, room)
    assert text == "St. Albans/\nBurlington" and got >= 13
    assert labels._wrap("Fort Erie", size, room) == ("Fort Erie", size)  # (fits: unchanged)
