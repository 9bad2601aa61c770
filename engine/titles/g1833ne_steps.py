"""1833NE rounds and steps: the stock round with current-price treasury shares, and the
operating round (issue/redeem, privates, P3's extra tiles, two tile lays, a station, routes,
full/half/no dividends, trains with emergency money), receivership and bankruptcy."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..entities import POOL, Corporation, Share
from ..errors import GameError
from ..operating import (
    BuyCompanyStep,
    BuyTrainStep,
    DiscardTrainStep,
    DividendStep,
    FinalBuyCompanyStep,
    OperatingRound,
    RouteStep,
    Step,
    TokenStep,
    TrackStep,
)
from ..rounds import StockRound
from .g1856 import SpecialBuyStep

if TYPE_CHECKING:
    from .g1833ne import G1833NE


# ---------------------------------------------------------------------------- stock round
class NEStockRound(StockRound):
    """Treasury shares cost the current price (incremental capitalization); a president's
    certificate left in the market by a bankruptcy may be bought (20%, twice the price)."""

    game: G1833NE

    def share_price_for(self, share: Share) -> int:
        corp = self.game.corporations[share.corporation]
        assert corp.price is not None
        return corp.price.price * share.percent // 10

    def why_not_buy(self, pid: str, share: Share) -> str | None:
        if share.president and share.owner == POOL:
            g = self.game
            corp = g.corporations[share.corporation]
            if self.bought():
                return "you already bought a certificate this turn"
            if corp.sym in self.sold_in_round[pid]:
                return f"you sold {corp.sym} this round"
            if g.player(pid).cash < self.share_price_for(share):
                return f"{share.id} costs {g.fmt(self.share_price_for(share))}"
            if not g.holding_ok(pid, corp.sym, share.percent):
                return f"you may hold at most {g.HOLDING_LIMIT}% of {corp.sym}"
            if g.num_certs(pid) + 1 > g.cert_limit():
                return f"you would exceed the certificate limit of {g.cert_limit()}"
            return None
        return super().why_not_buy(pid, share)

    def buyable_shares(self, pid: str) -> list[Share]:
        out = super().buyable_shares(pid)
        if self.bought():
            return out
        for corp in self.game.corporations.values():
            pres = next((s for s in self.game.pool_shares(corp.sym) if s.president), None)
            if pres is not None and pres not in out and self.can_buy(pid, pres):
                out.append(pres)
        return out

    def _par(self, pid: str, action: A.Par) -> None:
        g = self.game
        corp = g.corp(action.corporation)
        if corp.home is None and not corp.ipoed:
            from .g1833ne_takeover import start_variable_corporation

            start_variable_corporation(g, self, pid, action)
            return
        super()._par(pid, action)
        g.place_home(corp)

    def _sell(self, pid: str, action: A.SellShares) -> None:
        super()._sell(pid, action)


# ---------------------------------------------------------------------------- operating steps
class IssueRedeemStep(Step):
    """Once per turn, before buying trains, the corporation may issue treasury shares to the
    market (``sell_shares``) or redeem market shares (``buy_shares``), as 18xx.games models it."""

    name = "issue or redeem shares"
    blocks_always = False
    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        corp = self.corp
        if entity != corp.sym or self.round.state.get("issued_or_redeemed") or corp.president is None:
            return []
        if self.round.state.get("dividend_done"):
            return []
        out = []
        if self.game.issue_options(corp):
            out.append("sell_shares")
        if self.game.redeem_options(corp):
            out.append("buy_shares")
        return out

    def process(self, action: A.Action) -> None:
        g = self.game
        corp = self.corp
        ids = list(getattr(action, "shares", ()))
        shares = [g.share(s) for s in ids]
        if any(s.corporation != corp.sym for s in shares) or not shares:
            raise GameError(f"{corp.sym} may only issue or redeem its own shares")
        if isinstance(action, A.SellShares):
            if any(s.owner != corp.sym or s.president for s in shares):
                raise GameError(f"{corp.sym} issues shares from its treasury")
            g.issue_shares(corp, len(shares))
        elif isinstance(action, A.BuyShares):
            if any(s.owner != POOL for s in shares):
                raise GameError(f"{corp.sym} redeems shares from the market")
            g.redeem_shares(corp, len(shares))
        self.round.state["issued_or_redeemed"] = True


class NETrackStep(TrackStep):
    """Two lays: one yellow, and a second yellow or one upgrade."""

    def actions(self, entity: str) -> list[str]:
        if entity != self.corp.sym:
            return []
        return ["lay_tile", "pass"] if self.lays_left() and self.corp.cash >= 20 else []

    def skip(self) -> None:
        self.passed = True


class P3Step(Step):
    """P3 Champlain & St. Lawrence: its owner may lay up to two extra free yellow tiles on
    C4 and C6, without reaching them; C4 must connect to Montreal, and both to each other."""

    name = "use P3"
    blocks_always = False
    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        g = self.game
        c = g.companies.get(entity)
        if entity != "P3" or c is None or c.closed or c.owner != self.corp.sym:
            return []
        return ["lay_tile"] if len(g.p3_hexes_laid) < 2 else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.LayTile)
        g = self.game
        ab = g.companies["P3"].ability("tile_lay") or {}
        name = action.tile.rsplit("-", 1)[0]
        if action.hex not in ab.get("hexes", []) or action.hex in g.p3_hexes_laid or name not in ab.get("tiles", []):
            raise GameError(f"P3 lays {', '.join(ab.get('tiles', []))} on C4 and C6 (each once)")
        tile, _ = g.check_lay_tile(self.corp, action.hex, action.tile, action.rotation, free=True, connected=False)
        h = g.board.hexes[action.hex]
        links = {"C4": "B3", "C6": "C4"}
        # C4 must connect to Montreal; C6 to C4 once C4 is laid (and C4 to C6 when C6 is first)
        need = links[action.hex] if action.hex == "C4" or "C4" in g.p3_hexes_laid else None
        if need and not any(h.neighbors.get(e) == need for e in tile.exits):
            raise GameError(f"P3's tile on {action.hex} must connect to {need}")
        g.lay_tile(self.corp, action, company=g.companies["P3"], free=True, connected=False)
        g.p3_hexes_laid.append(action.hex)


class NERouteStep(RouteStep):
    """Run routes; obsolete trains are removed right after their owner runs."""

    game: G1833NE

    def process(self, action: A.Action) -> None:
        super().process(action)
        self.game.scrap_obsolete(self.corp)

    def skip(self) -> None:
        self.passed = True
        self.game.scrap_obsolete(self.corp)


class NEDividendStep(DividendStep):
    def skip(self) -> None:
        self.game.pay_dividend(self.round, self.corp, "withhold")
        self.passed = True


class NEBuyTrainStep(BuyTrainStep):
    """Emergency: the corporation's cash and forced issue come first (done when the turn
    reaches this step); then the president's cash and share sales; else bankruptcy."""

    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        if self.corp.president is None:
            return []
        return super().actions(entity)


