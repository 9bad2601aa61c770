"""Hostile imports and hostile input (issue 28): cheap limits before any costly work, linear
undo filtering, a CPU budget for the replay of an import, names cleaned as /game join cleans them,
input that used to raise inside the bot refused clearly, every write in its command's one
transaction, and a game's log length read with its rows in one snapshot."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import gamelog
from bot.commands.layer import CommandLayer
from bot.gamelog import import_seats, read_export
from bot.reply import Caller, UserError
from bot.storage.store import Store
from bot.terminal.textcmd import parse
from engine.replay import ReplayBudgetError, filter_actions
from tests.fixture_util import load_export
from tests.store.test_bot_async_reminders import CH, acting_user, run, setup_game


def _export(**changes: Any) -> dict[str, Any]:
    export = load_export("1856", "hotseat001")
    export["actions"] = filter_actions(export["actions"])[:6]
    export.update(changes)
    return export


async def _import(layer: CommandLayer, export: dict[str, Any], channel: str = CH, user: str = "alice") -> Any:
    return await layer.handle(channel, Caller(user, user.capitalize(), guild="g1"), "game import",
                              {"file": json.dumps(export)})


# ---------------------------------------------------------------------- 1. cheap limits first
def test_an_export_with_thousands_of_players_is_refused_before_seats_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """8,000 players: refused by the count alone; no seat is built and no game replayed."""
    def no_seats(players: Any) -> Any:
        raise AssertionError("seats were built for an export that is refused by its player count")

    monkeypatch.setattr(gamelog, "import_seats", no_seats)
    export = _export(players=[{"id": i, "name": f"P{i}"} for i in range(8000)])
    with pytest.raises(UserError, match="8000 players; at most 8"):
        read_export(json.dumps(export))


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("title", "x" * 500, "title"),
        ("settings", {"optional_rules": ["o" * 500], "seed": 1}, "optional rule"),
        ("settings", {"optional_rules": ["o"] * 500, "seed": 1}, "optional rules"),
        ("settings", {"optional_rules": [], "seed": 10**30}, "seed"),
        ("actions", [{"type": "message", "id": 1, "message": "m" * 20_000}], "action 1"),
    ],
)
def test_every_field_of_an_export_has_a_size_limit(field: str, value: Any, why: str) -> None:
    with pytest.raises(UserError, match=why):
        read_export(json.dumps(_export(**{field: value})))


def test_seats_with_equal_names_are_numbered_in_one_pass() -> None:
    seats = import_seats([{"id": i, "name": "Ann"} for i in range(6)] + [{"id": "x", "name": "ann (2)"}])
    assert [s.name for s in seats] == ["Ann", "Ann (2)", "Ann (3)", "Ann (4)", "Ann (5)", "Ann (6)", "ann (2) (2)"]
    with pytest.raises(UserError, match="two players with the id '3'"):
        import_seats([{"id": 3, "name": "A"}, {"id": "3", "name": "B"}])


def _naive_filter(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """18xx.games' undo/redo as first written here (quadratic): the reference for the fast one."""
    active: list[dict[str, Any]] = []
    undone: list[list[dict[str, Any]]] = []
    for a in raw:
        kind = a.get("type")
        if kind == "undo":
            target = a.get("action_id")
            if target is not None:
                cut = max((i for i, x in enumerate(active) if x.get("id") == target), default=-1) + 1
            else:
                cut = max(max((i for i, x in enumerate(active) if x.get("type") != "message"), default=-1), 0)
            undone.append(active[cut:])
            del active[cut:]
        elif kind == "redo":
            if undone:
                active.extend(undone.pop())
        else:
            if kind != "message":
                undone.clear()
            active.append(a)
    return active


_step = st.one_of(
    st.builds(lambda i: {"type": "pass", "id": i}, st.integers(1, 12)),
    st.builds(lambda i: {"type": "message", "id": i}, st.integers(1, 12)),
    st.builds(lambda i: {"type": "undo", "id": 99, "action_id": i}, st.integers(0, 12)),
    st.just({"type": "undo", "id": 98}),
    st.just({"type": "redo", "id": 97}),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_step, max_size=40))
