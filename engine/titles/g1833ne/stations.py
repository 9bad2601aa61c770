"""1833NE stations: two per corporation (the home and one more for $80; B&W's in Worcester
$40), homes placed when the corporation starts, and the P4/P6 off-boards its owner builds and
runs from "as if it had a marker there".

Sherbrooke's shared marker (summary: A&StL "teilt mit der StL&A einen Marker, der kostenlos in
Sherbrooke gelegt wird, sobald jemand dort das gelbe Plättchen legt").

The marker is one station: it takes one space of Sherbrooke's city however many corporations
share it. In the city's slot list the first sharer holds that space and the other sharers follow
past the city's spaces, so the board counts one station for all of them. A sharer that closes
leaves the marker to the others (the space frees only when nobody shares it any more); a
corporation taking over a sharer inherits its part of the marker ("erbt ... Marker").
"""

from __future__ import annotations

from typing import Any

from ... import actions as A
from ...entities import Corporation
from ...errors import CANNOT_AFFORD, NO_ROUTE, UNAVAILABLE, GameError
from .routes import G1833NERoutes


class G1833NEStations(G1833NERoutes):
    """Station costs, placing tokens and homes, the shared Sherbrooke marker."""

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

    def _sherbrooke_city(self) -> tuple[Any, int] | None:
        h = self.board.hexes.get(self.data.SHARED_TOKEN["hex"])
        if h is None or not h.tile.cities:
            return None
        return h, h.tile.cities[0].index

    def place_sherbrooke_marker(self) -> None:
        """The yellow tile is laid: the open sharers' marker goes into the city's free space."""
        found = self._sherbrooke_city()
        if found is None:
            return
        self.sherbrooke_sharers = [s for s in self.sherbrooke_sharers if not self.corporations[s].closed]
        self.sherbrooke_token_done = True
        h, ci = found
        slots = h.city_slots(ci)
        h.tokens[ci] = [s for s in slots if s is not None] + self.sherbrooke_sharers
        self.settle_sherbrooke()
        if self.sherbrooke_sharers:
            self.log.append(f"{' and '.join(self.sherbrooke_sharers)} place their shared marker in Sherbrooke")

    def settle_sherbrooke(self) -> None:
        """Keep the shared marker in one space of the city (after a lay, a closing or a takeover)."""
        found = self._sherbrooke_city()
        if found is None or not self.sherbrooke_token_done:
            return
        h, ci = found
        slots = h.tokens.get(ci)
        if slots is None:
            return
        spaces = max(1, h.tile.nodes[ci].slots)
        sharers = [s for s in self.sherbrooke_sharers if s in slots]
        first = next((i for i, s in enumerate(slots) if s in sharers), None)
        base = [None if s in sharers else s for s in slots]
        while len(base) > spaces and None in base:
            del base[len(base) - 1 - base[::-1].index(None)]  # the last free entry
        base += [None] * (spaces - len(base))
        if sharers and None not in base:
            base += sharers  # decision: a city already full (a takeover-game home) takes it past its spaces
        elif sharers:
            at = first if first is not None and first < len(base) and base[first] is None else base.index(None)
            base[at] = sharers[0]
            base += sharers[1:]
        slots[:] = base
        self.board.changed()

    def sherbrooke_sharer_closed(self, corp: Corporation) -> None:
        """A closing sharer leaves the marker to the others."""
        if corp.sym in self.sherbrooke_sharers:
            self.sherbrooke_sharers.remove(corp.sym)
            self.settle_sherbrooke()

    def sherbrooke_sharer_taken_over(self, target: Corporation, acq: Corporation) -> None:
        """The acquirer inherits the target's part of the marker (unless it has its own station
        there, which it keeps)."""
        if target.sym not in self.sherbrooke_sharers or not self.sherbrooke_token_done:
            return
        found = self._sherbrooke_city()
        i = self.sherbrooke_sharers.index(target.sym)
        if found is not None and acq.sym not in found[0].tokens.get(found[1], []):
            self.sherbrooke_sharers[i] = acq.sym
            slots = found[0].tokens[found[1]]
            slots[slots.index(target.sym)] = acq.sym
        else:
            self.sherbrooke_sharers.pop(i)
            if found is not None and target.sym in found[0].tokens.get(found[1], []):
                found[0].tokens[found[1]].remove(target.sym)
        self.settle_sherbrooke()
