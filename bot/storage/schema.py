"""The database schema of :mod:`bot.storage.store`: ``MIGRATIONS[i]`` upgrades schema version i to i+1
(``PRAGMA user_version``); :data:`TABLES` lists every table (tests compare dumps of them).
"""

from __future__ import annotations

import re

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
    # 4 -> 5: the display name of a seat's holder (the end-of-game summary names people)
    """
    ALTER TABLE seats ADD COLUMN user_name TEXT;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
TABLES = (
    "games",
    "seats",
    "actions",
    "undo_requests",
    "turns",
    "user_prefs",
    "reminders_sent",
    "sub_requests",
    "results",
    "guild_settings",
)

# PostgreSQL (:mod:`bot.storage.pg`) runs the same migrations, translated by :func:`pg_ddl`, and
# records its version in the table ``schema_version``. These are the only differences:
PG_PRIMARY_KEYS = {  # INSERT OR REPLACE becomes INSERT ... ON CONFLICT (these) DO UPDATE
    "undo_requests": ("game_id", "state_id"),
    "turns": ("game_id",),
    "user_prefs": ("user_id",),
    "sub_requests": ("game_id", "position"),
    "results": ("game_id", "position"),
    "guild_settings": ("guild_id",),
}
PG_EXTRA = {  # after migration i: SQLite's implicit rowid, which reminders are ordered by
    2: "ALTER TABLE reminders_sent ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;",
}
_PG_REFUSE = """
    CREATE OR REPLACE FUNCTION conductor_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation'; END $$;
"""


def pg_ddl(i: int) -> str:
    """Migration ``i`` for PostgreSQL: 64-bit integers, double precision times, identity ids,
    and the append-only triggers as a function that refuses."""
    sql = MIGRATIONS[i].replace(
        "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    )
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    sql, triggers = re.subn(
        r"CREATE TRIGGER (\w+) BEFORE (\w+) ON (\w+)\s+BEGIN SELECT RAISE\(ABORT, '([^']*)'\); END;",
        r"CREATE TRIGGER \1 BEFORE \2 ON \3 FOR EACH ROW EXECUTE FUNCTION conductor_refuse('\4');",
        sql,
    )
    return (_PG_REFUSE if triggers else "") + sql + PG_EXTRA.get(i, "")
