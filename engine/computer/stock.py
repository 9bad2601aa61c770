"""The computer player's auction and stock-round decisions: buy privates near face value,
start a corporation it can float (the richest home first), buy shares of its own and of strong
corporations (or of any whose trains earn half its price a run), sell shares of corporations
about to crash, pass.
"""

from __future__ import annotations

from .. import actions as A
from ..entities import Corporation
from ..errors import GameError
from ..game import Game
from ..map import hexgrid
from ..moves import move_for, option_choices
from ..moves.stock import sale_of
from ..rounds.stock import AuctionRound, StockRound
from .operating import node_revenue, trial_budget
from .personality import NEUTRAL, Personality
from .policy import (
    Decision,
    base,
    corp_strength,
    lasting_trains,
    needs_train_money,
    next_train_cost,
    price_of,
    remembered,
    rust_imminent,
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


def _par_decisions(game: Game, pid: str, persona: Personality = NEUTRAL) -> list[Decision]:
    move = move_for("par", "player")
    if move is None:
        return []
    cash = game.player(pid).cash
    out: list[Decision] = []
    depot = next((game.trains[t] for t in game.train_order if game.trains[t].owner == "depot"), None)
    train_cost = depot.price if depot is not None else 0
    cash -= train_reserve(game, pid)  # what its running corporations may need from it first
    idle = not any(c.ipoed and not c.closed for c in game.corporations.values())
    corps = option_choices(game, pid, move, "corporation", {})
    for corp_choice in corps:
        given = {"corporation": corp_choice.value}
        prices = option_choices(game, pid, move, "price", given)
        by_value = sorted(prices, key=lambda c: -int(c.value.split(",")[0]))
        # the highest par it can float alone with (six shares), else one it can build towards
        pick = next((c for c in by_value if int(c.value.split(",")[0]) * 6 <= cash), None)
        if pick is None and not _presidencies(game, pid):
            pick = next((c for c in by_value if int(c.value.split(",")[0]) * 4 <= cash), None)
        if pick is None and idle:
            # no corporation runs: without a new one the game cannot go on
            pick = next((c for c in by_value if int(c.value.split(",")[0]) * 2 <= game.player(pid).cash), None)
        if pick is None:
            continue
        if persona.lower_par:
            # one step lower: more shares for the same money, a price with room to rise
            lower = by_value[by_value.index(pick) + 1:]
            if lower and 4 * int(lower[0].value.split(",")[0]) >= train_cost:
                pick = lower[0]
        if 4 * int(pick.value.split(",")[0]) < train_cost and not idle:
            # its treasury (six shares sold) could not buy the train it must own with half as
            # much again to spare (the phase may move on before it runs): its president would pay
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
    # prefer the highest par (a stronger treasury), then the home with the richest places near
    # it (1833NE: Boston's corporations earn from their first run, Burlington's hardly at all);
    # a corporation that may lay no track now (1833NE's B&L in phase I until a corporation
    # buys P2) comes last: it would buy trains with nowhere to run them
    out.sort(key=lambda d: (not game.tile_lays_per_turn(game.corporations[str(getattr(d.action, "corporation", ""))]),
                            -int(str(getattr(d.action, "share_price", "0")).split(",")[0]),
                            -home_prospect(game, str(getattr(d.action, "corporation", "")))
                            - persona.appeal(str(getattr(d.action, "corporation", "")))))
    return out


def home_prospect(game: Game, sym: str) -> float:
    """The revenue of the places near the corporation's home: its own hex and its neighbours in
    full, the hexes two away at half (0 without a home on the map)."""
    corp = game.corporations.get(sym)
    home = corp.home if corp is not None else None
    if not home or home not in game.board.hexes:
        return 0.0
    seen, frontier = {home}, [home]
    total = float(node_revenue(game.board.hexes[home].tile))
    for weight in (1.0, 0.5):
        ring = sorted({n for h in frontier for n in hexgrid.neighbors(h, game.board.layout).values()
                       if n in game.board.hexes and n not in seen})
        seen.update(ring)
        total += weight * sum(node_revenue(game.board.hexes[n].tile) for n in ring)
        frontier = ring
    return total


def earning(game: Game, corp: Corporation) -> int:
    """What the corporation's trains earn now (the best routes; 0 without trains), remembered
    for the position (a stock round asks for each share on offer)."""
    from ..routing.router import best_routes

    if not game.corp_trains(corp.sym):
        return 0

    def search() -> int:
        try:
            return best_routes(game, corp.sym, time_budget=trial_budget(game), deterministic=True).total
        except GameError:
            return 0

    return remembered(game, ("earning", corp.sym), search)


HIGH_YIELD = 0.5  # earnings per share per run, as a share of its price, that make any share worth buying


def healthy(game: Game, corp: Corporation) -> bool:
    """A corporation whose share is worth buying: it is not deep in debt, and either earns half
    its share price a run, or runs lasting trains, earns well for its price and has not fallen
    far below its start."""
    if corp.closed or not corp.ipoed or corp.price is None or corp.par is None or corp.loans > 2:
        return False
    if _high_yield(game, corp):
        # it earns its price back in two runs: worth it however far its price has fallen
        # (1833NE prices fall with every small dividend) and whatever its trains
        return True
    if not lasting_trains(game, corp) or price_of(corp) < 0.6 * corp.par.price:
        return False
    return earning(game, corp) / max(1, corp.total_shares) >= 0.06 * max(1, price_of(corp))


def _high_yield(game: Game, corp: Corporation) -> bool:
    """Its trains earn at least :data:`HIGH_YIELD` of its share price per share in a run."""
    if corp.closed or corp.price is None:
        return False
    return earning(game, corp) / max(1, corp.total_shares) >= HIGH_YIELD * max(1, price_of(corp))


def _buy_score(game: Game, pid: str, sym: str) -> float | None:
    corp = game.corporations[sym]
    mine = game.percent_of(pid, sym)
    strength = corp_strength(game, corp)
    if corp.president == pid:
        if not corp.operated:
            return 100.0 + strength  # float it and keep control
        if healthy(game, corp) or (mine < 60 and game.corp_trains(sym)):
            return 60.0 + strength  # more of its own good company: more of its dividends
        return None
    if not corp.operated or not healthy(game, corp):
        return None
    return strength + 100 * earning(game, corp) / max(1, corp.total_shares) / max(1, price_of(corp))


def train_reserve(game: Game, pid: str) -> int:
    """Cash the player keeps for the trains its corporations will need and cannot pay for."""
    need = 0
    for sym in _presidencies(game, pid):
        corp = game.corporations[sym]
        if corp.operated and (needs_train_money(game, corp) or rust_imminent(game, corp, within=4)):
            need += max(0, next_train_cost(game, corp) - corp.cash)
        elif corp.operated:
            # insurance: another corporation may buy its trains away (the rules allow it), and
            # then its president pays for the next one
            need += max(0, next_train_cost(game, corp) - corp.cash) // 2
    return need


def _buy_decisions(game: Game, pid: str, persona: Personality = NEUTRAL) -> list[Decision]:
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    reserve = train_reserve(game, pid)
    scored: list[tuple[float, A.Action, str]] = []
    for s in rnd.buyable_shares(pid):
        corp = game.corporations[s.corporation]
        price = rnd.share_price_for(s)
        worth = game.shares_worth(s.corporation, s.percent) if corp.price is not None else price
        bargain = worth - price  # an IPO share sold at par below the market price
        score = _buy_score(game, pid, s.corporation)
        if score is None and bargain >= price // 3 and game.corp_trains(corp.sym) and corp.operated:
            score = 0.0
        if score is None:
            continue
        score += bargain / 5 + persona.appeal(s.corporation) / 10
        if s.owner != s.corporation:
            score += 1  # a market share: no worse, and it leaves the IPO for the treasury's sake
        floating = corp.president == pid and not corp.operated
        # a share that earns half its price a run keeps half the train reserve: its dividends
        # refill the cash soon, and it can be sold if a train is needed
        kept = 0 if floating else reserve // 2 if _high_yield(game, corp) else reserve
        if price > game.player(pid).cash - kept:
            continue
        why = (f"buys {s.corporation} to float it and keep control" if corp.president == pid and not corp.operated
               else f"buys {s.corporation} at par ({game.fmt(price)}), below its price {game.fmt(worth)}"
               if bargain > 0 else f"buys {s.corporation} ({game.fmt(price)}): it runs and pays")
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
        ids, percent = sale_of(game, c.value)
        sym = game.shares[ids[0]].corporation
        corp = game.corporations[sym]
        strength = corp_strength(game, corp)
        crashing = (strength < 0 or (corp.par is not None and price_of(corp) < 0.7 * corp.par.price
                                     and not lasting_trains(game, corp))) and not _high_yield(game, corp)
        doomed = corp.president == pid and _doomed(game, pid, corp)
        if not forced and not doomed and (not crashing or corp.president == pid):
            continue  # sells what is about to crash; its own presidency only when it cannot pay
        action = A.SellShares(**base(game, pid), shares=ids, percent=percent)
        if doomed and not forced:
            if not any(game.shares[i].president for i in ids) and percent < game.percent_of(pid, sym):
                continue  # only the sale that hands the presidency on
            reason = (f"sells {percent}% of {sym}: its next train costs more than it and its "
                      "president can pay")
        else:
            reason = (f"sells {percent}% of {sym}: over the limit" if forced
                      else f"sells {percent}% of {sym}: it has no train and no money for one")
        scored.append((strength + percent / 100 + (50 if corp.president == pid and not doomed else 0),
                       Decision(action, reason)))
    scored.sort(key=lambda t: t[0])
    return [d for _, d in scored]


def _doomed(game: Game, pid: str, corp: Corporation) -> bool:
    """Its trains rust soon (or it has none), and neither it nor its president can pay the next."""
    if not corp.operated or not needs_train_money(game, corp):
        return False
    short = next_train_cost(game, corp) - corp.cash
    return short > game.player(pid).cash


MAX_PRESIDENCIES = 2


def stock_decisions(game: Game, pid: str, persona: Personality = NEUTRAL) -> list[Decision]:
    """The player's decisions in a stock round, best first (``persona``: its leanings)."""
    types = game.action_types(pid)
    out: list[Decision] = []
    if types == ["sell_shares"]:
        return _sell_decisions(game, pid, forced=True)
    if "sell_shares" in types:
        out += _sell_decisions(game, pid, forced=False)
    mine = _presidencies(game, pid)
    own_unfloated = [s for s in mine if not game.corporations[s].operated]
    if "buy_shares" in types:
        buys = _buy_decisions(game, pid, persona)
        own = [d for d in buys if isinstance(d.action, A.BuyShares)
               and game.shares[d.action.shares[0]].corporation in own_unfloated]
        out += own
        if "par" in types and not own_unfloated and len(mine) < MAX_PRESIDENCIES:
            out += _par_decisions(game, pid, persona)
        out += [d for d in buys if d not in own]
    elif "par" in types and not own_unfloated and len(mine) < MAX_PRESIDENCIES:
        out += _par_decisions(game, pid, persona)
    if "pass" in types:
        out.append(Decision(A.Pass(**base(game, pid)), "passes: nothing worth buying"))
    return out


def price_text(game: Game, sym: str) -> str:
    return game.fmt(price_of(game.corporations[sym]))
