"""The command layer: every command as a pure, Discord-free handler over the store.

``await CommandLayer.handle(channel_id, caller, name, params)`` returns a :class:`Reply`
describing what to post. The Discord cog and local mode are thin adapters over it. The command
is looked up in the one command table (:mod:`bot.commands.table`) and its handler runs over the
game service (:class:`bot.service.GameService`, which this layer is).

The path of a command: Discord (:mod:`bot.discord.slash_game`, :mod:`bot.discord.slash_actions`, buttons in
:mod:`bot.discord.cog`) or the terminal (:mod:`bot.terminal.local`, text read by :mod:`bot.terminal.textcmd`) ->
:meth:`CommandLayer.handle` (limits on input and, in Discord, on how often a member or channel
may run commands, the channel's lock, one transaction) -> the table's handler;
for a game action that is :meth:`GameService.act <bot.service.GameService.act>` (load the game,
check the button and the caller's seat, :func:`bot.acting.resolve_entity`,
:func:`bot.play.build_action` with the command's :class:`engine.moves.Move`) ->
:meth:`~bot.service.GameService.apply` -> ``Game.process`` -> the after-change (store, status,
buttons, pictures, the ping, the turn clock).

Validation order (the first reason that applies is the one the user sees): input too long ->
no game here -> game not started / over -> stale button -> not seated -> not your turn / action
unavailable -> bad parameters -> the engine's own rules. A refusal changes nothing.

Each command is one store transaction: all its writes land or none do; they wait in the store
and go to the database together with the commit, so the database is held only for that moment
(:mod:`bot.storage.store`). A command that loses a race with another process (the same move stored
first) is refused, and the game reloaded. Commands run one at a time per channel (one game per
channel), except those the table marks unlocked. Who may do what is decided in :mod:`bot.handlers.access`.
"""

from __future__ import annotations

import logging
import sqlite3

from engine.errors import NOT_YOUR_TURN, GameError

from ..gamelog import build_game
from ..reminders import Clock
from ..reply import Caller, Reply, UserError
from ..service import GameService, render_images
from ..storage.rows import Conflict
from ..storage.store import Store, unsaved_text
from ..terminal.textcmd import CommandSyntaxError
from ..texts.game import decision_buttons, status_text
from ..texts.turns import next_line
from . import limits
from .complete import autocomplete
from .table import check_options, find_command, is_action, is_unlocked

log = logging.getLogger(__name__)


class CommandLayer(GameService):
    """The entry point of every command: the game service plus dispatch and the one error handler.
    ``rates`` (the Discord bot's; None in tests and local mode) limits how often each member and
    channel may run commands (:class:`bot.commands.limits.RateLimits`)."""

    def __init__(
        self,
        store: Store,
        *,
        images: bool = True,
        clock: Clock | None = None,
        rates: limits.RateLimits | None = None,
    ):
        super().__init__(store, images=images, clock=clock)
        self.rates = rates

    async def handle(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        """Run one command: serialized per channel (one game per channel), one transaction."""
        channel_id = str(channel_id)
        try:
            caller = limits.checked(caller, name, params)
            params = limits.shown_names(params)
            if self.rates is not None:
                self.rates.command(caller.id, channel_id, name)
        except UserError as exc:
            return Reply.fail(str(exc))
        if is_unlocked(name):
            return await self._run(channel_id, caller, name, params)
        async with self.lock(channel_id):
            return await self._run(channel_id, caller, name, params)

    async def _run(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        with self.tracking() as scope:
            try:
                async with self.store.transaction():
                    return await self._dispatch(channel_id, caller, name, dict(params))
            except (GameError, UserError, CommandSyntaxError) as exc:
                self.rollback(scope)
                return await self._refusal(channel_id, exc, name)
            except Conflict as exc:
                self.rollback(scope)
                return await self._conflict(channel_id, str(exc))
            except sqlite3.IntegrityError as exc:
                self.rollback(scope)
                if "UNIQUE" not in str(exc) and "PRIMARY KEY" not in str(exc):
                    log.exception("command /%s failed in channel %s", name, channel_id)
                    return Reply.fail("Something went wrong on our side; nothing was changed.")
                return await self._conflict(channel_id, "it was changed at the same moment")
            except sqlite3.Error as exc:  # disk full, I/O error, locked by another process for too long
                self.rollback(scope)
                log.warning("command /%s in channel %s not stored: %s", name, channel_id, exc)
                return Reply.fail(unsaved_text(exc))
            except Exception:  # a bug must not take the bot down or leave a half-applied state
                log.exception("command /%s failed in channel %s", name, channel_id)
                self.rollback(scope)
                row = await self.store.open_game(channel_id)
                if row:
                    self.forget(row.id)
                return Reply.fail("Something went wrong on our side; nothing was changed.")

    async def _conflict(self, channel_id: str, why: str) -> Reply:
        """Lost a race with another command or process: nothing was stored; reload and say so."""
        text = f"Someone else changed this game at the same moment ({why}), so this was not done."
        row = await self.store.open_game(channel_id)
        if row is not None and row.status == "active":
            self.forget(row.id)
            try:
                game = (await self.load(row)).game
                if not game.finished:
                    text += f" The game is reloaded; {next_line(game)}."
            except UserError:
                pass
        return Reply.fail(text)

    async def _refusal(self, channel_id: str, exc: Exception, name: str) -> Reply:
        """The one error handler: a friendly ephemeral reply, with what is allowed now (unless
        the refusal already names whom the game waits for)."""
        text = str(exc)
        if is_action(name):
            row = await self.store.open_game(channel_id)
            cached = self.cached(row.id) if row else None
            waiting = isinstance(exc, GameError) and exc.code == NOT_YOUR_TURN
            if cached and not cached.game.finished and not waiting:
                text += "\n" + next_line(cached.game)
        return Reply.fail(text)

    async def _dispatch(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        check_options(name, params)
        return await find_command(name).handler(self, channel_id, caller, params)

    async def autocomplete(
        self, channel_id: str, caller: Caller, name: str, param: str, params: dict[str, str], typed: str = ""
    ) -> list[tuple[str, str]]:
        """Legal (value, label) choices for ``param`` of ``/name`` for the caller now (at most 25)."""
        if self.rates is not None and not self.rates.completion(caller.id):
            return []
        return await autocomplete(self, str(channel_id), caller, name, param, params, typed)


__all__ = ["CommandLayer", "build_game", "decision_buttons", "render_images", "status_text"]
