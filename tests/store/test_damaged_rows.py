"""Damaged rows (issue 28): a row the database holds but the bot cannot read (an action that is not
UTF-8 or not JSON, settings or optional rules that are not JSON, an unknown title, a garbage turn
clock) harms only its own game. Its channel answers clearly, the reminder tick and /games go on
for every other game, the host hears what is wrong, and the game is repaired or ended in the bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.reminders import Scheduler
from bot.reply import Caller
from bot.storage.store import Store
from tests.store.test_bot_async_reminders import CH, FakeClock, acting_user, run, setup_game

OTHER = "chan-other"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def layer(tmp_path: Path, clock: FakeClock) -> Any:
    store = await Store.open(str(tmp_path / "bot.db"))
    yield CommandLayer(store, images=False, clock=clock)
    await store.close()


async def _two_games(layer: CommandLayer) -> int:
    """Two running games on server g1: the one in CH gets damaged, the one in OTHER must not care."""
    await setup_game(layer, 18)
    await setup_game(layer, 18, OTHER)
    row = await layer.store.open_game(CH)
    assert row is not None
    return row.id


async def _sql(layer: CommandLayer, sql: str, *args: Any) -> None:
    """A hand edit (or a bad disk) under the running bot; its cached states are forgotten."""
    db = layer.store.db
    await db.execute("DROP TRIGGER IF EXISTS actions_append_only_update")
    await db.execute(sql, args)
    layer._cache.clear()


DAMAGE = {
    "action not UTF-8": (
        "INSERT INTO actions (game_id, seq, data, user_id, created_at) "
        "VALUES (?, 19, CAST(X'7B2274797065223A22FF2D7061737322 7D' AS TEXT), 'alice', 0)",
        "row 19 of its log is not valid UTF-8 text",
    ),
    "action not JSON": (
        "INSERT INTO actions (game_id, seq, data, user_id, created_at) VALUES (?, 19, '{\"type\": pass', 'alice', 0)",
        "row 19 of its log is not JSON",
    ),
    "optional rules not JSON": (
        "UPDATE games SET optional_rules = '[oops' WHERE id = ?",
        "its optional rules are not JSON",
    ),
    "settings not JSON": ("UPDATE games SET settings = 'nope{' WHERE id = ?", "its settings are not JSON"),
    "unknown title": ("UPDATE games SET title = 'NoSuchGame' WHERE id = ?", "NoSuchGame"),
    "title not UTF-8": (
        "UPDATE games SET title = CAST(X'31383536FF' AS TEXT) WHERE id = ?",
        "its title is not valid UTF-8 text",
    ),
}


def _fix_sql(sql: str) -> str:
    return sql.replace("22 7D", "227D")


@pytest.mark.parametrize("what", list(DAMAGE))
async def test_a_damaged_game_is_isolated_reported_and_ended_in_the_bot(
    layer: CommandLayer, clock: FakeClock, what: str
) -> None:
    gid = await _two_games(layer)
    sql, why = DAMAGE[what]
    await _sql(layer, _fix_sql(sql), gid)
    # every command in the channel answers, none says "could not save" or "went wrong"
    for user, line in [("alice", "/game status"), ("bob", "/game export"), ("bob", "/games"),
                       ("alice", "/game rules"), ("bob", "/pass"), ("alice", "/remind")]:
        reply = await run(layer, user, line)
        text = (reply.error or "") + "\n".join(reply.lines)
        assert "could not save" not in text and "went wrong" not in text, (line, text)
    listing = await run(layer, "bob", "/games")
    text = "\n".join(listing.lines)
    mine = [ln for ln in listing.lines if f"#{CH} " in ln]
    assert listing.ok and f"#{OTHER} " in text and len(mine) == 1
    if what != "settings not JSON":
        assert "/game end" in mine[0] or "/game repair" in mine[0], mine
    # the reminder tick reminds the other game and tells this game's host what is wrong, once
    clock.at(hours=24)
    sched = Scheduler(layer)
    sent = await sched.tick()
    assert ("alice", "remind", OTHER) in [(r.user_id, r.kind, r.channel_id) for r in sent]
    report = [r for r in sent if r.kind == "damaged"]
    if what != "settings not JSON":  # damaged settings are read as the defaults: reminders go on
        assert [(r.user_id, r.channel_id) for r in report] == [("alice", CH)]
        assert why in report[0].text and "/game end" in report[0].text
    assert not [r for r in await sched.tick() if r.kind == "damaged"]  # once
    # the host ends it; the channel is free for a new game
    refused = await run(layer, "bob", "/game end")
    assert not refused.ok and "only the host" in refused.error.lower()
    ended = await run(layer, "alice", "/game end confirm:yes")
    assert ended.ok, ended.error
    assert await layer.store.open_game(CH) is None
    assert (await run(layer, "alice", "/game new title:1856")).ok
    assert (await run(layer, await acting_user(layer, OTHER), "/pass", OTHER)).ok


async def test_a_damaged_action_row_is_cut_back_by_repair(layer: CommandLayer) -> None:
    gid = await _two_games(layer)
    await _sql(layer, _fix_sql(DAMAGE["action not UTF-8"][0]), gid)
    status = await run(layer, "bob", "/game status")
    assert not status.ok and "not valid UTF-8" in status.error and "/game repair" in status.error
    export = await run(layer, "bob", "/game export")
    assert export.ok and len(json.loads(export.files[0].data)["actions"]) == 19
    ask = await run(layer, "alice", "/game repair")
    assert ask.ok and "keeps its first 18 of 19 records" in ask.lines[0], ask.lines
    done = await run(layer, "alice", ask.buttons[0].command)
    assert done.ok, done.error
    assert (await run(layer, await acting_user(layer), "/pass")).ok


async def test_damaged_settings_are_reset_by_repair(layer: CommandLayer) -> None:
    gid = await _two_games(layer)
    await _sql(layer, "UPDATE games SET settings = 'nope{' WHERE id = ?", gid)
    ask = await run(layer, "alice", "/game repair")
    assert ask.ok and "settings are not JSON" in ask.lines[0] and "defaults" in ask.lines[0], ask
    row = await layer.store.game(gid)
    assert row is not None and not row.damage and row.settings == {}


async def test_a_garbage_turn_row_is_replaced_and_harms_nobody(layer: CommandLayer, clock: FakeClock) -> None:
    gid = await _two_games(layer)
    await _sql(layer, "UPDATE turns SET since = 'garbage', reminders_sent = X'00', next_at = 'x' WHERE game_id = ?",
               gid)
    listing = await run(layer, "bob", "/games")
    assert listing.ok and len(listing.lines) == 3, listing
    assert (await run(layer, "bob", "/game status")).ok
    clock.at(hours=24)
    sent = await Scheduler(layer).tick()
    assert ("alice", OTHER) in [(r.user_id, r.channel_id) for r in sent]
    assert (await run(layer, await acting_user(layer), "/pass")).ok
    turn = await layer.store.turn(gid)
    assert turn is not None and isinstance(turn.since, float)


async def test_a_game_row_with_every_column_damaged_does_not_stop_the_others(layer: CommandLayer) -> None:
    gid = await _two_games(layer)
    await _sql(layer, "UPDATE games SET optional_rules = '{', settings = '[', title = CAST(X'FF' AS TEXT), "
               "host_id = CAST(X'FE' AS TEXT) WHERE id = ?", gid)
    games = await layer.store.active_games()
    damaged = next(g for g in games if g.id == gid)
    assert set(damaged.damage) == {"optional_rules", "settings", "title", "host_id"}
    reply = await layer.handle(CH, Caller("root", "Root", guild="g1", admin=True),
                               "game end", {})
    assert reply.ok, reply.error


async def test_a_lobby_whose_options_are_damaged_does_not_start_without_them(layer: CommandLayer) -> None:
    assert (await run(layer, "alice", "/game new title:1856 options:unlimited_bonus_tokens")).ok
    for user in ("bob", "carol"):
        assert (await run(layer, user, "/game join")).ok
    row = await layer.store.open_game(CH)
    assert row is not None
    await _sql(layer, "UPDATE games SET optional_rules = 'unlimited' WHERE id = ?", row.id)
    refused = await run(layer, "alice", "/game start")
    assert not refused.ok and "optional rules are not JSON" in refused.error and "/game end" in refused.error
    assert (await run(layer, "alice", "/game end")).ok
    assert (await run(layer, "alice", "/game new title:1856")).ok


async def test_a_damaged_final_standing_is_left_out_of_stats_and_history(layer: CommandLayer) -> None:
    from bot.storage.store import ResultRow

    one, two = [await layer.store.create_game(f"c{i}", "1856", [], "alice", "x", status="ended") for i in (1, 2)]
    await layer.store.save_results([ResultRow(one, 0, "1", "Alice", "alice", 1, 900, 100),
                                    ResultRow(two, 0, "1", "Alice", "alice", 2, 800, 100)])
    await _sql(layer, "UPDATE results SET rank = 'first' WHERE game_id = ?", one)
    assert [r.game_id for r in await layer.store.results_of_user("alice", None)] == [two]
    reply = await layer.handle(CH, Caller("alice", "Alice"), "stats", {})
    assert reply.ok and "1 game played" in reply.lines[0]