class FerryStep(SpecialBuyStep):
    """Buying a ferry ($40) any time in the turn until phase IV."""

    name = "buy a ferry"


def operating_steps() -> list[type[Step]]:
    return [IssueRedeemStep, BuyCompanyStep, FerryStep, P3Step, NETrackStep, TokenStep, NERouteStep,
            NEDividendStep, DiscardTrainStep, NEBuyTrainStep, FinalBuyCompanyStep]


# ---------------------------------------------------------------------------- receivership
def operate_in_receivership(g: G1833NE, rnd: OperatingRound, corp: Corporation) -> None:
    """Decision: a corporation whose president's certificate is in the market has no
    president: it runs its best routes (the exact router without a clock, so a replay
    finds the same ones), withholds, and buys the
    cheapest train when it has none and can pay for it; no track, stations or issues."""
    from . import g1833ne_routes as R

    g.log.append(f"{corp.sym} operates in receivership")
    routes: list[dict[str, Any]] = []
    if g.can_run_routes(corp):
        try:
            routes = R.check_routes(g, corp, g.best_routes(corp.sym, time_budget=math.inf))
        except GameError:
            routes = []
    rnd.state["routes"] = routes
    g.scrap_obsolete(corp)
    g.pay_dividend(rnd, corp, "withhold")
    if corp.closed or corp.trains:
        return
    t = g.cheapest_depot_train(corp)
    if t is not None:
        side = min(g.sides[t.id], key=lambda s: s.price)
        if side.price <= corp.cash:
            g.buy_train(rnd, corp, A.BuyTrain(entity=corp.sym, entity_type="corporation", train=t.id,
                                              price=side.price, variant=side.name))


# ---------------------------------------------------------------------------- bankruptcy
def bankrupt_player(g: G1833NE, pid: str, corp: Corporation) -> None:
    """Summary "Notverkauf": the bankrupt player leaves; the money raised goes to the
    corporation; the other shares go to the market without moving prices; privates close."""
    player = g.player(pid)
    g.log.append(f"-- {player.name} goes bankrupt and leaves the game --")
    if player.cash > 0:
        g.spend(pid, corp.sym, player.cash)
    for sym in sorted({s.corporation for s in g.shares_of(pid)}):
        c = g.corporations[sym]
        pres = next((s for s in g.shares_of(pid, sym) if s.president), None)
        if pres is not None:
            others = {p.id: g.percent_of(p.id, sym) for p in g.players if p.id != pid and not p.bankrupt}
            best = max(others.values(), default=0)
            if best >= pres.percent:
                new = next(p for p in g.seat_order_from(pid) if others.get(p, -1) == best)
                handed = sorted((s for s in g.shares_of(new, sym) if not s.president), key=lambda s: s.seq)
                got = 0
                for s in handed:
                    if got >= pres.percent:
                        break
                    g.move_share(s, pid)
                    got += s.percent
                g.move_share(pres, new)
                c.president = new
                g.log.append(f"{g.name_of(new)} becomes the president of {sym}")
            else:
                c.president = None  # decision: no president until someone buys the certificate
                g.log.append(f"{sym} has no president (its certificate is in the market)")
        for s in g.shares_of(pid, sym):
            g.move_share(s, POOL)
        if g.percent_of(POOL, sym) > g.MARKET_SHARE_LIMIT:
            g.pool_overflow.add(sym)
    for csym in list(player.companies):
        g.close_company(g.companies[csym])
    player.cash = 0
    player.bankrupt = True
    player.passed = True
    if sum(1 for p in g.players if not p.bankrupt) <= 1:
        g.end_game("bankrupt")
