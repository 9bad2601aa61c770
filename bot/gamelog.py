"""A game's stored log as a game: replaying it (:func:`build_game`, refusing a log this engine
cannot replay with :class:`ReplayError`), the next action id (:func:`max_id`), an action in words,
and reading an 18xx.games export as the bot stores it. Pure: no store, no Discord; the replays
are CPU-bound (call them through ``asyncio.to_thread``).

An export is checked cheapest first: its counts and the size of every field, then its seats (one
pass), then its undo/redo (linear, with a step budget), then the replay (a CPU budget): a hostile
file is refused before it costs much. A stored game whose own row is damaged, or whose title
this engine does not know, is refused with :class:`DamagedGame` (it can be exported and ended).
"""

from __future__ import annotations

import gzip
import io
import json
import time
import zlib
from collections.abc import Callable
from typing import Any, cast

from engine import actions as A
from engine.errors import GameError
from engine.game import Game
from engine.replay import ReplayBudgetError, filter_actions
from engine.titles.registry import canonical_title, new_game, title_names

from .commands import limits
from .reply import UserError
from .storage.rows import GameRow, Seat
from .version import ENGINE_VERSION

MAX_IMPORT_BYTES = limits.MAX_IMPORT_BYTES
MAX_IMPORT_ACTIONS = 50_000
MAX_IMPORT_PLAYERS = 8  # no title plays more; the engine checks each title's own range
MAX_TITLE = 40
MAX_OPTIONS = 32
MAX_OPTION = 64
MAX_ACTION_CHARS = 10_000  # one action as JSON (the largest real ones, routes, are ~1,300)
MAX_ID = 64  # a player's name or id in an export
IMPORT_CPU_SECONDS = 10.0  # an import's replay, CPU time of its worker thread (2,500 real actions: 0.1 s)
CHECKPOINT_EVERY = 32  # a live game saves its state for rollback every N actions (Game.process)


class ReplayError(UserError):
    """A stored or imported log that this engine cannot replay; ``failure`` names the action."""

    def __init__(self, row: GameRow, failure: str):
        super().__init__(
            f"This game (recorded with engine {row.engine_version}) cannot be replayed by engine "
            f"{ENGINE_VERSION}: {failure}. Export it with /game export and tell the bot's maintainers; "
            "the host can cut the log back to the last action that replays with /game repair."
        )
        self.failure = failure


def players(seats: list[Seat]) -> list[tuple[str, str]]:
    """The seats as the engine's players, (player id, name). Every seat of a started game has a
    player id (a lobby seat has none, and no game is built from a lobby)."""
    return [(cast(str, s.player_id), s.name) for s in seats]


class DamagedGame(UserError):
    """A stored game whose own row cannot be read (bot.storage.rows.GameRow.damage) or whose title
    this engine does not know: it cannot be played, only exported and ended."""

    def __init__(self, what: str):
        super().__init__(
            f"This game's stored record is damaged: {what}. It cannot be played; /game export takes "
            "what can be read, and the host or a server admin can end it with /game end."
        )
        self.what = what


def damage_of(row: GameRow) -> str | None:
    """What keeps a stored game from being built at all (None: nothing)."""
    if row.broken:
        return row.damage_text()
    if row.title not in title_names():
        return f"its title {row.title[:40]!r} is unknown to this engine"
    return None


class TooCostly(UserError):
    """An import whose replay would take more work than an import may."""


