"""The box (a Discord modal) for a number no menu can list, end to end against the stand-in: 1856,
TGB may buy another corporation's train at the price agreed. Chosen in the train menu, the train
opens "Price for the 4-train from CA"; what is typed there runs as the typed command would: a bad
number is refused privately and changes nothing, a good one buys the train, after a restart too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.reply import Caller
from tests.discord_standin import Channel, DiscordStandIn, Message, User
from tests.discord_standin.harness import RunningBot, assert_pings_only, say, slow_menus, standin
from tests.discord_standin.model import EPHEMERAL
from tests.fixture_util import load_export

__all__ = ["standin"]


async def _tgb_buys_trains(standin: DiscordStandIn, running: Any, users: list[User], table: Channel) -> None:
    """1856_game_end_bank after its action 585 (OR 5.2, phase 5): TGB ($733) buys trains. Dee
    holds Player 4 (TGB's president) and Player 2 (CA's and CPR's), so a train of CA is bought at
    once; Ann and Ben hold the other seats."""
    export = load_export("1856", "1856_game_end_bank")
    for key in ("result", "game_end_reason", "status"):
        export.pop(key, None)
    export["actions"] = [a for a in export["actions"] if a["id"] <= 585]
    layer = running.get_cog("Conductor").layer
    host = Caller(str(users[0].id), users[0].name, guild=str(table.guild_id))
    imported = await layer.handle(str(table.id), host, "game import", {"file": json.dumps(export)})
    assert imported.ok, imported.error
    for user, seat in ((users[0], "Player 1"), (users[1], "Player 3"), (users[2], "Player 2"), (users[2], "Player 4")):
        _, claimed = await say(standin, user, table, "game claim", {"seat": seat})
        assert not claimed.ephemeral, claimed.content


async def _game(running: Any, table: Channel) -> Any:
    """The channel's game as the bot holds it now."""
    layer = running.get_cog("Conductor").layer
    row = await layer.store.open_game(str(table.id))
    return (await layer.load(row)).game


def _train_pick(msg: Message, label: str) -> tuple[dict[str, Any], str]:
    menu = msg.menu("choose train")
    return menu, next(o["value"] for o in menu["options"] if o["label"].startswith(label))


async def test_a_train_bought_from_another_corporation_asks_its_price_in_a_box(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Dee")]
    dee = users[2]
    table = standin.add_guild("Club", users).channels[0]
    async with RunningBot(standin, tmp_path / "bot.db") as running:
        await _tgb_buys_trains(standin, running, users, table)
        # from a private menu (/game status): the box is the first answer, the menu stays as it was
        _, status = await say(standin, dee, table, "game status")
        menu, value = _train_pick(status, "5-train from CA, $1-$733")
        rec = await standin.select(dee, status, menu, value)
        box = await standin.modal_opened(rec)
        assert [c.type for c in rec.callbacks] == [9] and not rec.refused
        assert (box.title, box.custom_id) == ("Price for the 5-train from CA", "cm:/train train:5-1 state:585")
        # a public game message: TGB buys the Bridge Token first ($683 left), its menu says so
        _, bought = await say(standin, dee, table, "right", {"right": "Bridge Token"})
        assert not bought.ephemeral and "TGB" in bought.content, bought.content
        menu, value = _train_pick(bought, "4-train from CA, $1-$683")
        assert value == "/train train:4-0 state:586"
        rec = await standin.select(dee, bought, menu, value)
        box = await standin.modal_opened(rec)
        assert [c.type for c in rec.callbacks] == [9] and not rec.refused
        assert (box.title, box.custom_id) == ("Price for the 4-train from CA", "cm:/train train:4-0 state:586")
        [price] = box.inputs
        assert (price["custom_id"], price["label"], price["placeholder"]) == ("price", "Price ($1-$683)", "$1-$683")
        assert price["style"] == 1 and price["required"]  # one short line
        before = await _game(running, table)
        log = len(before.action_log)
        for typed, why in (("abc", "price must be a whole number, not 'abc'"), ("684", "TGB may pay between $1 and $683")):
            rec = await standin.submit_modal(dee, table, box, {"price": typed})
            refused = await standin.answered(rec)
            assert refused.ephemeral and why in refused.content, refused.content
            assert rec.callbacks[0].type == 4 and rec.callbacks[0].data.get("flags", 0) & EPHEMERAL
            assert not rec.flashed_public_thinking and len(rec.messages) == 1
        game = await _game(running, table)
        assert len(game.action_log) == log and game.trains["4-0"].owner == "CA"
        assert (game.corp("TGB").cash, game.corp("CA").cash) == (683, 38)
        assert bought.components, "the refusals changed nothing: the game message still offers its taps"

    async with RunningBot(standin, tmp_path / "bot.db") as running:  # the box outlives a restart
        rec = await standin.submit_modal(dee, table, box, {"price": "1"})
        done = await standin.answered(rec)
        assert not done.ephemeral and "TGB buys a 4-train for $1 from CA" in done.content, done.content
        assert_pings_only(done, None)  # Dee acts again, for TGB
        game = await _game(running, table)
        assert game.trains["4-0"].owner == "TGB" and len(game.action_log) == log + 1
        assert (game.corp("TGB").cash, game.corp("CA").cash) == (682, 39)
        rec = await standin.submit_modal(dee, table, box, {"price": "1"})  # the same box again: stale
        stale = await standin.answered(rec)
        assert stale.ephemeral and "out of date" in stale.content, stale.content
        assert len((await _game(running, table)).action_log) == log + 1
        assert standin.errors == []


async def test_a_box_that_cannot_open_in_time_says_what_to_type(
        standin: DiscordStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next step is worked out slowly (the interaction is acknowledged first): a modal must be
    the first answer, so the choice is answered with the command to type instead."""
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Dee")]
    table = standin.add_guild("Club", users).channels[0]
    async with RunningBot(standin, tmp_path / "bot.db") as running:
        await _tgb_buys_trains(standin, running, users, table)
        _, bought = await say(standin, users[2], table, "right", {"right": "Bridge Token"})
        slow_menus(monkeypatch)
        menu, value = _train_pick(bought, "4-train from CA")
        rec = await standin.select(users[2], bought, menu, value)
        hint = await standin.answered(rec)
        assert rec.modal is None and [c.type for c in rec.callbacks] == [6]
        assert hint.ephemeral and hint.content == (
            "TGB, buy a train: type /train train:4-0 price:N (N: the price for the 4-train from CA, $1-$683)"), \
            hint.content
        assert standin.errors == []
