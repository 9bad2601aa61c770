"""Help and refusals say what is relevant: the commands a refusal names are the ones that work,
errors list only the choices that make sense now, /help tells the terminal's own commands and
each title's options."""

from __future__ import annotations

from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.play import allowed_commands, build_action
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from engine import actions as A
from engine.errors import GameError
from engine.moves import MOVES
from engine.replay import filter_actions, game_from_export
from tests.bot.test_bot_errors import refused, run, setup_game
from tests.fixture_util import load_export


async def test_an_unknown_hex_lists_the_hexes_where_track_can_go(layer: CommandLayer) -> None:  # noqa: F811
    await setup_game(layer, 18)  # BBG (alice) lays track
    error = await refused(layer, "alice", "/lay hex:Z99 tile:57 rotation:0", "no hex 'Z99'")
    row = await layer.store.open_game("chan-a")
    game = (await layer.load(row)).game
    from engine.decisions import legal_tile_lays

    listed = error.split("choose from:")[1]
    assert all(h in listed for h in sorted(legal_tile_lays(game, "BBG"))[:5])
    assert "A1," not in listed  # off-board and unreachable hexes are not offered


def test_an_unknown_share_lists_the_seller_s_own_shares() -> None:
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    for raw in filter_actions(export["actions"])[:40]:
        game.process(A.Action.from_dict(raw), safe=False)
    holder = next(p.id for p in game.players if any(s.owner == p.id for s in game.shares.values()))
    own = [s.id for s in game.shares.values() if s.owner == holder]
    with pytest.raises(GameError) as refused_sale:
        build_action(MOVES["sell"], game, holder, {"shares": "NOPE_9"})
    listed = str(refused_sale.value).split("choose from:")[1]
    assert own[0] in listed
    assert all(s.strip() in own for s in listed.replace(", ...", "").split(","))


def test_a_corporation_s_sale_is_named_issue_in_1833ne() -> None:
    """1833NE: the operating corporation sells its own treasury shares with /issue (never /sell)."""
    from engine.export import export_game
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Any] = []
    assert play_one(3, 7, [], 6000, game_out=out).problem is None
    export = export_game(out[0])
    game = game_from_export(export)
    for raw in filter_actions(export["actions"]):
        if raw["type"] == "sell_shares" and raw["entity_type"] == "corporation":
            assert "/issue" in allowed_commands(game, raw["entity"])
            assert "/sell" not in allowed_commands(game, raw["entity"])
            return
        game.process(A.Action.from_dict(raw), safe=False)
    raise AssertionError("no corporation issued shares")


def test_bankruptcy_is_named_only_when_money_must_be_found() -> None:
    """1856 lets anybody declare bankruptcy in an operating round; the commands a player is shown
    name it only when a train must be bought without the money (or nothing else is left)."""
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    for raw in filter_actions(export["actions"])[:160]:
        game.process(A.Action.from_dict(raw), safe=False)
    corp = game.acting()[0]
    assert "bankrupt" in game.action_types(corp)
    assert "/bankrupt" not in allowed_commands(game, corp)


async def test_terminal_help_names_its_own_commands_and_game_new_the_title_options(tmp_path: Any) -> None:
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
        overview = "\n".join(await session.run_line("/help"))
        for command in ("/as", "/channel", "/tick", "/quit", "/moves"):
            assert command in overview
        new = "\n".join(await session.run_line("/help game new"))
        assert "1856 options:" in new and "eight_train_variant" in new
        assert "1833NE options:" in new and "takeover_game" in new
    finally:
        await store.close()


async def test_every_command_is_explained_and_topics_are_found_by_a_word(layer: CommandLayer) -> None:  # noqa: F811
    game_topic = (await run(layer, "alice", "/help topic:Game")).lines
    assert all(": " in line for line in game_topic[1:]), game_topic  # each with what it does
    repair = await run(layer, "alice", "/help command:game repair")
    assert "cut a log that no longer replays" in repair.lines[0]
    creators = await run(layer, "alice", "/help creators")
    assert "**/creators [role:]**: who may open games on this server" in creators.lines[0]
    absent = await run(layer, "alice", "/help topic:absent")
    assert absent.lines[0] == "**Absent players**"
    await refused(layer, "alice", "/creators role:x extra:1", "/creators has no option extra:")


async def test_help_explains_sync_though_only_discord_has_it(layer: CommandLayer) -> None:  # noqa: F811
    """The README sends admins to /sync: /help explains it; at the terminal it says where it works."""
    for line in ("/help command:sync", "/help /sync"):
        reply = await run(layer, "alice", line)
        assert reply.ok and reply.lines[0].startswith("**/sync**: Discord only: registers the bot's slash commands "
                                                      "with Discord again"), reply.lines
        assert "server admins (Manage Server)" in reply.lines[0]
    await refused(layer, "alice", "/sync", "/sync works on Discord only; /help command:sync explains it")


async def test_game_status_is_private_to_the_caller(layer: CommandLayer) -> None:  # noqa: F811
    """/game status tells the caller's own moves: nobody else sees it (no repost in the channel)."""
    await setup_game(layer, 6)
    reply = await run(layer, "carol", "/game status")
    assert reply.ok and reply.ephemeral and not reply.ping
    assert not any("thinking for 0m" in line for line in reply.lines)
