"""The computer player's decisions about a corporation's own shares (1833NE): issuing treasury
shares for a train it cannot otherwise pay for, redeeming market shares with money it can
spare (a treasury share earns for the corporation, a market share for nobody), taking over a
connected corporation when what it gains is worth what it pays, and accepting a takeover only
when its own corporation is about to need a train it cannot buy.

The candidates come from the move table's choices; each takeover is tried (and undone) and
judged by the acquirer's cash and what its trains would earn afterwards.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import Corporation
from ..errors import GameError
from ..game import Game
from ..moves import move_for, option_choices
from .operating import RouteWork
from .policy import Decision, base, lasting_trains, needs_train_money, next_train_cost, price_of, trial


def _reserve(game: Game, corp: Corporation) -> int:
    """Cash the corporation keeps: its next train while it has no lasting one."""
    return next_train_cost(game, corp) if needs_train_money(game, corp) else 0


def issue_decisions(game: Game, corp: Corporation, *, emergency: bool) -> list[Decision]:
    """Treasury shares to issue: in an emergency the smallest bundle (its president then pays
    less); otherwise only the smallest one that buys the train it needs and cannot afford."""
    move = move_for("sell_shares", "corporation")
    if move is None:
        return []
    sym, cash = corp.sym, corp.cash  # read before any trial: a trial leaves ``corp`` a stale copy
    short = next_train_cost(game, corp) - cash
    if not emergency and (not needs_train_money(game, corp) or short <= 0):
        return []
    out: list[tuple[int, Decision]] = []
    for c in option_choices(game, corp.sym, move, "shares", {}):
        ids = tuple(c.value.split(","))
        percent = sum(game.shares[s].percent for s in ids)
        action = A.SellShares(**base(game, corp.sym), shares=ids, percent=percent)
        if not emergency:
            raised = trial(game, action, lambda g: g.corporations[sym].cash - cash)
            if raised is None or raised < short:
                continue
        out.append((percent, Decision(action, f"issues {percent}% of its shares to pay for a train")))
    out.sort(key=lambda t: t[0])
    return [d for _, d in out]


def redeem_decisions(game: Game, corp: Corporation) -> list[Decision]:
    """Market shares to redeem with cash beyond its next train: the most it can spare."""
    move = move_for("buy_shares", "corporation")
    if move is None or needs_train_money(game, corp):
        return []
    sym, cash = corp.sym, corp.cash
    spare = cash - next_train_cost(game, corp)
    out: list[tuple[int, Decision]] = []
    for c in option_choices(game, sym, move, "share", {}):
        ids = tuple(c.value.split(","))
        action = A.BuyShares(**base(game, sym), shares=ids, percent=sum(game.shares[s].percent for s in ids))
        cost = trial(game, action, lambda g: cash - g.corporations[sym].cash)
        if cost is None or cost > spare:
            continue
        out.append((len(ids), Decision(action, f"redeems {len(ids)} market share{'s' if len(ids) > 1 else ''} "
                                               f"for {game.fmt(cost)}: they will earn for its treasury")))
    out.sort(key=lambda t: -t[0])
    return [d for _, d in out]


def takeover_decisions(game: Game, corp: Corporation, work: RouteWork | None = None) -> list[Decision]:
    """Take over a target when the cash, lasting trains and revenue it gains are worth what it
    pays (cash, and its own treasury shares at its price), and it keeps its train money."""
    move = move_for("takeover", "corporation")
    accept = move_for("accept_takeover", "corporation")
    if move is None:
        return []
    trains = list(game.runnable_trains(corp))
    work = work or RouteWork(game)
    now = work.revenue(game, corp.sym, trains)
    lasting_now = len(lasting_trains(game, corp))
    cash, reserve, train_cost = corp.cash, _reserve(game, corp), next_train_cost(game, corp)
    share_price = price_of(corp)
    scored: list[tuple[float, Decision]] = []
    for target in option_choices(game, corp.sym, move, "corporation", {}):
        if work.spent:
            break
        given = {"corporation": target.value}
        for n in sorted(int(c.value) for c in option_choices(game, corp.sym, move, "shares", given))[:2]:
            try:
                action = move.build(game, corp.sym, {**given, "shares": str(n)})
            except GameError:
                continue

            def after(g: Game, sym: str = target.value) -> tuple[int, int, int, bool]:
                if accept is not None and g.action_types(sym) == ["accept_takeover", "pass"]:
                    g.process(accept.build(g, sym, {}), safe=False)  # what it gains if accepted
                c = g.corporations[corp.sym]
                return (c.cash, work.revenue(g, corp.sym, list(g.runnable_trains(c))),
                        len(lasting_trains(g, c)), g.corporations[sym].closed)

            result = trial(game, action, after)
            if result is None or not result[3]:
                continue
            cash_after, rev, lasting, _ = result
            paid = cash - cash_after
            gain = 4 * (rev - now) + (lasting - lasting_now) * train_cost // 2
            worth = gain - paid - n * share_price  # its own shares handed over are value given away
            if cash_after < reserve or worth <= 0:
                continue
            gained = [f"its routes earn {game.fmt(rev - now)} more"] if rev > now else []
            gained += [f"{lasting - lasting_now} more lasting train(s)"] if lasting > lasting_now else []
            gained.append(f"it pays {game.fmt(paid)} net" if paid > 0 else f"its cash grows by {game.fmt(-paid)}"
                          if paid < 0 else "at no cost")
            scored.append((worth, Decision(action, f"takes over {target.value}: " + ", ".join(gained))))
            break  # the fewest own shares that work
    scored.sort(key=lambda t: -t[0])
    return [d for _, d in scored]


def accept_decision(game: Game, corp: Corporation) -> Decision | None:
    """Accept a takeover only when its corporation has no lasting train and cannot buy the next."""
    accept = move_for("accept_takeover", "corporation")
    if accept is None or not needs_train_money(game, corp) or corp.cash >= next_train_cost(game, corp):
        return None
    try:
        action = accept.build(game, corp.sym, {})
    except GameError:
        return None
    return Decision(action, "accepts the takeover: its trains rust and it cannot buy the next one")

