"""Programmed stock-round moves ("pass until something changes", "buy shares of X until N%"),
carried out for the player when their turn comes, as 18xx.games does.

The moves that fire are recorded as automatic actions of the action that triggered them, so a
replay applies the record instead of deciding again (``Game.live`` is off while replaying).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as A
from .entities import POOL

if TYPE_CHECKING:
    from .game import Game


def programmed_action(game: Game) -> A.Action | None:
    """The move a program makes for the player whose turn it is, or None."""
    from .rounds.stock import StockRound

    rnd = game.round
    if not isinstance(rnd, StockRound) or rnd.finished() or game.finished:
        return None
    pid = rnd.current
    prog = game.programs.get(pid)
    if prog is None:
        return None
    lapsed = lapse(game, pid, prog)
    if lapsed is not None:
        return _disable(pid, lapsed)
    if isinstance(prog, A.ProgramSharePass):
        if "pass" in game.action_types(pid) or not game.action_types(pid):
            return A.Pass(entity=pid, entity_type="player")
        return None
    if isinstance(prog, A.ProgramBuyShares):
        sym = prog.corporation
        if rnd.bought():
            return A.Pass(entity=pid, entity_type="player") if "pass" in game.action_types(pid) else None
        for share in rnd.buyable_shares(pid):
            if share.corporation != sym:
                continue
            if share.owner == POOL and not prog.from_market:
                continue
            return A.BuyShares(entity=pid, entity_type="player", shares=(share.id,), percent=share.percent)
        return _disable(pid, f"No {sym} share can be bought")
    return None


def in_force(game: Game, pid: str) -> bool:
    """Whether ``pid``'s programmed move still applies (:func:`lapse` finds no reason it ended;
    :func:`programmed_action` cancels it at the player's next stock-round turn)."""
    prog = game.programs.get(pid)
    return prog is not None and lapse(game, pid, prog) is None


def lapse(game: Game, pid: str, prog: A.Action) -> str | None:
    """Why ``pid``'s programmed move no longer applies, or None: a pass for one stock round once
    that round is over, a conditional pass after a sale, a purchase whose goal is reached or gone."""
    mark = game.program_marks.get(pid, (None, 0))
    same_round = mark[0] == game.round_key()
    if isinstance(prog, A.ProgramSharePass):
        if not same_round and not prog.indefinite and mark[0] is not None:
            return "A new stock round began"
        sold = game.round.sales if game.round is not None else 0
        if same_round and sold > mark[1] and not prog.unconditional:
            return "Shares were sold"
        return None
    if isinstance(prog, A.ProgramBuyShares):
        sym = prog.corporation
        corp = game.corporations.get(sym)
        until = prog.until_condition
        if corp is None or corp.closed:
            return f"{sym} is no longer available"
        if until == "float" and corp.started:
            return f"{sym} has floated"
        if isinstance(until, int) and game.percent_of(pid, sym) >= until:
            return f"Holding {until}% of {sym}"
    return None


def _disable(pid: str, reason: str) -> A.Action:
    return A.ProgramDisable(entity=pid, entity_type="player", reason=reason)
