"""Persistence: games, seats and an append-only action log in SQLite (aiosqlite, WAL mode).

The action log is the truth: a game's state is rebuilt by replaying it. Undo is itself an
appended ``undo`` action, exactly as 18xx.games records it. Every write commits before the
caller replies, so an acknowledged action survives the process being killed.

Transactions: the writes made inside :meth:`Store.transaction` (the command layer opens one per
command) land together or not at all. The one connection is held by one transaction at a time,
from its first write (``BEGIN IMMEDIATE``) to its end; reads made meanwhile by other commands
wait, so nobody sees half a command, and every cursor is closed after use. Across processes
SQLite's own lock serializes writers, and conflicts are refused rather than merged: an action's
sequence number is the log position its writer saw (``PRIMARY KEY (game_id, seq)``), seat
changes check the holder they replace, and a refused write raises :class:`Conflict`.

:meth:`Store.open` refuses a database it cannot use (not a database, damaged by
``PRAGMA quick_check``, read-only, from a newer bot) with :class:`StoreError`.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]`` upgrades version i to i+1.

Besides the log: each game's reminder settings and turn clock (``turns``: whose turn, since when,
reminders sent, when the next one is due), each user's reminder preferences (time zone, quiet
hours, direct messages), seat substitution votes, and the final standings of finished games.
Times stored by the reminder machinery come from the injected clock (unix seconds).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

MIGRATIONS: list[str] = [
    # 0 -> 1: games, seats, the action log
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id TEXT NOT NULL,
        title TEXT NOT NULL,
        optional_rules TEXT NOT NULL DEFAULT '[]',
        seed INTEGER,
        host_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'ended')),
        engine_version TEXT NOT NULL,
        created_at REAL NOT NULL,
        ended_at REAL,
        last_ping_seat TEXT,
        status_message_id TEXT
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status != 'ended';
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        position INTEGER NOT NULL,
        player_id TEXT,
        name TEXT NOT NULL,
        user_id TEXT,
        PRIMARY KEY (game_id, position)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        user_id TEXT,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    """,
    # 1 -> 2: undo requests that need every seated player's agreement
    """
    CREATE TABLE undo_requests (
        game_id INTEGER NOT NULL REFERENCES games(id),
        state_id INTEGER NOT NULL,
        requested_by TEXT NOT NULL,
        votes TEXT NOT NULL DEFAULT '[]',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, state_id)
    );
    """,
    # 2 -> 3: servers, reminders, substitutes and concessions, final standings
    """
    ALTER TABLE games ADD COLUMN guild_id TEXT;
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN started_at REAL;
    ALTER TABLE seats ADD COLUMN conceded INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN last_action_at REAL;
    CREATE INDEX games_by_guild ON games(guild_id, status);
    CREATE TABLE turns (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        player_id TEXT,
        since REAL NOT NULL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        next_at REAL,
        idle_flagged INTEGER NOT NULL DEFAULT 0,
        last_nudge_at REAL
    );
    CREATE TABLE user_prefs (
        user_id TEXT PRIMARY KEY,
        tz TEXT NOT NULL DEFAULT 'UTC',
        quiet_start INTEGER,
        quiet_end INTEGER,
        dm INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE reminders_sent (
        game_id INTEGER NOT NULL REFERENCES games(id),
        player_id TEXT,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        dm INTEGER NOT NULL,
        sent_at REAL NOT NULL
    );
    CREATE TABLE sub_requests (
        game_id INTEGER NOT NULL REFERENCES games(id),
        position INTEGER NOT NULL,
        target_user TEXT NOT NULL,
        target_name TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        votes TEXT NOT NULL DEFAULT '[]',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, position)
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        position INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        user_id TEXT,
        rank INTEGER NOT NULL,
        value INTEGER NOT NULL,
        cash INTEGER NOT NULL,
        conceded INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, position)
    );
    """,
    # 3 -> 4: per-server settings (who may open games)
    """
    CREATE TABLE guild_settings (
        guild_id TEXT PRIMARY KEY,
        creator_role TEXT
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
TABLES = ("games", "seats", "actions", "undo_requests", "turns", "user_prefs", "reminders_sent", "sub_requests",
          "results", "guild_settings")


ANYONE = object()  # set_seat_user: whoever holds the seat now


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do (for the operator)."""


