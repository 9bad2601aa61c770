"""Game-action commands (``/par``, ``/lay``, ...): their parameters, who acts, and building actions.

Each :class:`ActionCommand` names the engine action type it makes and its parameters; a
parameter with ``choice_key`` gets autocomplete from :func:`engine.decisions.choices_for`,
given the parameters before it (``partial``). Nothing here touches Discord or the store.
Each command's action is built by its function in :mod:`bot.action_builders`; reading options is
:mod:`bot.action_params`, tile lays in words :mod:`bot.lay_text`, and who acts with a command
:mod:`bot.acting`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import actions as A
from engine.game import Game

from . import action_builders as build
from .reply import UserError


@dataclass(frozen=True)
class Param:
    name: str
    description: str
    required: bool = True
    number: bool = False
    choice_key: str | None = None  # key in engine.decisions' ``partial`` (None: no autocomplete)


Builder = Callable[[Game, str, dict[str, str]], A.Action]


@dataclass(frozen=True)
class ActionCommand:
    name: str
    action_type: str
    help: str
    params: tuple[Param, ...]
    build: Builder
    entity_kind: str | None = None  # "player" / "corporation": only such entities may use it
    any_time: bool = False  # a player's standing order, allowed out of turn (auto-pass, auto-buy)


# ---------------------------------------------------------------------- parameter helpers
_ENTITY = Param("entity", "act for this corporation or private (only if you control several)", required=False)

ACTION_COMMANDS: dict[str, ActionCommand] = {
    c.name: c
    for c in (
        ActionCommand(
            "bid",
            "bid",
            "bid for (or buy) a private company",
            (
                Param("company", "private company", choice_key="company"),
                Param("price", "your bid", number=True, choice_key="bid_price"),
            ),
            build.bid,
        ),
        ActionCommand(
            "par",
            "par",
            "start a corporation at a par price",
            (
                Param("corporation", "corporation to start", choice_key="corporation"),
                Param("price", "par price", choice_key="price"),
                Param("home", "home city (1833NE takeover corporations)", required=False, choice_key="home"),
            ),
            build.par,
        ),
        ActionCommand(
            "buy",
            "buy_shares",
            "buy a share",
            (Param("share", "share to buy (or a corporation)", choice_key="share"),),
            build.buy,
            "player",
        ),
        ActionCommand(
            "sell",
            "sell_shares",
            "sell shares",
            (
                Param("shares", "shares to sell", required=False, choice_key="shares"),
                Param("corporation", "or: corporation", required=False),
                Param("percent", "and percent", required=False, number=True),
            ),
            build.sell,
            "player",
        ),
        ActionCommand("pass", "pass", "pass (or finish your turn / this step)", (), build.pass_),
        ActionCommand(
            "lay",
            "lay_tile",
            "lay or upgrade a tile",
            (
                Param("hex", "hex", choice_key="hex"),
                Param("tile", "tile", choice_key="tile"),
                Param("rotation", "rotation 0-5", required=False, number=True, choice_key="rotation"),
            ),
            build.lay,
        ),
        ActionCommand(
            "token",
            "place_token",
            "place a station token",
            (
                Param("city", "city (or hex)", choice_key="city"),
                Param("slot", "slot", required=False, number=True, choice_key="slot"),
            ),
            build.token,
        ),
        ActionCommand(
            "routes",
            "run_routes",
            "run trains",
            (
                Param(
                    "routes",
                    'routes like "2-0: F15-F17; 3-1: C14-D13-B13", or auto, or none',
                    required=False,
                    choice_key="routes",
                ),
            ),
            build.routes,
        ),
        ActionCommand(
            "dividend",
            "dividend",
            "pay out or withhold",
            (Param("kind", "payout or withhold", choice_key="kind"),),
            build.dividend,
        ),
        ActionCommand(
            "train",
            "buy_train",
            "buy a train",
            (
                Param("train", "train", choice_key="train"),
                Param("variant", "side of a two-sided card (1833NE)", required=False, choice_key="variant"),
                Param("price", "price (for a train from another corporation)", required=False, number=True),
                Param("exchange", "train to trade in", required=False),
            ),
            build.train,
        ),
        ActionCommand(
            "discard",
            "discard_train",
            "discard a train over the limit",
            (Param("train", "train", choice_key="train"),),
            build.discard,
        ),
        ActionCommand(
            "borrow",
            "borrow_train",
            "the national borrows a train for this run",
            (Param("train", "train", choice_key="train"),),
            build.borrow,
        ),
        ActionCommand(
            "remove",
            "remove_token",
            "the national removes one of its stations",
            (Param("city", "station to remove", choice_key="city"),),
            build.remove,
        ),
        ActionCommand("loan", "take_loan", "take a loan", (), build.loan),
        ActionCommand("repay", "payoff_loan", "pay off a loan", (), build.repay),
        ActionCommand(
            "private",
            "buy_company",
            "buy a private company from a player",
            (Param("company", "private company", choice_key="company"), Param("price", "price", number=True)),
            build.private,
        ),
        ActionCommand(
            "assign",
            "assign",
            "place a private's marker (port)",
            (Param("target", "hex", choice_key="target"),),
            build.assign,
        ),
        ActionCommand(
            "right",
            "special_buy",
            "buy a right (1856 tunnel/bridge) or a ferry (1833NE)",
            (
                Param("right", "which right or ferry", choice_key="right"),
                Param("cost", "cost", required=False, number=True),
            ),
            build.right,
        ),
        ActionCommand(
            "issue",
            "sell_shares",
            "issue treasury shares",
            (Param("shares", "shares to issue", choice_key="issue"),),
            build.issue,
            "corporation",
        ),
        ActionCommand(
            "redeem",
            "buy_shares",
            "redeem a share",
            (Param("share", "share to redeem", choice_key="redeem"),),
            build.redeem,
            "corporation",
        ),
        ActionCommand(
            "merge",
            "merge",
            "merge into the national (1856)",
            (Param("corporation", "corporation", required=False, choice_key="merge"),),
            build.merge,
        ),
        ActionCommand(
            "takeover",
            "takeover",
            "take over another corporation (1833NE)",
            (
                Param("corporation", "corporation", choice_key="corporation"),
                Param(
                    "shares",
                    "own treasury shares to pay with",
                    required=False,
                    number=True,
                    choice_key="shares",
                ),
            ),
            build.takeover,
            "corporation",
        ),
        ActionCommand(
            "accept",
            "accept_takeover",
            "accept the takeover offered (/pass refuses)",
            (),
            build.accept,
            "corporation",
        ),
        ActionCommand("bankrupt", "bankrupt", "declare bankruptcy", (), build.bankrupt),
        ActionCommand(
            "autopass",
            "program_share_pass",
            "pass automatically in stock rounds",
            (
                Param("unconditional", "even if others act (yes/no)", required=False),
                Param("indefinite", "in later stock rounds too (yes/no)", required=False),
            ),
            build.autopass,
            "player",
            any_time=True,
        ),
        ActionCommand(
            "autobuy",
            "program_buy_shares",
            "buy shares automatically",
            (
                Param("corporation", "corporation", choice_key="autobuy"),
                Param("until", "percent to reach, or float", choice_key="until"),
                Param("from_market", "also from the market (yes/no)", required=False),
                Param("auto_pass_after", "pass after (yes/no)", required=False),
            ),
            build.autobuy,
            "player",
            any_time=True,
        ),
        ActionCommand(
            "autostop",
            "program_disable",
            "cancel your automatic stock-round moves",
            (),
            build.autostop,
            "player",
            any_time=True,
        ),
    )
}

EXAMPLES: dict[str, str] = {
    "bid": "/bid company:GLSC price:75",
    "par": "/par corporation:GW price:70",
    "buy": "/buy share:GW",
    "sell": "/sell corporation:GW percent:20",
    "pass": "/pass",
    "lay": "/lay hex:F17 tile:57 rotation:2",
    "token": "/token city:F17",
    "routes": '/routes routes:auto (or routes:"2-0: F15-F17")',
    "dividend": "/dividend kind:payout",
    "train": "/train train:3",
    "discard": "/discard train:2-0",
    "borrow": "/borrow train:5-0",
    "remove": "/remove city:57-0-0",
    "loan": "/loan",
    "repay": "/repay",
    "private": "/private company:GLSC price:100",
    "assign": "/assign target:H17",
    "right": "/right right:tunnel",
    "issue": "/issue shares:GW_5",
    "redeem": "/redeem share:GW_5",
    "merge": "/merge",
    "takeover": "/takeover corporation:B&L shares:1",
    "accept": "/accept",
    "bankrupt": "/bankrupt",
    "autopass": "/autopass indefinite:yes",
    "autobuy": "/autobuy corporation:GW until:float",
    "autostop": "/autostop",
}


def build_action(cmd: ActionCommand, game: Game, entity: str, params: dict[str, str]) -> A.Action:
    """The action ``cmd`` makes from ``params``; a missing option is refused with its format."""
    for p in cmd.params:
        if p.required and not (params.get(p.name) or "").strip():
            hint = f"; /help {cmd.name} shows what you can choose now" if p.choice_key else ""
            raise UserError(
                f"Give {p.name}: ({p.description}), for example {EXAMPLES.get(cmd.name, '/' + cmd.name)}"
                + hint
            )
    return cmd.build(game, entity, params)


COMMAND_FOR_TYPE: dict[str, str] = {}
for _c in ACTION_COMMANDS.values():
    COMMAND_FOR_TYPE.setdefault(_c.action_type, _c.name)

ENTITY_PARAM = _ENTITY


# ---------------------------------------------------------------------- who acts


def allowed_commands(game: Game, entity: str) -> list[str]:
    return [f"/{COMMAND_FOR_TYPE.get(t, t)}" for t in game.action_types(entity)]
