"""Several bot processes on one PostgreSQL database, each running its own Discord shards
(``SHARD_COUNT`` / ``SHARD_IDS``), against the Discord stand-in: two servers on different shards,
a game in each; each server's commands reach only the process owning its shard; one process is
killed and restarted; nothing is lost and nothing is answered twice."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from bot.commands.layer import build_game
from bot.storage.store import Store
from bot.terminal.textcmd import action_to_command, parse
from engine.replay import filter_actions, replay, snapshot
from tests.discord_standin import Channel, DiscordStandIn, User
from tests.discord_standin.harness import finish, say, standin, start_conductor
from tests.fixture_util import load_export

__all__ = ["standin"]  # the fixture


class Table:
    """One server's game of 1856 (export 89363's moves), played through Discord."""

    def __init__(self, standin: DiscordStandIn, users: list[User], channel: Channel, export: dict[str, Any]):
        self.standin, self.users, self.channel, self.export = standin, users, channel, export
        self.user_of = {str(p["id"]): users[i] for i, p in enumerate(export["players"])}
        self.moves = [a for a in filter_actions(export["actions"]) if action_to_command(a)]
        self.played = 0
        self.answered: list[Any] = []

    async def open(self) -> None:
        _, msg = await say(self.standin, self.users[0], self.channel, "game new", {"title": "1856"})
        assert "opened a game of 1856" in msg.content
        for user in self.users[1:]:
            await say(self.standin, user, self.channel, "game join")
        _, msg = await say(self.standin, self.users[0], self.channel, "game start", {"order": "joined"})
        assert "1856 starts" in msg.content, msg.content

    async def play(self, n: int) -> None:
        for _ in range(n):
            raw = self.moves[self.played]
            before = replay({**self.export, "actions": self.moves[:self.played]}).game
            entity = str(raw["entity"])
            pid = entity if raw.get("entity_type") == "player" else before.controller_of(entity)
            cmd = parse(action_to_command(raw) or "")
            rec, msg = await say(self.standin, self.user_of[str(pid)], self.channel, cmd.name, cmd.params)
            assert not msg.ephemeral, msg.content
            self.answered.append(rec)
            self.played += 1

    async def unanswered(self) -> Any:
        """A move sent while no process runs the server's shard: Discord delivers it to nobody."""
        raw = self.moves[self.played]
        cmd = parse(action_to_command(raw) or "")
        user = self.users[0]
        return await self.standin.slash(user, self.channel, cmd.name, cmd.params)


async def _started(standin: DiscordStandIn, shard: int, env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    proc = await start_conductor(standin.api_base, standin.gateway_url, {**env, "SHARD_IDS": str(shard)}, cwd)
    await standin.wait_for(lambda: shard in standin.sessions and standin.sessions[shard].ws is not None
                           and standin.sessions[shard].shard == (shard, 2), 60, f"shard {shard} to connect")
    return proc


async def test_two_processes_on_two_shards_survive_one_being_killed(
        standin: DiscordStandIn, tmp_path: Path, pg_url: str) -> None:
    export = load_export("1856", "89363")
    standin.shard_count = 2
    users = [standin.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave")]
    east = standin.add_guild("East", users, shard=(0, 2))
    west = standin.add_guild("West", users, shard=(1, 2))
    env = {"DISCORD_TOKEN": standin.token, "DATABASE_URL": pg_url, "SHARD_COUNT": "2",
           "IMAGE_DIR": str(tmp_path / "images")}
    procs = {0: await _started(standin, 0, env, tmp_path), 1: await _started(standin, 1, env, tmp_path)}
    try:
        await standin.wait_for(lambda: len(standin.command_puts) == 1, 30, "the commands to be registered")
        # each process was told only of the server on its own shard
        assert [len(s.events) and [g["id"] for g in s.events[0]["d"]["guilds"]] for s in
                (standin.sessions[0], standin.sessions[1])] == [[str(east.id)], [str(west.id)]]
        tables = {0: Table(standin, users, east.channels[0], export), 1: Table(standin, users, west.channels[0], export)}
        for t in tables.values():
            await t.open()
            await t.play(4)

        procs[1].send_signal(signal.SIGKILL)  # the process of the west's shard dies without a word
        await procs[1].wait()
        await standin.wait_for(lambda: standin.sessions[1].ws is None, 10, "the dead shard's connection to drop")
        lost = await tables[1].unanswered()  # nobody runs the west's shard: no answer, nothing stored
        await tables[0].play(3)  # the east plays on
        await asyncio.sleep(1)
        assert not lost.callbacks and not lost.messages

        procs[1] = await _started(standin, 1, env, tmp_path)  # restarted: it serves the west again
        await tables[1].play(5)
        await tables[0].play(1)
    finally:
        for proc in procs.values():
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                code, lines = await finish(proc)
                assert code == 0, lines
    for t in tables.values():  # every move answered exactly once
        assert all(len(rec.callbacks) == 1 and not rec.refused for rec in t.answered)
    store = await Store.open(pg_url)
    try:
        for t in tables.values():  # nothing lost, nothing stored twice: the log is the moves played
            row = await store.open_game(str(t.channel.id))
            assert row is not None and row.guild_id == str(t.channel.guild_id)
            logged = await store.actions(row.id)
            assert len(logged) == t.played
            game = build_game(row, await store.seats(row.id), [e.data for e in logged])
            named = [{**p, "name": t.user_of[str(p["id"])].name} for p in export["players"]]
            expected = replay({**export, "players": named, "actions": t.moves[:t.played]}).game
            assert snapshot(game, {}) == snapshot(expected, {})
    finally:
        await store.close()


def test_shard_settings_are_read_and_wrong_ones_stop_the_bot_with_one_line(
        monkeypatch: Any, capsys: Any) -> None:
    from bot.cli import main
    from bot.config import load_settings
    from bot.discord.client import ConductorBot

    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1, 3")
    settings = load_settings()
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    bot = ConductorBot(settings)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    monkeypatch.delenv("SHARD_IDS")
    monkeypatch.delenv("SHARD_COUNT")
    assert ConductorBot(load_settings()).shard_count is None  # alone: as many shards as Discord asks for
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    for count, ids, why in (("2", "2", "between 0 and SHARD_COUNT - 1"), ("", "0", "SHARD_IDS needs SHARD_COUNT"),
                            ("two", "", "SHARD_COUNT must be a whole number of shards")):
        monkeypatch.setenv("SHARD_COUNT", count)
        monkeypatch.setenv("SHARD_IDS", ids)
        assert main(["run"]) == 2
        err = capsys.readouterr().err
        assert why in err and len(err.strip().splitlines()) == 1
