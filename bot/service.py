"""The game service: what every command does with a channel's game, as one public API.

Feature modules (the handlers of :mod:`bot.commands.table`) use only this API:

- **load**: :meth:`GameService.row` (the channel's open game, or a refusal saying there is none or
  it is over), :meth:`~GameService.active` (a started game and its state), :meth:`~GameService.latest`,
  :meth:`~GameService.load` (the state of a stored game, cached per game and rebuilt by replaying
  the action log in a worker thread), :meth:`~GameService.export`;
- **check the caller**: :meth:`~GameService.check_state` (a stale button is refused),
  :meth:`~GameService.require_host` (host or server admin), the seat checks in
  :meth:`~GameService.act`;
- **apply**: :meth:`~GameService.act` (an action command: the caller's seat, the entity, the
  action, the engine), :meth:`~GameService.apply` (an action already built),
  :meth:`~GameService.play` (process and queue one action), :meth:`~GameService.robot_moves`
  (conceded seats move; after a move, steps where nothing can be done are passed),
  :meth:`~GameService.remember` / :meth:`~GameService.forget` (a state built elsewhere, or one
  that must be rebuilt);
- **after a change**: :meth:`~GameService.after_change`: automatic seats, storing the queued
  actions, status text, buttons, suggested routes, the pictures that changed, the turn clock (reminders
  restart when the move passes or the acting player acted), the ping when the turn passes, and the
  end-of-game summary with the final standings.

State is rebuilt by replaying the stored action log and cached per game; the cache key is the
log length (the *state id*), which also stamps buttons so a stale click is refused. A command's
writes wait in the store and go to the database with its commit (:mod:`bot.storage.store`); the cached
states a command advanced are dropped when it rolls back (:meth:`~GameService.tracking`,
:meth:`~GameService.rollback`). Heavy engine work runs in a worker thread (each command's in
:mod:`bot.engine_thread`). Time comes from the injected ``clock``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.decisions import acting_entities, action_types, route_suggestion
from engine.errors import GameError
from engine.export import export_record
from engine.game import Game
from engine.moves import forced_discard, only_pass
from engine.moves.spec import base
from engine.titles.registry import new_game, title_names

from .acting import resolve_entity
from .discord.posting import PostedPictures, TurnPrints, routes_picture
from .engine_thread import in_engine_thread
from .gamelog import build_game, max_id, players
from .handlers import access, offers
from .picture_cache import cache_of
from .play import MOVES, build_action
from .reminders import Clock, ReminderSettings, start_turn, utc_now
from .reply import Attachment, Button, Caller, Reply, UserError
from .robot import ROBOT_USER, absent_seller_refusal, robot_decision, robot_entity, takes_from_person
from .storage.rows import ever_started
from .storage.store import GameRow, ResultRow, Seat, Store
from .terminal.textcmd import format_command
from .texts import story
from .texts.game import decision_buttons, result_lines, status_text
from .texts.lay import explain_refusal
from .texts.skipped import forced_line, skipped_line
from .texts.summary import chart_png, standings, summarize, summary_lines, why_over, with_people
from .texts.turns import turn_key
from .texts.typed import RoundTurn, typed_pass_note

if TYPE_CHECKING:
    from engine.routing.router import RouteSolution

log = logging.getLogger(__name__)

MAX_ROBOT_MOVES = 200
SKIP_USER = "skip"  # the user id logged with the bot's passes for steps where nothing can be done
DONE_USER = "done"  # logged with /done's passes after its first: one move for /game undo


@dataclass
class CachedGame:
    seq: int  # the state id: number of rows in the action log (with ``pending``)
    game: Game
    max_id: int  # the largest action id in the log (new actions get the next one)
    pending: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)  # to store: (data, user)
    round_turn: RoundTurn | None = None  # the last move here that ended a round (bot.texts.typed)

    def __post_init__(self) -> None:
        self.game.process_only = True  # a live game: its legal choices are shared per position


@dataclass
class CommandScope:
    """One command in progress: the games whose cached state ran ahead of the database (dropped
    if its transaction rolls back)."""

    touched: set[int] = field(default_factory=set)


_SCOPE: ContextVar[CommandScope | None] = ContextVar("command_scope", default=None)


@dataclass
class _After:
    """The engine's work after a change (:meth:`GameService._engine_after`): the automatic moves'
    lines, the buttons and the suggested routes (none once the game is over)."""

    lines: list[str]
    buttons: list[Button] = field(default_factory=list)
    routes: RouteSolution | None = None


def _short_of_suggestion(game: Game, action: A.Action) -> str:
    """For a run typed by hand that earns less than the suggested routes (already found for this
    position: nothing is searched), a line saying so ("" otherwise): a player who meant the best
    run learns it while /game undo can still take the run back."""
    if not isinstance(action, A.RunRoutes) or game.extends_routes or action.entity not in game.corporations:
        return ""
    best = route_suggestion(game, action.entity, wait=False)
    if best is None or not best.routes:
        return ""
    try:
        ran = sum(r["revenue"] for r in game.run_routes(game.corporations[action.entity], action))
    except GameError:
        return ""  # (refused: processing says why)
    if ran >= best.total:
        return ""
    more = "" if best.optimal else " or more"
    return (f"(the suggested routes earn {game.fmt(best.total)}{more}, {game.fmt(best.total - ran)} more than this"
            " run: /game undo takes it back)")


# moves that may end the game by a bankruptcy (a sale that leaves a player short, a declared one):
# asked first, as /game end and /game concede are
_FINAL_MOVES = ("sell_shares", "bankrupt")


def _ending(game: Game) -> str | None:
    """Why ``game`` is over (None: it goes on), as its log tells a bankruptcy ("Player 3 cannot
    raise the money for the CGR presidency and is bankrupt")."""
    if not game.finished:
        return None
    told = next((line.strip("- ") for line in reversed(game.log[-12:])
                 if "bankrupt" in line and "Game over" not in line), None)
    return told or game.end_reason_text


def _conceded(seats: list[Seat]) -> set[str]:
    return {s.player_id for s in seats if s.conceded and s.player_id}


def _made_for(game: Game) -> tuple[A.Action, str] | None:
    """The move the bot makes when the one acting has nothing to choose, and the line saying
    why: a pass where nothing can be done (:func:`engine.moves.only_pass`), a discard among
    alike trains (:func:`engine.moves.forced_discard`); None when there is a choice."""
    idle = only_pass(game)
    if idle is not None:
        return A.Pass(**base(game, idle)), skipped_line(game, idle)
    forced = forced_discard(game)
    if forced is not None:
        return forced, forced_line(game, forced)
    return None


def _robots_due(game: Game, conceded: set[str], moved: bool) -> bool:
    """Whether :meth:`GameService.robot_moves` has anything to do: after a move (``moved``),
    steps where nothing can be done are passed; a conceded seat that must act moves."""
    return not game.finished and (moved or bool(conceded and robot_entity(game, conceded) is not None))


def _suggestion(game: Game) -> RouteSolution | None:
    """The optimizer's best routes when a corporation is to run (None otherwise, or when the
    router fails: it is a helper and must never block play). CPU-bound."""
    acting = acting_entities(game)
    corp = acting[0] if acting else None
    if corp is None or "run_routes" not in action_types(game, corp):
        return None
    try:
        return route_suggestion(game, corp)
    except Exception:
        log.exception("route suggestion failed")
        return None


def render_images(game: Game, which: tuple[str, ...] = ("map", "market")) -> list[Attachment]:
    """Draw images (CPU-bound: call through ``asyncio.to_thread``)."""
    from render.map.image import render_map
    from render.market_image import render_market
    from render.status_image import render_status

    fns = {"map": render_map, "market": render_market, "status": render_status}
    return [Attachment(f"{name}.png", fns[name](game)) for name in which]


def warm_pictures() -> list[str]:
    """Draw the map and market of a new game of every title once, so that the first turn change
    each game shows after the bot starts does not also load the fonts and fill the text caches
    (measured: a map drawn first in a process takes ~210 ms, ~75 ms after this). CPU-bound: the
    Discord bot runs it in a worker thread at start-up. The titles drawn."""
    from engine.titles.registry import new_game, title_names

    drawn = []
    for title in title_names():
        render_images(new_game(title, [("1", "A"), ("2", "B"), ("3", "C")]))
        drawn.append(title)
    return drawn


class GameService:
    """The store, the cached game states, the per-channel locks and the picture bookkeeping."""

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

    async def row(self, channel_id: str) -> GameRow:
        row = await self.store.open_game(channel_id)
        if row is None:
            ended = await self.latest(channel_id)
            if ended is not None:
                if not ever_started(await self.store.seats(ended.id)):  # called off in the lobby
                    raise UserError(f"The {ended.title} game in this channel (game {ended.id}) was called off "
                                    f"before it started. Start a new one with /game new title:{ended.title}")
                raise UserError(
                    f"The {ended.title} game in this channel (game {ended.id}) is over: /game status "
                    "shows its summary and /game export its record. Start a new one with /game new "
                    f"title:{ended.title}"
                )
            raise UserError(
                f"There is no game in this channel. Start one with /game new title:{title_names()[0]}"
            )
        return row

    async def latest(self, channel_id: str) -> GameRow | None:
        games = await self.store.channel_games(channel_id)
        return games[-1] if games else None

    async def active(self, channel_id: str) -> tuple[GameRow, CachedGame]:
        row = await self.row(channel_id)
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
        count = logged[-1].seq if logged else 0  # read with the rows: one snapshot (issue 28)
        seats = await self.store.seats(row.id)
        # after a restart, what the channel was last shown is read from the replay (posting.py)
        watch = TurnPrints() if self.images and logged and not self.posted.knows(row.id) else None
        game = await asyncio.to_thread(build_game, row, seats, [entry.data for entry in logged], watch=watch)
        if watch is not None:
            self.posted.recall(row.id, watch.prints)
        cached = CachedGame(count, game, max_id(entry.data for entry in logged))
        self._cache[row.id] = cached
        if self.store.writing():  # built from this command's own writes, not yet committed
            self._touch(row.id)
        return cached

    @staticmethod
    def check_state(params: dict[str, str], cached: CachedGame) -> None:
        raw = params.get("state")
        if raw is None:
            return
        if not raw.strip().isdigit() or int(raw) != cached.seq:
            raise UserError("That button is out of date: the game has moved on. Nothing was changed.")

    def require_host(self, row: GameRow, caller: Caller, what: str) -> None:
        access.require_host(row, caller, what)

    async def playing(
        self, channel_id: str, caller: Caller, params: dict[str, str]
    ) -> tuple[GameRow, CachedGame, list[Seat], set[str]]:
        """The channel's running game, its seats and the ones the caller plays, for a move: refused
        when the game is over, the button is stale or the caller holds no seat."""
        row, cached = await self.active(channel_id)
        game = cached.game
        if game.finished:
            raise UserError(f"The game is over ({why_over(game)}); see /game status or /game export")
        self.check_state(params, cached)
        seats = await self.store.seats(row.id)
        pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id and not s.conceded}
        if not pids:
            if any(s.user_id == caller.id and s.conceded for s in seats):
                raise UserError("You conceded: your seat moves automatically now.")
            hint = " Claim a free seat with /game claim." if any(s.user_id is None for s in seats) else ""
            raise UserError("You do not hold a seat in this game." + hint)
        return row, cached, seats, pids

    async def act(self, channel_id: str, caller: Caller, name: str, params: dict[str, str],
                  logged_as: str | None = None) -> Reply:
        cmd = MOVES[name]
        row, cached, seats, pids = await self.playing(channel_id, caller, params)
        game = cached.game
        entity = resolve_entity(game, cmd, pids, params.get("entity"), params)
        if cmd.action_type == "run_routes":  # "auto" may search for the routes: not on the event loop
            action = await in_engine_thread(build_action, cmd, game, entity, params)
        else:
            action = build_action(cmd, game, entity, params)
        # a typed pass (a button carries its state) right after another's move ended the round
        note = typed_pass_note(game, entity, cached.round_turn, cached.seq, caller.id) \
            if cmd.action_type == "pass" and "state" not in params else None
        try:
            refusal = absent_seller_refusal(game, action, seats)
            if refusal:
                raise UserError(refusal)
            asked = offers.consent_needed(game, action, seats, caller.id)
            if asked is not None and game.accepts(action):  # (a refused purchase is refused below)
                return await offers.propose(self, row, cached, caller, action, *asked)
            if action.type in _FINAL_MOVES and (params.get("confirm") or "").lower() != "yes":
                ends = game.preview(action, _ending)
                if ends:  # a bankruptcy ends the game: there is no undo after it
                    command = format_command(name, {**params, "confirm": "yes", "state": str(cached.seq)})
                    return Reply(lines=[f"This move ends the game ({ends}); it cannot be undone. Make it?"],
                                 ephemeral=True, buttons=[Button("Make the move", command, "danger")])
            lapsed = await offers.lapsing_lines(self, row, cached)
            reply = await self.apply(row, cached, caller, action, seats, logged_as)
            reply.lines[1:1] = lapsed
        except GameError as exc:  # the state is as it was: say why, and what would work
            raise GameError(explain_refusal(game, action, exc), exc.code, **exc.facts) from None
        if note:
            reply.lines.insert(1, note)
        return reply

    async def apply(
        self, row: GameRow, cached: CachedGame, caller: Caller, action: A.Action, seats: list[Seat],
        logged_as: str | None = None,
    ) -> Reply:
        game = cached.game
        before = (game.round_key(), turn_key(game))
        mark = story.mark(game, action)
        short = _short_of_suggestion(game, action)
        self.play(row, cached, action, logged_as or caller.id)
        reply = Reply(lines=story.action_lines(game, action, mark, caller.name))
        if short:
            reply.lines.insert(1, short)
        actor = cached.game.controller_of(action.entity)
        await self.after_change(row, cached, seats, reply, actor=actor, before=before, moved=True)
        if cached.game.round_key() != before[0]:
            cached.round_turn = RoundTurn(cached.seq, caller.id, caller.name, str(before[0][1]))
        if actor:
            await self.store.touch_seat(row.id, actor, self.now())
        return reply

    def play(self, row: GameRow, cached: CachedGame, action: A.Action, user_id: str) -> list[str]:
        """Process ``action`` (GameError: refused, state unchanged) and queue it for the log
        (:meth:`_store_pending`); returns the new game log lines."""
        game = cached.game
        before = len(game.log)
        action = dataclasses.replace(action, id=cached.max_id + 1)
        game.process(action)
        self._touch(row.id)  # the cached game is ahead of the database until the command commits
        data = action.to_dict()
        # what the engine filled in as 18xx.games records it (a loan's number, a right's cost):
        # exports need it
        data.update({k: v for k, v in game.action_log[-1].items() if not data.get(k) and k != "auto_actions"})
        data["created_at"] = int(self.now())
        if game.auto_done:
            data["auto_actions"] = [a.to_dict() for a in game.auto_done]
        cached.pending.append((data, user_id))
        cached.max_id += 1
        return game.log[before:] or [action.describe(game.fmt)]

    async def _store_pending(self, row: GameRow, cached: CachedGame) -> None:
        """Append the queued actions at the log positions after the state they were played on:
        another process that stored a move there first makes this a :class:`Conflict`."""
        for data, user in cached.pending:
            await self.store.append_action(row.id, data, user, seq=cached.seq + 1)
            cached.seq += 1
        cached.pending.clear()

    async def robot_moves(
        self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply, *, moved: bool = False
    ) -> None:
        """Move for every conceded seat that must act and, after a move made here (``moved``, or a
        conceded seat's), pass for whoever can do nothing but pass (:func:`engine.moves.only_pass`)
        and discard for a corporation left no choice (:func:`engine.moves.forced_discard`),
        until a seated player must decide (engine work in the engine thread; the moves are queued
        for the log)."""
        conceded = _conceded(seats)
        if _robots_due(cached.game, conceded, moved):
            reply.lines += await in_engine_thread(self._robot_loop, row, cached, conceded, moved)

    def _robot_loop(self, row: GameRow, cached: CachedGame, conceded: set[str], skip: bool) -> list[str]:
        game = cached.game
        out: list[str] = []
        for _ in range(MAX_ROBOT_MOVES):
            made = _made_for(game) if skip and not game.finished else None
            if made is not None:  # nothing to choose (a pass where nothing can be done, a forced discard)
                action, reason = made
                mark = story.mark(game, action)
                try:
                    self.play(row, cached, action, SKIP_USER)
                except GameError:  # the engine said the move is legal there: an engine disagreement
                    log.exception("the move made for %s with nothing to choose was refused: %s", action.entity, action)
                    break
                out += story.skipped_lines(game, action, mark, reason)
                continue
            entity = None if game.finished else robot_entity(game, conceded)
            if entity is None:
                break
            decision = robot_decision(game, entity, seed=cached.seq + len(cached.pending),
                                      avoid=lambda a: takes_from_person(game, a, conceded))
            who = game.name_of(game.controller_of(entity) or entity)
            if decision is None:
                out.append(f"The automatic seat of {who} has no move; the host can /game sub the seat")
                break
            action = decision.action
            mark = story.mark(game, action)
            try:
                self.play(row, cached, action, ROBOT_USER)
            except GameError as exc:
                out.append(f"The automatic seat of {who} is stuck ({exc}); the host can /game sub the seat")
                break
            out += story.robot_lines(story.action_lines(game, action, mark, story.MOVER), game.name_of(action.entity),
                               decision.reason)
            skip = True
        else:  # the cap, reached with an automatic seat still to move: a person lets it go on
            if not game.finished and robot_entity(game, conceded) is not None:
                out.append(f"⏸ The automatic seats stop after {MAX_ROBOT_MOVES} moves in a row: "
                           "/game remind lets them go on")
        return out

    async def after_change(
        self,
        row: GameRow,
        cached: CachedGame,
        seats: list[Seat],
        reply: Reply,
        actor: str | None = None,
        before: tuple[Any, Any] | None = None,
        moved: bool = False,
    ) -> None:
        """Automatic seats (and, after a move made here, ``moved``, the passes for steps where
        nothing can be done), the log, buttons, the status message, the turn clock, the ping when
        the turn passes to another player, the pictures that changed when a turn ends, and the
        summary when the game is over. ``before`` (round and turn before the action) marks a new
        round or turn; the reply ends with who is next."""
        await self._settle(row, cached, seats, reply, actor, before, moved)
        mark = story.Mark(0, before[0], before[1], "") if before else None
        reply.lines += story.closing_lines(cached.game, mark, reply.lines, seats, actor)

    async def _settle(
        self,
        row: GameRow,
        cached: CachedGame,
        seats: list[Seat],
        reply: Reply,
        actor: str | None,
        before: tuple[Any, Any] | None,
        moved: bool,
    ) -> None:
        game = cached.game
        reply.game_id = row.id
        # the engine's work after a change in one call to the engine thread (each hand-over
        # costs, and lets other games' work in before this reply): the automatic moves, then the
        # buttons and the suggested routes of the position they leave (stamped with the state id
        # the queued moves will reach once stored)
        after = await in_engine_thread(self._engine_after, row, cached, seats, moved)
        reply.lines += after.lines
        record = None
        if game.finished and row.status != "ended":  # the whole log, read before this command writes
            record = [e.data for e in await self.store.actions(row.id)] + [data for data, _ in cached.pending]
        await self._store_pending(row, cached)
        reply.status = status_text(row, game, seats)
        if game.finished:
            if record is not None:
                await self._finish(row, cached, seats, reply, record)
            else:
                reply.lines += result_lines(game)
            return
        reply.buttons = after.buttons
        await self._show_routes(game, reply, after.routes)
        if self.images and (before is None or turn_key(game) != before[1]):
            # drawn through the per-position cache: a /game status at this position reuses them
            changed = self.posted.changed(row.id, game)
            reply.files += await cache_of(self).pictures(self, row.id, cached.seq, game, changed) if changed else []
            reply.files[:0] = await asyncio.to_thread(self.posted.changes_picture, row.id, game)  # larger, first
        acting = game.acting_players()
        nxt = acting[0] if acting else None
        await self._track_turn(row, nxt, actor)
        # pinged once per turn; again when the automatic seats moved since and someone else's
        # command led back to them (a person who was away)
        again = nxt != actor and any(line.startswith("🤖") for line in after.lines)
        if nxt is None or (nxt == row.last_ping_seat and not again):
            return
        await self.store.set_last_ping(row.id, nxt)
        row.last_ping_seat = nxt
        seat = next((s for s in seats if s.player_id == nxt), None)
        if seat is not None and seat.user_id and not seat.conceded:
            reply.ping_text = f"your turn ({seat.name})"
            if (await self.store.prefs(seat.user_id)).dm:  # /game notify dm:yes: turns by DM too
                reply.dm = seat.user_id
            else:
                reply.ping = seat.user_id

    async def _track_turn(self, row: GameRow, player: str | None, actor: str | None) -> None:
        """Restart the reminder clock when the move passed on or the acting player acted."""
        turn = await self.store.turn(row.id)
        if turn is None or turn.player_id != player or (actor is not None and actor == player):
            settings = ReminderSettings.from_dict(row.settings)
            await self.store.save_turn(start_turn(row.id, player, self.now(), settings, turn))

    async def _finish(
        self, row: GameRow, cached: CachedGame, seats: list[Seat], reply: Reply, record: list[dict[str, Any]]
    ) -> None:
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
            results.append(
                ResultRow(
                    row.id,
                    seat.position if seat else -1,
                    st.player_id,
                    st.name,
                    seat.user_id if seat else None,
                    st.rank,
                    st.total,
                    st.cash,
                    bool(seat and seat.conceded),
                )
            )
        await self.store.save_results(results)
        if row.status != "ended":
            await self.store.end_game(row.id, ended)
            row.status = "ended"

    async def _summary(
        self,
        row: GameRow,
        game: Game,
        seats: list[Seat],
        reply: Reply,
        ended: float,
        raw: list[dict[str, Any]],
    ) -> None:
        try:
            fresh = new_game(row.title, players(seats), row.optional_rules, row.seed)
            summary = await asyncio.to_thread(
                summarize, fresh, raw, started_at=row.started_at, ended_at=ended
            )
            summary.standings = standings(game)  # the live state is the truth
            summary = with_people(summary, game, seats)
            reply.lines += summary_lines(summary, game.fmt)
            try:
                reply.files.append(
                    Attachment(
                        f"{row.title}-game-{row.id}-values.png", await asyncio.to_thread(chart_png, summary, game.fmt)
                    )
                )
            except Exception:  # a drawing bug must not lose the summary
                log.exception("value chart failed")
        except Exception:  # the summary is best effort; the result line is not
            log.exception("summary failed for game %s", row.id)
            reply.lines += result_lines(game)

    def _engine_after(self, row: GameRow, cached: CachedGame, seats: list[Seat], moved: bool) -> _After:
        """:meth:`_settle`'s engine work (CPU-bound: call through :func:`in_engine_thread`)."""
        game = cached.game
        conceded = _conceded(seats)
        lines = self._robot_loop(row, cached, conceded, moved) if _robots_due(game, conceded, moved) else []
        if game.finished:
            return _After(lines)
        return _After(lines, decision_buttons(game, cached.seq + len(cached.pending), seats), _suggestion(game))

    async def _show_routes(self, game: Game, reply: Reply, sol: RouteSolution | None) -> None:
        """Show the optimizer's best routes for the corporation to run (:func:`_suggestion`), drawn
        on the part of the map around its network when images are on; the "Run suggested routes"
        button confirms them."""
        routes = sol.routes if sol is not None else []
        if sol is not None and not routes and sol.optimal and game.corporations[sol.corp].trains:
            # else the turn line only asks for routes there are none of (a 1833NE play-test)
            reply.lines.append(f"{sol.corp}'s trains have no route to run now: /routes routes:none")
        if sol is None or not routes:
            return
        corp = sol.corp
        from render.map.routes import route_label  # "3-train, $120: London to Sarnia"

        total = sum(r["revenue"] for r in routes)
        # a search cut short by its time budget found good routes, not provably the best ones
        head = f"Best routes for {corp}" if sol.optimal else \
            f"Best routes found for {corp} (the search ran out of time: not proven best)"
        reply.lines.append(f"{head}: " + "; ".join(route_label(game, r) for r in routes)
                           + f" = {game.fmt(total)}")
        if self.images and (
            reply.game_id is None
            or self.posted.first_time(reply.game_id, "routes", (corp, tuple(map(str, routes))))
        ):
            # the network and its routes, cropped (bot.discord.posting: the whole map showed them
            # too small on a phone); with the turn's changes it stands for the map
            try:
                hexes, covers = self.posted.routes_area(reply.game_id, game, corp, routes)
            except Exception:  # a drawing bug must not block play
                log.exception("route drawing failed")
                return
            files = await asyncio.to_thread(routes_picture, game, corp, hexes, routes, sol.optimal)
            reply.files += files
            if files and covers and reply.game_id is not None:
                self.posted.mark(reply.game_id, game, ("map",))

    async def render(self, game: Game, which: tuple[str, ...]) -> list[Attachment]:
        """Draw the named pictures in a worker thread ([] when drawing fails: it must not block play)."""
        if not which:
            return []
        try:
            return await asyncio.to_thread(render_images, game, which)
        except Exception:  # a drawing bug must not block play
            log.exception("rendering failed")
            return []

    async def export(self, row: GameRow) -> dict[str, Any]:
        seats = await self.store.seats(row.id)
        logged = await self.store.actions(row.id)
        game, error = None, None
        if row.status != "lobby":
            try:
                game = (await self.load(row)).game
            except UserError as exc:  # a log that does not replay is exported as it is
                error = str(exc)
        out = export_record(row.title, [(s.player_id, s.name) for s in seats], row.seed, row.optional_rules,
                            [e.data for e in logged], game=game, game_id=row.id,
                            description=f"Conductor game {row.id}")
        out["engine_version"] = row.engine_version
        if row.status == "lobby":
            out["status"] = "new"
        if error is not None:
            out["replay_error"] = error
        return out

    def _touch(self, game_id: int) -> None:
        scope = _SCOPE.get()
        if scope is not None:
            scope.touched.add(game_id)

    # ------------------------------------------------------------------ the cache and the command scope
    @contextmanager
    def tracking(self) -> Iterator[CommandScope]:
        """The scope of one command: the games whose cached state it advanced."""
        scope = CommandScope()
        token = _SCOPE.set(scope)
        try:
            yield scope
        finally:
            _SCOPE.reset(token)

    def rollback(self, scope: CommandScope) -> None:
        """The command's transaction rolled back: cached states it advanced are rebuilt next time."""
        for game_id in scope.touched:
            self._cache.pop(game_id, None)

    def remember(self, game_id: int, cached: CachedGame) -> None:
        """Use ``cached`` (built by the caller from this command's writes) as the game's state."""
        self._cache[game_id] = cached
        self._touch(game_id)

    def forget(self, game_id: int) -> None:
        """Drop the cached state: the next :meth:`load` replays the stored log."""
        self._cache.pop(game_id, None)

    def cached(self, game_id: int) -> CachedGame | None:
        """The cached state, if any (nothing is loaded)."""
        return self._cache.get(game_id)