def test_undo_filtering_keeps_18xx_games_meaning(raw: list[dict[str, Any]]) -> None:
    assert filter_actions(raw) == _naive_filter(raw)


def test_undo_filtering_is_linear_in_undos_that_name_an_action() -> None:
    """25k messages then 25k undos to a message id: the work is counted, and stays linear."""
    raw: list[dict[str, Any]] = [{"type": "message", "id": i, "message": "hi"} for i in range(1, 25_001)]
    raw += [{"type": "undo", "id": 25_000 + i, "action_id": 25_001 - i} for i in range(1, 25_001)]
    steps: list[int] = []
    assert filter_actions(raw, steps=steps) == raw[:1]
    assert steps[0] <= 4 * len(raw)


def test_undo_and_redo_of_a_long_stretch_over_and_over_is_refused_by_the_budget() -> None:
    raw: list[dict[str, Any]] = [{"type": "pass", "id": i} for i in range(1, 20_001)]
    raw += [{"type": "undo", "action_id": 1} if i % 2 == 0 else {"type": "redo"} for i in range(20_000)]
    with pytest.raises(ReplayBudgetError, match="undo and redo"):
        filter_actions(raw, budget=20 * len(raw))


async def test_an_import_whose_undos_flap_a_long_stretch_is_refused_clearly(layer: CommandLayer) -> None:
    export = _export()
    acts = export["actions"]
    flaps = [{"type": "undo", "action_id": acts[0]["id"]} if i % 2 == 0 else {"type": "redo"} for i in range(40_000)]
    reply = await _import(layer, _export(actions=acts + [{"type": "message", "id": 100 + i} for i in range(9000)]
                                         + flaps))
    assert not reply.ok and "undo and redo" in reply.error and "Nothing was imported" in reply.error
    assert await layer.store.open_game(CH) is None


async def test_an_import_over_its_cpu_budget_is_refused_with_a_clear_message(
    layer: CommandLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gamelog, "IMPORT_CPU_SECONDS", 0.0)
    reply = await _import(layer, _export())
    assert not reply.ok and "too long to replay" in reply.error and "Nothing was imported" in reply.error
    assert await layer.store.open_game(CH) is None
    monkeypatch.setattr(gamelog, "IMPORT_CPU_SECONDS", 60.0)
    assert (await _import(layer, _export())).ok


# ---------------------------------------------------------------------- 2. one transaction per command
async def test_setting_provisional_values_commits_only_with_its_own_command(layer: CommandLayer) -> None:
    """/game rules bonuses: in one channel while imports run in 30 others: every import is
    answered truthfully and stored once; the values are stored too."""
    assert (await run(layer, "alice", "/game new title:1833NE", "ne")).ok
    done = asyncio.Event()

    async def keep_changing() -> list[Any]:
        out = []
        i = 0
        while not done.is_set():
            out.append(await run(layer, "alice", f'/game rules bonuses:"ferry={10 + i % 50}"', "ne"))
            i += 1
        return out

    async def import_all() -> list[Any]:
        try:
            return list(await asyncio.gather(*[_import(layer, _export(), f"imp{i}") for i in range(30)]))
        finally:
            done.set()

    changes, imports = await asyncio.gather(keep_changing(), import_all())
    replies = changes + imports
    assert len(changes) > 1
    assert all(r.ok for r in replies), [r.error for r in replies if not r.ok][:3]
    for i in range(30):
        row = await layer.store.open_game(f"imp{i}")
        assert row is not None and await layer.store.action_count(row.id) == 6
    ne = await layer.store.open_game("ne")
    assert ne is not None and ne.optional_rules and ne.optional_rules == (await layer.store.game(ne.id)).optional_rules


