"""Facts the computer player decides on: what an action would do (tried and undone), the
money a corporation needs for its next train, which trains rust soon, what a share is worth
to hold.

Nothing here changes a game: a trial (:func:`trial`) processes the action and restores the
state exactly, like :meth:`engine.mechanics.processing.ActionProcessing.accepts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import actions as A
from ..beside import Beside
from ..entities import Corporation, Train
from ..errors import GameError
from ..game import Game
from ..moves.spec import base as base

T = TypeVar("T")


@dataclass(frozen=True)
class Decision:
    """An action the computer player takes and the one-line reason it gives."""

    action: A.Action
    reason: str


def trial(game: Game, action: A.Action, measure: Callable[[Game], T]) -> T | None:
    """``measure`` of the game after ``action`` (None when the game refuses it); the game is
    left exactly as it was."""
    mark = len(game.action_log)
    before = game.__dict__.get("_checkpoint")
    game._checkpoint = (mark, game._snapshot())
    try:
        game.process(action, safe=False)
        return measure(game)
    except GameError:
        return None
    finally:
        game._rollback(mark)
        game._checkpoint = before


def fresh(game: Game, corp: Corporation) -> Corporation:
    """The game's live corporation: a trial, or a choice list that tries actions, restores the
    game from a copy and leaves references read before it stale (and changed by the trial)."""
    return game.corporations[corp.sym]


_REMEMBERED: Beside[Game, dict[tuple[Hashable, ...], tuple[object, Any]]] = Beside(dict)


def remembered(game: Game, key: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``compute()`` for the game's position, remembered while the game lives and the position
    holds (the same count of actions, the same last action): a new game never sees another's
    facts, even at the same memory address, nor a position after an undo the one before it."""
    memo = _REMEMBERED.of(game)
    last = game.action_log[-1] if game.action_log else None
    full = (len(game.action_log), *key)
    hit = memo.get(full)
    if hit is not None and hit[0] is last:
        value: T = hit[1]
        return value
    if len(memo) > 256:
        memo.clear()
    value = compute()
    memo[full] = (last, value)
    return value


def first_accepted(game: Game, decisions: Iterable[Decision]) -> Decision | None:
    """The first decision the game would take (each is tried and undone)."""
    for d in decisions:
        if game.accepts(d.action):
            return d
    return None


# ---------------------------------------------------------------------- trains


def next_depot(game: Game) -> Train | None:
    """The next train the bank sells (the one whose purchase may change the phase)."""
    return next((game.trains[t] for t in game.train_order if game.trains[t].owner == "depot"), None)


def ends_on(game: Game, train: Train) -> str | None:
    """The train whose first purchase ends ``train``'s life: it rusts then, or (a title with
    train cards, like 1833NE) it becomes obsolete in the phase that train starts."""
    if train.rusts_on is not None:
        return train.rusts_on
    obsolete, removed = game.train_life(train)
    phase = obsolete or removed
    return next((p.get("on") for p in game.phases if p["name"] == phase), None) if phase else None


def rusts_soon(game: Game, train: Train) -> bool:
    """Whether ``train`` rusts when the next kind of train is first bought (or the one after)."""
    end = ends_on(game, train)
    if end is None:
        return False
    upcoming: list[str] = []
    for tid in game.train_order:
        t = game.trains[tid]
        if t.owner == "depot" and t.name not in upcoming:
            upcoming.append(t.name)
    return end in upcoming[:2]


def sales_until_rust(game: Game, train: Train) -> int | None:
    """How many bank trains are sold before the one that rusts ``train`` (None: never)."""
    end = ends_on(game, train)
    if end is None:
        return None
    n = 0
    for tid in game.train_order:
        t = game.trains[tid]
        if t.owner != "depot":
            continue
        if t.name == end:
            return n
        n += 1
    return None


def rust_imminent(game: Game, corp: Corporation, within: int = 2) -> bool:
    """Whether all the corporation's trains may rust within the next ``within`` bank sales."""
    trains = game.corp_trains(corp.sym)
    if not trains:
        return True
    left = [sales_until_rust(game, t) for t in trains]
    return all(n is not None and n <= within for n in left)


def rusted_by(game: Game, name: str) -> list[str]:
    """Names of the trains the first ``name`` train rusts (or makes obsolete)."""
    return sorted({t.name for t in game.trains.values() if ends_on(game, t) == name})


