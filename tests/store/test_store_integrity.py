"""The store keeps a game whole: one writer per log position (also across processes), one
transaction per command, nothing stored that does not replay, bad database files refused at
start-up, and a log that does not replay rescued from inside the bot (export, /game repair)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer, build_game
from bot.reply import Caller, Reply
from bot.storage.store import SCHEMA_VERSION, Store, StoreError
from engine.replay import snapshot
from tests.fixture_util import load_export
from tests.pg_util import on_pg, raw
from tests.store.test_bot_async_reminders import CH, acting_user, run, setup_game

ROOT = Path(__file__).resolve().parents[2]


async def imported(layer: CommandLayer, upto: int, channel: str = CH) -> None:
    """hotseat001 with its first ``upto`` actions; alice (the host), bob, carol hold the seats."""
    await setup_game(layer, upto, channel)


async def replays(store: Store, channel: str = CH) -> Any:
    """The stored log rebuilt by a fresh bot (a restart): its state, or an AssertionError."""
    row = await store.open_game(channel)
    assert row is not None
    logged = await store.actions(row.id)
    assert [e.seq for e in logged] == list(range(1, len(logged) + 1)), "log positions are not 1..n"
    ids = [e.data.get("id") for e in logged]
    assert len(ids) == len(set(ids)), "two stored actions carry one id"
    return snapshot(build_game(row, await store.seats(row.id), [e.data for e in logged]), {})


@pytest.fixture
async def layer(db_target: str) -> Any:
    """A command layer on each engine (SQLite; PostgreSQL when a test server is set)."""
    store = await Store.open(db_target)
    yield CommandLayer(store, images=False)
    await store.close()


@pytest.fixture
async def sqlite_layer(tmp_path: Path) -> Any:
    store = await Store.open(str(tmp_path / "bot.db"))
    yield CommandLayer(store, images=False)
    await store.close()


# ---------------------------------------------------------------------- one writer per log position
async def test_a_second_process_that_stores_the_same_move_later_is_refused_and_reloads(db_target: str) -> None:
    """Two bots on one database, the same /pass at the same moment: the one that commits second
    finds the log position taken, stores nothing, reloads and says so."""
    db = db_target
    one, two = await Store.open(db), await Store.open(db)
    try:
        first, second = CommandLayer(one, images=False), CommandLayer(two, images=False)
        await imported(first, 6)
        user = await acting_user(first)
        row = await one.open_game(CH)
        assert row is not None
        await second.load(row)  # both have the game cached at the same state
        original = two.append_actions
        first_reply: list[Reply] = []

        async def the_other_bot_commits_first(*args: Any, **kwargs: Any) -> list[int]:
            first_reply.append(await run(first, user, "/pass"))
            return await original(*args, **kwargs)

        two.append_actions = the_other_bot_commits_first  # type: ignore[method-assign]
        loser = await run(second, user, "/pass")
        assert first_reply[0].ok, first_reply[0].error
        assert not loser.ok and "at the same moment" in loser.error and "reloaded; next: " in loser.error
        assert await one.action_count(row.id) == 7  # stored once
        state = await replays(one)
        assert snapshot((await second.load(row)).game, {}) == state  # the loser's cache was rebuilt
        two.append_actions = original  # type: ignore[method-assign]
        nxt = await acting_user(second)
        assert (await run(second, nxt, "/pass")).ok  # and it plays on from the right state
        assert await one.action_count(row.id) == 8
    finally:
        await one.close()
        await two.close()


async def test_action_positions_are_unique_in_the_schema(layer: CommandLayer) -> None:
    await imported(layer, 3)
    row = await layer.store.open_game(CH)
    assert row is not None
    with pytest.raises(sqlite3.IntegrityError):
        await raw(layer.store, "INSERT INTO actions (game_id, seq, data, created_at) VALUES (?, 3, '{}', 0)", row.id)


# ---------------------------------------------------------------------- one transaction per command
async def test_an_import_that_fails_halfway_leaves_nothing(layer: CommandLayer) -> None:
    before = await layer.store.dump()
    original = layer.store.append_actions

    async def disk_error(*args: Any, **kwargs: Any) -> list[int]:
        raise sqlite3.OperationalError("disk I/O error")

    layer.store.append_actions = disk_error  # type: ignore[method-assign]
    export = load_export("1856", "hotseat001")
    reply = await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})
    assert not reply.ok and "nothing was changed" in reply.error and "disk I/O error" in reply.error
    assert await layer.store.dump() == before  # no game, no seats, no actions
    layer.store.append_actions = original  # type: ignore[method-assign]
    assert (await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})).ok


async def test_a_failure_after_the_first_write_undoes_the_whole_command(layer: CommandLayer) -> None:
    await imported(layer, 18)
    before = (await layer.store.dump(), await replays(layer.store))

    async def broken(*args: Any) -> None:
        raise RuntimeError("a bug after the action was written")

    original = layer._track_turn
    layer._track_turn = broken  # type: ignore[method-assign]
    reply = await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")
    assert not reply.ok and "nothing was changed" in reply.error
    assert (await layer.store.dump(), await replays(layer.store)) == before
    layer._track_turn = original  # type: ignore[method-assign]
    row = await layer.store.open_game(CH)
    assert snapshot((await layer.load(row)).game, {}) == before[1]  # the cached game went back too
    assert (await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")).ok


async def test_disk_full_refuses_cleanly_and_recovers(sqlite_layer: CommandLayer) -> None:
    layer = sqlite_layer
    await imported(layer, 9)
    user = await acting_user(layer)
    store = layer.store
    pages = (await store.db.execute_fetchall("PRAGMA page_count"))[0][0]
    await store.db.execute(f"PRAGMA max_page_count = {pages}")  # not one page more: "disk full"
    before = (await store.dump(), await replays(store))
    export = load_export("1856", "hotseat006")  # a long import needs new pages
    reply = await layer.handle("other", Caller("zed", "Zed"), "game import", {"file": json.dumps(export)})
    assert not reply.ok and "full" in reply.error and "nothing was changed" in reply.error
    for _ in range(40):  # moves until the log needs a new page
        reply = await run(layer, user, "/pass")
        if not reply.ok:
            break
        user = await acting_user(layer)
        before = (await store.dump(), await replays(store))
    assert not reply.ok and "full" in reply.error
    assert (await store.dump(), await replays(store)) == before
    await store.db.execute("PRAGMA max_page_count = 1000000")
    assert (await run(layer, user, "/pass")).ok


# ---------------------------------------------------------------------- start-up with a bad database
def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "garbage":
        path.write_bytes(b"these are not the bytes of a database " * 200)
    elif how == "truncated":
        path.write_bytes(bytes(data[: len(data) // 3]))
    elif how == "garbage in the middle":
        page = 4096 * (len(data) // 4096 // 2)
        data[page: page + 1024] = b"\xff" * 1024
        path.write_bytes(bytes(data))


async def _game_database(path: Path) -> None:
    store = await Store.open(str(path))
    try:
        reply = await CommandLayer(store, images=False).handle(
            "c", Caller("u", "U"), "game import", {"file": json.dumps(load_export("1856", "hotseat006"))})
        assert reply.ok
    finally:
        await store.close()  # the last connection folds the WAL into the file


async def refused_at_open(path: str, match: str) -> None:
    try:
        store = await Store.open(path)
    except StoreError as exc:
        assert re.search(match, str(exc)), str(exc)
        return
    await store.close()
    raise AssertionError(f"{path} was opened")


@pytest.mark.parametrize("how", ["garbage", "truncated", "garbage in the middle"])
async def test_a_damaged_database_is_refused_at_start(tmp_path: Path, how: str) -> None:
    path = tmp_path / "bot.db"
    await _game_database(path)
    _damage(path, how)
    await refused_at_open(str(path), "is damaged .*(not a database|malformed|out of order|btree|page)")


async def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _game_database(path)
    # what SQLite sees for a read-only file or folder (chmod does not stop root, who runs CI here)
    await refused_at_open(f"file:{path}?mode=ro", "cannot be written .*readonly")
    if os.geteuid() != 0:
        path.chmod(0o444)
        await refused_at_open(str(path), "cannot be written")


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await (await Store.open(str(path))).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    await refused_at_open(str(path), "newer than this bot")


@pytest.mark.parametrize("how", ["garbage", "garbage in the middle"])
def test_local_mode_stops_at_once_with_the_reason(tmp_path: Path, how: str) -> None:
    """``conductor local`` on a damaged database: a clear message and exit status 2, no hang."""
    import asyncio

    path = tmp_path / "bot.db"
    asyncio.run(_game_database(path))
    _damage(path, how)
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "local", "--db", str(path), "--out", str(tmp_path)],
                          input="/game status\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert "is damaged" in proc.stderr and "Restore a backup" in proc.stderr
    assert "Traceback" not in proc.stderr


async def test_a_missing_folder_of_the_database_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "bot.db"
    await (await Store.open(str(path))).close()
    assert path.is_file()
    (tmp_path / "taken").write_text("a file, not a folder")
    await refused_at_open(str(tmp_path / "taken" / "bot.db"), f"^Cannot create the folder {tmp_path / 'taken'} "
                          "for the database .*: a file is in the way$")


def test_a_database_that_cannot_be_opened_is_one_line_for_the_terminal_and_the_bot(tmp_path: Path) -> None:
    """SQLite cannot open the file (a name longer than the system allows stands in for a folder
    that may not be written, which root could write): one line, exit status 2, and no traceback of
    aiosqlite's thread afterwards."""
    path = tmp_path / ("x" * 300)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(path), "DISCORD_TOKEN": "not-used"}
    for command in ("local", "run"):
        proc = subprocess.run([sys.executable, "-m", "bot.cli", command], input="/game status\n",
                              capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"conductor: Cannot open the database {path}: unable to open database file")
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_the_discord_bot_does_not_start_on_a_damaged_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from bot.cli import main

    path = tmp_path / "bot.db"
    asyncio.run(_game_database(path))
    _damage(path, "garbage in the middle")
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["run"]) == 2  # before any connection to Discord
    assert "is damaged" in capsys.readouterr().err


