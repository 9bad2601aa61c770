"""The rows of :mod:`bot.storage.store` as dataclasses (a game, a seat, a logged action, an undo or
substitute vote, the turn clock, a user's reminder preferences, a final standing), the store's two
errors, and how a row is read from its columns (:func:`game_row`, ... and the JSON form
:meth:`bot.storage.store.Store.open_game` reads seats and the turn clock in).

Damaged rows (issue 28): text that is not UTF-8 is read as :class:`BadText` (the connection's
text factory, :func:`decode_text`) instead of failing the whole query. A game row with such
text, or optional rules or settings that are not JSON, is read with defaults and the damage
named in :attr:`GameRow.damage`; an action row that cannot be read becomes a ``damaged`` record
(:func:`action_data`); a turn clock that is not numbers reads as no clock (:func:`turn_row`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


class BadText(str):
    """Stored text that is not valid UTF-8, shown with replacement characters."""


def decode_text(data: bytes) -> str:
    """The connection's text factory: UTF-8, or :class:`BadText` instead of an error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return BadText(data.decode("utf-8", "replace"))


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
    damage: dict[str, str] = field(default_factory=dict)  # column -> what is wrong with it

    @property
    def broken(self) -> bool:
        """Damage the game cannot be played with (damaged settings are read as the defaults)."""
        return any(col != "settings" for col in self.damage)

    def damage_text(self) -> str:
        return "; ".join(self.damage.values())


@dataclass
class Seat:
    position: int
    name: str
    user_id: str | None
    player_id: str | None = None
    conceded: bool = False
    last_action_at: float | None = None
    user_name: str | None = None  # the holder's display name when they took the seat (None: not known)


def ever_started(seats: list[Seat]) -> bool:
    """Whether the game of ``seats`` was ever started: seats get their player ids at the start (an
    import has them); a game called off in the lobby has none."""
    return any(s.player_id for s in seats)


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
SEAT_COLS = "position, name, user_id, player_id, conceded, last_action_at, user_name"
TURN_COLS = "game_id, player_id, since, reminders_sent, next_at, idle_flagged, last_nudge_at"
RESULT_COLS = "game_id, position, player_id, name, user_id, rank, value, cash, conceded"


_SHOWN = {"optional_rules": "optional rules"}


def _json(text: Any, kind: type, col: str, damage: dict[str, str]) -> Any:
    """A JSON column that must hold a ``kind``: its value, or an empty one with the damage named."""
    if not isinstance(text, BadText):
        try:
            value = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            value = None
        if isinstance(value, dict) and kind is dict:
            return value
        if isinstance(value, list) and kind is list and all(isinstance(v, str) for v in value):
            return value
    damage.setdefault(col, f"its {_SHOWN.get(col, col)} are not JSON")
    return kind()


def game_row(row: Any) -> GameRow:
    damage: dict[str, str] = {}
    for i, col in enumerate(GAME_COLS.split(",")):
        if isinstance(row[i], BadText):
            damage[col.strip()] = f"its {col.strip().replace('_', ' ')} is not valid UTF-8 text"
    return GameRow(
        id=row[0],
        channel_id=row[1],
        title=row[2],
        optional_rules=_json(row[3], list, "optional_rules", damage),
        seed=row[4] if isinstance(row[4], int) else None,
        host_id=row[5],
        status=row[6],
        engine_version=row[7],
        created_at=row[8],
        last_ping_seat=row[9],
        status_message_id=row[10],
        guild_id=row[11],
        settings=_json(row[12] or "{}", dict, "settings", damage),
        started_at=row[13],
        ended_at=row[14],
        damage=damage,
    )


def votes(text: Any) -> list[str]:
    """A stored list of user ids (votes); a damaged one reads as no votes."""
    return _json(text, list, "votes", {})  # type: ignore[no-any-return]


def action_data(seq: int, text: Any) -> dict[str, Any]:
    """A stored action's data; one that cannot be read is a ``damaged`` record naming why (it
    does not replay: /game repair cuts the log back before it)."""
    if isinstance(text, BadText):
        why = "is not valid UTF-8 text"
    else:
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            why = "is not JSON"
        else:
            if isinstance(data, dict):
                return data
            why = "is not an action"
    return {"type": "damaged", "damaged": f"row {seq} of its log {why}"}


def seat_row(r: Any) -> Seat:
    return Seat(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6])


def turn_row(r: Any) -> Turn | None:
    """The turn clock; None (no clock: it starts afresh) when its columns are not what they must be."""
    num, opt = (int, float), (int, float, type(None))
    if not (
        isinstance(r[1], str | None)
        and not isinstance(r[1], BadText)
        and isinstance(r[2], num)
        and isinstance(r[3], int)
        and isinstance(r[4], opt)
        and isinstance(r[5], int)
        and isinstance(r[6], opt)
    ):
        log.warning("the turn clock of game %s is damaged (%r); it starts afresh", r[0], tuple(r))
        return None
    return Turn(r[0], r[1], float(r[2]), r[3], r[4], bool(r[5]), r[6])


def result_row(r: Any) -> ResultRow | None:
    """A final standing; None (left out, logged) when its numbers are not numbers."""
    if not all(isinstance(r[i], int) for i in (1, 5, 6, 7)):
        log.warning("a final standing of game %s is damaged (%r); it is left out", r[0], tuple(r))
        return None
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8]))


REALS = ("last_action_at", "since", "next_at", "last_nudge_at")  # times, stored as REAL


def as_json(cols: str) -> str:
    """Columns for json_array(); times go as quote() text, exact (JSON keeps 15 digits only)."""
    return ", ".join(
        f"quote({c})" if c in REALS else f"IIF(typeof({c}) = 'blob', quote({c}), {c})"  # JSON holds no blob
        for c in (c.strip() for c in cols.split(","))
    )


def from_json(values: list[Any], cols: str) -> tuple[Any, ...]:
    names = [c.strip() for c in cols.split(",")]
    return tuple(
        v if name not in REALS else None if v == "NULL" else _real(v)
        for v, name in zip(values, names, strict=True)
    )


def _real(v: Any) -> Any:
    """A quote()d time read back exactly; anything else (a damaged row) is kept as it is."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return v
