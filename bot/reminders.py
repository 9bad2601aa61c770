"""Reminders for the acting player, quiet hours, and the idle-game flag.

The schedule lives in the database (table ``turns``: whose turn, since when, how many reminders
were sent, when the next one is due), so a restarted bot carries on where it stopped. After a
reminder is sent the next one is due ``repeat`` after *now* (not after the missed due time), so
a bot that was down for days sends one reminder, not a burst of overdue ones. Quiet hours hold
a due reminder back until they end. A game idle past ``idle_days`` is flagged once to its host
and then no one is pinged any more.

:func:`due` is pure (given the time, the games and the users' preferences); :class:`Scheduler`
reads the store, claims each due reminder (its turn clock moved on, committed, only if no other
bot process moved it first), hands it to a delivery function, and puts the clock back when it
was not delivered. Games are checked one by one, each on its own: a game that fails is logged and
tried again at the next tick, and the others go on. A game whose stored record is damaged or
does not replay is reported once to its host, in its channel, with what is wrong and what to
do (/game repair, /game end). The scheduler is driven by the Discord
cog's background loop or by ``/tick`` in local mode. The clock is injected
(``Callable[[], datetime]``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .reply import UserError
from .storage.rows import GameRow, Turn, UserPrefs

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
HOUR = 3600.0
DAY = 86400.0
NUDGE_EVERY = HOUR  # /game remind: at most once an hour per game


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class ReminderSettings:
    """Per game (``/game settings``): first reminder after ``delay_hours`` without an action by the
    acting player, then every ``repeat_hours``, at most ``limit`` times; idle past ``idle_days``:
    flag the host; a player silent ``sub_days`` may be replaced by a vote."""

    delay_hours: float = 24.0
    repeat_hours: float = 24.0
    limit: int = 3
    idle_days: float = 30.0
    sub_days: float = 7.0

    KEYS = {
        "remind_hours": "delay_hours",
        "repeat_hours": "repeat_hours",
        "reminders": "limit",
        "idle_days": "idle_days",
        "sub_days": "sub_days",
    }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReminderSettings:
        base = cls()
        values = {attr: type(getattr(base, attr))(data[key]) for key, attr in cls.KEYS.items() if key in data}
        return replace(base, **values)

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(self, attr) for key, attr in self.KEYS.items()}

    def describe(self) -> str:
        reminders = (
            "no reminders" if self.limit == 0
            else f"first reminder after {_num(self.delay_hours)} h, then every {_num(self.repeat_hours)} h, "
            f"at most {self.limit}"
        )
        return (
            f"{reminders}; the host is told of an idle player after {_days(self.idle_days)}; "
            f"substitute vote after {_days(self.sub_days)} of silence"
        )


def _num(x: float) -> str:
    return f"{x:g}"


def _days(x: float) -> str:
    return f"{_num(x)} day{'' if x == 1 else 's'}"


def parse_settings(params: Mapping[str, str], current: ReminderSettings) -> ReminderSettings:
    """``/game settings`` parameters over the current settings; clear errors for bad values."""
    limits = {
        "remind_hours": (0.1, 24 * 30),
        "repeat_hours": (0.1, 24 * 30),
        "reminders": (0, 50),
        "idle_days": (1, 365),
        "sub_days": (1, 365),
    }
    values: dict[str, Any] = {}
    for key, attr in ReminderSettings.KEYS.items():
        raw = (params.get(key) or "").strip()
        if not raw:
            continue
        try:
            value = float(raw)
        except ValueError:
            raise UserError(f"{key} must be a number, not {raw!r}") from None
        lo, hi = limits[key]
        if not lo <= value <= hi:
            raise UserError(f"{key} must be between {_num(lo)} and {_num(hi)}")
        values[attr] = int(value) if key == "reminders" else value
    return replace(current, **values)


# ---------------------------------------------------------------------- time zones and quiet hours
_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.I)
_WINDOW = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?$")


def zone(name: str) -> tzinfo:
    """An IANA zone ("Europe/Berlin"), "UTC", or a fixed offset ("UTC+2", "-05:30")."""
    name = name.strip()
    if name.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = _OFFSET.match(name)
    if m:
        sign = 1 if m.group(1) == "+" else -1
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise UserError(f"{name} is not a UTC offset")
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError(
            f"Unknown time zone {name!r}; use a name like Europe/Berlin or an offset like UTC+2"
        ) from None


def parse_window(text: str) -> tuple[int, int] | None:
    """ "22-7" or "22:30-07:00" -> (start, end) in minutes after midnight; "off" -> None."""
    text = text.strip().lower()
    if text in ("off", "none", "no"):
        return None
    m = _WINDOW.match(text)
    if not m:
        raise UserError(
            f"Write quiet hours as FROM-TO in your local time, like 22-7 or 22:30-07:00 (not {text!r})"
        )
    h1, m1, h2, m2 = int(m.group(1)), int(m.group(2) or 0), int(m.group(3)), int(m.group(4) or 0)
    if h1 > 23 or h2 > 24 or m1 > 59 or m2 > 59:
        raise UserError("Hours are 0-23 and minutes 0-59")
    start, end = h1 * 60 + m1, (h2 * 60 + m2) % (24 * 60)
    if start == end:
        raise UserError("Quiet hours need a start and an end that differ")
    return start, end


def fmt_window(p: UserPrefs) -> str:
    if p.quiet_start is None or p.quiet_end is None:
        return "no quiet hours"
    return (
        f"quiet {p.quiet_start // 60:02d}:{p.quiet_start % 60:02d}-{p.quiet_end // 60:02d}:"
        f"{p.quiet_end % 60:02d} ({p.tz})"
    )


def is_quiet(p: UserPrefs | None, now: datetime) -> bool:
    """True when ``now`` falls in the user's quiet hours (their local time)."""
    if p is None or p.quiet_start is None or p.quiet_end is None:
        return False
    try:
        local = now.astimezone(zone(p.tz))
    except UserError:
        local = now.astimezone(UTC)
    m = local.hour * 60 + local.minute
    if p.quiet_start < p.quiet_end:
        return p.quiet_start <= m < p.quiet_end
    return m >= p.quiet_start or m < p.quiet_end


