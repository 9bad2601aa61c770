"""Player-facing fixes from the late-game play-test (1856 and 1836Jr56 from the middle of real
games to their end, in local mode): each test types the commands a player typed and checks
what the bot answered.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from engine.replay import filter_actions
from tests.fixture_util import load_export


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[LocalSession]:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        yield LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="p1")
    finally:
        await store.close()


async def typed(session: LocalSession, script: str) -> list[str]:
    """Type each line of ``script``; every one must be accepted. Returns the last reply."""
    printed: list[str] = []
    for line in script.strip().splitlines():
        printed = await session.run_line(line)
        assert not (printed and printed[0].startswith("!")), (line, printed)
    return printed


async def imported(session: LocalSession, tmp_path: Path, title: str, name: str, before: int) -> None:
    """The stored game ``name`` imported with its actions before id ``before``; user pN holds the
    seat of its N-th player."""
    export = load_export(title, name)
    export["actions"] = [a for a in filter_actions(export["actions"]) if a["id"] < before]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(export))
    lines = [f"/game import file:{path}"]
    for i, player in enumerate(export["players"], 1):
        lines += [f"/as p{i}", f'/game claim seat:"{player["name"]}"']
    await typed(session, "\n".join(lines))


async def test_help_for_an_any_time_command_asked_without_a_seat(session: LocalSession, tmp_path: Path) -> None:
    """/help command:autopass (autobuy, autostop) typed by someone without a seat in a channel with
    a running game answered "Something went wrong on our side" (an IndexError); now the help."""
    await imported(session, tmp_path, "1856", "hotseat006", 98)
    await session.run_line("/as zed")
    for name in ("autopass", "autobuy", "autostop"):
        printed = await session.run_line(f"/help command:{name}")
        assert printed[0].startswith(f"(only zed can see this) **/{name}"), printed
        assert printed[-1] == "Now: You do not hold a seat in this game", printed
