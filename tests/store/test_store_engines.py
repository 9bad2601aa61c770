"""The one Store API behaves the same on both engines (SQLite; PostgreSQL when a test server is
set): games, seats, the log, votes, turn clocks, reminders, preferences, standings, settings."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage.store import Conflict, ResultRow, Seat, Store, SubRequest, Turn, UndoRequest, UserPrefs
from bot.version import ENGINE_VERSION


async def test_every_kind_of_row_is_stored_and_read_back_the_same(db_target: str) -> None:
    store = await Store.open(db_target)
    try:
        gid = await store.create_game("c", "1856", ["opt"], "h", ENGINE_VERSION, guild_id="g1")
        other = await store.create_game("d", "1833NE", [], "h", ENGINE_VERSION)
        assert (gid, other) == (1, 2)
        await store.start_game(gid, 2**62, [Seat(0, "Al", "u1", "1", user_name="Alice"), Seat(1, "Bo", None, "2")],
                               started_at=5.25)
        row = await store.open_game("c")
        assert row is not None and row.status == "active" and row.seed == 2**62 and row.optional_rules == ["opt"]
        assert [g.id for g in await store.games_in_guild("g1", "active")] == [gid]
        assert [g.id for g in await store.games_in_guild(None, "lobby")] == [other]
        await store.set_settings(gid, {"remind": 3})
        assert (await store.game(gid)).settings == {"remind": 3}  # type: ignore[union-attr]
        assert await store.append_actions(gid, [{"type": "pass", "id": 1}, {"type": "pass", "id": 2}], "u1",
                                          seq=1) == [1, 2]
        assert await store.append_action(gid, {"type": "pass", "id": 3}, None) == 3
        assert [(e.seq, e.data["id"], e.user_id) for e in await store.actions(gid, after=1)] == [(2, 2, "u1"),
                                                                                                 (3, 3, None)]
        await store.set_seat_user(gid, 1, "u2", was=None, user_name="Bob")
        with pytest.raises(Conflict):
            await store.set_seat_user(gid, 1, "u3", was=None)
        await store.set_seat_conceded(gid, 0, True)
        await store.touch_seat(gid, "1", 1714996800.1234567)
        seats = await store.seats(gid)
        assert [(s.user_id, s.conceded, s.last_action_at) for s in seats] == [("u1", True, 1714996800.1234567),
                                                                               ("u2", False, None)]
        assert [s.user_name for s in seats] == ["Alice", "Bob"]  # who took each seat, as they were called
        await store.save_undo_request(gid, UndoRequest(3, "u1", ["u1"]))
        await store.save_undo_request(gid, UndoRequest(3, "u1", ["u1", "u2"]), was=["u1"])
        with pytest.raises(Conflict):
            await store.save_undo_request(gid, UndoRequest(3, "u1", ["u9"]), was=["u1"])
        assert await store.undo_request(gid, 3) == UndoRequest(3, "u1", ["u1", "u2"])
        await store.save_turn(Turn(gid, "1", 10.5, 1, 20.0, False, None))
        await store.save_turn(Turn(gid, "2", 11.5, 0, None, True, 12.0))  # replaces the clock
        assert await store.turn(gid) == Turn(gid, "2", 11.5, 0, None, True, 12.0)
        for kind in ("first", "second", "third"):
            await store.log_reminder(gid, "2", "u2", kind, kind == "second", 30.0)
        assert [r[2] for r in await store.reminders_log(gid)] == ["first", "second", "third"]
        await store.save_prefs(UserPrefs("u2", "Europe/Paris", 60, 420, True))
        await store.save_prefs(UserPrefs("u2", "Asia/Tokyo", None, None, False))
        assert await store.prefs("u2") == UserPrefs("u2", "Asia/Tokyo", None, None, False)
        assert await store.prefs("nobody") == UserPrefs("nobody")
        await store.save_sub_request(gid, SubRequest(1, "u5", "Eve", "u1", ["u1"]), 40.0)
        assert await store.sub_request(gid, 1) == SubRequest(1, "u5", "Eve", "u1", ["u1"])
        await store.delete_sub_request(gid, 1)
        assert await store.sub_request(gid, 1) is None
        await store.set_creator_role("g1", "Hosts")
        await store.set_creator_role("g1", "Admins")
        assert await store.creator_role("g1") == "Admins" and await store.creator_role("g2") is None
        await store.end_game(gid, at=50.0)
        await store.save_results([ResultRow(gid, 0, "1", "Al", "u1", 1, 900, 100, True),
                                  ResultRow(gid, 1, "2", "Bo", "u2", 2, 800, 50)])
        assert [r.name for r in await store.results(gid)] == ["Al", "Bo"]
        assert [r.value for r in await store.results_of_user("u2", "g1")] == [800]
        assert await store.results_of_user("u2", None) == []
        assert await store.turn(gid) is None and await store.open_game("c") is None
        assert await store.schema_version() > 0
    finally:
        await store.close()


async def test_the_log_is_append_only_and_one_game_is_open_per_channel(db_target: str) -> None:
    from tests.pg_util import raw

    store = await Store.open(db_target)
    try:
        gid = await store.create_game("c", "1856", [], "u", ENGINE_VERSION)
        await store.append_action(gid, {"type": "pass"}, "u")
        for sql in ("DELETE FROM actions", "UPDATE actions SET data = '{}'"):
            with pytest.raises(sqlite3.IntegrityError):
                await raw(store, sql)
        with pytest.raises(sqlite3.IntegrityError):
            await store.create_game("c", "1856", [], "u", ENGINE_VERSION)
        with pytest.raises(Conflict):
            await store.append_actions(gid, [{"type": "pass"}], "u", seq=1)
        assert await store.action_count(gid) == 1
    finally:
        await store.close()


async def test_a_transaction_lands_whole_or_not_at_all(db_target: str) -> None:
    store = await Store.open(db_target)
    try:
        gid = await store.create_game("c", "1856", [], "u", ENGINE_VERSION)
        before = await store.dump()
        with pytest.raises(RuntimeError):
            async with store.transaction():
                await store.append_action(gid, {"type": "pass"}, "u", seq=1)
                await store.save_turn(Turn(gid, "1", 1.0))
                assert await store.action_count(gid) == 1  # the command reads what it wrote
                raise RuntimeError("a bug half-way")
        assert await store.dump() == before
        async with store.transaction():
            await store.append_action(gid, {"type": "pass"}, "u", seq=1)
        assert await store.action_count(gid) == 1
    finally:
        await store.close()


async def test_two_stores_appending_to_one_game_at_once_never_both_take_a_position(db_target: str) -> None:
    """Two processes on one database: appends after the last action queue up (each gets its own
    position); appends at the same position: exactly one is stored, the other is a Conflict."""
    one, two = await Store.open(db_target), await Store.open(db_target)
    try:
        gid = await one.create_game("c", "1856", [], "u", ENGINE_VERSION)
        await asyncio.gather(*(s.append_action(gid, {"type": "pass", "n": i}, "u")
                               for i, s in enumerate([one, two] * 5)))
        logged = await one.actions(gid)
        assert [e.seq for e in logged] == list(range(1, 11))
        assert sorted(e.data["n"] for e in logged) == list(range(10))

        async def at_eleven(store: Store, n: int) -> str:
            try:
                async with store.transaction():
                    await store.append_actions(gid, [{"type": "pass", "n": n}], "u", seq=11)
            except Conflict:
                return "refused"
            return "stored"

        outcomes = await asyncio.gather(at_eleven(one, 100), at_eleven(two, 200))
        assert sorted(outcomes) == ["refused", "stored"]
        assert [e.seq for e in await two.actions(gid)] == list(range(1, 12))
    finally:
        await one.close()
        await two.close()
