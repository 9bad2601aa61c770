"""The shape of a move definition (:class:`Move`, :class:`Option`) and the readers of typed
options (whole numbers, names among many, yes/no), each refusing with a :class:`GameError`
coded ``bad_option`` or ``unknown`` that says what to type instead.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..choice import Choice
from ..errors import BAD_OPTION, UNKNOWN, GameError

if TYPE_CHECKING:
    from ..game import Game

Params = dict[str, str]
# (game, entity, the options given so far) -> the legal values of one option now
Chooser = Callable[["Game", str, Params], list[Choice]]
# (game, entity, options as typed) -> the action (GameError when an option cannot be read)
Builder = Callable[["Game", str, Params], A.Action]
# an exported action (18xx.games dict) -> the command's options, as typed (None: not given)
ToOptions = Callable[[dict[str, Any]], dict[str, Any]]
# self-play: a random legal action of this type for the entity (None: none fits)
Sampler = Callable[["Game", random.Random, str], "A.Action | None"]
# (game, entity, the options given) -> the range of a number the move needs typed now (None: it does not)
Spanner = Callable[["Game", str, Params], "Span | None"]

MAX_NUMBER = 1_000_000
_INT = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Span:
    """A number no list of choices holds, which the player must type (a train bought from another
    corporation at the price agreed): its lowest and highest value, that range as the game writes
    it ("$1-$733", the words of the choices' labels and of /moves) and what the number is for
    ("the 4-train from CA")."""

    low: int
    high: int
    text: str
    what: str


@dataclass(frozen=True)
class Option:
    """One option of a command: its name, what it means, how it is typed (``text``,
    ``number``, ``flag``), whether it must be given, and its legal values now (None: free text)."""

    name: str
    description: str
    required: bool = True
    kind: str = "text"
    choices: Chooser | None = None
    # the value a required option takes when it is left out, where the position has one (the
    # cheapest private's price, for which a bid buys it at once); None: it must be given
    default: Callable[[Game, str, Params], str | None] | None = None
    # a number without choices: its range when the other options given leave it to be typed now
    # (the front ends ask for it, with that range); None: the move does not need it typed
    span: Spanner | None = None


@dataclass(frozen=True)
class Move:
    """One action type as players make it: the command that makes it, its options (with their
    legal choices), how the action is built from the typed options and read back as a command,
    its help and example, and how the random player picks one.

    ``entity_kind`` limits the command to players or corporations (a corporation's /issue and a
    player's /sell make the same ``sell_shares`` action); ``any_time`` marks a player's standing
    order, allowed out of turn; ``ask_entity`` lets the caller name the entity that acts (a
    private's ability, a corporation other than the one asked first)."""

    command: str
    action_type: str
    help: str
    example: str
    options: tuple[Option, ...]
    build: Builder
    to_options: ToOptions
    entity_kind: str | None = None
    any_time: bool = False
    sample: Sampler | None = None
    ask_entity: bool = False

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def fits(self, kind: str) -> bool:
        """Whether an entity of ``kind`` (player, corporation, company) uses this command."""
        return self.entity_kind is None or self.entity_kind == kind


# ---------------------------------------------------------------------- reading options
def entity_type(game: Game, entity: str) -> str:
    if entity in game.player_by_id:
        return "player"
    if entity in game.corporations:
        return "corporation"
    return "company"


def base(game: Game, entity: str) -> dict[str, Any]:
    """The fields every action has: who acts, and what kind of entity that is."""
    return {"entity": entity, "entity_type": entity_type(game, entity)}


def number(params: Params, key: str, *, lo: int = 0, hi: int = MAX_NUMBER, default: int | None = None) -> int:
    raw = params.get(key)
    if raw is None or raw.strip() == "":
        if default is not None:
            return default
        raise GameError(f"Give {key}: a whole number", BAD_OPTION, option=key)
    text_ = raw.strip().replace("$", "").replace("£", "")
    # str.isdigit() accepts "³" and other digits int() refuses: only ASCII digits are numbers here
    if not _INT.match(text_) or not text_.lstrip("+-").isascii():
        raise GameError(f"{key} must be a whole number, not {raw!r}", BAD_OPTION, option=key, value=raw)
    value = int(text_)
    if value < lo:
        raise GameError(f"{key} cannot be {'negative' if value < 0 else 'below ' + str(lo)} ({value})",
                        BAD_OPTION, option=key, value=value)
    if value > hi:
        raise GameError(f"{key} {value} is too large (at most {hi})", BAD_OPTION, option=key, value=value)
    return value


def text(params: Params, key: str) -> str:
    raw = (params.get(key) or "").strip()
    if not raw:
        raise GameError(f"Give {key}: (see /help for the format)", BAD_OPTION, option=key)
    if len(raw) > 200:
        raise GameError(f"{key} is too long", BAD_OPTION, option=key)
    return raw


def pick(value: str, options: list[str], what: str,
         offered: list[str] | Callable[[], list[str]] | None = None) -> str:
    """``value`` among ``options``, ignoring case; a refusal otherwise, listing a few of
    ``offered`` (the ones that make sense now; default: ``options``; a function when they cost
    something to list: called only for the refusal)."""
    if value in options:
        return value
    lowered = {o.lower(): o for o in options}
    if value.lower() in lowered:
        return lowered[value.lower()]
    # "B&W" as the rules write it for 1833NE's BW, "BL" for B&L: the same name with or without "&"
    bare = {o.lower().replace("&", ""): o for o in options}
    if len(bare) == len(options) and value.lower().replace("&", "") in bare:
        return bare[value.lower().replace("&", "")]
    listed = options if offered is None else offered() if callable(offered) else offered
    shown = ", ".join(listed[:12]) + (", ..." if len(listed) > 12 else "")
    raise GameError(f"There is no {what} {value!r}" + (f"; choose from: {shown}" if shown else ""),
                    UNKNOWN, what=what, id=value)


def flag(params: Params, key: str) -> bool | None:
    raw = (params.get(key) or "").strip().lower()
    if not raw:
        return None
    if raw in ("yes", "true", "on", "1"):
        return True
    if raw in ("no", "false", "off", "0"):
        return False
    raise GameError(f"{key} must be yes or no, not {params[key]!r}", BAD_OPTION, option=key)


def yes(value: Any) -> str | None:
    """A flag as typed: "yes", "no", or None when not given."""
    return None if value is None else ("yes" if value else "no")


def no_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """An option with a fixed set of values that a title may offer (none by default)."""
    return []
