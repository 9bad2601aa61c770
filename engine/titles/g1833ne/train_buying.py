"""1833NE trains in play: the side a card runs as, train limits (obsolete trains do not
count), what the bank offers, buying a side from the bank or a train from another corporation,
and obsolete trains removed after their last run."""

from __future__ import annotations

from ... import actions as A
from ...entities import Corporation, Train
from ...errors import CANNOT_AFFORD, LIMIT, NOT_OWNER, PRICE, RULE, UNAVAILABLE, GameError
from ...rounds.operating import OperatingRound
from .base import Side
from .emergency import G1833NEEmergency


class G1833NETrains(G1833NEEmergency):
    """Two-sided train cards: buying, limits, obsolescence."""

    def corp_train_limit(self, corp: Corporation) -> int:
        limit = self.train_limit
        if self.takeover_game:
            limit = self.data.TAKEOVER_TRAIN_LIMITS[self.phase["name"]]
            limit += self.takeovers.get(corp.sym, 0) * self.data.TAKEOVER_TRAIN_LIMIT_BONUS_PER_TAKEOVER
        # obsolete trains do not count toward the limit
        return limit + sum(1 for t in corp.trains if t in self.obsolete)

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.corp_train_limit(corp)

    def crowded_corps(self) -> list[Corporation]:
        return [c for c in self.corporations.values() if not c.closed and len(c.trains) > self.corp_train_limit(c)]

    def discard_train(self, train: Train) -> None:
        if train.id in self.obsolete:
            raise GameError("an obsolete train does not count toward the limit", RULE)
        owner = train.owner
        self.remove_train(train, "discard")
        self.chosen.pop(train.id, None)
        self.log.append(f"{owner} discards a {train.name}-train to the open market")

    def runnable_trains(self, corp: Corporation) -> list[Train]:
        return [self.trains[t] for t in corp.trains]

    def depot_trains(self) -> list[Train]:
        upcoming = [self.trains[t] for t in self.train_order if self.trains[t].owner == "depot"]
        out = upcoming[:1]
        out += [self.trains[t] for t in self.train_order if self.trains[t].owner == "discard"]
        return out

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        return self.depot_trains()

    def other_corp_trains(self, corp: Corporation) -> list[Train]:
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.corp is corp and rnd.state.get("emergency_issued"):
            return []  # having issued in an emergency, it buys from the bank
        # obsolete trains cannot be sold to another corporation
        return [
            self.trains[t]
            for c in self.corporations.values()
            if c is not corp and not c.closed and c.president is not None
            for t in c.trains
            if t not in self.obsolete
        ]

    def min_train_price(self, corp: Corporation) -> int | None:
        prices = [self.side_prices(t)[0] for t in self.buyable_depot_trains(corp)]
        if self.other_corp_trains(corp):
            prices.append(1)
        return min(prices) if prices else None

    def can_buy_train(self, corp: Corporation) -> bool:
        price = self.min_train_price(corp)
        return price is not None and self.room(corp) and corp.cash >= price and corp.president is not None

    def must_buy_train(self, corp: Corporation) -> bool:
        # summary: a corporation without a train after running must buy one
        return not corp.trains and corp.president is not None and bool(self.depot_trains())

    def cheapest_depot_train(self, corp: Corporation | None = None) -> Train | None:
        trains = self.depot_trains()
        return min(trains, key=lambda t: self.side_prices(t)[0]) if trains else None

    def train_variants(self, train: Train) -> list[tuple[str, int]]:
        """(side, price) a buyer may choose for ``train``: both sides of a card from the bank;
        none for a corporation's train (it keeps its side)."""
        if train.owner not in ("depot", "discard"):
            return []
        return [(s.name, s.price) for s in self.sides[train.id]]

    def side_for(self, train: Train, action: A.BuyTrain) -> Side:
        sides = self.sides[train.id]
        if train.owner in self.corporations:
            return self.train_side(train)
        if action.variant:
            side = next((s for s in sides if s.name == action.variant), None)
            if side is None:
                raise GameError(
                    f"{train.id} has no side {action.variant}; choose {' or '.join(s.name for s in sides)}"
                , RULE)
            return side
        by_price = [s for s in sides if s.price == action.price]
        return by_price[0] if by_price else sides[0]

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        train = self.train(action.train)
        if train.owner == corp.sym:
            raise GameError(f"{corp.sym} already owns {train.id}", NOT_OWNER)
        emergency = self.must_buy_train(corp) and self.needs_emergency_money(corp)
        issued = bool(rnd.state.get("emergency_issued"))
        if train.owner in ("depot", "discard"):
            if train not in self.depot_trains():
                raise GameError(f"Train {train.id} is not available yet", UNAVAILABLE)
            side = self.side_for(train, action)
            if not self.room(corp):
                raise GameError(f"{corp.sym} is at its train limit", LIMIT)
            if action.price != side.price:
                raise GameError(f"A {side.name} train costs {self.fmt(side.price)}", PRICE)
            if side.price > corp.cash and self.emergency_issue_bundles(rnd, corp):
                raise GameError(f"{corp.sym} must first issue shares (/issue) before its president pays", CANNOT_AFFORD)
            floor = self.emergency_side_floor(rnd, corp, train)
            if side.price < floor:
                raise GameError(
                    f"{corp.sym} issued shares for a train: it must buy one that needed the last "
                    f"share issued (at least {self.fmt(floor)})"
                , RULE)
            if side.price > corp.cash:
                if not emergency:
                    raise GameError(f"{corp.sym} cannot afford a {side.name} train ({self.fmt(side.price)})", CANNOT_AFFORD)
                pres = corp.president
                assert pres is not None
                shortfall = side.price - corp.cash
                if self.player(pres).cash < shortfall:
                    raise GameError(f"{self.name_of(pres)} cannot cover the {self.fmt(shortfall)} shortfall", CANNOT_AFFORD)
                self.spend(pres, corp.sym, shortfall)
                self.log.append(f"{self.name_of(pres)} contributes {self.fmt(shortfall)}")
            from_depot = train.owner == "depot"
            self.spend(corp.sym, "bank", side.price)
            self.give_train(train, corp.sym)
            self.chosen[train.id] = side
            train.name = side.name
            train.price = side.price
            train.distance = side.max_stops
            source = "the depot" if from_depot else "the open market (discarded trains)"
            self.log.append(f"{corp.sym} buys a {side.name}-train for {self.fmt(side.price)} from {source}")
            if from_depot:
                self.on_train_bought_from_depot(train)
        elif train.owner in self.corporations:
            if emergency or issued:
                raise GameError("in an emergency the train must come from the bank", RULE)
            if train.id in self.obsolete:
                raise GameError("an obsolete train cannot be sold to another corporation", RULE)
            self.buy_train_from_corporation(corp, train, action.price)
        else:
            raise GameError(f"Train {train.id} is not for sale", UNAVAILABLE)

    def scrap_obsolete(self, corp: Corporation) -> None:
        """Summary: an obsolete train is removed right after its owner next runs."""
        for tid in list(corp.trains):
            if tid in self.obsolete:
                self.scrap_train(self.trains[tid])
                self.log.append(f"{corp.sym}'s obsolete {self.trains[tid].name} train is removed")

    def scrap_train(self, t: Train) -> None:
        self.obsolete.discard(t.id)
        self.remove_train(t, "rusted")

    def exchange_options(self, corp: Corporation) -> list[tuple[Train, int]]:
        return []

    def obsolete_trains(self) -> set[str]:
        return self.obsolete
