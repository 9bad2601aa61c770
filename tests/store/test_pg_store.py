"""PostgreSQL as the store: refused clearly when unreachable or newer than the code, migrated
once by processes starting together, and ``conductor migrate`` from a SQLite file (a copy that
replays to the same state, never into a database that holds anything)."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage.migrate import MigrateError, migrate
from bot.storage.store import SCHEMA_VERSION, Store, StoreError, Turn, UserPrefs
from tests.store.test_bot_async_reminders import CH, acting_user, run, setup_game

ROOT = Path(__file__).resolve().parents[2]
UNREACHABLE = "postgresql://conductor:secret@127.0.0.1:1/conductor"


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input="/game status\n", capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


async def test_an_unreachable_server_is_one_clear_line_without_the_password() -> None:
    with pytest.raises(StoreError) as err:
        await Store.open(UNREACHABLE)
    text = str(err.value)
    assert "Cannot reach the database postgresql://conductor:***@127.0.0.1:1/conductor" in text
    assert "secret" not in text and "\n" not in text


def test_the_terminal_and_the_bot_stop_at_once_when_the_server_is_unreachable(tmp_path: Path) -> None:
    local = _cli("local", "--db", UNREACHABLE, "--out", str(tmp_path))
    assert local.returncode == 2 and "Cannot reach the database" in local.stderr
    bot = _cli("run", env={"DISCORD_TOKEN": "not-used", "DATABASE_URL": UNREACHABLE})
    assert bot.returncode == 2 and "Cannot reach the database" in bot.stderr
    for proc in (local, bot):
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


async def test_a_database_from_a_newer_bot_is_refused(pg_url: str) -> None:
    await (await Store.open(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 1)
    await conn.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(pg_url)


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(4)))
    assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
    for s in stores:
        await s.close()


async def _sqlite_bot(path: Path) -> None:
    """A SQLite bot with a game in play, a lobby, reminders, preferences and a server setting."""
    from bot.commands.layer import CommandLayer

    store = await Store.open(str(path))
    layer = CommandLayer(store, images=False)
    await setup_game(layer, 12, CH)
    assert (await run(layer, await acting_user(layer), "/pass")).ok
    await store.create_game("lobby-channel", "1833NE", [], "h", "v", guild_id="g")
    row = await store.open_game(CH)
    assert row is not None
    await store.save_turn(Turn(row.id, "1", 1714996800.1234567, 2, 1714999999.5))
    await store.log_reminder(row.id, "1", "alice", "nudge", True, 1714996900.25)
    await store.save_prefs(UserPrefs("alice", "Europe/Paris", 60, 420, True))
    await store.set_creator_role("g", "Hosts")
    await store.close()


async def test_migrate_copies_everything_and_the_games_play_on(tmp_path: Path, pg_url: str) -> None:
    from bot.commands.layer import CommandLayer

    source = tmp_path / "bot.db"
    await _sqlite_bot(source)
    counts = await migrate(str(source), pg_url)
    assert counts["games"] == 2 and counts["actions"] == 13 and counts["reminders_sent"] >= 1
    old, new = await Store.open(str(source)), await Store.open(pg_url)
    try:
        assert await old.dump() == await new.dump()
        layer = CommandLayer(new, images=False)
        assert (await run(layer, await acting_user(layer), "/pass")).ok  # play goes on there
        assert await new.create_game("fresh", "1856", [], "h", "v") == 3  # numbered after the copied games
    finally:
        await old.close()
        await new.close()


async def test_migrate_refuses_a_target_that_holds_anything(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "bot.db"
    await _sqlite_bot(source)
    target = await Store.open(pg_url)
    await target.save_prefs(UserPrefs("someone"))
    before = await target.dump()
    await target.close()
    with pytest.raises(MigrateError, match="already holds data"):
        await migrate(str(source), pg_url)
    target = await Store.open(pg_url)
    assert await target.dump() == before
    await target.close()


def test_the_migrate_command_says_what_it_moved_and_fails_clearly(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "bot.db"
    asyncio.run(_sqlite_bot(source))
    done = _cli("migrate", "--from", str(source), "--to", pg_url)
    assert done.returncode == 0, done.stderr
    assert "copied 2 games" in done.stdout and "replays to the same state" in done.stdout
    again = _cli("migrate", "--from", str(source), "--to", pg_url)
    assert again.returncode == 2 and "already holds data" in again.stderr and "Traceback" not in again.stderr
    assert "1 user preference, 1 server setting;" in done.stdout
    missing = _cli("migrate", "--from", str(tmp_path / "none.db"), "--to", pg_url)
    assert missing.returncode == 2 and "is not a SQLite database file" in missing.stderr


def test_migrate_never_shows_a_password(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["migrate", "--from", "postgresql://conductor:secret@db.example/db", "--to", UNREACHABLE]) == 2
    err = capsys.readouterr().err
    assert err == ("conductor migrate: postgresql://conductor:***@db.example/db is not a SQLite database file "
                   "(--from takes the bot's SQLite file)\n")


def _with_password(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{parts.username}:secret@{parts.hostname}:{parts.port}"))


def test_the_terminal_and_the_bot_name_the_database_without_its_password(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture
) -> None:
    import io

    import bot.discord.client
    from bot.cli import main

    url = _with_password(pg_url)  # the test server trusts loopback: the password is not checked
    masked = url.replace(":secret@", ":***@")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("/quit\n"))
    assert main(["local", "--db", url, "--out", "pics"]) == 0
    assert capsys.readouterr().err == f"Conductor local mode: database {masked}, pictures in {tmp_path / 'pics'}\n"
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setattr(bot.discord.client, "run_bot", lambda settings: 0)
    with caplog.at_level(logging.INFO, logger="bot.cli"):
        assert main(["run"]) == 0
    assert [r.getMessage() for r in caplog.records if r.name == "bot.cli"] == [
        f"starting the Discord bot; database {masked}"]
    assert "secret" not in caplog.text + capsys.readouterr().err


class _Relay:
    """A TCP relay to the PostgreSQL server that can be cut (the server gone for the bot) and
    started again on the same port."""

    def __init__(self, target: str):
        parts = urlsplit(target)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.server: asyncio.Server | None = None
        self.links: list[asyncio.StreamWriter] = []
        self.listen_port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.listen_port)
        self.listen_port = self.server.sockets[0].getsockname()[1]

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.links += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except OSError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in self.links:
            w.transport.abort()
        self.links.clear()
        await self.server.wait_closed()


async def test_a_server_gone_mid_session_is_told_plainly_and_logged_in_one_line(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server cannot be reached during play: each command says the bot cannot reach its
    database and nothing was changed, the log has one line per failure and no traceback; when the
    server is back, play goes on."""
    from bot.commands.layer import CommandLayer

    relay = _Relay(pg_url)
    await relay.start()
    url = urlunsplit(urlsplit(pg_url)._replace(netloc=f"conductor@127.0.0.1:{relay.listen_port}"))
    store = await Store.open(url)
    try:
        layer = CommandLayer(store, images=False)
        await setup_game(layer, 6, CH)
        user = await acting_user(layer)
        before = await store.dump()
        await relay.cut()
        with caplog.at_level(logging.WARNING):
            for line in ("/pass", "/game status"):
                reply = await run(layer, user, line)
                assert not reply.ok and reply.error == (
                    "The bot cannot reach its database right now, so nothing was changed. Please try again "
                    "in a minute."), reply.error
            await asyncio.sleep(1.2)  # asyncpg's pool tries to reconnect in the background meanwhile
        assert all(r.exc_info is None and "\n" not in r.getMessage() for r in caplog.records), caplog.text
        assert "Traceback" not in caplog.text
        failures = [r for r in caplog.records if r.name == "bot.commands.layer"]
        assert len(failures) == 2 and all("ConnectionRefusedError" in r.getMessage() for r in failures)
        await relay.start()
        assert (await run(layer, user, "/pass")).ok  # back: served again, the failed moves never stored
        after = await store.dump()
        assert len(after["actions"]) == len(before["actions"]) + 1
    finally:
        await store.close()
        await relay.cut()


