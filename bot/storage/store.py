"""Persistence: games, seats and an append-only action log, in SQLite (aiosqlite, WAL mode) or
PostgreSQL (asyncpg, :mod:`bot.storage.pg`: a ``postgresql://`` URL instead of a path). One API,
one set of statements: the engines differ only below :class:`bot.storage.db.Transactions`.

The action log is the truth: a game's state is rebuilt by replaying it. Undo is itself an
appended ``undo`` action, exactly as 18xx.games records it. Every write commits before the
caller replies, so an acknowledged action survives the process being killed.

Transactions (:mod:`bot.storage.db`): the writes made inside :meth:`Store.transaction` (the
command layer opens one per command) land together or not at all. The one connection is held by
one transaction at a time, from its first write (``BEGIN IMMEDIATE``) to its end; reads made meanwhile by other commands
wait, so nobody sees half a command, and every cursor is closed after use. Across processes
SQLite's own lock serializes writers (PostgreSQL: a per-game advisory lock on the log), and
conflicts are refused rather than merged: an action's
sequence number is the log position its writer saw (``PRIMARY KEY (game_id, seq)``), seat
changes check the holder they replace, and a refused write raises :class:`Conflict`.

:meth:`Store.open` refuses a database it cannot use (not a database, damaged by
``PRAGMA quick_check``, read-only, from a newer bot) with :class:`StoreError`.

The schema is versioned with ``PRAGMA user_version`` (PostgreSQL: the table ``schema_version``);
``MIGRATIONS[i]`` upgrades version i to i+1 on both engines (:mod:`bot.storage.schema`). The rows are dataclasses of :mod:`bot.storage.rows`.

Besides the log: each game's reminder settings and turn clock (``turns``: whose turn, since when,
reminders sent, when the next one is due), each user's reminder preferences (time zone, quiet
hours, direct messages), seat substitution votes, and the final standings of finished games.
Times stored by the reminder machinery come from the injected clock (unix seconds).

Damaged rows harm only their game: text that is not UTF-8, JSON columns that are not JSON and a
turn clock that is not numbers are read with the damage named, never as an error of the whole
query (:mod:`bot.storage.rows`); :func:`bot.gamelog.build_game` refuses such a game clearly.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Self, cast

from .db import Database
from .pg import UNREACHABLE_TEXT, PgDatabase, PgUnreachable, is_pg_url, shown
from .rows import (
    GAME_COLS,
    RESULT_COLS,
    SEAT_COLS,
    TURN_COLS,
    Conflict,
    GameRow,
    LoggedAction,
    ResultRow,
    Seat,
    StoreError,
    SubRequest,
    Turn,
    UndoRequest,
    UserPrefs,
    action_data,
    as_json,
    from_json,
    game_row,
    result_row,
    seat_row,
    turn_row,
    votes,
)
from .schema import MIGRATIONS, SCHEMA_VERSION, TABLES

__all__ = [  # the rows and the schema are read from here too
    "ANYONE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "TABLES",
    "Conflict",
    "GameRow",
    "LoggedAction",
    "ResultRow",
    "Seat",
    "Store",
    "StoreError",
    "SubRequest",
    "Turn",
    "UndoRequest",
    "UserPrefs",
    "check_database",
    "location",
    "unsaved_text",
]


ANYONE = object()  # set_seat_user: whoever holds the seat now


UNDO_COLS = "state_id, requested_by, votes"
_LOG_LENGTH = "(SELECT COALESCE(MAX(seq), 0) FROM actions a WHERE a.game_id = g.id)"  # (in open_game)


class Store(Database):
    """One database; open with :meth:`open` (a SQLite path, or a ``postgresql://`` URL: then a
    :class:`bot.storage.pg.PgStore`), close with :meth:`close`."""

    @classmethod
    async def open(cls, path: str) -> Self:
        if is_pg_url(path) and not issubclass(cls, PgDatabase):
            return cast(Self, await PgStore.open(path))
        return await super().open(path)

    # ------------------------------------------------------------------ games
    async def create_game(
        self,
        channel_id: str,
        title: str,
        optional_rules: list[str],
        host_id: str,
        engine_version: str,
        *,
        status: str = "lobby",
        seed: int | None = None,
        guild_id: str | None = None,
        started_at: float | None = None,
    ) -> int:
        _, gid = await self._write(
            "INSERT INTO games (channel_id, title, optional_rules, seed, host_id, status, engine_version,"
            " created_at, guild_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                channel_id,
                title,
                json.dumps(optional_rules),
                seed,
                host_id,
                status,
                engine_version,
                time.time(),
                guild_id,
                started_at,
            ),
            now=True,
        )
        assert gid is not None
        return gid

    async def open_game(self, channel_id: str) -> GameRow | None:
        """The game in ``channel_id`` that has not ended, if any. Inside a command its log length,
        seats, turn clock and the votes kept at its position (:meth:`undo_requests_at`) come along
        in the same query (one trip to the database thread, not four)."""
        tx = self._mine()
        if tx is None or not self.FOLD_READS:
            row = await self._one(
                f"SELECT {GAME_COLS} FROM games WHERE channel_id = ? AND status != 'ended'", (channel_id,)
            )
            return game_row(row) if row else None
        row = await self._one(
            f"SELECT {GAME_COLS}, {_LOG_LENGTH}, "
            f"(SELECT json_group_array(json_array({as_json(SEAT_COLS)})) FROM "
            f"(SELECT {SEAT_COLS} FROM seats s WHERE s.game_id = g.id ORDER BY position)), "
            f"(SELECT json_array({as_json(TURN_COLS)}) FROM turns t WHERE t.game_id = g.id), "
            f"(SELECT json_group_array(json_array({as_json(UNDO_COLS)})) FROM undo_requests u "
            f"WHERE u.game_id = g.id AND u.state_id IN ({_LOG_LENGTH}, -1 - {_LOG_LENGTH})) "
            "FROM games g WHERE channel_id = ? AND status != 'ended'",
            (channel_id,),
        )
        if not row:
            return None
        game = game_row(row)
        n = len(GAME_COLS.split(","))
        tx.known[("count", game.id)] = int(row[n])
        tx.known[("seats", game.id)] = [from_json(r, SEAT_COLS) for r in json.loads(row[n + 1])]
        turn = from_json(json.loads(row[n + 2]), TURN_COLS) if row[n + 2] else None
        tx.known[("turn", game.id)] = turn if turn is not None and turn_row(turn) is not None else None
        count = int(row[n])  # the votes kept at this position and at its offer's key (-1 - it)
        tx.known[("undo", game.id)] = ((count, -1 - count), [from_json(r, UNDO_COLS) for r in json.loads(row[n + 3])])
        return game

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def all_games(self) -> list[GameRow]:
        return [game_row(r) for r in await self._all(f"SELECT {GAME_COLS} FROM games ORDER BY id")]

    async def channel_games(self, channel_id: str) -> list[GameRow]:
        return [
            game_row(r)
            for r in await self._all(
                f"SELECT {GAME_COLS} FROM games WHERE channel_id = ? ORDER BY id", (channel_id,)
            )
        ]

    async def active_games(self) -> list[GameRow]:
        return [
            game_row(r)
            for r in await self._all(f"SELECT {GAME_COLS} FROM games WHERE status = 'active' ORDER BY id")
        ]

    async def games_in_guild(self, guild_id: str | None, status: str) -> list[GameRow]:
        """A server's games with ``status`` ('active' or 'ended'). Outside a server (``guild_id``
        None) only games recorded without a server: nothing of any server is listed there."""
        return [
            game_row(r)
            for r in await self._all(
                f"SELECT {GAME_COLS} FROM games WHERE status = ? AND guild_id IS ? ORDER BY id",
                (status, guild_id),
            )
        ]

    async def set_optional_rules(self, game_id: int, optional_rules: list[str]) -> None:
        await self._write("UPDATE games SET optional_rules = ? WHERE id = ?", (json.dumps(optional_rules), game_id))

    async def set_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self._write("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))

    async def start_game(
        self, game_id: int, seed: int | None, seats: list[Seat], started_at: float | None = None
    ) -> None:
        await self._write(
            "UPDATE games SET status = 'active', seed = ?, started_at = ? WHERE id = ? AND status = 'lobby'",
            (seed, started_at if started_at is not None else time.time(), game_id),
            check=_changed("the game was started or ended at the same moment"),
        )
        await self._write("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._insert_seats(game_id, seats)

    async def end_game(self, game_id: int, at: float | None = None) -> None:
        await self._write(
            "UPDATE games SET status = 'ended', ended_at = ? WHERE id = ? AND status != 'ended'",
            (at if at is not None else time.time(), game_id),
        )
        await self._write("DELETE FROM turns WHERE game_id = ?", (game_id,))
        await self._write("DELETE FROM sub_requests WHERE game_id = ?", (game_id,))

    async def set_last_ping(self, game_id: int, seat: str | None) -> None:
        await self._write("UPDATE games SET last_ping_seat = ? WHERE id = ?", (seat, game_id))

    async def set_status_message(self, game_id: int, message_id: str | None) -> None:
        await self._write("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))

    # ------------------------------------------------------------------ seats
    async def seats(self, game_id: int) -> list[Seat]:
        tx = self._mine()
        if tx is not None and ("seats", game_id) in tx.known:
            return [seat_row(r) for r in tx.known[("seats", game_id)]]
        return [
            seat_row(r)
            for r in await self._all(
                f"SELECT {SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
            )
        ]

    async def _insert_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self._write(
            "INSERT INTO seats (game_id, position, name, user_id, player_id, conceded, last_action_at, user_name)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            many=[
                (game_id, s.position, s.name, s.user_id, s.player_id, int(s.conceded), s.last_action_at, s.user_name)
                for s in seats
            ],
        )

    async def add_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self._insert_seats(game_id, seats)

    async def remove_seat(self, game_id: int, position: int) -> None:
        await self._write("DELETE FROM seats WHERE game_id = ? AND position = ?", (game_id, position))

    async def set_seat_user(
        self, game_id: int, position: int, user_id: str | None, *, was: object = ANYONE,
        user_name: str | None = None,
    ) -> None:
        """Hand a seat to ``user_id`` (``user_name``: their display name, None when not known);
        with ``was``, only if the seat is still held by ``was`` (:class:`Conflict` otherwise:
        someone else took or handed it at the same moment)."""
        if was is ANYONE:
            await self._write(
                "UPDATE seats SET user_id = ?, user_name = ? WHERE game_id = ? AND position = ?",
                (user_id, user_name, game_id, position),
            )
            return
        await self._write(
            "UPDATE seats SET user_id = ?, user_name = ? WHERE game_id = ? AND position = ? AND user_id IS ?",
            (user_id, user_name, game_id, position, was),
            check=_changed("the seat changed hands at the same moment"),
        )

    async def set_seat_conceded(self, game_id: int, position: int, conceded: bool) -> None:
        await self._write(
            "UPDATE seats SET conceded = ? WHERE game_id = ? AND position = ?",
            (int(conceded), game_id, position),
        )

    async def touch_seat(self, game_id: int, player_id: str, at: float) -> None:
        """Record that the seat of ``player_id`` acted at ``at`` (for "silent for N days")."""
        await self._write(
            "UPDATE seats SET last_action_at = ? WHERE game_id = ? AND player_id = ?",
            (at, game_id, player_id),
        )

    # ------------------------------------------------------------------ the action log
    async def append_actions(
        self, game_id: int, items: list[dict[str, Any]], user_id: str | None, *, seq: int
    ) -> list[int]:
        """Append actions at log positions ``seq``, ``seq + 1``, ...: the positions the writer's
        state was built from (its state id + 1). A writer that got there first makes this a
        :class:`Conflict`: the primary key refuses a second row at a position."""
        now = time.time()
        rows = [(game_id, seq + i, json.dumps(d), user_id, now) for i, d in enumerate(items)]
        await self._write(
            "INSERT INTO actions (game_id, seq, data, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
            many=rows,
            conflict="another move was recorded at the same moment",
        )
        return [r[1] for r in rows]

    async def append_action(
        self, game_id: int, data: dict[str, Any], user_id: str | None, *, seq: int | None = None
    ) -> int:
        """Append one action at position ``seq`` (None: after the last one, in one statement)."""
        if seq is not None:
            return (await self.append_actions(game_id, [data], user_id, seq=seq))[-1]
        await self._write(
            "INSERT INTO actions (game_id, seq, data, user_id, created_at) "
            "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ? FROM actions WHERE game_id = ?",
            (game_id, json.dumps(data), user_id, time.time(), game_id),
        )
        return await self.action_count(game_id)

    async def action_count(self, game_id: int) -> int:
        tx = self._mine()
        if tx is not None and ("count", game_id) in tx.known:
            return int(tx.known[("count", game_id)])
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def actions(self, game_id: int, after: int = 0) -> list[LoggedAction]:
        return [
            LoggedAction(r[0], action_data(r[0], r[1]), r[2])
            for r in await self._all(
                "SELECT seq, data, user_id FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            )
        ]

    # ------------------------------------------------------------------ undo votes
    async def undo_request(self, game_id: int, state_id: int) -> UndoRequest | None:
        row = await self._one(
            "SELECT state_id, requested_by, votes FROM undo_requests WHERE game_id = ? AND state_id = ?",
            (game_id, state_id),
        )
        return UndoRequest(row[0], row[1], votes(row[2])) if row else None

    async def undo_requests_at(self, game_id: int, state_ids: tuple[int, ...]) -> dict[int, UndoRequest]:
        """The requests kept at any of ``state_ids``, by state id (one read for several; none
        when :meth:`open_game` read them along with the game)."""
        tx = self._mine()
        known = tx.known.get(("undo", game_id)) if tx is not None else None
        if known is not None and set(state_ids) <= set(known[0]):
            return {r[0]: UndoRequest(r[0], r[1], votes(r[2])) for r in known[1] if r[0] in state_ids}
        marks = ", ".join("?" for _ in state_ids)
        rows = await self._all(
            f"SELECT state_id, requested_by, votes FROM undo_requests WHERE game_id = ? AND state_id IN ({marks})",
            (game_id, *state_ids),
        )
        return {r[0]: UndoRequest(r[0], r[1], votes(r[2])) for r in rows}

    async def save_undo_request(self, game_id: int, req: UndoRequest, was: list[str] | None = None) -> None:
        """A new request (``was`` None), or a vote: only if the votes are still ``was``."""
        if was is None:
            await self._write(
                "INSERT OR REPLACE INTO undo_requests (game_id, state_id, requested_by, votes, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, req.state_id, req.requested_by, json.dumps(req.votes), time.time()),
            )
            return
        await self._write(
            "UPDATE undo_requests SET votes = ? WHERE game_id = ? AND state_id = ? AND votes = ?",
            (json.dumps(req.votes), game_id, req.state_id, json.dumps(was)),
            check=_changed("someone else voted at the same moment"),
        )

    # ------------------------------------------------------------------ turns and reminders
    async def turn(self, game_id: int) -> Turn | None:
        tx = self._mine()
        if tx is not None and ("turn", game_id) in tx.known:
            known = tx.known[("turn", game_id)]
            return turn_row(known) if known else None
        row = await self._one(f"SELECT {TURN_COLS} FROM turns WHERE game_id = ?", (game_id,))
        return turn_row(row) if row else None  # a damaged clock reads as none: it starts afresh

    async def save_turn(self, t: Turn) -> None:
        await self._write(
            f"INSERT OR REPLACE INTO turns ({TURN_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                t.game_id,
                t.player_id,
                t.since,
                t.reminders_sent,
                t.next_at,
                int(t.idle_flagged),
                t.last_nudge_at,
            ),
        )

    async def claim_turn(self, was: Turn, now: Turn) -> bool:
        """Replace the turn clock ``was`` by ``now`` only if it is still ``was``: whether it was
        (a reminder is claimed this way, so of several bot processes exactly one sends it)."""
        rows, _ = await self._write(
            "UPDATE turns SET player_id = ?, since = ?, reminders_sent = ?, next_at = ?, idle_flagged = ?,"
            " last_nudge_at = ? WHERE game_id = ? AND player_id IS ? AND since = ? AND reminders_sent = ?"
            " AND next_at IS ? AND idle_flagged = ?",
            (
                now.player_id,
                now.since,
                now.reminders_sent,
                now.next_at,
                int(now.idle_flagged),
                now.last_nudge_at,
                was.game_id,
                was.player_id,
                was.since,
                was.reminders_sent,
                was.next_at,
                int(was.idle_flagged),
            ),
            now=True,
        )
        return rows == 1

    async def log_reminder(
        self, game_id: int, player_id: str | None, user_id: str, kind: str, dm: bool, at: float
    ) -> None:
        await self._write(
            "INSERT INTO reminders_sent (game_id, player_id, user_id, kind, dm, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, player_id, user_id, kind, int(dm), at),
        )

    async def reminders_log(self, game_id: int) -> list[tuple[str | None, str, str, bool, float]]:
        return [
            (r[0], r[1], r[2], bool(r[3]), r[4])
            for r in await self._all(
                "SELECT player_id, user_id, kind, dm, sent_at FROM reminders_sent WHERE game_id = ? ORDER BY rowid",
                (game_id,),
            )
        ]

    async def prefs(self, user_id: str) -> UserPrefs:
        r = await self._one(
            "SELECT user_id, tz, quiet_start, quiet_end, dm FROM user_prefs WHERE user_id = ?", (user_id,)
        )
        if r is None:
            return UserPrefs(user_id)
        if not (isinstance(r[1], str) and all(isinstance(v, int | None) for v in (r[2], r[3], r[4]))):
            return UserPrefs(user_id)  # damaged preferences read as the defaults
        return UserPrefs(r[0], r[1], r[2], r[3], bool(r[4]))

    async def save_prefs(self, p: UserPrefs) -> None:
        await self._write(
            "INSERT OR REPLACE INTO user_prefs (user_id, tz, quiet_start, quiet_end, dm) VALUES (?, ?, ?, ?, ?)",
            (p.user_id, p.tz, p.quiet_start, p.quiet_end, int(p.dm)),
        )

    # ------------------------------------------------------------------ substitutes
    async def sub_request(self, game_id: int, position: int) -> SubRequest | None:
        r = await self._one(
            "SELECT position, target_user, target_name, requested_by, votes FROM sub_requests "
            "WHERE game_id = ? AND position = ?",
            (game_id, position),
        )
        return SubRequest(r[0], r[1], r[2], r[3], votes(r[4])) if r else None

    async def save_sub_request(
        self, game_id: int, req: SubRequest, at: float, was: list[str] | None = None
    ) -> None:
        """A new vote on a seat (``was`` None), or a vote in it: only if the votes are still ``was``."""
        if was is None:
            await self._write(
                "INSERT OR REPLACE INTO sub_requests (game_id, position, target_user, target_name, requested_by,"
                " votes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    req.position,
                    req.target_user,
                    req.target_name,
                    req.requested_by,
                    json.dumps(req.votes),
                    at,
                ),
            )
            return
        await self._write(
            "UPDATE sub_requests SET votes = ? WHERE game_id = ? AND position = ? AND votes = ?",
            (json.dumps(req.votes), game_id, req.position, json.dumps(was)),
            check=_changed("someone else voted at the same moment"),
        )

    async def delete_sub_request(self, game_id: int, position: int) -> None:
        await self._write("DELETE FROM sub_requests WHERE game_id = ? AND position = ?", (game_id, position))

    # ------------------------------------------------------------------ final standings
    async def save_results(self, rows: list[ResultRow]) -> None:
        await self._write(
            f"INSERT OR REPLACE INTO results ({RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            many=[
                (
                    r.game_id,
                    r.position,
                    r.player_id,
                    r.name,
                    r.user_id,
                    r.rank,
                    r.value,
                    r.cash,
                    int(r.conceded),
                )
                for r in rows
            ],
        )

    async def set_result_user(self, game_id: int, position: int, user_id: str) -> None:
        """Credit a final standing to ``user_id`` (a seat of a finished import claimed afterwards)."""
        await self._write("UPDATE results SET user_id = ? WHERE game_id = ? AND position = ?",
                          (user_id, game_id, position))

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = await self._all(
            f"SELECT {RESULT_COLS} FROM results WHERE game_id = ? ORDER BY rank, position", (game_id,)
        )
        return [r for r in map(result_row, rows) if r is not None]

    async def results_of_user(self, user_id: str, guild_id: str | None) -> list[ResultRow]:
        """Every final standing of ``user_id`` in games of ``guild_id`` (None: games without a server)."""
        cols = ", ".join("r." + c.strip() for c in RESULT_COLS.split(","))
        rows = await self._all(
            f"SELECT {cols} FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ? AND g.guild_id IS ?"
            " ORDER BY r.game_id",
            (user_id, guild_id),
        )
        return [r for r in map(result_row, rows) if r is not None]

    # ------------------------------------------------------------------ server settings
    async def creator_role(self, guild_id: str) -> str | None:
        """The role a member needs to open games on the server (None: anyone may)."""
        row = await self._one("SELECT creator_role FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None

    async def set_creator_role(self, guild_id: str, role: str | None) -> None:
        await self._write(
            "INSERT OR REPLACE INTO guild_settings (guild_id, creator_role) VALUES (?, ?)", (guild_id, role)
        )

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (tests compare dumps to prove nothing changed)."""
        return {
            table: [tuple(r) for r in await self._all(f"SELECT {cols} FROM {table} ORDER BY 1, 2")]
            for table, cols in (await self.columns()).items()
        }

    async def columns(self) -> dict[str, str]:
        """Each table's columns, as the schema names them (PostgreSQL's own ``rowid`` left out)."""
        if isinstance(self, PgDatabase):
            rows = await self._all(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
                "current_schema() AND column_name != 'rowid' ORDER BY ordinal_position"
            )
        else:
            rows = [
                (t, r[1]) for t in TABLES for r in await self._all(f"SELECT * FROM pragma_table_info('{t}')")
            ]
        return {t: ", ".join(c for table, c in rows if table == t) for t in TABLES}


class PgStore(PgDatabase, Store):
    """The store on PostgreSQL (opened by :meth:`Store.open` with a ``postgresql://`` URL)."""


def _changed(conflict: str) -> Callable[[int], None]:
    """A check for a write that must change a row: none changed means someone came first."""

    def check(rows: int) -> None:
        if not rows:
            raise Conflict(conflict)

    return check


async def check_database(path: str) -> None:
    """Open and close the database: :class:`StoreError` when it cannot be used."""
    store = await Store.open(path)
    await store.close()


def location(path: str) -> str:
    """Where a database is, for messages and logs: a SQLite file's absolute path, a PostgreSQL URL
    without its password."""
    if is_pg_url(path):
        return shown(path)
    if path in ("", ":memory:") or path.startswith("file:"):
        return path
    return os.path.abspath(path)


def unsaved_text(exc: sqlite3.Error) -> str:
    """What the player is told when the database failed a command (nothing of it was kept)."""
    if isinstance(exc, PgUnreachable):
        return UNREACHABLE_TEXT
    return f"The bot could not save that ({exc}); nothing was changed. Please try again later."
