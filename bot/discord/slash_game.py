"""The Discord declarations of ``/help``, the ``/game`` group, ``/games``, ``/stats``,
``/creators`` and ``/sync``: each option typed for Discord, each command handed to the command
layer by its name in the one command table (:mod:`bot.commands.table`) through
:meth:`bot.discord.cog.ConductorCog.run`. A base cog of :class:`bot.discord.cog.ConductorCog` (discord.py collects
the slash commands of a cog's bases).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine.titles.registry import title_names

from ..commands.table import HELP_TOPICS
from ..gamelog import export_text
from ..reply import UserError
from .io import complete, str_params, yn

if TYPE_CHECKING:
    from ..reply import Reply


class GameSlashCommands(commands.Cog):
    game = app_commands.Group(
        name="game", description="Create, join and manage this channel's game", guild_only=True
    )

    if TYPE_CHECKING:  # provided by :class:`bot.discord.cog.ConductorCog`

        async def run(self, interaction: discord.Interaction, name: str, params: dict[str, str]) -> Reply: ...

        async def sync_now(self, interaction: discord.Interaction) -> None: ...

    @app_commands.command(name="help", description="Commands by topic, and who must act now; command: explains one")
    @app_commands.autocomplete(command=complete)
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in HELP_TOPICS])
    async def help(
        self, interaction: discord.Interaction, command: str | None = None, topic: str | None = None
    ) -> None:
        await self.run(interaction, "help", str_params(command=command, topic=topic))

    @app_commands.command(name="done", description="End your turn: pass every step you may pass")
    @app_commands.autocomplete(entity=complete)
    async def done(self, interaction: discord.Interaction, entity: str | None = None) -> None:
        await self.run(interaction, "done", str_params(entity=entity))

    @app_commands.command(name="moves", description="What you can do now, as commands ready to use (private)")
    @app_commands.autocomplete(command=complete)
    @app_commands.describe(command="a game action (lay, token, train, ...): its choices now")
    async def moves(self, interaction: discord.Interaction, command: str | None = None) -> None:
        await self.run(interaction, "moves", str_params(command=command))

    @game.command(name="new", description="Open a new game in this channel")
    @app_commands.choices(title=[app_commands.Choice(name=t, value=t) for t in title_names()])
    @app_commands.autocomplete(options=complete)
    @app_commands.describe(
        bonuses="1833NE: values from your rulebook, e.g. Boston-Portland=50/50/80/80/0 ferry=20",
        robots="how many seats the computer player takes",
    )
    async def game_new(
        self,
        interaction: discord.Interaction,
        title: str,
        options: str | None = None,
        bonuses: str | None = None,
        robots: app_commands.Range[int, 0, 7] | None = None,
    ) -> None:
        await self.run(
            interaction,
            "game new",
            str_params(title=title, options=options, bonuses=bonuses, robots=robots),
        )

    @game.command(
        name="rules", description="1833NE's provisional values (bonuses, ferries); the host sets them"
    )
    async def game_rules(self, interaction: discord.Interaction, bonuses: str | None = None) -> None:
        await self.run(interaction, "game rules", str_params(bonuses=bonuses))

    @game.command(name="join", description="Take a seat (give a name to take another seat yourself)")
    async def game_join(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await self.run(interaction, "game join", str_params(name=name))

    @game.command(name="leave", description="Leave before the game starts")
    @app_commands.autocomplete(seat=complete)
    async def game_leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await self.run(interaction, "game leave", str_params(seat=seat))

    @game.command(name="start", description="Start the game (host)")
    @app_commands.choices(
        order=[
            app_commands.Choice(name="random", value="random"),
            app_commands.Choice(name="joined", value="joined"),
        ]
    )
    async def game_start(self, interaction: discord.Interaction, order: str | None = None) -> None:
        await self.run(interaction, "game start", str_params(order=order))

    @game.command(name="status", description="Who must act and what they can do")
    async def game_status(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game status", {})

    @game.command(name="undo", description="Undo the last action")
    async def game_undo(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game undo", {})

    @game.command(name="offer", description="Answer the offer for your private or your corporation's train")
    @app_commands.describe(vote="yes: accept, no: refuse (the buyer: withdraw)")
    @app_commands.choices(
        vote=[app_commands.Choice(name="accept", value="yes"), app_commands.Choice(name="refuse", value="no")]
    )
    async def game_offer(self, interaction: discord.Interaction, vote: str) -> None:
        await self.run(interaction, "game offer", str_params(vote=vote))

    @game.command(name="export", description="The game as an 18xx.games export")
    async def game_export(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game export", {})

    @game.command(name="import", description="Load an 18xx.games export; players then claim seats")
    async def game_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        if file.size > 5_000_000:
            await interaction.response.send_message("That file is too large.", ephemeral=True)
            return
        try:
            data = export_text(await file.read())
        except UserError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await self.run(interaction, "game import", {"file": data})

    @game.command(name="claim", description="Take a free seat of an imported game")
    @app_commands.autocomplete(seat=complete)
    async def game_claim(self, interaction: discord.Interaction, seat: str) -> None:
        await self.run(interaction, "game claim", str_params(seat=seat))

    @game.command(name="seat", description="Hand a seat to another user")
    @app_commands.autocomplete(seat=complete)
    async def game_seat(self, interaction: discord.Interaction, seat: str, user: discord.Member) -> None:
        await self.run(
            interaction, "game seat", str_params(seat=seat, user=user.id, user_name=user.display_name)
        )

    @game.command(name="settings", description="Reminder settings of this game (the host changes them)")
    async def game_settings(
        self,
        interaction: discord.Interaction,
        remind_hours: float | None = None,
        repeat_hours: float | None = None,
        reminders: int | None = None,
        idle_days: float | None = None,
        sub_days: float | None = None,
    ) -> None:
        await self.run(
            interaction,
            "game settings",
            str_params(
                remind_hours=remind_hours,
                repeat_hours=repeat_hours,
                reminders=reminders,
                idle_days=idle_days,
                sub_days=sub_days,
            ),
        )

    @game.command(name="notify", description="Your reminders: time zone, quiet hours (22-7), direct messages")
    async def game_notify(
        self,
        interaction: discord.Interaction,
        tz: str | None = None,
        quiet: str | None = None,
        dm: bool | None = None,
    ) -> None:
        await self.run(interaction, "game notify", str_params(tz=tz, quiet=quiet, dm=yn(dm)))

    @game.command(name="remind", description="Remind the acting player (at most once an hour)")
    async def game_remind(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game remind", {})

    @game.command(name="sub", description="Hand a seat to a substitute (holder, host, or a vote)")
    @app_commands.autocomplete(seat=complete)
    async def game_sub(
        self, interaction: discord.Interaction, user: discord.Member, seat: str | None = None
    ) -> None:
        await self.run(
            interaction, "game sub", str_params(user=user.id, user_name=user.display_name, seat=seat)
        )

    @game.command(name="robot", description="Hand a seat to the computer player (holder, host, or a vote)")
    @app_commands.autocomplete(seat=complete)
    async def game_robot(self, interaction: discord.Interaction, seat: str, vote: str | None = None) -> None:
        await self.run(interaction, "game robot", str_params(seat=seat, vote=vote))

    @game.command(name="concede", description="Leave the game: your seat then moves automatically")
    @app_commands.autocomplete(seat=complete)
    async def game_concede(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await self.run(interaction, "game concede", str_params(seat=seat))

    @game.command(name="history", description="This server's finished games and their winners")
    async def game_history(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game history", {})

    @app_commands.command(name="games", description="This server's running games: whose turn, since when")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "games", {})

    @app_commands.command(name="stats", description="Games played, wins and average placing")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        await self.run(
            interaction,
            "stats",
            str_params(user=user.id if user else None, user_name=user.display_name if user else None),
        )

    @game.command(name="end", description="End the game (host or server admin)")
    async def game_end(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game end", {})

    @game.command(
        name="repair", description="Cut a log that no longer replays back to its last good action (host)"
    )
    async def game_repair(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game repair", {})

    @app_commands.command(name="creators", description="Who may open games on this server (server admins)")
    @app_commands.default_permissions(manage_guild=True)
    async def creators(
        self, interaction: discord.Interaction, role: discord.Role | None = None, everyone: bool | None = None
    ) -> None:
        params = str_params(
            role="everyone" if everyone else (role.id if role else None),
            role_name=role.name if role and not everyone else None,
        )
        await self.run(interaction, "creators", params)

    @app_commands.command(
        name="sync", description="Register the bot's slash commands with Discord again (admins)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def sync_cmd(self, interaction: discord.Interaction) -> None:
        await self.sync_now(interaction)
