"""1833NE trains: emergency money ("Notverkauf": a trainless corporation spends its treasury,
then issues shares at falling prices, then its president pays and sells shares; else the
president goes bankrupt and leaves the game), and the trains in play: the side a card runs as,
train limits (obsolete trains do not count), what the bank offers, buying a side from the bank
or a train from another corporation, and obsolete trains removed after their last run.

Two layers: :class:`G1833NEEmergency` (over finance) and :class:`G1833NETrains` over it."""

from __future__ import annotations

from ... import actions as A
from ...entities import POOL, Corporation, Train, a_train
from ...errors import CANNOT_AFFORD, LIMIT, NOT_OWNER, PRICE, RULE, UNAVAILABLE, GameError
from ...rounds.operating import OperatingRound
from .base import Side
from .finance import MIN_EMERGENCY_PRICE, G1833NEFinance, emergency_issue, shares_text


class G1833NEEmergency(G1833NEFinance):
    """Emergency money: issuing, the president's sales, bankruptcy."""

    def needs_emergency_money(self, corp: Corporation) -> bool:
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < self.side_prices(t)[0]

    def emergency_shortfall(self, corp: Corporation) -> int:
        t = self.cheapest_depot_train(corp)
        pres = self.player(corp.president) if corp.president else None
        return (self.side_prices(t)[0] if t else 0) - corp.cash - (pres.cash if pres else 0)

    def emergency_issue_bundles(self, rnd: OperatingRound, corp: Corporation) -> list[tuple[int, int]]:
        """(shares, money) the president may choose to issue for a trainless corporation
        (summary "Notverkauf": the price falls one column per share, each share brings the
        price one column left of the new price, never below $20).  As 18xx.games
        (``emergency_issuable_bundles``): offered while the treasury is below the dearer side
        of the cheapest card, once per turn; the bundles that reach the cheaper side, up to
        the first that reaches the dearer one; when none reaches the cheaper side, only the
        largest ("bis zum üblichen Limit")."""
        if not self.must_buy_train(corp) or rnd.state.get("emergency_issued"):
            return []
        t = self.cheapest_depot_train(corp)
        if t is None:
            return []
        low, high = self.side_prices(t)[0], self.side_prices(t)[-1]
        if corp.cash >= high:
            return []
        bundles = sorted(self.emergency_issue_options(corp), key=lambda b: (b[1], b[0]))
        reaching = [b for b in bundles if corp.cash + b[1] >= low]
        if not reaching:
            return [max(bundles)] if bundles else []
        upto = next((i for i, b in enumerate(reaching) if corp.cash + b[1] >= high), len(reaching) - 1)
        return reaching[: upto + 1]

    def must_issue_first(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """A trainless corporation that cannot pay the cheaper side must issue before its
        president pays anything (summary: treasury, then shares, then the president)."""
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < self.side_prices(t)[0] and bool(self.emergency_issue_bundles(rnd, corp))

    def issue_in_emergency(self, rnd: OperatingRound, corp: Corporation, num: int) -> None:
        bundles = self.emergency_issue_bundles(rnd, corp)
        offered = [n for n, _ in bundles]
        if num not in offered:
            what = ", ".join(f"{n} for {self.fmt(m)}" for n, m in bundles) or "none"
            raise GameError(f"{corp.sym} cannot issue {shares_text(num)} in an emergency now (may: {what})", RULE)
        cash_before = corp.cash
        self.emergency_issue(corp, num)
        rnd.state["emergency_issued"] = True
        # 18xx.games: having issued, the train bought must need the last share issued
        i = offered.index(num)
        last_share = bundles[i][1] - (bundles[i - 1][1] if i else 0)
        rnd.state["emergency_min_side"] = max(cash_before, corp.cash - last_share) + 1

    def emergency_side_floor(self, rnd: OperatingRound, corp: Corporation, train: Train) -> int:
        """After an emergency issue the side bought must cost more than the treasury held
        without the last share issued, when it can pay either side (18xx.games
        ``buyable_train_variants``); 0 when any side may be bought."""
        floor = rnd.state.get("emergency_min_side", 0) if rnd.state.get("emergency_issued") else 0
        if not floor:
            return 0
        budget = corp.cash
        if self.must_buy_train(corp) and self.needs_emergency_money(corp) and corp.president:
            budget += self.player(corp.president).cash
        return floor if budget >= self.side_prices(train)[-1] else 0

    def side_floor(self, corp: Corporation, train: Train) -> int:
        """The least a side of ``train`` may cost for ``corp`` now (after an emergency issue)."""
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.corp is corp:
            return self.emergency_side_floor(rnd, corp, train)
        return 0

    def issue_choices(self, corp: Corporation) -> list[tuple[list[str], str]]:
        """(share ids, label) the corporation may issue now: an emergency bundle at its train
        step, else a normal issue before its dividend.  Labels start with the percent."""
        rnd = self.round
        if not isinstance(rnd, OperatingRound) or rnd.corp is not corp:
            return []
        emergency = rnd.state.get("dividend_done")
        options = (
            self.emergency_issue_bundles(rnd, corp)
            if emergency
            else (self.issue_options(corp) if not rnd.state.get("issued_or_redeemed") else [])
        )
        treasury = [s.id for s in self.ipo_shares(corp.sym) if not s.president]
        kind = " in an emergency" if emergency else ""
        return [
            (treasury[:n], f"{10 * n}% of {corp.sym} issued{kind} for {self.fmt(money)}") for n, money in options
        ]

    def emergency_issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        assert corp.price is not None
        out = []
        for n in range(1, self.issuable_count(corp) + 1):
            new, each = emergency_issue(self.market, corp.price, n)
            if new.price < MIN_EMERGENCY_PRICE or each <= 0:
                break
            out.append((n, n * each))
        return out

    def emergency_issue(self, corp: Corporation, num: int) -> None:
        assert corp.price is not None
        new, each = emergency_issue(self.market, corp.price, num)
        shares = [s for s in self.ipo_shares(corp.sym) if not s.president][:num]
        for s in shares:
            self.move_share(s, POOL)
        self.bank_pays(corp.sym, each * num)
        corp.price = self.market.move(corp.sym, corp.price, new)
        self.log.append(
            f"{corp.sym} issues {shares_text(num)} in an emergency for {self.fmt(each * num)}; "
            f"its price falls to {self.fmt(new.price)}"
        )

    def _max_sellable(self, pid: str, corp: Corporation) -> list[tuple[str, int]]:
        need = 10**9
        best: dict[str, int] = {}
        for sym, pct in self.emergency_sellable_unbounded(pid, corp, need):
            best[sym] = max(best.get(sym, 0), pct)
        return list(best.items())

    def emergency_sellable_unbounded(self, pid: str, corp: Corporation, need: int) -> list[tuple[str, int]]:
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            held = self.percent_of(pid, sym)
            for pct in range(10, held + 1, 10):
                if self._emergency_sale_ok(pid, corp, sym, pct, need):
                    out.append((sym, pct))
        return out

    def may_sell_in_emergency(self, pid: str, sym: str) -> bool:
        """A president raising money sells shares with a price; of a corporation that has not
        operated yet, only as its president."""
        c = self.corporations[sym]
        if c.price is None or c.closed:
            return False
        return c.operated or c.president == pid

    def sale_closes_operating(self, pid: str, corp: Corporation, sym: str) -> bool:
        """Whether the president's sale of the operating corporation's shares would move its price
        to the closing space (no such emergency sale)."""
        c = self.corporations[sym]
        after = self.price_after_sale(c, pid, self.share_unit(sym))  # (any sale moves it alike)
        return sym == corp.sym and after is not None and after.price == 0

    def sale_changes_director(self, pid: str, corp: Corporation, sym: str, pct: int) -> bool:
        """Summary "Notverkauf": the president sells "ohne einen Direktorwechsel ... der operierenden
        Gesellschaft": after his sale of the operating corporation's shares he must still hold its
        president's certificate and no other player may hold more (a tie keeps the director)."""
        c = self.corporations[sym]
        if sym != corp.sym or c.president != pid:
            return False
        left = self.percent_of(pid, sym) - pct
        pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
        others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid and not p.bankrupt), default=0)
        return left < pres_pct or others > left

    def declare_bankrupt(self, rnd: OperatingRound, corp: Corporation) -> None:
        """Summary: the bankrupt player leaves the game, which goes on.  The money raised goes
        to the corporation; the player's shares go to the market without moving prices (even
        past 50% or with a president's certificate); a new president must buy the train."""
        if not self.can_go_bankrupt(corp):
            raise GameError(f"{self.name_of(corp.president or '')} can still raise the money for a train", RULE)
        self.bankrupt_player(corp.president or "", corp)
        rnd.recalculate_order()

    def bankrupt_player(self, pid: str, corp: Corporation) -> None:
        """Summary "Notverkauf": the bankrupt player leaves; the money raised goes to the
        corporation; the other shares go to the market without moving prices; privates close."""
        player = self.player(pid)
        self.log.append(f"-- {player.name} goes bankrupt and leaves the game --")
        if player.cash > 0:
            self.spend(pid, corp.sym, player.cash)
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            c = self.corporations[sym]
            pres = next((s for s in self.shares_of(pid, sym) if s.president), None)
            if pres is not None:
                others = {p.id: self.percent_of(p.id, sym) for p in self.players if p.id != pid and not p.bankrupt}
                best = max(others.values(), default=0)
                if best >= pres.percent:
                    new = next(p for p in self.seat_order_from(pid) if others.get(p, -1) == best)
                    handed = sorted((s for s in self.shares_of(new, sym) if not s.president), key=lambda s: s.seq)
                    got = 0
                    for s in handed:
                        if got >= pres.percent:
                            break
                        self.move_share(s, pid)
                        got += s.percent
                    self.move_share(pres, new)
                    c.president = new
                    self.log.append(f"{self.name_of(new)} becomes the president of {sym}")
                else:
                    c.president = None  # decision: no president until someone buys the certificate
                    self.log.append(f"{sym} has no president (its certificate is in the market)")
            for s in self.shares_of(pid, sym):
                self.move_share(s, POOL)
            if self.percent_of(POOL, sym) > self.MARKET_SHARE_LIMIT:
                self.pool_overflow.add(sym)
        for csym in list(player.companies):
            self.close_company(self.companies[csym])
        player.cash = 0
        player.bankrupt = True
        player.passed = True
        if sum(1 for p in self.players if not p.bankrupt) <= 1:
            self.end_game("bankrupt")

    def _emergency_sale_ok(self, pid: str, corp: Corporation, sym: str, pct: int, need: int) -> bool:
        if not self.may_sell_in_emergency(pid, sym) or self.sale_closes_operating(pid, corp, sym) \
                or self.sale_changes_director(pid, corp, sym, pct):
            return False
        c = self.corporations[sym]
        held = self.percent_of(pid, sym)
        pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president) if c.president == pid else 0
        if held - pres_pct < pct < held:
            return False  # a sale ends at a certificate, never inside the president's
        # "only as much as needed": without its smallest certificate the sale would not be enough
        # (a president's certificate sold alone counts whole, as 18xx.games counts it in 1856)
        smallest = pres_pct if pct == pres_pct == held else 10
        if self.shares_worth(sym, pct) - self.shares_worth(sym, smallest) >= need:
            return False
        if self.percent_of(POOL, sym) + pct > self.MARKET_SHARE_LIMIT:
            return False
        if pres_pct and held - pct < pres_pct:  # the presidency passes: only to a player holding as much
            others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
            if sym == corp.sym or others < pres_pct:
                return False
        return True