# ---------------------------------------------------------------------- 4. input that raised inside
@pytest.mark.parametrize("state", ["³", "①", "٣x", "1²"])
async def test_a_state_that_is_not_plain_digits_is_refused_clearly(layer: CommandLayer, state: str) -> None:
    await setup_game(layer, 6)
    user = await acting_user(layer)
    reply = await run(layer, user, f"/pass state:{state}")
    assert not reply.ok and "went wrong" not in reply.error and "state" in reply.error


async def test_a_lone_surrogate_in_an_imported_name_or_id_is_cleaned_or_refused(layer: CommandLayer) -> None:
    export = _export()
    export["players"][0] = {"id": "Player 1", "name": "A\ud800"}
    reply = await _import(layer, export)
    assert reply.ok, reply.error
    row = await layer.store.open_game(CH)
    assert row is not None and (await layer.store.seats(row.id))[0].name == "A"
    export = _export()
    export["players"][0]["id"] = "A\udfff"
    reply = await _import(layer, export, "other")
    assert not reply.ok and "went wrong" not in reply.error and "id" in reply.error


async def test_a_lone_surrogate_in_any_option_is_refused_clearly(layer: CommandLayer) -> None:
    reply = await layer.handle(CH, Caller("alice", "Alice"), "game new", {"title": "1856\ud800"})
    assert not reply.ok and "went wrong" not in reply.error


# ---------------------------------------------------------------------- 5. names cleaned
HOSTILE = "Alice\n**Conductor**: the host ended the game"


async def test_imported_names_are_cleaned_as_join_cleans_them(layer: CommandLayer) -> None:
    export = _export()
    export["players"][0] = {"id": "Player 1", "name": HOSTILE}
    export["players"][1] = {"id": "Player 2", "name": "\u202eevil\u202c `code` <@123> ||x||"}
    reply = await _import(layer, export)
    assert reply.ok, reply.error
    row = await layer.store.open_game(CH)
    assert row is not None
    names = [s.name for s in await layer.store.seats(row.id)]
    assert names[0] == "Alice Conductor: the host ended the game"
    assert names[1] == "evil code @123 x"
    text = "\n".join(reply.lines)
    assert "\n**Conductor**" not in text and "\u202e" not in text


async def test_join_cleans_the_same_characters(layer: CommandLayer) -> None:
    assert (await run(layer, "alice", "/game new title:1856")).ok
    reply = await layer.handle(CH, Caller("bob", "**Bob**\u202e"), "game join", {})
    assert reply.ok and reply.lines[0].startswith("Bob joins")
    reply = await layer.handle(CH, Caller("carol", "Carol"), "game join", {"name": "`x`"})
    assert reply.ok and reply.lines[0].startswith("x joins")


def test_the_status_picture_renders_with_an_imported_hostile_name() -> None:
    from render.status_image import render_status

    export = _export()
    export["players"][0] = {"id": "Player 1", "name": HOSTILE + " \u202e\ud800"}
    _, _, seats, _, game = read_export(json.dumps(export))
    assert render_status(game)[:8] == b"\x89PNG\r\n\x1a\n"
    assert "\n" not in seats[0].name


# ---------------------------------------------------------------------- 7. one snapshot
async def test_load_builds_the_state_it_stamps_from_one_read(tmp_path: Path) -> None:
    """Another process appends a move between reading the log length and the rows: the state's
    id must count the rows that were replayed (else a right state: is refused for a wrong reason)."""
    db = str(tmp_path / "two.db")
    one, two = await Store.open(db), await Store.open(db)
    try:
        first, second = CommandLayer(one, images=False), CommandLayer(two, images=False)
        await setup_game(first, 6)
        user = await acting_user(first)
        row = await two.open_game(CH)
        assert row is not None
        original = two.actions
        raced: list[bool] = []

        async def other_process_moves_first(*args: Any, **kwargs: Any) -> Any:
            if not raced:
                raced.append(True)
                assert (await run(first, user, "/pass")).ok
            return await original(*args, **kwargs)

        two.actions = other_process_moves_first  # type: ignore[method-assign]
        cached = await second.load(row)
        assert cached.seq == 7 and len(cached.game.action_log) == 7
    finally:
        await one.close()
        await two.close()


