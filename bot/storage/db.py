"""The transactions under :mod:`bot.storage.store`, shared by both engines (:class:`Transactions`), and
the SQLite engine (:class:`Database`: aiosqlite, WAL mode). PostgreSQL is :mod:`bot.storage.pg`.

Transactions: the writes made inside :meth:`Database.transaction` (the command layer opens one per
command) land together or not at all. The one connection is held by one transaction at a time,
from its first write (``BEGIN IMMEDIATE``) to its end; reads made meanwhile by other commands
wait, so nobody sees half a command, and every cursor is closed after use. Across processes
SQLite's own lock serializes writers, and conflicts are refused rather than merged: a write that
must change a row and changes none, or breaks a UNIQUE or PRIMARY KEY rule that stands for
"someone came first", raises :class:`~bot.storage.rows.Conflict`.

:meth:`Database.open` creates a missing folder for the file, refuses a database it cannot use (not a
database, damaged by ``PRAGMA quick_check``, read-only, from a newer bot) with one line,
:class:`~bot.storage.rows.StoreError`, and migrates an older schema (:mod:`bot.storage.schema`).
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Self

import aiosqlite

from .rows import Conflict, StoreError, decode_text
from .schema import MIGRATIONS, SCHEMA_VERSION


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
    """The transaction of one command (see :meth:`Database.transaction`). Its writes wait in
    ``pending`` until the command reads, needs a new row's id, or ends: then they go to the
    database thread together (with ``BEGIN IMMEDIATE`` the first time). ``known`` holds what
    :meth:`bot.storage.store.Store.open_game` read along with the game (its log length, seats, turn
    clock and the votes at its position) until the command writes to those tables."""

    def __init__(self, store: Transactions):
        self.store = store
        self.task = asyncio.current_task()
        self.begun = False
        self.pending: list[_Write] = []
        self.known: dict[tuple[str, int], Any] = {}
        self.handle: Any = None  # the engine's connection (PostgreSQL) while the transaction runs
        self.locked: set[int] = set()  # games whose log this transaction has locked (PostgreSQL)


_KNOWN_FROM = {"actions": "count", "seats": "seats", "turns": "turn", "undo_requests": "undo"}
_WRITTEN = re.compile(r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.I)


def _batch(
    conn: sqlite3.Connection,
    begin: bool,
    writes: list[_Write],
    read: tuple[str, Sequence[Any]] | None,
    commit: bool,
) -> tuple[tuple[int, int | None], list[Any]]:
    """Runs in the database thread: BEGIN, the writes (checked), a read, COMMIT, as asked."""
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    last: tuple[int, int | None] = (0, None)
    for w in writes:
        try:
            cur = (
                conn.executemany(w.sql, w.many) if w.many is not None else conn.execute(w.sql, tuple(w.args))
            )
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


class Transactions:
    """What both engines share: one command's transaction (:meth:`transaction`), its writes
    waiting to go together, the reads it folds in, and :class:`Conflict` for a lost race. An
    engine supplies five primitives: :meth:`_acquire` / :meth:`_release` a connection for one
    transaction, :meth:`_batch` (BEGIN, writes, a read, COMMIT, as asked), :meth:`_read` and
    :meth:`_rollback`. :data:`FOLD_READS`: :meth:`bot.storage.store.Store.open_game` may read the seats
    and turn clock along with the game in one query (SQLite's JSON functions)."""

    FOLD_READS = False
    path = ""

    async def _acquire(self, tx: _Tx) -> None:
        raise NotImplementedError

    async def _release(self, tx: _Tx) -> None:
        raise NotImplementedError

    async def _batch(
        self, tx: _Tx, begin: bool, writes: list[_Write], read: tuple[str, Sequence[Any]] | None, commit: bool
    ) -> tuple[tuple[int, int | None], list[Any]]:
        raise NotImplementedError

    async def _read(self, tx: _Tx | None, sql: str, args: Sequence[Any]) -> list[Any]:
        """A read outside a transaction (``tx`` None) or on a transaction's own connection."""
        raise NotImplementedError

    async def _rollback(self, tx: _Tx) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

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
                await self._rollback(tx)
            raise
        finally:
            _TX.reset(token)
            if tx.begun:
                await self._release(tx)

    async def _flush(
        self, tx: _Tx, read: tuple[str, Sequence[Any]] | None = None, commit: bool = False
    ) -> tuple[tuple[int, int | None], list[Any]]:
        """Send the transaction's waiting writes (and a read, and the commit) in one trip."""
        begin = not tx.begun
        if begin:
            await self._acquire(tx)
            tx.begun = True  # from here on the transaction ends with COMMIT or ROLLBACK
        writes, tx.pending = tx.pending, []
        return await self._batch(tx, begin, writes, read, commit)

    def writing(self) -> bool:
        """Whether the current task has written in its transaction (not committed yet)."""
        tx = self._mine()
        return tx is not None and (tx.begun or bool(tx.pending))

    def _mine(self) -> _Tx | None:
        """The current task's transaction on this store, if any."""
        tx = _TX.get()
        return tx if tx is not None and tx.store is self and tx.task is asyncio.current_task() else None

    async def _write(
        self,
        sql: str,
        args: Sequence[Any] = (),
        *,
        many: Iterable[Sequence[Any]] | None = None,
        check: Callable[[int], None] | None = None,
        conflict: str | None = None,
        now: bool = False,
    ) -> tuple[int, int | None]:
        """One write. Inside a transaction it waits to go with the others (``now``: at once, for
        the returned (rows changed, last row id)); outside, it is a transaction of its own."""
        write = _Write(sql, args, list(many) if many is not None else None, check, conflict)
        tx = self._mine()
        if tx is None:
            alone = _Tx(self)
            await self._acquire(alone)
            try:
                last, _ = await self._batch(alone, True, [write], None, True)
            except BaseException:
                await self._rollback(alone)
                raise
            finally:
                await self._release(alone)
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
        return await self._read(tx if tx is not None and tx.begun else None, sql, tuple(args))

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, args)
        return rows[0] if rows else None


