"""Private companies: their income, buying them into corporations, and using their abilities.

:class:`CompanyRules` is a part of :class:`engine.game.Game`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import actions as A
from ..entities import Company, Corporation
from ..errors import CANNOT_AFFORD, PRICE, RULE, UNAVAILABLE, WRONG_STEP, GameError
from ..hooks import TitleHooks
from ..rounds.operating import OperatingRound, TrackStep

if TYPE_CHECKING:
    from ..rounds.stock import Round


class CompanyRules(TitleHooks):
    """Privates owned by players and corporations."""

    # ------------------------------------------------------------------ privates
    def can_buy_companies(self, corp: Corporation) -> bool:
        if not self.phase_status("can_buy_companies"):
            return False
        # buying power counts a loan the corporation could still take (as 18xx.games does)
        power = self.buying_power_for_token(corp)
        return any(self.company_min_price(c) <= power for c in self.purchasable_companies())

    def has_any_time_ability(self, corp: Corporation) -> bool:
        """The corporation owns a private whose ability it may use at any time in its turn
        (e.g. 1836Jr56 E-SF's extra tile, RdP's marker): the turn then ends with a pass."""
        for sym in corp.companies:
            c = self.companies[sym]
            if c.closed:
                continue
            for ab in c.abilities:
                if ab.get("when") == "owning_corp_or_turn" and (c.sym, ab.get("type")) not in self.used_abilities:
                    return True
        return False

    def purchasable_companies(self) -> list[Company]:
        return [c for c in self.companies.values() if not c.closed and c.owner in self.player_by_id]

    def company_min_price(self, c: Company) -> int:
        return math.ceil(c.value / 2)

    def company_max_price(self, c: Company) -> int:
        return c.value * 2

    def company_surcharge(self, company: Company) -> int:
        """What a corporation pays the bank on top of the price when buying ``company``."""
        return 0

    def special_tile_lay_ok(self, rnd: OperatingRound, company: Company) -> bool:
        if (company.sym, "tile_lay") in self.used_abilities:
            return False
        ab = company.ability("tile_lay") or {}
        if ab.get("consume_tile_lay") and rnd.state.get("tiles_laid", 0) >= self.tile_lays_per_turn(rnd.corp):
            return False  # the lay is the turn's tile lay (WSRC): not once that is used
        if ab.get("when") == "track":
            return not any(isinstance(s, TrackStep) and s.passed for s in rnd.steps)
        return True

    def close_after_use(self, rnd: OperatingRound, company: Company) -> None:
        if company.sym in self.rules.close_after_use_at_or_end:
            rnd.state_round.setdefault("close_at_end", []).append(company.sym)
            self.log.append(f"{company.sym}'s ability is used: {company.sym} closes at the end of the operating round")

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        company = self.company(action.company)
        if company.closed or company.owner not in self.player_by_id:
            raise GameError(f"{company.sym} cannot be bought", UNAVAILABLE, company=company.sym)
        lo, hi = self.company_min_price(company), self.company_max_price(company)
        extra = self.company_surcharge(company)
        if not lo <= action.price <= hi:
            # (1833NE's P6: what the corporation also pays the bank lowers what it may offer)
            why = (f" ({corp.sym} also pays the bank {self.fmt(extra)} for it: it can offer at most {self.fmt(hi)})"
                   if extra and hi < company.value else "")
            top = company.value if why else hi
            raise GameError(f"{company.sym} costs between {self.fmt(lo)} and {self.fmt(top)}{why}", PRICE,
                            company=company.sym, low=lo, high=hi, price=action.price)
        if action.price + extra > corp.cash:
            raise GameError(f"{corp.sym} cannot pay {self.fmt(action.price + extra)}: it has {self.fmt(corp.cash)}",
                            CANNOT_AFFORD, corporation=corp.sym, cost=action.price + extra, cash=corp.cash)
        seller = company.owner
        assert seller is not None
        self.spend(corp.sym, seller, action.price)
        if extra:
            self.spend(corp.sym, "bank", extra)
        self.player(seller).companies.remove(company.sym)
        company.owner = corp.sym
        corp.companies.append(company.sym)
        self.log.append(f"{corp.sym} buys {company.sym} from {self.name_of(seller)} for {self.fmt(action.price)}"
                        + (f" (+{self.fmt(extra)} to the bank)" if extra else ""))

    def use_private(self, rnd: OperatingRound, corp: Corporation, action: A.Action) -> None:
        company = self.company(action.entity)
        if isinstance(action, A.LayTile):
            ab = company.ability("tile_lay")
            assert ab is not None
            if action.hex not in ab.get("hexes", []) or action.tile.rsplit("-", 1)[0] not in ab.get("tiles", []):
                raise GameError(f"{company.sym} may lay {', '.join(ab.get('tiles', []))} on "
                                f"{', '.join(ab.get('hexes', []))} only", RULE, company=company.sym)
            self.lay_tile(corp, action, company=company, free=bool(ab.get("free")), connected=False)
            self.used_abilities.add((company.sym, "tile_lay"))
            if ab.get("consume_tile_lay"):
                rnd.state["tiles_laid"] = rnd.state.get("tiles_laid", 0) + 1
        elif isinstance(action, A.PlaceToken):
            hid, city = self.parse_city(action.city)
            ab = company.ability("token")
            assert ab is not None
            if hid not in ab.get("hexes", []):
                raise GameError(f"{company.sym} may place a token on {', '.join(ab.get('hexes', []))} only", RULE, company=company.sym)
            self.board.place_token(hid, city, corp.sym, action.slot)
            self.map_cache_cleared()
            tok = corp.next_token()
            if tok is None:
                raise GameError(f"{corp.sym} has no token left", UNAVAILABLE, corporation=corp.sym)
            tok.used, tok.hex, tok.city = True, hid, city
            self.used_abilities.add((company.sym, "token"))
            self.log.append(f"{corp.sym} ({company.sym}) places a token on {self.place_words(hid, city)}")
            if not ab.get("extra_action"):
                rnd.state["tokened"] = True  # the turn's token (18xx.games: "Token already placed")
        else:
            raise GameError(f"{company.sym} cannot {action.type}", WRONG_STEP, company=company.sym, action=action.type)
        self.close_after_use(rnd, company)

    def special_token_time(self, rnd: OperatingRound) -> bool:
        """Whether a private's station may be placed now: at token time, after the track step."""
        return any(isinstance(s, TrackStep) and s.passed for s in rnd.steps)

    def on_round_end(self, rnd: Round) -> None:
        """``rnd`` has just finished: privates used in an operating round that close at its end
        (``CLOSE_AFTER_USE_AT_OR_END``) close."""
        if isinstance(rnd, OperatingRound):
            for sym in rnd.state_round.get("close_at_end", []):
                company = self.companies[sym]
                if not company.closed:
                    self.close_company(company)
                    self.log.append(f"{sym} closes")

    def special_buys(self, corp: Corporation) -> list[str]:
        """What ``corp`` may buy besides trains and privates now (1856: tunnel and bridge rights)."""
        return []

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        """Buy one of :meth:`special_buys`."""
        raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now", WRONG_STEP, corporation=corp.sym)

    def payout_companies(self) -> None:
        """Privates pay their owners at the start of an operating round."""
        income: dict[str, list[str]] = {}
        for c in self.companies.values():
            if c.closed or c.owner is None:
                continue
            self.spend("bank", c.owner, c.revenue)
            if c.revenue:
                income.setdefault(c.owner, []).append(f"{self.fmt(c.revenue)} from {c.name}")
        for owner, parts in income.items():
            self.log.append(f"{self.name_of(owner)} collects {' and '.join(parts)}")
