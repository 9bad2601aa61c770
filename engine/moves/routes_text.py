"""The ``routes:`` text of ``/routes``: ``"2-0: F15-F17; 3-1: C14-D13-B13 | C14-B15"`` (train, then
hex chains; chains after ``+`` are the route's extension, 1833NE) read into 18xx.games route
dicts and written back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import BAD_OPTION, GameError

# a chain as typed -> its hexes (the game's reader also takes place names: engine.moves.operating)
ChainReader = Callable[[str], list[str]]

SEPARATOR = re.compile(r"[-\s]+")


def split_chain(text: str) -> list[str]:
    """The hexes of a chain written with ``-`` or spaces between them: "M4-M6 N7" -> M4, M6, N7."""
    return [h.upper() for h in SEPARATOR.split(text) if h]


def parse_routes(text: str, read: ChainReader = split_chain) -> list[dict[str, Any]]:
    """``"2-0: F15-F17; 3-1: A1-B2 | A1-C3 + C3-D4"`` -> route dicts (train, connections, hexes);
    ``read`` turns each chain's text into its hexes."""
    routes: list[dict[str, Any]] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        train, sep, chains_text = part.partition(":")
        if not sep or not train.strip():
            raise GameError(f"Write each route as TRAIN: HEX-HEX-HEX, not {part!r}", BAD_OPTION, option="routes")
        counted_text, plus, extension_text = chains_text.partition("+")
        chains = _chains(counted_text, read)
        route = {"train": train.strip(), "connections": chains, "hexes": route_hexes(chains)}
        if plus:
            route["extension"] = _chains(extension_text, read)
        routes.append(route)
    return routes


def route_hexes(chains: list[list[str]]) -> list[str]:
    """The hexes of a route's stops in order: the ends of its connections."""
    hexes: list[str] = []
    for chain in chains:
        for h in (chain[0], chain[-1]):
            if h not in hexes:
                hexes.append(h)
    return hexes


def _chains(text: str, read: ChainReader) -> list[list[str]]:
    chains = []
    for chain_text in text.split("|"):
        chain = read(chain_text)
        if len(chain) < 2:
            raise GameError(f"A route chain needs at least two hexes: {chain_text.strip()!r}",
                            BAD_OPTION, option="routes")
        chains.append(chain)
    return chains


def format_routes(routes: list[dict[str, Any]], *, continuous: bool = False,
                  named: Callable[[str], str] | None = None) -> str:
    """Route dicts as the ``routes:`` text; ``continuous``: a route's connections that follow on
    from one another written as one chain ("5-0: M4-M6-N7-N9", as a player writes it; read back,
    the chain is cut at its stops again); ``named``: each train as it says (for reading only:
    "2+2-train (3/5-4): H21-G22")."""
    def chains(connections: list[list[str]]) -> str:
        joined: list[list[str]] = []
        for c in connections:
            if continuous and joined and joined[-1][-1] == c[0]:
                joined[-1] = [*joined[-1], *c[1:]]
            else:
                joined.append(list(c))
        return " | ".join("-".join(c) for c in joined)

    def one(r: dict[str, Any]) -> str:
        text = f"{named(r['train']) if named else r['train']}: " + chains(r.get("connections", []))
        if r.get("extension"):
            text += " + " + chains(r["extension"])
        return text

    return "; ".join(one(r) for r in routes)
