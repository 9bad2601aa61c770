"""The README's authorization table ("Who may do what"), checked cell by cell.

The table is read from README.md, so it cannot drift from what the bot does. Each cell runs its
command as that column's user on a fresh copy of one game (hotseat001 after 18 actions: BBG of
Player 1 lays track; hank imported it, alice, bob and carol hold Player 1, 2 and 3):

- anyone: zed (no seat); player: bob; holder: alice (Player 1: the acting seat, the named seat);
  host: hank (no seat); admin: ada (server admin, no seat).
- yes: accepted; no: refused with nothing changed; role / silent / vote / agree: see README.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.storage.store import Store
from bot.terminal.textcmd import parse
from engine.replay import filter_actions
from tests.fixture_util import load_export

ROOT = Path(__file__).resolve().parents[2]
GUILD = "g1"
CH = "table"
T0 = datetime(2024, 5, 6, 12, 0, tzinfo=UTC)
WHO = {"anyone": "zed", "player": "bob", "holder": "alice", "host": "hank", "admin": "ada"}
ROLE = "777"


def readme_table() -> dict[str, dict[str, str]]:
    """README's table: {command: {column: value}}."""
    text = (ROOT / "README.md").read_text()
    lines = text.split("<!-- authorization table -->", 1)[1].strip().splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    table = {}
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        command = re.findall(r"`([^`]+)`", cells[0])[0].split(" ...")[0]
        if cells[0].startswith("moves"):
            command = "moves"
        table[command] = dict(zip(head[1:], cells[1:], strict=True))
    return table


TABLE = readme_table()
CELLS = [(cmd, col, value) for cmd, row in TABLE.items() for col, value in row.items() if value != "—"]


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> datetime:
        return self.t


@dataclass
class Table:
    layer: CommandLayer
    clock: Clock

    async def run(self, who: str, line: str, channel: str = CH, roles: tuple[str, ...] = ()) -> Reply:
        cmd = parse(line)
        params = dict(cmd.params)
        if cmd.name == "game import":
            export = load_export("1856", "hotseat001")
            export["actions"] = filter_actions(export["actions"])[:3]
            params["file"] = json.dumps(export)
        caller = Caller(who, who.capitalize(), admin=who == "ada", guild=GUILD, roles=roles)
        return await self.layer.handle(channel, caller, cmd.name, params)

    async def row(self, channel: str = CH) -> Any:
        return await self.layer.store.open_game(channel)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("auth") / "template.db"

    async def build() -> None:
        store = await Store.open(str(path))
        try:
            t = Table(CommandLayer(store, images=False, clock=Clock()), Clock())
            export = load_export("1856", "hotseat001")
            export["actions"] = filter_actions(export["actions"])[:18]
            caller = Caller("hank", "Hank", guild=GUILD)
            assert (await t.layer.handle(CH, caller, "game import", {"file": json.dumps(export)})).ok
            for seat, user in (("Player 1", "alice"), ("Player 2", "bob"), ("Player 3", "carol")):
                assert (await t.run(user, f'/game claim seat:"{seat}"')).ok
        finally:
            await store.close()

    asyncio.run(build())
    return path


# ---------------------------------------------------------------------- what each command needs
async def _lobby(t: Table) -> None:
    """A game not started in channel "lobby": hank opened it, alice and bob joined."""
    assert (await t.run("hank", "/game new title:1856", "lobby")).ok
    assert (await t.run("alice", "/game join", "lobby")).ok
    assert (await t.run("bob", "/game join", "lobby")).ok


async def _free_seat(t: Table) -> None:
    row = await t.row()
    await t.layer.store.set_seat_user(row.id, 2, None)  # nobody holds Player 3


async def _alice_moved(t: Table) -> None:
    assert (await t.run("alice", "/lay hex:J15 tile:57-0 rotation:0")).ok


async def _broken_log(t: Table) -> None:
    await _alice_moved(t)
    row = await t.row()
    last = (await t.layer.store.actions(row.id))[-1]
    await t.layer.store.append_action(row.id, last.data, last.user_id)  # the same move twice
    t.layer._cache.clear()


@dataclass(frozen=True)
class Case:
    line: str
    channel: str = CH
    prepare: Callable[[Table], Awaitable[None]] | None = None