WRITES = [  # (user, line, channel): every command that writes, in an order where most succeed
    ("alice", "/game new title:1856", "w"),
    ("bob", "/game join", "w"),
    ("carol", "/game join", "w"),
    ("dave", "/game join", "w"),
    ("dave", "/game leave", "w"),
    ("alice", "/game start order:joined", "w"),
    ("alice", "/game settings remind_hours:12", "w"),
    ("bob", "/game notify tz:Europe/Berlin quiet:22-7", "w"),
    ("bob", "/game seat seat:Bob user:erin", "w"),
    ("erin", '/game seat seat:Bob user:bob', "w"),
    ("bob", "/game remind", "w"),
    ("root", "/creators role:builders", "w"),  # on another server: imports here go on
    ("root", "/creators role:everyone", "w"),
    ("alice", "/game new title:1833NE", "ne"),
    ("alice", '/game rules bonuses:"ferry=30"', "ne"),
    ("bob", "/game join", "ne"),
    ("carol", "/game join", "ne"),
    ("alice", "/game start order:joined", "ne"),
    ("alice", '/game rules bonuses:"ferry=40"', "ne"),
    ("carol", "/game concede confirm:yes", "ne"),
    ("alice", '/game sub seat:Carol user:dave', "ne"),
    ("alice", "/game end", "ne"),
]


async def test_every_writing_command_commits_only_its_own_writes_while_imports_run(layer: CommandLayer) -> None:
    """Each writing command (and some moves and an undo) in two channels while imports run in
    others all along: every import is answered truthfully and stored once; every command does
    what it should."""
    done = asyncio.Event()

    async def commands() -> list[tuple[str, Any]]:
        out = []
        for user, line, ch in WRITES:
            if user == "root":  # a server admin
                cmd = parse(line)
                reply = await layer.handle(ch, Caller(user, "Root", guild="g2", admin=True), cmd.name, cmd.params)
            else:
                reply = await run(layer, user, line, ch)
            out.append((line, reply))
        for _ in range(6):  # moves and an undo in the started 1856 game
            row = await layer.store.open_game("w")
            assert row is not None
            game = (await layer.load(row)).game
            seats = {s.player_id: s.user_id for s in await layer.store.seats(row.id)}
            user = str(seats[game.acting_players()[0]])
            out.append(("/pass", await run(layer, user, "/pass", "w")))
        out.append(("/game undo", await run(layer, user, "/game undo", "w")))
        out.append(("/game end", await run(layer, "alice", "/game end", "w")))
        done.set()
        return out

    async def importer(k: int) -> list[tuple[str, Any]]:
        out = []
        while not done.is_set():  # imports keep running until the last command is answered
            channel = f"imp{k}-{len(out)}"
            out.append((channel, await _import(layer, _export(), channel)))
        return out

    ran, *workers = await asyncio.gather(commands(), *[importer(k) for k in range(4)])
    imported = [r for w in workers for _, r in w]
    assert len(imported) >= 8
    for line, reply in ran:
        text = reply.error or ""
        assert "could not save" not in text and "went wrong" not in text, (line, text)
    failed = [(ln, r.error) for ln, r in ran if not r.ok]
    assert not failed, "; ".join(f"{ln}: {e}" for ln, e in failed)
    assert all(r.ok for r in imported), [r.error for r in imported if not r.ok][:3]
    for channel, _ in [x for w in workers for x in w]:
        row = await layer.store.open_game(channel)
        assert row is not None and await layer.store.action_count(row.id) == 6


async def test_display_names_from_discord_are_cleaned_too(layer: CommandLayer) -> None:
    await setup_game(layer, 6)
    reply = await layer.handle(CH, Caller("bob", "Bob", guild="g1"), "game seat",
                               {"seat": "Player 2", "user": "erin", "user_name": "Erin\n**Conductor**: hi\u202e"})
    assert reply.ok and reply.lines == ["Bob hands Player 2's seat to Erin Conductor: hi"]
