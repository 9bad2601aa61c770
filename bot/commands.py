"""The command layer: every command as a pure, Discord-free handler over the store.

``await CommandLayer.handle(channel_id, caller, name, params)`` returns a :class:`Reply`
describing what to post. The Discord cog and local mode are thin adapters over it.

Validation order (the first reason that applies is the one the user sees): input too long ->
no game here -> game not started / over -> stale button -> not seated -> not your turn / action
unavailable -> bad parameters -> the engine's own rules. A refusal changes nothing.

Each command is one store transaction: all its writes land or none do; they wait in the store
and go to the database together with the commit, so the database is held only for that moment
(:mod:`bot.store`). Heavy engine work (replays, routes, the summary, images) runs in a worker
thread. A command that loses a race with another process (the same move stored first) is
refused, and the game reloaded. Who may do what is decided in :mod:`bot.access`.

State is rebuilt by replaying the stored action log and cached per game; the cache key is the
log length (the *state id*), which also stamps buttons so a stale click is refused.

After every change the turn clock (reminders) is reset when the move passes or the acting
player acted, seats of players who conceded move automatically (:mod:`bot.robot`), and a
finished game gets its summary (:mod:`bot.summary`). Commands for reminders, substitutes and
records live in :mod:`bot.remind_cmds`, :mod:`bot.seating` and :mod:`bot.records`. Time comes
from the injected ``clock``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
import sqlite3
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from engine import actions as A
from engine.decisions import round_title, suggest_routes
from engine.errors import GameError
from engine.game import Game
from engine.replay import filter_actions
from engine.titles.registry import canonical_title, new_game, title_names

from . import access, limits, rules_cmds
from .acting import resolve_entity, waiting_for
from .choices import title_options
from .lay_text import explain_refusal
from .play import ACTION_COMMANDS, COMMAND_FOR_TYPE, allowed_commands, build_action
from .posting import PostedPictures
from .reminders import Clock, ReminderSettings, fmt_duration, start_turn, utc_now
from .reply import Attachment, Button, Caller, Reply, UserError
from .robot import robot_action, robot_entity
from .store import Conflict, GameRow, ResultRow, Seat, Store, UndoRequest
from .summary import chart_png, standings, summarize, summary_lines
from .textcmd import CommandSyntaxError
from .turns import credited, fallback_line, new_turn, next_line, outcome_line, round_banner, turn_key
from .usage import check_options
from .version import ENGINE_VERSION

log = logging.getLogger(__name__)

MAX_SEATS = 8
MAX_IMPORT_BYTES = limits.MAX_IMPORT_BYTES
MAX_IMPORT_ACTIONS = 50_000
MAX_LOG_LINES = 12
MAX_ROBOT_MOVES = 200
ROBOT_USER = "robot"  # the user id logged with moves of a conceded seat
CHECKPOINT_EVERY = 32  # a live game saves its state for rollback every N actions (Game.process)
UNLOCKED = {"games", "stats", "game history", "game notify", "creators"}  # no channel game involved


@dataclass
class CachedGame:
    seq: int  # the state id: number of rows in the action log (with ``pending``)
    game: Game
    max_id: int  # the largest action id in the log (new actions get the next one)
    pending: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)  # to store: (data, user)


@dataclass
class _Command:
    """One command in progress: the games whose cached state ran ahead of the database (dropped
    if its transaction rolls back)."""

    touched: set[int] = field(default_factory=set)


_COMMAND: ContextVar[_Command | None] = ContextVar("command", default=None)


def render_images(game: Game, which: tuple[str, ...] = ("map", "market")) -> list[Attachment]:
    """Draw images (CPU-bound: call through ``asyncio.to_thread``)."""
    from render.map_image import render_map
    from render.market_image import render_market
    from render.status_image import render_status

    fns = {"map": render_map, "market": render_market, "status": render_status}
    return [Attachment(f"{name}.png", fns[name](game)) for name in which]


class CommandLayer:
    def __init__(self, store: Store, *, images: bool = True, clock: Clock | None = None):
        self.store = store
        self.images = images
        self.clock: Clock = clock or utc_now
        self._cache: dict[int, CachedGame] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.posted = PostedPictures()

    def now(self) -> float:
        """The injected clock as unix seconds."""
        return self.clock().timestamp()

    def lock(self, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault(str(channel_id), asyncio.Lock())

    # ------------------------------------------------------------------ entry point
    async def handle(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        """Run one command: serialized per channel (one game per channel), one transaction."""
        channel_id = str(channel_id)
        try:
            caller = limits.checked(caller, name, params)
        except UserError as exc:
            return Reply.fail(str(exc))
        if name in UNLOCKED:
            return await self._run(channel_id, caller, name, params)
        async with self.lock(channel_id):
            return await self._run(channel_id, caller, name, params)

    async def _run(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        command = _Command()
        token = _COMMAND.set(command)
        try:
            async with self.store.transaction():
                reply = await self._dispatch(channel_id, caller, name, dict(params))
        except (GameError, UserError, CommandSyntaxError) as exc:
            self._forget(command)
            return await self._refusal(channel_id, str(exc), name)
        except Conflict as exc:
            self._forget(command)
            return await self._conflict(channel_id, str(exc))
        except sqlite3.IntegrityError as exc:
            self._forget(command)
            if "UNIQUE" not in str(exc) and "PRIMARY KEY" not in str(exc):
                log.exception("command /%s failed in channel %s", name, channel_id)
                return Reply.fail("Something went wrong on our side; nothing was changed.")
            return await self._conflict(channel_id, "it was changed at the same moment")
        except sqlite3.Error as exc:  # disk full, I/O error, locked by another process for too long
            self._forget(command)
            log.warning("command /%s in channel %s not stored: %s", name, channel_id, exc)
            return Reply.fail(f"The bot could not save that ({exc}); nothing was changed. Please try again later.")
        except Exception:  # a bug must not take the bot down or leave a half-applied state
            log.exception("command /%s failed in channel %s", name, channel_id)
            self._forget(command)
            row = await self.store.open_game(channel_id)
            if row:
                self._cache.pop(row.id, None)
            return Reply.fail("Something went wrong on our side; nothing was changed.")
        finally:
            _COMMAND.reset(token)
        return reply

    def _forget(self, command: _Command) -> None:
        """The command's transaction rolled back: cached states it advanced are rebuilt next time."""
        for game_id in command.touched:
            self._cache.pop(game_id, None)

    def _touch(self, game_id: int) -> None:
        command = _COMMAND.get()
        if command is not None:
            command.touched.add(game_id)

    async def _conflict(self, channel_id: str, why: str) -> Reply:
        """Lost a race with another command or process: nothing was stored; reload and say so."""
        text = f"Someone else changed this game at the same moment ({why}), so this was not done."
        row = await self.store.open_game(channel_id)
        if row is not None and row.status == "active":
            self._cache.pop(row.id, None)
            try:
                game = (await self.load(row)).game
                if not game.finished:
                    text += f" The game is reloaded; {next_line(game)}."
            except UserError:
                pass
        return Reply.fail(text)

    async def _refusal(self, channel_id: str, message: str, name: str) -> Reply:
        """The one error handler: a friendly ephemeral reply, with what is allowed now."""
        text = message
        if name in ACTION_COMMANDS:
            row = await self.store.open_game(channel_id)
            cached = self._cache.get(row.id) if row else None
            if cached and not cached.game.finished and "waiting for" not in message:
                text += "\n" + next_line(cached.game)
        return Reply.fail(text)

    async def _dispatch(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        check_options(name, params)
        if name == "help":
            return await self.help(channel_id, caller, params)
        if name == "moves":
            from .moves import moves

            return await moves(self, channel_id, caller, params)
        if name.startswith("game "):
            sub = name.split(" ", 1)[1].replace("-", "_")
            from .records import GAME_COMMANDS

            if sub in GAME_COMMANDS:
                return await GAME_COMMANDS[sub](self, channel_id, caller, params)
            handler = getattr(self, "game_" + sub, None)
            if handler is None:
                raise UserError(f"Unknown command /{name}; see /help")
            return await handler(channel_id, caller, params)
        if name in ACTION_COMMANDS:
            return await self.act(channel_id, caller, name, params)
        from .records import TOP_LEVEL

        if name in TOP_LEVEL:
            return await TOP_LEVEL[name](self, channel_id, caller, params)
        raise UserError(f"Unknown command /{name}; see /help")

    # ------------------------------------------------------------------ loading
    async def _row(self, channel_id: str) -> GameRow:
        row = await self.store.open_game(channel_id)
        if row is None:
            ended = await self._latest(channel_id)
            if ended is not None:
                raise UserError(f"The {ended.title} game in this channel (game {ended.id}) is over: /game status "
                                "shows its summary and /game export its record. Start a new one with /game new "
                                f"title:{ended.title}")
            raise UserError(f"There is no game in this channel. Start one with /game new title:"
                            f"{title_names()[0]}")
        return row

    async def _active(self, channel_id: str) -> tuple[GameRow, CachedGame]:
        row = await self._row(channel_id)
        if row.status == "lobby":
            raise UserError("The game has not started yet; the host starts it with /game start")
        return row, await self.load(row)

    async def load(self, row: GameRow) -> CachedGame:
        """The game's state: cached, or rebuilt by replaying the action log (in a worker thread)."""
        count = await self.store.action_count(row.id)
        cached = self._cache.get(row.id)
        if cached is not None and cached.seq == count and not cached.pending:
            return cached
        logged = await self.store.actions(row.id)
        seats = await self.store.seats(row.id)
        game = await asyncio.to_thread(build_game, row, seats, [entry.data for entry in logged])
        cached = CachedGame(count, game, _max_id(entry.data for entry in logged))
        self._cache[row.id] = cached
        if self.store.writing():  # built from this command's own writes, not yet committed
            self._touch(row.id)
        return cached

    @staticmethod
    def _check_state(params: dict[str, str], cached: CachedGame) -> None:
        raw = params.get("state")
        if raw is None:
            return
        if not raw.strip().isdigit() or int(raw) != cached.seq:
            raise UserError("That button is out of date: the game has moved on. Nothing was changed.")

    # ------------------------------------------------------------------ game actions
    async def act(self, channel_id: str, caller: Caller, name: str, params: dict[str, str]) -> Reply:
        cmd = ACTION_COMMANDS[name]
        row, cached = await self._active(channel_id)
        game = cached.game
        if game.finished:
            raise UserError(f"The game is over ({game.end_reason}); see /game status or /game export")
        self._check_state(params, cached)
        seats = await self.store.seats(row.id)
        pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id and not s.conceded}
        if not pids:
            if any(s.user_id == caller.id and s.conceded for s in seats):
                raise UserError("You conceded: your seat moves automatically now.")
            hint = " Claim a free seat with /game claim." if any(s.user_id is None for s in seats) else ""
            raise UserError("You do not hold a seat in this game." + hint)
        entity = resolve_entity(game, cmd, pids, params.get("entity"), params)
        action = build_action(cmd, game, entity, params)
        try:
            return await self._apply(row, cached, caller, action, seats)
        except GameError as exc:  # the state is as it was: say why, and what would work
            raise GameError(explain_refusal(game, action, str(exc))) from None

    async def _apply(self, row: GameRow, cached: CachedGame, caller: Caller, action: A.Action,
                     seats: list[Seat]) -> Reply:
        game = cached.game
        before = (game.round_key(), turn_key(game))
        fallback = fallback_line(game, action.entity, action.type, COMMAND_FOR_TYPE.get(action.type, action.type))
        logged = len(game.log)
        self._play(row, cached, action, caller.id)
        fallback = outcome_line(game, action) or fallback
        reply = Reply(lines=credited(game.log[logged:][:MAX_LOG_LINES], game, action.entity, caller.name, fallback,
                                     action.type))
        actor = cached.game.controller_of(action.entity)
        await self._after_change(row, cached, seats, reply, actor=actor, before=before)
        if actor:
            await self.store.touch_seat(row.id, actor, self.now())
        return reply

    def _play(self, row: GameRow, cached: CachedGame, action: A.Action, user_id: str) -> list[str]:
        """Process ``action`` (GameError: refused, state unchanged) and queue it for the log
        (:meth:`_store_pending`); returns the new game log lines."""
        game = cached.game
        before = len(game.log)
        action = dataclasses.replace(action, id=cached.max_id + 1)
        game.process(action)
        self._touch(row.id)  # the cached game is ahead of the database until the command commits
        data = action.to_dict()
        data["created_at"] = int(self.now())
        if game.auto_done:
            data["auto_actions"] = [a.to_dict() for a in game.auto_done]
        cached.pending.append((data, user_id))
        cached.max_id += 1
        return game.log[before:] or [action.describe()]

    async def _store_pending(self, row: GameRow, cached: CachedGame) -> None:
        """Append the queued actions at the log positions after the state they were played on:
        another process that stored a move there first makes this a :class:`Conflict`."""
        for data, user in cached.pending:
            await self.store.append_action(row.id, data, user, seq=cached.seq + 1)
            cached.seq += 1
        cached.pending.clear()

    async def _robot_moves(self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply) -> None:
        """Move for every conceded seat that must act, until a seated player must act (engine work
        in a worker thread; the moves are queued for the log)."""
        conceded = {s.player_id for s in seats if s.conceded and s.player_id}
        if conceded and not cached.game.finished and robot_entity(cached.game, conceded) is not None:
            reply.lines += await asyncio.to_thread(self._robot_loop, row, cached, conceded, len(reply.lines))

    def _robot_loop(self, row: GameRow, cached: CachedGame, conceded: set[str], shown: int) -> list[str]:
        game = cached.game
        out: list[str] = []
        for _ in range(MAX_ROBOT_MOVES):
            entity = None if game.finished else robot_entity(game, conceded)
            if entity is None:
                break
            action = robot_action(game, entity, seed=cached.seq + len(cached.pending))
            who = game.name_of(game.controller_of(entity) or entity)
            if action is None:
                out.append(f"The automatic seat of {who} has no move; the host can /game sub the seat")
                break
            try:
                lines = self._play(row, cached, action, ROBOT_USER)
            except GameError as exc:
                out.append(f"The automatic seat of {who} is stuck ({exc}); the host can /game sub the seat")
                break
            if shown + len(out) < 3 * MAX_LOG_LINES:
                out += [f"🤖 {ln}" for ln in lines[:3]]
        return out

    async def _track_turn(self, row: GameRow, player: str | None, actor: str | None) -> None:
        """Restart the reminder clock when the move passed on or the acting player acted."""
        turn = await self.store.turn(row.id)
        if turn is None or turn.player_id != player or (actor is not None and actor == player):
            settings = ReminderSettings.from_dict(row.settings)
            await self.store.save_turn(start_turn(row.id, player, self.now(), settings, turn))

    async def _finish(self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply,
                      record: list[dict[str, Any]]) -> None:
        """The end-of-game summary (ranking, reason, length, value chart, export button) from the
        whole ``record``; the final standings are stored for /game history and /stats."""
        game = cached.game
        ended = self.now()
        await self._summary(row, game, seats, reply, ended, record)
        reply.buttons = [Button("Export (18xx.games JSON)", "/game export", "primary")]
        by_pid = {s.player_id: s for s in seats}
        results = []
        for st in standings(game):
            seat = by_pid.get(st.player_id)
            results.append(ResultRow(row.id, seat.position if seat else -1, st.player_id, st.name,
                                     seat.user_id if seat else None, st.rank, st.total, st.cash,
                                     bool(seat and seat.conceded)))
        await self.store.save_results(results)
        if row.status != "ended":
            await self.store.end_game(row.id, ended)
            row.status = "ended"

    async def _summary(self, row: GameRow, game: Game, seats: list[Seat], reply: Reply, ended: float,
                       raw: list[dict[str, Any]]) -> None:
        try:
            fresh = new_game(row.title, [(s.player_id, s.name) for s in seats], row.optional_rules, row.seed)
            summary = await asyncio.to_thread(summarize, fresh, raw, started_at=row.started_at, ended_at=ended)
            summary.standings = standings(game)  # the live state is the truth
            reply.lines += summary_lines(summary, game.fmt)
            try:
                reply.files.append(Attachment(f"{row.title}-game-{row.id}-values.png",
                                              await asyncio.to_thread(chart_png, summary)))
            except Exception:  # a drawing bug must not lose the summary
                log.exception("value chart failed")
        except Exception:  # the summary is best effort; the result line is not
            log.exception("summary failed for game %s", row.id)
            reply.lines += result_lines(game)

    async def _after_change(self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply,
                            actor: str | None = None, before: tuple[Any, Any] | None = None) -> None:
        """Automatic seats, the log, buttons, the status message, the turn clock, the ping when the
        turn passes to another player, the pictures that changed when a turn ends, and the summary
        when the game is over. ``before`` (round and turn before the action) marks a new round or turn;
        the reply ends with who is next."""
        await self._settle(row, cached, seats, reply, actor, before)
        game = cached.game
        banner = round_banner(before[0] if before else None, game)
        if banner:
            reply.lines.append(banner)
        reply.lines.append(next_line(game, seats, actor, fresh_turn=new_turn(game, before[1] if before else None)))

    async def _settle(self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply,
                      actor: str | None, before: tuple[Any, Any] | None) -> None:
        game = cached.game
        reply.game_id = row.id
        await self._robot_moves(row, cached, seats, reply)
        record = None
        if game.finished and row.status != "ended":  # the whole log, read before this command writes
            record = [e.data for e in await self.store.actions(row.id)] + [data for data, _ in cached.pending]
        await self._store_pending(row, cached)
        reply.status = status_text(row, game, seats, cached.seq)
        if game.finished:
            if record is not None:
                await self._finish(row, cached, seats, reply, record)
            else:
                reply.lines += result_lines(game)
            return
        reply.buttons = decision_buttons(game, cached.seq)
        await self._suggest_routes(game, reply)
        if self.images and (before is None or turn_key(game) != before[1]):
            reply.files += await self._render(game, self.posted.changed(row.id, game, reply.files))
        acting = game.acting_players()
        nxt = acting[0] if acting else None
        await self._track_turn(row, nxt, actor)
        if nxt is None or nxt == row.last_ping_seat:
            return
        await self.store.set_last_ping(row.id, nxt)
        row.last_ping_seat = nxt
        seat = next((s for s in seats if s.player_id == nxt), None)
        if seat is not None and seat.user_id and not seat.conceded:
            reply.ping = seat.user_id
            reply.ping_text = f"your turn ({seat.name})"

    async def _suggest_routes(self, game: Game, reply: Reply) -> None:
        """When a corporation is to run, show the optimizer's best routes (drawn on the map when
        images are on); the "Run suggested routes" button confirms them."""
        acting = game.acting()
        corp = acting[0] if acting else None
        if corp is None or "run_routes" not in game.action_types(corp):
            return
        try:
            routes = await asyncio.to_thread(suggest_routes, game, corp)
        except Exception:  # the router is a helper; never let it block play
            log.exception("route suggestion failed")
            return
        if not routes:
            return
        parts = [f"{r['train']} {r.get('revenue_str') or '-'.join(r.get('hexes', []))} "
                 f"({game.fmt(r['revenue'])})" for r in routes]
        total = sum(r["revenue"] for r in routes)
        reply.lines.append(f"Best routes for {corp}: " + "; ".join(parts) + f" = {game.fmt(total)}")
        if self.images and (reply.game_id is None or
                            self.posted.first_time(reply.game_id, "routes", (corp, tuple(map(str, routes))))):
            try:
                from render.map_image import render_map

                png = await asyncio.to_thread(render_map, game, routes=routes)
                reply.files.append(Attachment("routes.png", png))
                if reply.game_id is not None:
                    self.posted.mark(reply.game_id, game, ("map",))  # it shows the board too
            except Exception:
                log.exception("route drawing failed")

    async def _render(self, game: Game, which: tuple[str, ...]) -> list[Attachment]:
        if not which:
            return []
        try:
            return await asyncio.to_thread(render_images, game, which)
        except Exception:  # a drawing bug must not block play
            log.exception("rendering failed")
            return []

    # ------------------------------------------------------------------ /game ...
    async def game_new(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        title = canonical_title((params.get("title") or "").strip() or "?")
        await access.may_create(self, caller)
        existing = await self.store.open_game(channel_id)
        if existing:
            raise UserError(f"This channel already has a game of {existing.title} ({existing.status}); "
                            "the host or an admin can end it with /game end")
        options = [o for o in (params.get("options") or "").replace(",", " ").split() if o]
        known = [c.value for c in title_options(title)]
        unknown = [o for o in options if o not in known]
        if known and unknown:
            raise UserError(f"{title} has no option {unknown[0]}; its options: {', '.join(known)}")
        if (params.get("bonuses") or "").strip():  # 1833NE's provisional values (bot.rules_cmds)
            options = rules_cmds.merged_options(title, options, params["bonuses"])
        gid = await self.store.create_game(channel_id, title, options, caller.id, ENGINE_VERSION,
                                           guild_id=caller.guild)
        await self.store.add_seats(gid, [Seat(0, caller.name, caller.id)])
        shown = rules_cmds.plain_options(options)
        return Reply(lines=[f"{caller.name} opened a game of {title}"
                            + (f" (options: {', '.join(shown)})" if shown else "")
                            + ". Join with /game join; the host starts it with /game start.",
                            *rules_cmds.table_lines(title, options, hint=True)])

    async def _lobby(self, channel_id: str) -> tuple[GameRow, list[Seat]]:
        row = await self._row(channel_id)
        if row.status != "lobby":
            raise UserError("The game has already started; seats change hands with /game seat")
        return row, await self.store.seats(row.id)

    async def game_join(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row, seats = await self._lobby(channel_id)
        name = (params.get("name") or "").strip()
        if not name:
            if any(s.user_id == caller.id for s in seats):
                raise UserError("You already have a seat; to play another seat yourself (hotseat), "
                                "give it a name: /game join name:\"Second Seat\"")
            name = caller.name
        if len(name) > 32:
            raise UserError("Seat names are at most 32 characters")
        if any(s.name.lower() == name.lower() for s in seats):
            raise UserError(f"There is already a seat called {name}")
        if len(seats) >= MAX_SEATS:
            raise UserError("The game is full")
        pos = max((s.position for s in seats), default=-1) + 1
        await self.store.add_seats(row.id, [Seat(pos, name, caller.id)])
        return Reply(lines=[f"{name} joins the game ({len(seats) + 1} seats)"])

    async def game_leave(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row, seats = await self._lobby(channel_id)
        mine = [s for s in seats if s.user_id == caller.id]
        if params.get("seat"):
            mine = [s for s in mine if s.name.lower() == params["seat"].lower()]
        if not mine:
            raise UserError("You have no such seat in this game")
        seat = mine[-1]
        await self.store.remove_seat(row.id, seat.position)
        return Reply(lines=[f"{seat.name} leaves the game"])

    def _require_host(self, row: GameRow, caller: Caller, what: str) -> None:
        access.require_host(row, caller, what)

    async def game_start(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row, seats = await self._lobby(channel_id)
        self._require_host(row, caller, "start the game")
        order = (params.get("order") or "random").lower()
        if order not in ("random", "joined"):
            raise UserError("order must be random or joined")
        seed = random.SystemRandom().randrange(1, 2**31)
        seats = sorted(seats, key=lambda s: s.position)
        if order == "random":
            random.Random(seed).shuffle(seats)
        started = [Seat(i, s.name, s.user_id, str(i + 1)) for i, s in enumerate(seats)]
        new_game(row.title, [(s.player_id, s.name) for s in started], row.optional_rules, seed)  # count check
        await self.store.start_game(row.id, seed, started, self.now())
        row.status, row.seed, row.started_at = "active", seed, self.now()
        cached = await self.load(row)
        reply = Reply(lines=[f"{row.title} starts (seed {seed}, {order} order): "
                             + ", ".join(s.name for s in started)])
        await self._after_change(row, cached, started, reply)
        return reply

    async def game_status(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row = await self.store.open_game(channel_id) or await self._latest(channel_id) or await self._row(channel_id)
        seats = await self.store.seats(row.id)
        if row.status == "lobby":
            return Reply(lines=[f"{row.title}, not started. Seats: " + ", ".join(s.name for s in seats)
                                + ". The host starts it with /game start."], ephemeral=True)
        cached = await self.load(row)
        reply = Reply(lines=[status_text(row, cached.game, seats, cached.seq)],
                      status=status_text(row, cached.game, seats, cached.seq), game_id=row.id)
        turn = await self.store.turn(row.id)
        if turn is not None and not cached.game.finished and turn.player_id:
            settings = ReminderSettings.from_dict(row.settings)
            thinking = f"{cached.game.name_of(turn.player_id)} has been thinking for " \
                       f"{fmt_duration(self.now() - turn.since)}"
            if turn.idle_flagged:
                thinking += " (flagged to the host as idle; no more reminders)"
            elif turn.reminders_sent:
                thinking += f" ({turn.reminders_sent}/{settings.limit} reminders sent)"
            reply.lines.append(thinking)
        reply.lines += you_can(cached.game, seats, caller)
        if not cached.game.finished:
            reply.buttons = decision_buttons(cached.game, cached.seq)
        if self.images:
            reply.files = await self._render(cached.game, ("map", "market", "status"))
            self.posted.mark(row.id, cached.game, ("map", "market"))
        return reply

    async def game_claim(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row = await self._row(channel_id)
        seats = await self.store.seats(row.id)
        seat = find_seat(seats, params.get("seat") or "")
        if seat.user_id is not None:
            raise UserError(f"{seat.name}'s seat is already held; its holder can hand it over with /game seat")
        await self.store.set_seat_user(row.id, seat.position, caller.id, was=None)
        return Reply(lines=[f"{caller.name} takes the seat of {seat.name}"])

    async def game_seat(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row = await self._row(channel_id)
        seats = await self.store.seats(row.id)
        seat = find_seat(seats, params.get("seat") or "")
        target = (params.get("user") or "").strip()
        if not target:
            raise UserError("Give user: the person who takes the seat")
        settings = ReminderSettings.from_dict(row.settings)
        if not access.may_hand_over(row, seat, caller, access.seat_silence(self, row, seat), settings):
            raise UserError(f"You do not hold {seat.name}'s seat. Its holder hands it over; the host can "
                            f"after {settings.sub_days:g} days of silence (/game sub)")
        await self.store.set_seat_user(row.id, seat.position, target, was=seat.user_id)
        if row.last_ping_seat == seat.player_id:
            await self.store.set_last_ping(row.id, None)  # the new holder gets pinged next time
        shown = params.get("user_name") or target
        return Reply(lines=[f"{caller.name} hands {seat.name}'s seat to {shown}"])

    async def game_end(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row = await self._row(channel_id)
        self._require_host(row, caller, "end the game")
        reply = Reply(lines=[f"{caller.name} ends the game"], game_id=row.id)
        if row.status == "active":
            cached = await self.load(row)
            game = cached.game
            if not game.finished:
                entity = (game.acting() or [game.players[0].id])[0]
                seats = await self.store.seats(row.id)
                action = A.EndGame(entity=entity, entity_type=_etype(game, entity))
                reply = await self._apply(row, cached, caller, action, seats)
                reply.lines[0] = f"{caller.name} ends the game"
        await self.store.end_game(row.id)
        return reply

    async def game_export(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        row = await self.store.open_game(channel_id) or await self._latest(channel_id)
        if row is None:
            raise UserError("There is no game in this channel to export")
        export = await self.export(row)
        data = json.dumps(export, indent=1).encode()
        line = f"Export of {row.title} game {row.id} ({len(export['actions'])} actions)"
        if "replay_error" in export:
            line += (". Its log does not replay with this engine; the host can cut it back to the last "
                     "action that does with /game repair")
        return Reply(lines=[line], files=[Attachment(f"{row.title}-game-{row.id}.json", data)])

    async def _latest(self, channel_id: str) -> GameRow | None:
        games = await self.store.channel_games(channel_id)
        return games[-1] if games else None

    async def export(self, row: GameRow) -> dict[str, Any]:
        seats = await self.store.seats(row.id)
        logged = await self.store.actions(row.id)
        out: dict[str, Any] = {
            "id": row.id, "title": row.title,
            "players": [{"id": s.player_id, "name": s.name} for s in seats],
            "settings": {"optional_rules": row.optional_rules, "seed": row.seed},
            "engine_version": row.engine_version,
            "actions": [e.data for e in logged],
        }
        if row.status != "lobby":
            try:
                cached = await self.load(row)
            except UserError as exc:  # a log that does not replay is exported as it is
                out["replay_error"] = str(exc)
                return out
            if cached.game.finished:
                out["result"] = cached.game.result()
                out["game_end_reason"] = cached.game.end_reason
        return out

    async def game_import(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        await access.may_create(self, caller)
        if await self.store.open_game(channel_id):
            raise UserError("This channel already has a game; end it first with /game end")
        raw = params.get("file") or ""
        if not raw:
            raise UserError("Attach an 18xx.games export (JSON) as file:")
        if len(raw) > MAX_IMPORT_BYTES:
            raise UserError("That file is too large for an 18xx.games export")
        title, settings, seats, actions, game = await asyncio.to_thread(_read_export, raw)
        # one transaction: the game, its seats and its log land together or not at all
        gid = await self.store.create_game(channel_id, title, list(settings.get("optional_rules") or []),
                                           caller.id, ENGINE_VERSION, status="active", seed=settings.get("seed"),
                                           guild_id=caller.guild, started_at=self.now())
        await self.store.add_seats(gid, seats)
        if actions:
            await self.store.append_actions(gid, actions, None, seq=1)
        row = await self.store.game(gid)
        assert row is not None
        cached = CachedGame(len(actions), game, _max_id(actions))
        self._cache[gid] = cached
        self._touch(gid)
        processed = len(game.action_log)
        reply = Reply(lines=[f"{caller.name} imported a game of {title} ({processed} actions). "
                             "Seats: " + ", ".join(s.name for s in seats)
                             + ". Claim yours with /game claim seat:NAME."])
        await self._after_change(row, cached, seats, reply)
        return reply

    # ------------------------------------------------------------------ undo
    async def game_undo(self, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        """Undo the last move: your own during your turn at once; anything else when every player at
        the table agrees (automatic seats do not vote; a free seat must be claimed first)."""
        row, cached = await self._active(channel_id)
        vote = (params.get("vote") or "").lower() or None
        if vote is not None and "state" not in params:
            raise UserError("Vote with the buttons of the undo request")
        self._check_state(params, cached)
        seats = await self.store.seats(row.id)
        mine = {s.player_id for s in seats if s.user_id == caller.id}
        if not mine:
            raise UserError("You do not hold a seat in this game")
        logged = await self.store.actions(row.id)
        by_obj = {id(e.data): e.user_id for e in logged}
        active = filter_actions([e.data for e in logged])
        target = next((a for a in reversed(active) if a.get("type") != "message"), None)
        if target is None:
            raise UserError("There is nothing to undo")
        what = _describe(cached.game, target)
        playing = [s for s in seats if not s.conceded]
        seated_users = {s.user_id for s in playing if s.user_id}
        free = [s.name for s in playing if s.user_id is None]
        buttons = [Button("Agree to undo", f"/game undo vote:yes state:{cached.seq}", "success"),
                   Button("Refuse", f"/game undo vote:no state:{cached.seq}", "danger")]
        if vote is None:
            own = by_obj.get(id(target)) == caller.id and bool(mine & set(cached.game.acting_players()))
            if own or (not free and seated_users <= {caller.id}):
                return await self._undo(row, cached, caller, target, seats, what)
            if free:
                raise UserError(f"Every player must agree to undo {what}, and nobody holds the seat of "
                                f"{', '.join(free)} to agree: claim it first (/game claim)")
            await self.store.save_undo_request(row.id, UndoRequest(cached.seq, caller.id, [caller.id]))
            n = len(seated_users)
            return Reply(lines=[f"{caller.name} asks to undo: {what}. Every seated player must agree "
                                f"(1/{n})."], buttons=buttons)
        req = await self.store.undo_request(row.id, cached.seq)
        if req is None:
            raise UserError("There is no undo request open now")
        if any(v.startswith("-") for v in req.votes):
            raise UserError("That undo request was refused")
        if caller.id not in seated_users:
            raise UserError("Only the players at the table vote on an undo")
        was = list(req.votes)
        if vote == "no":
            req.votes.append("-" + caller.id)
            await self.store.save_undo_request(row.id, req, was)
            return Reply(lines=[f"{caller.name} refuses to undo {what}; nothing changes"])
        if vote != "yes":
            raise UserError("vote must be yes or no")
        if caller.id in req.votes:
            raise UserError("You have already agreed")
        req.votes.append(caller.id)
        if not free and seated_users <= set(req.votes):
            return await self._undo(row, cached, caller, target, seats, what, (req, was))
        await self.store.save_undo_request(row.id, req, was)
        agreed = len(set(req.votes) & seated_users)
        return Reply(lines=[f"{caller.name} agrees to undo {what} ({agreed}/{len(seated_users)})"], buttons=buttons)

    async def _undo(self, row: GameRow, cached: CachedGame, caller: Caller, target: dict[str, Any],
                    seats: list[Seat], what: str, vote: tuple[UndoRequest, list[str]] | None = None) -> Reply:
        data = {"type": "undo", "entity": target.get("entity"), "entity_type": target.get("entity_type", "player"),
                "id": cached.max_id + 1, "created_at": int(self.now())}
        # the state after the undo is rebuilt by replay before anything is stored: a log that would
        # not replay is never written
        raw = [e.data for e in await self.store.actions(row.id)] + [data]
        game = await asyncio.to_thread(build_game, row, seats, raw)
        if vote is not None:
            await self.store.save_undo_request(row.id, *vote)
        cached = CachedGame(cached.seq, game, cached.max_id + 1, pending=[(data, caller.id)])
        self._cache[row.id] = cached
        self._touch(row.id)
        reply = Reply(lines=[f"↩ {caller.name} undoes: {what}"])
        await self._after_change(row, cached, seats, reply)
        return reply

    # ------------------------------------------------------------------ help
    async def help(self, channel_id: str, caller: Caller, params: dict[str, str] | None = None) -> Reply:
        if params and params.get("command"):
            from .moves import command_help

            return await command_help(self, channel_id, caller, params["command"])
        lines = ["**Game**: /game new title:" + "|".join(title_names()) + " · /game join · /game leave · "
                 "/game start [order:random|joined] · /game status · /game undo · /game export · "
                 "/game import file: · /game claim seat: · /game seat seat: user: · /game end · /game repair · "
                 "/game rules [bonuses:] (1833NE's provisional values)",
                 "**Absent players**: /game remind · /game notify [tz:] [quiet:22-7] [dm:yes] · "
                 "/game settings [remind_hours:] [repeat_hours:] [reminders:] [idle_days:] [sub_days:] · "
                 "/game sub user: [seat:] [vote:] · /game concede · /games",
                 "**Records**: /game history · /stats [user:]",
                 "**Actions**: " + " · ".join(f"/{c.name} ({c.help})" for c in ACTION_COMMANDS.values()),
                 "**More**: /help NAME explains one command (/help lay) · /moves lists what you can do now, "
                 "as commands to type (/moves lay hex:F17)"]
        row = await self.store.open_game(channel_id)
        if row and row.status == "active":
            cached = await self.load(row)
            seats = await self.store.seats(row.id)
            lines.append("Now " + waiting_for(cached.game) + ".")
            lines += you_can(cached.game, seats, caller)
        return Reply(lines=lines, ephemeral=True)

    # ------------------------------------------------------------------ autocomplete
    async def autocomplete(self, channel_id: str, caller: Caller, name: str, param: str,
                           params: dict[str, str], typed: str = "") -> list[tuple[str, str]]:
        """Legal (value, label) choices for ``param`` of ``/name`` for the caller now (at most 25)."""
        from .complete import autocomplete

        return await autocomplete(self, str(channel_id), caller, name, param, params, typed)


# ---------------------------------------------------------------------- helpers
class ReplayError(UserError):
    """A stored or imported log that this engine cannot replay; ``failure`` names the action."""

    def __init__(self, row: GameRow, failure: str):
        super().__init__(
            f"This game (recorded with engine {row.engine_version}) cannot be replayed by engine "
            f"{ENGINE_VERSION}: {failure}. Export it with /game export and tell the bot's maintainers; "
            "the host can cut the log back to the last action that replays with /game repair.")
        self.failure = failure


def build_game(row: GameRow, seats: list[Seat], raw_actions: list[dict[str, Any]]) -> Game:
    """Replay a stored game; a log the engine cannot replay is a clear error naming both versions."""
    game = new_game(row.title, [(s.player_id, s.name) for s in seats], row.optional_rules, row.seed)
    game.live = False  # automatic moves (programs) come from the stored record while rebuilding
    for raw in filter_actions(raw_actions):
        try:
            game.process(A.Action.from_dict(raw), safe=False)
        except Exception as exc:  # whatever the record holds, it does not replay
            raise ReplayError(row, f"action {raw.get('id')} ({raw.get('type')}) fails: {exc}") from None
    game.live = True
    game.checkpoint_every = CHECKPOINT_EVERY  # only process() changes a live game: cheap rollback
    return game


def _max_id(actions: Any) -> int:
    """The largest action id in a log (new actions get the next one)."""
    best = 0
    for data in actions:
        try:
            best = max(best, int(data.get("id") or 0))
        except (TypeError, ValueError):
            continue
    return best


def _read_export(raw: str) -> tuple[str, dict[str, Any], list[Seat], list[dict[str, Any]], Game]:
    """An 18xx.games export checked as the bot will store it: title, settings, seats (one per
    player; two players with one id are refused, equal names told apart), the actions, and the
    game they replay to (CPU-bound: call through ``asyncio.to_thread``)."""
    try:
        export = json.loads(raw)
    except (ValueError, RecursionError):
        raise UserError("That file is not JSON; attach an 18xx.games export") from None
    if not isinstance(export, dict) or not isinstance(export.get("players"), list) \
            or not isinstance(export.get("actions", []), list) or "title" not in export:
        raise UserError("That is not an 18xx.games export (it needs title, players and actions)")
    title = canonical_title(str(export["title"]))
    settings = export.get("settings") or {}
    if not isinstance(settings, dict) or not isinstance(settings.get("optional_rules") or [], list) \
            or not isinstance(settings.get("seed"), int | None):
        raise UserError("The export's settings are not readable (optional_rules must be a list, seed a number)")
    actions = export.get("actions", [])
    if len(actions) > MAX_IMPORT_ACTIONS or not all(isinstance(a, dict) for a in actions):
        raise UserError(f"The export's actions must be at most {MAX_IMPORT_ACTIONS} records")
    seats = import_seats(export["players"])
    row = GameRow(0, "", title, [str(o) for o in settings.get("optional_rules") or []], settings.get("seed"),
                  "", "active", ENGINE_VERSION, 0)
    try:
        game = build_game(row, seats, actions)
    except ReplayError as exc:
        raise UserError(f"That export does not replay here: {exc.failure}. Nothing was imported.") from None
    except (GameError, RecursionError) as exc:
        raise UserError(f"That export cannot be loaded: {exc}") from None
    return title, settings, seats, actions, game


def import_seats(players: list[Any]) -> list[Seat]:
    """One seat per exported player. A player id may appear once (else two seats would be one
    player); seats with equal names get a number so each can be claimed by name."""
    seats: list[Seat] = []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str | int) or not str(p["name"]).strip():
            raise UserError(f"Player {i + 1} of the export has no name")
        name, pid = str(p["name"]).strip(), str(p.get("id", p["name"])).strip()
        if len(name) > 64 or len(pid) > 64:
            raise UserError(f"Player {i + 1}'s name or id in the export is too long (at most 64 characters)")
        if any(s.player_id == pid for s in seats):
            raise UserError(f"The export has two players with the id {pid!r}; each player needs their own id. "
                            "Nothing was imported.")
        taken = {s.name.lower() for s in seats} | {s.player_id.lower() for s in seats if s.player_id}
        shown, n = name, 2
        while shown.lower() in taken:
            shown, n = f"{name} ({n})", n + 1
        seats.append(Seat(i, shown, None, pid))
    return seats


def _etype(game: Game, entity: str) -> str:
    if entity in game.player_by_id:
        return "player"
    return "corporation" if entity in game.corporations else "company"


def _describe(game: Game, raw: dict[str, Any]) -> str:
    try:
        text = A.Action.from_dict(raw).describe()
    except ValueError:
        return str(raw.get("type"))
    entity = str(raw.get("entity"))
    return text.replace(entity, game.name_of(entity), 1)


def find_seat(seats: list[Seat], key: str) -> Seat:
    key = key.strip()
    if not key:
        raise UserError("Give seat: a seat name (" + ", ".join(s.name for s in seats) + ")")
    for s in seats:
        if key.lower() in (s.name.lower(), str(s.player_id).lower(), str(s.position + 1)):
            return s
    raise UserError(f"There is no seat {key!r}; seats: " + ", ".join(s.name for s in seats))


def decision_buttons(game: Game, state: int) -> list[Button]:
    """One-click decisions for the acting entity: pass, payout/withhold, suggested routes."""
    out: list[Button] = []
    for e in game.acting()[:1]:
        types = game.action_types(e)
        if "dividend" in types:
            kinds = game.dividend_kinds(game.corporations[e]) if hasattr(game, "dividend_kinds") else []
            for kind in kinds:
                out.append(Button(kind.capitalize(), f"/dividend kind:{kind} state:{state}", "primary"))
        if "run_routes" in types:
            out.append(Button("Run suggested routes", f"/routes routes:auto state:{state}", "success"))
        if "pass" in types:
            out.append(Button("Pass", f"/pass state:{state}"))
    return out


def you_can(game: Game, seats: list[Seat], caller: Caller) -> list[str]:
    mine = {s.player_id for s in seats if s.user_id == caller.id}
    if not mine:
        return ["You hold no seat here."]
    out = []
    for e in game.acting():
        if game.controller_of(e) in mine:
            cmds = allowed_commands(game, e)
            out.append(f"You act for {game.name_of(e)}: " + (", ".join(cmds) or "nothing now"))
    return out or ["It is not your turn."]


def status_text(row: GameRow, game: Game, seats: list[Seat], state: int) -> str:
    head = f"**{row.title}** game {row.id} · {round_title(game)} · phase {game.phase['name']}" \
           f" · bank {game.fmt(game.bank)} · state {state}"
    holders = {s.player_id: s for s in seats}
    players = " · ".join(f"{p.name} {game.fmt(p.cash)}" + _seat_note(holders.get(p.id)) for p in game.players)
    now = "Game over: " + ", ".join(result_lines(game)) if game.finished else "Now " + waiting_for(game)
    lines = [head, players, now]
    if game.programs and not game.finished:
        lines.append("Programmed moves: " + "; ".join(
            f"{game.name_of(pid)}: {describe_program(game, prog)}" for pid, prog in sorted(game.programs.items())))
    return "\n".join(lines)


def _seat_note(seat: Seat | None) -> str:
    if seat is not None and seat.conceded:
        return " (conceded: automatic)"
    return "" if seat is not None and seat.user_id else " (free seat)"


def describe_program(game: Game, prog: A.Action) -> str:
    """A programmed stock-round move in words (``game.programs`` values)."""
    if isinstance(prog, A.ProgramSharePass):
        text = "auto-pass in stock rounds"
        if prog.unconditional:
            text += ", even after others sell"
        text += " (this and later stock rounds)" if prog.indefinite else " (this stock round)"
        return text
    if isinstance(prog, A.ProgramBuyShares):
        until = prog.until_condition
        goal = "until it floats" if until == "float" else f"until holding {until}%"
        market = " (IPO or market)" if prog.from_market else " (from the IPO)"
        return f"auto-buy {prog.corporation} {goal}{market}"
    return prog.type


def result_lines(game: Game) -> list[str]:
    ranked = sorted(game.result().items(), key=lambda kv: -kv[1])
    return [f"Result ({game.end_reason}): " + ", ".join(f"{game.name_of(pid)} {game.fmt(v)}" for pid, v in ranked)]


__all__ = ["CommandLayer", "COMMAND_FOR_TYPE", "build_game", "render_images"]