# ---------------------------------------------------------------------- a log that does not replay
async def _broken_log(layer: CommandLayer) -> int:
    """The state the issue describes: two stored actions with one id (two processes, old bot)."""
    await imported(layer, 6)
    user = await acting_user(layer)
    assert (await run(layer, user, "/pass")).ok
    row = await layer.store.open_game(CH)
    assert row is not None
    last = (await layer.store.actions(row.id))[-1]
    await layer.store.append_action(row.id, last.data, last.user_id)  # the same pass again
    layer._cache.clear()
    return row.id


async def test_a_log_that_does_not_replay_is_exported_and_repaired_by_the_host(layer: CommandLayer) -> None:
    gid = await _broken_log(layer)
    status = await run(layer, "bob", "/game status")
    assert not status.ok and "cannot be replayed" in status.error and "/game repair" in status.error
    export = await run(layer, "bob", "/game export")  # anyone can still take the log away
    assert export.ok and "does not replay" in export.lines[0]
    assert len(json.loads(export.files[0].data)["actions"]) == 8
    refused = await run(layer, "bob", "/game repair")
    assert not refused.ok and "only the host" in refused.error.lower()
    ask = await run(layer, "alice", "/game repair")
    assert ask.ok and "keeps its first 7 of 8 records" in ask.lines[0] and ask.files
    assert ask.buttons[0].command == "/game repair confirm:yes"
    done = await run(layer, "alice", ask.buttons[0].command)
    assert done.ok, done.error
    assert "cut back to the first 7 of 8" in done.lines[0]
    assert len(json.loads(done.files[0].data)["actions"]) == 8  # the full log comes along
    old = await layer.store.game(gid)
    assert old is not None and old.status == "ended" and len(await layer.store.actions(gid)) == 8  # kept
    await replays(layer.store)
    user = await acting_user(layer)
    assert (await run(layer, user, "/pass")).ok  # play goes on
    nothing = await run(layer, "alice", "/game repair")
    assert not nothing.ok and "nothing to repair" in nothing.error


