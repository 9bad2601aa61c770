"""Random legal play with invariant checks after every action (``conductor selfplay``).

Every action is drawn from :func:`engine.decisions.choices_for`, so a rejected action means the
choices and the rules disagree; that counts as a failure, like a broken invariant.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .decisions import choices_for, legal_tile_lays
from .entities import POOL
from .errors import GameError
from .game import Game
from .titles.registry import new_game


@dataclass
class GameReport:
    seed: int
    players: int
    actions: int = 0
    finished: bool = False
    end_reason: str | None = None
    problem: str | None = None
    phases: set[str] = field(default_factory=set)
    national_formed: bool = False
    bankrupt: bool = False
    takeovers: int = 0


# ---------------------------------------------------------------------- invariants


def check_invariants(game: Game) -> str | None:
    """A description of the first broken invariant, or None."""
    total = game.bank + sum(p.cash for p in game.players) + sum(c.cash for c in game.corporations.values())
    if total != game.data.BANK_CASH:
        return f"money is not conserved: {total} != {game.data.BANK_CASH}"
    for c in game.corporations.values():
        if c.cash < 0:
            return f"{c.sym} has negative cash {c.cash}"
        pct = sum(s.percent for s in game.corp_shares(c.sym))
        false_pres = getattr(game, "false_national_president", None) and c.sym == getattr(game, "national_sym", None)
        if pct != 100 and not false_pres:
            return f"{c.sym}'s shares sum to {pct}%"
        if game.percent_of(POOL, c.sym) > game.MARKET_SHARE_LIMIT:
            return f"the market holds {game.percent_of(POOL, c.sym)}% of {c.sym}"
        if not c.closed and len(c.trains) > game.corp_train_limit(c) and c not in game.crowded_corps():
            return f"{c.sym} has {len(c.trains)} trains over its limit"
        for tid in c.trains:
            if game.trains[tid].owner != c.sym:
                return f"train {tid} listed on {c.sym} but owned by {game.trains[tid].owner}"
    crisis = getattr(game, "cash_crisis_player", None)
    for p in game.players:
        if p.cash < 0 and p.id != crisis and not p.bankrupt:
            return f"{p.name} has negative cash {p.cash}"
        for c in game.corporations.values():
            if game.percent_of(p.id, c.sym) > 60 and not game.holding_ok(p.id, c.sym) and \
                    c.sym != getattr(game, "national_sym", None):
                if not isinstance(game.round, object):
                    return f"{p.name} holds {game.percent_of(p.id, c.sym)}% of {c.sym}"
    return None


# ---------------------------------------------------------------------- choosing


def _pick(rng: random.Random, choices: list[Any]) -> Any:
    return rng.choice(choices) if choices else None


def random_action(game: Game, rng: random.Random, router: Any = None) -> A.Action | None:
    acting = game.acting()
    if not acting:
        return None
    entity = acting[0]
    etype = "player" if entity in game.player_by_id else "corporation"
    types = game.action_types(entity)
    if not types:
        return None
    weights = {"pass": 1, "bid": 6, "par": 3, "buy_shares": 6, "sell_shares": 0.3, "lay_tile": 8,
               "place_token": 3, "run_routes": 20, "dividend": 20, "buy_train": 8, "take_loan": 0.3,
               "payoff_loan": 2, "buy_company": 0.5, "discard_train": 20, "borrow_train": 20,
               "merge": 3, "bankrupt": 20, "special_buy": 0.5, "remove_token": 20}
    if entity in game.corporations and "buy_train" in types:
        corp = game.corporations[entity]
        # a company that already runs trains often keeps its money
        if corp.trains and len(corp.trains) >= 2:
            weights["pass"] = 4
    order = sorted(types, key=lambda t: -rng.random() * weights.get(t, 1))
    for kind in order:
        action = _build(game, rng, entity, etype, kind, router)
        if action is not None:
            return action
    return None


def _build(game: Game, rng: random.Random, e: str, et: str, kind: str, router: Any) -> A.Action | None:
    if kind == "pass":
        return A.Pass(entity=e, entity_type=et)
    if kind == "bid":
        options = choices_for(game, e, "bid")
        if not options:
            return None
        rnd = game.round
        cheapest = rnd.companies[0].sym if rnd.companies else None
        # most of the time take the private that can be bought outright (keeps auctions moving)
        c = next((o for o in options if o.value == cheapest), None) if rng.random() < 0.7 else None
        c = c or rng.choice(options)
        rnd = game.round
        low = rnd.min_bid(c.value)
        high = min(rnd.max_bid(e, c.value), low + 30)
        return A.Bid(entity=e, entity_type=et, company=c.value, price=rng.choice(range(low, high + 1, 5)))
    if kind == "par":
        c = _pick(rng, choices_for(game, e, "par"))
        prices = choices_for(game, e, "par", {"corporation": c.value}) if c else []
        # start a company only with money to follow it up (three times the president's cost)
        cash = game.player(e).cash
        prices = [p for p in prices if int(p.value.split(",")[0]) * 6 <= cash] or []
        p = _pick(rng, prices)
        return A.Par(entity=e, entity_type=et, corporation=c.value, share_price=p.value) if p else None
    if kind == "buy_shares":
        c = _pick(rng, choices_for(game, e, "buy_shares"))
        return A.BuyShares(entity=e, entity_type=et, shares=(c.value,), percent=game.shares[c.value].percent) if c else None
    if kind == "sell_shares":
        c = _pick(rng, choices_for(game, e, "sell_shares"))
        if c is None:
            return None
        ids = tuple(c.value.split(","))
        percent = int(c.label.split("%")[0])
        return A.SellShares(entity=e, entity_type=et, shares=ids, percent=percent)
    if kind == "lay_tile":
        lays = legal_tile_lays(game, e)
        if not lays:
            return None
        hid = rng.choice(sorted(lays))
        tile = rng.choice(sorted(lays[hid]))
        return A.LayTile(entity=e, entity_type=et, hex=hid, tile=tile, rotation=rng.choice(lays[hid][tile]))
    if kind == "place_token":
        c = _pick(rng, choices_for(game, e, "place_token"))
        return A.PlaceToken(entity=e, entity_type=et, city=c.value) if c else None
    if kind == "run_routes":
        routes: list[dict[str, Any]] = []
        if router is not None:
            try:
                routes = router(game, e)
            except GameError:
                routes = []
        return A.RunRoutes(entity=e, entity_type=et, routes=tuple(routes))
    if kind == "remove_token":
        c = _pick(rng, choices_for(game, e, "remove_token"))
        return A.RemoveToken(entity=e, entity_type=et, city=c.value) if c else None
    if kind == "dividend":
        options = [c.value for c in choices_for(game, e, "dividend")]
        if not options:
            return None
        kind_ = "payout" if "payout" in options and rng.random() < 0.8 else rng.choice(options)
        return A.Dividend(entity=e, entity_type=et, kind=kind_)
    if kind == "buy_train":
        return _buy_train(game, rng, e, et)
    if kind == "discard_train":
        c = _pick(rng, choices_for(game, e, "discard_train"))
        return A.DiscardTrain(entity=e, entity_type=et, train=c.value) if c else None
    if kind in ("take_loan", "payoff_loan", "bankrupt"):
        cls = {"take_loan": A.TakeLoan, "payoff_loan": A.PayoffLoan, "bankrupt": A.Bankrupt}[kind]
        return cls(entity=e, entity_type=et)
    if kind == "merge":
        return A.Merge(entity=e, entity_type=et, corporation=e)
    if kind == "borrow_train":
        for s in game.round.steps:
            if hasattr(s, "borrowable") and s.borrowable():
                return A.BorrowTrain(entity=e, entity_type=et, train=s.borrowable()[0])
        return None
    if kind == "buy_company":
        c = _pick(rng, choices_for(game, e, "buy_company"))
        if c is None:
            return None
        comp = game.companies[c.value]
        lo = game.company_min_price(comp)
        hi = min(game.company_max_price(comp), game.corporations[e].cash)
        return A.BuyCompany(entity=e, entity_type=et, company=c.value, price=rng.randint(lo, hi)) if hi >= lo else None
    if kind == "special_buy":
        items = game.special_buys(game.corporations[e])
        return A.SpecialBuy(entity=e, entity_type=et, description=items[0], cost=game.right_cost) if items else None
    return None


def _buy_train(game: Game, rng: random.Random, e: str, et: str) -> A.Action | None:
    corp = game.corporations[e]
    options = choices_for(game, e, "buy_train")
    if not options:
        return None
    from_bank = [c for c in options if game.trains[c.value].owner not in game.corporations]
    c = rng.choice(from_bank) if from_bank and rng.random() < 0.9 else rng.choice(options)
    train = game.trains[c.value]
    if train.owner in game.corporations:
        return A.BuyTrain(entity=e, entity_type=et, train=train.id, price=min(train.price, max(1, corp.cash)))
    if "trading in" in c.label:
        for t, price in game.exchange_options(corp):
            if t.id == train.id:
                own = next(o for o in game.corp_trains(e) if t.discount and o.name in t.discount)
                return A.BuyTrain(entity=e, entity_type=et, train=train.id, price=price, exchange=own.id)
    return A.BuyTrain(entity=e, entity_type=et, train=train.id, price=train.price)


# ---------------------------------------------------------------------- games


def play_one(title: str, players: int, seed: int, options: list[str], max_actions: int,
             router: Any = "default", *, choose: Any = None, invariants: Any = None,
             game_out: list[Game] | None = None) -> GameReport:
    """One random game; trains run the optimizer's best routes unless another router is given.

    A title may add its own moves (``choose(game, rng, router)`` returning an action or None to
    fall back to the shared player) and its own checks (``invariants(game)``)."""
    if router == "default":
        router = _default_router()
    rng = random.Random(seed)
    names = [(str(i + 1), f"Player {i + 1}") for i in range(players)]
    game = new_game(title, names, options, seed)
    if game_out is not None:
        game_out.append(game)
    report = GameReport(seed=seed, players=players)
    while not game.finished and report.actions < max_actions:
        action = (choose(game, rng, router) if choose else None) or random_action(game, rng, router)
        if action is None:
            report.problem = f"no legal action for {game.acting()} in {game.round.name}"
            break
        try:
            game.process(action, safe=False)
        except GameError as exc:
            report.problem = f"offered action rejected: {action.describe()}: {exc}"
            break
        report.actions += 1
        report.phases.add(game.phase["name"])
        if action.type in ("takeover", "accept_takeover"):
            report.takeovers += 1
        problem = (invariants or check_invariants)(game)
        if problem:
            report.problem = f"after {action.describe()}: {problem}"
            break
    report.finished = game.finished
    report.end_reason = game.end_reason
    report.national_formed = bool(getattr(game, "national_formed", False))
    report.bankrupt = any(p.bankrupt for p in game.players)
    if not game.finished and report.problem is None:
        report.problem = f"did not end within {max_actions} actions"
    return report


def _default_router() -> Any:
    try:
        from .router import best_routes
    except ImportError:
        return None

    def route(game: Game, corp: str) -> list[dict[str, Any]]:
        return list(best_routes(game, corp, time_budget=5.0).routes)

    return route


def run_selfplay(title: str, players: int, games: int, seed: int, options: list[str], *,
                 max_actions: int = 20000, verbose: bool = False) -> int:
    from .titles.registry import canonical_title

    router = _default_router()
    t0 = time.perf_counter()
    reports = []
    for i in range(games):
        n = players if players > 0 else 0
        if canonical_title(title) == "1833NE":
            # 1833NE adds its own moves (issue/redeem, train sides, takeovers) to the random player
            from .titles.g1833ne_selfplay import play_one as play_1833ne

            r = play_1833ne(n, seed + i, options, max_actions)
        else:
            r = play_one(title, n, seed + i, options, max_actions, router)
        reports.append(r)
        if verbose or r.problem:
            print(f"game {i + 1} seed {r.seed}: {r.actions} actions, end={r.end_reason}, "
                  f"phases={sorted(r.phases)}, national={r.national_formed}" + (f"  PROBLEM: {r.problem}" if r.problem else ""))
    bad = [r for r in reports if r.problem]
    elapsed = time.perf_counter() - t0
    ends: dict[str, int] = {}
    for r in reports:
        ends[r.end_reason or "unfinished"] = ends.get(r.end_reason or "unfinished", 0) + 1
    ended = ", ".join(f"{n} {why}" for why, n in sorted(ends.items(), key=lambda kv: -kv[1]))
    print(f"selfplay {title}: {len(reports)} games, {len(reports) - len(bad)} ended cleanly (end: {ended}), "
          + "".join(f"{fact}, " for fact in title_facts(title, options, reports))
          + f"{sum(r.actions for r in reports)} actions in {elapsed:.1f} s")
    return 1 if bad else 0


def title_facts(title: str, options: list[str], reports: list[GameReport]) -> list[str]:
    """Counts worth printing for this title (a title's self-play module may supply them as
    ``summary_facts``); the default suits the 1856 family."""
    from .titles.registry import canonical_title

    if canonical_title(title) == "1833NE":
        from .titles.g1833ne_selfplay import summary_facts

        return summary_facts(options, reports)
    return [f"{sum(r.national_formed for r in reports)} formed the national",
            f"{sum(1 for r in reports if '5' in r.phases)} reached phase 5"]
