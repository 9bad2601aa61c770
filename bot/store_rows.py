"""The rows of :mod:`bot.store` as dataclasses (a game, a seat, a logged action, an undo or
substitute vote, the turn clock, a user's reminder preferences, a final standing), the store's two
errors, and how a row is read from its columns (:func:`game_row`, ... and the JSON form
:meth:`bot.store.Store.open_game` reads seats and the turn clock in).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do (for the operator)."""


class Conflict(Exception):
    """Another command or process changed the same rows first; nothing of this command was kept."""


@dataclass
class GameRow:
    id: int
    channel_id: str
    title: str
    optional_rules: list[str]
    seed: int | None
    host_id: str
    status: str
    engine_version: str
    created_at: float
    last_ping_seat: str | None = None
    status_message_id: str | None = None
    guild_id: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    started_at: float | None = None
    ended_at: float | None = None


@dataclass
class Seat:
    position: int
    name: str
    user_id: str | None
    player_id: str | None = None
    conceded: bool = False
    last_action_at: float | None = None


@dataclass
class LoggedAction:
    seq: int
    data: dict[str, Any]
    user_id: str | None


@dataclass
class UndoRequest:
    state_id: int
    requested_by: str
    votes: list[str] = field(default_factory=list)


@dataclass
class Turn:
    """Whose turn it is in a game and since when (the reminder clock)."""

    game_id: int
    player_id: str | None
    since: float
    reminders_sent: int = 0
    next_at: float | None = None
    idle_flagged: bool = False
    last_nudge_at: float | None = None


@dataclass
class UserPrefs:
    """A user's reminder preferences; quiet hours are minutes after local midnight."""

    user_id: str
    tz: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    dm: bool = False


@dataclass
class SubRequest:
    position: int
    target_user: str
    target_name: str
    requested_by: str
    votes: list[str] = field(default_factory=list)


@dataclass
class ResultRow:
    game_id: int
    position: int
    player_id: str
    name: str
    user_id: str | None
    rank: int
    value: int
    cash: int
    conceded: bool = False


GAME_COLS = (
    "id, channel_id, title, optional_rules, seed, host_id, status, engine_version, "
    "created_at, last_ping_seat, status_message_id, guild_id, settings, started_at, ended_at"
)
SEAT_COLS = "position, name, user_id, player_id, conceded, last_action_at"
TURN_COLS = "game_id, player_id, since, reminders_sent, next_at, idle_flagged, last_nudge_at"
RESULT_COLS = "game_id, position, player_id, name, user_id, rank, value, cash, conceded"


def game_row(row: Any) -> GameRow:
    return GameRow(
        id=row[0],
        channel_id=row[1],
        title=row[2],
        optional_rules=json.loads(row[3]),
        seed=row[4],
        host_id=row[5],
        status=row[6],
        engine_version=row[7],
        created_at=row[8],
        last_ping_seat=row[9],
        status_message_id=row[10],
        guild_id=row[11],
        settings=json.loads(row[12] or "{}"),
        started_at=row[13],
        ended_at=row[14],
    )


def seat_row(r: Any) -> Seat:
    return Seat(r[0], r[1], r[2], r[3], bool(r[4]), r[5])


def turn_row(r: Any) -> Turn:
    return Turn(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6])


def result_row(r: Any) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8]))


REALS = ("last_action_at", "since", "next_at", "last_nudge_at")  # times, stored as REAL


def as_json(cols: str) -> str:
    """Columns for json_array(); times go as quote() text, exact (JSON keeps 15 digits only)."""
    return ", ".join(f"quote({c.strip()})" if c.strip() in REALS else c.strip() for c in cols.split(","))


def from_json(values: list[Any], cols: str) -> tuple[Any, ...]:
    names = [c.strip() for c in cols.split(",")]
    return tuple(
        v if name not in REALS else None if v == "NULL" else float(v)
        for v, name in zip(values, names, strict=True)
    )
