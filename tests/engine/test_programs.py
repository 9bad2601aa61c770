"""Programmed stock-round moves fire for the player in live play and stop when things change."""

from __future__ import annotations

from engine import actions as A
from engine.titles.registry import new_game


def _sr_game():
    g = new_game("1856", [("1", "Ann"), ("2", "Ben"), ("3", "Cy")])
    for pid, sym, price in [("1", "FT", 20), ("2", "WSRC", 40), ("3", "TCC", 50), ("1", "GLSC", 70),
                            ("2", "NFSBC", 100), ("3", "SCFTC", 100)]:
        g.process(A.Bid(entity=pid, company=sym, price=price))
    return g


def test_programmed_pass_is_made_when_the_turn_comes() -> None:
    g = _sr_game()
    assert g.acting() == ["1"]
    g.process(A.ProgramSharePass(entity="2"))  # Ben programs a pass while Ann is acting
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    # Ben's turn came and was passed for him: Cy acts, and the pass is recorded with Ann's action
    assert g.acting() == ["3"]
    assert g.player("2").passed
    assert [a.type for a in g.auto_done] == ["pass"]
    assert g.action_log[-1]["auto_actions"][0]["type"] == "pass"


def test_programmed_buy_stops_at_its_target() -> None:
    g = _sr_game()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.ProgramBuyShares(entity="2", corporation="BBG", until_condition=20, from_market=False))
    # Ben's turn: the program bought a BBG share for him
    assert g.percent_of("2", "BBG") == 10
    g.process(A.Pass(entity="3"))
    g.process(A.Pass(entity="1"))
    # next turn it buys again and then stops (20% reached)
    assert g.percent_of("2", "BBG") == 20
    assert "2" not in g.programs or g.percent_of("2", "BBG") >= 20


def test_replay_applies_recorded_moves_instead_of_deciding_again() -> None:
    from engine.export import export_game
    from engine.replay import replay

    g = _sr_game()
    g.process(A.ProgramSharePass(entity="2"))
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    res = replay(export_game(g))
    assert res.error is None
    assert res.game.acting() == g.acting() and res.game.player("2").passed