_TRAIN_SALE = re.compile(r"^(\S+) buys an? (\S+)-train for (.+?) from (\S+)$")


def underpaid_by(game: Game, pid: str) -> frozenset[str]:
    """Corporations that bought a train below its face value from a corporation ``pid`` now
    presides (the rules let a president name any price from $1). The computer player buys
    below value only from these, in turn; never from a player who has not done it first."""
    return remembered(game, ("underpaid", pid), lambda: _underpaid(game, pid))


def _underpaid(game: Game, pid: str) -> frozenset[str]:
    face = {t.name: t.price for t in game.trains.values()}
    found = set()
    for line in game.log:
        m = _TRAIN_SALE.match(line)
        if m is None:
            continue
        buyer, name, paid, seller = m.groups()
        corp = game.corporations.get(seller)
        digits = re.sub(r"\D", "", paid)
        if corp is None or corp.president != pid or buyer not in game.corporations or not digits:
            continue
        if int(digits) < face.get(name, 0):
            found.add(buyer)
    return frozenset(found)


def lasting_trains(game: Game, corp: Corporation) -> list[Train]:
    """The corporation's trains that do not rust at the next new kind of train."""
    return [t for t in game.corp_trains(corp.sym) if not rusts_soon(game, t)]


def train_price(game: Game, train: Train) -> int:
    """What a bank train costs (a two-sided card: its cheapest side)."""
    sides = game.train_variants(train)
    return min(p for _, p in sides) if sides else train.price


def next_train_cost(game: Game, corp: Corporation) -> int:
    """The price of the cheapest train the corporation could buy from the bank now."""
    t = game.cheapest_depot_train(corp)
    return train_price(game, t) if t is not None else 0


def sales_before_next_phase(game: Game) -> int | None:
    """How many bank trains are sold before the one that starts the next phase (None: no
    phase is left to start)."""
    later = {p.get("on") for p in game.phases[game.phase_index + 1:]} - {None}
    for n, t in enumerate(game.upcoming_trains()):
        if t.name in later:
            return n
    return None


def ended(game: Game, train: Train) -> bool:
    """Whether ``train`` is already rusted or obsolete (an obsolete 1833NE card runs once more,
    then leaves: its owner needs a new train at its next turn all the same)."""
    end = ends_on(game, train)
    if end is None:
        return False
    return any(p.get("on") == end for p in game.phases[:game.phase_index + 1])


def last_revenues(game: Game) -> dict[str, int]:
    """Each corporation's revenue in its latest run (the routes it last ran)."""
    return remembered(game, ("last_revenues",), lambda: _last_revenues(game))


def _last_revenues(game: Game) -> dict[str, int]:
    out: dict[str, int] = {}
    wanted = {c.sym for c in game.corporations.values() if c.operated and not c.closed}
    for raw in reversed(game.action_log):
        if not wanted:
            break
        if raw.get("type") != "run_routes" or raw.get("entity") not in wanted:
            continue
        sym = str(raw["entity"])
        wanted.discard(sym)
        out[sym] = sum(int(r.get("revenue", 0) or 0) for r in raw.get("routes") or () if isinstance(r, dict))
    return out


@dataclass(frozen=True)
class Rush:
    """The bank trains the other corporations could buy in the next turns of a corporation
    (:func:`train_rush`), and what that does to it."""

    trains: tuple[Train, ...]  # in the order the bank sells them, within the turns looked at
    ends_in: int | None  # before which of its turns (1: the next) all its trains may have ended
    cost_then: int  # the cheapest bank train left then (0: none)
    # the cheapest bank train before the one that ends all its trains which outlives them (0:
    # none), and before which of its turns the others may have bought the last of those
    lasting_price: int = 0
    lasting_gone_in: int | None = None


def train_rush(game: Game, corp: Corporation, turns: int = 1) -> Rush:
    """What the other corporations could buy from the bank before ``corp``'s next ``turns``
    turns: between two of its turns each other corporation runs once (keeping its latest
    revenue) and buys the next bank train while its cash and the train limit allow (that of
    the phase the trains start; trains rusted or obsolete by then do not count), one that
    has no train left with its president's help. The bank's trains go in order to the
    richest corporation that can pay; a train the bank sells starts its phase and ends the
    trains that phase ends. An upper bound: the computer player buys whenever it can, and a
    person may too."""
    return remembered(game, ("rush", corp.sym, turns), lambda: _train_rush(game, corp, turns))


