"""1833NE two-sided train cards: the sides a card offers, what a side counts on a route.

A card is bought as one side (``2`` or ``2+1``, ``3/5`` or ``2+2``, ...) and keeps it.  Sides:

* plain ``n``: visits at most n stops, all counted;
* ``N/M``: visits at most M stops and counts the best N, at least one of them a station of
  the corporation (rules summary: "besucht bis zu M Orte und zählt N davon (mindestens einen
  mit eigenem Marker)");
* ``N+s``: counts N stops plus up to s towns (18xx.games: a town group of s and a group of
  N of any kind; every stop visited is counted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import ILLEGAL_ROUTE, GameError


@dataclass(frozen=True)
class Side:
    """One side of a card."""

    name: str
    price: int
    kind: str  # "plain", "n_of_m" or "n_plus_s"
    n: int  # stops counted (plain: stops visited)
    m: int  # stops visited at most (N+s: N + s)
    towns: int = 0  # s of an N+s side

    @property
    def max_stops(self) -> int:
        return self.m


def side_from_spec(name: str, price: int, distance: Any) -> Side:
    """Build a side from the 18xx.games ``distance`` (an int or a list of node groups)."""
    if isinstance(distance, int):
        return Side(name, price, "plain", distance, distance)
    groups = list(distance)
    if len(groups) == 1:
        g = groups[0]
        return Side(name, price, "n_of_m", int(g["pay"]), int(g["visit"]))
    town = next(g for g in groups if g["nodes"] == ["town"])
    other = next(g for g in groups if g["nodes"] != ["town"])
    return Side(
        name, price, "n_plus_s", int(other["pay"]), int(other["pay"]) + int(town["pay"]), int(town["pay"])
    )


def card_sides(spec: dict[str, Any]) -> list[Side]:
    """Both sides of a card (the primary side first)."""
    out = [side_from_spec(spec["name"], spec["price"], spec["distance"])]
    for v in spec.get("variants", []):
        out.append(side_from_spec(v["name"], v["price"], v["distance"]))
    return out


def count_revenue(side: Side, values: list[int], kinds: Sequence[str], tokened: list[bool]) -> int:
    """Revenue of the stops of one route for ``side`` (bonuses not included).

    ``values``/``kinds``/``tokened`` describe the visited stops.  Raises GameError when the
    side cannot run the route."""
    k = len(values)
    if k > side.m:
        raise GameError(f"a {side.name} train visits at most {side.m} stops, not {k}", ILLEGAL_ROUTE)
    if side.kind == "plain":
        return sum(values)
    if side.kind == "n_plus_s":
        big = sum(1 for kind in kinds if kind != "town")
        if big > side.n:
            raise GameError(f"a {side.name} train visits at most {side.n} cities and off-boards", ILLEGAL_ROUTE)
        return sum(values)
    # N/M: the best N, one of which must be a station (the route has one: it is legal)
    if k <= side.n:
        return sum(values)
    order = sorted(range(k), key=lambda i: -values[i])
    best = order[: side.n]
    if any(tokened[i] for i in best) or not any(tokened):
        return sum(values[i] for i in best)
    station = max((i for i in range(k) if tokened[i]), key=lambda i: values[i])
    return sum(values[i] for i in order[: side.n - 1]) + values[station]
