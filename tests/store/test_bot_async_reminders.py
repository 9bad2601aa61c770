"""Reminders driven by a fake clock through the command layer and the scheduler: the delay, the
repeat interval and its limit, quiet hours, direct messages, a restart in the middle, a move made
just before a reminder is due, /game remind, the idle flag, /games, and the Discord delivery."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord.ext import commands

from bot.commands.layer import CommandLayer
from bot.reminders import Reminder, Scheduler, is_quiet, parse_window
from bot.reply import Caller, Reply
from bot.storage.store import Store, UserPrefs
from bot.terminal.textcmd import parse
from engine.replay import filter_actions
from tests.fixture_util import load_export

CH = "chan-r"
USERS = {"Player 1": "alice", "Player 2": "bob", "Player 3": "carol"}
T0 = datetime(2024, 5, 6, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, start: datetime = T0):
        self.t = start

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kwargs: float) -> None:
        self.t += timedelta(**kwargs)

    def at(self, **kwargs: float) -> None:
        """Set the clock to T0 plus ``kwargs``."""
        self.t = T0 + timedelta(**kwargs)


async def run(layer: CommandLayer, user: str, line: str, channel: str = CH) -> Reply:
    cmd = parse(line)
    return await layer.handle(channel, Caller(user, user.capitalize(), guild="g1"), cmd.name, cmd.params)


async def setup_game(layer: CommandLayer, upto: int, channel: str = CH) -> None:
    """hotseat001 imported with its first ``upto`` actions; alice (host), bob, carol claim seats."""
    export = load_export("1856", "hotseat001")
    export["actions"] = filter_actions(export["actions"])[:upto]
    reply = await layer.handle(channel, Caller("alice", "Alice", guild="g1"), "game import",
                               {"file": json.dumps(export)})
    assert reply.ok, reply.error
    for seat, user in USERS.items():
        assert (await run(layer, user, f'/game claim seat:"{seat}"', channel)).ok


async def acting_user(layer: CommandLayer, channel: str = CH) -> str:
    row = await layer.store.open_game(channel)
    assert row is not None
    game = (await layer.load(row)).game
    return USERS[game.acting_players()[0]]


async def ticked(sched: Scheduler, clock: FakeClock, days: int) -> list[Reminder]:
    """Every reminder ``sched`` sends, ticking every six hours for ``days`` days."""
    sent: list[Reminder] = []
    for hour in range(0, 24 * days, 6):
        clock.at(hours=hour)
        sent += await sched.tick()
    return sent


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def layer(tmp_path: Path, clock: FakeClock) -> AsyncIterator[CommandLayer]:
    store = await Store.open(str(tmp_path / "bot.db"))
    yield CommandLayer(store, images=False, clock=clock)
    await store.close()


async def test_delay_repeat_and_limit(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)  # BBG's (alice's) operating turn
    sched = Scheduler(layer)
    clock.at(hours=23, minutes=59)
    assert await sched.tick() == []
    clock.at(hours=24)
    first = await sched.tick()
    assert [(r.user_id, r.kind, r.dm, r.channel_id) for r in first] == [("alice", "remind", False, CH)]
    assert "reminder 1/3" in first[0].text and "your turn" in first[0].text and "/lay" in first[0].text
    clock.at(hours=24, minutes=1)
    assert await sched.tick() == []  # no duplicate
    clock.at(hours=47)
    assert await sched.tick() == []
    clock.at(hours=48)
    assert [r.text[:12] for r in await sched.tick()] == ["reminder 2/3"]
    clock.at(hours=72)
    assert [r.text[:12] for r in await sched.tick()] == ["reminder 3/3"]
    for day in range(4, 9):
        clock.at(days=day)
        assert await sched.tick() == []  # the limit is reached
    status = await run(layer, "bob", "/game status")
    assert any("Player 1 has been thinking for 8d 0h (3/3 reminders sent)" in ln for ln in status.lines)
    row = await layer.store.open_game(CH)
    assert [k for _, _, k, _, _ in await layer.store.reminders_log(row.id)] == ["remind"] * 3


async def test_game_settings_change_the_schedule(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)
    refused = await run(layer, "bob", "/game settings remind_hours:2")
    assert not refused.ok and "only the host" in refused.error.lower()
    assert not (await run(layer, "alice", "/game settings remind_hours:-1")).ok
    reply = await run(layer, "alice", "/game settings remind_hours:2 repeat_hours:1 reminders:2")
    assert reply.ok and "after 2 h, then every 1 h, at most 2" in reply.lines[0]
    sched = Scheduler(layer)
    clock.at(hours=1)
    assert await sched.tick() == []
    clock.at(hours=2)
    assert len(await sched.tick()) == 1
    clock.at(hours=3)
    assert len(await sched.tick()) == 1
    clock.at(hours=10)
    assert await sched.tick() == []
    shown = await run(layer, "carol", "/game settings")
    assert shown.ok and shown.ephemeral and "at most 2" in shown.lines[0]
    quiet = await run(layer, "alice", "/game settings reminders:0 idle_days:1")
    assert "no reminders; the host is told of an idle player after 1 day; substitute vote after 7 days" \
        in quiet.lines[0], quiet.lines
    assert await sched.tick() == []


async def test_acting_just_before_a_reminder_resets_the_clock(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)
    sched = Scheduler(layer)
    clock.at(hours=23, minutes=59)
    assert (await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")).ok  # alice keeps acting
    clock.at(hours=24)
    assert await sched.tick() == []  # she acted a minute ago
    clock.at(hours=47, minutes=58)
    assert await sched.tick() == []
    clock.at(hours=47, minutes=59)
    assert [r.user_id for r in await sched.tick()] == ["alice"]
    # when the move passes to someone else, their clock starts then
    for _ in range(6):
        user = await acting_user(layer)
        if user != "alice":
            break
        assert (await run(layer, user, "/pass")).ok
    nxt = await acting_user(layer)
    assert nxt != "alice"
    passed_at = clock()
    clock.advance(hours=23)
    assert await sched.tick() == []
    clock.t = passed_at + timedelta(hours=24)
    assert [r.user_id for r in await sched.tick()] == [nxt]


async def test_quiet_hours_hold_reminders_until_morning(layer: CommandLayer, clock: FakeClock) -> None:
    clock.t = datetime(2024, 5, 6, 21, 0, tzinfo=UTC)  # 23:00 in Berlin (summer time)
    await setup_game(layer, 18)
    reply = await run(layer, "alice", "/game notify tz:Europe/Berlin quiet:22-7")
    assert reply.ok and reply.ephemeral and "quiet 22:00-07:00 (Europe/Berlin)" in reply.lines[0]
    assert not (await run(layer, "alice", "/game notify tz:Mars/Olympus")).ok
    assert not (await run(layer, "alice", "/game notify quiet:late")).ok
    sched = Scheduler(layer)
    clock.t = datetime(2024, 5, 7, 21, 0, tzinfo=UTC)  # due, but 23:00 local
    assert await sched.tick() == []
    clock.t = datetime(2024, 5, 8, 4, 59, tzinfo=UTC)  # 06:59 local
    assert await sched.tick() == []
    clock.t = datetime(2024, 5, 8, 5, 0, tzinfo=UTC)  # 07:00 local: delivered now
    sent = await sched.tick()
    assert [r.user_id for r in sent] == ["alice"]
    assert "for 1d 8h" in sent[0].text  # how long the turn has waited, honestly
    # pure checks: windows that wrap midnight, and ones that do not
    prefs = UserPrefs("x", "UTC+2", *parse_window("13:30-14:00"))  # type: ignore[misc]
    assert is_quiet(prefs, datetime(2024, 1, 1, 11, 45, tzinfo=UTC))
    assert not is_quiet(prefs, datetime(2024, 1, 1, 12, 0, tzinfo=UTC))


async def test_direct_messages_for_those_who_opt_in(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)
    assert (await run(layer, "alice", "/game notify dm:yes")).ok
    sched = Scheduler(layer)
    clock.at(hours=24)
    [r] = await sched.tick()
    assert r.dm and r.user_id == "alice" and r.channel_id == CH
    assert (await run(layer, "alice", "/game notify dm:no")).ok
    clock.at(hours=48)
    [r] = await sched.tick()
    assert not r.dm


async def test_restart_neither_forgets_nor_bursts(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.db")
    clock = FakeClock()
    store = await Store.open(path)
    layer = CommandLayer(store, images=False, clock=clock)
    await setup_game(layer, 18)
    clock.at(hours=10)
    assert await Scheduler(layer).tick() == []
    await store.close()  # the bot stops before the first reminder is due ...

    store = await Store.open(path)
    layer = CommandLayer(store, images=False, clock=clock)  # ... and a new process starts
    clock.at(hours=24)
    assert [r.text[:12] for r in await Scheduler(layer).tick()] == ["reminder 1/3"]  # not forgotten
    await store.close()

    clock.at(days=5)  # down for four days: three reminders would have been due
    store = await Store.open(path)
    layer = CommandLayer(store, images=False, clock=clock)
    sched = Scheduler(layer)
    assert [r.text[:12] for r in await sched.tick()] == ["reminder 2/3"]  # one, not a burst
    assert await sched.tick() == []
    clock.at(days=5, hours=23)
    assert await sched.tick() == []  # the repeat counts from when it was sent
    clock.at(days=6)
    assert [r.text[:12] for r in await sched.tick()] == ["reminder 3/3"]
    status = await run(layer, "bob", "/game status")
    assert any("has been thinking for 6d 0h" in ln for ln in status.lines)
    await store.close()


async def test_nudge_at_most_once_an_hour(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)
    own = await run(layer, "alice", "/game remind")
    assert not own.ok and "your own turn" in own.error
    outsider = await run(layer, "dave", "/game remind")
    assert not outsider.ok and "seated" in outsider.error
    nudge = await run(layer, "bob", "/game remind")
    assert nudge.ok and nudge.ping == "alice" and "Bob reminds you" in nudge.ping_text and nudge.dm is None
    clock.advance(minutes=30)
    again = await run(layer, "carol", "/game remind")
    assert not again.ok and "less than an hour ago" in again.error and "31 minutes" in again.error
    clock.advance(minutes=31)
    assert (await run(layer, "alice", "/game notify dm:yes")).ok
    dm = await run(layer, "carol", "/game remind")
    assert dm.ok and dm.dm == "alice" and dm.ping is None
    row = await layer.store.open_game(CH)
    assert [(u, k, d) for _, u, k, d, _ in await layer.store.reminders_log(row.id)] == [
        ("alice", "nudge", False), ("alice", "nudge", True)]
    # a nudge does not disturb the schedule: the first reminder still comes 24 h after the turn began
    clock.at(hours=24)
    assert [r.kind for r in await Scheduler(layer).tick()] == ["remind"]


async def test_an_idle_host_is_told_in_the_channel_what_the_others_can_do(layer: CommandLayer,
                                                                          clock: FakeClock) -> None:
    await setup_game(layer, 9)  # stock round 1: alice, the host, acts
    assert (await run(layer, "alice", "/game notify dm:yes")).ok  # even so: the others must see it
    assert (await run(layer, "alice", "/game settings reminders:1 idle_days:5 sub_days:7")).ok
    sent = await ticked(Scheduler(layer), clock, days=8)
    idle = [r for r in sent if r.kind == "idle"]
    assert [(r.user_id, r.dm) for r in idle] == [("alice", False)]
    assert "has waited for you (Player 1) for 5d" in idle[0].text
    assert "after 7 days of silence the other players can vote to hand it over" in idle[0].text


async def test_idle_game_is_flagged_to_the_host_once(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)  # stock round 1: alice acts
    assert (await run(layer, "alice", "/pass")).ok  # now bob; alice is the host
    assert (await run(layer, "alice", "/game settings reminders:2 idle_days:5")).ok
    sched = Scheduler(layer)
    sent = await ticked(sched, clock, days=12)
    assert [(r.user_id, r.kind) for r in sent] == [("bob", "remind"), ("bob", "remind"), ("alice", "idle")]
    assert "idle for 5d" in sent[-1].text and "/game end" in sent[-1].text
    status = await run(layer, "carol", "/game status")
    assert any("flagged to the host as idle" in ln for ln in status.lines)
    # a move starts a new clock, and reminders resume
    assert (await run(layer, "bob", "/pass")).ok
    clock.advance(hours=24)
    assert [r.kind for r in await sched.tick()] == ["remind"]


async def test_games_lists_this_servers_running_games(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)
    await setup_game(layer, 9, channel="chan-other")
    other_server = await layer.handle("chan-x", Caller("zed", "Zed", guild="g2"), "games", {})
    assert other_server.ok and "No games" in other_server.lines[0]
    clock.at(days=1, hours=2, minutes=5)
    reply = await run(layer, "carol", "/games")
    assert reply.ok and reply.ephemeral
    text = "\n".join(reply.lines)
    assert "#chan-r 1856" in text and "#chan-other 1856" in text
    assert "Player 1 to act for 1d 2h (since 2024-05-06 12:00 UTC)" in text


async def test_discord_cog_delivers_pings_and_dms(tmp_path: Path) -> None:
    from bot.discord.cog import ConductorCog

    store = await Store.open(str(tmp_path / "d.db"))
    try:
        bot = MagicMock(spec=commands.Bot)
        channel = MagicMock(spec=discord.TextChannel)
        channel.send = AsyncMock()
        bot.get_channel = MagicMock(return_value=channel)
        user = MagicMock(spec=discord.User)
        user.send = AsyncMock()
        bot.get_user = MagicMock(return_value=user)
        cog = ConductorCog(bot, CommandLayer(store, images=False))
        await cog.deliver([Reminder(1, "555", "1001", "1", "remind", False, "reminder 1/3: your turn"),
                           Reminder(1, "555", "1002", "2", "remind", True, "reminder 1/3: your turn")])
        channel.send.assert_awaited_once()
        args: Any = channel.send.await_args
        assert args.args[0].startswith("<@1001> reminder")
        mentions: discord.AllowedMentions = args.kwargs["allowed_mentions"]
        assert [u.id for u in mentions.users] == [1001] and mentions.everyone is False
        user.send.assert_awaited_once()
        assert "<#555>" in user.send.await_args.args[0]
        # a DM that cannot be delivered falls back to a ping in the channel
        user.send = AsyncMock(side_effect=discord.Forbidden(MagicMock(status=403), "closed"))
        await cog.deliver([Reminder(1, "555", "1002", "2", "remind", True, "reminder 2/3")])
        assert channel.send.await_count == 2 and channel.send.await_args.args[0].startswith("<@1002>")
    finally:
        await store.close()
