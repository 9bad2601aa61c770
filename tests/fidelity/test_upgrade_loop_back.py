"""An upgrade must add track the corporation can use (18xx.games' semi-restrictive track rule),
counted on the paths 18xx.games' network walk takes once the tile is laid: the walk never
enters a path of a hex by an edge through which it has already left that hex on its way
(Path#walk), so a path joining two edges the network reaches only by a loop back into the hex
stays unconnected. Found by branches of generated games (seeds 29102 and 29604) whose random
moves 18xx.games refused with "Must use new track or change city value" and we accepted."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.decisions import legal_tile_lays
from engine.replay import filter_actions, replay
from tests.fixture_util import load_export
from tests.positions import at, rejected

GJR = "generated/1836jr56"
G56 = "generated/1856"
JR_CASE = "1836jr56_p4_s29102_u697_r219_crisis_upgrade_by_a_loop_back"
C56_CASE = ("1856_p3_s29604_alternate_destinations_unlimited_bonus_tokens_eight_train_variant_long"
            "_u898_r209_late_upgrade_by_a_loop_back")


# NFL reaches H8 (tile 23: 2-5 and 2-0) at edge 2 and, around through its neighbours, at edges 0
# and 5 too; brown 41 adds the path 5-0, but every walk reaching edge 5 or 0 has left H8 through
# one of them first. CPR's network touches D13 (tile 9: 4-1) at edges 1, 4 and 5; green 23 at
# rotation 1 adds a path to edge 5 that its walk enters only after leaving D13.
@pytest.mark.parametrize(("title", "case", "upto", "corp", "hid", "old", "tile", "rotation"), [
    (GJR, JR_CASE, 712, "NFL", "H8", "23", "41-0", 5),
    (G56, C56_CASE, 1383, "CPR", "D13", "9", "23-0", 1),
])
def test_a_path_reached_only_by_a_loop_back_into_the_hex_is_not_new_track(
        title: str, case: str, upto: int, corp: str, hid: str, old: str, tile: str, rotation: int) -> None:
    g = at(title, case, upto)
    assert g.board.hexes[hid].tile.name == old
    lay = A.LayTile(entity=corp, entity_type="corporation", hex=hid, tile=tile, rotation=rotation)
    rejected(g, lay, f"an upgrade must add track {corp} can use")
    assert tile not in legal_tile_lays(g, corp, {hid}).get(hid, {})


def test_a_record_with_such_an_upgrade_replays_as_18xx_games_loads_it() -> None:
    """18xx.games checks the track restriction only in live play (not while loading a game):
    a record holding the refused upgrade replays, and play goes on live after it."""
    export = load_export(GJR, JR_CASE)
    kept = [a for a in filter_actions(export["actions"]) if not isinstance(a.get("id"), int) or a["id"] <= 712]
    lay = {"type": "lay_tile", "entity": "NFL", "entity_type": "corporation", "id": 713, "hex": "H8",
           "tile": "41-0", "rotation": 5}
    res = replay({**export, "actions": [*kept, lay]})
    assert res.error is None, res.error
    assert res.game.board.hexes["H8"].tile.name == "41"
    assert res.game.live
