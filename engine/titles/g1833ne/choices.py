"""1833NE's own choices for autocomplete, buttons and the random player (takeover game): the
home city of a corporation without one, and the takeover's target and payment."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...choice import Choice, ChoiceHandler, TitleChoiceHandler
from . import takeover as T

if TYPE_CHECKING:
    from ...game import Game
    from .game import G1833NE


def par(game: Game, entity: str, partial: dict[str, str], general: ChoiceHandler) -> list[Choice]:
    """After the start price: the free cities a corporation without a home may start on at this
    price (a $120 home needs a start price of at least $60)."""
    if "price" not in partial or "corporation" not in partial:
        return general(game, entity, partial)
    game = cast("G1833NE", game)
    corp = game.corporations.get(partial["corporation"])
    if corp is None or corp.home is not None:
        return []
    raw = partial["price"].split(",")[0]
    value = int(raw) if raw.isdigit() else 0
    prices = game.data.TAKEOVER_HOME_TOKEN_PRICE
    out: dict[str, Choice] = {}
    for hid, _city, cost in game.variable_homes(corp):
        if hid not in out and (cost < prices["other"] or value >= game.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN):
            out[hid] = Choice(
                hid, f"{game.board.hexes[hid].location or hid} ({hid}), home station {game.fmt(cost)}"
            )
    return list(out.values())


def takeover(game: Game, entity: str, partial: dict[str, str], general: ChoiceHandler) -> list[Choice]:
    """The target, then how many of its own shares the acquirer pays with."""
    game = cast("G1833NE", game)
    rnd = game.round
    if not isinstance(rnd, T.TakeoverRound):
        return []
    acq = game.corporations[entity]
    if "corporation" not in partial:
        return [
            Choice(
                c.sym, f"{c.sym} - {c.name}, outstanding shares worth {game.fmt(T.takeover_cost(game, c))}"
            )
            for c in rnd.targets()
        ]
    target = game.corporations.get(partial["corporation"])
    if target is None or target not in rnd.targets():
        return []
    out = []
    for n in T.takeover_share_options(game, acq, target):
        cash = T.check_payment(game, acq, target, n).total_cash
        out.append(Choice(str(n), f"pay {T.describe_payment(game, acq, n, cash)}"))
    return out


HANDLERS: dict[str, TitleChoiceHandler] = {"par": par, "takeover": takeover}
