"""The PostgreSQL engine under :mod:`bot.storage.store` (asyncpg, a connection pool): for several bot
processes on one database.

Everything above the engine is shared with SQLite (:class:`bot.storage.db.Transactions`): one
transaction per command, its writes sent together, acknowledged only after COMMIT. Here each
transaction holds a pooled connection from its first write to its end. The same statements run
on both engines; :func:`dml` rewrites the few SQLite forms (``?`` parameters, ``IS ?``,
``INSERT OR REPLACE``) and :func:`bot.storage.schema.pg_ddl` the migrations, so the dialect lives in
these two places.

Two writers can never both append to one game's log: the primary key (game_id, seq) refuses a
second row at a position, and a transaction that writes to ``actions`` first takes the game's
advisory lock (``pg_advisory_xact_lock``), so appends to one game queue up instead of racing.
PostgreSQL's errors reach the command layer as SQLite's classes (:class:`PgIntegrityError`,
:class:`PgError`), which it already handles: a refused duplicate is "changed at the same moment",
a server that cannot be reached (:class:`PgUnreachable`) is "cannot reach its database right now;
nothing was changed" (:func:`bot.storage.store.unsaved_text`), logged in one line per command (and
asyncpg's own reconnection attempts in one line each, not a traceback). A connection the server dropped
while it sat in the pool (a restart, a failover) is replaced without a word when it is found out
at a read or at the start of a transaction, where nothing of the command was sent yet.

The schema version is the one row of ``schema_version``; migrations run under an advisory lock,
so processes starting together migrate once.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from ..config import SettingsError, pool_size
from .db import Transactions, _Tx, _Write, newer_schema
from .rows import Conflict, StoreError
from .schema import PG_PRIMARY_KEYS, SCHEMA_VERSION, pg_ddl

URL_SCHEMES = ("postgresql://", "postgres://")
_LOCK_SPACE = 26  # advisory locks: (26, game id) a game's log, (26, 0) migrations
# A process that hangs inside a transaction (stopped, not killed) must not hold a game's lock for
# long: a command waits for a lock at most 10 s (then it is "changed at the same moment"), and the
# server ends a transaction left idle for a minute (rolled back: nothing of it is kept).
_SESSION = {"lock_timeout": "10s", "idle_in_transaction_session_timeout": "60s"}


def is_pg_url(target: str) -> bool:
    """Whether a ``--db`` / ``DATABASE_URL`` value names a PostgreSQL database."""
    return target.startswith(URL_SCHEMES)


def shown(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


class PgIntegrityError(sqlite3.IntegrityError):
    """A PostgreSQL constraint refused a write (the command layer handles SQLite's class)."""


class PgError(sqlite3.OperationalError):
    """PostgreSQL could not run a statement (connection lost, server shutting down, ...)."""


class PgUnreachable(PgError):
    """The server cannot be reached now: down, restarting, refusing connections, or the network."""


UNREACHABLE_TEXT = (
    "The bot cannot reach its database right now, so nothing was changed. Please try again in a minute."
)


class _OneLine(logging.Filter):
    """asyncpg's pool logs a traceback each time it fails to reconnect while the server is down
    (after 1, 2, 4, ... seconds, then every minute): one line with the reason instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            reason = str(exc).splitlines()[0] if str(exc) else ""
            record.msg = f"PostgreSQL: {record.getMessage()} ({type(exc).__name__}: {reason})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


_POOL_LOG = logging.getLogger("asyncpg.pool")
if not any(isinstance(f, _OneLine) for f in _POOL_LOG.filters):
    _POOL_LOG.addFilter(_OneLine())


_REPLACE = re.compile(r"^\s*INSERT OR REPLACE INTO (\w+) \(([^)]*)\)(.*)$", re.S | re.I)


@functools.lru_cache(maxsize=512)
def dml(sql: str) -> str:
    """A statement of :mod:`bot.storage.store` in PostgreSQL's dialect."""
    sql = re.sub(r"\bIS \?", "IS NOT DISTINCT FROM ?", sql)
    m = _REPLACE.match(sql)
    if m:
        table, cols, rest = m.group(1), [c.strip() for c in m.group(2).split(",")], m.group(3)
        keys = PG_PRIMARY_KEYS[table]
        update = ", ".join(f"{c} = EXCLUDED.{c}" for c in cols if c not in keys)
        sql = f"INSERT INTO {table} ({', '.join(cols)}){rest} ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {update}"
    if re.match(r"^\s*INSERT INTO games\b", sql):
        sql += " RETURNING id"
    count = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


# what a statement on a lost or broken connection raises
_LOST = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
# ... when the server dropped the connection (a restart, a failover, an administrator): a
# statement that was the first of its transaction, or a read, is tried once more on a new one
_GONE = (
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
)


@contextmanager
def _errors(conflict: str | None = None) -> Iterator[None]:
    """PostgreSQL's errors as the store's (see the module docstring)."""
    try:
        yield
    except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError, asyncpg.LockNotAvailableError) as exc:
        raise Conflict(conflict or "another command changed the same rows at the same moment") from exc
    except asyncpg.IntegrityConstraintViolationError as exc:
        if conflict is not None and isinstance(exc, asyncpg.UniqueViolationError):
            raise Conflict(conflict) from exc
        kind = "UNIQUE constraint failed: " if isinstance(exc, asyncpg.UniqueViolationError) else ""
        raise PgIntegrityError(kind + str(exc)) from exc
    except _LOST as exc:
        gone = isinstance(exc, _GONE) and not isinstance(exc, asyncpg.QueryCanceledError)
        raise (PgUnreachable if gone else PgError)(f"{type(exc).__name__}: {exc}") from exc


