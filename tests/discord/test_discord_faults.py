"""The awkward parts of Discord, played by the stand-in against the real discord.py client running
the unmodified bot: a bad token, no network and refused intents (``conductor run`` in a
subprocess: the line naming its database, then one clear line, non-zero exit), a 403 when
sending, a 429, a dropped gateway, a slow and an expired interaction, and direct messages."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from pathlib import Path

import pytest

from bot.discord.cog import ConductorCog
from bot.reminders import Reminder
from tests.discord_standin import Channel, DiscordStandIn, Recorded, User
from tests.discord_standin.harness import (
    RunningBot,
    assert_pings_only,
    assert_pngs,
    finish,
    run_conductor,
    say,
    standin,
    start_conductor,
)
from tests.discord_standin.model import ATTACH_FILES, EPHEMERAL

__all__ = ["standin"]  # the fixture


def club(standin: DiscordStandIn, n: int = 3) -> tuple[list[User], Channel]:
    users = [standin.add_user(name) for name in ("Ann", "Ben", "Cat", "Dan")[:n]]
    return users, standin.add_guild("Club", users).channels[0]


async def lobby(standin: DiscordStandIn, users: list[User], channel: Channel) -> None:
    await say(standin, users[0], channel, "game new", {"title": "1856"})
    for user in users[1:]:
        await say(standin, user, channel, "game join")


def start_then_failure(lines: list[str], db: Path) -> str:
    """``conductor run``'s two lines: the start naming the database, then why it stopped."""
    assert len(lines) == 2 and lines[0].endswith(f" INFO bot.cli: starting the Discord bot; database {db}"), lines
    return failure_line(lines)


def failure_line(lines: list[str]) -> str:
    """The one line saying why ``conductor run`` stopped; anything else printed is INFO progress
    (e.g. the commands registered before the gateway refused), never a traceback or a warning."""
    failures = [ln for ln in lines if ln.startswith("conductor run: ")]
    assert len(failures) == 1, lines
    assert all(ln in failures or " INFO " in ln for ln in lines), lines
    return failures[0]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------------- start-up failures
async def test_a_bad_token_exits_non_zero_with_one_clear_line(standin: DiscordStandIn, tmp_path: Path) -> None:
    code, lines = await run_conductor(standin.api_base, standin.gateway_url,
                                      {"DISCORD_TOKEN": "not-a-real-token", "DATABASE_PATH": str(tmp_path / "d.db")},
                                      tmp_path)
    assert code == 2
    line = start_then_failure(lines, tmp_path / "d.db")
    assert "token" in line and "DISCORD_TOKEN" in line
    assert [(r.path, r.status) for r in standin.requests] == [("/api/v10/users/@me", 401)]


async def test_no_network_exits_non_zero_with_one_clear_line(tmp_path: Path) -> None:
    port = closed_port()
    code, lines = await run_conductor(f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/gateway",
                                      {"DISCORD_TOKEN": "x.y.z", "DATABASE_PATH": str(tmp_path / "d.db")}, tmp_path)
    assert code == 1
    line = start_then_failure(lines, tmp_path / "d.db")
    assert "cannot reach Discord" in line and "network" in line


async def test_refused_intents_exit_non_zero_with_one_clear_line(standin: DiscordStandIn, tmp_path: Path) -> None:
    standin.close_on_identify = 4014  # the portal does not allow an intent the bot asked for
    code, lines = await run_conductor(standin.api_base, standin.gateway_url,
                                      {"DISCORD_TOKEN": standin.token, "DATABASE_PATH": str(tmp_path / "d.db")},
                                      tmp_path)
    assert code == 2
    line = failure_line(lines)
    assert "intents" in line and "Developer Portal" in line
    assert len(standin.identifies) == 1


