"""Random legal play for 1833NE: the shared random player plus the title's own moves
(issuing and redeeming shares, train sides, takeovers, takeover-corporation starts) and
1833NE invariants.  ``engine.selfplay`` can call :func:`title_action` for kinds it does not
build and :func:`title_invariants` after its own checks."""

from __future__ import annotations

import random
from typing import Any

from ... import actions as A
from ...entities import POOL
from ...game import Game
from ...rounds.operating import OperatingRound
from ...rounds.stock import StockRound
from ...selfplay import GameReport, check_invariants
from .game import G1833NE
from .takeover import AcceptTakeover, Takeover, TakeoverRound, takeover_share_options, variable_homes


def title_action(game: G1833NE, rng: random.Random, entity: str, types: list[str]) -> A.Action | None:
    """A random 1833NE-specific action for ``entity`` now, or None (then play as usual)."""
    rnd = game.round
    if isinstance(rnd, TakeoverRound):
        if "accept_takeover" in types:
            return (
                AcceptTakeover(entity=entity, entity_type="corporation")
                if rng.random() < 0.5
                else A.Pass(entity=entity, entity_type="corporation")
            )
        targets = rnd.targets()
        if targets and rng.random() < 0.6:
            target = rng.choice(targets)
            # any affordable split between own treasury shares and cash
            shares = rng.choice(takeover_share_options(game, game.corporations[entity], target))
            return Takeover(entity=entity, entity_type="corporation", corporation=target.sym, shares=shares)
        return A.Pass(entity=entity, entity_type="corporation")
    if (
        isinstance(rnd, StockRound)
        and "par" in types
        and not any(c.ipoed and not c.closed for c in game.corporations.values())
        and rng.random() < 0.9
    ):
        # no corporation operates: start one when the money allows (else the game cannot go on)
        cash = game.player(entity).cash
        options = [
            (c, cell)
            for c in game.corporations.values()
            if game.can_par(entity, c)
            for cell in game.par_prices(c)
            if cell.price * 2 <= cash
        ]
        if options:
            corp, cell = rng.choice(options)
            return A.Par(
                entity=entity,
                entity_type="player",
                corporation=corp.sym,
                share_price=f"{cell.price},{cell.row},{cell.col}",
            )
    if isinstance(rnd, StockRound) and "par" in types and rng.random() < 0.3:
        free = [c for c in game.corporations.values() if c.home is None and game.can_par(entity, c)]
        cash = game.player(entity).cash
        if free:
            corp = rng.choice(free)
            homes = variable_homes(game, corp)
            cheap = any(h[2] < 120 for h in homes)
            prices = [c for c in game.market.par_prices if c.price * 6 <= cash and (cheap or c.price >= 60)]
            if prices:
                cell = rng.choice(prices)
                return A.Par(
                    entity=entity,
                    entity_type="player",
                    corporation=corp.sym,
                    share_price=f"{cell.price},{cell.row},{cell.col}",
                )
    if isinstance(rnd, OperatingRound) and entity in game.corporations:
        corp = game.corporations[entity]
        bundles = game.emergency_issue_bundles(rnd, corp) if "sell_shares" in types else []
        if bundles and ("buy_train" not in types or rng.random() < 0.5):
            n = rng.choice(bundles)[0]  # the president picks the bundle (emergency issue)
            ids = tuple(s.id for s in game.ipo_shares(entity) if not s.president)[:n]
            return A.SellShares(entity=entity, entity_type="corporation", shares=ids)
        if "sell_shares" in types and not bundles and rng.random() < 0.15:
            opts = game.issue_options(corp)
            if opts:
                n = rng.choice(opts)[0]
                ids = tuple(s.id for s in game.ipo_shares(entity) if not s.president)[:n]
                return A.SellShares(entity=entity, entity_type="corporation", shares=ids)
        if "buy_shares" in types and rng.random() < 0.3:
            opts = game.redeem_options(corp)
            if opts:
                n = rng.choice(opts)[0]
                ids = tuple(s.id for s in game.pool_shares(entity))[:n]
                return A.BuyShares(entity=entity, entity_type="corporation", shares=ids)
        emergency = game.must_buy_train(corp) and game.needs_emergency_money(corp)
        issued = bool(rnd.state.get("emergency_issued"))
        # in an emergency the train side matters (the president helps only for the cheapest)
        if "buy_train" in types and (emergency or issued or rng.random() < 0.5):
            t = game.cheapest_depot_train(corp)
            if t is not None and game.room(corp):
                budget = corp.cash
                if emergency and corp.president:
                    budget += game.player(corp.president).cash
                floor = game.emergency_side_floor(rnd, corp, t)  # after an emergency issue
                sides = [s for s in game.sides[t.id] if floor <= s.price <= budget]
                if sides:
                    side = rng.choice(sides)
                    return A.BuyTrain(
                        entity=entity,
                        entity_type="corporation",
                        train=t.id,
                        price=side.price,
                        variant=side.name,
                    )
    return None


