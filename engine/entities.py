"""Game pieces with mutable state: players, corporations, shares, privates, trains, tokens."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .market import Cell

POOL = "market"  # holder key of the open market (bank pool)


@dataclass
class Player:
    id: str  # as in the export ("Player 1" or a numeric id as text)
    name: str
    cash: int = 0
    companies: list[str] = field(default_factory=list)
    passed: bool = False
    bankrupt: bool = False


@dataclass
class Share:
    id: str  # "BBG_0" is the president's certificate
    corporation: str
    index: int
    percent: int
    president: bool
    owner: str  # a player id, a corporation sym (its IPO/treasury) or POOL
    cert_size: float = 1.0
    seq: int = 0  # when the current owner got it: "first" share of a holder = lowest seq

    @property
    def words(self) -> str:
        """The certificate in a player's words: "a 10% share of GW", "GW's president's certificate"."""
        if self.president:
            return f"{self.corporation}'s president's certificate"
        return f"a {self.percent}% share of {self.corporation}"


@dataclass
class Token:
    price: int
    hex: str | None = None
    city: int | None = None  # city index on the tile of ``hex``
    used: bool = False


def listed(words: list[str], last: str = "and") -> str:
    """ "a", "a and b", "a, b and c" (or ``last`` "or": "a, b or c"); "" for none."""
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def a_train(name: str) -> str:
    """'a 5-train', 'an 8-train', 'a D-train': a train of that name with its article."""
    return f"{'an' if name[:1] == '8' or name[:2] in ('11', '18') else 'a'} {name}-train"


@dataclass
class Train:
    id: str  # "2-0"
    name: str
    distance: int
    price: int
    rusts_on: str | None = None
    available_on: str | None = None
    discount: dict[str, int] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    owner: str = "depot"  # "depot", a corporation sym, "discard", "rusted"
    operated: bool = False
    unlimited: bool = False  # the bank never runs out of this kind (the next one appears when one is sold)

    @property
    def permanent(self) -> bool:
        return self.rusts_on is None


@dataclass
class Company:
    sym: str
    name: str
    value: int
    revenue: int
    desc: str = ""
    abilities: list[dict[str, Any]] = field(default_factory=list)
    owner: str | None = None  # player id or corporation sym
    owner_is_corp: bool = False
    closed: bool = False
    discount: int = 0

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    def ability(self, kind: str) -> dict[str, Any] | None:
        return next((a for a in self.abilities if a.get("type") == kind), None)


@dataclass
class Corporation:
    sym: str
    name: str
    token_prices: list[int]
    home: str | None
    home_city: int | None = None
    color: str = "#888888"
    text_color: str = "white"
    cash: int = 0
    tokens: list[Token] = field(default_factory=list)
    par: Cell | None = None
    price: Cell | None = None
    trains: list[str] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    loans: int = 0
    ipoed: bool = False
    started: bool = False  # "floated" in 1856 traces: has operated (or full cap and floatable)
    closed: bool = False
    total_shares: int = 10
    capitalization: str | None = None
    escrow: int | None = None
    destinated: bool = False
    president: str | None = None
    operated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def next_token(self) -> Token | None:
        return next((t for t in self.tokens if not t.used), None)