async def test_an_undo_that_would_not_replay_is_not_stored(layer: CommandLayer) -> None:
    await imported(layer, 18)
    row = await layer.store.open_game(CH)
    assert row is not None
    assert (await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")).ok
    # the log is damaged under the running bot (a hand edit): replaying it with the undo fails
    if on_pg(layer.store):
        await raw(layer.store, "ALTER TABLE actions DISABLE TRIGGER actions_append_only_update")
        await raw(layer.store, "UPDATE actions SET data = jsonb_set(data::jsonb, '{company}', '\"NOPE\"')::text "
                  "WHERE game_id = ? AND seq = 2", row.id)
    else:
        await raw(layer.store, "DROP TRIGGER actions_append_only_update")
        await raw(layer.store, "UPDATE actions SET data = json_set(data, '$.company', 'NOPE') WHERE game_id = ? "
                  "AND seq = 2", row.id)
    before = await layer.store.dump()
    reply = await run(layer, "alice", "/game undo")
    assert not reply.ok and "cannot be replayed" in reply.error
    assert await layer.store.dump() == before


async def test_what_a_command_reads_with_its_game_equals_what_the_tables_hold(db_target: str) -> None:
    """open_game inside a command brings the log length, seats, turn clock and the votes kept at
    the game's position and its offer's key along (one trip to the database thread); they must
    equal the separate reads, times to the last digit and numeric-looking names untouched, and a
    write in the command makes them read afresh."""
    from bot.storage.store import Seat, Turn, UndoRequest

    store = await Store.open(db_target)
    try:
        gid = await store.create_game("c", "1856", [], "h", "v", status="active")
        await store.add_seats(gid, [Seat(0, "123", "1001", "1", False, 1714996800.1234567), Seat(1, "Bo", None, "2")])
        await store.save_turn(Turn(gid, "1", 1714996800.1234567, 1, None, False, 1714996801.5))
        await store.append_action(gid, {"type": "pass", "entity": "1", "id": 1}, "1001")
        for at, votes in ((1, ["1001"]), (-2, []), (0, ["x"]), (2, ["y"])):  # here, the offer's key, elsewhere
            await store.save_undo_request(gid, UndoRequest(at, f"by {at}", votes))
        asked = (1, -2, 0)
        apart = (await store.action_count(gid), await store.seats(gid), await store.turn(gid),
                 await store.undo_requests_at(gid, asked), await store.undo_requests_at(gid, (1, -2)))
        assert sorted(apart[3]) == [-2, 0, 1] and sorted(apart[4]) == [-2, 1]
        async with store.transaction():
            assert (await store.open_game("c")) is not None
            assert (await store.action_count(gid), await store.seats(gid), await store.turn(gid),
                    await store.undo_requests_at(gid, asked), await store.undo_requests_at(gid, (1, -2))) == apart
            await store.save_undo_request(gid, UndoRequest(1, "by 1", ["1001", "bo"]), ["1001"])
            assert (await store.undo_requests_at(gid, (1, -2)))[1].votes == ["1001", "bo"]
            await store.set_seat_user(gid, 1, "bo", was=None)
            await store.append_action(gid, {"type": "pass", "entity": "2", "id": 2}, "bo", seq=2)
            assert await store.action_count(gid) == 2
            assert [s.user_id for s in await store.seats(gid)] == ["1001", "bo"]
            assert await store.open_game("c") is not None  # read again: the votes at the new position
            assert {k: v.votes for k, v in (await store.undo_requests_at(gid, (2, -3))).items()} == {2: ["y"]}
        assert await store.action_count(gid) == 2
    finally:
        await store.close()
