"""Pytest plumbing for the stand-in: the server fixture (discord.py pointed at it), the unmodified
bot run in-process (:class:`RunningBot`) or as ``conductor run`` in a subprocess, and checks
shared by the end-to-end tests."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from PIL import Image

from bot.config import Settings
from bot.discord.client import ConductorBot, serve

from .model import Channel, InteractionRecord, Message, User
from .server import DiscordStandIn

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def standin(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordStandIn]:
    server = DiscordStandIn()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    try:
        yield server
    finally:
        await server.stop()


class RunningBot:
    """``ConductorBot`` served by :func:`bot.discord.client.serve` (what ``conductor run`` runs)."""

    def __init__(self, standin: DiscordStandIn, database: Path) -> None:
        self.standin = standin
        self.settings = Settings(discord_token=standin.token, database_path=str(database),
                                 image_dir=str(database.parent / "images"), dev_guild_id=None)
        self.bot = ConductorBot(self.settings)
        self.task: asyncio.Task[int] | None = None

    async def __aenter__(self) -> ConductorBot:
        self.task = asyncio.create_task(serve(self.settings, self.bot))
        guilds = list(self.standin.guilds)
        await self.standin.wait_for(lambda: self.task is not None and (self.task.done() or all(
            self.bot.get_guild(g) is not None for g in guilds)), 20, "the bot to log in and receive its guilds")
        assert not self.task.done(), f"the bot stopped: exit code {self.task.result()}"
        return self.bot

    async def __aexit__(self, *exc: object) -> None:
        await self.bot.close()
        assert self.task is not None
        assert await asyncio.wait_for(self.task, 10) == 0


async def start_conductor(api: str, gateway: str, env: dict[str, str],
                          cwd: Path) -> asyncio.subprocess.Process:
    """``conductor run`` in a subprocess, pointed at a stand-in (or anything listening there)."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.discord_standin.launch", api, gateway, "run", cwd=str(cwd),
        env={**os.environ, "PYTHONPATH": str(ROOT), **env}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


async def finish(proc: asyncio.subprocess.Process, timeout: float = 30.0) -> tuple[int, list[str]]:
    """Wait for the process to exit: its exit code and the non-empty lines it printed."""
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("conductor run did not exit") from None
    assert proc.returncode is not None
    return proc.returncode, [ln for ln in (out + err).decode().splitlines() if ln.strip()]


async def run_conductor(api: str, gateway: str, env: dict[str, str], cwd: Path) -> tuple[int, list[str]]:
    """``conductor run`` until it exits by itself: its exit code and lines."""
    return await finish(await start_conductor(api, gateway, env, cwd))


def assert_pngs(message: Message, names: set[str] | None = None) -> None:
    """Every file of ``message`` is a PNG that Pillow decodes (and, if given, these are its names)."""
    assert message.files, f"no pictures on {message.content[:80]!r}"
    for f in message.files:
        assert f.is_png and f.filename.endswith(".png"), f.filename
        with Image.open(io.BytesIO(f.data)) as img:
            img.verify()
    if names is not None:
        assert {f.filename for f in message.files} == names


def assert_pings_only(message: Message, user_id: int | None) -> None:
    """The message notifies exactly ``user_id`` (or nobody), never @everyone or a role."""
    am = message.allowed_mentions
    assert am is not None, "every message sets allowed_mentions"
    assert "everyone" not in am.get("parse", []) and "roles" not in am.get("parse", [])
    assert not am.get("roles")
    assert not message.pings_everyone()
    if user_id is None:
        assert message.pinged_users() == [] and not am.get("users") and "users" not in am.get("parse", [])
    else:
        assert [int(u) for u in am.get("users") or []] == [user_id] and "users" not in am.get("parse", [])
        assert message.pinged_users() == [user_id]


async def say(standin: DiscordStandIn, user: User, channel: Channel, command: str,
              options: dict[str, Any] | None = None) -> tuple[InteractionRecord, Message]:
    """``user`` runs ``/command``; the interaction and its answer once it is answered."""
    rec = await standin.slash(user, channel, command, options)
    return rec, await standin.answered(rec)


def slow_menus(monkeypatch: pytest.MonkeyPatch, seconds: float = 1.5) -> None:
    """From now on every menu choice's next step takes ``seconds`` more to work out (by default
    longer than the bot waits before acknowledging the interaction)."""
    import bot.discord.cog

    quick = bot.discord.cog.next_pick

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(seconds)
        return await quick(*args)

    monkeypatch.setattr(bot.discord.cog, "next_pick", slow)
