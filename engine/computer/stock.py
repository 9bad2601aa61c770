"""The computer player's auction and stock-round decisions: buy privates near face value,
start a corporation it can float, buy shares of its own and of strong corporations, sell
shares of corporations about to crash, pass.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import Corporation
from ..game import Game
from ..moves import move_for, option_choices
from ..rounds import AuctionRound, StockRound
from .policy import (
    Decision,
    base,
    corp_strength,
    lasting_trains,
    needs_train_money,
    next_train_cost,
    price_of,
)

# ---------------------------------------------------------------------- auction


def auction_decisions(game: Game, pid: str) -> list[Decision]:
    rnd = game.round
    if not isinstance(rnd, AuctionRound) or not rnd.companies:
        return []
    cash = game.player(pid).cash
    reserve = game.data.BANK_CASH // 40 if hasattr(game.data, "BANK_CASH") else 200
    out: list[Decision] = []
    if rnd.auctioning:
        sym = rnd.auctioning
        company = game.companies[sym]
        low = rnd.min_bid(sym)
        if low <= company.value + company.revenue and low <= rnd.max_bid(pid, sym) and cash - low >= reserve:
            out.append(Decision(A.Bid(**base(game, pid), company=sym, price=low),
                                f"bids {game.fmt(low)} for {sym}: worth its {game.fmt(company.revenue)} a round"))
        out.append(Decision(A.Pass(**base(game, pid)), f"lets {sym} go above its value"))
        return out
    cheapest = rnd.companies[0]
    low = rnd.min_bid(cheapest.sym)
    if low <= rnd.max_bid(pid, cheapest.sym) and cash - low >= reserve and low <= cheapest.value:
        out.append(Decision(A.Bid(**base(game, pid), company=cheapest.sym, price=low),
                            f"buys {cheapest.sym} for {game.fmt(low)} (it pays {game.fmt(cheapest.revenue)} a round)"))
    out.append(Decision(A.Pass(**base(game, pid)), "keeps its cash for shares"))
    return out


# ---------------------------------------------------------------------- stock round


def _presidencies(game: Game, pid: str) -> list[str]:
    return [c.sym for c in game.corporations.values() if c.president == pid and not c.closed and c.ipoed]


def _par_decisions(game: Game, pid: str) -> list[Decision]:
    move = move_for("par", "player")
    if move is None:
        return []
    cash = game.player(pid).cash
    out: list[Decision] = []
    corps = option_choices(game, pid, move, "corporation", {})
    for corp_choice in corps:
        given = {"corporation": corp_choice.value}
        prices = option_choices(game, pid, move, "price", given)
        by_value = sorted(prices, key=lambda c: -int(c.value.split(",")[0]))
        # the highest par it can float alone with (six shares), else one it can build towards
        pick = next((c for c in by_value if int(c.value.split(",")[0]) * 6 <= cash), None)
        if pick is None:
            pick = next((c for c in by_value if int(c.value.split(",")[0]) * 4 <= cash), None)
        if pick is None:
            continue
        given["price"] = pick.value
        homes = option_choices(game, pid, move, "home", given)
        if homes:
            given["home"] = homes[0].value
        try:
            action = move.build(game, pid, given)
        except Exception:  # a choice the builder cannot read: not this corporation
            continue
        par = int(pick.value.split(",")[0])
        out.append(Decision(action, f"starts {corp_choice.value} at {game.fmt(par)}"))
    # prefer the highest par (a stronger treasury), then the table's order
    out.sort(key=lambda d: -int(str(getattr(d.action, "share_price", "0")).split(",")[0]))
    return out


def healthy(game: Game, corp: Corporation) -> bool:
    """A corporation whose share is worth buying: it runs lasting trains, its price has not
    fallen below its par, and it is not deep in debt."""
    if corp.closed or not corp.ipoed or corp.price is None or corp.par is None:
        return False
    if not lasting_trains(game, corp):
        return False
    return price_of(corp) >= corp.par.price and corp.loans <= 2


def _buy_score(game: Game, pid: str, sym: str) -> float | None:
    corp = game.corporations[sym]
    mine = game.percent_of(pid, sym)
    strength = corp_strength(game, corp)
    if corp.president == pid:
        if not corp.operated:
            return 100.0 + strength  # float it and keep control
        if healthy(game, corp) or (mine < 50 and game.corp_trains(sym)):
            return 60.0 + strength  # more of its own good company: more of its dividends
        return None
    if not corp.operated or not healthy(game, corp):
        return None
    return strength


def train_reserve(game: Game, pid: str) -> int:
    """Cash the player keeps for the trains its corporations will need and cannot pay for."""
    need = 0
    for sym in _presidencies(game, pid):
        corp = game.corporations[sym]
        if corp.operated and needs_train_money(game, corp):
            need += max(0, next_train_cost(game, corp) - corp.cash)
    return need


def _buy_decisions(game: Game, pid: str) -> list[Decision]:
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    reserve = train_reserve(game, pid)
    scored: list[tuple[float, A.Action, str]] = []
    for s in rnd.buyable_shares(pid):
        score = _buy_score(game, pid, s.corporation)
        if score is None:
            continue
        if s.owner != s.corporation:
            score += 1  # a market share: no worse, and it leaves the IPO for the treasury's sake
        price = rnd.share_price_for(s)
        corp = game.corporations[s.corporation]
        floating = corp.president == pid and not corp.operated
        if price > game.player(pid).cash - (0 if floating else reserve):
            continue
        why = (f"buys {s.corporation} to float it and keep control" if corp.president == pid and not corp.operated
               else f"buys {s.corporation} ({game.fmt(price)}): it runs and pays")
        scored.append((score, A.BuyShares(**base(game, pid), shares=(s.id,), percent=s.percent), why))
    scored.sort(key=lambda t: -t[0])
    return [Decision(a, why) for _, a, why in scored]


def _sell_decisions(game: Game, pid: str, forced: bool) -> list[Decision]:
    move = move_for("sell_shares", "player")
    if move is None:
        return []
    options = option_choices(game, pid, move, "shares", {})
    scored: list[tuple[float, Decision]] = []
    for c in options:
        ids = tuple(c.value.split(","))
        shares = [game.shares[s] for s in ids]
        sym = shares[0].corporation
        corp = game.corporations[sym]
        percent = sum(s.percent for s in shares)
        strength = corp_strength(game, corp)
        crashing = strength < 0 or (corp.par is not None and price_of(corp) < 0.7 * corp.par.price
                                    and not lasting_trains(game, corp))
        if not forced and (not crashing or corp.president == pid):
            continue  # sells only what is about to crash, never its own presidency
        action = A.SellShares(**base(game, pid), shares=ids, percent=percent)
        reason = (f"sells {percent}% of {sym}: over the limit" if forced
                  else f"sells {percent}% of {sym}: it has no train and no money for one")
        scored.append((strength + percent / 100 + (50 if corp.president == pid else 0), Decision(action, reason)))
    scored.sort(key=lambda t: t[0])
    return [d for _, d in scored]


def stock_decisions(game: Game, pid: str) -> list[Decision]:
    """The player's decisions in a stock round, best first."""
    types = game.action_types(pid)
    out: list[Decision] = []
    if types == ["sell_shares"]:
        return _sell_decisions(game, pid, forced=True)
    if "sell_shares" in types:
        out += _sell_decisions(game, pid, forced=False)
    mine = _presidencies(game, pid)
    own_unfloated = [s for s in mine if not game.corporations[s].operated]
    if "buy_shares" in types:
        buys = _buy_decisions(game, pid)
        own = [d for d in buys if isinstance(d.action, A.BuyShares)
               and game.shares[d.action.shares[0]].corporation in own_unfloated]
        out += own
        if "par" in types and not own_unfloated:
            out += _par_decisions(game, pid)
        out += [d for d in buys if d not in own]
    elif "par" in types and not own_unfloated:
        out += _par_decisions(game, pid)
    if "pass" in types:
        out.append(Decision(A.Pass(**base(game, pid)), "passes: nothing worth buying"))
    return out


def price_text(game: Game, sym: str) -> str:
    return game.fmt(price_of(game.corporations[sym]))
