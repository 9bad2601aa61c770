"""Every command's options, a line of help and an example: an option a command does not have
is refused (not silently ignored), and ``/help NAME`` explains one command.

Game actions take their options from :data:`bot.play.ACTION_COMMANDS`; the other commands are
listed here. Options set by buttons or by the Discord adapter (``state``, ``vote``, ``confirm``,
``user_name``) are accepted but not shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from .play import ACTION_COMMANDS, ENTITY_PARAM, EXAMPLES
from .reply import UserError


@dataclass(frozen=True)
class Usage:
    name: str
    summary: str
    options: tuple[tuple[str, str], ...] = ()  # (option, what it is)
    required: tuple[str, ...] = ()
    example: str = ""
    hidden: tuple[str, ...] = ()  # options set by buttons or the Discord adapter


_SEAT = ("seat", "a seat name")
_GAME_COMMANDS = (
    Usage("help", "the commands; /help NAME explains one", (("command", "a command name"),), example="/help lay"),
    Usage("moves", "what you can do now, with the exact commands: /moves, /moves lay hex:F17, /moves token",
          (("command", "a game action, then its options so far"),), example="/moves lay hex:F17"),
    Usage("game new", "open a game in this channel", (("title", "1856, 1836Jr56 or 1833NE"),
                                                        ("options", "optional rules, separated by spaces"),
                                                        ("bonuses", "1833NE: values from your rulebook")),
          ("title",), "/game new title:1856 options:alternate_destinations"),
    Usage("game rules", "1833NE's provisional values; the host sets them before the first operating round",
          (("bonuses", "e.g. Boston-Portland=50/50/80/80/0 ferry=20"),), example="/game rules"),
    Usage("game join", "take a seat (name: takes another seat yourself)", (("name", "a seat name"),),
          example="/game join"),
    Usage("game leave", "leave before the game starts", (_SEAT,), example="/game leave"),
    Usage("game start", "start the game (host)", (("order", "random or joined"),), example="/game start order:random"),
    Usage("game status", "who must act and what they can do, with the pictures", example="/game status"),
    Usage("game undo", "undo the last action (others agree when it was not yours)", example="/game undo",
          hidden=("vote",)),
    Usage("game export", "the game as an 18xx.games export", example="/game export"),
    Usage("game import", "load an 18xx.games export; players then claim seats", (("file", "the export"),),
          ("file",), "/game import file:game.json"),
    Usage("game claim", "take a free seat of an imported game", (_SEAT,), ("seat",), '/game claim seat:"Player 1"'),
    Usage("game seat", "hand a seat to another user", (_SEAT, ("user", "who takes it")), ("seat", "user"),
          '/game seat seat:"Player 1" user:@bob', hidden=("user_name",)),
    Usage("game settings", "reminder settings (the host changes them)",
          (("remind_hours", "hours before the first reminder"), ("repeat_hours", "hours between reminders"),
           ("reminders", "how many reminders"), ("idle_days", "days before the host hears of it"),
           ("sub_days", "days of silence before a vote may hand the seat over")),
          example="/game settings remind_hours:12"),
    Usage("game notify", "your reminders: time zone, quiet hours, direct messages",
          (("tz", "a time zone like Europe/Berlin"), ("quiet", "quiet hours like 22-7, or off"),
           ("dm", "yes or no")), example="/game notify tz:Europe/Berlin quiet:22-7"),
    Usage("game remind", "remind the acting player (at most once an hour)", example="/game remind"),
    Usage("game sub", "hand a seat to a substitute", (("user", "the substitute"), _SEAT), ("user",),
          "/game sub user:@carol", hidden=("user_name", "vote")),
    Usage("game concede", "leave the game: the seat then moves automatically", (_SEAT,), example="/game concede",
          hidden=("confirm",)),
    Usage("game history", "this server's finished games", example="/game history"),
    Usage("game end", "end the game (host or server admin)", example="/game end"),
    Usage("games", "this server's running games", example="/games"),
    Usage("stats", "games played, wins and average placing", (("user", "whose"),), example="/stats",
          hidden=("user_name",)),
)


def _action_usage() -> dict[str, Usage]:
    out = {}
    for cmd in ACTION_COMMANDS.values():
        options = (*((p.name, p.description) for p in cmd.params), (ENTITY_PARAM.name, ENTITY_PARAM.description))
        required = tuple(p.name for p in cmd.params if p.required)
        out[cmd.name] = Usage(cmd.name, cmd.help, options, required, EXAMPLES.get(cmd.name, f"/{cmd.name}"))
    return out


USAGE: dict[str, Usage] = {**{u.name: u for u in _GAME_COMMANDS}, **_action_usage()}
ALWAYS = ("state",)  # the state id stamped on buttons


def command_names() -> list[str]:
    return list(USAGE)


def find_usage(name: str) -> Usage:
    key = " ".join(name.strip().lstrip("/").lower().split())
    if key in USAGE:
        return USAGE[key]
    if "game " + key in USAGE:
        return USAGE["game " + key]
    raise UserError(f"There is no command /{key}; /help lists them all")


def check_options(name: str, params: dict[str, str]) -> None:
    """Refuse an option ``/name`` does not have (unknown commands are the dispatcher's to refuse)."""
    usage = USAGE.get(name)
    if usage is None:
        return
    allowed = {o for o, _ in usage.options} | set(usage.hidden) | set(ALWAYS)
    if name == "moves" and params.get("command"):
        inner = USAGE.get(params["command"].strip().lstrip("/").lower())
        allowed |= {o for o, _ in inner.options} if inner else set()
    unknown = [k for k in params if k not in allowed]
    if unknown:
        shown = ", ".join(f"{o}:" for o, _ in usage.options) or "none"
        raise UserError(f"/{name} has no option {unknown[0]}: (its options: {shown}); nothing was done")


def usage_line(usage: Usage) -> str:
    """"/lay hex: tile: [rotation:] [entity:]"."""
    parts = [f"/{usage.name}"]
    for option, _ in usage.options:
        parts.append(f"{option}:" if option in usage.required else f"[{option}:]")
    return " ".join(parts)


def help_lines(usage: Usage) -> list[str]:
    lines = [f"**{usage_line(usage)}**: {usage.summary}"]
    if usage.options:
        lines.append(" · ".join(f"{o}: {what}" for o, what in usage.options))
    if usage.example:
        lines.append(f"Example: {usage.example}")
    return lines
