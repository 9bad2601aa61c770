"""Game actions as the bot types them: the engine's move table (:mod:`engine.moves`, one
definition per action type) seen from the commands: building an action from typed options
(a missing option is refused with the command's example) and the commands an entity may use now.
"""

from __future__ import annotations

from engine import actions as A
from engine.decisions import action_types
from engine.errors import BAD_OPTION, GameError
from engine.game import Game
from engine.moves import MOVES, Move, command_for, option_choices
from engine.moves.operating import train_id

__all__ = ["MOVES", "Move", "allowed_commands", "build_action", "in_trouble"]

# the entity option every game action has (act for a corporation or private you control)
ENTITY_OPTION = ("entity", "act for this corporation or private (only if you control several)")


def build_action(move: Move, game: Game, entity: str, params: dict[str, str]) -> A.Action:
    """The action ``move`` makes from ``params``; a missing option is refused with its format."""
    for o in move.options:
        if o.required and not (params.get(o.name) or "").strip():
            hint = f"; /help {move.command} shows what you can choose now" if o.choices else ""
            raise GameError(f"Give {o.name}: ({o.description}), for example {move.example}" + hint,
                            BAD_OPTION, option=o.name)
    if move.action_type == "buy_train":
        _check_side(move, game, entity, params)
    return move.build(game, entity, params)


def _check_side(move: Move, game: Game, entity: str, params: dict[str, str]) -> None:
    """1833NE's two-sided cards: a card the corporation could buy as either side is bought as the
    side named (``variant:``) or the one whose price is given; naming neither is refused, listing
    the sides, rather than buying the card's first side."""
    if (params.get("variant") or "").strip() or (params.get("exchange") or "").strip():
        return
    tid = train_id(game, (params.get("train") or "").strip(), entity)
    train = game.trains[tid]
    sides = game.train_variants(train)
    if len(sides) < 2:
        return
    buyable = {c.value for c in option_choices(game, entity, move, "variant", {"train": tid})}
    offered = [(name, price) for name, price in sides if name in buyable]
    if len(offered) < 2:
        return  # at most one side it can pay for: the engine buys it or says why not
    raw = (params.get("price") or "").strip().replace("$", "")
    if raw.isdigit() and sum(price == int(raw) for _, price in sides) == 1:
        return  # the price names the side
    named = " or ".join(f"variant:{name} ({game.fmt(price)})" for name, price in offered)
    count = {2: "two", 3: "three"}.get(len(offered), str(len(offered)))
    raise GameError(f"{tid} has {count} sides: {named}; say which, for example /train train:{tid} "
                    f"variant:{offered[0][0]}. Nothing was bought.", BAD_OPTION, option="variant")


def allowed_commands(game: Game, entity: str) -> list[str]:
    """The commands ``entity`` may use now. Bankruptcy (open all through an 1856 operating
    round) is named only in trouble, last: when money must be found or nothing else is left."""
    types = sorted(action_types(game, entity), key=lambda t: t == "bankrupt")
    if "bankrupt" in types and len(types) > 1 and not in_trouble(game, entity):
        types.remove("bankrupt")
    return [f"/{command_for(game, entity, t)}" for t in types]


def in_trouble(game: Game, entity: str) -> bool:
    """A player in a cash crisis, or a corporation that must buy a train it cannot pay for."""
    corp = game.corporations.get(entity)
    if corp is not None:
        return game.must_buy_train(corp) and game.needs_emergency_money(corp)
    return game.cash_crisis_player == entity
