"""Buying trains: from the bank, from other corporations, and with the president's money.

:class:`TrainBuying` is a part of :class:`engine.game.Game`: which trains a corporation may
buy, whether it must, the emergency sale of the president's shares, and bankruptcy.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import POOL, Corporation, Train, a_train
from ..errors import CANNOT_AFFORD, LIMIT, PRICE, RULE, UNAVAILABLE, GameError
from ..hooks import TitleHooks
from ..rounds.operating import OperatingRound


class TrainBuying(TitleHooks):
    """Train purchases and emergency money."""

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.corp_train_limit(corp)

    def one_depot_train_per_type(self) -> bool:
        return self.rules.one_depot_train_per_type_per_turn

    def min_train_price(self, corp: Corporation) -> int | None:
        # whether the train step stays open counts every train the bank sells, also a type
        # already bought from the bank this turn and trains the corporation may not buy (as
        # 18xx.games decides it)
        prices = [t.price for t in self.depot_trains()]
        if any(c is not corp and not c.closed and c.trains for c in self.corporations.values()):
            prices.append(1)
        return min(prices) if prices else None

    def can_buy_train(self, corp: Corporation) -> bool:
        price = self.min_train_price(corp)
        if price is None:
            return False
        if self.room(corp) and corp.cash >= price:
            return True
        return any(corp.cash >= price for _, price in self.exchange_options(corp))

    def exchange_options(self, corp: Corporation) -> list[tuple[Train, int]]:
        """Each bank train ``corp`` may trade one of its trains in for, once per train it could
        trade in, with what that trade-in costs."""
        return [(t, price) for t in self.depot_trains() for price in self.trade_ins(corp, t).values()]

    def trade_ins(self, corp: Corporation, train: Train) -> dict[str, int]:
        """Per train of ``corp`` it may trade in for bank train ``train``, what the trade-in costs."""
        if train.owner not in ("depot", "discard") or not train.discount:
            return {}
        return {own.id: train.price - train.discount[own.name] for own in self.corp_trains(corp.sym)
                if own.name in train.discount}

    def min_depot_price(self) -> int:
        """The cheapest train the bank sells now (what an emergency purchase must reach)."""
        prices = [t.price for t in self.depot_trains()]
        return min(prices) if prices else 0

    def cheapest_depot_train(self, corp: Corporation | None = None) -> Train | None:
        trains = self.buyable_depot_trains(corp) if corp is not None else self.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def president_may_help_buy(self, corp: Corporation, train: Train) -> bool:
        """Whether ``corp``'s president may pay what its treasury lacks for bank train ``train``:
        a corporation that must buy a train, and a train of the cheapest kind the bank sells
        (as 18xx.games checks it: among all the bank's trains, even those ``corp`` may not buy,
        like the rusting trains the national may not own)."""
        if not self.must_buy_train(corp):
            return False
        trains = self.depot_trains()
        low = min((t.price for t in trains), default=None)
        return low is not None and train.name in {t.name for t in trains if t.price == low}

    def needs_emergency_money(self, corp: Corporation) -> bool:
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < t.price

    def president_can_sell_for_train(self, corp: Corporation) -> bool:
        return bool(self.emergency_sellable(corp))

    def emergency_shortfall(self, corp: Corporation) -> int:
        t = self.cheapest_depot_train(corp)
        pres = self.player(corp.president) if corp.president else None
        return (t.price if t else 0) - corp.cash - (pres.cash if pres else 0)

    def emergency_sellable(self, corp: Corporation) -> list[tuple[str, int]]:
        """(corporation, percent) bundles the president may sell to pay for the train: only as
        much as needed, and never giving away the presidency of the operating corporation."""
        pid = corp.president
        if pid is None:
            return []
        need = self.emergency_shortfall(corp)
        if need <= 0:
            return []
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            step = 10
            pct = step
            while pct <= held:
                if self._emergency_sale_ok(pid, corp, sym, pct, need):
                    out.append((sym, pct))
                pct += step
        return out

    def _emergency_sale_ok(self, pid: str, corp: Corporation, sym: str, pct: int, need: int) -> bool:
        c = self.corporations[sym]
        assert c.price is not None
        value = self.shares_worth(sym, pct)
        if value - c.price.price >= need:  # would sell more than needed
            return False
        if self.percent_of(POOL, sym) + pct > self.MARKET_SHARE_LIMIT:
            return False
        held = self.percent_of(pid, sym)
        if c.president == pid:
            pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
            if held - pct < pres_pct:
                if sym == corp.sym:
                    return False
                others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
                if others < pres_pct:
                    return False
            if held - pct < 0:
                return False
        return True

    def president_can_fund_train(self, corp: Corporation) -> bool:
        return self.emergency_shortfall(corp) <= 0

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        if corp.president is None:
            return False
        liquidity = sum(self.shares_worth(sym, pct) for sym, pct in self._max_sellable(corp.president, corp))
        return self.emergency_shortfall(corp) - liquidity > 0

    def _max_sellable(self, pid: str, corp: Corporation) -> list[tuple[str, int]]:
        best: dict[str, int] = {}
        for sym in {s.corporation for s in self.shares_of(pid)}:
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            limit = self.MARKET_SHARE_LIMIT - self.percent_of(POOL, sym)
            pct = min(held, limit)
            if c.president == pid:
                pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
                others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
                if sym == corp.sym or others < pres_pct:
                    pct = min(pct, held - pres_pct)
            if pct > 0:
                best[sym] = pct - pct % 10
        return [(k, v) for k, v in best.items() if v > 0]

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        train = self.train(action.train)
        exchange = self.train(action.exchange) if action.exchange else None
        if train.owner == corp.sym:
            raise GameError(f"{corp.sym} already owns {train.id}", RULE, corporation=corp.sym, train=train.id)
        if train.owner in ("depot", "discard"):
            if train not in self.depot_trains():
                raise GameError(f"Train {train.id} is not available yet", UNAVAILABLE, train=train.id)
            # (a trade-in is not held to one train of a type per turn: 18xx.games offers and
            # accepts it after a bank train of that type, as a gen.rb game showed)
            if train not in self.buyable_depot_trains(corp) and exchange is None:
                raise GameError(f"{corp.sym} may buy only one {train.name}-train from the bank per turn", LIMIT, corporation=corp.sym, train=train.id)
            price = train.price
            if exchange:
                if exchange.owner != corp.sym or not train.discount or exchange.name not in train.discount:
                    raise GameError(f"{corp.sym} cannot trade in {exchange.id} for {train.id}", RULE, corporation=corp.sym, train=train.id, exchange=exchange.id)
                price = train.price - train.discount[exchange.name]
            # no train limit check: 18xx.games lets a corporation whose train step is open buy
            # past its limit and then discard down to it
            if action.price != price:
                raise GameError(f"Train {train.id} costs {self.fmt(price)}", PRICE, train=train.id, price=action.price, cost=price)
            if price > corp.cash:
                if not self.president_may_help_buy(corp, train):
                    raise GameError(f"{corp.sym} cannot afford {train.id} ({self.fmt(price)})", CANNOT_AFFORD, corporation=corp.sym, train=train.id, cost=price, cash=corp.cash)
                shortfall = price - corp.cash
                pres = corp.president
                assert pres is not None
                if self.player(pres).cash < shortfall:
                    raise GameError(f"{self.name_of(pres)} cannot cover the {self.fmt(shortfall)} shortfall", CANNOT_AFFORD, player=pres, train=train.id, cost=shortfall)
                self.spend(pres, corp.sym, shortfall)
                self.log.append(f"{self.name_of(pres)} contributes {self.fmt(shortfall)}")
            # a train first sold from the discard pile (as one 1856's national borrowed and gave
            # back) still starts its phase and its events, as when bought new (as 18xx.games)
            from_depot = train.id not in self.trains_sold
            self.trains_sold.add(train.id)
            rnd.state.setdefault("depot_types_bought", set()).add(train.name)
            if exchange:
                self.remove_train(exchange, "discard")  # back to the bank, for sale again
            source = "the open market (discarded trains)" if train.owner == "discard" else "the depot"
            self.spend(corp.sym, "bank", price)
            self.give_train(train, corp.sym)
            traded = f", trading in its {exchange.name}-train" if exchange else ""
            self.log.append(f"{corp.sym} buys {a_train(train.name)} for {self.fmt(price)} from {source}{traded}")
            if from_depot:
                self.on_train_bought_from_depot(train)
        elif train.owner in self.corporations:
            if rnd.state.get("ebuy_sold") and corp.cash < self.min_depot_price():
                raise GameError(f"{corp.sym} must buy from the bank now that its president sold shares for it", RULE, corporation=corp.sym, train=train.id)
            self.buy_train_from_corporation(corp, train, action.price, check_room=False)
        else:
            raise GameError(f"Train {train.id} is not for sale", UNAVAILABLE, train=train.id)

    def discard_train(self, train: Train) -> None:
        owner = train.owner
        self.remove_train(train, "discard")
        self.log.append(f"{owner} discards {a_train(train.name)} to the open market")

    def buy_train_from_corporation(self, corp: Corporation, train: Train, price: int, *,
                                   check_room: bool = True) -> None:
        """Another corporation's train, for any price from $1 to all the buyer's cash."""
        seller = self.corporations[train.owner]
        if self.face_value_only(corp, train) and price != train.price:
            raise GameError(f"{corp.sym} must pay the face value of {train.id} ({self.fmt(train.price)})", PRICE, corporation=corp.sym, train=train.id, low=train.price, high=train.price, price=price)
        if check_room and not self.room(corp):
            raise GameError(f"{corp.sym} is at its train limit", LIMIT, corporation=corp.sym)
        if price < 1 or price > corp.cash:
            raise GameError(f"{corp.sym} may pay between {self.fmt(1)} and {self.fmt(corp.cash)}", PRICE, corporation=corp.sym, low=1, high=corp.cash, price=price)
        self.spend(corp.sym, seller.sym, price)
        self.give_train(train, corp.sym)
        self.log.append(f"{corp.sym} buys {a_train(train.name)} for {self.fmt(price)} from {seller.sym}")

    def emergency_sell(self, rnd: OperatingRound, corp: Corporation, action: A.SellShares) -> None:
        pid = action.entity
        shares, sym, _ = self.named_bundle(action)
        pct = sum(s.percent for s in shares)
        if (sym, pct) not in self.emergency_sellable(corp):
            raise GameError(f"{self.name_of(pid)} cannot sell {pct}% of {sym} to pay for {corp.sym}'s train", RULE, player=pid, corporation=sym, percent=pct)
        self.sell_shares(pid, shares)
        if self.REORDER_AFTER_EMERGENCY_SALE:
            rnd.recalculate_order()

    def declare_bankrupt(self, rnd: OperatingRound, corp: Corporation) -> None:
        """The president cannot raise enough for the train: they are bankrupt and the game ends."""
        if not self.can_go_bankrupt(corp):
            raise GameError(f"{self.name_of(corp.president or '')} can still raise the money for a train", RULE, player=corp.president or "")
        player = self.player(corp.president or "")
        if player.cash > 0:
            self.spend(player.id, "bank", player.cash)
        player.bankrupt = True
        self.log.append(f"-- {player.name} goes bankrupt --")
        self.end_game("bankrupt")

    def other_corp_trains(self, corp: Corporation) -> list[Train]:
        """Trains of the other corporations in play (which ``corp`` may offer to buy)."""
        return [self.trains[t] for c in self.corporations.values() if c is not corp and not c.closed
                for t in c.trains]

    def face_value_only(self, buyer: Corporation, train: Train) -> bool:
        """Whether ``train`` changes hands between corporations at face value only."""
        return False

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        """Depot trains ``corp`` may buy now (with ``ONE_DEPOT_TRAIN_PER_TYPE_PER_TURN``, one of
        each type per turn)."""
        trains = self.depot_trains()
        if self.rules.one_depot_train_per_type_per_turn and isinstance(self.round, OperatingRound):
            bought = self.round.state.get("depot_types_bought", set())
            trains = [t for t in trains if t.name not in bought]
        return trains

    def must_buy_train(self, corp: Corporation) -> bool:
        """A corporation with a route and no train must buy one."""
        return not corp.trains and self.has_route(corp)

    def after_buy_train_step(self, rnd: OperatingRound, corp: Corporation) -> None:
        """Called when ``corp``'s train step has ended."""
