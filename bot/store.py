"""Persistence: games, seats and an append-only action log in SQLite (aiosqlite, WAL mode).

The action log is the truth: a game's state is rebuilt by replaying it. Undo is itself an
appended ``undo`` action, exactly as 18xx.games records it. Every write commits before the
caller replies, so an acknowledged action survives the process being killed.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]`` upgrades version i to i+1.
"""

from __future__ import annotations

import json
import time
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
]

SCHEMA_VERSION = len(MIGRATIONS)


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


@dataclass
class Seat:
    position: int
    name: str
    user_id: str | None
    player_id: str | None = None


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


_GAME_COLS = ("id, channel_id, title, optional_rules, seed, host_id, status, engine_version, "
              "created_at, last_ping_seat, status_message_id")


def _game(row: Any) -> GameRow:
    return GameRow(id=row[0], channel_id=row[1], title=row[2], optional_rules=json.loads(row[3]),
                   seed=row[4], host_id=row[5], status=row[6], engine_version=row[7],
                   created_at=row[8], last_ping_seat=row[9], status_message_id=row[10])


class Store:
    """One SQLite database; open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    @classmethod
    async def open(cls, path: str) -> Store:
        db = await aiosqlite.connect(path)
        await db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (not a power cut).
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this bot ({SCHEMA_VERSION})")
        for i in range(version, SCHEMA_VERSION):
            await self.db.executescript(f"BEGIN; {MIGRATIONS[i]} PRAGMA user_version = {i + 1}; COMMIT;")

    # ------------------------------------------------------------------ games
    async def create_game(self, channel_id: str, title: str, optional_rules: list[str], host_id: str,
                          engine_version: str, *, status: str = "lobby", seed: int | None = None) -> int:
        cur = await self.db.execute(
            "INSERT INTO games (channel_id, title, optional_rules, seed, host_id, status, engine_version,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (channel_id, title, json.dumps(optional_rules), seed, host_id, status, engine_version, time.time()))
        await self.db.commit()
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def open_game(self, channel_id: str) -> GameRow | None:
        """The game in ``channel_id`` that has not ended, if any."""
        async with self.db.execute(f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status != 'ended'",
                                   (channel_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        async with self.db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def all_games(self) -> list[GameRow]:
        async with self.db.execute(f"SELECT {_GAME_COLS} FROM games ORDER BY id") as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def start_game(self, game_id: int, seed: int | None, seats: list[Seat]) -> None:
        await self.db.execute("UPDATE games SET status = 'active', seed = ? WHERE id = ?", (seed, game_id))
        await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._insert_seats(game_id, seats)
        await self.db.commit()

    async def end_game(self, game_id: int) -> None:
        await self.db.execute("UPDATE games SET status = 'ended', ended_at = ? WHERE id = ?",
                              (time.time(), game_id))
        await self.db.commit()

    async def set_last_ping(self, game_id: int, seat: str | None) -> None:
        await self.db.execute("UPDATE games SET last_ping_seat = ? WHERE id = ?", (seat, game_id))
        await self.db.commit()

    async def set_status_message(self, game_id: int, message_id: str | None) -> None:
        await self.db.execute("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))
        await self.db.commit()

    # ------------------------------------------------------------------ seats
    async def seats(self, game_id: int) -> list[Seat]:
        async with self.db.execute(
                "SELECT position, name, user_id, player_id FROM seats WHERE game_id = ? ORDER BY position",
                (game_id,)) as cur:
            return [Seat(*r) for r in await cur.fetchall()]

    async def _insert_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self.db.executemany(
            "INSERT INTO seats (game_id, position, name, user_id, player_id) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.position, s.name, s.user_id, s.player_id) for s in seats])

    async def add_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self._insert_seats(game_id, seats)
        await self.db.commit()

    async def remove_seat(self, game_id: int, position: int) -> None:
        await self.db.execute("DELETE FROM seats WHERE game_id = ? AND position = ?", (game_id, position))
        await self.db.commit()

    async def set_seat_user(self, game_id: int, position: int, user_id: str | None) -> None:
        await self.db.execute("UPDATE seats SET user_id = ? WHERE game_id = ? AND position = ?",
                              (user_id, game_id, position))
        await self.db.commit()

    # ------------------------------------------------------------------ the action log
    async def append_action(self, game_id: int, data: dict[str, Any], user_id: str | None) -> int:
        """Append one action and commit; returns its sequence number (1, 2, ...)."""
        return (await self.append_actions(game_id, [data], user_id))[-1]

    async def append_actions(self, game_id: int, items: list[dict[str, Any]], user_id: str | None) -> list[int]:
        start = await self.action_count(game_id)
        now = time.time()
        rows = [(game_id, start + i + 1, json.dumps(d), user_id, now) for i, d in enumerate(items)]
        await self.db.executemany(
            "INSERT INTO actions (game_id, seq, data, user_id, created_at) VALUES (?, ?, ?, ?, ?)", rows)
        await self.db.commit()
        return [r[1] for r in rows]

    async def action_count(self, game_id: int) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?",
                                   (game_id,)) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def actions(self, game_id: int, after: int = 0) -> list[LoggedAction]:
        async with self.db.execute(
                "SELECT seq, data, user_id FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after)) as cur:
            return [LoggedAction(r[0], json.loads(r[1]), r[2]) for r in await cur.fetchall()]

    # ------------------------------------------------------------------ undo votes
    async def undo_request(self, game_id: int, state_id: int) -> UndoRequest | None:
        async with self.db.execute(
                "SELECT state_id, requested_by, votes FROM undo_requests WHERE game_id = ? AND state_id = ?",
                (game_id, state_id)) as cur:
            row = await cur.fetchone()
        return UndoRequest(row[0], row[1], json.loads(row[2])) if row else None

    async def save_undo_request(self, game_id: int, req: UndoRequest) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO undo_requests (game_id, state_id, requested_by, votes, created_at) "
            "VALUES (?, ?, ?, ?, ?)", (game_id, req.state_id, req.requested_by, json.dumps(req.votes), time.time()))
        await self.db.commit()

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (tests compare dumps to prove nothing changed)."""
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in ("games", "seats", "actions", "undo_requests"):
            async with self.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2") as cur:
                out[table] = [tuple(r) for r in await cur.fetchall()]
        return out
