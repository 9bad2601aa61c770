"""The text form of commands, as Discord shows them: ``/cmd [sub] key:value key:"value with spaces"``.

:func:`parse` turns a line into a :class:`CommandLine`; :func:`format_command` writes one back.
:func:`action_to_command` turns an 18xx.games export action into the command a player would type
(from the move table, :mod:`engine.moves`; the ``routes:`` text is :mod:`engine.moves.routes_text`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from engine.moves import command_options
from engine.moves.routes_text import format_routes, parse_routes

from ..commands.limits import MAX_LINE

__all__ = ["CommandLine", "CommandSyntaxError", "action_to_command", "format_command", "format_routes",
           "parse", "parse_routes"]

# Commands with subcommands (``/game new``); every other command is a single word.
GROUPS = ("game",)
# Commands whose first words, when not written key:value, name their subject (``/help bid``,
# ``/moves lay hex:F17``): they become this option.
SUBJECTS = {"help": "command", "moves": "command"}


class CommandSyntaxError(ValueError):
    """A command line that cannot be read; the message says how to write it."""


@dataclass
class CommandLine:
    name: str  # "par", "game new"
    params: dict[str, str] = field(default_factory=dict)


def parse(line: str) -> CommandLine:
    text = line.strip()
    if len(text) > MAX_LINE:
        raise CommandSyntaxError(f"That command is too long ({len(text)} characters; at most {MAX_LINE})")
    if not text.startswith("/"):
        raise CommandSyntaxError("Commands start with /, for example: /game status")
    lex = shlex.shlex(text[1:], posix=True)
    lex.whitespace_split = True
    lex.quotes = '"'
    lex.commenters = ""
    try:
        tokens = list(lex)
    except ValueError as exc:
        raise CommandSyntaxError(f"Cannot read that command: {exc} (close your quotes)") from None
    if not tokens:
        raise CommandSyntaxError("Type a command after /")
    name = tokens[0].lower()
    rest = tokens[1:]
    if name in GROUPS:
        if not rest or ":" in rest[0]:
            raise CommandSyntaxError(f"/{name} needs a subcommand, for example: /{name} status")
        name = f"{name} {rest[0].lower()}"
        rest = rest[1:]
    params: dict[str, str] = {}
    subject = SUBJECTS.get(name)
    if subject:
        words = []
        while rest and ":" not in rest[0]:
            words.append(rest.pop(0).lstrip("/"))
        if words:
            params[subject] = " ".join(words)
    last = None
    for tok in rest:
        key, sep, value = tok.partition(":")
        if not sep or not key:
            if last is None:
                raise CommandSyntaxError(f"Write options as key:value, not {tok!r}")
            # a word after a value goes on with it, as Discord takes it: seat:Player 1,
            # command:game import (quotes need not be typed)
            params[last] = f"{params[last]} {tok}"
            continue
        key = key.lower()
        if key in params:
            raise CommandSyntaxError(f"{key} is given twice")
        params[key] = value
        last = key
    return CommandLine(name, params)


def _quote(value: str) -> str:
    if value.split() != [value]:  # empty, or with whitespace (str.split's is str.isspace's)
        return '"' + value.replace('"', "") + '"'
    return value


def format_command(name: str, params: dict[str, Any] | None = None) -> str:
    parts = [f"/{name}"]
    for key, value in (params or {}).items():
        if value is None:
            continue
        parts.append(f"{key}:{_quote(str(value))}")
    return " ".join(parts)


# ---------------------------------------------------------------------- export actions -> commands
# the game's own records, typed as /game subcommands (they are not moves of the table)
_RECORDS: dict[str, tuple[str, dict[str, str]]] = {
    "end_game": ("game end", {"confirm": "yes"}),  # (the record of a confirmed /game end)
    "undo": ("game undo", {}),
}


def action_to_command(action: dict[str, Any]) -> str | None:
    """The command a player types for an 18xx.games action (None for chat messages)."""
    kind = str(action.get("type"))
    if kind == "message":
        return None
    if kind in _RECORDS:
        return format_command(*_RECORDS[kind])
    found = command_options(action)
    if found is None:
        raise CommandSyntaxError(f"No command for {kind} actions yet")
    return format_command(*found)
