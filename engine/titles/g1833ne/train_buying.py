"""1833NE trains in play: the side a card runs as, train limits (obsolete trains do not
count), what the bank offers, buying a side from the bank or a train from another corporation,
and obsolete trains removed after their last run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...entities import Corporation, Train
from ...errors import CANNOT_AFFORD, LIMIT, NOT_OWNER, PRICE, RULE, UNAVAILABLE, GameError
from ...rounds.operating import OperatingRound
from . import emergency as E
from .trains import Side, card_sides

if TYPE_CHECKING:
    from .game import G1833NE


def set_up_cards(g: G1833NE) -> None:
    """Each train is a card with two sides: it shows the first side and the cheaper price
    until it is bought as one of them; no train rusts (cards become obsolete instead)."""
    specs = {t["name"]: t for t in g.game_trains()}
    for t in g.trains.values():
        card = t.id.rsplit("-", 1)[0]
        g.card_of[t.id] = card
        g.sides[t.id] = card_sides(specs[card])
        t.distance = g.sides[t.id][0].max_stops
        t.price = min(s.price for s in g.sides[t.id])
        t.rusts_on = None
        t.events = [e for e in t.events]


def train_side(g: G1833NE, train: Train) -> Side:
    return g.chosen.get(train.id) or g.sides[train.id][0]


def corp_train_limit(g: G1833NE, corp: Corporation) -> int:
    limit = g.train_limit
    if g.takeover_game:
        limit = g.data.TAKEOVER_TRAIN_LIMITS[g.phase["name"]]
        limit += g.takeovers.get(corp.sym, 0) * g.data.TAKEOVER_TRAIN_LIMIT_BONUS_PER_TAKEOVER
    # obsolete trains do not count toward the limit
    return limit + sum(1 for t in corp.trains if t in g.obsolete)


def room(g: G1833NE, corp: Corporation) -> bool:
    return len(corp.trains) < g.corp_train_limit(corp)


def crowded_corps(g: G1833NE) -> list[Corporation]:
    return [c for c in g.corporations.values() if not c.closed and len(c.trains) > g.corp_train_limit(c)]


def discard_train(g: G1833NE, train: Train) -> None:
    if train.id in g.obsolete:
        raise GameError("an obsolete train does not count toward the limit", RULE)
    owner = train.owner
    g.remove_train(train, "discard")
    g.chosen.pop(train.id, None)
    g.log.append(f"{owner} discards a {train.name}-train to the open market")


def runnable_trains(g: G1833NE, corp: Corporation) -> list[Train]:
    return [g.trains[t] for t in corp.trains]


def depot_trains(g: G1833NE) -> list[Train]:
    upcoming = [g.trains[t] for t in g.train_order if g.trains[t].owner == "depot"]
    out = upcoming[:1]
    out += [g.trains[t] for t in g.train_order if g.trains[t].owner == "discard"]
    return out


def buyable_depot_trains(g: G1833NE, corp: Corporation) -> list[Train]:
    return g.depot_trains()


def other_corp_trains(g: G1833NE, corp: Corporation) -> list[Train]:
    rnd = g.round
    if isinstance(rnd, OperatingRound) and rnd.corp is corp and rnd.state.get("emergency_issued"):
        return []  # having issued in an emergency, it buys from the bank
    # obsolete trains cannot be sold to another corporation
    return [
        g.trains[t]
        for c in g.corporations.values()
        if c is not corp and not c.closed and c.president is not None
        for t in c.trains
        if t not in g.obsolete
    ]


def side_prices(g: G1833NE, train: Train) -> list[int]:
    return sorted(s.price for s in g.sides[train.id])


def min_train_price(g: G1833NE, corp: Corporation) -> int | None:
    prices = [g.side_prices(t)[0] for t in g.buyable_depot_trains(corp)]
    if g.other_corp_trains(corp):
        prices.append(1)
    return min(prices) if prices else None


def can_buy_train(g: G1833NE, corp: Corporation) -> bool:
    price = g.min_train_price(corp)
    return price is not None and g.room(corp) and corp.cash >= price and corp.president is not None


def must_buy_train(g: G1833NE, corp: Corporation) -> bool:
    # summary: a corporation without a train after running must buy one
    return not corp.trains and corp.president is not None and bool(g.depot_trains())


def cheapest_depot_train(g: G1833NE, corp: Corporation | None = None) -> Train | None:
    trains = g.depot_trains()
    return min(trains, key=lambda t: g.side_prices(t)[0]) if trains else None


def train_variants(g: G1833NE, train: Train) -> list[tuple[str, int]]:
    """(side, price) a buyer may choose for ``train``: both sides of a card from the bank;
    none for a corporation's train (it keeps its side)."""
    if train.owner not in ("depot", "discard"):
        return []
    return [(s.name, s.price) for s in g.sides[train.id]]


