"""``/game repair``: rescue a game whose stored log no longer replays (written by an older engine,
by a bug, or edited by hand), from inside the bot.

The host (or a server admin) cuts the log back to the last record that still replays. The log is
append-only, so nothing is deleted: the broken game is ended and kept as it was (its full export
is attached to the reply), and the channel carries on with a new game holding the same seats,
settings and the good part of the log.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.game import Game

from ..gamelog import build_game, max_id
from ..reply import Attachment, Button, Caller, Reply, UserError
from ..service import CachedGame
from ..storage.rows import GameRow, Seat
from ..version import ENGINE_VERSION
from .access import require_host

if TYPE_CHECKING:
    from ..service import GameService


def replayable_prefix(
    row: GameRow, seats: list[Seat], raw: list[dict[str, Any]]
) -> tuple[int, str | None, Game]:
    """How many leading records of ``raw`` replay, why the next one does not (None: all do), and
    the game after them (CPU-bound: call through ``asyncio.to_thread``)."""
    game = build_game(row, seats, [])
    game.live = False
    for i, record in enumerate(raw):
        kind = record.get("type")
        try:
            if kind in ("undo", "redo"):  # they reach back in the log: replay it all again
                rebuilt = build_game(row, seats, raw[: i + 1])
                rebuilt.live = False
                game = rebuilt
            else:
                game.process(A.Action.from_dict(record))  # refused: the game stays as it was
        except Exception as exc:
            game.live = True
            return i, f"record {i + 1} (action {record.get('id')}, {kind}): {exc}", game
    game.live = True
    return len(raw), None, game


async def _repair_row(service: GameService, row: GameRow, caller: Caller) -> Reply:
    """The game's own row is damaged: settings that are not JSON go back to the defaults; other
    damage (its title, its optional rules) cannot be rebuilt from anything, so it is ended."""
    if row.broken:
        raise UserError(
            f"This game's stored record is damaged ({row.damage_text()}); that cannot be repaired "
            "from inside the bot. Take what can be read with /game export; the host or a server "
            "admin ends it with /game end."
        )
    await service.store.set_settings(row.id, {})
    row.settings, row.damage = {}, {}
    service.forget(row.id)
    return Reply(
        lines=[
            f"{caller.name} repaired the game: its settings are not JSON, so they are back to the "
            "defaults (see /remind to set them again)."
        ]
    )


async def game_repair(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row = await service.row(channel_id)
    require_host(row, caller, "repair the game's log")
    if row.damage:
        return await _repair_row(service, row, caller)
    if row.status != "active":
        raise UserError("The game has not started; there is no log to repair")
    seats = await service.store.seats(row.id)
    logged = await service.store.actions(row.id)
    raw = [e.data for e in logged]
    keep, failure, game = await asyncio.to_thread(replayable_prefix, row, seats, raw)
    if failure is None:
        raise UserError("This game's log replays from start to end; there is nothing to repair")
    old = Attachment(
        f"{row.title}-game-{row.id}-full-log.json", json.dumps(await service.export(row), indent=1).encode()
    )
    if (params.get("confirm") or "").lower() != "yes":
        return Reply(
            lines=[
                f"The log of game {row.id} stops replaying at {failure}. Repairing keeps its first "
                f"{keep} of {len(raw)} records and drops the rest; the full log stays stored with "
                "the old game and is attached here."
            ],
            ephemeral=True,
            files=[old],
            buttons=[Button("Cut the log back", "/game repair confirm:yes", "danger")],
        )
    # one transaction: the old game ends and the new one starts with the good part of the log
    await service.store.end_game(row.id)
    gid = await service.store.create_game(
        row.channel_id,
        row.title,
        row.optional_rules,
        row.host_id,
        ENGINE_VERSION,
        status="active",
        seed=row.seed,
        guild_id=row.guild_id,
        started_at=row.started_at,
    )
    await service.store.set_settings(gid, row.settings)
    await service.store.add_seats(gid, seats)
    for seq, entry in enumerate(logged[:keep], start=1):
        await service.store.append_action(gid, entry.data, entry.user_id, seq=seq)
    new_row = await service.store.game(gid)
    assert new_row is not None
    cached = CachedGame(keep, game, max_id(raw[:keep]))
    service.remember(gid, cached)
    reply = Reply(
        lines=[
            f"{caller.name} repaired the game: its log is cut back to the first {keep} of {len(raw)} "
            f"records (the rest stopped replaying at {failure}). The full log stays with the old "
            f"game {row.id} and is attached; play goes on as game {gid}."
        ],
        files=[old],
    )
    await service.after_change(new_row, cached, seats, reply)
    return reply
