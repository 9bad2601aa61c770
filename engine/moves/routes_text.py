"""The ``routes:`` text of ``/routes``: ``"2-0: F15-F17; 3-1: C14-D13-B13 | C14-B15"`` (train, then
hex chains; chains after ``+`` are the route's extension, 1833NE) read into 18xx.games route
dicts and written back.
"""

from __future__ import annotations

from typing import Any

from ..errors import BAD_OPTION, GameError


def parse_routes(text: str) -> list[dict[str, Any]]:
    """``"2-0: F15-F17; 3-1: A1-B2 | A1-C3 + C3-D4"`` -> route dicts (train, connections, hexes)."""
    routes: list[dict[str, Any]] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        train, sep, chains_text = part.partition(":")
        if not sep or not train.strip():
            raise GameError(f"Write each route as TRAIN: HEX-HEX-HEX, not {part!r}", BAD_OPTION, option="routes")
        counted_text, plus, extension_text = chains_text.partition("+")
        chains = _chains(counted_text)
        route = {"train": train.strip(), "connections": chains, "hexes": route_hexes(chains)}
        if plus:
            route["extension"] = _chains(extension_text)
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


def _chains(text: str) -> list[list[str]]:
    chains = []
    for chain_text in text.split("|"):
        chain = [h.strip().upper() for h in chain_text.split("-") if h.strip()]
        if len(chain) < 2:
            raise GameError(f"A route chain needs at least two hexes: {chain_text.strip()!r}",
                            BAD_OPTION, option="routes")
        chains.append(chain)
    return chains


def format_routes(routes: list[dict[str, Any]]) -> str:
    def one(r: dict[str, Any]) -> str:
        text = f"{r['train']}: " + " | ".join("-".join(c) for c in r.get("connections", []))
        if r.get("extension"):
            text += " + " + " | ".join("-".join(c) for c in r["extension"])
        return text

    return "; ".join(one(r) for r in routes)
