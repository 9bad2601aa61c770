"""The automatic seat of a player who conceded: "always pass / minimum legal action".

The engine has no voluntary exit (in the 1856 family ``bankrupt`` is only legal in a cash crisis
and ends the game for everyone), so a conceding player's seat keeps playing by these rules:
pass whenever passing is legal; otherwise the least consequential legal move: withhold
dividends (nothing flows to the conceded player), run the suggested routes (or none), buy the
cheapest train when one must be bought, discard the cheapest train over the limit. Anything
else falls back to a seeded legal move (the engine's self-play chooser), so play never stalls.
The moves are ordinary logged actions, so replays and exports see them like any other.
"""

from __future__ import annotations

import random

from engine import actions as A
from engine.game import Game


def _etype(game: Game, entity: str) -> str:
    if entity in game.player_by_id:
        return "player"
    return "corporation" if entity in game.corporations else "company"


def robot_action(game: Game, entity: str, seed: int = 0) -> A.Action | None:
    """The move the automatic seat makes for ``entity`` (one it controls that must act now)."""
    from engine.decisions import suggest_routes
    from engine.moves import choices_for

    types = game.action_types(entity)
    et = _etype(game, entity)
    if not types:
        return None
    if "pass" in types:
        return A.Pass(entity=entity, entity_type=et)
    if "dividend" in types:
        kinds = [c.value for c in choices_for(game, entity, "dividend")]
        if kinds:
            return A.Dividend(entity=entity, entity_type=et, kind="withhold" if "withhold" in kinds else kinds[0])
    if "run_routes" in types:
        try:
            routes = list(suggest_routes(game, entity, time_budget=0.5) or [])
        except Exception:  # the router is best effort; no routes is always a legal run
            routes = []
        return A.RunRoutes(entity=entity, entity_type=et, routes=tuple(routes))
    if "discard_train" in types:
        options = choices_for(game, entity, "discard_train")
        if options:
            cheapest = min(options, key=lambda c: game.trains[c.value].price)
            return A.DiscardTrain(entity=entity, entity_type=et, train=cheapest.value)
    if "buy_train" in types:
        options = [c for c in choices_for(game, entity, "buy_train")
                   if game.trains[c.value].owner not in game.corporations and "trading in" not in c.label]
        if options:
            t = game.trains[min(options, key=lambda c: game.trains[c.value].price).value]
            # a two-sided card (1833NE): the cheapest side it may buy; else the train's price
            prices = dict(game.train_variants(t))
            sides = [c.value for c in choices_for(game, entity, "buy_train", {"train": t.id})]
            side = min(sides, key=lambda v: prices[v]) if sides else None
            return A.BuyTrain(entity=entity, entity_type=et, train=t.id, price=prices[side] if side else t.price,
                              variant=side)
    from engine.selfplay import random_action

    return random_action(game, random.Random(seed))


def robot_entity(game: Game, conceded: set[str]) -> str | None:
    """The acting entity whose decision belongs to a conceded player, if any."""
    for e in game.acting():
        if game.controller_of(e) in conceded:
            return e
    return None