CASES = {
    "/game new": Case("/game new title:1856", "fresh"),
    "/game import": Case("/game import", "fresh"),
    "/game join": Case("/game join", "lobby", _lobby),
    "/game leave": Case('/game leave seat:"Alice"', "lobby", _lobby),
    "/game start": Case("/game start", "lobby", _lobby),
    "/game claim": Case('/game claim seat:"Player 3"', CH, _free_seat),
    "/game seat": Case('/game seat seat:"Player 1" user:dave'),
    "/game sub": Case('/game sub seat:"Player 1" user:dave'),
    "/game concede": Case('/game concede seat:"Player 1" confirm:yes'),
    "/game undo": Case("/game undo", CH, _alice_moved),
    "moves": Case("/lay hex:J15 tile:57-0 rotation:0"),
    "/game remind": Case("/game remind"),
    "/game end": Case("/game end confirm:yes"),
    "/game settings": Case("/game settings remind_hours:2"),
    "/game repair": Case("/game repair", CH, _broken_log),
    "/creators": Case(f"/creators role:{ROLE}"),
    "/games": Case("/games"),
    "/game history": Case("/game history"),
    "/stats": Case("/stats"),
    "/game status": Case("/game status"),
    "/game export": Case("/game export"),
}


def test_every_command_of_the_table_is_checked() -> None:
    assert set(TABLE) == set(CASES)
    assert all(v in {"yes", "no", "role", "silent", "vote", "agree", "—"} for row in TABLE.values()
               for v in row.values())


async def _fresh(template: Path, tmp_path: Path) -> tuple[Table, Store]:
    path = tmp_path / "bot.db"
    shutil.copy(template, path)
    store = await Store.open(str(path))
    clock = Clock()
    return Table(CommandLayer(store, images=False, clock=clock), clock), store


async def _refused(t: Table, who: str, case: Case, **kw: Any) -> None:
    before = await t.layer.store.dump()
    reply = await t.run(who, case.line, case.channel, **kw)
    assert not reply.ok, f"{case.line} by {who} was accepted: {reply.lines}"
    assert await t.layer.store.dump() == before, f"{case.line} by {who} changed something"


async def _accepted(t: Table, who: str, case: Case, **kw: Any) -> Reply:
    reply = await t.run(who, case.line, case.channel, **kw)
    assert reply.ok, f"{case.line} by {who}: {reply.error}"
    return reply


async def _holder(t: Table, seat: int = 0) -> str | None:
    return (await t.layer.store.seats((await t.row()).id))[seat].user_id


@pytest.mark.parametrize(("command", "column", "value"), CELLS, ids=[f"{c} {w}" for c, w, _ in CELLS])
async def test_cell(template: Path, tmp_path: Path, command: str, column: str, value: str) -> None:
    t, store = await _fresh(template, tmp_path)
    try:
        case = CASES[command]
        if case.prepare is not None:
            await case.prepare(t)
        who = WHO[column]
        if value == "yes":
            reply = await _accepted(t, who, case)
            if command == "/game undo":
                assert "undoes" in reply.lines[0]
            if command in ("/game seat", "/game sub"):
                assert await _holder(t) == "dave"
        elif value == "no":
            await _refused(t, who, case)
        elif value == "role":
            await _accepted(t, who, case)  # nobody restricted it yet
            await t.layer.store.set_creator_role(GUILD, ROLE)
            assert (await t.run("ada", "/game end confirm:yes", case.channel)).ok
            await _refused(t, who, case)
            await _accepted(t, who, case, roles=(ROLE,))
        elif value in ("silent", "vote"):
            t.clock.t = T0 + timedelta(hours=1)
            await _refused(t, who, case)
            t.clock.t = T0 + timedelta(days=8)  # alice has not moved for the game's sub_days (7)
            reply = await _accepted(t, who, case)
            if value == "silent":
                assert await _holder(t) == "dave"
            else:
                assert "votes needed" in reply.lines[0] and await _holder(t) == "alice"
        elif value == "agree":
            row = await t.row()
            count = await store.action_count(row.id)
            reply = await _accepted(t, who, case)
            assert "must agree" in reply.lines[0] and await store.action_count(row.id) == count
        else:
            raise AssertionError(f"unknown cell value {value!r}")
    finally:
        await store.close()


