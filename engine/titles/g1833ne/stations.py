"""1833NE stations: two per corporation (the home and one more for $80; B&W's in Worcester
$40), homes placed when the corporation starts, and the P4/P6 off-boards its owner builds and
runs from "as if it had a marker there"."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ... import actions as A
from ...entities import Corporation
from ...errors import CANNOT_AFFORD, NO_ROUTE, UNAVAILABLE, GameError
from ...map.board import Board
from . import routes as R

if TYPE_CHECKING:
    from .game import G1833NE


class NEBoard(Board):
    """The 1833NE board: P4/P6 let their owner build and run from an off-board "as if it had
    a marker there", so those off-boards start the owner's track network too."""

    def connectivity(self, sym: str) -> tuple[dict[str, set[int]], set[tuple[str, int]]]:
        extra = virtual_stations(cast("G1833NE", self.game), sym)  # only G1833NE builds this board
        if not extra:
            return super().connectivity(sym)
        key = ("conn", sym)
        if key in self._cache:
            cached: tuple[dict[str, set[int]], set[tuple[str, int]]] = self._cache[key]
            return cached
        starts = [(h.id, ci) for h in self.hexes.values() for ci, slots in h.tokens.items() if sym in slots]
        starts += extra
        hex_edges: dict[str, set[int]] = {}
        for hid, _ in starts:
            hex_edges.setdefault(hid, set()).update(self.hexes[hid].neighbors.keys())
        nodes = self._walk(starts, sym, hex_edges)
        self._cache[key] = (hex_edges, nodes)
        return hex_edges, nodes


def token_cost_at(g: G1833NE, corp: Corporation, hid: str) -> int | None:
    tok = corp.next_token()
    if tok is None:
        return None
    if corp.sym == "BW" and hid == "E22":
        return 40  # summary: B&W's marker in Worcester always costs $40
    return tok.price


def can_place_token(g: G1833NE, corp: Corporation) -> bool:
    if corp.next_token() is None:
        return False
    return any((g.token_cost_at(corp, hid) or 0) <= corp.cash for hid, _ in g.tokenable_cities(corp))


def place_token(g: G1833NE, corp: Corporation, action: A.PlaceToken) -> None:
    hid, city = g.parse_city(action.city)
    if (hid, city) not in g.tokenable_cities(corp):
        raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space", NO_ROUTE)
    cost = g.token_cost_at(corp, hid)
    if cost is None:
        raise GameError(f"{corp.sym} has no station left", UNAVAILABLE)
    if cost > corp.cash:
        raise GameError(f"{corp.sym} cannot afford a station ({g.fmt(cost)})", CANNOT_AFFORD)
    g.board.place_token(hid, city, corp.sym, action.slot)
    tok = corp.next_token()
    assert tok is not None
    tok.used, tok.hex, tok.city = True, hid, city
    g.spend(corp.sym, "bank", cost)
    if g.special_reservations.get(corp.sym) == hid:
        g.special_reservations.pop(corp.sym)
    g.log.append(f"{corp.sym} places a station on {hid} for {g.fmt(cost)}")


def place_home(g: G1833NE, corp: Corporation, hid: str | None = None, city: int | None = None) -> None:
    """Home stations are placed when the corporation starts (HOME_TOKEN_TIMING float)."""
    hid = hid or corp.home
    if not hid or not corp.tokens or corp.tokens[0].used:
        return
    h = g.board.hex(hid)
    if city is None:
        cities = h.tile.cities
        reserved = [ci for ci, res in h.reservations.items() if corp.sym in res]
        if reserved:
            city = reserved[0]  # the reservation follows its city through upgrades
        elif corp.home_city is not None and corp.home_city < len(cities):
            city = cities[corp.home_city].index
        else:
            city = next(
                (c.index for c in cities if g.board.free_slots(h, c.index, corp.sym) > 0), cities[0].index
            )
    g.board.place_token(hid, city, corp.sym)
    tok = corp.tokens[0]
    tok.used, tok.hex, tok.city = True, hid, city


def virtual_stations(g: G1833NE, sym: str) -> list[tuple[str, int]]:
    corp = g.corporations.get(sym)
    if corp is None or corp.closed:
        return []
    out = []
    for hid in R.virtual_station_hexes(g, corp):
        h = g.board.hexes[hid]
        out += [(hid, n.index) for n in h.tile.offboards]
    return out