async def test_conductor_run_logs_in_and_stops_cleanly_on_sigterm(standin: DiscordStandIn, tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": standin.token, "DATABASE_PATH": str(tmp_path / "d.db")}
    for start in (1, 2):  # the second start registers nothing: the commands did not change
        proc = await start_conductor(standin.api_base, standin.gateway_url, env, tmp_path)
        await standin.wait_for(lambda n=start: len(standin.identifies) == n and standin.connected, 30, "IDENTIFY")
        proc.send_signal(signal.SIGTERM)
        code, lines = await finish(proc)
        assert code == 0, lines
        assert not any("Traceback" in ln or " ERROR " in ln for ln in lines), lines
        assert len(standin.command_puts) == 1
    assert (tmp_path / "d.db.commands.json").exists()


# ---------------------------------------------------------------------- 403, 429
def _ephemeral(rec: Recorded) -> bool:
    body = rec.json or {}
    data = body.get("data", body) if isinstance(body, dict) else {}
    return bool((data or {}).get("flags", 0) & EPHEMERAL)


async def test_pictures_refused_with_403_post_the_text_and_tell_the_user_privately(
        standin: DiscordStandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    users, table = club(standin)
    caplog.set_level(logging.WARNING, logger="bot.discord.cog")
    async with RunningBot(standin, tmp_path / "bot.db"):
        await lobby(standin, users, table)
        # Discord refuses every message with files (the channel denies Attach Files)
        standin.forbid("POST", r"/(interactions|webhooks)/", times=10, when=lambda r: bool(r.files))
        rec, msg = await say(standin, users[0], table, "game start", {"order": "joined"})
        await standin.wait_for(lambda: len(rec.messages) == 2, 10, "the private note")
        assert not rec.thinking and not msg.ephemeral and not msg.files
        assert "1856 starts" in msg.content
        assert_pings_only(msg, users[0].id)  # the game goes on: the next player is still pinged
        note = rec.messages[1]
        assert note.ephemeral and "Attach Files" in note.content
        assert any(r.status == 403 and r.files for r in standin.requests)
        assert any("Attach Files" in r.getMessage() for r in caplog.records)

        # the interaction says the bot lacks Attach Files: no picture is even tried
        standin.faults.clear()
        table.app_permissions &= ~ATTACH_FILES
        sent_before = len(standin.requests)
        rec, msg = await say(standin, users[0], table, "game status")  # a reply with pictures
        await standin.wait_for(lambda: len(rec.messages) == 2, 10, "the private note")
        assert "**1856** game" in msg.content and not msg.files and rec.messages[1].ephemeral
        assert not any(r.files for r in standin.requests[sent_before:])
        assert not any(r.status >= 400 for r in standin.requests[sent_before:])


async def test_a_403_on_every_public_message_is_reported_privately_and_logged(
        standin: DiscordStandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    users, table = club(standin)
    caplog.set_level(logging.WARNING, logger="bot.discord.cog")
    async with RunningBot(standin, tmp_path / "bot.db"):
        await say(standin, users[0], table, "game new", {"title": "1856"})
        standin.forbid("POST", r"/(interactions|webhooks)/", times=10, when=lambda r: not _ephemeral(r))
        rec, msg = await say(standin, users[1], table, "game join")
        assert msg.ephemeral and "did not let me post" in msg.content and "carried out" in msg.content
        assert len(rec.callbacks) == 1 and not rec.thinking and not rec.flashed_public_thinking
        assert any("refused" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
        standin.faults.clear()
        rec, msg = await say(standin, users[1], table, "game join")  # the first join did happen
        assert msg.ephemeral and "already have a seat" in msg.content


async def test_429s_are_waited_out(standin: DiscordStandIn, tmp_path: Path) -> None:
    users, table = club(standin)
    standin.rate_limit("PUT", r"/commands$", retry_after=0.3)  # registering the commands at start-up
    async with RunningBot(standin, tmp_path / "bot.db"):
        puts = standin.command_puts
        assert [r.status for r in puts] == [429, 200] and puts[1].at - puts[0].at >= 0.3
        standin.rate_limit("POST", r"/interactions/\d+/[^/]+/callback$", retry_after=0.4)
        rec, msg = await say(standin, users[0], table, "game new", {"title": "1856"})
        assert "opened a game" in msg.content and len(rec.callbacks) == 1 and not rec.refused
        tries = [r for r in standin.requests if r.path.endswith(f"/{rec.id}/{rec.token}/callback")]
        assert [r.status for r in tries] == [429, 200] and tries[1].at - tries[0].at >= 0.4
        for user in users[1:]:
            await say(standin, user, table, "game join")
        standin.rate_limit("POST", rf"/channels/{table.id}/messages$", retry_after=0.3)  # the status message
        await say(standin, users[0], table, "game start", {"order": "joined"})
        await standin.wait_for(lambda: any(m.pinned for m in standin.channel_messages(table)), 10, "the pin")
        posts = [r.status for r in standin.requests
                 if r.method == "POST" and r.path.endswith(f"/channels/{table.id}/messages")]
        assert posts == [429, 200]


# ---------------------------------------------------------------------- the gateway
@pytest.mark.parametrize("close_code", [4000, None, 7], ids=["close-frame", "tcp-drop", "reconnect-opcode"])
async def test_a_dropped_gateway_resumes_and_no_interaction_is_answered_twice(
        standin: DiscordStandIn, tmp_path: Path, close_code: int | None) -> None:
    users, table = club(standin)
    async with RunningBot(standin, tmp_path / "bot.db"):
        await say(standin, users[0], table, "game new", {"title": "1856"})
        first = await standin.slash(users[1], table, "game join")
        await standin.drop_gateway(close_code)  # right after the event went out
        second = await standin.slash(users[2], table, "game join")  # while the bot is away: queued
        m1, m2 = await standin.answered(first), await standin.answered(second)
        assert "Ben joins" in m1.content and "Cat joins" in m2.content
        await standin.wait_for(lambda: standin.connected, 10, "the resumed connection")
        assert standin.resumes == 1 and len(standin.identifies) == 1
        rec, msg = await say(standin, users[0], table, "game start", {"order": "joined"})
        assert "1856 starts" in msg.content
        await asyncio.sleep(0.2)
    for rec in standin.interactions.values():
        assert len(rec.callbacks) == 1 and not rec.refused, (rec.id, rec.callbacks, rec.refused)
    assert standin.errors == []


# ---------------------------------------------------------------------- slow and expired interactions
async def test_a_slow_command_is_deferred_in_time_then_answered(standin: DiscordStandIn, tmp_path: Path) -> None:
    users, table = club(standin)
    async with RunningBot(standin, tmp_path / "bot.db") as bot:
        await say(standin, users[0], table, "game new", {"title": "1856"})
        cog = bot.get_cog("Conductor")
        assert isinstance(cog, ConductorCog)
        async with cog.layer.lock(str(table.id)):  # the channel is busy (e.g. a long replay) past 3 s
            join = await standin.slash(users[1], table, "game join")
            private = await standin.slash(users[2], table, "help")
            await asyncio.sleep(standin.interaction_deadline + 0.3)
            assert join.thinking and private.thinking
        m_join, m_help = await standin.answered(join), await standin.answered(private)
        for rec in (join, private):
            assert [c.type for c in rec.callbacks] == [5] and not rec.refused
            assert rec.callbacks[0].at - rec.created < standin.interaction_deadline  # acknowledged in time
        assert not join.callbacks[0].data.get("flags") and not m_join.ephemeral and "Ben joins" in m_join.content
        assert private.callbacks[0].data["flags"] & EPHEMERAL and m_help.ephemeral  # private: deferred privately
        assert m_join is join.original and m_help is private.original  # the placeholder became the answer


async def test_an_expired_interaction_is_answered_in_the_channel(
        standin: DiscordStandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    users, table = club(standin)
    caplog.set_level(logging.WARNING, logger="bot.discord.cog")
    async with RunningBot(standin, tmp_path / "bot.db"):
        await say(standin, users[0], table, "game new", {"title": "1856"})
        standin.interaction_deadline = 0.0  # every acknowledgement arrives too late
        rec = await standin.slash(users[1], table, "game join")
        await standin.wait_for(lambda: any("Ben joins" in m.content for m in standin.channel_messages(table)), 10,
                               "the reply posted in the channel")
        assert rec.refused == [(404, "expired")] and not rec.callbacks
        late = next(m for m in standin.channel_messages(table) if "Ben joins" in m.content)
        assert late.interaction_id is None and not late.ephemeral
        assert any("expired" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------- direct messages
async def test_reminders_by_direct_message_and_the_fallback_to_the_channel(
        standin: DiscordStandIn, tmp_path: Path) -> None:
    users, table = club(standin)
    shy = standin.add_user("Shy", accepts_dms=False)
    standin.guilds[table.guild_id or 0].members[shy.id] = shy
    async with RunningBot(standin, tmp_path / "bot.db") as bot:
        cog = bot.get_cog("Conductor")
        assert isinstance(cog, ConductorCog)
        await cog.deliver([Reminder(1, str(table.id), str(users[0].id), "1", "remind", True, "your turn"),
                           Reminder(1, str(table.id), str(shy.id), "2", "remind", True, "your turn too")])
    dms = [m for m in standin.messages.values() if m.guild_id is None]
    assert len(dms) == 1 and "your turn" in dms[0].content
    assert standin.channels[dms[0].channel_id].recipient is users[0]
    fallback = [m for m in standin.channel_messages(table) if "your turn too" in m.content]
    assert len(fallback) == 1
    assert_pings_only(fallback[0], shy.id)
    assert any(r.status == 403 for r in standin.requests)  # the DM Discord refused


def test_assert_pngs_checks_pictures() -> None:
    from tests.discord_standin.model import Message as M
    from tests.discord_standin.model import SentFile

    with pytest.raises(AssertionError):
        assert_pngs(M(1, 1, None, User(1, "x"), files=[SentFile("files[0]", "map.png", "image/png", b"GIF89a")]))
