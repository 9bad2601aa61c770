"""Answers the board keeps until the map changes (engine.map.board.Board): kept answers equal
answers computed afresh at every action of a whole game."""

from __future__ import annotations

from engine import actions as A
from engine.replay import filter_actions, replay
from tests.fixture_util import load_export


def test_destination_connections_kept_until_the_map_changes() -> None:
    """1856's destination check (Board.hexes_connected, asked after every track step for every
    corporation) is kept while the map is unchanged: at every action of a whole game the kept
    answer equals one computed afresh, and some destinations become connected on the way."""
    export = load_export("1856", "hotseat006")
    game = replay({**export, "actions": []}).game
    connected = set()
    for raw in filter_actions(export["actions"]):
        if raw.get("type") == "end_game":
            break
        for sym, (start, goals) in game.destinations.items():
            kept = game.board.hexes_connected(start, goals)
            assert kept == game.board._hexes_connected(start, goals), (raw["id"], sym)
            if kept:
                connected.add(sym)
        game.process(A.Action.from_dict(raw), safe=False)
    assert len(connected) >= 3, connected