def build_game(
    row: GameRow,
    seats: list[Seat],
    raw_actions: list[dict[str, Any]],
    *,
    budget: int | None = None,
    cpu_seconds: float | None = None,
    watch: Callable[[Game], None] | None = None,
) -> Game:
    """Replay a stored game; a log the engine cannot replay is a clear error naming both versions.
    An import bounds the work: ``budget`` steps to sort out undo and redo, ``cpu_seconds`` of
    this thread's CPU for the replay (:class:`TooCostly`). ``watch`` sees the game after each
    replayed action."""
    damage = damage_of(row)
    if damage is not None:
        raise DamagedGame(damage)
    game = new_game(row.title, players(seats), row.optional_rules, row.seed)
    game.live = False  # automatic moves (programs) come from the stored record while rebuilding
    try:
        kept = filter_actions(raw_actions, budget=budget)
    except ReplayBudgetError as exc:
        raise TooCostly(f"That export is too costly to replay: {exc}. Nothing was imported.") from None
    start = time.thread_time()
    for n, raw in enumerate(kept):
        if cpu_seconds is not None and n % 16 == 0 and time.thread_time() - start >= cpu_seconds:
            raise TooCostly(
                f"That export takes too long to replay here (more than {cpu_seconds:g} s of CPU; "
                f"stopped at action {n + 1} of {len(kept)}). Nothing was imported."
            )
        if "damaged" in raw:  # a stored row that could not be read (bot.storage.store.Store.actions)
            raise ReplayError(row, str(raw["damaged"]))
        try:
            game.process(A.Action.from_dict(raw), safe=False)
        except Exception as exc:  # whatever the record holds, it does not replay
            raise ReplayError(row, f"action {raw.get('id')} ({raw.get('type')}) fails: {exc}") from None
        if watch is not None:
            watch(game)
    game.live = True
    game.checkpoint_every = CHECKPOINT_EVERY  # only process() changes a live game: cheap rollback
    return game


def max_id(actions: Any) -> int:
    """The largest action id in a log (new actions get the next one)."""
    best = 0
    for data in actions:
        try:
            best = max(best, int(data.get("id") or 0))
        except (TypeError, ValueError):
            continue
    return best


def export_text(data: bytes) -> str:
    """An uploaded export file as text: a gzipped one (as 18xx.games' corpora and ``conductor
    replay`` take them) unpacked, never beyond :data:`MAX_IMPORT_BYTES` (a small file may unpack
    to gigabytes)."""
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as packed:
                data = packed.read(MAX_IMPORT_BYTES + 1)
        except (OSError, EOFError, zlib.error):
            raise UserError("That gzip file is damaged; attach the 18xx.games export again") from None
        if len(data) > MAX_IMPORT_BYTES:
            raise UserError("That file is too large for an 18xx.games export")
    return data.decode("utf-8", errors="replace")


def read_export(raw: str) -> tuple[str, dict[str, Any], list[Seat], list[dict[str, Any]], Game]:
    """An 18xx.games export checked as the bot will store it: title, settings, seats (one per
    player; two players with one id are refused, equal names told apart), the actions, and the
    game they replay to (CPU-bound: call through ``asyncio.to_thread``)."""
    try:
        export = json.loads(raw)
    except (ValueError, RecursionError):
        raise UserError("That file is not JSON; attach an 18xx.games export") from None
    if (
        not isinstance(export, dict)
        or not isinstance(export.get("players"), list)
        or not isinstance(export.get("actions", []), list)
        or "title" not in export
    ):
        raise UserError("That is not an 18xx.games export (it needs title, players and actions)")
    _cheap_limits(export)
    title = canonical_title(str(export["title"]))
    settings = export.get("settings") or {}
    actions = export.get("actions", [])
    seats = import_seats(export["players"])
    row = GameRow(
        0,
        "",
        title,
        [str(o) for o in settings.get("optional_rules") or []],
        settings.get("seed"),
        "",
        "active",
        ENGINE_VERSION,
        0,
    )
    try:
        game = build_game(
            row, seats, actions, budget=20 * len(actions) + 100_000, cpu_seconds=IMPORT_CPU_SECONDS
        )
    except ReplayError as exc:
        raise UserError(f"That export does not replay here: {exc.failure}. Nothing was imported.") from None
    except (GameError, RecursionError) as exc:
        raise UserError(f"That export cannot be loaded: {exc}") from None
    return title, settings, seats, actions, game