class Database(Transactions):
    """One SQLite connection; :class:`bot.storage.store.Store` adds the tables."""

    FOLD_READS = True

    def __init__(self, db: aiosqlite.Connection, path: str = ""):
        self.db = db
        self.path = path
        self._lock = asyncio.Lock()  # the connection: one transaction (or one read) at a time

    @classmethod
    async def open(cls, path: str) -> Self:
        """Open (or create) the database at ``path``; :class:`StoreError` when it cannot be used."""
        if path != ":memory:" and os.path.exists(path) and not os.path.isfile(path):
            raise StoreError(f"{path} is not a database file")
        _make_folder(path)
        # transactions are explicit; "file:" paths are SQLite URIs (file:x.db?mode=ro)
        connecting = aiosqlite.connect(path, isolation_level=None, uri=path.startswith("file:"))
        try:
            db = await connecting
        except sqlite3.Error as exc:
            # aiosqlite stops its worker thread without waiting; wait for it while the event loop
            # runs, or the thread fails later on the closed loop (a traceback after our one line)
            await asyncio.to_thread(connecting._thread.join, 10)
            raise StoreError(
                f"Cannot open the database {os.path.abspath(path)}: {exc}. Check that its folder exists "
                "and may be written, or point DATABASE_PATH / --db elsewhere."
            ) from None
        db.text_factory = decode_text  # a row that is not UTF-8 is read, not an error (issue 28)
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
            await self._rollback_now()
        await self.migrate()

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(newer_schema(version))
        for i in range(version, SCHEMA_VERSION):
            await self.db.executescript(f"BEGIN; {MIGRATIONS[i]} PRAGMA user_version = {i + 1}; COMMIT;")

    # ------------------------------------------------------------------ the engine's primitives
    async def _acquire(self, tx: _Tx) -> None:
        await self._lock.acquire()

    async def _release(self, tx: _Tx) -> None:
        self._lock.release()

    async def _batch(
        self, tx: _Tx, begin: bool, writes: list[_Write], read: tuple[str, Sequence[Any]] | None, commit: bool
    ) -> tuple[tuple[int, int | None], list[Any]]:
        """:func:`_batch` in the connection's thread."""
        # aiosqlite runs a function in its connection's thread with _execute (not public API, untyped)
        execute: Callable[..., Awaitable[tuple[tuple[int, int | None], list[Any]]]] = self.db._execute
        return await execute(_batch, self.db._conn, begin, writes, read, commit)

    async def _read(self, tx: _Tx | None, sql: str, args: Sequence[Any]) -> list[Any]:
        if tx is not None:  # the connection is ours already
            return list(await self.db.execute_fetchall(sql, tuple(args)))
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, tuple(args)))

    async def _exec(self, sql: str) -> None:
        cur = await self.db.execute(sql)
        await cur.close()

    async def _rollback(self, tx: _Tx) -> None:
        await self._rollback_now()

    async def _rollback_now(self) -> None:
        try:
            await self._exec("ROLLBACK")
        except sqlite3.Error:  # SQLite may have rolled back already (disk full, I/O error)
            pass


def _make_folder(path: str) -> None:
    """Create the missing folder of a database file (as the pictures' folder is created)."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        why = "a file is in the way" if isinstance(exc, FileExistsError | NotADirectoryError) else exc.strerror
        raise StoreError(f"Cannot create the folder {folder} for the database {path}: {why or exc}") from None


def newer_schema(version: int) -> str:
    return (
        f"its schema {version} is newer than this bot's ({SCHEMA_VERSION}); "
        "run the newer bot or restore a backup"
    )


def _why(path: str, exc: BaseException) -> str:
    """A clear sentence for the operator about a database that cannot be used."""
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low or "unable to open" in low:
        return (
            f"The database {path} cannot be written ({text}). Check the file's and its folder's "
            "permissions and free space, or point DATABASE_PATH / --db elsewhere."
        )
    if "not a database" in low or "malformed" in low or isinstance(exc, StoreError) and "newer" not in low:
        return (
            f"The database {path} is damaged ({text}). Restore a backup, or move the file away to "
            "start with an empty database."
        )
    return f"The database {path} cannot be used: {text}"
