"""The private auction (1830-style waterfall) and the stock round."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import actions as A
from ..entities import POOL, Share, listed
from ..errors import (
    BAD_OPTION,
    CANNOT_AFFORD,
    LIMIT,
    NOT_OWNER,
    NOT_YOUR_TURN,
    PRICE,
    RULE,
    UNAVAILABLE,
    WRONG_STEP,
    GameError,
)

if TYPE_CHECKING:
    from ..game import Game


class Round:
    """Common interface: ``acting()``, ``action_types(entity)``, ``process(action)``, ``finished()``."""

    name = ""
    last_to_act: str | None = None  # the player who acted last in the round (stock, auction)
    sales = 0  # share sales so far in the round (programmed passes stop when shares are sold)
    # an offer awaiting an answer: (who offers, who answers, what is offered) (1833NE's takeovers)
    pending: tuple[str, str, int] | None = None

    def __init__(self, game: Game):
        self.game = game

    def start(self) -> None:
        pass

    def acting(self) -> list[str]:
        raise NotImplementedError

    def action_types(self, entity: str) -> list[str]:
        raise NotImplementedError

    def process(self, action: A.Action) -> None:
        raise NotImplementedError

    def finished(self) -> bool:
        raise NotImplementedError

    def check_actor(self, action: A.Action) -> None:
        if action.entity not in self.acting():
            who = ", ".join(self.game.name_of(e) for e in self.acting()) or "nobody"
            raise GameError(f"It is not {self.game.name_of(action.entity)}'s turn: waiting for {who}", NOT_YOUR_TURN, entity=action.entity, waiting=who)
        allowed = self.action_types(action.entity)
        if action.type not in allowed:
            raise GameError(
                f"{self.game.name_of(action.entity)} cannot {action.type.replace('_', ' ')} now; "
                f"allowed: {', '.join(allowed) or 'nothing'}", WRONG_STEP, entity=action.entity, action=action.type, allowed=list(allowed))


class AuctionRound(Round):
    """Privates sold cheapest first: the cheapest may be bought at face value, the others bid on.
    When the cheapest is bought, bids on the next ones resolve (auction among several bidders)."""

    name = "Auction Round"

    def __init__(self, game: Game):
        super().__init__(game)
        self.order = [p.id for p in game.players]
        self.index = game.priority
        self.companies = sorted((c for c in game.companies.values() if c.owner is None and not c.closed),
                                key=lambda c: c.value)
        self.cheapest = self.companies[0].sym if self.companies else None
        self.bids: dict[str, list[tuple[str, int]]] = {}
        self.auctioning: str | None = None
        self.passed: set[str] = set()
        self.last_to_act: str | None = None

    @property
    def current(self) -> str:
        return self.order[self.index]

    def acting(self) -> list[str]:
        if self.auctioning:
            return [min(self.bids[self.auctioning], key=lambda b: b[1])[0]]
        return [self.current]

    def action_types(self, entity: str) -> list[str]:
        if not self.companies or entity not in self.acting():
            return []
        return ["bid", "pass"]

    def finished(self) -> bool:
        return not self.companies

    def bought_outright(self, sym: str) -> bool:
        """Whether a bid on ``sym`` buys it at once at its price: the cheapest private left while
        no auction runs (18xx.games' waterfall auction)."""
        return not self.auctioning and bool(self.companies) and self.companies[0].sym == sym

    def min_bid(self, sym: str) -> int:
        company = self.game.companies[sym]
        if self.bought_outright(sym):
            return company.min_bid
        bids = self.bids.get(sym, [])
        high = max((b[1] for b in bids), default=company.min_bid)
        return high + self.game.MIN_BID_INCREMENT

    def committed(self, pid: str) -> int:
        return sum(p for bids in self.bids.values() for who, p in bids if who == pid)

    def max_bid(self, pid: str, sym: str) -> int:
        mine = sum(p for who, p in self.bids.get(sym, []) if who == pid)
        return self.game.player(pid).cash - self.committed(pid) + mine

    def process(self, action: A.Action) -> None:
        self.check_actor(action)
        g = self.game
        pid = action.entity
        if isinstance(action, A.Bid):
            company = g.company(action.company)
            if company not in self.companies:
                raise GameError(f"{company.sym} is not for sale", UNAVAILABLE, company=company.sym)
            if self.auctioning and company.sym != self.auctioning:
                raise GameError(f"{self.auctioning} is being auctioned; bid on it or pass", WRONG_STEP, company=company.sym, auctioning=self.auctioning)
            if action.price < self.min_bid(company.sym):
                raise GameError(f"The minimum bid for {company.sym} is {g.fmt(self.min_bid(company.sym))}", PRICE, company=company.sym, low=self.min_bid(company.sym), price=action.price)
            if action.price > self.max_bid(pid, company.sym):
                raise GameError(f"{g.name_of(pid)} can bid at most {g.fmt(self.max_bid(pid, company.sym))}", CANNOT_AFFORD, company=company.sym, high=self.max_bid(pid, company.sym), price=action.price)
            self.passed.discard(pid)
            if self.auctioning:
                self._add_bid(pid, company.sym, action.price)
            else:
                if self.companies[0] is company:
                    self.last_to_act = pid
                    self._buy(pid, company.sym, action.price, outright=True)
                    self._resolve()
                else:
                    self._add_bid(pid, company.sym, action.price)
                self._next()
        elif isinstance(action, A.Pass):
            if self.auctioning:
                sym = self.auctioning
                self.bids[sym] = [b for b in self.bids[sym] if b[0] != pid]
                g.log.append(f"{g.name_of(pid)} passes on {sym}")
                self._resolve()
            else:
                g.log.append(f"{g.name_of(pid)} passes bidding")
                self.passed.add(pid)
                if len(self.passed) == len(self.order):
                    self._all_passed()
                self._next()
        else:
            raise GameError(f"Cannot {action.type} in the auction", WRONG_STEP, action=action.type)

    def _next(self) -> None:
        self.index = (self.index + 1) % len(self.order)

    def _add_bid(self, pid: str, sym: str, price: int) -> None:
        bids = [b for b in self.bids.get(sym, []) if b[0] != pid]
        bids.append((pid, price))
        self.bids[sym] = bids
        self.game.log.append(f"{self.game.name_of(pid)} bids {self.game.fmt(price)} for {sym}")

    def _buy(self, pid: str, sym: str, price: int, outright: bool = False) -> None:
        g = self.game
        company = g.companies[sym]
        # (a bid on the private bought at once buys it at the bid: 18xx.games takes it all)
        above = price - company.min_bid if outright else 0
        self.bids.pop(sym, None)
        company.owner = pid
        g.player(pid).companies.append(sym)
        g.spend(pid, "bank", price)
        self.companies.remove(company)
        g.log.append(f"{g.name_of(pid)} buys {sym} ({company.name}) for {g.fmt(price)}"
                     + (f" ({g.fmt(above)} more than its price)" if above > 0 else ""))
        g.after_buy_company(pid, company, price)

    def _resolve(self) -> None:
        before, self.auctioning = self.auctioning, None
        while self.companies:
            sym = self.companies[0].sym
            bids = self.bids.get(sym, [])
            if len(bids) == 1:
                self._buy(bids[0][0], sym, bids[0][1])
                continue
            if len(bids) > 1:
                self.auctioning = sym
                if sym != before:  # (as 18xx.games: "The Canada Company goes up for auction")
                    g = self.game
                    said = listed([f"{g.name_of(pid)} ({g.fmt(price)})" for pid, price in bids], "and")
                    g.log.append(f"{sym} ({g.companies[sym].name}) goes up for auction between {said}")
            break

    def _all_passed(self) -> None:
        g = self.game
        self.passed.clear()
        cheapest = g.companies[self.cheapest] if self.cheapest else None
        if cheapest is not None and cheapest in self.companies:
            cheapest.discount += 5
            g.log.append(f"{cheapest.sym} minimum bid decreases to {g.fmt(cheapest.min_bid)}")
            if cheapest.min_bid <= 0:
                self._next()
                self._buy(self.current, cheapest.sym, 0)
                self._resolve()
        else:
            g.payout_companies()


class StockRound(Round):
    """Players in turn order sell and buy; one certificate bought (or par) per turn."""

    name = "Stock Round"

    def __init__(self, game: Game):
        super().__init__(game)
        self.order = [p.id for p in game.players]
        self.index = game.priority
        self.last_to_act: str | None = None
        self.sold_in_round: dict[str, set[str]] = {pid: set() for pid in self.order}
        self.sales = 0  # share sales so far (programmed passes stop when shares are sold)
        self.waiting_on: str | None = None  # a player left with nothing but to pass (_after_closing)
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.turn_actions: list[str] = []  # "buy" / "sell" in order
        self.bought_this_turn: list[str] = []  # corporations bought this turn
        self.sold_this_turn: set[str] = set()

    @property
    def current(self) -> str:
        return self.order[self.index]

    def start(self) -> None:
        for p in self.game.players:
            p.passed = False
        self._auto_pass_loop()

    def acting(self) -> list[str]:
        # a game that ended in this round keeps its current player listed (as 18xx.games does)
        if self.finished() and not self.game.finished:
            return []
        crowded = self.crowded()
        return crowded[:1] if crowded and not self.game.finished else [self.current]

    def crowded(self) -> list[str]:
        """Corporations over their train limit: they discard first (18xx.games' stock round
        starts with the discard step too, e.g. after a phase change in the operating round)."""
        return [c.sym for c in self.game.crowded_corps()]

    def finished(self) -> bool:
        return all(self.game.player(pid).passed or self.game.player(pid).bankrupt for pid in self.order)

    # -- what can the current player do ------------------------------------
    def action_types(self, entity: str) -> list[str]:
        crowded = self.crowded()
        if crowded:
            return ["discard_train"] if entity in crowded else []
        if self.finished() or entity != self.current:
            return []
        if entity == self.waiting_on:
            return ["pass"]
        out = []
        if self.can_buy_any(entity):
            out.append("buy_shares")
        if self.can_par_any(entity):
            out.append("par")
        can_sell = self.can_sell_any(entity)
        if can_sell:
            out.append("sell_shares")
        if out:
            out.append("pass")
        if can_sell and self._over_limits(entity) and not self.game.exempt_from_forced_sale(entity):
            out = ["sell_shares"]
        return self.game.restrict_stock_actions(self, entity, out)

    def must_sell(self, pid: str) -> bool:
        """Over the certificate limit, or holding more of a corporation than allowed (outside
        the market zones that allow it) with some of it sellable: the player must sell before
        doing anything else (18xx.games)."""
        return self.can_sell_any(pid) and self._over_limits(pid)

    def _over_limits(self, pid: str) -> bool:
        g = self.game
        if g.num_certs(pid) > g.cert_limit():
            return True
        return any(not g.holding_ok(pid, sym)
                   and self.why_not_sell(pid, sym, g.share_unit(sym)) is None
                   for sym in {s.corporation for s in g.shares_of(pid)})

    def bought(self) -> bool:
        return "buy" in self.turn_actions

    def can_sell_order(self) -> bool:
        order = self.game.SELL_BUY_ORDER
        if order == "sell_buy":
            return not self.bought()
        if order == "sell_buy_or_buy_sell":
            return not (len(set(self.turn_actions)) == 2 and self.turn_actions[-1] == "buy")
        return True

    def buyable_shares(self, pid: str) -> list[Share]:
        """Shares ``pid`` may buy now: the next IPO share and each distinct pool share per corporation."""
        return list(self._buyable(pid))

    def _buyable(self, pid: str) -> Iterator[Share]:
        g = self.game
        if self.bought():
            return
        for corp in g.corporations.values():
            if not corp.ipoed or corp.closed:
                continue
            ipo = next((s for s in g.ipo_shares(corp.sym) if not s.president), None)
            if ipo is not None and self.can_buy(pid, ipo):
                yield ipo
            seen: set[int] = set()
            for s in g.pool_shares(corp.sym):
                if s.percent in seen:
                    continue
                seen.add(s.percent)
                if self.can_buy(pid, s):
                    yield s

    def can_buy_any(self, pid: str) -> bool:
        if type(self).buyable_shares is not StockRound.buyable_shares:
            return bool(self.buyable_shares(pid))  # a title's own list
        return next(self._buyable(pid), None) is not None

    def share_price_for(self, share: Share) -> int:
        corp = self.game.corporations[share.corporation]
        cell = corp.par if share.owner == share.corporation else corp.price
        assert cell is not None
        return self.game.shares_worth(share.corporation, share.percent, cell.price)

    def can_buy(self, pid: str, share: Share) -> bool:
        return self.why_not_buy(pid, share) is None

    def why_not_buy(self, pid: str, share: Share) -> str | None:
        g = self.game
        corp = g.corporations[share.corporation]
        player = g.player(pid)
        if self.bought():
            return "you already bought a certificate this turn"
        if not corp.ipoed:
            return f"{corp.sym} has not been started"
        if share.owner not in (corp.sym, POOL):
            return f"{share.words} is not for sale"
        if share.president and share.owner != POOL:
            # (one in the market, left there by an 1856 president who keeps the presidency by
            # 18xx.games' share-holder table, is bought like any other share)
            return "the president's certificate is bought by starting the corporation"
        if corp.sym in self.sold_in_round[pid]:
            return f"you sold {corp.sym} this round"
        price = self.share_price_for(share)
        if player.cash < price:
            return f"{share.words} costs {g.fmt(price)} and you have {g.fmt(player.cash)}"
        if not g.holding_ok(pid, corp.sym, share.percent):
            return f"you may hold at most {g.HOLDING_LIMIT}% of {corp.sym}"
        if g.counts_for_limit(share) and g.num_certs(pid) + share.cert_size > g.cert_limit():
            return f"you would exceed the certificate limit of {g.cert_limit()}"
        return g.can_buy_share_hook(pid, share)

    def can_par_any(self, pid: str) -> bool:
        g = self.game
        if self.bought():
            return False
        if g.num_certs(pid) + 1 > g.cert_limit():
            return False
        if g.player(pid).cash < min(c.price for c in g.market.par_prices) * 2:
            return False
        return any(g.can_par(pid, c) for c in g.corporations.values())

    def sellable_bundles(self, pid: str) -> list[tuple[str, int]]:
        """(corporation, percent) bundles ``pid`` may sell now, for autocomplete: any number of
        shares up to all it holds, into and through the president's certificate too when
        another player can take the presidency over (as 18xx.games offers them)."""
        out = []
        g = self.game
        for sym in {s.corporation for s in g.shares_of(pid)}:
            unit = g.share_unit(sym)
            for percent in range(unit, g.percent_of(pid, sym) + 1, unit):
                if self.why_not_sell(pid, sym, percent) is None:
                    out.append((sym, percent))
        return sorted(out)

    def can_sell_any(self, pid: str) -> bool:
        if not self.can_sell_order():
            return False
        for sym in {s.corporation for s in self.game.shares_of(pid)}:
            # the smallest sale is one share (5% of a national with 20 shares)
            if self.why_not_sell(pid, sym, self.game.share_unit(sym)) is None:
                return True
        return False

    def why_not_sell(self, pid: str, sym: str, percent: int, include_president: bool = False) -> str | None:
        g = self.game
        corp = g.corporations[sym]
        if not self.can_sell_order():
            return "you cannot sell again after buying"
        if g.SELL_AFTER == "first" and g.turn <= 1:
            return "no shares may be sold in the first stock round"
        if g.SELL_AFTER == "operate" and not corp.operated:
            return f"{sym} has not operated yet"
        if g.MUST_SELL_IN_BLOCKS and sym in self.sold_this_turn:
            return f"you already sold {sym} this turn"
        if g.percent_of(POOL, sym) + percent > g.MARKET_SHARE_LIMIT:
            return f"the market may hold at most {g.MARKET_SHARE_LIMIT}% of {sym}"
        held = g.percent_of(pid, sym)
        if percent > held:
            return f"you hold only {held}% of {sym}"
        pres = next((s for s in g.corp_shares(sym) if s.president), None)
        if pres is not None and pres.owner == pid:  # (an 1856 president may not hold it)
            remaining = held - percent
            pres_pct = pres.percent
            if remaining < pres_pct:
                table = g.presidency_holdings(sym)
                others = max((v for p, v in table.items() if p != pid), default=0)
                if others < pres_pct:
                    return f"nobody else can take over the presidency of {sym}"
        return g.can_sell_hook(self, pid, sym, percent)

    # -- processing -------------------------------------------------------
    def process(self, action: A.Action) -> None:
        g = self.game
        if isinstance(action, A.DiscardTrain):
            if action.entity not in self.crowded():
                raise GameError(f"{action.entity} has no train to discard", NOT_OWNER, entity=action.entity)
            train = g.train(action.train)
            if train.owner != action.entity:
                raise GameError(f"{action.entity} does not own {train.id}", NOT_OWNER, entity=action.entity, train=train.id)
            g.discard_train(train)
            self._auto_pass_loop()
            return
        self.check_actor(action)
        pid = action.entity
        player = g.player(pid)
        if isinstance(action, A.Pass):
            # "Done" after acting this turn does not count as a pass for ending the round
            player.passed = not self.turn_actions
            g.log.append(f"{player.name} passes" if player.passed else f"{player.name} ends the turn")
            self._end_turn()
            return
        g.defer_closings()  # (a sale may drop a price to the closing space: see _after_closing)
        try:
            if isinstance(action, A.Par):
                self._par(pid, action)
                self.turn_actions.append("buy")
            elif isinstance(action, A.BuyShares):
                self._buy(pid, action)
                self.turn_actions.append("buy")
            elif isinstance(action, A.SellShares):
                self._sell(pid, action)
                self.turn_actions.append("sell")
            else:
                raise GameError(f"Cannot {action.type} in a stock round", WRONG_STEP, action=action.type)
            player.passed = False
            self.last_to_act = pid
            if not self.action_types(pid) and not self.game.stock_turn_stuck(self, pid):
                self._end_turn()
        finally:
            closed = g.close_deferred()
        if closed:
            self._after_closing()

    def _par(self, pid: str, action: A.Par) -> None:
        g = self.game
        corp = g.corp(action.corporation)
        try:
            cell = g.market.cell_from_id(action.share_price)
        except ValueError:
            cell = None
        if cell is None:
            raw = str(action.share_price).split(",")[0]
            cell = g.market.par_cell(int(raw)) if raw.isdigit() else None
        if cell is None or not cell.can_par:
            raise GameError(f"{action.share_price} is not a par price", PRICE, price=action.share_price)
        if not g.can_par(pid, corp):
            raise GameError(f"{corp.sym} cannot be started now", RULE, corporation=corp.sym)
        if g.num_certs(pid) + 1 > g.cert_limit():
            raise GameError(f"{g.name_of(pid)} would exceed the certificate limit", LIMIT, player=pid, limit=g.cert_limit())
        pres = next(s for s in g.corp_shares(corp.sym) if s.president)
        cost = cell.price * pres.percent // 10
        if g.player(pid).cash < cost:
            raise GameError(f"Starting {corp.sym} at {g.fmt(cell.price)} costs {g.fmt(cost)}; "
                            f"{g.name_of(pid)} has {g.fmt(g.player(pid).cash)}", CANNOT_AFFORD, corporation=corp.sym, cost=cost, cash=g.player(pid).cash)
        g.par_corporation(corp, cell, pid)
        g.log.append(f"{g.name_of(pid)} pars {corp.sym} at {g.fmt(cell.price)}")
        g.transfer_share_from_ipo(pid, pres, cell.price)
        g.log.append(f"{g.name_of(pid)} becomes the president of {corp.sym}")
        self.bought_this_turn.append(corp.sym)
        g.after_share_bought(corp.sym)

    def _buy(self, pid: str, action: A.BuyShares) -> None:
        g = self.game
        if len(action.shares) != 1:
            raise GameError("Buy one certificate at a time", BAD_OPTION, option="shares")
        share = g.share(action.shares[0])
        reason = self.why_not_buy(pid, share)
        if reason:
            raise GameError(f"{g.name_of(pid)} cannot buy {share.words}: {reason}", RULE, player=pid, share=share.id, reason=reason)
        corp = g.corporations[share.corporation]
        if g.buy_share_override(self, pid, share):
            self.bought_this_turn.append(corp.sym)
            return
        if share.owner == corp.sym:
            g.transfer_share_from_ipo(pid, share, corp.par.price if corp.par else 0)
        else:
            price = self.share_price_for(share)
            g.spend(pid, "bank", price)
            g.move_share(share, pid)
            g.log.append(f"{g.name_of(pid)} buys {g.share_words(share)} from the market for {g.fmt(price)}")
        g.change_president(corp.sym)
        self.bought_this_turn.append(corp.sym)
        g.after_share_bought(corp.sym)

    def _sell(self, pid: str, action: A.SellShares) -> None:
        g = self.game
        if not action.shares:
            raise GameError("Name the shares to sell", BAD_OPTION, option="shares")
        shares = [g.share(s) for s in action.shares]
        syms = {s.corporation for s in shares}
        if len(syms) != 1:
            raise GameError("Sell shares of one corporation at a time", BAD_OPTION, option="shares")
        sym = syms.pop()
        if any(s.owner != pid for s in shares):
            raise GameError(f"{g.name_of(pid)} does not own all of {', '.join(action.shares)}", NOT_OWNER, player=pid, shares=list(action.shares))
        percent = sum(s.percent for s in shares)
        if action.percent is not None and any(s.president for s in shares):
            # a bundle with the president's certificate may sell only part of it
            percent = min(percent, action.percent)
        reason = self.why_not_sell(pid, sym, percent)
        if reason:
            raise GameError(f"{g.name_of(pid)} cannot sell {percent}% of {sym}: {reason}", RULE, player=pid, corporation=sym, percent=percent, reason=reason)
        g.sell_shares(pid, shares, percent)
        self.sales += 1
        self.sold_in_round[pid].add(sym)
        self.sold_this_turn.add(sym)

    def _after_closing(self) -> None:
        """A sale closed a corporation (its price reached the closing space). 18xx.games closes
        it only after the action: the turn has moved on as if it were still open, to a player
        who may now have nothing to do. That player passes, and so does the next one if they
        have nothing to do either, but the round then stays with them (its cached step): they
        can only pass (18xx.games waits for them with no action at all; the game stops there)."""
        g = self.game
        if self.finished() or self.crowded() or self.action_types(self.current):
            return
        player = g.player(self.current)
        if not self.turn_actions:
            player.passed = True
            g.log.append(f"{player.name} has no valid actions and passes")
        self._reset_turn()
        self.index = (self.index + 1) % len(self.order)
        nxt = g.player(self.current)
        if self.finished() or nxt.bankrupt or self.action_types(nxt.id):
            if nxt.bankrupt:
                self._auto_pass_loop()
            return
        nxt.passed = True
        g.log.append(f"{nxt.name} has no valid actions and passes")
        self.waiting_on = nxt.id

    def _end_turn(self) -> None:
        self.waiting_on = None
        self._reset_turn()
        self.index = (self.index + 1) % len(self.order)
        self._auto_pass_loop()

    def _auto_pass_loop(self) -> None:
        guard = 0
        while not self.finished() and not self.crowded() and guard < 2 * len(self.order):
            guard += 1
            player = self.game.player(self.current)
            if player.bankrupt:
                player.passed = True
                self.index = (self.index + 1) % len(self.order)
                continue
            if self.action_types(self.current):
                return
            if self.game.stock_turn_stuck(self, self.current):
                return
            player.passed = True
            self.game.log.append(f"{player.name} has no valid actions and passes")
            self.index = (self.index + 1) % len(self.order)

