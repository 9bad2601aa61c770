"""Random legal play with invariant checks after every action: the random player, games played by
seat policies (random, or the computer player), and their reports (the ``conductor selfplay``
command that prints them is :mod:`bot.tools.selfplay`).

Every action is drawn from the move table's choices (:mod:`engine.moves`), so a rejected action means the
choices and the rules disagree; that counts as a failure, like a broken invariant.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .decisions import deciders
from .entities import POOL
from .errors import GameError
from .game import Game
from .moves import choices_for, sample_action
from .rounds.operating import OperatingRound
from .rounds.stock import StockRound
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
    closed: int = 0  # corporations closed by the end
    counts: Counter[str] = field(default_factory=Counter)  # actions by kind (see tally_kind)
    seats: list[str] = field(default_factory=list)  # each seat's policy (seated games only)
    values: list[int] = field(default_factory=list)  # each seat's final value (seated games only)
    slowest: float = 0.0  # the computer player's slowest decision, in seconds
    slowest_what: str = ""  # and what it decided, where


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
        false_pres = game.false_national_president and c.sym == game.national_sym
        if pct != 100 and not false_pres:
            return f"{c.sym}'s shares sum to {pct}%"
        # the national's formation may put more than the limit in the market
        if game.percent_of(POOL, c.sym) > game.MARKET_SHARE_LIMIT and c.sym != game.national_sym:
            return f"the market holds {game.percent_of(POOL, c.sym)}% of {c.sym}"
        if not c.closed and len(c.trains) > game.corp_train_limit(c) and c not in game.crowded_corps():
            return f"{c.sym} has {len(c.trains)} trains over its limit"
        for tid in c.trains:
            if game.trains[tid].owner != c.sym:
                return f"train {tid} listed on {c.sym} but owned by {game.trains[tid].owner}"
    crisis = game.cash_crisis_player
    for p in game.players:
        if p.cash < 0 and p.id != crisis and p.id not in game.crisis_debtors and not p.bankrupt:
            return f"{p.name} has negative cash {p.cash}"
    # (no standing check of the 60% holding limit: shares bought legally in the market's orange
    # zone stay held when the price later leaves it; the stock round checks each purchase)
    return None


# ---------------------------------------------------------------------- choosing


def _pick(rng: random.Random, choices: list[Any]) -> Any:
    return rng.choice(choices) if choices else None


@dataclass
class Style:
    """How one random game leans: some games sell and withhold a lot (prices fall, companies
    close, presidents go broke), others take many loans (nationalization) or keep cash."""

    sell: float = 0.3        # weight of selling in a stock round (buying is 6)
    withhold: float = 0.2    # chance that a dividend is withheld
    loan: float = 0.3        # weight of taking a loan
    keep_cash: float = 4.0   # weight of passing in the train step once two trains run
    ebuy_sell: float = 0.5   # weight of a president's sale in the train step when not forced

    @classmethod
    def draw(cls, rng: random.Random) -> Style:
        return cls(sell=rng.choice((0.3, 1.0, 3.0)), withhold=rng.choice((0.1, 0.3, 0.6)),
                   loan=rng.choice((0.3, 1.5, 4.0)), keep_cash=rng.choice((1.0, 4.0)),
                   ebuy_sell=rng.choice((0.2, 1.0)))


WEIGHTS = {"pass": 1, "bid": 6, "par": 3, "buy_shares": 6, "lay_tile": 8, "place_token": 3,
           "run_routes": 20, "dividend": 20, "buy_train": 8, "payoff_loan": 2, "buy_company": 0.5,
           "discard_train": 20, "borrow_train": 20, "merge": 3, "special_buy": 0.5, "remove_token": 20,
           "assign": 1}


def random_action(game: Game, rng: random.Random, router: Any = None, style: Style | None = None) -> A.Action | None:
    """A random legal action for whoever is to act.  Bankruptcy only when nothing else can be
    done (the random player never gives up a game it could go on with)."""
    acting = game.acting()
    if not acting:
        return None
    style = style or Style()
    options: list[tuple[float, str, str]] = []
    last_resort: list[tuple[str, str]] = []
    for entity in deciders(game, acting[0]):
        for kind in game.action_types(entity):
            if kind == "bankrupt":
                last_resort.append((entity, kind))
                continue
            options.append((rng.random() * _weight(game, style, acting[0], entity, kind), entity, kind))
    for _, entity, kind in sorted(options, key=lambda o: -o[0]):
        etype = "player" if entity in game.player_by_id else \
            "company" if entity in game.companies else "corporation"
        action = _build(game, rng, entity, etype, kind, router, style)
        if action is not None:
            return action
    if last_resort:
        entity = last_resort[0][0]
        return A.Bankrupt(entity=entity, entity_type="player" if entity in game.player_by_id else "corporation")
    return None


def _weight(game: Game, style: Style, acting: str, entity: str, kind: str) -> float:
    if kind == "sell_shares":
        if entity != acting:  # a president's sale in the train step
            corp = game.corporations[acting]
            forced = game.must_buy_train(corp)
            return 20 if forced else style.ebuy_sell
        return style.sell if isinstance(game.round, StockRound) else 20
    if kind == "take_loan":
        return style.loan
    if kind == "pass" and entity in game.corporations and "buy_train" in game.action_types(entity):
        # a company that already runs trains often keeps its money
        if len(game.corporations[entity].trains) >= 2:
            return style.keep_cash
    if entity in game.companies:
        return 2
    return WEIGHTS.get(kind, 1)


def _build(game: Game, rng: random.Random, e: str, et: str, kind: str, router: Any,
           style: Style) -> A.Action | None:
    """The random player's action of ``kind``: the move table's sample (engine.moves), except
    where the style decides (routes, dividends, the national's borrowed train)."""
    if kind == "run_routes":
        routes: list[dict[str, Any]] = []
        if router is not None:
            try:
                routes = router(game, e)
            except GameError:
                routes = []
        return A.RunRoutes(entity=e, entity_type=et, routes=tuple(routes))
    if kind == "dividend":
        kinds = [c.value for c in choices_for(game, e, "dividend")]
        if not kinds:
            return None
        kind_ = "payout" if "payout" in kinds and rng.random() >= style.withhold else rng.choice(kinds)
        return A.Dividend(entity=e, entity_type=et, kind=kind_)
    if kind == "borrow_train":
        for s in game.round.steps if isinstance(game.round, OperatingRound) else []:
            if s.borrowable():
                return A.BorrowTrain(entity=e, entity_type=et, train=s.borrowable()[0])
        return None
    return sample_action(game, rng, e, kind)


# ---------------------------------------------------------------------- games


def tally_kind(game: Game, action: A.Action) -> str:
    """The action's type, with who sold (a president for a train, a player in a cash crisis)
    and what kind of entity acted where that tells rules apart."""
    kind = action.type
    if kind == "sell_shares" and isinstance(game.round, OperatingRound):
        crisis = game.cash_crisis_player == action.entity
        return "sell_shares (cash crisis)" if crisis else "sell_shares (for a train)"
    if action.entity in game.companies and kind in ("lay_tile", "place_token", "pass"):
        return f"{kind} (private)"
    if kind == "bankrupt" and game.cash_crisis_player == action.entity:
        return "bankrupt (cash crisis)"
    if kind == "buy_train" and isinstance(action, A.BuyTrain):
        owner = game.trains[action.train].owner if action.train in game.trains else ""
        if owner in game.corporations:
            return "buy_train (from a corporation)"
        if action.exchange:
            return "buy_train (trade-in)"
    return kind


def play_one(title: str, players: int, seed: int, options: list[str], max_actions: int,
             router: Any = "default", *, choose: Any = None, invariants: Any = None,
             game_out: list[Game] | None = None) -> GameReport:
    """One random game; trains run the optimizer's best routes unless another router is given.

    A title may add its own moves (``choose(game, rng, router)`` returning an action or None to
    fall back to the shared player) and its own checks (``invariants(game)``)."""
    if router == "default":
        router = default_router()
    rng = random.Random(seed)
    names = [(str(i + 1), f"Player {i + 1}") for i in range(players)]
    game = new_game(title, names, options, seed)
    if game_out is not None:
        game_out.append(game)
    report = GameReport(seed=seed, players=players)
    # the 1856 family leans per game; a title with its own moves (1833NE) plays the plain style
    style = Style.draw(rng) if choose is None else Style()
    while not game.finished and report.actions < max_actions:
        action = (choose(game, rng, router) if choose else None) or random_action(game, rng, router, style)
        if action is None:
            report.problem = f"no legal action for {game.acting()} in {game.round.name}"
            break
        if not _play(game, action, report, invariants):
            break
    return _finish(game, report, max_actions)


def _play(game: Game, action: A.Action, report: GameReport, invariants: Any = None) -> bool:
    """Process one self-play action, count it and check the game; False when the game must stop
    (the action was refused, or an invariant broke: ``report.problem`` says which)."""
    kind = tally_kind(game, action)
    try:
        game.process(action, safe=False)
    except GameError as exc:
        report.problem = f"offered action rejected: {action.describe()}: {exc}"
        return False
    report.actions += 1
    report.counts[kind] += 1
    report.phases.add(game.phase["name"])
    if action.type in ("takeover", "accept_takeover"):
        report.takeovers += 1
    problem = (invariants or check_invariants)(game)
    if problem:
        report.problem = f"after {action.describe()}: {problem}"
        return False
    return True


def _finish(game: Game, report: GameReport, max_actions: int) -> GameReport:
    """The report of a game that stopped: how it ended, and the players' final values."""
    report.finished = game.finished
    report.end_reason = game.end_reason
    report.national_formed = bool(game.national_formed)
    report.bankrupt = any(p.bankrupt for p in game.players)
    report.closed = sum(1 for c in game.corporations.values() if c.closed)
    report.values = [game.player_value(p) for p in game.players]
    if not game.finished and report.problem is None:
        report.problem = f"did not end within {max_actions} actions"
    return report


SEAT_POLICIES = ("robot", "random")


def play_seated(title: str, seats: list[str], seed: int, options: list[str], max_actions: int,
                *, game_out: list[Game] | None = None, personalities: bool | None = None) -> GameReport:
    """One game whose seats follow the given policies (``robot``: the computer player,
    ``random``: the random legal player, with the title's own moves where it has them).

    ``personalities``: whether each robot seat plays with small leanings drawn from ``seed``
    (:class:`engine.computer.Personality`); by default only when every seat is a robot: the
    computer player is deterministic, so without them every seed would play the same game,
    while beside a random seat the seed already varies the game and the robots play as the
    bot's computer seats do."""
    from .computer import NEUTRAL, Personality, decide
    from .titles.registry import title_info

    extras = title_info(title).selfplay
    choose = getattr(extras, "choose", None) if extras is not None else None
    invariants = getattr(extras, "invariants", None) if extras is not None else None
    router = getattr(extras, "router", None) if extras is not None else None
    router = router or default_router()
    rng = random.Random(seed)
    names = [(str(i + 1), f"Player {i + 1}") for i in range(len(seats))]
    policy = {pid: seats[i] for i, (pid, _) in enumerate(names)}
    if personalities is None:
        personalities = all(s == "robot" for s in seats)
    persona = {pid: Personality.draw(seed, i) if personalities else NEUTRAL for i, (pid, _) in enumerate(names)}
    game = new_game(title, names, options, seed)
    if game_out is not None:
        game_out.append(game)
    report = GameReport(seed=seed, players=len(seats), seats=list(seats))
    style = Style.draw(rng) if choose is None else Style()
    while not game.finished and report.actions < max_actions:
        acting = game.acting()
        who = game.controller_of(acting[0]) if acting else None
        action: A.Action | None
        if who is not None and policy.get(who) == "robot":
            t0 = time.perf_counter()
            decision = decide(game, acting[0], seed=seed * 100_003 + report.actions, personality=persona[who])
            took = time.perf_counter() - t0
            action = decision.action if decision else None
            if took > report.slowest:
                report.slowest = took
                report.slowest_what = f"{action.type if action else 'nothing'} at action {report.actions + 1}"
        else:
            action = (choose(game, rng, router) if choose else None) or random_action(game, rng, router, style)
        if action is None:
            report.problem = f"no legal action for {game.acting()} in {game.round.name}"
            break
        if isinstance(action, A.BuyTrain) and action.train in game.trains:
            seller = game.corporations.get(game.trains[action.train].owner)
            if seller is not None and policy.get(seller.president or "") == "robot" and \
                    policy.get(game.controller_of(action.entity) or "") != "robot":
                report.counts["train bought away from a robot"] += 1
        if not _play(game, action, report, invariants):
            break
    return _finish(game, report, max_actions)


def default_router() -> Any:
    try:
        from .routing.router import best_routes
    except ImportError:
        return None

    def route(game: Game, corp: str) -> list[dict[str, Any]]:
        return list(best_routes(game, corp, time_budget=5.0, deterministic=True).routes)

    return route


