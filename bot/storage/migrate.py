"""``conductor migrate --from SQLITE_PATH --to postgresql://...``: move a bot's database.

Every row of every table (games, seats, the action logs, undo and substitute votes, turn clocks,
reminders sent, user preferences, final standings, server settings) is copied in one transaction
on the target, so a failure leaves it empty. The target must be empty: a database that already
holds anything is refused, never merged into. Afterwards every table is compared row by row and
every game is replayed on both sides: the same state, or the same refusal for a log that did not
replay in the source either.
"""

from __future__ import annotations

import os
from typing import Any

from engine.replay import snapshot

from ..gamelog import build_game
from .pg import PgDatabase, shown
from .store import TABLES, Store, StoreError


class MigrateError(Exception):
    """The move was refused or did not check out; the message says why (nothing is kept)."""


async def _rows(store: Store, table: str, cols: str) -> list[tuple[Any, ...]]:
    order = "rowid" if not isinstance(store, PgDatabase) else ("rowid" if table == "reminders_sent" else "1, 2")
    return [tuple(r) for r in await store._all(f"SELECT {cols} FROM {table} ORDER BY {order}")]


async def _outcome(store: Store, game_id: int) -> Any:
    """A game's replayed state, or the reason it does not replay."""
    row = await store.game(game_id)
    assert row is not None
    try:
        game = build_game(row, await store.seats(game_id), [e.data for e in await store.actions(game_id)])
    except Exception as exc:  # the same refusal on both sides is a faithful copy
        return ("does not replay", type(exc).__name__, str(exc))
    return snapshot(game, {})


async def migrate(source: str, target: str) -> dict[str, int]:
    """Copy ``source`` into the empty ``target``, then check it; rows copied per table."""
    if not os.path.isfile(source):
        raise MigrateError(f"{shown(source)} is not a SQLite database file (--from takes the bot's SQLite file)")
    if source == target:
        raise MigrateError("the source and the target are the same database")
    src = await Store.open(source)
    try:
        dst = await Store.open(target)
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Store, dst: Store) -> dict[str, int]:
    cols = await src.columns()
    for table in TABLES:
        if await dst._one(f"SELECT 1 FROM {table} LIMIT 1"):
            raise MigrateError(f"the target already holds data (table {table}); it must be an empty database")
    counts: dict[str, int] = {}
    async with dst.transaction():
        for table in TABLES:
            rows = await _rows(src, table, cols[table])
            counts[table] = len(rows)
            if rows:
                marks = ", ".join("?" for _ in cols[table].split(","))
                await dst._write(f"INSERT INTO {table} ({cols[table]}) VALUES ({marks})", many=rows)
        if isinstance(dst, PgDatabase):  # new games are numbered after the copied ones
            await dst._all("SELECT setval(pg_get_serial_sequence('games', 'id'), GREATEST(MAX(id), 1)) FROM games")
        await _check(src, dst, cols)  # before the commit: a copy that does not check out is not kept
    return counts


async def _check(src: Store, dst: Store, cols: dict[str, str]) -> None:
    for table in TABLES:
        mine, theirs = await _rows(src, table, cols[table]), await _rows(dst, table, cols[table])
        if sorted(map(repr, mine)) != sorted(map(repr, theirs)):
            raise MigrateError(f"table {table} differs on the target after the copy")
    for row in await src.all_games():
        if await _outcome(src, row.id) != await _outcome(dst, row.id):
            raise MigrateError(f"game {row.id} does not replay to the same state on the target")


async def run_migrate(source: str, target: str) -> str:
    """The CLI's work: one line saying what was moved (:class:`MigrateError` / StoreError otherwise)."""
    try:
        counts = await migrate(source, target)
    except StoreError as exc:
        raise MigrateError(str(exc)) from None
    copied = ", ".join(_count(counts[table], what) for table, what in _COPIED)
    return f"copied {copied}; every game replays to the same state on the target"


_COPIED = (("games", "game"), ("seats", "seat"), ("actions", "action"), ("turns", "turn clock"),
           ("reminders_sent", "reminder"), ("user_prefs", "user preference"), ("guild_settings", "server setting"))


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")
