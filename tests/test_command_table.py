"""One command table: the terminal and Discord dispatch every command through
:data:`bot.command_table.COMMANDS`, and the Discord declarations name only commands of that table."""

from __future__ import annotations

from typing import Any

from bot.cog import ConductorCog
from bot.command_table import COMMANDS, find_command
from engine.moves import MOVES

DISCORD_ONLY = {"sync"}  # registers the slash commands; not a game command
TEXT_ONLY = {"moves"}  # the terminal's /moves (Discord offers autocomplete instead)


def _slash_names() -> set[str]:
    names: set[str] = set()
    for cmd in ConductorCog.__cog_app_commands__:
        children: list[Any] = list(getattr(cmd, "commands", []))
        names |= {c.qualified_name for c in children} if children else {cmd.qualified_name}
    return names


def test_every_slash_command_is_in_the_table() -> None:
    assert _slash_names() - DISCORD_ONLY <= set(COMMANDS)


def test_every_table_command_has_a_slash_command() -> None:
    assert set(COMMANDS) - TEXT_ONLY <= _slash_names()


def test_game_actions_are_table_entries() -> None:
    for name in MOVES:
        assert find_command(name).action
