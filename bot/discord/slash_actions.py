"""The Discord declarations of the game actions (``/bid``, ``/par``, ``/lay``, ...), derived from
the move table (:data:`engine.moves.MOVES`): one slash command per move, its options typed for
Discord (text, whole number, yes/no; optional ones may be left out), each with its description
and autocomplete from the move's legal choices; a command hands its options, as text, to the
command layer through :meth:`bot.discord.cog.ConductorCog.run`. A base cog of :class:`bot.discord.cog.ConductorCog`.
"""

from __future__ import annotations

import inspect
import keyword
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.moves import MOVES, Move

from ..play import ENTITY_OPTION
from .io import complete, str_params, yn

if TYPE_CHECKING:
    from ..reply import Reply

_TYPES: dict[str, type] = {"text": str, "number": int, "flag": bool}


def _parameters(move: Move) -> list[inspect.Parameter]:
    kw = inspect.Parameter.KEYWORD_ONLY
    out = []
    for o in move.options:
        annotation: Any = _TYPES[o.kind]
        if o.required:
            out.append(inspect.Parameter(o.name, kw, annotation=annotation))
        else:
            out.append(inspect.Parameter(o.name, kw, annotation=annotation | None, default=None))
    if move.ask_entity:
        out.append(inspect.Parameter(ENTITY_OPTION[0], kw, annotation=str | None, default=None))
    return out


def slash_command(move: Move) -> app_commands.Command[Any, Any, None]:
    """The slash command of ``move`` (a method of the cog: ``self`` is the cog)."""

    async def callback(self: _Base, interaction: discord.Interaction, **values: Any) -> None:
        typed = {k: yn(v) if isinstance(v, bool) else v for k, v in values.items()}
        await self.run(interaction, move.command, str_params(**typed))

    params = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        *_parameters(move),
    ]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = move.command
    callback.__qualname__ = f"ActionSlashCommands.{move.command}"  # a method: discord.py skips self
    described = {o.name: o.description[:100] for o in move.options}
    if move.ask_entity:
        described[ENTITY_OPTION[0]] = ENTITY_OPTION[1][:100]
    completed = {o.name: complete for o in move.options if o.choices is not None}
    if move.ask_entity:
        completed[ENTITY_OPTION[0]] = complete
    decorated: Any = app_commands.describe(**described)(callback)
    if completed:
        decorated = app_commands.autocomplete(**completed)(decorated)
    description = (move.help[:1].upper() + move.help[1:])[:100]
    return app_commands.Command(name=move.command, description=description, callback=decorated)


def _attribute(command: str) -> str:
    """The cog attribute holding ``command`` (``pass_`` for /pass)."""
    return command + "_" if keyword.iskeyword(command) else command


class _Base(commands.Cog):
    if TYPE_CHECKING:  # provided by :class:`bot.discord.cog.ConductorCog`

        async def run(self, interaction: discord.Interaction, name: str, params: dict[str, str]) -> Reply: ...


if TYPE_CHECKING:

    class ActionSlashCommands(_Base): ...

else:
    # the cog's class body is the table: one command attribute per move (discord.py collects them)
    ActionSlashCommands = type(
        "ActionSlashCommands", (_Base,), {_attribute(m.command): slash_command(m) for m in MOVES.values()}
    )
