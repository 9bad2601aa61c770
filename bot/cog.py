"""The Discord cog: slash commands, autocomplete and buttons, as thin wiring over the command layer.

A command runs :meth:`CommandLayer.handle` at once. When its reply is ready within
``ANSWER_WITHIN`` seconds (refusals always are) it is the interaction's response itself, so a
refused command never flashes a public "thinking..."; a slower one is deferred first (Discord wants
an acknowledgement within 3 seconds), ephemerally when the answer is private, and followed up.
A refusal is an ephemeral message; a ping mentions exactly one user in the message content
(``allowed_mentions`` names only that user); the game's pinned status message is edited.

Errors: ``tree.on_error`` (:meth:`ConductorCog.report_error`) tells the user privately and logs;
an interaction is never left "thinking...". When Discord refuses the pictures (no Attach Files)
the text is posted alone and the user is told why.

Buttons carry their command line in ``custom_id`` (``cx:/pass state:12``); one
:class:`StateButton` (a discord.py ``DynamicItem``) handles every such button, including those
of messages posted before a restart; a stale one is refused privately by the command layer.

A background loop (``discord.ext.tasks``, once a minute) asks the reminder :class:`Scheduler`
for due reminders and delivers them: a ping in the game's channel, or a direct message for
users who opted in (falling back to the channel when the DM cannot be delivered).

Every command is guild-only (not offered in direct messages); ``/creators`` is for members with
Manage Server by default. Who may do what is decided by the command layer (:mod:`bot.access`)
from the caller's id, roles and admin flag.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from engine.titles.registry import title_names

from .command_table import is_private
from .commands import CommandLayer
from .reminders import Reminder, Scheduler
from .reply import Caller, Reply
from .textcmd import CommandSyntaxError, parse

log = logging.getLogger(__name__)

BUTTON_PREFIX = "cx:"
ANSWER_WITHIN = 1.0  # seconds: a reply ready by then is the response itself, else defer first
NO_FILES_NOTE = (
    "I could not attach the pictures in this channel: I need the Attach Files permission "
    "there (a server admin can grant it). The move itself was made."
)
REMINDER_INTERVAL_MINUTES = 1.0
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
    "secondary": discord.ButtonStyle.secondary,
}


def caller_of(interaction: discord.Interaction) -> Caller:
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    admin = bool(perms and (perms.administrator or perms.manage_guild))
    guild = getattr(interaction, "guild_id", None)
    roles = tuple(str(r.id) for r in getattr(user, "roles", None) or [])
    return Caller(
        str(user.id),
        getattr(user, "display_name", None) or user.name,
        admin,
        str(guild) if isinstance(guild, int) else None,
        roles,
    )


def _one_user(user_id: str) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(user_id))]
    )


def _focused(options: list[dict[str, Any]]) -> tuple[str | None, dict[str, str]]:
    """The focused option's name and every option typed so far (autocomplete payload)."""
    focused, values = None, {}
    for opt in options:
        if "options" in opt:
            f, v = _focused(opt["options"])
            focused = focused or f
            values.update(v)
            continue
        values[opt["name"]] = str(opt.get("value", ""))
        if opt.get("focused"):
            focused = opt["name"]
    return focused, values


async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
    """Autocomplete for every option with a fixed set of legal values (the command layer's
    choices for the caller now, <= 25); integer options get integer values."""
    cog = interaction.client.get_cog("Conductor") if hasattr(interaction.client, "get_cog") else None
    command = interaction.command
    if not isinstance(cog, ConductorCog) or command is None:
        return []
    focused, values = _focused((interaction.data or {}).get("options", []))  # type: ignore[arg-type]
    if focused is None:
        return []
    pairs = await cog.layer.autocomplete(
        str(interaction.channel_id),
        caller_of(interaction),
        command.qualified_name,
        focused,
        values,
        str(current),
    )
    param = command.get_parameter(focused) if hasattr(command, "get_parameter") else None
    if getattr(param, "type", None) == discord.AppCommandOptionType.integer:
        return [
            app_commands.Choice(name=label[:100], value=int(value))
            for value, label in pairs
            if value.lstrip("-").isdigit()
        ][:25]
    return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in pairs][:25]


def _params(**kwargs: Any) -> dict[str, str]:
    return {k: str(v) for k, v in kwargs.items() if v is not None}