class PgDatabase(Transactions):
    """A pool of connections to one PostgreSQL database; :class:`bot.storage.store.Store` adds the tables."""

    FOLD_READS = False  # no SQLite JSON functions: open_game reads seats and clock separately

    def __init__(self, pool: asyncpg.Pool, url: str):
        self.pool = pool
        self.path = shown(url)

    @classmethod
    async def open(cls, path: str) -> Self:
        """Connect and migrate; :class:`StoreError` (one line) when the database cannot be used."""
        try:
            size = pool_size()
        except SettingsError as exc:
            raise StoreError(str(exc)) from None
        try:
            pool = await asyncpg.create_pool(path, min_size=1, max_size=size, timeout=10, server_settings=_SESSION)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StoreError(f"Cannot reach the database {shown(path)}: {why}") from None
        store = cls(pool, path)
        try:
            await store.migrate()
        except (StoreError, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            await pool.close()
            raise StoreError(f"The database {shown(path)} cannot be used: {exc}") from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self.pool.close()

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _version(conn)

    async def migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _LOCK_SPACE)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await _version(conn)
            if version > SCHEMA_VERSION:
                raise StoreError(newer_schema(version))
            for i in range(version, SCHEMA_VERSION):
                await conn.execute(pg_ddl(i))
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", max(version, SCHEMA_VERSION))

    # ------------------------------------------------------------------ the engine's primitives
    async def _acquire(self, tx: _Tx) -> None:
        with _errors():
            tx.handle = await self.pool.acquire()

    async def _release(self, tx: _Tx) -> None:
        if tx.handle is not None:
            conn, tx.handle = tx.handle, None
            try:
                await self.pool.release(conn)
            except _LOST:  # lost with its connection; the pool opens a new one
                pass

    async def _batch(
        self, tx: _Tx, begin: bool, writes: list[_Write], read: tuple[str, Sequence[Any]] | None, commit: bool
    ) -> tuple[tuple[int, int | None], list[Any]]:
        if begin:
            with _errors():
                try:
                    await tx.handle.execute("BEGIN")
                except _GONE:  # nothing was sent yet: start again on a new connection
                    await self.pool.expire_connections()  # the others in the pool were dropped too
                    await self._release(tx)
                    await self._acquire(tx)
                    await tx.handle.execute("BEGIN")
        conn: asyncpg.Connection = tx.handle
        last: tuple[int, int | None] = (0, None)
        for w in writes:
            with _errors(w.conflict):
                await self._lock_log(tx, w)
                sql = dml(w.sql)
                if w.many is not None:
                    await conn.executemany(sql, w.many)
                    last = (len(w.many), None)
                elif sql.endswith(" RETURNING id"):
                    last = (1, await conn.fetchval(sql, *w.args))
                else:
                    status = await conn.execute(sql, *w.args)
                    tail = status.rsplit(" ", 1)[-1]
                    last = (int(tail) if tail.isdigit() else 0, None)
            if w.check is not None:
                w.check(last[0])
        rows: list[Any] = []
        if read is not None:
            with _errors():
                rows = list(await conn.fetch(dml(read[0]), *read[1]))
        if commit:
            with _errors():
                await conn.execute("COMMIT")
        return last, rows

    async def _lock_log(self, tx: _Tx, w: _Write) -> None:
        """Before a transaction's first write to a game's log: that game's advisory lock (held
        until COMMIT or ROLLBACK), so two appends to one game never run side by side."""
        if not re.match(r"^\s*INSERT INTO actions\b", w.sql):
            return
        games = {int(row[0]) for row in w.many} if w.many is not None else {int(w.args[0])}
        for game in sorted(games - tx.locked):
            await tx.handle.execute("SELECT pg_advisory_xact_lock($1, $2)", _LOCK_SPACE, game)
            tx.locked.add(game)

    async def _read(self, tx: _Tx | None, sql: str, args: Sequence[Any]) -> list[Any]:
        with _errors():
            if tx is not None:
                return list(await tx.handle.fetch(dml(sql), *args))
            try:
                return list(await self.pool.fetch(dml(sql), *args))
            except _GONE:  # a read alone: once more, on a new connection
                await self.pool.expire_connections()
                return list(await self.pool.fetch(dml(sql), *args))

    async def _rollback(self, tx: _Tx) -> None:
        conn = tx.handle
        if conn is None:
            return
        try:
            await conn.execute("ROLLBACK")
        except _LOST:  # the connection is gone (the server dropped it): nothing of it was kept
            await self._release(tx)


async def _version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT version FROM schema_version")
    return int(version) if version is not None else 0