async def test_both_engines_have_the_same_tables_and_columns(tmp_path: Path, pg_url: str) -> None:
    lite, pg = await Store.open(str(tmp_path / "bot.db")), await Store.open(pg_url)
    try:
        assert await lite.columns() == await pg.columns()
        assert await lite.schema_version() == await pg.schema_version() == SCHEMA_VERSION
    finally:
        await lite.close()
        await pg.close()


async def test_an_older_database_is_migrated_step_by_step(pg_url: str) -> None:
    from bot.storage.schema import pg_ddl

    conn = await asyncpg.connect(pg_url)  # a database written by schema version 1
    await conn.execute(pg_ddl(0))
    await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)")
    await conn.execute("INSERT INTO games (channel_id, title, host_id, status, engine_version, created_at)"
                       " VALUES ('c', '1856', 'u', 'lobby', 'old', 0)")
    await conn.close()
    store = await Store.open(pg_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        row = await store.open_game("c")
        assert row is not None and row.engine_version == "old" and row.settings == {}
        assert await store.undo_request(row.id, 0) is None  # the table added by migration 2 exists
        assert await store.create_game("d", "1856", [], "u", "new") == 2
    finally:
        await store.close()


async def test_connections_cut_by_the_server_refuse_cleanly_and_the_bot_carries_on(pg_url: str) -> None:
    """The server drops every connection of the bot (a restart, a failover): the next command is
    served on new connections; a command whose transaction was cut half-way changes nothing and
    says so; the ones after it are served again."""
    from bot.commands.layer import CommandLayer
    from tests.store.test_store_integrity import replays

    store = await Store.open(pg_url)
    try:
        layer = CommandLayer(store, images=False)
        await setup_game(layer, 6, CH)
        row = await store.open_game(CH)
        assert row is not None
        before = await store.action_count(row.id)
        await asyncio.gather(*(store.action_count(row.id) for _ in range(6)))  # several connections in the pool
        admin = await asyncpg.connect(pg_url)
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                            " AND pid != pg_backend_pid()")
        await admin.close()
        assert (await run(layer, await acting_user(layer), "/pass")).ok  # new connections, as if nothing happened
        assert await store.action_count(row.id) == before + 1

        original = store._batch
        cut: list[int] = []

        async def cut_at_commit(tx: Any, begin: bool, *args: Any) -> Any:  # the connection dies mid-command
            if not cut and not begin:
                cut.append(tx.handle.get_server_pid())
                killer = await asyncpg.connect(pg_url)
                await killer.execute("SELECT pg_terminate_backend($1)", cut[0])
                await killer.close()
            return await original(tx, begin, *args)

        store._batch = cut_at_commit  # type: ignore[method-assign]
        first = await run(layer, await acting_user(layer), "/pass")
        store._batch = original  # type: ignore[method-assign]
        assert cut and not first.ok and "cannot reach its database" in first.error and "nothing was changed" in first.error
        stored = await store.action_count(row.id)
        assert stored == before + 1
        for _ in range(3):
            assert (await run(layer, await acting_user(layer), "/pass")).ok
        assert await store.action_count(row.id) == stored + 3
        await replays(store, CH)
    finally:
        await store.close()
