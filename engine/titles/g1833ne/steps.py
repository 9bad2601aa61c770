"""1833NE rounds and steps: the stock round with current-price treasury shares, and the
operating round (issue/redeem, privates, P3's extra tiles, two tile lays, a station, routes,
full/half/no dividends, trains with emergency money), receivership and bankruptcy."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ... import actions as A
from ...entities import POOL, Corporation, Share
from ...errors import RULE, GameError
from ...rounds.operating import (
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
from ...rounds.special_steps import SpecialBuyStep
from ...rounds.stock import AuctionRound, StockRound

if TYPE_CHECKING:
    from .game import G1833NE


# ---------------------------------------------------------------------------- private auction
class NEAuctionRound(AuctionRound):
    """The waterfall auction of 18xx.games' 1833NE (step/waterfall_auction.rb; the summary is
    silent): when every player passes in turn, the bids standing are resolved (a private with
    one bid goes to its bidder, one with several is auctioned among them), then two special
    operating rounds pay the privates' income, and the auction resumes at the same prices
    (no price falls, unlike 1830)."""

    game: G1833NE

    def __init__(self, game: G1833NE):
        super().__init__(game)
        self.settling = False  # resolving the bids left when everyone passed

    def _all_passed(self) -> None:
        g = self.game
        self.passed.clear()
        if not any(self.bids.values()):
            g.log.append("-- All players passed with no bids: two special operating rounds --")
            self._special_operating_rounds()
            return
        g.log.append("-- All players passed: the bids are resolved, then two special operating rounds --")
        self.settling = True
        self._resolve()

    def _resolve(self) -> None:
        if not self.settling:
            super()._resolve()
            return
        self.auctioning = None
        for company in list(self.companies):
            bids = self.bids.get(company.sym, [])
            if len(bids) == 1:
                self._buy(bids[0][0], company.sym, bids[0][1])
            elif len(bids) > 1:
                self.auctioning = company.sym
                return
        self.settling = False
        self._special_operating_rounds()

    def _special_operating_rounds(self) -> None:
        g = self.game
        for n in ("First", "Second"):
            g.log.append(f"-- {n} special operating round: the privates pay --")
            g.payout_companies()
        if self.companies:
            g.log.append("-- The auction resumes --")


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
                return f"{share.words} costs {g.fmt(self.share_price_for(share))}"
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
            from .takeover import start_variable_corporation

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
            raise GameError(f"{corp.sym} may only issue or redeem its own shares", RULE)
        if isinstance(action, A.SellShares):
            if any(s.owner != corp.sym or s.president for s in shares):
                raise GameError(f"{corp.sym} issues shares from its treasury", RULE)
            g.issue_shares(corp, len(shares))
        elif isinstance(action, A.BuyShares):
            if any(s.owner != POOL for s in shares):
                raise GameError(f"{corp.sym} redeems shares from the market", RULE)
            g.redeem_shares(corp, len(shares))
        self.round.state["issued_or_redeemed"] = True


class NETrackStep(TrackStep):
    """Two lays: one yellow, and a second yellow or one upgrade. The step waits (pass only)
    while the corporation cannot pay for a lay but could issue shares for it, and while B&L,
    kept from track in phase I, could still buy P2 (its Lowell tile is then free)."""

    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        corp = self.corp
        if entity != corp.sym or self.round.state.get("track_done"):
            return []
        g = self.game
        return ["lay_tile", "pass"] if self.lays_left() and g.lay_affordable(corp) else \
            ["pass"] if self.waits_for(entity) else []

    def waits_for(self, entity: str) -> list[str]:
        corp, g = self.corp, self.game
        if entity != corp.sym or self.round.state.get("track_done"):
            return []
        if self.lays_left():
            return ["issue shares"] if not g.lay_affordable(corp) and g.may_issue_for(corp, g.data.TILE_COST) else []
        return [f"buy P2 ({g.companies['P2'].name})"] if g.p2_may_free_bl(corp) else []

    def skip(self) -> None:
        self.passed = True


class NETokenStep(TokenStep):
    """A station; the step waits (pass only) while the corporation cannot pay for one but
    could issue shares for it."""

    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        return super().actions(entity) or (["pass"] if self.waits_for(entity) else [])

    def waits_for(self, entity: str) -> list[str]:
        if entity != self.corp.sym or self.round.state.get("tokened"):
            return []
        cost = self.game.cheapest_station(self.corp)
        waits = cost is not None and cost > self.corp.cash and self.game.may_issue_for(self.corp, cost)
        return ["issue shares"] if waits else []


class P3Step(Step):
    """P3 Champlain & St. Lawrence: its owner may lay up to two extra free yellow tiles, 3/4/58
    on C4 and 7/8/9 on C6 (18xx.games), without reaching them; C4's must connect to Montreal,
    and when both are laid they must connect to each other (summary, entities.rb)."""

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
        d = g.data
        name = action.tile.rsplit("-", 1)[0]
        allowed = d.P3_TILES.get(action.hex)
        if allowed is None or action.hex in g.p3_hexes_laid:
            raise GameError("P3 lays one tile on C4 and one on C6 (each once)", RULE)
        if name not in allowed:
            raise GameError(f"P3 lays tile {' or '.join(allowed)} on {action.hex}, not {name}", RULE)
        tile, _ = g.check_lay_tile(
            self.corp, action.hex, action.tile, action.rotation, free=True, connected=False
        )
        need = d.P3_MUST_CONNECT.get(action.hex)
        if need and not tiles_connect(g, action.hex, tile, need):
            raise GameError(
                f"P3's tile on {action.hex} must connect to {g.board.hexes[need].location or need} ({need})"
            , RULE)
        other = next(h for h in d.P3_TILES if h != action.hex)
        if other in g.p3_hexes_laid and not tiles_connect(g, action.hex, tile, other):
            raise GameError(f"P3's tiles on {action.hex} and {other} must connect to each other", RULE)
        g.lay_tile(self.corp, action, company=g.companies["P3"], free=True, connected=False)
        g.p3_hexes_laid.append(action.hex)


def tiles_connect(g: G1833NE, hex_id: str, tile: Any, neighbour: str) -> bool:
    """Whether ``tile`` on ``hex_id`` has track to ``neighbour`` and the tile there has the
    matching track back."""
    h = g.board.hexes[hex_id]
    edge = next((e for e, n in h.neighbors.items() if n == neighbour), None)
    if edge is None or edge not in tile.exits:
        return False
    return (edge + 3) % 6 in g.board.hexes[neighbour].tile.exits


class NERouteStep(RouteStep):
    """Run routes; obsolete trains are removed right after their owner runs."""

    game: G1833NE

    def process(self, action: A.Action) -> None:

        super().process(action)
        self.game.tell_bonuses(self.corp, self.round.state.get("routes", []))
        self.game.scrap_obsolete(self.corp)

    def skip(self) -> None:
        self.passed = True
        self.game.scrap_obsolete(self.corp)


class NEDividendStep(DividendStep):
    game: G1833NE

    def skip(self) -> None:
        self.game.pay_dividend(self.round, self.corp, "withhold")
        self.passed = True


class NEBuyTrainStep(BuyTrainStep):
    """Emergency ("Notverkauf"): a trainless corporation spends its treasury, then issues
    shares (the president picks the bundle, :meth:`G1833NE.emergency_issue_bundles`; it must
    when the treasury cannot pay the cheaper side), then its president pays and sells
    shares; else bankruptcy."""

    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        g = self.game
        corp = self.corp
        if corp.president is None:
            return []
        if g.emergency_issue_bundles(self.round, corp):
            if entity != corp.sym:
                return []  # the president waits until the corporation has issued
            return (
                ["sell_shares"] if g.must_issue_first(self.round, corp) else ["buy_train", "sell_shares"]
            )
        return super().actions(entity)

    def waits_for(self, entity: str) -> list[str]:
        g, corp = self.game, self.corp
        must_issue = entity == corp.sym and corp.president is not None \
            and bool(g.emergency_issue_bundles(self.round, corp)) and g.must_issue_first(self.round, corp)
        return ["issue shares"] if must_issue else []

    def process(self, action: A.Action) -> None:
        if isinstance(action, A.SellShares) and action.entity == self.corp.sym:
            g = self.game
            corp = self.corp
            shares = [g.share(s) for s in action.shares]
            if not shares or any(
                s.corporation != corp.sym or s.owner != corp.sym or s.president for s in shares
            ):
                raise GameError(f"{corp.sym} issues shares from its own treasury", RULE)
            g.issue_in_emergency(self.round, corp, len(shares))
            return
        super().process(action)


class FerryStep(SpecialBuyStep):
    """Buying a ferry ($40) any time in the turn until phase IV."""

    name = "buy a ferry"


class P5Step(Step):
    """P5's owner chooses, any time in its turn, which of its ferries P5 doubles (for good)."""

    name = "choose P5's ferry"
    blocks_always = False
    game: G1833NE

    def actions(self, entity: str) -> list[str]:
        company = self.game.companies.get(entity)
        if entity == "P5" and company is not None and company.owner == self.corp.sym and self.game.p5_choices():
            return ["assign"]
        return []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.Assign)
        self.game.assign_p5(self.corp, str(action.target))


