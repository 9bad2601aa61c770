"""Small hand-made positions for the rule tests (tests/fidelity/test_rules_*.py).

Every position is reached with real actions unless a helper says it sets state by hand.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import actions as A
from engine.errors import GameError
from engine.game import Game
from engine.replay import filter_actions, replay, snapshot
from engine.rounds.stock import StockRound
from engine.titles.registry import new_game
from tests.fixture_util import load_export

PLAYERS3 = [("1", "Ann"), ("2", "Ben"), ("3", "Cy")]
PLAYERS4 = [("1", "Ann"), ("2", "Ben"), ("3", "Cy"), ("4", "Dee")]

# 1856 privates bought at face value, cheapest first, by Ann, Ben, Cy in turn
AUCTION_1856 = [("1", "FT", 20), ("2", "WSRC", 40), ("3", "TCC", 50), ("1", "GLSC", 70),
                ("2", "NFSBC", 100), ("3", "SCFTC", 100)]


def state(g: Game) -> dict[str, Any]:
    return snapshot(g, {})


def rejected(g: Game, action: A.Action, match: str) -> None:
    """``action`` is refused with a message matching ``match`` and changes nothing.

    The action is tried on an exact copy of ``g`` (the engine restores the copy's state, which
    must then equal ``g``'s), so that ``g`` itself stays untouched for the rest of the test:
    see test_rules_1856.test_game_stays_whole_after_a_rejected_action for why.
    """
    probe = copy.deepcopy(g)
    before = state(g)
    assert state(probe) == before
    with pytest.raises(GameError, match=match):
        probe.process(action)
    assert state(probe) == before
    assert probe.log == g.log


def fresh(title: str = "1856", players: list[tuple[str, str]] | None = None,
          rules: tuple[str, ...] = ()) -> Game:
    return new_game(title, players or PLAYERS3, list(rules))


def after_auction_1856(players: list[tuple[str, str]] | None = None) -> Game:
    g = fresh("1856", players or PLAYERS3)
    for pid, sym, price in AUCTION_1856:
        g.process(A.Bid(entity=pid, company=sym, price=price))
    assert g.round.name == "Stock Round"
    return g


def corp_act(cls: type[A.Action], sym: str, **kw: Any) -> A.Action:
    return cls(entity=sym, entity_type="corporation", **kw)


def lay(g: Game, sym: str, hex_id: str, tile: str, rotation: int) -> None:
    g.process(corp_act(A.LayTile, sym, hex=hex_id, tile=tile, rotation=rotation))


def pass_(g: Game, entity: str | None = None) -> None:
    who = entity or g.acting()[0]
    kind = "corporation" if who in g.corporations else ("company" if who in g.companies else "player")
    g.process(A.Pass(entity=who, entity_type=kind))


def finish_stock_round(g: Game) -> None:
    """Everyone passes until the stock round is over."""
    while isinstance(g.round, StockRound) and not g.finished:
        pass_(g)


def bbg_first_or() -> Game:
    """1856, 3 players: privates at face value; Ann pars BBG at $65 (escrow), Ben buys one
    share; everybody passes. OR 1.1 starts with BBG (cash $195) about to lay track."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    finish_stock_round(g)
    assert g.round.name == "Operating Round" and g.acting() == ["BBG"]
    return g


def bbg_running() -> Game:
    """From :func:`bbg_first_or`: BBG lays 57 on J15, buys 2-0 ($100) and ends its turn; SR 2
    passes; in OR 2.1 BBG lays 57 on J13 and places no token. BBG ($95, one 2-train) is about to run J13-J15 (40)."""
    g = bbg_first_or()
    lay(g, "BBG", "J15", "57-0", 0)
    g.process(corp_act(A.BuyTrain, "BBG", train="2-0", price=100))
    pass_(g, "BBG")
    finish_stock_round(g)
    assert g.acting() == ["BBG"]
    lay(g, "BBG", "J13", "57-1", 0)
    pass_(g, "BBG")  # no token this turn
    assert "run_routes" in g.action_types("BBG")
    return g


def route(train: str, hexes: list[str], revenue: int) -> dict[str, Any]:
    """A route along ``hexes`` (neighbouring hexes, one chain)."""
    return {"train": train, "connections": [hexes], "hexes": hexes, "revenue": revenue}


def run(g: Game, sym: str, *routes: dict[str, Any]) -> None:
    g.process(corp_act(A.RunRoutes, sym, routes=tuple(routes)))


def at(title: str, name: str, upto: int) -> Game:
    """The real game ``name`` replayed up to and including action ``upto`` (or the last
    action before it, when ``upto`` itself was undone)."""
    export = load_export(title, name)
    ids = [a.get("id") for a in filter_actions(export["actions"]) if a.get("type") != "message"]
    last = max(i for i in ids if isinstance(i, int) and i <= upto)
    res = replay(export, upto=last)
    assert res.error is None, res.error
    return res.game


def raw_action(title: str, name: str, action_id: int) -> A.Action:
    """Action ``action_id`` of the real game ``name`` (as played)."""
    for raw in filter_actions(load_export(title, name)["actions"]):
        if raw.get("id") == action_id:
            return A.Action.from_dict(raw)
    raise KeyError(action_id)


def turn_moves(g: Game, entity: str) -> list[str]:
    """``entity``'s action types without "bankrupt", which 18xx.games offers every player
    throughout an 1856 operating round."""
    return [t for t in g.action_types(entity) if t != "bankrupt"]