class Conflict(Exception):
    """Another command or process changed the same rows first; nothing of this command was kept."""


@dataclass
class GameRow:
    id: int
    channel_id: str
    title: str
    optional_rules: list[str]
    seed: int | None
    host_id: str
    status: str
    engine_version: str
    created_at: float
    last_ping_seat: str | None = None
    status_message_id: str | None = None
    guild_id: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    started_at: float | None = None
    ended_at: float | None = None


@dataclass
class Seat:
    position: int
    name: str
    user_id: str | None
    player_id: str | None = None
    conceded: bool = False
    last_action_at: float | None = None


@dataclass
class LoggedAction:
    seq: int
    data: dict[str, Any]
    user_id: str | None


@dataclass
class UndoRequest:
    state_id: int
    requested_by: str
    votes: list[str] = field(default_factory=list)


@dataclass
class Turn:
    """Whose turn it is in a game and since when (the reminder clock)."""

    game_id: int
    player_id: str | None
    since: float
    reminders_sent: int = 0
    next_at: float | None = None
    idle_flagged: bool = False
    last_nudge_at: float | None = None


@dataclass
class UserPrefs:
    """A user's reminder preferences; quiet hours are minutes after local midnight."""

    user_id: str
    tz: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    dm: bool = False


@dataclass
class SubRequest:
    position: int
    target_user: str
    target_name: str
    requested_by: str
    votes: list[str] = field(default_factory=list)


@dataclass
class ResultRow:
    game_id: int
    position: int
    player_id: str
    name: str
    user_id: str | None
    rank: int
    value: int
    cash: int
    conceded: bool = False


_GAME_COLS = ("id, channel_id, title, optional_rules, seed, host_id, status, engine_version, "
              "created_at, last_ping_seat, status_message_id, guild_id, settings, started_at, ended_at")
_SEAT_COLS = "position, name, user_id, player_id, conceded, last_action_at"
_TURN_COLS = "game_id, player_id, since, reminders_sent, next_at, idle_flagged, last_nudge_at"
_RESULT_COLS = "game_id, position, player_id, name, user_id, rank, value, cash, conceded"


def _game(row: Any) -> GameRow:
    return GameRow(id=row[0], channel_id=row[1], title=row[2], optional_rules=json.loads(row[3]),
                   seed=row[4], host_id=row[5], status=row[6], engine_version=row[7],
                   created_at=row[8], last_ping_seat=row[9], status_message_id=row[10],
                   guild_id=row[11], settings=json.loads(row[12] or "{}"), started_at=row[13],
                   ended_at=row[14])


def _seat(r: Any) -> Seat:
    return Seat(r[0], r[1], r[2], r[3], bool(r[4]), r[5])


def _turn(r: Any) -> Turn:
    return Turn(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6])


def _result(r: Any) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8]))


@dataclass
class _Write:
    """One statement of a transaction, run later with others in one trip to the database thread.
    ``check`` sees the number of rows it changed (and raises :class:`Conflict`)."""

    sql: str
    args: Sequence[Any] = ()
    many: list[Sequence[Any]] | None = None
    check: Callable[[int], None] | None = None
    conflict: str | None = None  # a UNIQUE or PRIMARY KEY refusal means: Conflict(conflict)


class _Tx:
    """The transaction of one command (see :meth:`Store.transaction`). Its writes wait in
    ``pending`` until the command reads, needs a new row's id, or ends: then they go to the
    database thread together (with ``BEGIN IMMEDIATE`` the first time). ``known`` holds what
    :meth:`Store.open_game` read along with the game (its log length, seats and turn clock)
    until the command writes to those tables."""

    def __init__(self, store: Store):
        self.store = store
        self.task = asyncio.current_task()
        self.begun = False
        self.pending: list[_Write] = []
        self.known: dict[tuple[str, int], Any] = {}


_KNOWN_FROM = {"actions": "count", "seats": "seats", "turns": "turn"}
_WRITTEN = re.compile(r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.I)


