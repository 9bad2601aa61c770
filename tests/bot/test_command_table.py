"""One command table: the terminal and Discord dispatch every command through
:data:`bot.commands.table.COMMANDS`, and the Discord declarations name only commands of that table."""

from __future__ import annotations

from typing import Any

from bot.commands.table import COMMANDS, find_command
from bot.discord.cog import ConductorCog
from engine.moves import MOVES

DISCORD_ONLY = {"sync"}  # registers the slash commands; not a game command
TEXT_ONLY: set[str] = set()  # every command of the table is a slash command too


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


def test_each_action_s_slash_options_are_its_move_s_options() -> None:
    """Discord's declaration of a game action is derived from its move: the same options, the
    same required ones, numbers as integers and yes/no as booleans, autocomplete where the move
    has choices."""
    from discord import AppCommandOptionType

    from engine.moves import MOVES

    kinds = {"text": AppCommandOptionType.string, "number": AppCommandOptionType.integer,
             "flag": AppCommandOptionType.boolean}
    slash = {c.qualified_name: c for c in ConductorCog.__cog_app_commands__}
    for name, move in MOVES.items():
        params = {p.name: p for p in slash[name].parameters}
        expected = {o.name for o in move.options} | ({"entity"} if move.ask_entity else set())
        assert set(params) == expected, name
        for o in move.options:
            assert params[o.name].required == o.required, (name, o.name)
            assert params[o.name].type == kinds[o.kind], (name, o.name)
            assert params[o.name].autocomplete == (o.choices is not None), (name, o.name)