def fmt_duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m"


# ---------------------------------------------------------------------- the pure scheduler
@dataclass(frozen=True)
class Watch:
    """A running game as the scheduler sees it."""

    game_id: int
    channel_id: str
    title: str
    host_id: str
    turn: Turn
    user_id: str | None  # who holds the acting seat (None: a free or conceded seat)
    player_name: str
    what: str  # "waiting for BBG (president Alice): /lay, /pass"
    settings: ReminderSettings


@dataclass(frozen=True)
class Reminder:
    """One message to deliver: to ``user_id`` in the game's channel, or by direct message."""

    game_id: int
    channel_id: str
    user_id: str
    player_id: str | None
    kind: str  # "remind" (the acting player), "idle" or "damaged" (the host: its record is damaged)
    dm: bool
    text: str


def start_turn(
    game_id: int, player_id: str | None, now: float, settings: ReminderSettings, previous: Turn | None = None
) -> Turn:
    """A fresh turn clock: the acting player (``player_id``) has just been given the move."""
    nudge = previous.last_nudge_at if previous else None
    return Turn(
        game_id, player_id, now, 0, now + settings.delay_hours * HOUR if player_id else None, False, nudge
    )


def due(now: datetime, watches: list[Watch], prefs: Mapping[str, UserPrefs]) -> list[Reminder]:
    """The reminders to send at ``now`` (pure: nothing is marked)."""
    t = now.timestamp()
    out: list[Reminder] = []
    for w in watches:
        turn, s = w.turn, w.settings
        idle = t - turn.since
        if idle >= s.idle_days * DAY:
            if not turn.idle_flagged and not is_quiet(prefs.get(w.host_id), now):
                if w.user_id == w.host_id:  # the host is the one it waits for: told in the channel, for all
                    text = (f"{w.title} game {w.game_id} has waited for you ({w.player_name}) for "
                            f"{fmt_duration(idle)} ({w.what}); reminders have stopped. Move, or hand your seat "
                            "to someone (/game sub) or to the computer player (/game robot); after "
                            f"{_days(s.sub_days)} of silence the other players can vote to hand it over "
                            "(/game sub).")
                    dm = False
                else:
                    text = (f"{w.title} game {w.game_id} has been idle for {fmt_duration(idle)} "
                            f"({w.what}); reminders have stopped. As host you can hand the seat to "
                            "someone with /game sub, or end the game with /game end.")
                    dm = bool(prefs.get(w.host_id) and prefs[w.host_id].dm)
                out.append(Reminder(w.game_id, w.channel_id, w.host_id, turn.player_id, "idle", dm, text))
            continue
        if w.user_id is None or turn.next_at is None or turn.idle_flagged or turn.reminders_sent >= s.limit:
            continue
        if t < turn.next_at or is_quiet(prefs.get(w.user_id), now):
            continue
        p = prefs.get(w.user_id)
        out.append(
            Reminder(
                w.game_id,
                w.channel_id,
                w.user_id,
                turn.player_id,
                "remind",
                bool(p and p.dm),
                f"reminder {turn.reminders_sent + 1}/{s.limit}: your turn in {w.title} "
                f"({w.player_name}) for {fmt_duration(idle)}; {w.what}",
            )
        )
    return out