class ConductorCog(commands.Cog, name="Conductor"):
    game = app_commands.Group(
        name="game", description="Create, join and manage this channel's game", guild_only=True
    )

    def __init__(self, bot: commands.Bot, layer: CommandLayer, scheduler: Scheduler | None = None):
        self.bot = bot
        self.layer = layer
        self.scheduler = scheduler or Scheduler(layer)
        for command in self.__cog_app_commands__:  # games live in server channels, not in DMs
            app_commands.guild_only(command)

    async def cog_load(self) -> None:
        self.reminder_loop.start()
        self.bot.add_dynamic_items(StateButton)
        self._previous_on_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()
        self.bot.remove_dynamic_items(StateButton)
        self.bot.tree.on_error = self._previous_on_error  # type: ignore[method-assign]

    # ------------------------------------------------------------------ reminders
    @tasks.loop(minutes=REMINDER_INTERVAL_MINUTES)
    async def reminder_loop(self) -> None:
        try:
            await self.scheduler.tick(self.deliver_one)
        except Exception:  # the loop must survive a bad row or a network error
            log.exception("reminder tick failed")

    @reminder_loop.before_loop
    async def _before_reminders(self) -> None:
        await self.bot.wait_until_ready()

    async def deliver(self, reminders: list[Reminder]) -> None:
        for r in reminders:
            await self.deliver_one(r)

    async def deliver_one(self, r: Reminder) -> bool:
        """Send one reminder; False when it could not be delivered (the scheduler tries again)."""
        try:
            if r.dm and await self.direct_message(r.user_id, f"{r.text}\n(in <#{r.channel_id}>)"):
                return True
            channel = self.bot.get_channel(int(r.channel_id)) or await self.bot.fetch_channel(
                int(r.channel_id)
            )
            await channel.send(
                _clip(f"<@{r.user_id}> {r.text}"),  # type: ignore[union-attr]
                allowed_mentions=_one_user(r.user_id),
            )
            return True
        except (discord.HTTPException, ValueError, AttributeError):
            log.warning("could not deliver a reminder for game %s to %s", r.game_id, r.user_id)
            return False

    async def direct_message(self, user_id: str, text: str) -> bool:
        """Send a DM; False when the user cannot be reached that way."""
        try:
            user = self.bot.get_user(int(user_id)) or await self.bot.fetch_user(int(user_id))
            await user.send(_clip(text))
            return True
        except (discord.HTTPException, ValueError):
            return False

    # ------------------------------------------------------------------ the adapter
    async def run(self, interaction: discord.Interaction, name: str, params: dict[str, str]) -> Reply:
        """Run a command and answer the interaction with its reply (see the module docstring)."""
        work = asyncio.ensure_future(
            self.layer.handle(str(interaction.channel_id), caller_of(interaction), name, params)
        )
        try:
            done, _ = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
            if not done:
                private = is_private(name)
                await interaction.response.defer(thinking=True, ephemeral=private)
                interaction.extras["thinking"] = "private" if private else "public"
            reply = await work
            interaction.extras["reply"] = reply
            await self.send(interaction, reply)
        except discord.NotFound as exc:
            if exc.code != 10062 or interaction.extras.get("answered"):
                raise
            # the interaction expired (Discord allows 3 s): a public reply goes to the channel instead
            reply = await work
            log.warning(
                "/%s in channel %s: the interaction expired before it was answered",
                name,
                interaction.channel_id,
            )
            if reply.ok and not reply.ephemeral:
                await self.post_in_channel(interaction, reply)
        finally:
            if not work.done():
                await asyncio.wait({work})  # the command's effect must not be cut off half-way
        return reply

    async def send(self, interaction: discord.Interaction, reply: Reply) -> None:
        if reply.error:
            await self.tell_privately(interaction, reply.error)
            return
        content = "\n".join(reply.lines)
        ping = reply.ping
        if reply.dm and not await self.direct_message(
            reply.dm, f"{reply.ping_text}\n(in <#{interaction.channel_id}>)"
        ):
            ping = reply.dm  # the DM could not be delivered: ping in the channel instead
        if ping:
            content += f"\n<@{ping}> {reply.ping_text}"
        kwargs = message_for(reply, content, ping)
        kwargs["ephemeral"] = reply.ephemeral
        perms = getattr(interaction, "app_permissions", None)
        no_files = (
            bool(kwargs.get("files")) and isinstance(perms, discord.Permissions) and not perms.attach_files
        )
        if no_files:  # the interaction tells us: do not even try
            del kwargs["files"]
        try:
            await self._post(interaction, kwargs)
        except discord.Forbidden:
            if not kwargs.get("files"):
                raise
            del kwargs["files"]
            await self._post(interaction, kwargs)
            no_files = True
        if no_files:
            log.warning(
                "no Attach Files permission in channel %s: the text was posted without its pictures",
                interaction.channel_id,
            )
            await self.tell_privately(interaction, NO_FILES_NOTE)
        if reply.status and reply.game_id is not None and interaction.channel is not None:
            await self.update_status(interaction.channel, reply.game_id, reply.status)

    async def _post(self, interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
        """The interaction's response when it has none yet, else a followup."""
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
        else:
            await interaction.followup.send(**kwargs)
        interaction.extras["answered"] = True

    async def tell_privately(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral message to the user; a public "thinking..." placeholder is removed first."""
        text = _clip(text)
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.extras.get("thinking") == "public" and not interaction.extras.get("answered"):
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
            interaction.extras["thinking"] = None
        await interaction.followup.send(text, ephemeral=True)

    async def post_in_channel(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Post a reply as a plain channel message (when the interaction can no longer be answered)."""
        channel = interaction.channel
        if channel is None or not hasattr(channel, "send"):
            return
        content = "\n".join(reply.lines)
        if reply.ping:
            content += f"\n<@{reply.ping}> {reply.ping_text}"
        try:
            await channel.send(**message_for(reply, content, reply.ping))
            if reply.status and reply.game_id is not None:
                await self.update_status(channel, reply.game_id, reply.status)
        except discord.HTTPException as exc:
            log.warning("could not post a late reply in channel %s: %s", interaction.channel_id, exc)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """``tree.on_error``: every failed slash command ends here."""
        await self.report_error(interaction, error)

    async def report_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Tell the user privately what went wrong and log it; never leave "thinking..." behind."""
        original = getattr(error, "original", None) or error
        reply = interaction.extras.get("reply")
        done = (
            " Your command itself was carried out; /game status shows the game."
            if isinstance(reply, Reply) and reply.ok
            else ""
        )
        where = f"/{getattr(interaction.command, 'qualified_name', '?')} in channel {interaction.channel_id}"
        if isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You cannot use this command here."
        elif isinstance(original, discord.NotFound) and original.code == 10062:
            log.warning("%s: the interaction expired before it was answered", where)
            return
        elif isinstance(original, discord.Forbidden):
            log.warning("%s: Discord refused a message: %s", where, original)
            text = (
                "Discord did not let me post here (missing permissions). A server admin can allow me to "
                "View Channel, Send Messages, Attach Files and Embed Links in this channel." + done
            )
        elif isinstance(error, app_commands.TransformerError):
            text = f"That value is not valid: {error.value!r}"
        else:
            log.error("%s failed", where, exc_info=original)
            text = "Something went wrong on our side." + (done or " Nothing was changed.")
        try:
            await self.tell_privately(interaction, text)
        except discord.HTTPException as exc:
            log.warning("%s: could not report the error to the user either: %s", where, exc)

    async def sync_now(self, interaction: discord.Interaction) -> None:
        """``/sync``: register the slash commands with Discord now (server admins)."""
        if not caller_of(interaction).admin:
            await interaction.response.send_message(
                "Only a server admin can register the commands again.", ephemeral=True
            )
            return
        sync = getattr(self.bot, "sync_commands", None)
        if sync is None:
            await interaction.response.send_message("This bot cannot register commands.", ephemeral=True)
            return
        await interaction.response.defer(thinking=True, ephemeral=True)
        try:
            count = await sync(force=True)
        except discord.HTTPException as exc:
            log.warning("/sync: Discord refused the commands: %s", exc)
            await interaction.followup.send(
                f"Discord refused the commands ({exc.status}): {exc.text or exc}", ephemeral=True
            )
            return
        await interaction.followup.send(
            f"Registered {count} slash commands with Discord; clients show "
            "changes within a minute (restart Discord if not).",
            ephemeral=True,
        )

    async def update_status(self, channel: Any, game_id: int, text: str) -> None:
        """Edit the game's pinned status message (post and pin it the first time)."""
        row = await self.layer.store.game(game_id)
        if row is None:
            return
        text = _clip(text)
        if row.status_message_id:
            try:
                msg = channel.get_partial_message(int(row.status_message_id))
                await msg.edit(content=text, allowed_mentions=discord.AllowedMentions.none())
                return
            except (discord.NotFound, discord.Forbidden, discord.HTTPException):
                pass
        try:
            msg = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            await self.layer.store.set_status_message(game_id, str(msg.id))
            await msg.pin()
        except (discord.Forbidden, discord.HTTPException):
            log.warning("could not post or pin the status message in %s", getattr(channel, "id", "?"))

    # ------------------------------------------------------------------ /help and /game
    @app_commands.command(name="help", description="Commands, and who must act now; command: explains one")
    @app_commands.autocomplete(command=complete)
    async def help(self, interaction: discord.Interaction, command: str | None = None) -> None:
        await self.run(interaction, "help", _params(command=command))

    @game.command(name="new", description="Open a new game in this channel")
    @app_commands.choices(title=[app_commands.Choice(name=t, value=t) for t in title_names()])
    @app_commands.autocomplete(options=complete)
    @app_commands.describe(
        bonuses="1833NE: values from your rulebook, e.g. Boston-Portland=50/50/80/80/0 ferry=20"
    )
    async def game_new(
        self,
        interaction: discord.Interaction,
        title: str,
        options: str | None = None,
        bonuses: str | None = None,
    ) -> None:
        await self.run(interaction, "game new", _params(title=title, options=options, bonuses=bonuses))

    @game.command(
        name="rules", description="1833NE's provisional values (bonuses, ferries); the host sets them"
    )
    async def game_rules(self, interaction: discord.Interaction, bonuses: str | None = None) -> None:
        await self.run(interaction, "game rules", _params(bonuses=bonuses))

    @game.command(name="join", description="Take a seat (give a name to take another seat yourself)")
    async def game_join(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await self.run(interaction, "game join", _params(name=name))

    @game.command(name="leave", description="Leave before the game starts")
    @app_commands.autocomplete(seat=complete)
    async def game_leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await self.run(interaction, "game leave", _params(seat=seat))

    @game.command(name="start", description="Start the game (host)")
    @app_commands.choices(
        order=[
            app_commands.Choice(name="random", value="random"),
            app_commands.Choice(name="joined", value="joined"),
        ]
    )
    async def game_start(self, interaction: discord.Interaction, order: str | None = None) -> None:
        await self.run(interaction, "game start", _params(order=order))

    @game.command(name="status", description="Who must act and what they can do")
    async def game_status(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game status", {})

    @game.command(name="undo", description="Undo the last action")
    async def game_undo(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game undo", {})

    @game.command(name="export", description="The game as an 18xx.games export")
    async def game_export(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game export", {})

    @game.command(name="import", description="Load an 18xx.games export; players then claim seats")
    async def game_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        if file.size > 5_000_000:
            await interaction.response.send_message("That file is too large.", ephemeral=True)
            return
        data = (await file.read()).decode("utf-8", errors="replace")
        await self.run(interaction, "game import", {"file": data})

    @game.command(name="claim", description="Take a free seat of an imported game")
    @app_commands.autocomplete(seat=complete)
    async def game_claim(self, interaction: discord.Interaction, seat: str) -> None:
        await self.run(interaction, "game claim", _params(seat=seat))

    @game.command(name="seat", description="Hand a seat to another user")
    @app_commands.autocomplete(seat=complete)
    async def game_seat(self, interaction: discord.Interaction, seat: str, user: discord.Member) -> None:
        await self.run(
            interaction, "game seat", _params(seat=seat, user=user.id, user_name=user.display_name)
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
            _params(
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
        await self.run(interaction, "game notify", _params(tz=tz, quiet=quiet, dm=_yn(dm)))

    @game.command(name="remind", description="Remind the acting player (at most once an hour)")
    async def game_remind(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "game remind", {})

    @game.command(name="sub", description="Hand a seat to a substitute (holder, host, or a vote)")
    @app_commands.autocomplete(seat=complete)
    async def game_sub(
        self, interaction: discord.Interaction, user: discord.Member, seat: str | None = None
    ) -> None:
        await self.run(interaction, "game sub", _params(user=user.id, user_name=user.display_name, seat=seat))

    @game.command(name="concede", description="Leave the game: your seat then moves automatically")
    @app_commands.autocomplete(seat=complete)
    async def game_concede(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await self.run(interaction, "game concede", _params(seat=seat))

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
            _params(user=user.id if user else None, user_name=user.display_name if user else None),
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
        params = _params(
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

    # ------------------------------------------------------------------ game actions
    @app_commands.command(name="bid", description="Bid for (or buy) a private company")
    @app_commands.autocomplete(company=complete, price=complete)
    async def bid(self, interaction: discord.Interaction, company: str, price: int) -> None:
        await self.run(interaction, "bid", _params(company=company, price=price))

    @app_commands.command(name="par", description="Start a corporation")
    @app_commands.autocomplete(corporation=complete, price=complete, home=complete)
    async def par(
        self, interaction: discord.Interaction, corporation: str, price: str, home: str | None = None
    ) -> None:
        await self.run(interaction, "par", _params(corporation=corporation, price=price, home=home))

    @app_commands.command(name="buy", description="Buy a share")
    @app_commands.autocomplete(share=complete)
    async def buy(self, interaction: discord.Interaction, share: str) -> None:
        await self.run(interaction, "buy", _params(share=share))

    @app_commands.command(name="sell", description="Sell shares")
    @app_commands.autocomplete(shares=complete)
    async def sell(
        self,
        interaction: discord.Interaction,
        shares: str | None = None,
        corporation: str | None = None,
        percent: int | None = None,
    ) -> None:
        await self.run(interaction, "sell", _params(shares=shares, corporation=corporation, percent=percent))

    @app_commands.command(name="pass", description="Pass, or finish this step")
    @app_commands.autocomplete(entity=complete)
    async def pass_(self, interaction: discord.Interaction, entity: str | None = None) -> None:
        await self.run(interaction, "pass", _params(entity=entity))

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
        await self.run(interaction, "lay", _params(hex=hex, tile=tile, rotation=rotation, entity=entity))

    @app_commands.command(name="token", description="Place a station token")
    @app_commands.autocomplete(city=complete, slot=complete, entity=complete)
    async def token(
        self, interaction: discord.Interaction, city: str, slot: int | None = None, entity: str | None = None
    ) -> None:
        await self.run(interaction, "token", _params(city=city, slot=slot, entity=entity))

    @app_commands.command(name="routes", description='Run trains: auto, none, or "2-0: F15-F17; ..."')
    @app_commands.autocomplete(routes=complete)
    async def routes(self, interaction: discord.Interaction, routes: str | None = None) -> None:
        await self.run(interaction, "routes", _params(routes=routes))

    @app_commands.command(name="dividend", description="Pay out or withhold")
    @app_commands.autocomplete(kind=complete)
    async def dividend(self, interaction: discord.Interaction, kind: str) -> None:
        await self.run(interaction, "dividend", _params(kind=kind))

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
            interaction, "train", _params(train=train, variant=variant, price=price, exchange=exchange)
        )

    @app_commands.command(name="discard", description="Discard a train over the limit")
    @app_commands.autocomplete(train=complete, entity=complete)
    async def discard(self, interaction: discord.Interaction, train: str, entity: str | None = None) -> None:
        await self.run(interaction, "discard", _params(train=train, entity=entity))

    @app_commands.command(name="loan", description="Take a loan")
    async def loan(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "loan", {})

    @app_commands.command(name="repay", description="Pay off a loan")
    async def repay(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "repay", {})

    @app_commands.command(name="private", description="Buy a private company from a player")
    @app_commands.autocomplete(company=complete)
    async def private(self, interaction: discord.Interaction, company: str, price: int) -> None:
        await self.run(interaction, "private", _params(company=company, price=price))

    @app_commands.command(name="assign", description="Place a private's marker (port)")
    @app_commands.autocomplete(target=complete, entity=complete)
    async def assign(self, interaction: discord.Interaction, target: str, entity: str | None = None) -> None:
        await self.run(interaction, "assign", _params(target=target, entity=entity))

    @app_commands.command(name="right", description="Buy a tunnel or bridge right (1856) or a ferry (1833NE)")
    @app_commands.autocomplete(right=complete)
    async def right(self, interaction: discord.Interaction, right: str, cost: int | None = None) -> None:
        await self.run(interaction, "right", _params(right=right, cost=cost))

    @app_commands.command(name="issue", description="Issue treasury shares")
    @app_commands.autocomplete(shares=complete)
    async def issue(self, interaction: discord.Interaction, shares: str) -> None:
        await self.run(interaction, "issue", _params(shares=shares))

    @app_commands.command(name="redeem", description="Redeem a share")
    @app_commands.autocomplete(share=complete)
    async def redeem(self, interaction: discord.Interaction, share: str) -> None:
        await self.run(interaction, "redeem", _params(share=share))

    @app_commands.command(name="merge", description="Merge into the national (1856 nationalization)")
    @app_commands.autocomplete(corporation=complete)
    async def merge(self, interaction: discord.Interaction, corporation: str | None = None) -> None:
        await self.run(interaction, "merge", _params(corporation=corporation))

    @app_commands.command(name="takeover", description="Take over another corporation (1833NE)")
    @app_commands.autocomplete(corporation=complete, shares=complete)
    async def takeover(
        self, interaction: discord.Interaction, corporation: str, shares: int | None = None
    ) -> None:
        await self.run(interaction, "takeover", _params(corporation=corporation, shares=shares))

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
            interaction, "autopass", _params(unconditional=_yn(unconditional), indefinite=_yn(indefinite))
        )

    @app_commands.command(name="autobuy", description="Buy shares automatically")
    @app_commands.autocomplete(corporation=complete, until=complete)
    async def autobuy(
        self, interaction: discord.Interaction, corporation: str, until: str, from_market: bool | None = None
    ) -> None:
        await self.run(
            interaction,
            "autobuy",
            _params(corporation=corporation, until=until, from_market=_yn(from_market)),
        )

    @app_commands.command(name="autostop", description="Cancel your automatic stock-round moves")
    async def autostop(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "autostop", {})


def _yn(value: bool | None) -> str | None:
    return None if value is None else ("yes" if value else "no")


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def message_for(reply: Reply, content: str, ping: str | None) -> dict[str, Any]:
    """The keyword arguments of a message posting ``reply``: text, the one ping, pictures, buttons."""
    kwargs: dict[str, Any] = {
        "content": _clip(content) or "\u200b",
        "allowed_mentions": _one_user(ping) if ping else discord.AllowedMentions.none(),
    }
    if reply.files:
        kwargs["files"] = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]
    view = buttons_view(reply)
    if view is not None:
        kwargs["view"] = view
    return kwargs


class StateButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(BUTTON_PREFIX) + r"(?P<line>.+)"
):
    """Every state button: its ``custom_id`` is ``cx:<command line>``, so any such button works,
    whenever it was posted; nothing is kept in memory per message."""

    def __init__(
        self, line: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ):
        super().__init__(
            discord.ui.Button(label=label[:80] or None, style=style, custom_id=BUTTON_PREFIX + line)
        )
        self.line = line

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StateButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match["line"],
            getattr(button, "label", None) or "",
            getattr(button, "style", discord.ButtonStyle.secondary),
        )

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        cog = interaction.client.get_cog("Conductor") if hasattr(interaction.client, "get_cog") else None
        if not isinstance(cog, ConductorCog):
            return
        try:
            cmd = parse(self.line)
        except CommandSyntaxError:
            await interaction.response.send_message("That button is broken.", ephemeral=True)
            return
        try:
            await cog.run(interaction, cmd.name, cmd.params)
        except Exception as exc:  # buttons do not go through tree.on_error
            await cog.report_error(interaction, exc)


def buttons_view(reply: Reply) -> discord.ui.View | None:
    """The reply's buttons, all :class:`StateButton` (no per-message state is kept)."""
    if not reply.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for b in reply.buttons[:25]:
        if len(BUTTON_PREFIX + b.command) > 100:
            continue
        view.add_item(StateButton(b.command, b.label, STYLES.get(b.style, discord.ButtonStyle.secondary)))
    return view if view.children else None
