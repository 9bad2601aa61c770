"""The Discord declarations of the game actions (``/bid``, ``/par``, ``/lay``, ...): each option
typed for Discord, each action handed to the command layer by its name in the one command table
(:mod:`bot.command_table`, built from :data:`bot.play.ACTION_COMMANDS`) through
:meth:`bot.cog.ConductorCog.run`. A base cog of :class:`bot.cog.ConductorCog`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .discord_io import complete, str_params, yn

if TYPE_CHECKING:
    from .reply import Reply


class ActionSlashCommands(commands.Cog):
    if TYPE_CHECKING:  # provided by :class:`bot.cog.ConductorCog`

        async def run(self, interaction: discord.Interaction, name: str, params: dict[str, str]) -> Reply: ...

    @app_commands.command(name="bid", description="Bid for (or buy) a private company")
    @app_commands.autocomplete(company=complete, price=complete)
    async def bid(self, interaction: discord.Interaction, company: str, price: int) -> None:
        await self.run(interaction, "bid", str_params(company=company, price=price))

    @app_commands.command(name="par", description="Start a corporation")
    @app_commands.autocomplete(corporation=complete, price=complete, home=complete)
    async def par(
        self, interaction: discord.Interaction, corporation: str, price: str, home: str | None = None
    ) -> None:
        await self.run(interaction, "par", str_params(corporation=corporation, price=price, home=home))

    @app_commands.command(name="buy", description="Buy a share")
    @app_commands.autocomplete(share=complete)
    async def buy(self, interaction: discord.Interaction, share: str) -> None:
        await self.run(interaction, "buy", str_params(share=share))

    @app_commands.command(name="sell", description="Sell shares")
    @app_commands.autocomplete(shares=complete)
    async def sell(
        self,
        interaction: discord.Interaction,
        shares: str | None = None,
        corporation: str | None = None,
        percent: int | None = None,
    ) -> None:
        await self.run(
            interaction, "sell", str_params(shares=shares, corporation=corporation, percent=percent)
        )

    @app_commands.command(name="pass", description="Pass, or finish this step")
    @app_commands.autocomplete(entity=complete)
    async def pass_(self, interaction: discord.Interaction, entity: str | None = None) -> None:
        await self.run(interaction, "pass", str_params(entity=entity))

    @app_commands.command(name="lay", description="Lay or upgrade a tile")
    @app_commands.autocomplete(hex=complete, tile=complete, rotation=complete, entity=complete)
    async def lay(
        self,
        interaction: discord.Interaction,
        hex: str,
        tile: str,
        rotation: str | None = None,
        entity: str | None = None,
    ) -> None:
        await self.run(interaction, "lay", str_params(hex=hex, tile=tile, rotation=rotation, entity=entity))

    @app_commands.command(name="token", description="Place a station token")
    @app_commands.autocomplete(city=complete, slot=complete, entity=complete)
    async def token(
        self, interaction: discord.Interaction, city: str, slot: int | None = None, entity: str | None = None
    ) -> None:
        await self.run(interaction, "token", str_params(city=city, slot=slot, entity=entity))

    @app_commands.command(name="routes", description='Run trains: auto, none, or "2-0: F15-F17; ..."')
    @app_commands.autocomplete(routes=complete)
    async def routes(self, interaction: discord.Interaction, routes: str | None = None) -> None:
        await self.run(interaction, "routes", str_params(routes=routes))

    @app_commands.command(name="dividend", description="Pay out or withhold")
    @app_commands.autocomplete(kind=complete)
    async def dividend(self, interaction: discord.Interaction, kind: str) -> None:
        await self.run(interaction, "dividend", str_params(kind=kind))

    @app_commands.command(name="train", description="Buy a train")
    @app_commands.autocomplete(train=complete, variant=complete)
    async def train(
        self,
        interaction: discord.Interaction,
        train: str,
        variant: str | None = None,
        price: int | None = None,
        exchange: str | None = None,
    ) -> None:
        await self.run(
            interaction, "train", str_params(train=train, variant=variant, price=price, exchange=exchange)
        )

    @app_commands.command(name="discard", description="Discard a train over the limit")
    @app_commands.autocomplete(train=complete, entity=complete)
    async def discard(self, interaction: discord.Interaction, train: str, entity: str | None = None) -> None:
        await self.run(interaction, "discard", str_params(train=train, entity=entity))

    @app_commands.command(name="borrow", description="The national borrows a train for this run (1856)")
    @app_commands.autocomplete(train=complete)
    async def borrow(self, interaction: discord.Interaction, train: str) -> None:
        await self.run(interaction, "borrow", str_params(train=train))

    @app_commands.command(name="remove", description="The national removes one of its stations (1856)")
    @app_commands.autocomplete(city=complete)
    async def remove(self, interaction: discord.Interaction, city: str) -> None:
        await self.run(interaction, "remove", str_params(city=city))

    @app_commands.command(name="loan", description="Take a loan")
    async def loan(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "loan", {})

    @app_commands.command(name="repay", description="Pay off a loan")
    async def repay(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "repay", {})

    @app_commands.command(name="private", description="Buy a private company from a player")
    @app_commands.autocomplete(company=complete)
    async def private(self, interaction: discord.Interaction, company: str, price: int) -> None:
        await self.run(interaction, "private", str_params(company=company, price=price))

    @app_commands.command(name="assign", description="Place a private's marker (port)")
    @app_commands.autocomplete(target=complete, entity=complete)
    async def assign(self, interaction: discord.Interaction, target: str, entity: str | None = None) -> None:
        await self.run(interaction, "assign", str_params(target=target, entity=entity))

    @app_commands.command(name="right", description="Buy a tunnel or bridge right (1856) or a ferry (1833NE)")
    @app_commands.autocomplete(right=complete)
    async def right(self, interaction: discord.Interaction, right: str, cost: int | None = None) -> None:
        await self.run(interaction, "right", str_params(right=right, cost=cost))

    @app_commands.command(name="issue", description="Issue treasury shares")
    @app_commands.autocomplete(shares=complete)
    async def issue(self, interaction: discord.Interaction, shares: str) -> None:
        await self.run(interaction, "issue", str_params(shares=shares))

    @app_commands.command(name="redeem", description="Redeem a share")
    @app_commands.autocomplete(share=complete)
    async def redeem(self, interaction: discord.Interaction, share: str) -> None:
        await self.run(interaction, "redeem", str_params(share=share))

    @app_commands.command(name="merge", description="Merge into the national (1856 nationalization)")
    @app_commands.autocomplete(corporation=complete)
    async def merge(self, interaction: discord.Interaction, corporation: str | None = None) -> None:
        await self.run(interaction, "merge", str_params(corporation=corporation))

    @app_commands.command(name="takeover", description="Take over another corporation (1833NE)")
    @app_commands.autocomplete(corporation=complete, shares=complete)
    async def takeover(
        self, interaction: discord.Interaction, corporation: str, shares: int | None = None
    ) -> None:
        await self.run(interaction, "takeover", str_params(corporation=corporation, shares=shares))

    @app_commands.command(name="accept", description="Accept the takeover offered (/pass refuses)")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "accept", {})

    @app_commands.command(name="bankrupt", description="Declare bankruptcy")
    async def bankrupt(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "bankrupt", {})

    @app_commands.command(name="autopass", description="Pass automatically in stock rounds")
    async def autopass(
        self,
        interaction: discord.Interaction,
        unconditional: bool | None = None,
        indefinite: bool | None = None,
    ) -> None:
        await self.run(
            interaction, "autopass", str_params(unconditional=yn(unconditional), indefinite=yn(indefinite))
        )

    @app_commands.command(name="autobuy", description="Buy shares automatically")
    @app_commands.autocomplete(corporation=complete, until=complete)
    async def autobuy(
        self, interaction: discord.Interaction, corporation: str, until: str, from_market: bool | None = None
    ) -> None:
        await self.run(
            interaction,
            "autobuy",
            str_params(corporation=corporation, until=until, from_market=yn(from_market)),
        )

    @app_commands.command(name="autostop", description="Cancel your automatic stock-round moves")
    async def autostop(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "autostop", {})