def after_sent(turn: Turn, reminder: Reminder, now: datetime, settings: ReminderSettings) -> Turn:
    """The turn clock once ``reminder`` went out: the next is due ``repeat`` after now."""
    if reminder.kind == "idle":
        return replace(turn, idle_flagged=True, next_at=None)
    sent = turn.reminders_sent + 1
    nxt = now.timestamp() + settings.repeat_hours * HOUR if sent < settings.limit else None
    return replace(turn, reminders_sent=sent, next_at=nxt)


# ---------------------------------------------------------------------- over the store
class Scheduler:
    """Finds due reminders in the database and marks them sent; one per bot process.

    Each game is checked under the game service's channel lock, so a move made at the same
    moment either resets the clock first (no reminder) or comes after the reminder."""

    def __init__(self, service: GameService, clock: Clock | None = None):
        self.service = service
        self.clock = clock or service.clock

    async def watch(self, game_id: int) -> Watch | None:
        store = self.service.store
        row = await store.game(game_id)
        if row is None or row.status != "active":
            return None
        try:
            cached = await self.service.load(row)
        except UserError:  # a log this engine cannot replay: nothing sensible to remind about
            return None
        game = cached.game
        if game.finished:
            return None
        turn = await store.turn(game_id)
        if turn is None:  # a game from before reminders existed: its clock starts now
            acting = game.acting_players()
            turn = start_turn(
                row.id,
                acting[0] if acting else None,
                self.clock().timestamp(),
                ReminderSettings.from_dict(row.settings),
            )
            await store.save_turn(turn)
        from .acting import waiting_for

        seats = await store.seats(game_id)
        seat = next((s for s in seats if s.player_id == turn.player_id), None)
        user = seat.user_id if seat and not seat.conceded else None
        name = seat.name if seat else str(turn.player_id)
        return Watch(
            row.id,
            row.channel_id,
            row.title,
            row.host_id,
            turn,
            user,
            name,
            waiting_for(game),
            ReminderSettings.from_dict(row.settings),
        )

    async def _prefs(self, watches: list[Watch]) -> dict[str, UserPrefs]:
        users = {u for w in watches for u in (w.user_id, w.host_id) if u}
        return {u: await self.service.store.prefs(u) for u in users}

    async def due_reminders(self, now: datetime | None = None) -> list[Reminder]:
        """What would be sent now (nothing is marked)."""
        now = now or self.clock()
        watches = [w for g in await self._active_ids() if (w := await self.watch(g)) is not None]
        return due(now, watches, await self._prefs(watches))

    async def _active_ids(self) -> list[int]:
        return [g.id for g in await self.service.store.active_games()]

    async def tick(self, deliver: Callable[[Reminder], Awaitable[bool]] | None = None) -> list[Reminder]:
        """Deliver the reminders due now; returns those delivered. ``deliver`` sends one and says
        whether it arrived; only then is it marked sent (one that did not is tried again at the
        next tick). Without ``deliver`` the reminders are marked as they are returned, for a
        caller that shows them at once (local mode, tests)."""
        now = self.clock()
        out: list[Reminder] = []
        for gid in await self._active_ids():
            try:
                out += await self._tick_game(gid, now, deliver)
            except Exception:  # one game must not stop the others; it is tried again next tick
                log.exception("reminders for game %s failed; trying again at the next tick", gid)
        return out

    async def _tick_game(
        self, gid: int, now: datetime, deliver: Callable[[Reminder], Awaitable[bool]] | None
    ) -> list[Reminder]:
        store = self.service.store
        row = await store.game(gid)
        if row is None:
            return []
        out = []
        async with self.service.lock(row.channel_id):
            problem = await self._damage(row)
            if problem is not None:
                out += await self._report(row, problem, now, deliver)
                if row.broken or not row.damage:  # it cannot be played: nothing to remind of
                    return out
            w = await self.watch(gid)
            if w is None:
                return []
            for r in due(now, [w], await self._prefs([w])):
                # claimed (committed) before it is sent: of several bot processes one sends it
                sent = after_sent(w.turn, r, now, w.settings)
                async with store.transaction():
                    if not await store.claim_turn(w.turn, sent):
                        break  # another process claimed it, or a move reset the clock
                delivered = False
                try:
                    delivered = deliver is None or await deliver(r)
                finally:
                    if not delivered:  # not delivered (or it raised): due again at the next tick
                        async with store.transaction():
                            await store.claim_turn(sent, w.turn)
                if not delivered:
                    continue
                async with store.transaction():
                    await store.log_reminder(gid, r.player_id, r.user_id, r.kind, r.dm, now.timestamp())
                out.append(r)
        return out


    async def _damage(self, row: GameRow) -> str | None:
        """What is wrong with a game's stored record (None: nothing)."""
        if row.damage:
            return row.damage_text()
        try:
            await self.service.load(row)
        except UserError as exc:
            return str(getattr(exc, "what", None) or getattr(exc, "failure", None) or exc)
        return None

    async def _report(
        self, row: GameRow, problem: str, now: datetime, deliver: Callable[[Reminder], Awaitable[bool]] | None
    ) -> list[Reminder]:
        """Tell the host (in the game's channel, where admins see it too) once what is wrong with
        the game's record and what they can do ([] when told already or not delivered)."""
        store = self.service.store
        if any(kind == "damaged" for _, _, kind, _, _ in await store.reminders_log(row.id)):
            return []
        log.warning("game %s in channel %s is damaged: %s", row.id, row.channel_id, problem)
        r = Reminder(
            row.id,
            row.channel_id,
            row.host_id,
            None,
            "damaged",
            False,
            f"{row.title} game {row.id} in this channel has a damaged record: {problem}. Other games "
            "are not affected. As host (or a server admin) you can /game repair it (the log cut back "
            "to its last good action, or the settings back to the defaults) or /game end it; "
            "/game export takes what can be read.",
        )
        if deliver is not None and not await deliver(r):
            return []
        async with store.transaction():
            await store.log_reminder(row.id, None, row.host_id, "damaged", False, now.timestamp())
        return [r]


__all__ = [
    "Clock",
    "Reminder",
    "ReminderSettings",
    "Scheduler",
    "Watch",
    "after_sent",
    "due",
    "is_quiet",
    "start_turn",
    "utc_now",
    "zone",
]