@dataclass
class _Buyer:
    sym: str
    cash: int  # its cash after its run (revenue kept)
    helper: int  # its president's cash, for a train it must buy
    trains: list[Train]


def _first_sale(upcoming: list[Train], name: str | None) -> int | None:
    return next((i for i, t in enumerate(upcoming) if t.name == name), None)


def _train_rush(game: Game, corp: Corporation, turns: int) -> Rush:
    revenue = last_revenues(game)
    sold: set[str] = set()  # names of the trains sold in the rush

    def gone(t: Train) -> bool:
        end = ends_on(game, t)
        return ended(game, t) or (end is not None and end in sold)

    buyers = []
    for c in game.corporations.values():
        if c is corp or c.closed or not c.ipoed or not c.operated:
            continue
        helper = game.player(c.president).cash if c.president in game.player_by_id else 0
        buyers.append(_Buyer(c.sym, c.cash, max(0, helper), game.corp_trains(c.sym)))
    limit = int(game.phase.get("train_limit") or game.corp_train_limit(corp))
    starts = {p["on"]: p for p in game.phases[game.phase_index + 1:] if p.get("on")}
    upcoming = game.upcoming_trains()
    own = game.corp_trains(corp.sym)
    if own and all(gone(x) for x in own):
        return Rush((), 1, train_price(game, upcoming[0]) if upcoming else 0)
    # the sale that ends the last of its trains, and the trains before it that outlive them
    ends = [_first_sale(upcoming, ends_on(game, t)) for t in own]
    last = max((i for i in ends if i is not None), default=None) if own and None not in ends else None
    lasting: list[int] = []
    if last is not None:
        for i, t in enumerate(upcoming[:last]):
            ender = ends_on(game, t)
            end = _first_sale(upcoming, ender)
            if ender is None or (end is not None and end > last):
                lasting.append(i)
    lasting_price = min((train_price(game, upcoming[i]) for i in lasting), default=0)
    lasting_gone_in: int | None = None
    bought: list[Train] = []

    def power(b: _Buyer) -> int:
        live = sum(1 for t in b.trains if not gone(t))
        return b.cash + b.helper if not live else b.cash if live < limit else -1

    for turn in range(1, turns + 1):
        for b in buyers:
            b.cash += revenue.get(b.sym, 0)
        for t in upcoming[len(bought):]:
            price = train_price(game, t)
            able = [b for b in buyers if power(b) >= price]
            if not able:
                break
            buyer = max(able, key=lambda b: (power(b), b.sym))
            if buyer.cash < price:  # its president pays the rest, once
                buyer.helper -= price - buyer.cash
                buyer.cash = price
            buyer.cash -= price
            buyer.trains.append(t)
            bought.append(t)
            if t.name not in sold and t.name in starts:
                limit = int(starts[t.name].get("train_limit") or limit)
            sold.add(t.name)
            if lasting and lasting_gone_in is None and len(bought) > lasting[-1]:
                lasting_gone_in = turn
            if own and all(gone(x) for x in own):
                rest = upcoming[len(bought):]
                return Rush(tuple(bought), turn, train_price(game, rest[0]) if rest else 0,
                            lasting_price, lasting_gone_in)
    return Rush(tuple(bought), None, 0, lasting_price, lasting_gone_in)


def needs_train_money(game: Game, corp: Corporation) -> bool:
    """Whether the corporation should keep its cash for a train: it has no lasting train."""
    return not lasting_trains(game, corp)


# ---------------------------------------------------------------------- shares


def price_of(corp: Corporation) -> int:
    return corp.price.price if corp.price is not None else 0


def corp_strength(game: Game, corp: Corporation) -> float:
    """How good a corporation is to hold a share of: its price, trains and treasury."""
    if corp.closed or not corp.ipoed:
        return -1.0
    trains = game.corp_trains(corp.sym)
    score = price_of(corp) / 10
    score += 8 * len(lasting_trains(game, corp)) + 3 * len(trains)
    if not trains and corp.cash < next_train_cost(game, corp):
        score -= 25  # a trainless corporation that cannot buy one: its president pays, its price falls
    score -= 6 * corp.loans
    return score
