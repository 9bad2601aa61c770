"""1856 family: buying trains with the president's help, and declaring bankruptcy.

As 18xx.games plays 1856 (and 1836Jr56):
- While the train step is open, the operating corporation's president may sell shares whenever
  the corporation's and the president's cash together are below the cheapest train in the bank,
  even if the corporation already owns trains ("may sell shares to raise money"). Only as many
  as needed (one share fewer would not be enough), one sale per corporation in the step
  (shares are sold in blocks), never into a market holding more than 50%, and never so many
  that the operating corporation changes president.
- A corporation without a train that has a route must buy one; if its treasury is short it
  buys the cheapest train in the bank and the president pays the difference.  Once the
  president has sold shares, no train may be bought from another corporation.
- In an operating round, after its first action, any player may declare bankruptcy (the
  18xx.games "Declare Bankruptcy" button): their shares are sold as the open step allows,
  their cash goes to the bank, and the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...entities import POOL, Corporation, Share, Train
from ...errors import RULE, GameError
from ...rounds.operating import BuyTrainStep, OperatingRound, Step
from .steps import as_g1856

if TYPE_CHECKING:
    from .game import G1856


def ebuy_sale_reason(g: G1856, rnd: OperatingRound, pid: str, shares: list[Share],
                     percent: int) -> str | None:
    """Why ``pid`` may not sell ``shares`` (``percent``% of them: less than their sum when the
    president's certificate is sold in part) to help the operating corporation buy a train;
    None when the sale is allowed."""
    corp = rnd.corp
    sym = shares[0].corporation
    c = g.corporations[sym]
    if c.price is None or c.closed:
        return f"{sym} has no share price"
    if sym in rnd.state.get("ebuy_sold", ()):
        return f"shares of {sym} were already sold in this step"
    held = g.percent_of(pid, sym)
    if percent <= 0 or percent > held:
        return f"{g.name_of(pid)} holds only {held}% of {sym}"
    if g.percent_of(POOL, sym) + percent > g.MARKET_SHARE_LIMIT:
        return f"the market may hold at most {g.MARKET_SHARE_LIMIT}% of {sym}"
    # who could take the presidency is read from the share-holder table (it differs from the
    # certificates held after a false national president's late payment)
    table = g.presidency_holdings(sym)
    others = max((v for h, v in table.items() if h != pid), default=0)
    pres = next((s for s in shares if s.president), None)
    if pres is not None and others < pres.percent:
        return f"nobody else can take over the presidency of {sym}"
    if sym == corp.sym and c.president == pid and table.get(pid, 0) - percent < others:
        return f"{g.name_of(pid)} would lose the presidency of {corp.sym}"
    # only as much as needed: without its smallest certificate the sale would not be enough
    need = g.min_depot_price() - corp.cash - g.player(pid).cash
    value = g.shares_worth(sym, percent)
    smallest = min(g.shares_worth(sym, s.percent) for s in shares)
    if value - smallest >= need:
        return "that is more than the train needs"
    return None


def sale_bundles(g: G1856, pid: str, sym: str) -> list[tuple[list[Share], int]]:
    """The bundles of ``sym`` that ``pid`` could sell, as 18xx.games forms them: ordinary
    certificates first, smallest first, then the president's certificate, whole or in part."""
    held = sorted(g.shares_of(pid, sym), key=lambda s: (s.president, s.percent, s.seq))
    out: list[tuple[list[Share], int]] = []
    total = 0
    for i, s in enumerate(held):
        total += s.percent
        out.append((held[:i + 1], total))
    if held and held[-1].president:
        normal = 10
        for n in range(1, (held[-1].percent - normal) // normal + 1):
            out.append((list(held), total - normal * n))
    return sorted(out, key=lambda b: b[1])


def ebuy_bundles(g: G1856, rnd: OperatingRound, pid: str) -> list[tuple[str, int]]:
    """(corporation, percent) sales the president may make now."""
    out = []
    for sym in sorted({s.corporation for s in g.shares_of(pid)}):
        for shares, pct in sale_bundles(g, pid, sym):
            if ebuy_sale_reason(g, rnd, pid, shares, pct) is None and (sym, pct) not in out:
                out.append((sym, pct))
    return out


def buyable_trains(g: G1856, rnd: OperatingRound, corp: Corporation, *, sold: bool = False) -> list[Train]:
    """The trains ``corp`` may buy now, as 18xx.games lists them: below the price of the
    cheapest bank train only that one from the bank, and none from other corporations once
    the president has sold shares for it (or with an empty treasury). ``sold``: as if the
    president had sold shares for it."""
    depot = g.buyable_depot_trains(corp)
    others = g.other_corp_trains(corp)
    if corp.cash < g.min_depot_price():
        cheapest = min(g.depot_trains(), key=lambda t: t.price, default=None)
        depot = [t for t in depot if t is cheapest]
        if sold or rnd.state.get("ebuy_sold"):
            others = []
    if corp.cash == 0:
        others = []
    if not g.must_buy_train(corp):
        others = [t for t in others if not (g.face_value_only(corp, t) and corp.cash < t.price)]
    return depot + others


class G1856BuyTrainStep(BuyTrainStep):
    """The train step of the 1856 family (see the module docstring)."""

    def corp_actions(self) -> list[str]:
        g = self.game
        corp = self.corp
        if g.must_buy_train(corp):
            return ["buy_train"]
        if g.can_buy_train(corp):
            return ["buy_train", "pass"]
        return []

    def actions(self, entity: str) -> list[str]:
        corp = self.corp
        if entity == corp.sym:
            return self.corp_actions()
        if entity == corp.president and self.corp_actions() and \
                ebuy_bundles(as_g1856(self.game), self.round, entity):
            return ["sell_shares"]
        return []

    def buyable_trains(self) -> list[Train]:
        """The trains the corporation may buy now (for the legal-choice lists)."""
        return buyable_trains(as_g1856(self.game), self.round, self.corp)

    def sellable_bundles(self, pid: str) -> list[tuple[str, int]]:
        """(corporation, percent) sales ``pid`` may make now (for the legal-choice lists)."""
        return ebuy_bundles(as_g1856(self.game), self.round, pid)

    def buyable_after_sale(self) -> list[Train]:
        """The trains the corporation could buy after its president's sale: from the bank only
        (18xx.games' EBUY_FROM_OTHERS = :never)."""
        return buyable_trains(as_g1856(self.game), self.round, self.corp, sold=True)

    def process(self, action: A.Action) -> None:
        if isinstance(action, A.SellShares):
            self.sell(action)
            return
        g = as_g1856(self.game)
        from_depot = isinstance(action, A.BuyTrain) and g.train(action.train).owner in ("depot", "discard")
        super().process(action)
        # 1836Jr56 (one bank train of each type per turn): the step ends once nothing is left
        # that the corporation could buy
        if from_depot and not self.passed and g.one_depot_train_per_type() and \
                not buyable_trains(g, self.round, self.corp):
            self.passed = True
            g.after_buy_train_step(self.round, self.corp)

    def sell(self, action: A.SellShares) -> None:
        g = as_g1856(self.game)
        pid = action.entity
        shares, sym, pct = g.named_bundle(action)
        reason = ebuy_sale_reason(g, self.round, pid, shares, pct)
        if reason:
            raise GameError(f"{g.name_of(pid)} cannot sell {pct}% of {sym} for {self.corp.sym}'s train: {reason}", RULE)
        g.sell_shares(pid, shares, pct)
        self.round.state.setdefault("ebuy_sold", set()).add(sym)
        self.round.recalculate_order()


class BankruptStep(Step):
    """18xx.games' 1856 "Declare Bankruptcy": open to every player once the operating round has
    seen its first action; never holds the turn."""

    name = "declare bankruptcy"
    blocks_always = False

    def active_entities(self) -> list[str]:
        return []

    def actions(self, entity: str) -> list[str]:
        g = self.game
        if not self.round.state_round.get("acted"):
            return []
        if entity in g.player_by_id and not g.player(entity).bankrupt:
            return ["bankrupt"]
        corp = g.corporations.get(entity)
        if corp is not None and corp.president and not g.player(corp.president).bankrupt:
            return ["bankrupt"]
        return []

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        entity = action.entity
        pid = entity if entity in g.player_by_id else g.corporations[entity].president
        assert pid is not None
        g.declare_player_bankrupt(self.round, pid)

    def skip(self) -> None:
        pass
