"""What a command handler returns: everything the bot would post, independent of Discord."""

from __future__ import annotations

from dataclasses import dataclass, field


class UserError(Exception):
    """A command the bot refuses before it reaches the engine; the message is for the user."""


@dataclass(frozen=True)
class Caller:
    """Who typed the command: a Discord user id (or a local name), display name, server-admin flag,
    the server (guild) id the command came from (None outside a server) and the caller's role ids
    on that server."""

    id: str
    name: str
    admin: bool = False
    guild: str | None = None
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pick:
    """One option of a select menu: what it says (its effect) and the command line it submits,
    exactly as typed."""

    label: str
    command: str
    description: str = ""


PICK_TEXT = 100  # the most a menu option's label, or its description, shows (Discord's limit)


def pick(text: str, command: str) -> Pick:
    """A menu option saying ``text``; one longer than a label holds goes on in its description
    from the last clause that fits ("D-train trading in a 4/5-train, 750 F, leaves 177 F" /
    "starts phase D: 4-trains rust (its own too)"), not cut off in the middle of a word."""
    if len(text) <= PICK_TEXT:
        return Pick(text, command)
    cut = text.rfind("; ", 0, PICK_TEXT)  # a clause first, then a bracket, then a comma
    if cut <= 0:
        cut = text.rfind(" (", 0, PICK_TEXT)
    if cut <= 0:
        cut = text.rfind(", ", 0, PICK_TEXT)
    if cut <= 0:
        return Pick(text[:PICK_TEXT - 1] + "…", command, fitted("…" + text[PICK_TEXT - 1:], PICK_TEXT))
    rest = text[cut:].removeprefix(";").removeprefix(",").strip()
    return Pick(text[:cut], command, fitted(rest, PICK_TEXT))


def fitted(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters (a button's label): when longer, up to its last
    clause that fits and "…", so that no number is cut short ("treasury 2" for "treasury 255 F")."""
    if len(text) <= limit:
        return text
    cut = max(text.rfind(", ", 0, limit - 1), text.rfind("; ", 0, limit - 1), text.rfind(" (", 0, limit - 1))
    if cut <= 0:
        cut = text.rfind(" ", 0, limit - 1)
    return (text[:cut] if cut > 0 else text[:limit - 1]) + "…"


@dataclass(frozen=True)
class Button:
    """A button, or a select menu when ``picks`` is given (``label`` is then its placeholder and
    ``command`` the command the picks complete)."""

    label: str
    command: str  # the command line the button runs, with ``state:N`` so a stale click is refused
    style: str = "secondary"  # "primary", "success", "danger", "secondary"
    picks: tuple[Pick, ...] = ()


@dataclass(frozen=True)
class Ask:
    """A number a command needs that no menu can list (a train's price agreed between
    corporations), asked in a box (a Discord modal): submitting it runs ``command`` with
    ``option:`` set to what was typed, as if typed. Where no box can be shown, the reply's lines
    say what to type instead."""

    title: str  # "Price for the 4-train from CA"
    label: str  # "Price ($1-$733)"
    placeholder: str  # "$1-$733"
    command: str  # the command line without the number, with ``state:N`` as a button's
    option: str  # "price"


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes


@dataclass
class Reply:
    """``error`` set means: refused, nothing changed, show only to the caller."""

    lines: list[str] = field(default_factory=list)
    error: str | None = None
    ephemeral: bool = False
    files: list[Attachment] = field(default_factory=list)
    ping: str | None = None  # user id to mention once, in plain message content
    ping_text: str = ""
    buttons: list[Button] = field(default_factory=list)
    status: str | None = None  # new text of the game's pinned status message
    game_id: int | None = None
    dm: str | None = None  # user id to send ``ping_text`` by direct message instead of pinging here
    # (user id, text): players the move concerns who did not make it (their private or train
    # was bought by another player's corporation), mentioned in the message with the text
    heads_up: list[tuple[str, str]] = field(default_factory=list)
    ask: Ask | None = None  # a number to type in a box, opened in answer to a menu's choice

    @classmethod
    def fail(cls, message: str) -> Reply:
        return cls(error=message, ephemeral=True)

    @property
    def ok(self) -> bool:
        return self.error is None