class G1833NETrains(G1833NEEmergency):
    """Two-sided train cards: buying, limits, obsolescence."""

    def corp_train_limit(self, corp: Corporation) -> int:
        # obsolete trains do not count toward the limit
        return self.stated_train_limit(corp) + sum(1 for t in corp.trains if t in self.obsolete)

    def stated_train_limit(self, corp: Corporation) -> int:
        limit = self.train_limit  # the takeover game's limits are its phases' (base.game_phases)
        if self.takeover_game:
            limit += self.takeovers.get(corp.sym, 0) * self.data.TAKEOVER_TRAIN_LIMIT_BONUS_PER_TAKEOVER
        return limit

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.corp_train_limit(corp)

    def crowded_corps(self) -> list[Corporation]:
        return [c for c in self.corporations.values() if not c.closed and len(c.trains) > self.corp_train_limit(c)]

    def train_life(self, train: Train) -> tuple[str | None, str | None]:
        obsolete_in, removed_in = self.data.TRAIN_CARD_LIFE[self.card_of[train.id]]
        return obsolete_in, removed_in

    def train_kind(self, train: Train) -> tuple[object, ...]:
        # a card runs as the side its buyer chose; an obsolete one no longer counts
        return (train.name, self.train_side(train).name, train.id in self.obsolete)

    def discard_train(self, train: Train) -> None:
        if train.id in self.obsolete:
            raise GameError("an obsolete train does not count toward the limit", RULE)
        owner = train.owner
        self.remove_train(train, "discard")
        self.chosen.pop(train.id, None)
        self.log.append(f"{owner} discards {a_train(train.name)} to the open market")

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
                    more = "; they sell shares first (/sell)" if self.president_can_sell_for_train(corp) else ""
                    raise GameError(f"{self.name_of(pres)} cannot cover the {self.fmt(shortfall)} shortfall"
                                    f" ({self.fmt(self.player(pres).cash)} in cash){more}", CANNOT_AFFORD)
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
            self.log.append(f"{corp.sym} buys {a_train(side.name)} for {self.fmt(side.price)} from {source}")
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
