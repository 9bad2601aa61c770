"""Play an 18xx.games export in local mode from ``/game new``: each action typed as the command
a player types, by the user holding the acting seat (used by tests and bench/bench_posts.py). A
pass the bot made itself (a step where nothing can be done) is not typed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from bot.service import SKIP_USER
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from bot.terminal.textcmd import action_to_command
from engine.replay import filter_actions
from tests.command_script import offer_in

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
    skipped: list[str] = []  # entities of the passes the bot made for steps where nothing can be done
    stored = len(await layer.store.actions(row.id))
    for raw in filter_actions(export["actions"])[:limit]:
        line = action_to_command(raw)
        if line is None:
            continue
        entity = str(raw["entity"])
        if raw.get("entity_type") == "player":
            entity = str(pids.index(entity) + 1)
        if skipped:  # the bot passed already: the player has nothing to type
            assert raw["type"] == "pass" and skipped[0] == entity, (raw, skipped)
            skipped.pop(0)
            continue
        game = (await layer.load(row)).game
        session.user = USERS[0] if raw["type"] == "end_game" else USERS[int(game.controller_of(entity)) - 1]
        printed = await session.run_line(line)
        offer = offer_in(printed)
        if offer is not None:  # a purchase from another player: its seller agreed (the record has it)
            session.user = offer[0]
            printed = await session.run_line(offer[1])
        skipped, stored = await bot_passes(layer.store, row.id, stored)
        yield line, printed, (await layer.load(row)).game


async def bot_passes(store: Store, game_id: int, stored: int) -> tuple[list[str], int]:
    """The entities of the passes the bot made itself (steps where nothing can be done) in the
    log after its first ``stored`` rows, and the log's length now."""
    logged = await store.actions(game_id)
    return [str(e.data["entity"]) for e in logged[stored:] if e.user_id == SKIP_USER], len(logged)
