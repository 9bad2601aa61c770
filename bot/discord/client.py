"""Start the Discord bot: ``conductor run`` (needs DISCORD_TOKEN; see .env.example).

:func:`serve` logs in, registers the slash commands when they changed (:mod:`bot.discord.command_sync`)
and runs until the bot is closed. Start-up failures a user can fix (a wrong token, no network,
intents the portal refuses) end in one clear line on stderr and a non-zero exit code, not a
traceback: 2 for the token or the intents (configuration), 1 for the network or Discord itself.

Sharding: the bot is a discord.py ``AutoShardedBot``. Alone it runs every shard Discord asks for;
with ``SHARD_COUNT`` and ``SHARD_IDS`` several processes share them, on one PostgreSQL database
(``DATABASE_URL``). Discord sends a server's events and commands to the shard that owns it
(``(guild_id >> 22) % SHARD_COUNT``), so each game is served by the process owning its server's
shard; reminders are claimed in the database, so exactly one process sends each
(:class:`bot.reminders.Scheduler`). Only the process running shard 0 registers the slash commands.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
from discord.ext import commands

from ..collector import tune_collector
from ..commands.layer import CommandLayer
from ..commands.limits import RateLimits
from ..config import Settings
from ..service import warm_pictures
from ..storage.pg import is_pg_url
from ..storage.store import Store
from .cog import ConductorCog
from .command_sync import sync_commands

log = logging.getLogger(__name__)

def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % shard_count


class ConductorBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings):
        for flag in ("warn_nacl", "warn_dave"):  # no voice here: skip discord.py's voice warnings
            if hasattr(discord.VoiceClient, flag):
                setattr(discord.VoiceClient, flag, False)
        intents = discord.Intents.default()  # slash commands need no privileged intents
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none(), **shards)
        self.settings = settings
        self.store: Store | None = None
        self.warming: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.warming = asyncio.create_task(self._warm_pictures())
        # discord.py types AutoShardedBot beside Bot, not under it; it has all of Bot's API
        await self.add_cog(ConductorCog(cast(commands.Bot, self), CommandLayer(self.store, images=True, rates=RateLimits())))
        if self.settings.shard_ids is not None and 0 not in self.settings.shard_ids:
            return  # the process running shard 0 registers the commands for all of them
        try:
            await self.sync_commands()
        except discord.HTTPException as exc:  # the bot still answers commands registered earlier
            log.error("could not register the slash commands with Discord: %s", exc)

    @staticmethod
    async def _warm_pictures() -> None:
        """:func:`bot.service.warm_pictures` in a worker thread (a failure is logged, nothing more)."""
        try:
            drawn = await asyncio.to_thread(warm_pictures)
            log.info("pictures warmed up for %s", ", ".join(drawn))
        except Exception:
            log.exception("warming up the pictures failed")

    async def sync_commands(self, *, force: bool = False) -> int | None:
        """Register the slash commands (in DEV_GUILD_ID only, when set) if they changed."""
        guild = None
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        record = self.settings.database_path
        if is_pg_url(record):  # the record of the last registration stays on this machine
            record = str(Path(self.settings.image_dir).parent / "conductor-postgresql")
        return await sync_commands(self, self.tree, record, guild=guild, force=force)

    async def on_ready(self) -> None:
        n = len(self.guilds)
        log.info("connected to Discord as %s (id %s) in %d server%s, shards %s of %s", self.user,
                 getattr(self.user, "id", "?"), n, "" if n == 1 else "s",
                 ",".join(map(str, sorted(self.shards))) or "-", self.shard_count)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def _fail(message: str, code: int) -> int:
    print(f"conductor run: {message}", file=sys.stderr)
    return code


async def serve(settings: Settings, bot: ConductorBot | None = None) -> int:
    """Run the bot until it is closed; the exit code (0, or the start-up failure's)."""
    bot = bot or ConductorBot(settings)
    try:
        async with bot:
            await bot.start(settings.discord_token or "")
    except discord.LoginFailure:
        return _fail("Discord refused the bot token (401 Unauthorized). Put your bot's token "
                     "(Developer Portal > your application > Bot > Reset Token) in DISCORD_TOKEN.", 2)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the gateway intents the bot asked for (close code 4014). Enable "
                     "them under Developer Portal > your application > Bot > Privileged Gateway Intents.", 2)
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:
            return _fail("Discord refused the bot token on the gateway (close code 4004). Check DISCORD_TOKEN.", 2)
        if exc.code == 4013:
            return _fail("Discord refused the gateway intents as invalid (close code 4013).", 2)
        return _fail(f"the connection to Discord's gateway was closed (code {exc.code}): {exc.reason or 'no reason'}.",
                     1)
    except discord.GatewayNotFound:
        return _fail("Discord's gateway cannot be found (Discord may be down). Try again later.", 1)
    except (TimeoutError, aiohttp.ClientError, OSError) as exc:
        detail = str(exc) or type(exc).__name__
        return _fail(f"cannot reach Discord ({detail}). Check the network connection.", 1)
    except discord.HTTPException as exc:
        return _fail(f"Discord answered {exc.status} while starting: {exc.text or exc}.", 1)
    return 0


def setup_logging() -> None:
    """Our log lines at INFO; discord.py's only from WARNING (its INFO chatter hides our lines)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)


def run_bot(settings: Settings) -> int:
    if not settings.discord_token:
        return _fail("DISCORD_TOKEN is not set", 2)
    setup_logging()
    tune_collector()

    async def main() -> int:
        bot = ConductorBot(settings)
        loop = asyncio.get_running_loop()
        try:  # `docker stop` and service managers send SIGTERM: close the connection and the database
            loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        except (NotImplementedError, RuntimeError):
            pass
        return await serve(settings, bot)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 0