# ---------------------------------------------------------------------- beyond the table
async def test_listings_show_only_this_servers_games(template: Path, tmp_path: Path) -> None:
    """/games, /game history and /stats never list another server's games, nor (outside any
    server) every server's."""
    t, store = await _fresh(template, tmp_path)
    try:
        assert (await t.run("alice", "/games")).lines[0].startswith("**Running games** (1)")
        for guild in ("g2", None):
            caller = Caller("alice", "Alice", guild=guild)
            listed = await t.layer.handle("elsewhere", caller, "games", {})
            assert "No games" in listed.lines[0]
        assert (await t.run("hank", "/game end confirm:yes")).ok
        assert "won by" in "\n".join((await t.run("bob", "/game history")).lines)
        for guild in ("g2", None):
            caller = Caller("bob", "Bob", guild=guild)
            assert "No finished games" in (await t.layer.handle("x", caller, "game history", {})).lines[0]
            assert "no finished games" in (await t.layer.handle("x", caller, "stats", {})).lines[0]
    finally:
        await store.close()


async def test_a_free_seat_blocks_undoing_another_players_move(template: Path, tmp_path: Path) -> None:
    """The only seated user cannot undo the moves of seats nobody holds (issue: they could)."""
    t, store = await _fresh(template, tmp_path)
    try:
        await _alice_moved(t)
        row = await t.row()
        for pos in (1, 2):
            await store.set_seat_user(row.id, pos, None)
        assert (await t.run("alice", "/train train:2-0 price:100")).ok
        assert (await t.run("alice", "/pass")).ok  # WGB, of the free Player 2 seat, is to act
        assert (await t.layer.load(row)).game.acting_players() == ["Player 2"]
        before = await store.dump()
        reply = await t.run("alice", "/game undo")
        assert not reply.ok and "claim it first" in reply.error and await store.dump() == before
    finally:
        await store.close()


async def test_import_refuses_two_players_with_one_id_and_numbers_equal_names(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=False)
        export = load_export("1856", "89363")
        export["actions"] = []
        twice = {**export, "players": [{"id": 1, "name": "Ann"}, {"id": 1, "name": "Ben"}, {"id": 3, "name": "Cy"}]}
        before = await store.dump()
        reply = await layer.handle(CH, Caller("hank", "Hank"), "game import", {"file": json.dumps(twice)})
        assert not reply.ok and "two players with the id '1'" in reply.error and await store.dump() == before
        same = {**export, "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ann"}, {"id": 3, "name": "ann"}]}
        assert (await layer.handle(CH, Caller("hank", "Hank"), "game import", {"file": json.dumps(same)})).ok
        seats = await store.seats((await store.open_game(CH)).id)
        assert [(s.name, s.player_id) for s in seats] == [("Ann", "1"), ("Ann (2)", "2"), ("ann (3)", "3")]
        caller = Caller("bea", "Bea")
        assert (await layer.handle(CH, caller, "game claim", {"seat": "Ann (2)"})).ok
        assert [s.user_id for s in await store.seats((await store.open_game(CH)).id)] == [None, "bea", None]
    finally:
        await store.close()


def test_slash_commands_are_guild_only_and_creators_is_for_admins() -> None:
    """Nothing is offered in direct messages; /creators defaults to members with Manage Server;
    the caller's roles reach the command layer."""
    from types import SimpleNamespace
    from unittest.mock import MagicMock

    import discord
    from discord.ext import commands

    from bot.discord.cog import ConductorCog, caller_of

    cog = ConductorCog(MagicMock(spec=commands.Bot), MagicMock())
    top = cog.__cog_app_commands__
    assert len(top) > 20 and all(c.guild_only for c in top)
    creators = next(c for c in top if c.name == "creators")
    assert creators.default_permissions == discord.Permissions(manage_guild=True)
    assert all(c.default_permissions is None for c in top if c.name not in ("creators", "sync"))
    member = SimpleNamespace(id=5, name="ann", display_name="Ann", roles=[SimpleNamespace(id=777)],
                             guild_permissions=discord.Permissions.none())
    caller = caller_of(SimpleNamespace(user=member, guild_id=42))  # type: ignore[arg-type]
    assert caller == Caller("5", "Ann", False, "42", ("777",))