def operating_steps() -> list[type[Step]]:
    return [
        P5Step,
        IssueRedeemStep,
        BuyCompanyStep,
        FerryStep,
        P3Step,
        NETrackStep,
        NETokenStep,
        NERouteStep,
        NEDividendStep,
        DiscardTrainStep,
        NEBuyTrainStep,
        FinalBuyCompanyStep,
    ]


# ---------------------------------------------------------------------------- receivership
def operate_in_receivership(g: G1833NE, rnd: OperatingRound, corp: Corporation) -> None:
    """Decision: a corporation whose president's certificate is in the market has no
    president: it runs its best routes (the exact router without a clock, so a replay
    finds the same ones), withholds, and buys the
    cheapest train when it has none and can pay for it; no track, stations or issues."""

    g.log.append(f"{corp.sym} operates in receivership")
    routes: list[dict[str, Any]] = []
    if g.can_run_routes(corp):
        try:
            routes = g.check_routes(corp, g.best_routes(corp.sym, time_budget=math.inf))
        except GameError:
            routes = []
    rnd.state["routes"] = routes
    for r in routes:  # (no player runs them: the log says where they go)
        ends = [g.board.hexes[h].location or h for h in (r["hexes"][0], r["hexes"][-1])]
        g.log.append(f"{corp.sym} runs its {g.train_side(g.trains[r['train']]).name}-train from {ends[0]} to "
                     f"{ends[1]} for {g.fmt(r['revenue'])}")
    g.scrap_obsolete(corp)
    g.pay_dividend(rnd, corp, "withhold")
    if corp.closed or corp.trains:
        return
    t = g.cheapest_depot_train(corp)
    if t is not None:
        side = min(g.sides[t.id], key=lambda s: s.price)
        if side.price <= corp.cash:
            g.buy_train(
                rnd,
                corp,
                A.BuyTrain(
                    entity=corp.sym,
                    entity_type="corporation",
                    train=t.id,
                    price=side.price,
                    variant=side.name,
                ),
            )


# ---------------------------------------------------------------------------- bankruptcy
