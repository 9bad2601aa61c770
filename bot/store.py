"""Persistence: games, seats and an append-only action log in SQLite (aiosqlite, WAL mode).

The action log is the truth: a game's state is rebuilt by replaying it. Undo is itself an
appended ``undo`` action, exactly as 18xx.games records it. Every write commits before the
caller replies, so an acknowledged action survives the process being killed.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]`` upgrades version i to i+1.

Besides the log: each game's reminder settings and turn clock (``turns``: whose turn, since when,
reminders sent, when the next one is due), each user's reminder preferences (time zone, quiet
hours, direct messages), seat substitution votes, and the final standings of finished games.
Times stored by the reminder machinery come from the injected clock (unix seconds).
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
                          engine_version: str, *, status: str = "lobby", seed: int | None = None,
                          guild_id: str | None = None, started_at: float | None = None) -> int:
        cur = await self.db.execute(
            "INSERT INTO games (channel_id, title, optional_rules, seed, host_id, status, engine_version,"
            " created_at, guild_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (channel_id, title, json.dumps(optional_rules), seed, host_id, status, engine_version, time.time(),
             guild_id, started_at))
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

    async def games_in_guild(self, guild_id: str | None, status: str) -> list[GameRow]:
        """A server's games with ``status`` ('active' or 'ended'); games without a server id count
        as the caller's when ``guild_id`` is None (local mode, old rows)."""
        if guild_id is None:
            sql, args = f"SELECT {_GAME_COLS} FROM games WHERE status = ? ORDER BY id", (status,)
        else:
            sql, args = (f"SELECT {_GAME_COLS} FROM games WHERE status = ? AND guild_id = ? ORDER BY id",
                         (status, guild_id))
        async with self.db.execute(sql, args) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def set_optional_rules(self, game_id: int, optional_rules: list[str]) -> None:
        await self.db.execute("UPDATE games SET optional_rules = ? WHERE id = ?",
                              (json.dumps(optional_rules), game_id))
        await self.db.commit()

    async def set_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self.db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))
        await self.db.commit()

    async def start_game(self, game_id: int, seed: int | None, seats: list[Seat],
                         started_at: float | None = None) -> None:
        await self.db.execute("UPDATE games SET status = 'active', seed = ?, started_at = ? WHERE id = ?",
                              (seed, started_at if started_at is not None else time.time(), game_id))
        await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._insert_seats(game_id, seats)
        await self.db.commit()

    async def end_game(self, game_id: int, at: float | None = None) -> None:
        await self.db.execute("UPDATE games SET status = 'ended', ended_at = ? WHERE id = ?",
                              (at if at is not None else time.time(), game_id))
        await self.db.execute("DELETE FROM turns WHERE game_id = ?", (game_id,))
        await self.db.execute("DELETE FROM sub_requests WHERE game_id = ?", (game_id,))
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
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position", (game_id,)) as cur:
            return [_seat(r) for r in await cur.fetchall()]

    async def _insert_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self.db.executemany(
            "INSERT INTO seats (game_id, position, name, user_id, player_id, conceded, last_action_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.position, s.name, s.user_id, s.player_id, int(s.conceded), s.last_action_at)
             for s in seats])

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

    async def set_seat_conceded(self, game_id: int, position: int, conceded: bool) -> None:
        await self.db.execute("UPDATE seats SET conceded = ? WHERE game_id = ? AND position = ?",
                              (int(conceded), game_id, position))
        await self.db.commit()

    async def touch_seat(self, game_id: int, player_id: str, at: float, *, commit: bool = True) -> None:
        """Record that the seat of ``player_id`` acted at ``at`` (for "silent for N days")."""
        await self.db.execute("UPDATE seats SET last_action_at = ? WHERE game_id = ? AND player_id = ?",
                              (at, game_id, player_id))
        if commit:
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

    # ------------------------------------------------------------------ turns and reminders
    async def turn(self, game_id: int) -> Turn | None:
        async with self.db.execute(f"SELECT {_TURN_COLS} FROM turns WHERE game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _turn(row) if row else None

    async def save_turn(self, t: Turn) -> None:
        await self.db.execute(
            f"INSERT OR REPLACE INTO turns ({_TURN_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (t.game_id, t.player_id, t.since, t.reminders_sent, t.next_at, int(t.idle_flagged), t.last_nudge_at))
        await self.db.commit()

    async def delete_turn(self, game_id: int) -> None:
        await self.db.execute("DELETE FROM turns WHERE game_id = ?", (game_id,))
        await self.db.commit()

    async def log_reminder(self, game_id: int, player_id: str | None, user_id: str, kind: str, dm: bool,
                           at: float) -> None:
        await self.db.execute(
            "INSERT INTO reminders_sent (game_id, player_id, user_id, kind, dm, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, player_id, user_id, kind, int(dm), at))
        await self.db.commit()

    async def reminders_log(self, game_id: int) -> list[tuple[str | None, str, str, bool, float]]:
        async with self.db.execute(
                "SELECT player_id, user_id, kind, dm, sent_at FROM reminders_sent WHERE game_id = ? ORDER BY rowid",
                (game_id,)) as cur:
            return [(r[0], r[1], r[2], bool(r[3]), r[4]) for r in await cur.fetchall()]

    async def prefs(self, user_id: str) -> UserPrefs:
        async with self.db.execute("SELECT user_id, tz, quiet_start, quiet_end, dm FROM user_prefs WHERE user_id = ?",
                                   (user_id,)) as cur:
            r = await cur.fetchone()
        return UserPrefs(r[0], r[1], r[2], r[3], bool(r[4])) if r else UserPrefs(user_id)

    async def save_prefs(self, p: UserPrefs) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO user_prefs (user_id, tz, quiet_start, quiet_end, dm) VALUES (?, ?, ?, ?, ?)",
            (p.user_id, p.tz, p.quiet_start, p.quiet_end, int(p.dm)))
        await self.db.commit()

    # ------------------------------------------------------------------ substitutes
    async def sub_request(self, game_id: int, position: int) -> SubRequest | None:
        async with self.db.execute(
                "SELECT position, target_user, target_name, requested_by, votes FROM sub_requests "
                "WHERE game_id = ? AND position = ?", (game_id, position)) as cur:
            r = await cur.fetchone()
        return SubRequest(r[0], r[1], r[2], r[3], json.loads(r[4])) if r else None

    async def save_sub_request(self, game_id: int, req: SubRequest, at: float) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO sub_requests (game_id, position, target_user, target_name, requested_by, votes,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, req.position, req.target_user, req.target_name, req.requested_by, json.dumps(req.votes), at))
        await self.db.commit()

    async def delete_sub_request(self, game_id: int, position: int) -> None:
        await self.db.execute("DELETE FROM sub_requests WHERE game_id = ? AND position = ?", (game_id, position))
        await self.db.commit()

    # ------------------------------------------------------------------ final standings
    async def save_results(self, rows: list[ResultRow]) -> None:
        await self.db.executemany(
            f"INSERT OR REPLACE INTO results ({_RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.game_id, r.position, r.player_id, r.name, r.user_id, r.rank, r.value, r.cash, int(r.conceded))
             for r in rows])
        await self.db.commit()

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self.db.execute(f"SELECT {_RESULT_COLS} FROM results WHERE game_id = ? ORDER BY rank, position",
                                   (game_id,)) as cur:
            return [_result(r) for r in await cur.fetchall()]

    async def results_of_user(self, user_id: str, guild_id: str | None) -> list[ResultRow]:
        """Every final standing of ``user_id`` (in games of ``guild_id`` when given)."""
        cols = ", ".join("r." + c.strip() for c in _RESULT_COLS.split(","))
        sql = (f"SELECT {cols} FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ?"
               + (" AND g.guild_id = ?" if guild_id is not None else "") + " ORDER BY r.game_id")
        args: tuple[Any, ...] = (user_id, guild_id) if guild_id is not None else (user_id,)
        async with self.db.execute(sql, args) as cur:
            return [_result(r) for r in await cur.fetchall()]

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (tests compare dumps to prove nothing changed)."""
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in ("games", "seats", "actions", "undo_requests", "turns", "user_prefs", "reminders_sent",
                      "sub_requests", "results"):
            async with self.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2") as cur:
                out[table] = [tuple(r) for r in await cur.fetchall()]
        return out
