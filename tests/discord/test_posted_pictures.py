"""Pictures are posted only when they changed (found by the late-game play-test): a /merge into
the national re-posted the map (the merged corporation's stations vanished from it until the
national's replaced them; 18xx.games keeps them on its map), and after a restart the first turn
change re-posted the map and the market whatever changed (a /game undo of a run, each /merge)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.commands.layer import CommandLayer
from bot.discord.posting import board_print, market_print
from bot.reply import Caller, Reply
from bot.storage.store import Store
from bot.terminal.textcmd import parse
from engine import actions as A
from engine.replay import filter_actions, game_from_export
from render.map.image import render_map
from tests.fixture_util import load_export

CH = "table-posts"
NAME = "1856_game_end_bank"  # the national forms at actions 589-595 (TGB merges first, LPS last)


def test_a_merge_leaves_the_map_as_it_was_until_the_national_forms() -> None:
    export = load_export("1856", NAME)
    game = game_from_export(export)
    merges = 0
    for raw in filter_actions(export["actions"]):
        if raw["type"] != "merge":
            game.process(A.Action.from_dict(raw), safe=False)
            continue
        before, market, png = board_print(game), market_print(game), render_map(game)
        game.process(A.Action.from_dict(raw), safe=False)
        merges += 1
        if raw["corporation"] != "LPS":  # still forming: the merged stations stand where they stood
            assert any(sym == raw["corporation"] for sym in game.stations_leaving().values())
            assert board_print(game) == before and market_print(game) == market, raw
            assert render_map(game) == png, raw
        else:  # formed: the national's stations replace them, its price is on the market
            assert game.stations_leaving() == {}
            assert board_print(game) != before and market_print(game) != market
    assert merges == 7


async def run(layer: CommandLayer, user: str, line: str) -> Reply:
    cmd = parse(line)
    return await layer.handle(CH, Caller(user, user), cmd.name, cmd.params)


async def restarted(tmp_path: Path, upto: int) -> tuple[Store, CommandLayer, list[str]]:
    """The export imported up to action ``upto`` by one bot, seats claimed, then a new bot (a
    restart: nothing remembered of what was posted) on the same database."""
    export = load_export("1856", NAME)
    export["actions"] = [a for a in filter_actions(export["actions"]) if a["id"] <= upto]
    store = await Store.open(str(tmp_path / "bot.db"))
    first = CommandLayer(store, images=True)
    reply = await first.handle(CH, Caller("host", "host"), "game import", {"file": json.dumps(export)})
    assert reply.ok and {f.filename for f in reply.files} >= {"map.png", "market.png"}
    users = [f"user{i + 1}" for i in range(len(export["players"]))]
    for player, user in zip(export["players"], users, strict=True):
        assert (await run(first, user, f'/game claim seat:"{player["name"]}"')).ok
    return store, CommandLayer(store, images=True), users


async def test_after_a_restart_an_undone_run_posts_no_map_or_market(tmp_path: Path) -> None:
    store, layer, users = await restarted(tmp_path, 579)  # TGB (Player 4) has just run
    try:
        reply = await run(layer, users[3], "/game undo")
        assert reply.ok, reply.error
        names = [f.filename for f in reply.files]
        assert "market.png" not in names and "map.png" not in names, names
    finally:
        await store.close()


async def test_after_a_restart_merges_post_nothing_until_the_national_forms(tmp_path: Path) -> None:
    store, layer, users = await restarted(tmp_path, 589)  # TGB merged; GW (Player 1) decides
    try:
        posted = []
        for user, corp in ((0, "GW"), (1, "CPR"), (1, "THB"), (1, "CA"), (2, "GT"), (2, "LPS")):
            reply = await run(layer, users[user], f"/merge corporation:{corp}")
            assert reply.ok, reply.error
            posted.append([f.filename for f in reply.files])
        assert posted[:-1] == [[]] * 5, posted
        assert "map.png" in posted[-1] and "market.png" in posted[-1]  # CGR's stations and price
    finally:
        await store.close()
