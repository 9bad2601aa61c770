"""The Discord cog: slash commands, autocomplete and buttons, as thin wiring over the command layer.

The slash commands are declared in :mod:`bot.discord.slash_game` and :mod:`bot.discord.slash_actions` (the cog's
bases), each by its name in the one command table (:mod:`bot.commands.table`); the caller, the
options and autocomplete are read in :mod:`bot.discord.io`.

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
Select menus (:class:`StateSelect`, ``cs:``) carry in each option's value the command line the
choice submits, exactly as typed; a line that leaves a choice open (a tile's hex) is answered
privately with the next menu (:mod:`bot.discord.menus`). A line that lacks a number no menu can
list (a train bought from another corporation at the price agreed) is answered with a box, a
modal (:class:`NumberBox`, ``cm:<command line>``, one text input named by the option: "Price for
the 4-train from CA", "Price ($1-$733)"); its submit runs the line with the number typed through
the command layer, as if typed (a bad number is refused privately, a stale line too). The box is
never kept in memory: every submit, after a restart too, is read by :meth:`ConductorCog.on_interaction`.
Where no box can be shown (a line too long for its ``custom_id``, an answer too slow), the
reply says what to type. The decisions offered are built from the move
table (:func:`bot.texts.game.decision_buttons`). Only the newest game message of a channel offers
components: when the game moves on, the previous one is edited to drop them, and a stale
component clicked (after a restart too) is dropped from its message.

A background loop (``discord.ext.tasks``, once a minute) asks the reminder :class:`Scheduler`
for due reminders and delivers them: a ping in the game's channel, or a direct message for
users who opted in (falling back to the channel when the DM cannot be delivered).

Every command is guild-only (not offered in direct messages); ``/creators`` is for members with
Manage Server by default. Who may do what is decided by the command layer (:mod:`bot.handlers.access`)
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

from ..commands.layer import CommandLayer
from ..commands.table import is_private
from ..reminders import Reminder, Scheduler
from ..reply import Ask, Pick, Reply
from ..terminal.textcmd import CommandSyntaxError, parse
from ..texts.story import fit
from .command_sync import command_ids
from .io import caller_of, clip, command_names_of, mention_commands, one_user, these_users
from .menus import next_pick
from .slash_actions import ActionSlashCommands
from .slash_game import GameSlashCommands

log = logging.getLogger(__name__)

BUTTON_PREFIX = "cx:"
MENU_PREFIX = "cs:"
BOX_PREFIX = "cm:"  # a modal asking for a number: the command line it completes
STALE_NOTE = "That is out of date: the game has moved on. Nothing was changed."
HISTORY_READ = 20  # messages read back after a restart to clear components left live
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


# The cog: the adapter (run), reminders, errors and the status message. Its bases declare the slash
# commands; discord.py collects them from the last base first, so /game, /help, ... come before /bid
# as they always did (the registered tree, and so its hash, is unchanged). No class docstring: it
# would become the cog's description.
class ConductorCog(ActionSlashCommands, GameSlashCommands, name="Conductor"):
    def __init__(self, bot: commands.Bot, layer: CommandLayer, scheduler: Scheduler | None = None):
        self.bot = bot
        self.layer = layer
        self.scheduler = scheduler or Scheduler(layer)
        self._live: dict[int, int | None] = {}  # channel id -> the message whose components are live
        layer.posted.crops = True  # read on phones: the part of the map that matters, larger, too
        for command in self.__cog_app_commands__:  # games live in server channels, not in DMs
            app_commands.guild_only(command)

    async def cog_load(self) -> None:
        self.reminder_loop.start()
        self.bot.add_dynamic_items(StateButton, StateSelect)
        self._previous_on_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()
        self.bot.remove_dynamic_items(StateButton, StateSelect)
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
            await channel.send(  # type: ignore[union-attr]
                clip(f"<@{r.user_id}> {r.text}"),
                allowed_mentions=one_user(r.user_id),
            )
            return True
        except (discord.HTTPException, ValueError, AttributeError):
            log.warning("could not deliver a reminder for game %s to %s", r.game_id, r.user_id)
            return False

    async def direct_message(self, user_id: str, text: str) -> bool:
        """Send a DM; False when the user cannot be reached that way."""
        try:
            user = self.bot.get_user(int(user_id)) or await self.bot.fetch_user(int(user_id))
            await user.send(clip(text))
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
            if not done and not interaction.response.is_done():
                private = is_private(name)
                await interaction.response.defer(thinking=True, ephemeral=private)
                interaction.extras["thinking"] = "private" if private else "public"
            reply = await work
            interaction.extras["reply"] = reply
            self.link_commands(reply)
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

    def link_commands(self, reply: Reply) -> None:
        """The commands a reply names (its story, "next:" line, refusal, the pinned status) become
        clickable mentions, ids from the registration."""
        ids = command_ids(self.bot.application_id)
        if ids:
            names = command_names_of(self.bot.tree)
            reply.lines = [mention_commands(line, ids, names) for line in reply.lines]
            if reply.error:
                reply.error = mention_commands(reply.error, ids, names)
            if reply.status:
                reply.status = mention_commands(reply.status, ids, names)

    async def send(self, interaction: discord.Interaction, reply: Reply) -> None:
        if reply.error:
            await self.tell_privately(interaction, reply.error)
            return
        content = "\n".join(fit(reply.lines))
        ping = reply.ping
        if ping:
            content += f"\n<@{ping}> {reply.ping_text}"
        content += "".join(f"\n<@{uid}> {text}" for uid, text in reply.heads_up)
        kwargs = message_for(reply, content, ping)
        kwargs["ephemeral"] = reply.ephemeral
        perms = getattr(interaction, "app_permissions", None)
        no_files = (
            bool(kwargs.get("files")) and isinstance(perms, discord.Permissions) and not perms.attach_files
        )
        if no_files:  # the interaction tells us: do not even try
            del kwargs["files"]
        try:
            message_id = await self._post(interaction, kwargs)
        except discord.Forbidden:
            if not kwargs.get("files"):
                raise
            del kwargs["files"]
            message_id = await self._post(interaction, kwargs)
            no_files = True
        await self.moved_on(interaction.channel, reply, message_id)
        if reply.dm and not await self.direct_message(reply.dm, f"{reply.ping_text}\n(in <#{interaction.channel_id}>)"):
            # the DM (sent once the interaction is answered) could not be delivered: ping here instead
            await interaction.followup.send(
                clip(f"<@{reply.dm}> {reply.ping_text}"), allowed_mentions=one_user(reply.dm)
            )
        if no_files:
            log.warning(
                "no Attach Files permission in channel %s: the text was posted without its pictures",
                interaction.channel_id,
            )
            await self.tell_privately(interaction, NO_FILES_NOTE)
        if reply.status and reply.game_id is not None and interaction.channel is not None:
            await self.update_status(interaction.channel, reply.game_id, reply.status)

    async def _post(self, interaction: discord.Interaction, kwargs: dict[str, Any]) -> int | None:
        """The interaction's response when it has none yet, else a followup; the message's id."""
        if not interaction.response.is_done():
            sent = await interaction.response.send_message(**kwargs)
            message_id = getattr(sent, "message_id", None)
        else:
            message_id = (await interaction.followup.send(**kwargs, wait=True)).id
        interaction.extras["answered"] = True
        return message_id if isinstance(message_id, int) else None

    # ------------------------------------------------------------------ live components
    async def moved_on(self, channel: Any, reply: Reply, message_id: int | None) -> None:
        """A public game reply was posted: the components of the previous one (stamped with an
        older state) are removed, and this one's become the channel's live components."""
        if channel is None or reply.ephemeral or reply.game_id is None:
            return
        first = channel.id not in self._live
        old = self._live.pop(channel.id, None)
        self._live[channel.id] = None
        if message_id is not None and any(" state:" in b.command for b in reply.buttons):
            self._live[channel.id] = message_id
        if old is not None and old != message_id:
            await self.strip(channel, old)
        if first:  # the first game reply here since the bot started: older live components too
            await self.strip_older(channel, message_id)

    async def strip_older(self, channel: Any, newest: int | None) -> None:
        """Clear the stamped components of the bot's recent messages before ``newest`` (posted before
        a restart); one read of the channel's history."""
        me = self.bot.user
        try:
            async for message in channel.history(limit=HISTORY_READ, before=discord.Object(newest) if newest else None):
                stamped = any(
                    str(getattr(item, "custom_id", "") or "").startswith((BUTTON_PREFIX, MENU_PREFIX))
                    for row in message.components
                    for item in getattr(row, "children", [])
                )
                if stamped and me is not None and message.author.id == me.id:
                    await self.strip(channel, message.id)
        except (discord.HTTPException, AttributeError) as exc:  # no Read Message History: old ones stay
            log.info("could not read the history of channel %s: %s", getattr(channel, "id", "?"), exc)

    async def strip(self, channel: Any, message_id: int) -> None:
        """Remove a message's buttons and menus (edit): it stays as the record of its move."""
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except (discord.HTTPException, AttributeError) as exc:
            log.info("could not clear the buttons of message %s: %s", message_id, exc)

    async def stale_clicked(self, interaction: discord.Interaction, line: str) -> None:
        """A refused click on a component stamped with a state the game has left: clear them all
        from that message, so it is not offered again (after a restart too)."""
        message = interaction.message
        if message is None or message.flags.ephemeral or message.id == self._live.get(interaction.channel_id or 0):
            return
        try:
            stamp = parse(line).params.get("state")
        except CommandSyntaxError:
            return
        row = await self.layer.store.open_game(str(interaction.channel_id))
        if stamp is None or row is None:
            return
        if row.status != "active" or (await self.layer.load(row)).seq != int(stamp or -1):
            await self.strip(interaction.channel, message.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A box's submit (:meth:`submitted`); a click on a button or menu its message no longer
        has (a screen not yet refreshed after the components were cleared): discord.py drops it,
        so it is answered here, privately."""
        if interaction.type == discord.InteractionType.modal_submit:
            await self.submitted(interaction)
            return
        if interaction.type != discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith((BUTTON_PREFIX, MENU_PREFIX)):
            return
        shown = {
            getattr(item, "custom_id", None)
            for row in interaction.message.components
            for item in getattr(row, "children", [])
        }
        if custom_id not in shown:
            await interaction.response.send_message(STALE_NOTE, ephemeral=True)

    async def choose(
        self, interaction: discord.Interaction, name: str, params: dict[str, str], picked: str = ""
    ) -> Reply:
        """A select menu's choice: privately the next menu while the command needs another
        choice (a tile for the hex chosen), a box while it needs a number typed (a train's price
        agreed), else the command itself. A private menu is updated to say what was chosen (unless
        a box opens: a modal must be the first answer); a slow answer is acknowledged silently first."""
        work = asyncio.ensure_future(
            next_pick(self.layer, str(interaction.channel_id), caller_of(interaction), name, params)
        )
        done, _ = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
        if done and isinstance(box := work.result(), Reply) and box.ask and await self.open_box(interaction, box.ask):
            return box
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            chosen = picked_label(message, picked)
            await interaction.response.edit_message(content=clip(f"{message.content}\nChosen: {chosen}"), view=None)
        elif not done and not interaction.response.is_done():
            await interaction.response.defer()  # a component's silent acknowledgement: the answer follows
        menu = await work
        if not isinstance(menu, Reply):
            return await self.run(interaction, name, menu)
        await self.send(interaction, menu)
        return menu

    async def open_box(self, interaction: discord.Interaction, ask: Ask) -> bool:
        """Answer the interaction with the box asking for a number (:class:`NumberBox`); False
        when it cannot be (the line does not fit a ``custom_id``, the interaction is answered)."""
        if len(BOX_PREFIX + ask.command) > 100 or interaction.response.is_done():
            return False
        await interaction.response.send_modal(NumberBox(ask))
        return True

    async def submitted(self, interaction: discord.Interaction) -> None:
        """A box's submit: its command line with the number typed, run through the command layer
        as if typed (a bad number or a stale line is refused privately)."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(BOX_PREFIX):
            return
        try:
            cmd = parse(custom_id[len(BOX_PREFIX):])
        except CommandSyntaxError:
            await interaction.response.send_message("That box is broken.", ephemeral=True)
            return
        # only what the line lacks: its state: guard and choices stay as they were offered
        typed = {k: v for k, v in typed_values(data.get("components") or []).items() if k not in cmd.params}
        try:
            await self.run(interaction, cmd.name, {**cmd.params, **typed})
        except Exception as exc:  # modals do not go through tree.on_error
            await self.report_error(interaction, exc)

    async def tell_privately(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral message to the user; a public "thinking..." placeholder is removed first."""
        text = clip(text)
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
        content = "\n".join(fit(reply.lines))
        ping = reply.ping
        if reply.dm and not await self.direct_message(reply.dm, f"{reply.ping_text}\n(in <#{interaction.channel_id}>)"):
            ping = reply.dm
        if ping:
            content += f"\n<@{ping}> {reply.ping_text}"
        content += "".join(f"\n<@{uid}> {text}" for uid, text in reply.heads_up)
        try:
            sent = await channel.send(**message_for(reply, content, ping))
            await self.moved_on(channel, reply, sent.id)
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
        text = clip(text)
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


def message_for(reply: Reply, content: str, ping: str | None) -> dict[str, Any]:
    """The keyword arguments of a message posting ``reply``: text, the ping and the players the
    move concerns (the only users it notifies), pictures, buttons."""
    users = ([ping] if ping else []) + [uid for uid, _ in reply.heads_up]
    kwargs: dict[str, Any] = {
        "content": clip(content) or "\u200b",
        "allowed_mentions": these_users(users) if users else discord.AllowedMentions.none(),
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
        self,
        line: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Button(label=label[:80] or None, style=style, custom_id=BUTTON_PREFIX + line, row=row)
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

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Conductor") if hasattr(interaction.client, "get_cog") else None
        if not isinstance(cog, ConductorCog):
            return
        try:
            cmd = parse(self.line)
        except CommandSyntaxError:
            await interaction.response.send_message("That button is broken.", ephemeral=True)
            return
        try:
            reply = await cog.run(interaction, cmd.name, cmd.params)
            if not reply.ok:
                await cog.stale_clicked(interaction, self.line)
        except Exception as exc:  # buttons do not go through tree.on_error
            await cog.report_error(interaction, exc)


class StateSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.escape(MENU_PREFIX) + r"(?P<line>.+)"
):
    """Every select menu: its ``custom_id`` is ``cs:<command line>`` and each option's value is the
    full command line the choice submits, exactly as typed. A line that leaves an option to choose
    (a tile's hex) is answered privately with the next menu (:func:`bot.discord.menus.next_pick`)."""

    def __init__(
        self, line: str, placeholder: str = "", options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=MENU_PREFIX + line,
                placeholder=placeholder[:150] or None,
                options=options or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )
        self.line = line

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StateSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(match["line"], getattr(select, "placeholder", None) or "", list(getattr(select, "options", [])))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Conductor") if hasattr(interaction.client, "get_cog") else None
        if not isinstance(cog, ConductorCog):
            return
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [])
        try:
            cmd = parse(str(values[0]))
        except (CommandSyntaxError, IndexError):
            await interaction.response.send_message("That menu is broken.", ephemeral=True)
            return
        try:
            reply = await cog.choose(interaction, cmd.name, cmd.params, str(values[0]))
            if not reply.ok:
                await cog.stale_clicked(interaction, self.line)
        except Exception as exc:  # components do not go through tree.on_error
            await cog.report_error(interaction, exc)


class NumberBox(discord.ui.Modal):
    """The box a number is typed in (:class:`bot.reply.Ask`): ``custom_id`` ``cm:<command line>``
    and one short text input whose ``custom_id`` is the option it fills (``price``)."""

    def __init__(self, ask: Ask):
        super().__init__(title=ask.title[:45], custom_id=BOX_PREFIX + ask.command, timeout=None)
        self.add_item(discord.ui.Label(text=ask.label[:45], component=discord.ui.TextInput(
            custom_id=ask.option, placeholder=ask.placeholder[:100] or None, max_length=20)))
        # stopped before it is sent, so discord.py does not keep it waiting for its submit:
        # ConductorCog.on_interaction reads every submit from its custom_id (after a restart too)
        self.stop()


def typed_values(components: list[Any]) -> dict[str, str]:
    """The text inputs of a modal submit, by ``custom_id`` (in action rows or labels)."""
    out: dict[str, str] = {}
    for c in components:
        if not isinstance(c, dict):
            continue
        if c.get("type") == 1:
            out.update(typed_values(list(c.get("components") or [])))
        elif c.get("type") == 18:
            out.update(typed_values([c.get("component")]))
        elif c.get("type") == 4 and c.get("custom_id"):
            out[str(c["custom_id"])] = str(c.get("value") or "").strip()
    return out


def buttons_view(reply: Reply) -> discord.ui.View | None:
    """The reply's buttons (a row of up to five) and select menus (a row each), at most five rows,
    all dynamic items (:class:`StateButton`, :class:`StateSelect`): no per-message state is kept."""
    if not reply.buttons:
        return None
    view = discord.ui.View(timeout=None)
    plain = [b for b in reply.buttons if not b.picks and len(BUTTON_PREFIX + b.command) <= 100]
    menus = [b for b in reply.buttons if b.picks and len(MENU_PREFIX + b.command) <= 100]
    rows = -(-len(plain) // 5)
    for i, b in enumerate(plain[:25]):
        view.add_item(StateButton(b.command, b.label, STYLES.get(b.style, discord.ButtonStyle.secondary), row=i // 5))
    seen: set[str] = set()
    for b in menus[: max(0, 5 - rows)]:
        if b.command in seen:
            continue
        seen.add(b.command)
        view.add_item(StateSelect(b.command, b.label, menu_options(b.picks), row=rows))
        rows += 1
    return view if view.children else None


def picked_label(message: discord.Message, value: str) -> str:
    """The label of the option ``value`` of a select menu on ``message`` (else the value)."""
    for row in message.components:
        for item in getattr(row, "children", []):
            for option in getattr(item, "options", []):
                if option.value == value:
                    return str(option.label)
    return value


def menu_options(picks: tuple[Pick, ...]) -> list[discord.SelectOption]:
    """A select menu's options: the pick's words as its label, its command line as its value."""
    out: list[discord.SelectOption] = []
    values: set[str] = set()
    for p in picks:
        if p.command in values or len(p.command) > 100 or len(out) == 25:
            continue
        values.add(p.command)
        out.append(discord.SelectOption(label=p.label[:100] or p.command, value=p.command,
                                        description=p.description[:100] or None))
    return out
