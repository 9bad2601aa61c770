"""Actions in the 18xx.games vocabulary, as small frozen dataclasses.

Each action round-trips through ``to_dict()``/``Action.from_dict()`` in the shape
18xx.games exports, so real games load without translation.  Fields that we do
not interpret (``created_at``, ``original_id`` ...) are kept in ``extra`` and written
back unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

_REGISTRY: dict[str, type[Action]] = {}

# Keys every action has in the export; the rest are per-type fields or extras.
_COMMON = ("type", "entity", "entity_type", "id")


@dataclass(frozen=True, eq=False, repr=False)
class Action:
    """One move of a game as 18xx.games records it (the fields every action has)."""

    entity: str
    entity_type: str = "player"
    id: int | None = None
    auto_actions: tuple[Action, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    type: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:
            _REGISTRY[cls.type] = cls

    # -- conversion ------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        kind = data.get("type")
        klass = _REGISTRY.get(kind or "")
        if klass is None:
            raise ValueError(f"unknown action type {kind!r}")
        names = _field_names(klass)
        kwargs: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            if key == "type":
                continue
            if key == "entity":
                kwargs["entity"] = str(value)
                if isinstance(value, int):
                    extra["_entity_int"] = True
            elif key == "auto_actions":
                kwargs["auto_actions"] = tuple(Action.from_dict(a) for a in value or [])
            elif key in names and key != "extra":
                kwargs[key] = _freeze(value)
            else:
                extra[key] = value
        kwargs["extra"] = extra
        return klass(**kwargs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "entity": _entity_out(self.entity, self.extra),
                               "entity_type": self.entity_type}
        if self.id is not None:
            out["id"] = self.id
        for name in _field_names(type(self)):
            if name in _COMMON or name in ("extra", "auto_actions"):
                continue
            value = getattr(self, name)
            if value is None:
                continue
            out[name] = _thaw(value)
        if self.auto_actions:
            out["auto_actions"] = [a.to_dict() for a in self.auto_actions]
        for key, value in self.extra.items():
            if key not in out and not key.startswith("_"):
                out[key] = value
        return out

    def describe(self, money: Callable[[int], str] = str) -> str:
        """The action in words (``money``: how amounts are written, the game's ``fmt``)."""
        return f"{self.entity} {self.type.replace('_', ' ')}"

    # Equality, hash and repr as a dataclass makes them, written once here for every action
    # class (not generated per class: importing the module takes half the time)
    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _compared_names(type(self)))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Action)
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _field_names(type(self)))
        return f"{type(self).__qualname__}({shown})"


_FIELD_NAMES: dict[type[Action], tuple[str, ...]] = {}
_COMPARED_NAMES: dict[type[Action], tuple[str, ...]] = {}


def _compared_names(klass: type[Action]) -> tuple[str, ...]:
    """The fields of an action class that its equality and hash compare (not ``extra``)."""
    names = _COMPARED_NAMES.get(klass)
    if names is None:
        names = _COMPARED_NAMES[klass] = tuple(f.name for f in fields(klass) if f.compare)
    return names


def _field_names(klass: type[Action]) -> tuple[str, ...]:
    """The fields of an action class, in order (kept: asked for every action read or written)."""
    names = _FIELD_NAMES.get(klass)
    if names is None:
        names = _FIELD_NAMES[klass] = tuple(f.name for f in fields(klass))
    return names


def _entity_out(entity: str, extra: dict[str, Any]) -> Any:
    if extra.get("_entity_int"):
        return int(entity)
    return entity


def _freeze(value: Any) -> Any:
    # Plain lists of scalars become tuples; nested structures (routes) stay as JSON values.
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return tuple(value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True, eq=False, repr=False)
class Bid(Action):
    """A bid on a private company."""

    type: ClassVar[str] = "bid"
    company: str = ""
    price: int = 0

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} bids {money(self.price)} for {self.company}"


@dataclass(frozen=True, eq=False, repr=False)
class Par(Action):
    """Starting a corporation at a par price."""

    type: ClassVar[str] = "par"
    corporation: str = ""
    share_price: str = ""  # "price,row,col"

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} pars {self.corporation} at {self.share_price.split(',')[0]}"


@dataclass(frozen=True, eq=False, repr=False)
class BuyShares(Action):
    """Buying shares (from the IPO, the pool or a player)."""

    type: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None
    share_price: int | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} buys {', '.join(self.shares)}"


@dataclass(frozen=True, eq=False, repr=False)
class SellShares(Action):
    """Selling shares to the pool."""

    type: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} sells {', '.join(self.shares)}"


@dataclass(frozen=True, eq=False, repr=False)
class Pass(Action):
    """Passing (a round's turn or an optional step)."""

    type: ClassVar[str] = "pass"

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} passes"


@dataclass(frozen=True, eq=False, repr=False)
class LayTile(Action):
    """Laying or upgrading a tile."""

    type: ClassVar[str] = "lay_tile"
    hex: str = ""
    tile: str = ""  # tile id "57-0"
    rotation: int = 0

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} lays {self.tile.split('-')[0]} on {self.hex}, rotation {self.rotation}"


