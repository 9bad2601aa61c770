"""What the Discord adapter reads from an interaction and the small pieces of what it writes: the
caller (:func:`caller_of`), the options given (:func:`str_params`), the autocomplete of every
option with a fixed set of legal values (:func:`complete`, answered by the command layer), and
message text limits and mentions (a user; a command as a clickable ``</game new:ID>``). Shared by :mod:`bot.discord.cog` and its slash declarations
(:mod:`bot.discord.slash_game`, :mod:`bot.discord.slash_actions`).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from ..commands.layer import CommandLayer
from ..reply import Caller, fitted


def caller_of(interaction: discord.Interaction) -> Caller:
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    admin = bool(perms and (perms.administrator or perms.manage_guild))
    guild = getattr(interaction, "guild_id", None)
    roles = tuple(str(r.id) for r in getattr(user, "roles", None) or [])
    return Caller(
        str(user.id),
        getattr(user, "display_name", None) or user.name,
        admin,
        str(guild) if isinstance(guild, int) else None,
        roles,
    )


def one_user(user_id: str) -> discord.AllowedMentions:
    return these_users([user_id])


def these_users(user_ids: list[str]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (nobody else, no roles, no @everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in dict.fromkeys(user_ids)]
    )


def clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def yn(value: bool | None) -> str | None:
    return None if value is None else ("yes" if value else "no")


def str_params(**kwargs: Any) -> dict[str, str]:
    """The options given (None: not given), as the command layer takes them: text."""
    return {k: str(v) for k, v in kwargs.items() if v is not None}


def focused_option(options: list[dict[str, Any]]) -> tuple[str | None, dict[str, str]]:
    """The focused option's name and every option typed so far (autocomplete payload)."""
    focused, values = None, {}
    for opt in options:
        if "options" in opt:
            f, v = focused_option(opt["options"])
            focused = focused or f
            values.update(v)
            continue
        values[opt["name"]] = str(opt.get("value", ""))
        if opt.get("focused"):
            focused = opt["name"]
    return focused, values


async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
    """Autocomplete for every option with a fixed set of legal values (the command layer's
    choices for the caller now, <= 25); integer options get integer values."""
    cog = interaction.client.get_cog("Conductor") if hasattr(interaction.client, "get_cog") else None
    layer = getattr(cog, "layer", None)  # the Conductor cog's command layer
    command = interaction.command
    if not isinstance(layer, CommandLayer) or command is None:
        return []
    data: dict[str, Any] = dict(interaction.data or {})
    focused, values = focused_option(data.get("options", []))
    if focused is None:
        return []
    pairs = await layer.autocomplete(
        str(interaction.channel_id),
        caller_of(interaction),
        command.qualified_name,
        focused,
        values,
        str(current),
    )
    param = command.get_parameter(focused) if hasattr(command, "get_parameter") else None
    if getattr(param, "type", None) == discord.AppCommandOptionType.integer:
        return [
            app_commands.Choice(name=fitted(label, 100), value=int(value))
            for value, label in pairs
            if value.lstrip("-").isdigit()
        ][:25]
    return [app_commands.Choice(name=fitted(label, 100), value=value[:100]) for value, label in pairs][:25]


_COMMAND = re.compile(r"(?<![\w<:/])/([a-z][a-z0-9_-]*)(?: ([a-z][a-z0-9_-]*))?")


def command_names_of(tree: app_commands.CommandTree[Any]) -> set[str]:
    """Every command a user can run, by its full name ("game new", "lay"; not the group "game")."""
    out: set[str] = set()
    for command in tree.get_commands():
        if isinstance(command, app_commands.Group):
            out |= {c.qualified_name for c in command.walk_commands() if isinstance(c, app_commands.Command)}
        else:
            out.add(command.name)
    return out


def mention_commands(text: str, ids: dict[str, int], names: set[str]) -> str:
    """``/game new`` and ``/lay`` as Discord command mentions (clickable) where the command is
    registered with an id; anything else is left as written."""

    def one(m: re.Match[str]) -> str:
        first, second = m[1], m[2]
        if first not in ids:
            return m[0]
        if second and f"{first} {second}" in names:
            return f"</{first} {second}:{ids[first]}>"
        if first in names:
            return f"</{first}:{ids[first]}>" + (f" {second}" if second else "")
        return m[0]

    return _COMMAND.sub(one, text)
