"""A server's games and records: ``/games`` (running games, whose turn and since when),
``/game history`` (finished games with winners, a seat named with its holder: "alice (Player 1)") and ``/stats [user]`` (games, wins, average
placing), each about the caller's server only. A game whose record is damaged or does not
replay is listed as such; it never hides the others.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from engine.decisions import round_title
from engine.entities import listed

from ..gamelog import DamagedGame
from ..reminders import fmt_duration
from ..reply import Caller, Reply, UserError
from ..texts.summary import seat_label

if TYPE_CHECKING:
    from ..service import GameService

MAX_LISTED = 20
log = logging.getLogger(__name__)


def _when(ts: float | None) -> str:
    if ts is None:
        return "?"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _channel(channel_id: str) -> str:
    return f"<#{channel_id}>" if channel_id.isdigit() else f"#{channel_id}"


async def games(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    rows = await service.store.games_in_guild(caller.guild, "active")
    if not rows:
        return Reply(lines=["No games are running on this server. Start one with /game new"], ephemeral=True)
    lines = [f"**Running games** ({len(rows)})"]
    now = service.now()
    for row in rows[:MAX_LISTED]:
        head = f"{_channel(row.channel_id)} {row.title} game {row.id}"
        async with service.lock(row.channel_id):  # its game is not changing meanwhile
            try:
                game = (await service.load(row)).game
                acting = game.acting_players()
                who = ", ".join(game.name_of(p) for p in acting)
                where = round_title(game, short=True)
            except DamagedGame as exc:
                lines.append(f"{head}: damaged ({exc.what}); the host or an admin can /game end it")
                continue
            except UserError:
                lines.append(f"{head}: cannot be replayed by this engine; the host can /game repair it")
                continue
            except Exception:  # one game must not hide the others
                log.exception("/games: game %s could not be read", row.id)
                lines.append(f"{head}: could not be read; the host or an admin can /game end it")
                continue
        turn = await service.store.turn(row.id)
        if not acting:
            lines.append(f"{head}: waiting for nobody")
            continue
        since = turn.since if turn else None
        when = f" for {fmt_duration(now - since)} (since {_when(since)})" if since is not None else ""
        flag = " · idle, flagged to the host" if turn and turn.idle_flagged else ""
        lines.append(f"{head} ({where}): {who} to act{when}{flag}")
    if len(rows) > MAX_LISTED:
        lines.append(f"... and {len(rows) - MAX_LISTED} more")
    return Reply(lines=lines, ephemeral=True)


async def game_history(
    service: GameService, channel_id: str, caller: Caller, params: dict[str, str]
) -> Reply:
    rows = [
        r
        for r in await service.store.games_in_guild(caller.guild, "ended")
        if r.started_at is not None or r.seed is not None
    ]
    if not rows:
        return Reply(lines=["No finished games on this server yet"], ephemeral=True)
    lines = [f"**Finished games** ({len(rows)}, newest first)"]
    for row in list(reversed(rows))[:MAX_LISTED]:
        results = await service.store.results(row.id)
        head = f"{row.title} game {row.id} in {_channel(row.channel_id)}, ended {_when(row.ended_at)}"
        if not results:
            lines.append(f"{head}: no result recorded")
            continue
        labels = {s.position: seat_label(s) for s in await service.store.seats(row.id)}
        named = [(r, labels.get(r.position, r.name)) for r in results]
        winners = [f"{name} with {r.value}" for r, name in named if r.rank == 1]
        rest = ", ".join(f"{r.rank}. {name} {r.value}" for r, name in named if r.rank != 1)
        lines.append(
            f"{head}: won by "
            + listed(winners)
            + (f"; {rest}" if rest else "")
        )
    return Reply(lines=lines, ephemeral=True)


async def stats(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    user = (params.get("user") or "").strip() or caller.id
    shown = (params.get("user_name") or "").strip() or (caller.name if user == caller.id else user)
    results = await service.store.results_of_user(user, caller.guild)
    if not results:
        return Reply(lines=[f"{shown} has no finished games on this server"], ephemeral=True)
    played = len(results)
    wins = sum(1 for r in results if r.rank == 1)
    avg = sum(r.rank for r in results) / played
    conceded = sum(1 for r in results if r.conceded)
    line = f"{shown}: {played} game{'s' if played != 1 else ''} played, {wins} won, average place {avg:.2f}"
    if conceded:
        line += f", {conceded} conceded"
    return Reply(lines=[line], ephemeral=True)
