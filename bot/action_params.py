"""Reading a command's options: whole numbers, texts, yes/no flags, one name among many (case
ignored), and what kind of entity an id names. Every refusal is a :class:`UserError` that says
what was expected.
"""

from __future__ import annotations

import re

from engine.game import Game

from .reply import UserError

MAX_NUMBER = 1_000_000
_INT = re.compile(r"^[+-]?\d+$")


def number(
    params: dict[str, str], key: str, *, lo: int = 0, hi: int = MAX_NUMBER, default: int | None = None
) -> int:
    raw = params.get(key)
    if raw is None or raw.strip() == "":
        if default is not None:
            return default
        raise UserError(f"Give {key}: a whole number")
    text = raw.strip().replace("$", "").replace("£", "")
    if not _INT.match(text):
        raise UserError(f"{key} must be a whole number, not {raw!r}")
    value = int(text)
    if value < lo:
        raise UserError(f"{key} cannot be {'negative' if value < 0 else 'below ' + str(lo)} ({value})")
    if value > hi:
        raise UserError(f"{key} {value} is too large (at most {hi})")
    return value


def text(params: dict[str, str], key: str) -> str:
    raw = (params.get(key) or "").strip()
    if not raw:
        raise UserError(f"Give {key}: (see /help for the format)")
    if len(raw) > 200:
        raise UserError(f"{key} is too long")
    return raw


def pick(value: str, options: list[str], what: str) -> str:
    """``value`` among ``options``, ignoring case; a clear error listing a few options otherwise."""
    if value in options:
        return value
    lowered = {o.lower(): o for o in options}
    if value.lower() in lowered:
        return lowered[value.lower()]
    shown = ", ".join(options[:12]) + (", ..." if len(options) > 12 else "")
    raise UserError(f"There is no {what} {value!r}" + (f"; choose from: {shown}" if shown else ""))


def entity_type(game: Game, entity: str) -> str:
    if entity in game.player_by_id:
        return "player"
    if entity in game.corporations:
        return "corporation"
    return "company"


def flag(params: dict[str, str], key: str) -> bool | None:
    raw = (params.get(key) or "").strip().lower()
    if not raw:
        return None
    if raw in ("yes", "true", "on", "1"):
        return True
    if raw in ("no", "false", "off", "0"):
        return False
    raise UserError(f"{key} must be yes or no, not {params[key]!r}")