def side_for(g: G1833NE, train: Train, action: A.BuyTrain) -> Side:
    sides = g.sides[train.id]
    if train.owner in g.corporations:
        return g.train_side(train)
    if action.variant:
        side = next((s for s in sides if s.name == action.variant), None)
        if side is None:
            raise GameError(
                f"{train.id} has no side {action.variant}; choose {' or '.join(s.name for s in sides)}"
            , RULE)
        return side
    by_price = [s for s in sides if s.price == action.price]
    return by_price[0] if by_price else sides[0]


def buy_train(g: G1833NE, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
    train = g.train(action.train)
    if train.owner == corp.sym:
        raise GameError(f"{corp.sym} already owns {train.id}", NOT_OWNER)
    emergency = g.must_buy_train(corp) and g.needs_emergency_money(corp)
    issued = bool(rnd.state.get("emergency_issued"))
    if train.owner in ("depot", "discard"):
        if train not in g.depot_trains():
            raise GameError(f"Train {train.id} is not available yet", UNAVAILABLE)
        side = side_for(g, train, action)
        if not g.room(corp):
            raise GameError(f"{corp.sym} is at its train limit", LIMIT)
        if action.price != side.price:
            raise GameError(f"A {side.name} train costs {g.fmt(side.price)}", PRICE)
        if side.price > corp.cash and g.emergency_issue_bundles(rnd, corp):
            raise GameError(f"{corp.sym} must first issue shares (/issue) before its president pays", CANNOT_AFFORD)
        floor = E.emergency_side_floor(g, rnd, corp, train)
        if side.price < floor:
            raise GameError(
                f"{corp.sym} issued shares for a train: it must buy one that needed the last "
                f"share issued (at least {g.fmt(floor)})"
            , RULE)
        if side.price > corp.cash:
            if not emergency:
                raise GameError(f"{corp.sym} cannot afford a {side.name} train ({g.fmt(side.price)})", CANNOT_AFFORD)
            pres = corp.president
            assert pres is not None
            shortfall = side.price - corp.cash
            if g.player(pres).cash < shortfall:
                raise GameError(f"{g.name_of(pres)} cannot cover the {g.fmt(shortfall)} shortfall", CANNOT_AFFORD)
            g.spend(pres, corp.sym, shortfall)
            g.log.append(f"{g.name_of(pres)} contributes {g.fmt(shortfall)}")
        from_depot = train.owner == "depot"
        g.spend(corp.sym, "bank", side.price)
        g.give_train(train, corp.sym)
        g.chosen[train.id] = side
        train.name = side.name
        train.price = side.price
        train.distance = side.max_stops
        source = "the depot" if from_depot else "the open market (discarded trains)"
        g.log.append(f"{corp.sym} buys a {side.name}-train for {g.fmt(side.price)} from {source}")
        if from_depot:
            g.on_train_bought_from_depot(train)
    elif train.owner in g.corporations:
        if emergency or issued:
            raise GameError("in an emergency the train must come from the bank", RULE)
        if train.id in g.obsolete:
            raise GameError("an obsolete train cannot be sold to another corporation", RULE)
        g.buy_train_from_corporation(corp, train, action.price)
    else:
        raise GameError(f"Train {train.id} is not for sale", UNAVAILABLE)


def scrap_obsolete(g: G1833NE, corp: Corporation) -> None:
    """Summary: an obsolete train is removed right after its owner next runs."""
    for tid in list(corp.trains):
        if tid in g.obsolete:
            scrap_train(g, g.trains[tid])
            g.log.append(f"{corp.sym}'s obsolete {g.trains[tid].name} train is removed")


def scrap_train(g: G1833NE, t: Train) -> None:
    g.obsolete.discard(t.id)
    g.remove_train(t, "rusted")
