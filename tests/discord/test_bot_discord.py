"""The discord.py layer without a live Discord: command callbacks called with fake interactions
(``unittest.mock`` objects specced on discord.py classes); we assert on what would be sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord.ext import commands

from bot.commands.layer import CommandLayer
from bot.discord.cog import ConductorCog, StateButton
from bot.storage.store import Store
from engine.moves import choices_for
from engine.replay import filter_actions
from tests.fixture_util import load_export

ALICE, BOB, CAROL = 1001, 1002, 1003
CHANNEL = 555


def fake_interaction(
    cog: ConductorCog,
    user_id: int,
    *,
    command: str | None = None,
    data: dict[str, Any] | None = None,
    admin: bool = False,
) -> Any:
    inter = MagicMock(spec=discord.Interaction)
    user = MagicMock(spec=discord.Member)
    user.id, user.name, user.display_name = user_id, f"user{user_id}", f"User{user_id}"
    user.guild_permissions = discord.Permissions.all() if admin else discord.Permissions.none()
    inter.user = user
    inter.channel_id = CHANNEL
    channel = MagicMock(spec=discord.TextChannel)
    status_msg = MagicMock(spec=discord.Message)
    status_msg.id = 9999
    status_msg.pin = AsyncMock()
    channel.send = AsyncMock(return_value=status_msg)
    partial = MagicMock(spec=discord.PartialMessage)
    partial.edit = AsyncMock()
    channel.get_partial_message = MagicMock(return_value=partial)
    inter.channel = channel
    inter.response = MagicMock(spec=discord.InteractionResponse)
    acked: list[str] = []  # like discord.py: the response is done once deferred or sent
    inter.response.defer = AsyncMock(side_effect=lambda *a, **k: acked.append("defer"))
    inter.response.send_message = AsyncMock(side_effect=lambda *a, **k: acked.append("message"))
    inter.response.is_done = MagicMock(side_effect=lambda: bool(acked))
    inter.followup = MagicMock(spec=discord.Webhook)
    inter.followup.send = AsyncMock()
    inter.delete_original_response = AsyncMock()
    inter.extras = {}
    inter.type = discord.InteractionType.application_command
    inter.data = data or {}
    client = MagicMock(spec=commands.Bot)
    client.get_cog = MagicMock(return_value=cog)
    inter.client = client
    if command is not None:
        cmd = MagicMock(spec=discord.app_commands.Command)
        cmd.qualified_name = command
        inter.command = cmd
    else:
        inter.command = None
    return inter


@pytest.fixture
async def cog(tmp_path: Path) -> AsyncIterator[ConductorCog]:
    store = await Store.open(str(tmp_path / "d.db"))
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    yield ConductorCog(bot, CommandLayer(store, images=False))
    await store.close()


def sent(inter: Any) -> dict[str, Any]:
    """The one message posted for an interaction: its response, or its one followup after a defer."""
    calls = inter.response.send_message.await_args_list + inter.followup.send.await_args_list
    assert len(calls) == 1, calls
    call = calls[0]
    out = dict(call.kwargs)
    if call.args:
        out["content"] = call.args[0]
    return out


async def start_game(cog: ConductorCog) -> None:
    for uid, name, params in [
        (ALICE, "game_new", {"title": "1856"}),
        (BOB, "game_join", {}),
        (CAROL, "game_join", {}),
    ]:
        inter = fake_interaction(cog, uid)
        await getattr(cog, name).callback(cog, inter, **params)
        assert sent(inter).get("ephemeral") is False


async def test_slash_commands_post_and_ping_only_the_acting_player(cog: ConductorCog) -> None:
    await start_game(cog)
    inter = fake_interaction(cog, ALICE)
    await cog.game_start.callback(cog, inter, order="joined")
    inter.response.defer.assert_not_awaited()  # ready at once: the reply is the response itself
    msg = sent(inter)
    assert "embed" not in msg and "embeds" not in msg
    assert f"<@{ALICE}>" in msg["content"] and f"<@{BOB}>" not in msg["content"]
    mentions: discord.AllowedMentions = msg["allowed_mentions"]
    assert mentions.everyone is False and mentions.roles is False
    assert [u.id for u in mentions.users] == [ALICE]
    # the pinned status message is posted once and pinned
    inter.channel.send.assert_awaited_once()
    inter.channel.send.return_value.pin.assert_awaited_once()

    inter = fake_interaction(cog, ALICE)
    await cog.pass_.callback(cog, inter)
    msg = sent(inter)
    assert "passes" in msg["content"] and f"<@{BOB}>" in msg["content"]
    assert [u.id for u in msg["allowed_mentions"].users] == [BOB]
    inter.channel.get_partial_message.return_value.edit.assert_awaited_once()  # edited, not reposted
    inter.channel.send.assert_not_awaited()


async def test_refusal_is_ephemeral_and_changes_nothing(cog: ConductorCog) -> None:
    await start_game(cog)
    await cog.game_start.callback(cog, fake_interaction(cog, ALICE), order="joined")
    before = await cog.layer.store.dump()
    inter = fake_interaction(cog, BOB)
    await cog.bid.callback(cog, inter, company="FT", price=20)
    inter.response.defer.assert_not_awaited()  # no public "thinking..." before a refusal
    msg = sent(inter)
    assert msg["ephemeral"] is True and "not your turn" in msg["content"].lower()
    assert await cog.layer.store.dump() == before


async def test_slow_commands_defer_first_privately_when_the_answer_is_private(
    cog: ConductorCog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.discord.cog as cog_module

    monkeypatch.setattr(cog_module, "ANSWER_WITHIN", 0.0)
    handle = cog.layer.handle

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(0.05)
        return await handle(*args)

    monkeypatch.setattr(cog.layer, "handle", slow)
    inter = fake_interaction(cog, ALICE, command="help")
    await cog.help.callback(cog, inter)
    assert sent(inter)["ephemeral"] is True
    await start_game(cog)
    # a public command refused after a public defer: the placeholder is deleted, the refusal is private
    inter = fake_interaction(cog, BOB)
    await cog.game_start.callback(cog, inter, order="joined")
    inter.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)
    inter.delete_original_response.assert_awaited_once()
    msg = sent(inter)
    assert msg["ephemeral"] is True and "host" in msg["content"]


async def test_buttons_run_commands_and_stale_ones_are_refused(cog: ConductorCog) -> None:
    await start_game(cog)
    inter = fake_interaction(cog, ALICE)
    await cog.game_start.callback(cog, inter, order="joined")
    view: discord.ui.View = sent(inter)["view"]
    button = next(item for item in view.children if item.item.label == "Pass")  # type: ignore[attr-defined]
    assert isinstance(button, StateButton) and button.custom_id.startswith("cx:/pass state:")
    click = fake_interaction(cog, ALICE, data={"custom_id": button.custom_id})
    click.type = discord.InteractionType.component
    match = StateButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None
    await (await StateButton.from_custom_id(click, button.item, match)).callback(click)
    assert "passes" in sent(click)["content"]
    again = fake_interaction(cog, ALICE, data={"custom_id": button.custom_id})
    again.type = discord.InteractionType.component
    before = await cog.layer.store.dump()
    await (await StateButton.from_custom_id(again, button.item, match)).callback(again)
    msg = sent(again)
    assert msg["ephemeral"] is True and "out of date" in msg["content"]
    assert await cog.layer.store.dump() == before


async def import_at(cog: ConductorCog, upto: int) -> None:
    export = load_export("1856", "hotseat001")
    export["actions"] = filter_actions(export["actions"])[:upto]
    attachment = MagicMock(spec=discord.Attachment)
    attachment.size = 1000
    attachment.read = AsyncMock(return_value=json.dumps(export).encode())
    inter = fake_interaction(cog, ALICE)
    await cog.game_import.callback(cog, inter, file=attachment)
    assert "imported" in sent(inter)["content"]
    for uid, seat in [(ALICE, "Player 1"), (BOB, "Player 2"), (CAROL, "Player 3")]:
        inter = fake_interaction(cog, uid)
        await cog.game_claim.callback(cog, inter, seat=seat)
        assert "takes the seat" in sent(inter)["content"]


async def complete(cog: ConductorCog, user: int, command: str, options: list[dict[str, Any]]) -> list[Any]:
    from bot.discord.io import complete as ac

    inter = fake_interaction(cog, user, command=command, data={"options": options})
    current = next(str(o.get("value", "")) for o in options if o.get("focused"))
    return await ac(inter, current)


async def test_autocomplete_offers_only_legal_choices(cog: ConductorCog) -> None:
    await import_at(cog, 18)  # BBG (alice) lays track
    row = await cog.layer.store.open_game(str(CHANNEL))
    game = (await cog.layer.load(row)).game
    hexes = await complete(cog, ALICE, "lay", [{"name": "hex", "value": "", "focused": True}])
    assert 0 < len(hexes) <= 25
    legal = {c.value for c in choices_for(game, "BBG", "lay_tile", {})}
    assert {c.value for c in hexes} <= legal
    hex_id = hexes[0].value
    tiles = await complete(
        cog, ALICE, "lay", [{"name": "hex", "value": hex_id}, {"name": "tile", "value": "", "focused": True}]
    )
    assert tiles and {c.value for c in tiles} <= {
        c.value for c in choices_for(game, "BBG", "lay_tile", {"hex": hex_id})
    }
    rotations = await complete(
        cog,
        ALICE,
        "lay",
        [
            {"name": "hex", "value": hex_id},
            {"name": "tile", "value": tiles[0].value},
            {"name": "rotation", "value": "", "focused": True},
        ],
    )
    assert rotations
    # every offered choice is accepted by the engine (checked on a copy)
    inter = fake_interaction(cog, ALICE)
    await cog.lay.callback(cog, inter, hex=hex_id, tile=tiles[0].value, rotation=rotations[0].value)
    assert "lays tile" in sent(inter)["content"]
    # someone who is not acting gets nothing; typing filters
    assert await complete(cog, BOB, "lay", [{"name": "hex", "value": "", "focused": True}]) == []
    trains = await complete(cog, ALICE, "train", [{"name": "train", "value": "2", "focused": True}])
    assert trains and all("2" in c.value or "2" in c.name for c in trains) and len(trains) <= 25


async def test_autocomplete_in_the_stock_round(cog: ConductorCog) -> None:
    await import_at(cog, 6)
    corps = await complete(cog, ALICE, "par", [{"name": "corporation", "value": "", "focused": True}])
    assert 0 < len(corps) <= 25
    prices = await complete(
        cog,
        ALICE,
        "par",
        [{"name": "corporation", "value": corps[0].value}, {"name": "price", "value": "", "focused": True}],
    )
    assert prices and all(c.value.isdigit() for c in prices)  # the price as a player types it
    inter = fake_interaction(cog, ALICE)
    await cog.par.callback(cog, inter, corporation=corps[0].value, price=prices[-1].value)
    msg = sent(inter)
    assert "pars" in msg["content"] and f"<@{BOB}>" in msg["content"]
    assert [u.id for u in msg["allowed_mentions"].users] == [BOB]


async def test_host_or_admin_ends_the_game(cog: ConductorCog) -> None:
    await start_game(cog)
    inter = fake_interaction(cog, BOB)
    await cog.game_end.callback(cog, inter)
    assert sent(inter)["ephemeral"] is True
    inter = fake_interaction(cog, ALICE)
    await cog.game_start.callback(cog, inter, order="joined")
    inter = fake_interaction(cog, CAROL, admin=True)
    await cog.game_end.callback(cog, inter)
    ask = sent(inter)  # a running game: asked first, privately, with the button that ends it
    assert ask["ephemeral"] is True and "End the 1856 game now?" in ask["content"]
    button = next(item for item in ask["view"].children if item.item.label == "End the game")
    assert isinstance(button, StateButton) and button.custom_id == "cx:/game end confirm:yes"
    click = fake_interaction(cog, CAROL, admin=True, data={"custom_id": button.custom_id})
    click.type = discord.InteractionType.component
    match = StateButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None
    await (await StateButton.from_custom_id(click, button.item, match)).callback(click)
    assert "ends the game" in sent(click)["content"]


async def test_a_game_not_started_is_called_off(cog: ConductorCog) -> None:
    await start_game(cog)
    inter = fake_interaction(cog, ALICE)
    await cog.game_end.callback(cog, inter)
    assert "calls off the 1856 game before it started" in sent(inter)["content"]


async def test_help_is_ephemeral(cog: ConductorCog) -> None:
    inter = fake_interaction(cog, ALICE, command="help")
    await cog.help.callback(cog, inter)
    assert sent(inter)["ephemeral"] is True
