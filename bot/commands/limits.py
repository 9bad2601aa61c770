"""How long the strings users send may be: every parameter of every command, the caller's id and
name, and a command line as a whole. Checked once, before a command runs, with a clear error;
so are characters that cannot be stored (lone surrogates) and digits ``int()`` does not read
("³"). :func:`clean_name` makes a name safe to show (seat names from /game join and imports).
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable

from ..reply import Caller, UserError

MAX_IMPORT_BYTES = 5_000_000  # an 18xx.games export (the largest real ones are well under 1 MB)
MAX_LINE = 4000  # a typed command line (bot.terminal.textcmd.parse)
MAX_NAME = 32  # seat names and shown user names
MAX_PARAM = 100  # any parameter not listed below
MAX_PARAMS = 16
MAX_USER_ID = 64
MAX_COMMAND = 40
PARAM_LIMITS = {
    "file": MAX_IMPORT_BYTES,
    "routes": 2000,  # "3-2: L13-L15 | N11-M12-L13; ..." with 1833NE extensions
    "options": 200,
    "name": MAX_NAME,
    "user_name": 64,
    "user": MAX_USER_ID,
    "role": MAX_USER_ID,
}
MULTILINE = {"file"}  # may hold line breaks and tabs
NUMERIC = {"state"}  # options read as a whole number
SHOWN_NAMES = ("user_name", "role_name")  # display names the Discord adapter adds: shown as given


_CC = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode's control characters (category Cc), all of them
_CS = re.compile("[\ud800-\udfff]")  # surrogates (category Cs)


def _control(text: str) -> bool:
    return _CC.search(text) is not None


def storable(text: str) -> bool:
    """Whether ``text`` can be stored as UTF-8 (no lone surrogate)."""
    return _CS.search(text) is None


_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # control, format (bidi), surrogate, unassigned


def plain(text: str) -> bool:
    """Whether ``text`` has no control, format (bidi override), surrogate or line characters."""
    if text.isascii():  # the only such characters in ASCII are controls
        return not _control(text)
    return not any(unicodedata.category(ch) in _HIDDEN for ch in text)


_MARKUP = re.compile(r"[*`~|<>\\\[\]]")
_LEADING = re.compile(r"^[#>\-\s]+")


def clean_name(text: str) -> str:
    """A name as the bot shows it: line breaks and other control characters become spaces;
    bidi overrides, other format characters and lone surrogates go; Discord markup characters
    (``* ` ~ | < > \\ [ ]``, and ``# > -`` at the start) go; spaces are collapsed."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif cat not in _HIDDEN:
            out.append(ch)
    cleaned = " ".join(_MARKUP.sub("", "".join(out)).split())
    return _LEADING.sub("", cleaned)


def checked(caller: Caller, name: str, params: dict[str, str]) -> Caller:
    """Refuse over-long or garbled input (:class:`UserError`): too long, control characters, a
    lone surrogate, a ``state:`` that is not plain digits. Returns the caller with a display
    name cleaned (:func:`clean_name`) and cut to :data:`MAX_NAME` characters."""
    if len(name) > MAX_COMMAND or _control(name):
        raise UserError("Unknown command; see /help")
    if not caller.id or len(caller.id) > MAX_USER_ID or _control(caller.id):
        raise UserError("Your user name is too long for this bot (at most 64 characters)")
    if len(params) > MAX_PARAMS:
        raise UserError(f"Too many options (at most {MAX_PARAMS})")
    for key, value in params.items():
        if len(key) > MAX_COMMAND or _control(key):
            raise UserError(f"Unknown option {key[:MAX_COMMAND]!r}")
        limit = PARAM_LIMITS.get(key, MAX_PARAM)
        if len(value) > limit:
            raise UserError(f"{key} is too long ({len(value)} characters; at most {limit})")
        if key not in MULTILINE and key not in SHOWN_NAMES and _control(value):
            raise UserError(f"{key} contains control characters (line breaks, tabs); write it on one line")
        if key not in SHOWN_NAMES and not storable(value):
            raise UserError(f"{key} contains characters that cannot be stored (a lone surrogate)")
        if key in NUMERIC and value.strip() and not (value.strip().isascii() and value.strip().isdigit()):
            raise UserError(
                f"That button is out of date ({key}: must be a whole number written with the digits "
                "0-9). Nothing was changed."
            )
    if not storable(caller.id):
        raise UserError("Your user id contains characters that cannot be stored")
    shown = clean_name(caller.name)[:MAX_NAME].strip() or clean_name(caller.id)[:MAX_NAME] or "player"
    return caller if shown == caller.name else dataclasses.replace(caller, name=shown)


def shown_names(params: dict[str, str]) -> dict[str, str]:
    """``params`` with the display names in it cleaned as seat names are (:func:`clean_name`)."""
    if not any(k in params for k in SHOWN_NAMES):
        return params
    return {k: clean_name(v)[:MAX_NAME] if k in SHOWN_NAMES else v for k, v in params.items()}


class RateLimits:
    """How often one member and one channel may run commands: at most ``per_user`` (and
    ``per_channel``) in any ``window`` seconds, and at most ``imports`` imports (the costliest
    command) in ``import_window`` seconds; autocomplete, which Discord sends per keystroke, has
    its own larger allowance. A refusal says when to try again. The Discord bot uses it;
    tests and local mode run without (``CommandLayer(rates=None)``)."""

    def __init__(
        self,
        per_user: int = 20,
        per_channel: int = 60,
        window: float = 30.0,
        completions: int = 90,
        imports: int = 3,
        import_window: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.per_user, self.per_channel, self.window = per_user, per_channel, window
        self.completions = completions
        self.imports, self.import_window = imports, import_window
        self.clock = clock
        self._seen: dict[tuple[str, str], deque[float]] = {}

    def _wait(self, key: tuple[str, str], limit: int, now: float) -> float:
        """Seconds until ``key`` may go again (0: now), dropping what left its window."""
        seen = self._seen.get(key)
        if seen is None:
            return 0.0
        window = self.import_window if key[0] == "import" else self.window
        while seen and seen[0] <= now - window:
            seen.popleft()
        if not seen:
            del self._seen[key]
            return 0.0
        return seen[0] + window - now if len(seen) >= limit else 0.0

    def _take(self, keys: list[tuple[tuple[str, str], int]]) -> tuple[float, tuple[str, str] | None]:
        """Count one use of every key, or none: (seconds to wait, the key that is full)."""
        now = self.clock()
        if len(self._seen) > 50_000:  # forget the idle
            for key in list(self._seen):
                self._wait(key, 1, now)
        waits = [(self._wait(key, limit, now), key) for key, limit in keys]
        wait, full = max(waits)
        if wait > 0:
            return wait, full
        for key, _ in keys:
            self._seen.setdefault(key, deque()).append(now)
        return 0.0, None

    def command(self, user_id: str, channel_id: str, name: str = "") -> None:
        """Count one command; :class:`UserError` saying when to try again when over a limit."""
        keys = [(("user", user_id), self.per_user), (("channel", channel_id), self.per_channel)]
        if name == "game import":
            keys.append((("import", user_id), self.imports))
        wait, full = self._take(keys)
        if full is None:
            return
        kind = full[0]
        what = {
            "user": f"you send commands faster than the bot serves them (at most {self.per_user} in {self.window:g} seconds)",
            "channel": f"this channel sends commands faster than the bot serves them (at most {self.per_channel} in {self.window:g} seconds)",
            "import": f"an import is costly, so each member may import {self.imports} games in {self.import_window / 60:g} minutes",
        }[kind]
        raise UserError(
            f"Slow down a little: {what}. Please try again in {math.ceil(wait)} seconds; nothing was changed."
        )

    def completion(self, user_id: str) -> bool:
        """Count one autocomplete request; False when over the allowance (it gets no choices)."""
        return self._take([(("complete", user_id), self.completions)])[1] is None
