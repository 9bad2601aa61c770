"""The text form of commands, as Discord shows them: ``/cmd [sub] key:value key:"value with spaces"``.

:func:`parse` turns a line into a :class:`CommandLine`; :func:`format_command` writes one back.
:func:`action_to_command` turns an 18xx.games export action into the command a player would type,
and :func:`parse_routes` / :func:`format_routes` read and write the ``routes:`` text
(``"2-0: F15-F17; 3-1: C14-D13-B13 | C14-B15"``: train, then hex chains).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from .limits import MAX_LINE

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
    for tok in rest:
        key, sep, value = tok.partition(":")
        if not sep or not key:
            raise CommandSyntaxError(f"Write options as key:value, not {tok!r}")
        key = key.lower()
        if key in params:
            raise CommandSyntaxError(f"{key} is given twice")
        params[key] = value
    return CommandLine(name, params)


def _quote(value: str) -> str:
    if value == "" or any(ch.isspace() for ch in value):
        return '"' + value.replace('"', "") + '"'
    return value


def format_command(name: str, params: dict[str, Any] | None = None) -> str:
    parts = [f"/{name}"]
    for key, value in (params or {}).items():
        if value is None:
            continue
        parts.append(f"{key}:{_quote(str(value))}")
    return " ".join(parts)


# ---------------------------------------------------------------------- routes
def parse_routes(text: str) -> list[dict[str, Any]]:
    """``"2-0: F15-F17; 3-1: A1-B2 | A1-C3 + C3-D4"`` -> 18xx.games route dicts (train,
    connections, hexes); chains after ``+`` are the route's extension (1833NE)."""
    routes: list[dict[str, Any]] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        train, sep, chains_text = part.partition(":")
        if not sep or not train.strip():
            raise CommandSyntaxError(f"Write each route as TRAIN: HEX-HEX-HEX, not {part!r}")
        counted_text, plus, extension_text = chains_text.partition("+")
        chains = _chains(counted_text)
        hexes: list[str] = []
        for chain in chains:
            for h in (chain[0], chain[-1]):
                if h not in hexes:
                    hexes.append(h)
        route = {"train": train.strip(), "connections": chains, "hexes": hexes}
        if plus:
            route["extension"] = _chains(extension_text)
        routes.append(route)
    return routes


def _chains(text: str) -> list[list[str]]:
    chains = []
    for chain_text in text.split("|"):
        chain = [h.strip().upper() for h in chain_text.split("-") if h.strip()]
        if len(chain) < 2:
            raise CommandSyntaxError(f"A route chain needs at least two hexes: {chain_text.strip()!r}")
        chains.append(chain)
    return chains


def format_routes(routes: list[dict[str, Any]]) -> str:
    def one(r: dict[str, Any]) -> str:
        text = f"{r['train']}: " + " | ".join("-".join(c) for c in r.get("connections", []))
        if r.get("extension"):
            text += " + " + " | ".join("-".join(c) for c in r["extension"])
        return text

    return "; ".join(one(r) for r in routes)


# ---------------------------------------------------------------------- export actions -> commands
def action_to_command(action: dict[str, Any]) -> str | None:
    """The command a player types for an 18xx.games action (None for chat messages)."""
    kind = action.get("type")
    params: dict[str, Any] = {}
    if action.get("entity_type") == "company":
        params["entity"] = action["entity"]
    if kind == "bid":
        return format_command("bid", {"company": action["company"], "price": action["price"], **params})
    if kind == "par":
        return format_command("par", {"corporation": action["corporation"],
                                      "price": str(action["share_price"]).split(",")[0],
                                      "home": action.get("home"), **params})
    if kind in ("buy_shares", "sell_shares") and action.get("entity_type") == "corporation":
        # a corporation issuing or redeeming its own shares (1833NE)
        if kind == "sell_shares":
            return format_command("issue", {"shares": ",".join(action["shares"])})
        return format_command("redeem", {"share": ",".join(action["shares"])})
    if kind == "buy_shares":
        return format_command("buy", {"share": ",".join(action["shares"]), **params})
    if kind == "sell_shares":
        shares = ",".join(action["shares"])
        percent = action.get("percent")
        return format_command("sell", {"shares": shares, "percent": percent, **params})
    if kind == "pass":
        return format_command("pass", params)
    if kind == "lay_tile":
        return format_command("lay", {"hex": action["hex"], "tile": action["tile"],
                                      "rotation": action["rotation"], **params})
    if kind == "place_token":
        return format_command("token", {"city": action["city"], "slot": action.get("slot"), **params})
    if kind == "run_routes":
        return format_command("routes", {"routes": format_routes(action.get("routes") or []) or "none",
                                         **params})
    if kind == "dividend":
        return format_command("dividend", {"kind": action["kind"], **params})
    if kind == "buy_train":
        card = str(action["train"]).rsplit("-", 1)[0]
        variant = action.get("variant") if action.get("variant") != card else None  # 1833NE: the side bought
        return format_command("train", {"train": action["train"], "variant": variant, "price": action["price"],
                                        "exchange": action.get("exchange"), **params})
    if kind == "discard_train":
        return format_command("discard", {"train": action["train"], **params})
    if kind == "borrow_train":
        return format_command("borrow", {"train": action["train"], **params})
    if kind == "remove_token":
        return format_command("remove", {"city": action["city"], **params})
    if kind == "take_loan":
        return format_command("loan", params)
    if kind == "payoff_loan":
        return format_command("repay", params)
    if kind == "buy_company":
        return format_command("private", {"company": action["company"], "price": action["price"], **params})
    if kind == "assign":
        return format_command("assign", {"target": action["target"], **params})
    if kind == "merge":
        return format_command("merge", {"corporation": action.get("corporation"), **params})
    if kind == "takeover":
        return format_command("takeover", {"corporation": action["corporation"], "shares": action.get("shares")})
    if kind == "accept_takeover":
        return format_command("accept")
    if kind == "special_buy":
        return format_command("right", {"right": action["description"], "cost": action.get("cost"), **params})
    if kind == "bankrupt":
        return format_command("bankrupt", params)
    if kind == "program_share_pass":
        return format_command("autopass", {"unconditional": _yes(action.get("unconditional")),
                                           "indefinite": _yes(action.get("indefinite")), **_player(action)})
    if kind == "program_buy_shares":
        return format_command("autobuy", {"corporation": action["corporation"],
                                          "until": action["until_condition"],
                                          "from_market": _yes(action.get("from_market")),
                                          "auto_pass_after": _yes(action.get("auto_pass_after")),
                                          **_player(action)})
    if kind == "program_disable":
        return format_command("autostop", _player(action))
    if kind == "end_game":
        return format_command("game end")
    if kind == "undo":
        return format_command("game undo")
    if kind == "message":
        return None
    raise CommandSyntaxError(f"No command for {kind} actions yet")


def _yes(value: Any) -> str | None:
    return None if value is None else ("yes" if value else "no")


def _player(action: dict[str, Any]) -> dict[str, Any]:
    return {}
