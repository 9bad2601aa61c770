"""Why a step was skipped: the one line told when the bot passes for an entity that can do nothing
else (:func:`engine.moves.only_pass`), with the numbers that decided it: "GW cannot buy a train
($40 in treasury, cheapest $180): step skipped"; and the line told when it discards a train for a
corporation that has nothing to choose (:func:`engine.moves.forced_discard`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import actions as A
from engine.decisions import round_title
from engine.entities import Corporation
from engine.game import Game
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import AuctionRound, StockRound


def forced_line(game: Game, action: A.DiscardTrain) -> str:
    """Told for the discard the bot makes when nothing is left to choose
    (:func:`engine.moves.forced_discard`; the game as it is before it)."""
    kind = game.trains[action.train].name
    return (f"⏭ {game.name_of(action.entity)} discards a {kind}-train: it must, and every train it may "
            f"discard is a {kind}-train")


def skipped_line(game: Game, entity: str) -> str:
    """Told before the bot's pass for ``entity`` (the game as it is before the pass)."""
    rnd = game.round
    name = game.name_of(entity)
    corp = game.corporations.get(entity)
    if isinstance(rnd, OperatingRound) and corp is not None:
        step = rnd.active_step()
        what = step.name if step is not None else "operate"
        reason = _STEP_REASONS.get(what)
        return f"⏭ {name} {reason(game, corp) if reason else 'cannot ' + what}: step skipped"
    if isinstance(rnd, AuctionRound):
        return f"⏭ {name} cannot bid ({game.fmt(game.player(entity).cash)} cash): passes"
    if isinstance(rnd, StockRound):
        return f"⏭ {name} can neither buy nor sell a share ({game.fmt(game.player(entity).cash)} cash): passes"
    return f"⏭ {name} has nothing to do in the {round_title(game)}: passes"


def _cash(game: Game, corp: Corporation) -> str:
    return f"{game.fmt(corp.cash)} in treasury"


def _train(game: Game, corp: Corporation) -> str:
    if not game.room(corp):
        return "cannot buy a train (it has as many as it may own)"
    cheapest = game.cheapest_depot_train(corp)
    if cheapest is None:
        return "cannot buy a train (none is for sale to it)"
    return f"cannot buy a train ({_cash(game, corp)}, cheapest {game.fmt(cheapest.price)})"


def _private(game: Game, corp: Corporation) -> str:
    prices = [game.company_min_price(c) for c in game.purchasable_companies()]
    if not prices:
        return "cannot buy a private (none is for sale)"
    return f"cannot buy a private ({_cash(game, corp)}, cheapest {game.fmt(min(prices))})"


def _token(game: Game, corp: Corporation) -> str:
    costs = [game.token_cost(corp, hid) or 0 for hid, _ in game.tokenable_cities(corp)]
    if not costs:
        return "cannot place a station (no city it reaches has room)"
    return f"cannot place a station ({_cash(game, corp)}, a station costs {game.fmt(min(costs))})"


_STEP_REASONS: dict[str, Callable[[Game, Corporation], str]] = {
    "buy trains": _train,
    "buy private companies": _private,
    "place a token": _token,
    "lay track": lambda g, c: "has no tile it can lay",
    "take or repay loans": lambda g, c: "can neither take nor repay a loan",
}
