"""Play an 18xx.games export in local mode from ``/game new``: each action typed as the command
a player types, by the user holding the acting seat (used by tests and bench/bench_posts.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from bot.terminal.local import LocalSession
from bot.terminal.textcmd import action_to_command
from engine.replay import filter_actions

USERS = ["alice", "bob", "carol", "dave", "erin", "frank"]


async def lobby(session: LocalSession, title: str, players: int, options: str = "") -> list[str]:
    """``/game new`` by the first user, ``/game join`` by the others; returns the ``/game start`` reply
    (``order:joined``: seat N is player id "N")."""
    session.user = USERS[0]
    line = f"/game new title:{title}" + (f" options:{options}" if options else "")
    assert not (await session.run_line(line))[0].startswith("!")
    for user in USERS[1:players]:
        session.user = user
        assert not (await session.run_line("/game join"))[0].startswith("!")
    session.user = USERS[0]
    return await session.run_line("/game start order:joined")


async def play_export(session: LocalSession, export: dict[str, Any],
                      limit: int | None = None) -> AsyncIterator[tuple[str, list[str], Any]]:
    """Type the export's actions (the first ``limit``); yields (command, printed reply, game after)."""
    layer = session.layer
    row = await layer.store.open_game(session.channel)
    assert row is not None
    pids = [str(p["id"]) for p in export["players"]]
    for raw in filter_actions(export["actions"])[:limit]:
        line = action_to_command(raw)
        if line is None:
            continue
        game = (await layer.load(row)).game
        entity = str(raw["entity"])
        if raw.get("entity_type") == "player":
            entity = str(pids.index(entity) + 1)
        session.user = USERS[0] if raw["type"] == "end_game" else USERS[int(game.controller_of(entity)) - 1]
        printed = await session.run_line(line)
        yield line, printed, (await layer.load(row)).game
