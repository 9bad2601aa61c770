"""Start the Discord bot: ``conductor run`` (needs DISCORD_TOKEN; see .env.example)."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from .cog import ConductorCog
from .commands import CommandLayer
from .config import Settings
from .store import Store

log = logging.getLogger(__name__)


class ConductorBot(commands.Bot):
    def __init__(self, settings: Settings):
        intents = discord.Intents.default()  # slash commands need no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.store: Store | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        await self.add_cog(ConductorCog(self, CommandLayer(self.store, images=True)))
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()


def run_bot(settings: Settings) -> int:
    if not settings.discord_token:
        log.error("DISCORD_TOKEN is not set")
        return 2
    ConductorBot(settings).run(settings.discord_token, log_level=logging.INFO)
    return 0
