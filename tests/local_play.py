"""Play an 18xx.games export in local mode from ``/game new``: each action typed as the command
a player types, by the user holding the acting seat (used by tests and bench/bench_posts.py). A
move the bot made itself (a pass where nothing can be done, a discard left no choice) is not
typed; where the bot discarded another train of the kind the export discarded, the two trains'
ids are swapped in the export's later actions (:class:`TrainIds`)."""

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
    skipped: list[dict[str, Any]] = []  # the moves the bot made itself, not typed
    trains = TrainIds()
    stored = len(await layer.store.actions(row.id))
    for raw in filter_actions(export["actions"])[:limit]:
        raw = trains.mapped(raw)
        line = action_to_command(raw)
        if line is None:
            continue
        entity = str(raw["entity"])
        if raw.get("entity_type") == "player":
            entity = str(pids.index(entity) + 1)
        if skipped:  # the bot moved already: the player has nothing to type
            made = skipped.pop(0)
            assert raw["type"] == made["type"] and str(made["entity"]) == entity, (raw, made)
            trains.follow(raw, made)
            continue
        game = (await layer.load(row)).game
        session.user = USERS[0] if raw["type"] == "end_game" else USERS[int(game.controller_of(entity)) - 1]
        printed = await session.run_line(line)
        offer = offer_in(printed)
        if offer is not None:  # a purchase from another player: its seller agreed (the record has it)
            session.user = offer[0]
            printed = await session.run_line(offer[1])
        skipped, stored = await bot_moves(layer.store, row.id, stored)
        yield line, printed, (await layer.load(row)).game


async def bot_moves(store: Store, game_id: int, stored: int) -> tuple[list[dict[str, Any]], int]:
    """The moves the bot made itself (passes for steps where nothing can be done, discards left
    no choice) in the log after its first ``stored`` rows, and the log's length now."""
    logged = await store.actions(game_id)
    return [dict(e.data) for e in logged[stored:] if e.user_id == SKIP_USER], len(logged)


class TrainIds:
    """The export's train ids as the bot's game has them. Where a corporation had to discard
    one of several alike trains, the bot discarded the first and the export perhaps another:
    from then on the two are swapped in the export's actions (alike trains: nothing else differs)."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}

    def follow(self, raw: dict[str, Any], made: dict[str, Any]) -> None:
        """The export's action ``raw`` (mapped) was made by the bot as ``made``."""
        if raw["type"] != "discard_train" or raw["train"] == made["train"]:
            return
        theirs, ours = str(raw["train"]), str(made["train"])
        back = {v: k for k, v in self.ids.items()}
        self.ids[back.get(theirs, theirs)], self.ids[back.get(ours, ours)] = ours, theirs

    def mapped(self, raw: dict[str, Any]) -> Any:
        if not self.ids:
            return raw
        return self._mapped(raw)

    def _mapped(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: (self.ids.get(v, v) if k in ("train", "exchange") and isinstance(v, str) else self._mapped(v))
                    for k, v in value.items()}
        if isinstance(value, list):
            return [self._mapped(v) for v in value]
        return value