def _cheap_limits(export: dict[str, Any]) -> None:
    """Every count and size of an export, checked before any work that grows with them."""
    if not isinstance(export["title"], str | int) or len(str(export["title"])) > MAX_TITLE:
        raise UserError(f"The export's title is not one this bot knows (at most {MAX_TITLE} characters)")
    canonical_title(str(export["title"]))  # an unknown title is refused first (GameError)
    people = export["players"]
    if not people:
        raise UserError("The export has no players")
    if len(people) > MAX_IMPORT_PLAYERS:
        raise UserError(f"The export has {len(people)} players; at most {MAX_IMPORT_PLAYERS} can play")
    settings = export.get("settings") or {}
    if (
        not isinstance(settings, dict)
        or not isinstance(settings.get("optional_rules") or [], list)
        or not isinstance(settings.get("seed"), int | None)
    ):
        raise UserError(
            "The export's settings are not readable (optional_rules must be a list, seed a number)"
        )
    seed = settings.get("seed")
    if seed is not None and not -(2**63) <= seed < 2**63:
        raise UserError("The export's seed is too large (a 64-bit number at most)")
    options = settings.get("optional_rules") or []
    if len(options) > MAX_OPTIONS:
        raise UserError(f"The export has {len(options)} optional rules; at most {MAX_OPTIONS}")
    for o in options:
        if not isinstance(o, str) or len(o) > MAX_OPTION or not limits.plain(o):
            raise UserError(f"An optional rule of the export is not a short plain text (at most {MAX_OPTION} characters)")
    actions = export.get("actions", [])
    if len(actions) > MAX_IMPORT_ACTIONS or not all(isinstance(a, dict) for a in actions):
        raise UserError(f"The export's actions must be at most {MAX_IMPORT_ACTIONS} records")
    for i, a in enumerate(actions):
        if len(json.dumps(a)) > MAX_ACTION_CHARS:
            raise UserError(
                f"The export's action {i + 1} (id {str(a.get('id'))[:20]}) is longer than "
                f"{MAX_ACTION_CHARS} characters; no real action is. Nothing was imported."
            )


def import_seats(players: list[Any]) -> list[Seat]:
    """One seat per exported player. A player id may appear once (else two seats would be one
    player); seats with equal names get a number so each can be claimed by name. Names are
    cleaned as /game join cleans them (:func:`bot.commands.limits.clean_name`); ids must be plain text."""
    seats: list[Seat] = []
    ids: set[str] = set()
    taken: set[str] = set()  # every name and id in use, lower case
    numbered: dict[str, int] = {}  # a name -> the next number to try for it
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str | int):
            raise UserError(f"Player {i + 1} of the export has no name")
        raw_name, pid = str(p["name"]), str(p.get("id", p["name"])).strip()
        if len(raw_name) > 4 * MAX_ID or len(pid) > MAX_ID:
            raise UserError(f"Player {i + 1}'s name or id in the export is too long (at most {MAX_ID} characters)")
        name = limits.clean_name(raw_name)[:MAX_ID].strip()
        if not name:
            raise UserError(f"Player {i + 1} of the export has no name")
        if not pid or not limits.plain(pid):
            raise UserError(f"Player {i + 1}'s id in the export has characters that cannot be stored")
        if pid in ids:
            raise UserError(
                f"The export has two players with the id {pid!r}; each player needs their own id. "
                "Nothing was imported."
            )
        shown, n = name, numbered.get(name.lower(), 2)
        while shown.lower() in taken:  # each number is tried once per name: one pass in all
            shown, n = f"{name} ({n})", n + 1
        numbered[name.lower()] = n
        seats.append(Seat(i, shown, None, pid))
        ids.add(pid)
        taken |= {shown.lower(), pid.lower()}
    return seats


def describe_action(game: Game, raw: dict[str, Any]) -> str:
    """A logged action in words, naming its entity as the game does."""
    try:
        text = A.Action.from_dict(raw).describe(game.fmt)
    except ValueError:
        return str(raw.get("type"))
    entity = str(raw.get("entity"))
    return text.replace(entity, game.name_of(entity), 1)
