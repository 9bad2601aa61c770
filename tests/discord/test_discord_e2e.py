"""End to end through the real discord.py client: the unmodified bot logs in to the Discord
stand-in (tests/discord_standin) on loopback, registers its commands, and four users play 1856
from ``/game new`` through the private auction, the first stock round and an operating turn;
every reply is checked as Discord received it (content, ephemeral flag, PNG attachments,
``allowed_mentions`` and who was pinged). Also: autocomplete within Discord's limits, buttons
across a restart, ``/sync``, two guilds at once, two operating rounds played by taps only (buttons
and select menus; old components cleared), /help by topic with clickable command mentions, turn
pings by DM, and a slow menu choice acknowledged silently."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.reply import Caller
from bot.service import render_images
from bot.terminal.textcmd import action_to_command, parse
from engine.moves import choices_for
from engine.replay import filter_actions, replay
from engine.titles.registry import new_game, title_names
from render.draw import _sprite
from render.fonts import font
from tests.discord_standin import Channel, DiscordStandIn, InteractionRecord, Message, User
from tests.discord_standin.harness import RunningBot, assert_pings_only, assert_pngs, say, slow_menus, standin
from tests.discord_standin.model import EPHEMERAL, MANAGE_GUILD, PRIVILEGED_INTENTS
from tests.fixture_util import load_export

__all__ = ["standin"]  # the fixture

FLOW_ACTIONS = 28  # 89363: the auction (12), stock round 1 (10) and GW's first operating turn (6)


def one_response(rec: InteractionRecord) -> None:
    """Answered with exactly one acknowledgement, nothing refused by Discord."""
    assert len(rec.callbacks) == 1 and not rec.refused, (rec.callbacks, rec.refused)


def private_refusal(rec: InteractionRecord, msg: Message) -> None:
    """A refusal: an ephemeral response at once, no "thinking..." shown to the channel first."""
    one_response(rec)
    assert rec.callbacks[0].type == 4 and rec.callbacks[0].data.get("flags", 0) & EPHEMERAL
    assert msg.ephemeral and not rec.flashed_public_thinking and len(rec.messages) == 1


def legal(choices: list[dict[str, Any]], game: Any, entity: str, action: str,
          partial: dict[str, str] | None = None) -> None:
    assert 0 < len(choices) <= 25
    assert all(1 <= len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in choices)
    allowed = {c.value for c in choices_for(game, entity, action, partial or {})}
    assert {c["value"] for c in choices} <= allowed, (choices, allowed)


async def test_four_users_play_1856_from_game_new_through_an_operating_turn(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    export = load_export("1856", "89363")
    players = [standin.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave")]
    guild = standin.add_guild("Railway Club", players)
    table = guild.channels[0]
    user_of_pid = {str(p["id"]): players[i] for i, p in enumerate(export["players"])}

    async with RunningBot(standin, tmp_path / "bot.db") as bot:
        # logged in with the token, registered the commands once, asked for no privileged intent
        assert standin.requests[0].path == "/api/v10/users/@me"
        assert standin.requests[0].authorization == f"Bot {standin.token}"
        assert len(standin.command_puts) == 1 and standin.command_puts[0].path.endswith(
            f"/applications/{standin.application_id}/commands")
        assert len(standin.identifies) == 1 and standin.identifies[0]["token"] == standin.token
        assert standin.identifies[0]["intents"] & PRIVILEGED_INTENTS == 0
        names = {c["name"] for c in standin.global_commands}
        assert {"game", "help", "bid", "par", "buy", "lay", "pass", "sync"} <= names

        alice = players[0]
        rec, msg = await say(standin, alice, table, "game new",
                             {"title": "1856", "options": "alternate_destinations"})
        one_response(rec)
        assert "Alice opened a game of 1856" in msg.content and not msg.ephemeral and not msg.files
        assert_pings_only(msg, None)
        for user in players[1:]:
            rec, msg = await say(standin, user, table, "game join")
            one_response(rec)
            assert f"{user.name} joins the game" in msg.content and not msg.ephemeral
            assert_pings_only(msg, None)

        # a refused command: private at once, no public "thinking..."
        rec, msg = await say(standin, players[1], table, "game start", {"order": "joined"})
        private_refusal(rec, msg)
        assert "host" in msg.content

        rec, msg = await say(standin, alice, table, "game start", {"order": "joined"})
        one_response(rec)
        assert "1856 starts" in msg.content and not msg.ephemeral
        assert f"<@{alice.id}> your turn" in msg.content
        assert_pings_only(msg, alice.id)
        assert_pngs(msg, {"map.png", "market.png"})
        assert msg.button("Pass")["custom_id"] == "cx:/pass state:0"
        await standin.wait_for(lambda: any(m.pinned for m in standin.channel_messages(table)), 10,
                               "the pinned status message")
        status = [m for m in standin.channel_messages(table) if m.pinned]
        assert len(status) == 1 and "**1856** game" in status[0].content and status[0].interaction_id is None
        assert_pings_only(status[0], None)

        # autocomplete in the auction: only legal companies, within Discord's limits
        game = replay({**export, "actions": []}).game
        choices = await standin.autocomplete(alice, table, "bid", {"company": ""}, focused="company")
        legal(choices, game, game.players[0].id, "bid")
        assert await standin.autocomplete(players[1], table, "bid", {"company": ""}, focused="company") == []

        actions = [a for a in filter_actions(export["actions"]) if action_to_command(a)][:FLOW_ACTIONS]
        last_pinged = alice
        seen: list[str] = []
        pictures: dict[int, set[str]] = {}
        for i, raw in enumerate(actions):
            before = replay({**export, "actions": actions[:i]}).game
            entity = str(raw["entity"])
            pid = entity if raw.get("entity_type") == "player" else before.controller_of(entity)
            user = user_of_pid[str(pid)]
            cmd = parse(action_to_command(raw) or "")
            if raw["type"] == "lay_tile":  # the legal hexes, then tiles for the hex, as the player types them
                hexes = await standin.autocomplete(user, table, "lay", {"hex": ""}, focused="hex")
                legal(hexes, before, entity, "lay_tile")
                assert cmd.params["hex"] in {c["value"] for c in hexes} or len(hexes) == 25
                tiles = await standin.autocomplete(user, table, "lay", {"hex": cmd.params["hex"], "tile": ""},
                                                   focused="tile")
                legal(tiles, before, entity, "lay_tile", {"hex": cmd.params["hex"]})
            if raw["type"] == "par" and "par" not in seen:
                corps = await standin.autocomplete(user, table, "par", {"corporation": ""}, focused="corporation")
                legal(corps, before, entity, "par")
            seen.append(raw["type"])
            rec, msg = await say(standin, user, table, cmd.name, cmd.params)
            one_response(rec)
            assert not msg.ephemeral, msg.content
            after = replay({**export, "actions": actions[:i + 1]}).game
            nxt = user_of_pid[str(after.acting_players()[0])]
            if nxt is not last_pinged:  # the turn passed to another player: exactly that player is pinged
                assert f"<@{nxt.id}> your turn" in msg.content, msg.content
                assert_pings_only(msg, nxt.id)
                last_pinged = nxt
            else:
                assert_pings_only(msg, None)
            if msg.files:
                assert_pngs(msg)
            pictures[raw["id"]] = {f.filename for f in msg.files}
            if raw["id"] == 3:
                assert "Carol bids $80 for GLSC" in msg.content
            if raw["id"] == 8:  # the auction of GLSC is decided
                assert "Carol buys GLSC (Great Lakes Shipping Company) for $90" in msg.content
            if raw["id"] == 22:  # the stock round ends: GW floats and its president is pinged
                assert "GW floats" in msg.content and nxt is players[2]
            if raw["id"] == 23:
                assert "GW lays tile #5 with rotation" in msg.content and "on F17" in msg.content
        # GW's turn ended: WR operates and its president (Dave) was pinged
        assert "WR floats" in msg.content and last_pinged is players[3]
        # pictures only when they changed (issue 14): none in the auction, the market when a par moves
        # it, the map when GW's home station is on the board
        assert all(not pictures[i] for i in range(1, 13)), pictures
        assert pictures[13] == {"market.png"} and "map.png" in pictures[22]

        # every interaction answered exactly once; Discord refused nothing the bot sent
        assert all(len(r.callbacks) == 1 and not r.refused for r in standin.interactions.values())
        assert standin.errors == []
        # one status message, pinned once and then edited
        await asyncio.sleep(0.2)
        posted = [r for r in standin.requests if r.method == "POST" and r.path.endswith(f"/{table.id}/messages")]
        assert len(posted) == 1 and len([m for m in standin.channel_messages(table) if m.pinned]) == 1
        assert "Now" in status[0].content and status[0].edits > 0
        # buttons are dynamic items: nothing is kept in memory per message
        assert bot.persistent_views == []


async def test_buttons_survive_a_restart_and_commands_are_registered_once(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    players = [standin.add_user(n) for n in ("Alice", "Bob", "Carol")]
    admin = standin.add_user("Admin")
    guild = standin.add_guild("Club", [*players, admin], admins=(admin,))
    table = guild.channels[0]
    db = tmp_path / "bot.db"
    async with RunningBot(standin, db):
        await say(standin, players[0], table, "game new", {"title": "1856"})
        for user in players[1:]:
            await say(standin, user, table, "game join")
        _, started = await say(standin, players[0], table, "game start", {"order": "joined"})
    assert len(standin.command_puts) == 1

    async with RunningBot(standin, db) as bot:  # a restart: same database, same commands
        assert len(standin.identifies) == 2
        assert len(standin.command_puts) == 1  # not registered again
        seen = started.button("Pass")
        click = await standin.click(players[0], started, "Pass")
        msg = await standin.answered(click)
        one_response(click)
        assert "Alice passes" in msg.content and not msg.ephemeral
        assert_pings_only(msg, players[1].id)
        # the message posted before the restart no longer offers its buttons (read back from history)
        await standin.wait_for(lambda: started.components == [], 10, "the stale buttons to go")
        assert msg.components
        again = await standin.click(players[0], started, seen)  # the same button, on a stale screen
        stale = await standin.answered(again)
        private_refusal(again, stale)
        assert "out of date" in stale.content
        # someone else's button is refused privately too
        other = await standin.click(players[2], msg, "Pass")
        refused = await standin.answered(other)
        private_refusal(other, refused)

        # /sync: hidden from non-admins by Discord, refused to them by the bot, forced by an admin
        sync = next(c for c in standin.global_commands if c["name"] == "sync")
        assert int(sync["default_member_permissions"]) == MANAGE_GUILD
        rec, msg = await say(standin, players[1], table, "sync")
        private_refusal(rec, msg)
        assert len(standin.command_puts) == 1
        rec, msg = await say(standin, admin, table, "sync")
        assert msg.ephemeral and "Registered" in msg.content and not rec.flashed_public_thinking
        assert len(standin.command_puts) == 2
        assert bot.persistent_views == []

    # a changed command tree is registered again on the next start
    running = RunningBot(standin, db)

    @running.bot.tree.command(name="extra", description="A command added by a new version")
    async def extra(interaction: Any) -> None:  # pragma: no cover - never invoked
        pass

    async with running:
        assert len(standin.command_puts) == 3
        assert "extra" in {c["name"] for c in standin.global_commands}


async def test_the_bot_warms_the_pictures_up_when_it_starts(
        standin: DiscordStandIn, tmp_path: Path, caplog: Any) -> None:
    standin.add_guild("Club", [standin.add_user("Alice")])
    caplog.set_level("INFO", logger="bot.discord.client")
    async with RunningBot(standin, tmp_path / "bot.db") as bot:
        assert bot.warming is not None
        await asyncio.wait_for(bot.warming, 60)
        assert bot.warming.exception() is None
    assert "pictures warmed up for 1856, 1836Jr56, 1833NE" in caplog.text
    # every text a new game of each title shows is drawn already, every font size loaded
    sprites, fonts = _sprite.cache_info(), font.cache_info()
    for title in title_names():
        render_images(new_game(title, [("1", "A"), ("2", "B"), ("3", "C")]))
    assert _sprite.cache_info().misses == sprites.misses
    assert font.cache_info().misses == fonts.misses


async def test_two_guilds_at_once_nothing_leaks(standin: DiscordStandIn, tmp_path: Path) -> None:
    east = [standin.add_user(n) for n in ("Ann", "Ben", "Cat")]
    west = [standin.add_user(n) for n in ("Dan", "Eve", "Fay")]
    g_east = standin.add_guild("East", east)
    g_west = standin.add_guild("West", west)
    t_east, t_west = g_east.channels[0], g_west.channels[0]

    async def table(users: list[User], channel: Channel) -> Message:
        await say(standin, users[0], channel, "game new", {"title": "1856"})
        for user in users[1:]:
            await say(standin, user, channel, "game join")
        _, msg = await say(standin, users[0], channel, "game start", {"order": "joined"})
        _, msg = await say(standin, users[0], channel, "pass")
        return msg

    async with RunningBot(standin, tmp_path / "bot.db"):
        m_east, m_west = await asyncio.gather(table(east, t_east), table(west, t_west))
        assert_pings_only(m_east, east[1].id)
        assert_pings_only(m_west, west[1].id)
        _, games_east = await say(standin, east[2], t_east, "games")
        assert games_east.ephemeral and f"<#{t_east.id}>" in games_east.content
        assert str(t_west.id) not in games_east.content and "Dan" not in games_east.content
        await asyncio.sleep(0.2)
    for channel, mine, theirs in ((t_east, east, west), (t_west, west, east)):
        messages = standin.channel_messages(channel, include_ephemeral=True)
        assert messages
        text = "\n".join(m.content for m in messages)
        assert all(u.name in text for u in mine)
        assert not any(u.name in text or str(u.id) in text for u in theirs)
        assert {u for m in messages for u in m.pinged_users()} <= {u.id for u in mine}
        assert len([m for m in messages if m.pinned]) == 1
    for rec in standin.interactions.values():  # every answer went to the interaction's own channel
        assert all(m.channel_id == rec.channel.id for m in rec.messages)
    assert standin.errors == []
    assert all(len(r.callbacks) == 1 for r in standin.interactions.values())


async def test_help_is_private_and_status_has_three_pictures(standin: DiscordStandIn, tmp_path: Path) -> None:
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Cat")]
    table = standin.add_guild("Club", users).channels[0]
    async with RunningBot(standin, tmp_path / "bot.db"):
        rec, msg = await say(standin, users[0], table, "help")
        one_response(rec)
        assert msg.ephemeral and "/game new" in msg.content and rec.callbacks[0].type == 4
        # short and by topic, with the commands as clickable mentions of their registered ids
        ids = {c["name"]: c["id"] for c in standin.global_commands}
        assert len(msg.content) < 1000 and "**Actions**" in msg.content
        assert f"</game new:{ids['game']}>" in msg.content and f"</help:{ids['help']}>" in msg.content
        rec, msg = await say(standin, users[0], table, "help", {"topic": "Actions"})
        one_response(rec)
        assert msg.ephemeral and f"</lay:{ids['lay']}>: lay or upgrade a tile" in msg.content
        assert all(line.startswith("</") for line in msg.content.splitlines()[1:])
        from bot.commands.table import HELP_LAYOUT
        topics = next(o for c in standin.global_commands if c["name"] == "help" for o in c["options"]
                      if o["name"] == "topic")["choices"]
        assert [t["value"] for t in topics] == [section for section, _ in HELP_LAYOUT]
        for topic in topics:  # every topic fits one message, each of its commands clickable
            _, msg = await say(standin, users[0], table, "help", {"topic": topic["value"]})
            assert msg.ephemeral and f"**{topic['value']}**" in msg.content and "</" in msg.content
        await say(standin, users[0], table, "game new", {"title": "1856"})
        for user in users[1:]:
            await say(standin, user, table, "game join")
        await say(standin, users[0], table, "game start", {"order": "joined"})
        rec, msg = await say(standin, users[1], table, "game status")
        one_response(rec)
        assert_pngs(msg, {"map.png", "market.png", "status.png"})
        assert_pings_only(msg, None)


def tap_for(msg: Message) -> tuple[str, dict[str, Any], str]:
    """What a player taps on ``msg``: ("menu", the menu, its first value) for track, a token or a
    train that must be bought (a button when it is the only choice), else ("button", the button,
    its label): routes, the first dividend, what passes the step (/done where there is no track
    to lay)."""
    menus = {m["custom_id"].split()[0]: m for m in msg.menus}
    buttons = {b["label"]: b for b in msg.buttons}
    for command in ("/lay", "/token"):
        if f"cs:{command}" in menus:
            return "menu", menus[f"cs:{command}"], menus[f"cs:{command}"]["options"][0]["value"]
        one = [b for b in msg.buttons if b["custom_id"].startswith(f"cx:{command} ")]  # its only choice
        if one:
            return "button", one[0], one[0]["label"]
    for label in ("Run suggested routes", "No loan", "No train", "No private", "Done (pass the rest)",
                  "Pass", "End turn"):
        if label in buttons:
            return "button", buttons[label], label
    if "cs:/train" in menus:
        return "menu", menus["cs:/train"], menus["cs:/train"]["options"][0]["value"]
    trains = [b for b in msg.buttons if b["custom_id"].startswith("cx:/train")]  # the one train it may buy
    if trains:
        return "button", trains[0], trains[0]["label"]
    dividends = [b for b in msg.buttons if b["custom_id"].startswith("cx:/dividend")]
    if dividends:
        return "button", dividends[0], dividends[0]["label"]
    raise AssertionError(f"nothing to tap on {msg.content!r}: {msg.components}")


async def test_two_operating_rounds_and_a_stock_round_are_played_by_taps_only(standin: DiscordStandIn, tmp_path: Path) -> None:
    export = load_export("1856", "89363")
    players = [standin.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave")]
    table = standin.add_guild("Railway Club", players).channels[0]
    user_of_pid = {str(p["id"]): players[i] for i, p in enumerate(export["players"])}
    actions = [a for a in filter_actions(export["actions"]) if action_to_command(a)]
    upto = next(i for i, a in enumerate(actions) if a["id"] == 22) + 1  # the first stock round ends

    async with RunningBot(standin, tmp_path / "bot.db") as running:
        running.get_cog("Conductor").layer.rates = None  # four players at machine speed: no flood limit
        await say(standin, players[0], table, "game new", {"title": "1856", "options": "alternate_destinations"})
        for user in players[1:]:
            await say(standin, user, table, "game join")
        _, msg = await say(standin, players[0], table, "game start", {"order": "joined"})
        for i, raw in enumerate(actions[:upto]):  # the auction and the stock round, typed
            before = replay({**export, "actions": actions[:i]}).game
            entity = str(raw["entity"])
            pid = entity if raw.get("entity_type") == "player" else before.controller_of(entity)
            cmd = parse(action_to_command(raw) or "")
            _, msg = await say(standin, user_of_pid[str(pid)], table, cmd.name, cmd.params)
        assert "Operating Round 1.1" in msg.content and "begins" in msg.content
        user = next(u for u in players if u.id in msg.pinged_users())
        taps: list[str] = []
        made: list[str] = []
        posted: list[str] = []
        rounds: list[str] = []
        while "Stock Round 3" not in msg.content:  # OR 1, a stock round of passes, OR 2 (trains run)
            assert len(taps) < 120, taps
            rounds += [ln for ln in msg.content.splitlines() if ln.endswith(" begins")]
            kind, item, choice = tap_for(msg)
            taps.append(choice)
            made.append(choice if kind == "menu" else item["custom_id"].split(":", 1)[1])  # the command sent
            if kind == "menu":
                assert all(o["label"] and o["label"] != o["value"] for o in item["options"]), item["options"]
                rec = await standin.select(user, msg, item, choice)
                answer = await standin.answered(rec)
                one_response(rec)
                if answer.ephemeral:  # the hex is chosen: the tile and rotation come next, privately
                    assert "choose" in answer.content and answer.menus, answer.content
                    assert_pngs(answer, {"hex.png"})  # the hex, large enough to read on a phone
                    menu = answer.menus[0]
                    assert all("track to" in o["label"] for o in menu["options"]
                               if "rotation" in o["label"]), menu["options"]
                    assert all(o["value"].startswith(choice.removesuffix(f" state:{choice.split('state:')[1]}"))
                               for o in menu["options"]), (choice, menu["options"])
                    private = answer
                    rec = await standin.select(user, private, menu, menu["options"][0]["value"])
                    answer = await standin.answered(rec)
                    one_response(rec)
                    # the private menu is updated in place: what was chosen, no menu left to use
                    assert rec.callbacks[0].type == 7 and private.components == []
                    assert f"Chosen: {menu['options'][0]['label']}" in private.content
            else:
                rec = await standin.click(user, msg, choice)
                answer = await standin.answered(rec)
                one_response(rec)
            assert not answer.ephemeral, (choice, answer.content)
            previous, msg = msg, answer
            posted += [f.filename for f in msg.files]
            if "changes.png" in {f.filename for f in msg.files}:  # the part that changed, first and larger
                assert msg.files[0].filename == "changes.png" and "map.png" in {f.filename for f in msg.files}
                assert_pngs(msg)
            # the tapped message keeps its words but no longer offers anything
            await standin.wait_for(lambda old=previous: old.components == [], 10, "the old buttons to go")
            assert previous.content and msg.components, msg.content
            pinged = msg.pinged_users()
            if pinged:
                user = next(u for u in players if u.id == pinged[0])
        assert standin.errors == []
        assert all(len(r.callbacks) == 1 and not r.refused for r in standin.interactions.values())
        live = [m for m in standin.channel_messages(table) if m.components]
        assert live == [msg]  # only the newest message offers components
        assert {t.split()[0] for t in made} >= {"/lay", "/token", "/train"} and {"No loan", "No train"} <= set(taps)
        assert "Run suggested routes" in taps and any(t.startswith("Pay out $") for t in taps), taps
        assert "Done (pass the rest)" in taps, taps
        assert any(r.startswith("Operating Round 2") for r in rounds), rounds
        assert posted.count("changes.png") >= 3, posted  # each corporation's new track, cropped
        assert "routes.png" in posted and "network.png" not in posted  # a running corporation: its routes, cropped
        # the commands of the "next:" lines are clickable mentions of the registered commands
        ids = {c["name"]: c["id"] for c in standin.global_commands}
        assert any(f"(</loan:{ids['loan']}>, </lay:{ids['lay']}>, </pass:{ids['pass']}>)" in m.content
                   for m in standin.channel_messages(table)), [m.content for m in standin.channel_messages(table)][-3:]


async def test_a_player_who_chose_direct_messages_gets_turns_by_dm(standin: DiscordStandIn, tmp_path: Path) -> None:
    users = [standin.add_user("Ann"), standin.add_user("Ben"), standin.add_user("Cat", accepts_dms=False)]
    table = standin.add_guild("Club", users).channels[0]
    async with RunningBot(standin, tmp_path / "bot.db"):
        await say(standin, users[2], table, "game notify", {"dm": True})  # Cat's DMs are closed
        rec, msg = await say(standin, users[1], table, "game notify", {"dm": True})
        assert msg.ephemeral and "your turns and reminders by direct message" in msg.content
        await say(standin, users[0], table, "game new", {"title": "1856"})
        for user in users[1:]:
            await say(standin, user, table, "game join")
        await say(standin, users[0], table, "game start", {"order": "joined"})
        _, msg = await say(standin, users[0], table, "pass")  # the turn passes to Ben
        assert not msg.ephemeral and "next: Ben" in msg.content
        assert_pings_only(msg, None)  # no ping in the channel...
        # the bot opens the DM channel and sends after its reply in the channel: wait for both
        def dm_channel() -> Any:
            return next((c for c in standin.channels.values() if c.recipient is users[1]), None)

        await standin.wait_for(lambda: dm_channel() is not None, 10, "the DM channel")
        dm = dm_channel()
        await standin.wait_for(lambda: bool(standin.channel_messages(dm)), 10, "the DM")
        assert "your turn" in standin.channel_messages(dm)[0].content  # ...a direct message instead
        rec, msg = await say(standin, users[1], table, "pass")  # Cat's DM cannot be delivered...
        assert_pings_only(msg, None)
        await standin.wait_for(lambda: len(rec.messages) == 2, 10, "the ping instead of the DM")
        fallback = rec.messages[1]  # ...so Cat is pinged in the channel, right after the move
        assert not fallback.ephemeral and "your turn" in fallback.content
        assert_pings_only(fallback, users[2].id)


async def test_a_slow_menu_choice_is_acknowledged_silently_then_answered(
        standin: DiscordStandIn, tmp_path: Path, monkeypatch: Any) -> None:
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Cat")]
    table = standin.add_guild("Club", users).channels[0]
    async with RunningBot(standin, tmp_path / "bot.db"):
        await say(standin, users[0], table, "game new", {"title": "1856"})
        for user in users[1:]:
            await say(standin, user, table, "game join")
        _, started = await say(standin, users[0], table, "game start", {"order": "joined"})
        slow_menus(monkeypatch)
        menu = started.menu("private company")
        choice = next(o for o in menu["options"] if o["value"].startswith("/bid company:FT"))
        rec = await standin.select(users[0], started, menu, choice["value"])
        answer = await standin.answered(rec)
        one_response(rec)
        assert rec.callbacks[0].type == 6 and not rec.flashed_public_thinking  # nothing shown meanwhile
        assert answer.ephemeral and "choose price" in answer.content and answer.menus  # then the prices
        price = answer.menus[0]["options"][0]
        assert "FT" in price["label"] and price["value"].startswith("/bid company:FT")
        rec = await standin.select(users[0], answer, answer.menus[0], price["value"])
        public = await standin.answered(rec)
        assert not public.ephemeral and "Ann" in public.content and "FT" in public.content, public.content
        await standin.wait_for(lambda: started.components == [], 10, "the old menus to go")
        assert standin.errors == []


async def _before_action_98(standin: DiscordStandIn, running: Any, guild: Any, users: list[Any]) -> None:
    """Game hotseat006 imported before its action 98 into the guild's first channel by the first
    user; the users claim Player 1, 2, 3 in order."""
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    at = next(i for i, a in enumerate(acts) if a["id"] == 98)
    table = guild.channels[0]
    layer = running.get_cog("Conductor").layer
    host = Caller(str(users[0].id), users[0].name, guild=str(guild.id))
    imported = await layer.handle(str(table.id), host, "game import",
                                  {"file": json.dumps({**export, "actions": acts[:at]})})
    assert imported.ok, imported.error
    for i, user in enumerate(users):
        _, claimed = await say(standin, user, table, "game claim", {"seat": f"Player {i + 1}"})
        assert not claimed.ephemeral, claimed.content


async def test_an_offer_pings_the_seller_whose_accept_button_makes_the_purchase(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    """Game hotseat006 before its action 98: CA (Cat) buys BBG's (Ben) train 2-5 for $250. The
    purchase is an offer that pings Ben only; Ann cannot accept it; Ben's Accept makes it."""
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Cat")]
    guild = standin.add_guild("Club", users)
    table = guild.channels[0]
    async with RunningBot(standin, tmp_path / "bot.db") as running:
        await _before_action_98(standin, running, guild, users)
        _, offer = await say(standin, users[2], table, "train", {"train": "2-5", "price": "250"})
        assert "CA (Cat) offers $250 for BBG's 2-train (2-5): Player 2, its president, accepts or refuses" \
            in offer.content, offer.content
        assert_pings_only(offer, users[1].id)  # the seller, nobody else
        assert {b["label"] for b in offer.buttons} == {"Accept $250", "Refuse"}
        rec = await standin.click(users[0], offer, "Accept $250")  # not Ann's to accept
        refused = await standin.answered(rec)
        assert refused.ephemeral and "Only Player 2 answers" in refused.content, refused.content
        rec = await standin.click(users[1], offer, "Refuse")
        refusal = await standin.answered(rec)
        assert "Ben refuses CA's offer of $250 for BBG's 2-train (2-5); nothing changes" in refusal.content
        assert_pings_only(refusal, users[2].id)  # the buyer hears it
        await standin.wait_for(lambda: offer.components == [], 10, "the offer's buttons to go")
        assert any(b["label"] == "No train" for b in refusal.buttons), refusal.buttons  # the buyer's decisions again
        _, offer = await say(standin, users[2], table, "train", {"train": "2-5", "price": "250"})
        rec = await standin.click(users[1], offer, "Accept $250")
        bought = await standin.answered(rec)
        assert not bought.ephemeral
        assert "Ben accepts CA's offer of $250 for BBG's 2-train (2-5):" in bought.content, bought.content
        assert "CA buys a 2-train for $250 from BBG" in bought.content, bought.content
        # only the newest game message offers components: the offer's buttons are gone
        await standin.wait_for(lambda: offer.components == [], 10, "the offer's buttons to go")
        live = [m for m in standin.channel_messages(table) if m.components]
        assert live == [bought], [m.content[:60] for m in live]
        assert standin.errors == []


