"""The rule constants a title's data module may set, read once into a frozen object.

A title's data (``engine/titles/<title>/data.py``) names its constants as 18xx.games does
(``PORT_MIN_STOPS``, ``NETWORK_WALK`` ...).  Constants every title must give (``TITLE``,
``MARKET``, ``TRAINS`` ...) are read from the data directly; the optional ones are fields here,
each with the one default that applies when a title does not set it.  Code reads
``game.rules.port_min_stops``, never ``getattr(data, "PORT_MIN_STOPS", ...)``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType(dict(value))
    if isinstance(value, (list, set)):
        return tuple(value)
    return value


@dataclass(frozen=True)
class Rules:
    """Optional rule constants with their defaults (the field name is the data constant in
    lower case)."""

    # -- presentation and the title's options
    currency_format: str = "${}"
    optional_rules: tuple[Mapping[str, Any], ...] = ()  # the options a game of the title may use
    location_names: Mapping[str, str] = field(default_factory=dict)
    # -- map and network
    tile_reservation_blocks_others: str = "never"  # "always": a reserved hex takes no other's token
    network_walk: str = "reach"  # "route_legal": what a walk using no track twice reaches
    port_offboard_hexes: tuple[str, ...] = ()  # off-boards that pay only with enough stops (1836Jr56)
    port_min_stops: int = 0
    port_bonus: int = 0  # the port marker's bonus (1856's port, 1836Jr56's RdP)
    port_marker: str = "port marker"  # what the story calls that marker (1836Jr56: RdP's "+20 token")
    right_bonus: int = 0  # a tunnel or bridge right's bonus per hex (1856)
    lake_hexes: tuple[str, ...] = ()
    barrie_hex: str | None = None
    london_hex: str | None = None
    hamilton_hex: str | None = None
    # -- trains
    optional_rule_trains: Mapping[str, Any] = field(default_factory=dict)
    optional_rule_phases: Mapping[str, Any] = field(default_factory=dict)
    one_depot_train_per_type_per_turn: bool = False
    ultimate_train_price: int = 0  # 1856: what a corporation must have to skip buying a train
    ultimate_train_trade_in: int = 0
    # -- the stock round
    sell_buy_order: str | None = None  # None: the title class's SELL_BUY_ORDER
    # -- companies
    close_after_use_at_or_end: Mapping[str, str] = field(default_factory=dict)
    right_cost: int = 0
    # -- loans, the national, percent to operate (1856 family; none by default)
    loan_value: int = 0
    interest_rate: int = 0
    num_loans: int = 0
    national: str | None = None
    national_token_limit: int = 0
    national_token_price: int = 0
    national_train_limit_increase: int = 0
    post_nationalization_cert_limit: Mapping[int, Any] | None = None
    percent_to_operate_start: int = 0  # 1856: the percentage sold for a corporation to operate
    percent_to_operate_step: int = 0  # what it grows by as the last trains of a type are sold
    percent_to_operate_max: int = 0
    percent_to_operate_last_trains: tuple[str, ...] = ()
    alternate_destinations: Mapping[str, Any] | None = None

    @classmethod
    def from_data(cls, data: Any) -> Rules:
        """The rules ``data`` sets (its upper-case constants), the defaults for the rest."""
        given = {f.name: _frozen(getattr(data, f.name.upper())) for f in fields(cls)
                 if hasattr(data, f.name.upper())}
        return cls(**given)