def _batch(conn: sqlite3.Connection, begin: bool, writes: list[_Write], read: tuple[str, Sequence[Any]] | None,
           commit: bool) -> tuple[tuple[int, int | None], list[Any]]:
    """Runs in the database thread: BEGIN, the writes (checked), a read, COMMIT, as asked."""
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    last: tuple[int, int | None] = (0, None)
    for w in writes:
        try:
            cur = conn.executemany(w.sql, w.many) if w.many is not None else conn.execute(w.sql, tuple(w.args))
        except sqlite3.IntegrityError as exc:
            if w.conflict is None:
                raise
            raise Conflict(w.conflict) from exc
        last = (cur.rowcount, cur.lastrowid)
        cur.close()
        if w.check is not None:
            w.check(last[0])
    rows: list[Any] = []
    if read is not None:
        cur = conn.execute(*read)
        rows = cur.fetchall()
        cur.close()
    if commit:
        conn.execute("COMMIT")
    return last, rows


_TX: ContextVar[_Tx | None] = ContextVar("store_tx", default=None)


class Store:
    """One SQLite database; open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str = ""):
        self.db = db
        self.path = path
        self._lock = asyncio.Lock()  # the connection: one transaction (or one read) at a time

    @classmethod
    async def open(cls, path: str) -> Store:
        """Open (or create) the database at ``path``; :class:`StoreError` when it cannot be used."""
        if path != ":memory:" and os.path.exists(path) and not os.path.isfile(path):
            raise StoreError(f"{path} is not a database file")
        try:  # transactions are explicit; "file:" paths are SQLite URIs (file:x.db?mode=ro)
            db = await aiosqlite.connect(path, isolation_level=None, uri=path.startswith("file:"))
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the database {path}: {exc}") from None
        store = cls(db, path)
        try:
            await store._prepare()
        except (sqlite3.Error, StoreError) as exc:
            await db.close()  # its worker thread would otherwise keep the process alive
            raise StoreError(_why(path, exc)) from None
        except BaseException:
            await db.close()
            raise
        return store

    async def _prepare(self) -> None:
        await self._exec("PRAGMA busy_timeout=5000")
        problems = [str(r[0]) for r in await self.db.execute_fetchall("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StoreError("; ".join(problems[:3]))
        await self.db.execute_fetchall("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (not a power cut).
        await self._exec("PRAGMA synchronous=NORMAL")
        await self._exec("PRAGMA foreign_keys=ON")
        await self._exec("BEGIN IMMEDIATE")  # can we write at all? (read-only file or folder)
        try:
            await self._exec("CREATE TABLE write_probe (x)")
        finally:
            await self._rollback()
        await self.migrate()

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(f"its schema {version} is newer than this bot's ({SCHEMA_VERSION}); "
                             "run the newer bot or restore a backup")
        for i in range(version, SCHEMA_VERSION):
            await self.db.executescript(f"BEGIN; {MIGRATIONS[i]} PRAGMA user_version = {i + 1}; COMMIT;")

    # ------------------------------------------------------------------ transactions and statements
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Every write inside lands, or none does (on an exception). Joins an enclosing one."""
        outer = _TX.get()
        if outer is not None and outer.store is self and outer.task is asyncio.current_task():
            yield
            return
        tx = _Tx(self)
        token = _TX.set(tx)
        try:
            yield
            if tx.pending or tx.begun:
                await self._flush(tx, commit=True)
        except BaseException:
            if tx.begun:
                await self._rollback()
            raise
        finally:
            _TX.reset(token)
            if tx.begun:
                self._lock.release()

    async def _flush(self, tx: _Tx, read: tuple[str, Sequence[Any]] | None = None, commit: bool = False
                     ) -> tuple[tuple[int, int | None], list[Any]]:
        """Send the transaction's waiting writes (and a read, and the commit) in one trip."""
        begin = not tx.begun
        if begin:
            await self._lock.acquire()
            tx.begun = True  # from here on the transaction ends with COMMIT or ROLLBACK
        writes, tx.pending = tx.pending, []
        return await self._run_batch(begin, writes, read, commit)

    async def _run_batch(self, begin: bool, writes: list[_Write], read: tuple[str, Sequence[Any]] | None,
                         commit: bool) -> tuple[tuple[int, int | None], list[Any]]:
        """:func:`_batch` in the connection's thread."""
        # aiosqlite runs a function in its connection's thread with _execute (not public API, untyped)
        execute: Callable[..., Awaitable[tuple[tuple[int, int | None], list[Any]]]] = self.db._execute
        return await execute(_batch, self.db._conn, begin, writes, read, commit)

    async def _exec(self, sql: str) -> None:
        cur = await self.db.execute(sql)
        await cur.close()

    async def _rollback(self) -> None:
        try:
            await self._exec("ROLLBACK")
        except sqlite3.Error:  # SQLite may have rolled back already (disk full, I/O error)
            pass

    def writing(self) -> bool:
        """Whether the current task has written in its transaction (not committed yet)."""
        tx = self._mine()
        return tx is not None and (tx.begun or bool(tx.pending))

    def _mine(self) -> _Tx | None:
        """The current task's transaction on this store, if any."""
        tx = _TX.get()
        return tx if tx is not None and tx.store is self and tx.task is asyncio.current_task() else None

    async def _write(self, sql: str, args: Sequence[Any] = (), *, many: Iterable[Sequence[Any]] | None = None,
                     check: Callable[[int], None] | None = None, conflict: str | None = None, now: bool = False
                     ) -> tuple[int, int | None]:
        """One write. Inside a transaction it waits to go with the others (``now``: at once, for
        the returned (rows changed, last row id)); outside, it is a transaction of its own."""
        write = _Write(sql, args, list(many) if many is not None else None, check, conflict)
        tx = self._mine()
        if tx is None:
            async with self._lock:
                try:
                    last, _ = await self._run_batch(True, [write], None, True)
                except BaseException:
                    await self._rollback()
                    raise
                return last
        table = _WRITTEN.match(sql)
        kind = _KNOWN_FROM.get(table.group(1).lower()) if table else None
        for key in [k for k in tx.known if k[0] == kind or table is None]:
            del tx.known[key]
        tx.pending.append(write)
        if now:
            return (await self._flush(tx))[0]
        return 0, None

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        tx = self._mine()
        if tx is not None and tx.pending:  # this command's writes first: it reads what it wrote
            return (await self._flush(tx, (sql, tuple(args))))[1]
        if tx is not None and tx.begun:  # the connection is ours already
            return list(await self.db.execute_fetchall(sql, tuple(args)))
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, tuple(args)))

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    # ------------------------------------------------------------------ games
    async def create_game(self, channel_id: str, title: str, optional_rules: list[str], host_id: str,
                          engine_version: str, *, status: str = "lobby", seed: int | None = None,
                          guild_id: str | None = None, started_at: float | None = None) -> int:
        _, gid = await self._write(
            "INSERT INTO games (channel_id, title, optional_rules, seed, host_id, status, engine_version,"
            " created_at, guild_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (channel_id, title, json.dumps(optional_rules), seed, host_id, status, engine_version, time.time(),
             guild_id, started_at), now=True)
        assert gid is not None
        return gid

    async def open_game(self, channel_id: str) -> GameRow | None:
        """The game in ``channel_id`` that has not ended, if any. Inside a command its log length
        and seats come along in the same query (one trip to the database thread, not three)."""
        tx = self._mine()
        if tx is None:
            row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status != 'ended'",
                                  (channel_id,))
            return _game(row) if row else None
        row = await self._one(
            f"SELECT {_GAME_COLS}, (SELECT COALESCE(MAX(seq), 0) FROM actions a WHERE a.game_id = g.id), "
            f"(SELECT json_group_array(json_array({_as_json(_SEAT_COLS)})) FROM "
            f"(SELECT {_SEAT_COLS} FROM seats s WHERE s.game_id = g.id ORDER BY position)), "
            f"(SELECT json_array({_as_json(_TURN_COLS)}) FROM turns t WHERE t.game_id = g.id) "
            "FROM games g WHERE channel_id = ? AND status != 'ended'", (channel_id,))
        if not row:
            return None
        game = _game(row)
        n = len(_GAME_COLS.split(","))
        tx.known[("count", game.id)] = int(row[n])
        tx.known[("seats", game.id)] = [_from_json(r, _SEAT_COLS) for r in json.loads(row[n + 1])]
        tx.known[("turn", game.id)] = _from_json(json.loads(row[n + 2]), _TURN_COLS) if row[n + 2] else None
        return game

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def all_games(self) -> list[GameRow]:
        return [_game(r) for r in await self._all(f"SELECT {_GAME_COLS} FROM games ORDER BY id")]

    async def channel_games(self, channel_id: str) -> list[GameRow]:
        return [_game(r) for r in await self._all(f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? ORDER BY id",
                                                  (channel_id,))]

    async def active_games(self) -> list[GameRow]:
        return [_game(r) for r in await self._all(f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' "
                                                  "ORDER BY id")]

    async def games_in_guild(self, guild_id: str | None, status: str) -> list[GameRow]:
        """A server's games with ``status`` ('active' or 'ended'). Outside a server (``guild_id``
        None) only games recorded without a server: nothing of any server is listed there."""
        return [_game(r) for r in await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status = ? AND guild_id IS ? ORDER BY id", (status, guild_id))]

    async def set_optional_rules(self, game_id: int, optional_rules: list[str]) -> None:
        await self.db.execute("UPDATE games SET optional_rules = ? WHERE id = ?",
                              (json.dumps(optional_rules), game_id))
        await self.db.commit()

    async def set_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self._write("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))

    async def start_game(self, game_id: int, seed: int | None, seats: list[Seat],
                         started_at: float | None = None) -> None:
        await self._write(
            "UPDATE games SET status = 'active', seed = ?, started_at = ? WHERE id = ? AND status = 'lobby'",
            (seed, started_at if started_at is not None else time.time(), game_id),
            check=_changed("the game was started or ended at the same moment"))
        await self._write("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._insert_seats(game_id, seats)

    async def end_game(self, game_id: int, at: float | None = None) -> None:
        await self._write("UPDATE games SET status = 'ended', ended_at = ? WHERE id = ? AND status != 'ended'",
                          (at if at is not None else time.time(), game_id))
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
            return [_seat(r) for r in tx.known[("seats", game_id)]]
        return [_seat(r) for r in await self._all(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position", (game_id,))]

    async def _insert_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self._write(
            "INSERT INTO seats (game_id, position, name, user_id, player_id, conceded, last_action_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            many=[(game_id, s.position, s.name, s.user_id, s.player_id, int(s.conceded), s.last_action_at)
                  for s in seats])

    async def add_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self._insert_seats(game_id, seats)

    async def remove_seat(self, game_id: int, position: int) -> None:
        await self._write("DELETE FROM seats WHERE game_id = ? AND position = ?", (game_id, position))

    async def set_seat_user(self, game_id: int, position: int, user_id: str | None, *,
                            was: object = ANYONE) -> None:
        """Hand a seat to ``user_id``; with ``was``, only if the seat is still held by ``was``
        (:class:`Conflict` otherwise: someone else took or handed it at the same moment)."""
        if was is ANYONE:
            await self._write("UPDATE seats SET user_id = ? WHERE game_id = ? AND position = ?",
                              (user_id, game_id, position))
            return
        await self._write("UPDATE seats SET user_id = ? WHERE game_id = ? AND position = ? AND user_id IS ?",
                          (user_id, game_id, position, was), check=_changed("the seat changed hands at the same moment"))

    async def set_seat_conceded(self, game_id: int, position: int, conceded: bool) -> None:
        await self._write("UPDATE seats SET conceded = ? WHERE game_id = ? AND position = ?",
                          (int(conceded), game_id, position))

    async def touch_seat(self, game_id: int, player_id: str, at: float) -> None:
        """Record that the seat of ``player_id`` acted at ``at`` (for "silent for N days")."""
        await self._write("UPDATE seats SET last_action_at = ? WHERE game_id = ? AND player_id = ?",
                          (at, game_id, player_id))

    # ------------------------------------------------------------------ the action log
    async def append_actions(self, game_id: int, items: list[dict[str, Any]], user_id: str | None, *,
                             seq: int) -> list[int]:
        """Append actions at log positions ``seq``, ``seq + 1``, ...: the positions the writer's
        state was built from (its state id + 1). A writer that got there first makes this a
        :class:`Conflict`: the primary key refuses a second row at a position."""
        now = time.time()
        rows = [(game_id, seq + i, json.dumps(d), user_id, now) for i, d in enumerate(items)]
        await self._write("INSERT INTO actions (game_id, seq, data, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                          many=rows, conflict="another move was recorded at the same moment")
        return [r[1] for r in rows]

    async def append_action(self, game_id: int, data: dict[str, Any], user_id: str | None, *,
                            seq: int | None = None) -> int:
        """Append one action at position ``seq`` (None: after the last one, in one statement)."""
        if seq is not None:
            return (await self.append_actions(game_id, [data], user_id, seq=seq))[-1]
        await self._write(
            "INSERT INTO actions (game_id, seq, data, user_id, created_at) "
            "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ? FROM actions WHERE game_id = ?",
            (game_id, json.dumps(data), user_id, time.time(), game_id))
        return await self.action_count(game_id)

    async def action_count(self, game_id: int) -> int:
        tx = self._mine()
        if tx is not None and ("count", game_id) in tx.known:
            return int(tx.known[("count", game_id)])
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def actions(self, game_id: int, after: int = 0) -> list[LoggedAction]:
        return [LoggedAction(r[0], json.loads(r[1]), r[2]) for r in await self._all(
            "SELECT seq, data, user_id FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after))]

    # ------------------------------------------------------------------ undo votes
    async def undo_request(self, game_id: int, state_id: int) -> UndoRequest | None:
        row = await self._one(
            "SELECT state_id, requested_by, votes FROM undo_requests WHERE game_id = ? AND state_id = ?",
            (game_id, state_id))
        return UndoRequest(row[0], row[1], json.loads(row[2])) if row else None

    async def save_undo_request(self, game_id: int, req: UndoRequest, was: list[str] | None = None) -> None:
        """A new request (``was`` None), or a vote: only if the votes are still ``was``."""
        if was is None:
            await self._write(
                "INSERT OR REPLACE INTO undo_requests (game_id, state_id, requested_by, votes, created_at) "
                "VALUES (?, ?, ?, ?, ?)", (game_id, req.state_id, req.requested_by, json.dumps(req.votes), time.time()))
            return
        await self._write("UPDATE undo_requests SET votes = ? WHERE game_id = ? AND state_id = ? AND votes = ?",
                          (json.dumps(req.votes), game_id, req.state_id, json.dumps(was)),
                          check=_changed("someone else voted at the same moment"))

    # ------------------------------------------------------------------ turns and reminders
    async def turn(self, game_id: int) -> Turn | None:
        tx = self._mine()
        if tx is not None and ("turn", game_id) in tx.known:
            known = tx.known[("turn", game_id)]
            return _turn(known) if known else None
        row = await self._one(f"SELECT {_TURN_COLS} FROM turns WHERE game_id = ?", (game_id,))
        return _turn(row) if row else None

    async def save_turn(self, t: Turn) -> None:
        await self._write(
            f"INSERT OR REPLACE INTO turns ({_TURN_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (t.game_id, t.player_id, t.since, t.reminders_sent, t.next_at, int(t.idle_flagged), t.last_nudge_at))

    async def delete_turn(self, game_id: int) -> None:
        await self._write("DELETE FROM turns WHERE game_id = ?", (game_id,))

    async def log_reminder(self, game_id: int, player_id: str | None, user_id: str, kind: str, dm: bool,
                           at: float) -> None:
        await self._write(
            "INSERT INTO reminders_sent (game_id, player_id, user_id, kind, dm, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, player_id, user_id, kind, int(dm), at))

    async def reminders_log(self, game_id: int) -> list[tuple[str | None, str, str, bool, float]]:
        return [(r[0], r[1], r[2], bool(r[3]), r[4]) for r in await self._all(
            "SELECT player_id, user_id, kind, dm, sent_at FROM reminders_sent WHERE game_id = ? ORDER BY rowid",
            (game_id,))]

    async def prefs(self, user_id: str) -> UserPrefs:
        r = await self._one("SELECT user_id, tz, quiet_start, quiet_end, dm FROM user_prefs WHERE user_id = ?",
                            (user_id,))
        return UserPrefs(r[0], r[1], r[2], r[3], bool(r[4])) if r else UserPrefs(user_id)

    async def save_prefs(self, p: UserPrefs) -> None:
        await self._write(
            "INSERT OR REPLACE INTO user_prefs (user_id, tz, quiet_start, quiet_end, dm) VALUES (?, ?, ?, ?, ?)",
            (p.user_id, p.tz, p.quiet_start, p.quiet_end, int(p.dm)))

    # ------------------------------------------------------------------ substitutes
    async def sub_request(self, game_id: int, position: int) -> SubRequest | None:
        r = await self._one(
            "SELECT position, target_user, target_name, requested_by, votes FROM sub_requests "
            "WHERE game_id = ? AND position = ?", (game_id, position))
        return SubRequest(r[0], r[1], r[2], r[3], json.loads(r[4])) if r else None

    async def save_sub_request(self, game_id: int, req: SubRequest, at: float, was: list[str] | None = None) -> None:
        """A new vote on a seat (``was`` None), or a vote in it: only if the votes are still ``was``."""
        if was is None:
            await self._write(
                "INSERT OR REPLACE INTO sub_requests (game_id, position, target_user, target_name, requested_by,"
                " votes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, req.position, req.target_user, req.target_name, req.requested_by, json.dumps(req.votes),
                 at))
            return
        await self._write("UPDATE sub_requests SET votes = ? WHERE game_id = ? AND position = ? AND votes = ?",
                          (json.dumps(req.votes), game_id, req.position, json.dumps(was)),
                          check=_changed("someone else voted at the same moment"))

    async def delete_sub_request(self, game_id: int, position: int) -> None:
        await self._write("DELETE FROM sub_requests WHERE game_id = ? AND position = ?", (game_id, position))

    # ------------------------------------------------------------------ final standings
    async def save_results(self, rows: list[ResultRow]) -> None:
        await self._write(
            f"INSERT OR REPLACE INTO results ({_RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            many=[(r.game_id, r.position, r.player_id, r.name, r.user_id, r.rank, r.value, r.cash, int(r.conceded))
                  for r in rows])

    async def results(self, game_id: int) -> list[ResultRow]:
        return [_result(r) for r in await self._all(
            f"SELECT {_RESULT_COLS} FROM results WHERE game_id = ? ORDER BY rank, position", (game_id,))]

    async def results_of_user(self, user_id: str, guild_id: str | None) -> list[ResultRow]:
        """Every final standing of ``user_id`` in games of ``guild_id`` (None: games without a server)."""
        cols = ", ".join("r." + c.strip() for c in _RESULT_COLS.split(","))
        return [_result(r) for r in await self._all(
            f"SELECT {cols} FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ? AND g.guild_id IS ?"
            " ORDER BY r.game_id", (user_id, guild_id))]

    # ------------------------------------------------------------------ server settings
    async def creator_role(self, guild_id: str) -> str | None:
        """The role a member needs to open games on the server (None: anyone may)."""
        row = await self._one("SELECT creator_role FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None

    async def set_creator_role(self, guild_id: str, role: str | None) -> None:
        await self._write("INSERT OR REPLACE INTO guild_settings (guild_id, creator_role) VALUES (?, ?)",
                          (guild_id, role))

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (tests compare dumps to prove nothing changed)."""
        return {table: [tuple(r) for r in await self._all(f"SELECT * FROM {table} ORDER BY 1, 2")]
                for table in TABLES}


_REALS = ("last_action_at", "since", "next_at", "last_nudge_at")  # times, stored as REAL


def _as_json(cols: str) -> str:
    """Columns for json_array(); times go as quote() text, exact (JSON keeps 15 digits only)."""
    return ", ".join(f"quote({c.strip()})" if c.strip() in _REALS else c.strip() for c in cols.split(","))


def _from_json(values: list[Any], cols: str) -> tuple[Any, ...]:
    names = [c.strip() for c in cols.split(",")]
    return tuple(v if name not in _REALS else None if v == "NULL" else float(v)
                 for v, name in zip(values, names, strict=True))


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


def _why(path: str, exc: BaseException) -> str:
    """A clear sentence for the operator about a database that cannot be used."""
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low or "unable to open" in low:
        return (f"The database {path} cannot be written ({text}). Check the file's and its folder's "
                "permissions and free space, or point DATABASE_PATH / --db elsewhere.")
    if "not a database" in low or "malformed" in low or isinstance(exc, StoreError) and "newer" not in low:
        return (f"The database {path} is damaged ({text}). Restore a backup, or move the file away to "
                "start with an empty database.")
    return f"The database {path} cannot be used: {text}"
