"""The store: WAL mode, versioned migrations, append-only log, engine version and replay compatibility."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.commands.layer import CommandLayer
from bot.reply import Caller
from bot.storage.store import MIGRATIONS, SCHEMA_VERSION, Store
from bot.version import ENGINE_VERSION
from engine.replay import replay, snapshot
from tests.fixture_util import load_export


async def test_wal_schema_version_and_append_only(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "a.db"))
    try:
        async with store.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        assert await store.schema_version() == SCHEMA_VERSION
        gid = await store.create_game("c", "1856", [], "u", ENGINE_VERSION)
        await store.append_action(gid, {"type": "pass", "entity": "1"}, "u")
        with pytest.raises(sqlite3.IntegrityError):
            await store.db.execute("DELETE FROM actions")
        with pytest.raises(sqlite3.IntegrityError):
            await store.db.execute("UPDATE actions SET data = '{}'")
        with pytest.raises(sqlite3.IntegrityError):  # one open game per channel
            await store.create_game("c", "1856", [], "u", ENGINE_VERSION)
    finally:
        await store.close()


async def test_migrations_upgrade_an_old_database(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    async with aiosqlite.connect(path) as db:  # a database written by schema version 1
        await db.executescript(f"BEGIN; {MIGRATIONS[0]} PRAGMA user_version = 1; COMMIT;")
        await db.execute("INSERT INTO games (channel_id, title, host_id, status, engine_version, created_at)"
                         " VALUES ('c', '1856', 'u', 'lobby', 'old', 0)")
        await db.commit()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        row = await store.open_game("c")
        assert row is not None and row.engine_version == "old"
        assert await store.undo_request(row.id, 0) is None  # the table added by migration 2 exists
    finally:
        await store.close()


@pytest.mark.parametrize("name", ["89363", "hotseat001", "hotseat004", "hotseat005", "hotseat006"])
async def test_stored_games_replay_with_this_engine(tmp_path: Path, name: str) -> None:
    """Catches an engine update that can no longer replay a stored game: each stored game is
    rebuilt from the database by a fresh bot and must equal the engine's replay of the export."""
    export = load_export("1856", name)
    store = await Store.open(str(tmp_path / "g.db"))
    try:
        reply = await CommandLayer(store, images=False).handle(
            "c", Caller("u", "U"), "game import", {"file": json.dumps(export)})
        assert reply.ok, reply.error
        row = (await store.all_games())[-1]
        assert row.engine_version == ENGINE_VERSION
        game = (await CommandLayer(store, images=False).load(row)).game
        assert snapshot(game, {}) == snapshot(replay(export).game, {})
    finally:
        await store.close()


async def test_unreplayable_log_gives_a_clear_error(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "g.db"))
    try:
        layer = CommandLayer(store, images=False)
        export = load_export("1856", "hotseat001")
        export["actions"] = export["actions"][:3]
        assert (await layer.handle("c", Caller("u", "U"), "game import", {"file": json.dumps(export)})).ok
        row = await store.open_game("c")
        assert row is not None
        await store.db.execute("UPDATE games SET engine_version = 'ancient' WHERE id = ?", (row.id,))
        await store.append_action(row.id, {"type": "bid", "entity": "Player 1", "company": "NOPE",
                                           "price": 5, "id": 99}, None)
        reply = await CommandLayer(store, images=False).handle("c", Caller("u", "U"), "game status", {})
        assert not reply.ok
        assert "ancient" in reply.error and ENGINE_VERSION in reply.error and "action 99" in reply.error
    finally:
        await store.close()
