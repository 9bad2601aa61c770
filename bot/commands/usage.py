"""A command's usage: its options, a line of help and an example, and how ``/help NAME`` shows
them. The usages themselves are entries of the command table (:mod:`bot.commands.table`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Usage:
    name: str
    summary: str
    options: tuple[tuple[str, str], ...] = ()  # (option, what it is)
    required: tuple[str, ...] = ()
    example: str = ""
    hidden: tuple[str, ...] = ()  # options set by buttons or the Discord adapter


ALWAYS = ("state", "confirm")  # the state id stamped on buttons; the confirmation of a move asked first


def usage_line(usage: Usage) -> str:
    """ "/lay hex: tile: [rotation:] [entity:]"."""
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