def title_invariants(game: G1833NE) -> str | None:
    """1833NE checks on top of the shared ones."""
    for c in game.corporations.values():
        pres = next(s for s in game.corp_shares(c.sym) if s.president)
        if (
            c.ipoed
            and not c.closed
            and pres.owner != c.president
            and not (pres.owner == POOL and c.president is None)
        ):
            return f"{c.sym}'s president {c.president} does not hold the certificate ({pres.owner})"
        if sum(1 for t in c.tokens if t.used) > len(c.tokens):
            return f"{c.sym} has too many stations"
        if any(t in game.obsolete and game.trains[t].owner != c.sym for t in c.trains):
            return f"{c.sym} lists a train it does not own"
        if c.ipoed and not c.closed and c.price is None:
            return f"{c.sym} has no price"
        if c.closed and (c.trains or c.cash):
            return f"closed {c.sym} still has trains or cash"
    for p in game.players:
        for c in game.corporations.values():
            if game.percent_of(p.id, c.sym) > game.HOLDING_LIMIT:
                return f"{p.name} holds {game.percent_of(p.id, c.sym)}% of {c.sym}"
    return None


def invariants(game: G1833NE) -> str | None:
    limit = game.MARKET_SHARE_LIMIT
    if game.pool_overflow:
        game.MARKET_SHARE_LIMIT = 100  # a bankruptcy may put more than 50% in the market
    try:
        return check_invariants(game) or title_invariants(game)
    finally:
        game.MARKET_SHARE_LIMIT = limit


def router(game: G1833NE, corp: str) -> list[dict[str, Any]]:
    """The random player's routes: the best found, budgeted in work (the same on any machine)."""
    return game.best_routes(corp, time_budget=0.3, deterministic=True)


def choose(game: G1833NE, rng: random.Random, _router: Any) -> A.Action | None:
    acting = game.acting()
    if not acting:
        return None
    return title_action(game, rng, acting[0], game.action_types(acting[0]))


def play_one(
    players: int,
    seed: int,
    options: list[str] | None = None,
    max_actions: int = 20000,
    game_out: list[Game] | None = None,
) -> GameReport:
    """One random 1833NE game: the shared random player with 1833NE's own moves and checks."""
    from ...selfplay import play_one as shared_play_one

    return shared_play_one(
        "1833NE",
        players,
        seed,
        options or [],
        max_actions,
        router,
        choose=choose,
        invariants=invariants,
        game_out=game_out,
    )


def summary_facts(options: list[str], reports: list[GameReport]) -> list[str]:
    """What the self-play summary line counts for 1833NE (no national; a bankruptcy only
    ends the game when one player is left)."""
    out = [
        f"{sum(r.bankrupt for r in reports)} with a player bankrupt",
        f"{sum(1 for r in reports if 'V' in r.phases)} reached phase V",
    ]
    if "takeover_game" in options:
        out.append(f"{sum(r.takeovers for r in reports)} takeovers")
    return out
