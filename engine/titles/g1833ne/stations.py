"""1833NE stations: two per corporation (the home and one more for $80; B&W's in Worcester
$40), homes placed when the corporation starts, and the P4/P6 off-boards its owner builds and
runs from "as if it had a marker there"."""

from __future__ import annotations

from ... import actions as A
from ...entities import Corporation
from ...errors import CANNOT_AFFORD, NO_ROUTE, UNAVAILABLE, GameError
from .routes import G1833NERoutes


class G1833NEStations(G1833NERoutes):
    """Station costs, placing tokens and homes."""

    def token_cost_at(self, corp: Corporation, hid: str) -> int | None:
        tok = corp.next_token()
        if tok is None:
            return None
        if corp.sym == "BW" and hid == "E22":
            return 40  # summary: B&W's marker in Worcester always costs $40
        return tok.price

    def can_place_token(self, corp: Corporation) -> bool:
        if corp.next_token() is None:
            return False
        return any((self.token_cost_at(corp, hid) or 0) <= corp.cash for hid, _ in self.tokenable_cities(corp))

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        hid, city = self.parse_city(action.city)
        if (hid, city) not in self.tokenable_cities(corp):
            raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space", NO_ROUTE)
        cost = self.token_cost_at(corp, hid)
        if cost is None:
            raise GameError(f"{corp.sym} has no station left", UNAVAILABLE)
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot afford a station ({self.fmt(cost)})", CANNOT_AFFORD)
        self.board.place_token(hid, city, corp.sym, action.slot)
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        self.spend(corp.sym, "bank", cost)
        if self.special_reservations.get(corp.sym) == hid:
            self.special_reservations.pop(corp.sym)
        self.log.append(f"{corp.sym} places a station on {hid} for {self.fmt(cost)}")

    def place_home(self, corp: Corporation, hid: str | None = None, city: int | None = None) -> None:
        """Home stations are placed when the corporation starts (HOME_TOKEN_TIMING float)."""
        hid = hid or corp.home
        if not hid or not corp.tokens or corp.tokens[0].used:
            return
        h = self.board.hex(hid)
        if city is None:
            cities = h.tile.cities
            reserved = [ci for ci, res in h.reservations.items() if corp.sym in res]
            if reserved:
                city = reserved[0]  # the reservation follows its city through upgrades
            elif corp.home_city is not None and corp.home_city < len(cities):
                city = cities[corp.home_city].index
            else:
                city = next(
                    (c.index for c in cities if self.board.free_slots(h, c.index, corp.sym) > 0), cities[0].index
                )
        self.board.place_token(hid, city, corp.sym)
        tok = corp.tokens[0]
        tok.used, tok.hex, tok.city = True, hid, city

    def virtual_stations(self, sym: str) -> list[tuple[str, int]]:
        corp = self.corporations.get(sym)
        if corp is None or corp.closed:
            return []
        out = []
        for hid in self.virtual_station_hexes(corp):
            h = self.board.hexes[hid]
            out += [(hid, n.index) for n in h.tile.offboards]
        return out