@dataclass(frozen=True, eq=False, repr=False)
class PlaceToken(Action):
    """Placing a station token in a city."""

    type: ClassVar[str] = "place_token"
    city: str = ""  # "<tile id>-<city index>", e.g. "14-0-0"
    slot: int | None = None
    tokener: str | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} places a token on {self.city}"


@dataclass(frozen=True, eq=False, repr=False)
class RemoveToken(Action):
    """Removing a station token."""

    type: ClassVar[str] = "remove_token"
    city: str = ""
    slot: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class RunRoutes(Action):
    """Running trains along routes."""

    type: ClassVar[str] = "run_routes"
    routes: tuple[Any, ...] = ()
    extra_revenue: int | None = None

    def route_dicts(self) -> list[dict[str, Any]]:
        return list(self.routes)

    def describe(self, money: Callable[[int], str] = str) -> str:
        routes = self.route_dicts()
        if not routes:
            return f"{self.entity} runs no train"
        if all("revenue" in r for r in routes):
            return f"{self.entity} runs for {money(sum(r['revenue'] for r in routes))}"
        hexes = "; ".join(f"{r.get('train')}: {'-'.join(r.get('hexes') or [])}" for r in routes)
        return f"{self.entity} runs {hexes}"


@dataclass(frozen=True, eq=False, repr=False)
class Dividend(Action):
    """Paying out or withholding the run's revenue."""

    type: ClassVar[str] = "dividend"
    kind: str = "payout"

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} {'pays out' if self.kind == 'payout' else 'withholds'}"


@dataclass(frozen=True, eq=False, repr=False)
class BuyTrain(Action):
    """Buying a train (from the depot or another corporation)."""

    type: ClassVar[str] = "buy_train"
    train: str = ""
    price: int = 0
    variant: str | None = None
    exchange: str | None = None
    shell: str | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        ex = f" trading in {self.exchange}" if self.exchange else ""
        return f"{self.entity} buys train {self.train} for {money(self.price)}{ex}"


@dataclass(frozen=True, eq=False, repr=False)
class DiscardTrain(Action):
    """Discarding a train over the limit."""

    type: ClassVar[str] = "discard_train"
    train: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class BorrowTrain(Action):
    """Borrowing a train (a title's rule)."""

    type: ClassVar[str] = "borrow_train"
    train: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class TakeLoan(Action):
    """Taking a loan."""

    type: ClassVar[str] = "take_loan"
    loan: int | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} takes a loan"


@dataclass(frozen=True, eq=False, repr=False)
class PayoffLoan(Action):
    """Paying off a loan."""

    type: ClassVar[str] = "payoff_loan"
    loan: int | None = None

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} pays off a loan"


@dataclass(frozen=True, eq=False, repr=False)
class BuyCompany(Action):
    """Buying a private company."""

    type: ClassVar[str] = "buy_company"
    company: str = ""
    price: int = 0

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} buys {self.company} for {money(self.price)}"


@dataclass(frozen=True, eq=False, repr=False)
class Assign(Action):
    """Assigning a private company's ability to a hex or a corporation."""

    type: ClassVar[str] = "assign"
    target: str = ""
    target_type: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class SpecialBuy(Action):
    """A title's special purchase."""

    type: ClassVar[str] = "special_buy"
    description: str = ""
    cost: int = 0


@dataclass(frozen=True, eq=False, repr=False)
class Merge(Action):
    """Merging corporations (a title's rule)."""

    type: ClassVar[str] = "merge"
    corporation: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Bankrupt(Action):
    """Declaring bankruptcy."""

    type: ClassVar[str] = "bankrupt"


@dataclass(frozen=True, eq=False, repr=False)
class EndGame(Action):
    """Ending the game by hand."""

    type: ClassVar[str] = "end_game"


@dataclass(frozen=True, eq=False, repr=False)
class Message(Action):
    """A chat message (changes nothing)."""

    type: ClassVar[str] = "message"
    message: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class Undo(Action):
    """Undoing actions (the export's log resolves it)."""

    type: ClassVar[str] = "undo"
    action_id: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Redo(Action):
    """Redoing an undone action (the export's log resolves it)."""

    type: ClassVar[str] = "redo"


@dataclass(frozen=True, eq=False, repr=False)
class DestinationConnection(Action):
    """A corporation reaching its destination (1856)."""

    type: ClassVar[str] = "destination_connection"
    corporations: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False, repr=False)
class ProgramBuyShares(Action):
    """A programmed stock-round move: buy shares of a corporation until a condition holds."""

    type: ClassVar[str] = "program_buy_shares"
    corporation: str = ""
    until_condition: Any = None
    from_market: bool | None = None


@dataclass(frozen=True, eq=False, repr=False)
class ProgramSharePass(Action):
    """A programmed stock-round move: pass."""

    type: ClassVar[str] = "program_share_pass"
    unconditional: bool | None = None
    indefinite: bool | None = None


@dataclass(frozen=True, eq=False, repr=False)
class ProgramDisable(Action):
    """Cancelling a programmed move."""

    type: ClassVar[str] = "program_disable"
    reason: str | None = None
    original_type: str | None = None
