"""1856's privates and what they leave behind: tunnel and bridge rights (bought with the
privates or, later, for $50), the port marker, and 1836Jr56 CdH's teleport lay and station."""

from __future__ import annotations

from ... import actions as A
from ...entities import Company, Corporation, Train
from ...errors import LIMIT, NO_ROUTE, RULE, UNAVAILABLE, GameError
from ...rounds.operating import OperatingRound
from .stock import G1856Stock


class G1856Privates(G1856Stock):
    """Rights, the port marker and the teleport."""

    RIGHTS = {"tunnel": ("SCFTC", "Tunnel Token"), "bridge": ("NFSBC", "Bridge Token")}

    def event_close_companies(self, train: Train) -> None:
        for right, (sym, _) in self.RIGHTS.items():
            company = self.companies.get(sym)
            if company and not company.closed and company.owner in self.player_by_id:
                self.right_markers[right] = self.right_markers.get(right, 0) + 1
        super().event_close_companies(train)

    def event_remove_tokens(self, _train: Train) -> None:
        """The first 6-train takes the port marker off the map: off its corporation and off its
        hex (18xx.games removes both assignments; the map stopped showing it only then)."""
        for corp, hid in self.port_assignment.items():
            self.log.append(f"-- Event: {corp}'s {self.rules.port_marker} is removed from {self.place_words(hid)} --")
            self.board.hexes[hid].assignments.clear()  # (the marker is the only thing assigned to a hex)
        self.port_assignment.clear()

    def assign(self, corp: Corporation, action: A.Assign) -> None:
        company = self.company(action.entity)
        ab = company.ability("assign_hexes")
        if not ab or action.target not in ab.get("hexes", []):
            raise GameError(f"{company.sym} cannot be assigned to {action.target}", RULE)
        self.port_assignment[corp.sym] = action.target
        self.board.hexes[action.target].assignments.add(company.sym)
        self.close_company(company)
        self.log.append(f"{corp.sym} places {company.sym}'s {self.rules.port_marker} on {self.place_words(action.target)}: its "
                        f"stops there count {self.fmt(self.rules.port_bonus)} more for {corp.sym}; {company.sym} closes")

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        """The bridge and tunnel privates bring their right with them."""
        super().buy_company(corp, action)
        if action.company == "NFSBC":
            self.rights.setdefault(corp.sym, set()).add("bridge")
        if action.company == "SCFTC":
            self.rights.setdefault(corp.sym, set()).add("tunnel")

    def use_private(self, rnd: OperatingRound, corp: Corporation, action: A.Action) -> None:
        """1836Jr56 CdH lays its tile without a connection (a teleport)."""
        company = self.company(action.entity)
        if isinstance(action, A.LayTile) and company.ability("teleport") and not company.ability("tile_lay"):
            self.close_after_use(rnd, company)
            self._teleport_lay(rnd, corp, company, action)
            return
        super().use_private(rnd, corp, action)

    def special_token_time(self, rnd: OperatingRound) -> bool:
        """18xx.games: a private's station (WSRC) is placed at token time: after the track
        step and before the interest is paid."""
        return super().special_token_time(rnd) and not rnd.state.get("paid_interest")

    def _teleport_lay(self, rnd: OperatingRound, corp: Corporation, company: Company, action: A.LayTile) -> None:
        """1836Jr56 CdH: a tile on J8 without a connection, paying only the terrain cost, as the
        turn's track lay; then a free station there (rule summary: "nur die Gebirgskosten ...
        ohne dass eine Verbindung zum bestehenden Netz nötig ist")."""
        ab = company.ability("teleport") or {}
        if action.hex not in ab.get("hexes", []) or action.tile.rsplit("-", 1)[0] not in ab.get("tiles", []):
            raise GameError(f"{company.sym} may lay {', '.join(ab.get('tiles', []))} on "
                            f"{', '.join(ab.get('hexes', []))} only", RULE)
        if rnd.state.get("tiles_laid", 0) >= self.tile_lays_per_turn(corp):
            raise GameError(f"{corp.sym} has already laid its tile this turn", LIMIT)
        self.lay_tile(corp, action, company=company, connected=False)
        rnd.state["tiles_laid"] = rnd.state.get("tiles_laid", 0) + 1
        self.used_abilities.add((company.sym, "teleport"))
        if corp.next_token() is not None:
            rnd.state["teleported"] = company.sym

    def teleport_token(self, rnd: OperatingRound, corp: Corporation, action: A.PlaceToken) -> None:
        """The free station on the teleport hex, with no connection needed."""
        company = self.company(action.entity)
        hid, city = self.parse_city(action.city)
        if hid not in (company.ability("teleport") or {}).get("hexes", []):
            raise GameError(f"{company.sym} places its station on "
                            f"{', '.join((company.ability('teleport') or {}).get('hexes', []))} only", RULE)
        h = self.board.hexes[hid]
        if h.tokened_by(corp.sym) or self.board.free_slots(h, city, corp.sym) <= 0:
            raise GameError(f"{corp.sym} cannot place a station on {hid}: no free space", NO_ROUTE)
        tok = corp.next_token()
        if tok is None:
            raise GameError(f"{corp.sym} has no station left", UNAVAILABLE)
        self.board.place_token(hid, city, corp.sym, action.slot)
        self.map_cache_cleared()
        tok.used, tok.hex, tok.city = True, hid, city
        rnd.state["tokened"] = True
        self.log.append(f"{corp.sym} ({company.sym}) places a token on {self.place_words(hid, city)}")

    def special_buy_names(self) -> list[str]:
        return [label for sym, label in self.RIGHTS.values() if sym in self.companies]

    def special_buys(self, corp: Corporation) -> list[str]:
        """Rights (tunnel to Sarnia, bridge to Buffalo) this corporation may buy for $50: while
        the private is not owned by a player, a marker remains, and it has no such right yet."""
        out = []
        for right, (sym, label) in self.RIGHTS.items():
            company = self.companies.get(sym)
            if company is None or (company.owner in self.player_by_id and not company.closed):
                continue
            unlimited = "unlimited_bonus_tokens" in self.optional_rules
            if (self.right_markers.get(right, 0) <= 0 and not unlimited) or right in self.rights.get(corp.sym, set()):
                continue
            if corp.cash >= self.right_cost:
                out.append(label)
        return out

    def special_buy_effect(self, name: str) -> str:
        """ "+$10 for each run to B13 (Sarnia)": the bonus the right adds (its private's text)."""
        right = next((r for r, (_, label) in self.RIGHTS.items() if label == name), None)
        if right is None:
            return ""
        hexes = self.data.TUNNEL_BONUS_HEXES if right == "tunnel" else self.data.BRIDGE_BONUS_HEXES
        return f"+{self.fmt(self.rules.right_bonus)} for each run to {' or '.join(self.place_words(h) for h in hexes)}"

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        right = next((r for r, (_, label) in self.RIGHTS.items() if label == action.description), None)
        if right is None or action.description not in self.special_buys(corp):  # noqa: SIM102
            raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now", RULE)
        if action.cost not in (0, self.right_cost):  # (0: not given, the bot's /right)
            raise GameError(f"A {right} right costs {self.fmt(self.right_cost)}, not {self.fmt(action.cost)}",
                            RULE, corporation=corp.sym, cost=action.cost)
        self.export_fill["cost"] = self.right_cost  # (18xx.games matches the item by its cost too)
        company = self.companies[self.RIGHTS[right][0]]
        seller = "bank" if company.closed or company.owner is None else company.owner
        self.spend(corp.sym, seller, self.right_cost)
        if "unlimited_bonus_tokens" not in self.optional_rules:
            self.right_markers[right] -= 1
            self.map_cache_cleared()  # (18xx.games clears its map cache with the marker)
        self.rights.setdefault(corp.sym, set()).add(right)
        self.log.append(f"{corp.sym} buys a {right} right from {self.name_of(seller)} for {self.fmt(self.right_cost)}")
