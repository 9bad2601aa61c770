"""Stations (tokens): where a corporation may place one, what it costs, and placing it.

:class:`StationRules` is a part of :class:`engine.game.Game`.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import Company, Corporation
from ..errors import CANNOT_AFFORD, NO_ROUTE, UNKNOWN, GameError
from ..hooks import TitleHooks
from ..rounds.operating import OperatingRound


class StationRules(TitleHooks):
    """Home stations, further stations and their cost."""

    # ------------------------------------------------------------------ tokens
    def parse_city(self, city_id: str) -> tuple[str, int]:
        """18xx.games city ids are "<tile id>-<city index>"; a laid tile's id is like "57-0",
        a pre-printed tile's is "<hex>-0" (plain "<hex>" is accepted too)."""
        tile_id, _, idx = city_id.rpartition("-")
        for h in self.board.hexes.values():
            if h.tile_id == tile_id or (h.tile_id is None and tile_id in (h.id, f"{h.id}-0")):
                cities = h.tile.cities
                i = int(idx)
                if i >= len(cities):
                    break
                return h.id, cities[i].index
        raise GameError(f"There is no city {city_id} on the map", UNKNOWN, what="city", id=city_id)

    def token_cost(self, corp: Corporation, hex_id: str | None = None) -> int | None:
        tok = corp.next_token()
        if tok is None:
            return None
        if hex_id is not None and self.token_ability_for(corp, hex_id) is not None:
            return 0
        return tok.price

    def token_ability_for(self, corp: Corporation, hex_id: str) -> Company | None:
        """A private of ``corp`` whose unused station ability covers ``hex_id`` (WSRC on
        Kitchener): 18xx.games applies it to the corporation's own station there (free)."""
        for sym in corp.companies:
            company = self.companies[sym]
            ab = company.ability("token")
            if ab and not company.closed and hex_id in ab.get("hexes", []) and \
                    (sym, "token") not in self.used_abilities:
                return company
        return None

    def map_cache_cleared(self) -> None:
        """A tile was laid, a station placed by a step or a right bought: what the token steps
        found is looked at afresh (see ``TOKEN_VIEW_KEPT``)."""
        self.token_view.clear()

    def can_place_token(self, corp: Corporation, *, step: bool = False) -> bool:
        """Whether ``corp`` may place a station now; ``step``: asked by its token step, which
        keeps what it found while ``TOKEN_VIEW_KEPT`` says so."""
        cost = self.token_cost(corp)
        if cost is None:
            return False
        # A private with a free token ability (WSRC) makes 18xx.games count the cheapest
        # token as free when it decides whether to offer the token step (seen in real games).
        if any(self.companies[c].ability("token") and not self.companies[c].closed for c in corp.companies):
            cost = 0
        if cost > self.buying_power_for_token(corp):
            return False
        if not (step and self.TOKEN_VIEW_KEPT):
            return bool(self.tokenable_cities(corp))
        seen = self.token_view.get(corp.sym)
        if seen is None:
            seen = self.token_view[corp.sym] = bool(self.tokenable_cities(corp))
        return seen

    def tokenable_cities(self, corp: Corporation) -> list[tuple[str, int]]:
        _, nodes = self.board.connectivity(corp.sym)
        nodes = set(nodes)
        out = []
        for hid, ni in sorted(nodes):
            h = self.board.hexes[hid]
            node = h.tile.nodes[ni]
            if node.kind != "city" or h.tokened_by(corp.sym):
                continue
            if self.board.free_slots(h, ni, corp.sym) > 0:
                out.append((hid, ni))
        return out

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        hid, city = self.parse_city(action.city)
        if (hid, city) not in self.tokenable_cities(corp):
            raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space", NO_ROUTE, corporation=corp.sym, hex=hid)
        cost = self.token_cost(corp, hid)
        assert cost is not None
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot afford a token ({self.fmt(cost)})", CANNOT_AFFORD, corporation=corp.sym, cost=cost, cash=corp.cash)
        company = self.token_ability_for(corp, hid)
        self.board.place_token(hid, city, corp.sym, action.slot)
        self.map_cache_cleared()
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        if cost:
            self.spend(corp.sym, "bank", cost)
        by = f" ({company.sym})" if company is not None else ""
        self.log.append(f"{corp.sym}{by} places a token on {self.place_words(hid, city)}"
                        + (f" for {self.fmt(cost)}" if cost else ""))
        # (a private's station ability used in the corporation's own token step makes the station
        # free, but neither uses the ability up nor closes the private: 18xx.games' Tokener only
        # does that when the private itself acts, in its special token step)

    def place_home_token(self, rnd: OperatingRound, corp: Corporation) -> None:
        if not corp.home or any(t.used for t in corp.tokens) or not corp.tokens:
            return
        h = self.board.hex(corp.home)
        cities = h.tile.cities
        if not cities:
            return
        if corp.home_city is not None:
            city = cities[corp.home_city].index if corp.home_city < len(cities) else cities[0].index
        elif corp.sym in h.tile_reservations and h.tile.paths:
            # the reservation is for the hex (its tile has several cities): the corporation
            # chooses the city, even when only one is free (as on 18xx.games)
            rnd.state["home_pending"] = True
            return
        else:
            city = next((c.index for c in cities if corp.sym in h.reservations.get(c.index, [])),
                        cities[0].index)
        if self.board.free_slots(h, city, corp.sym) <= 0 and corp.sym not in h.reservations.get(city, []):
            # home full: the token waits (very rare); nothing is placed
            return
        self.board.place_token(corp.home, city, corp.sym)
        tok = corp.tokens[0]
        tok.used, tok.hex, tok.city = True, corp.home, city
        self.log.append(f"{corp.sym} places its home token on {self.place_words(corp.home, city)}")

    def buying_power_for_token(self, corp: Corporation) -> int:
        """What ``corp`` could spend now (1856 counts the loan it could still take)."""
        return corp.cash