async def test_an_offer_waiting_for_a_seat_handed_over_pings_its_new_holder(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    """Game hotseat006 before its action 98: Cat offers $250 for BBG's train; Ben, BBG's
    president, hands his seat to Dan (/game seat) before answering. Dan was not told of the
    offer (offers play-test): he alone is pinged, with its buttons, and his Accept makes it."""
    users = [standin.add_user(n) for n in ("Ann", "Ben", "Cat", "Dan")]
    guild = standin.add_guild("Club", users)
    table = guild.channels[0]
    async with RunningBot(standin, tmp_path / "bot.db") as running:
        await _before_action_98(standin, running, guild, users[:3])
        _, offer = await say(standin, users[2], table, "train", {"train": "2-5", "price": "250"})
        assert_pings_only(offer, users[1].id)
        _, handed = await say(standin, users[1], table, "game seat", {"seat": "Player 2", "user": users[3]})
        assert not handed.ephemeral
        assert "Ben hands Player 2's seat to Dan" in handed.content, handed.content
        assert "CA's offer of $250 for BBG's 2-train (2-5) waits for Dan's answer" in handed.content, handed.content
        assert_pings_only(handed, users[3].id)  # the new holder, nobody else
        assert {b["label"] for b in handed.buttons} == {"Accept $250", "Refuse"}
        rec = await standin.click(users[3], handed, "Accept $250")
        bought = await standin.answered(rec)
        assert "Dan accepts CA's offer of $250 for BBG's 2-train (2-5):" in bought.content, bought.content
        assert "CA buys a 2-train for $250 from BBG" in bought.content, bought.content
        assert standin.errors == []
