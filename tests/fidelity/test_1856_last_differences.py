"""1856's last difference with 18xx.games (issue #25), named by the rule, on a reference game
generated on the 18xx.games engine (tests/fixtures/generated/1856, its trace beside it)."""

from __future__ import annotations

from pathlib import Path

from bot.tools.fidelity import read_export
from engine import actions as A
from engine.replay import replay

CASE = Path(__file__).parent.parent / "fixtures/generated/1856/1856_p3_s1135_crisis_u1390_r3.json.gz"


def test_a_crisis_sale_that_closes_the_corporation_still_repays_its_excess_loans() -> None:
    """18xx.games closes a corporation only after the action that took its price to 0: CPR's
    president, in a cash crisis over CPR's forced loan repayment, sells a CPR share ($30 -> $0);
    CPR (4 loans, now at most 3: shares in players' hands) must still repay one more loan ("CPR
    must repay 1 loan and owes $100", "CPR pays $0", "president must cover the difference"),
    then closes, and the president's debt grows by $100."""
    export = read_export(CASE)
    sale = next(a for a in export["actions"] if a["id"] == 1409)
    g = replay(export, upto=1408).game
    cpr = g.corporations["CPR"]
    assert (cpr.loans, cpr.cash, cpr.price.price if cpr.price else None) == (3, 0, 30)
    before = (g.player("3").cash, g.loans_available)
    g.process(A.Action.from_dict(sale))
    assert g.corporations["CPR"].closed
    assert g.player("3").cash == before[0] + 30 - 100  # the sale's $30, then the loan's $100
    assert g.loans_available == before[1] + 1  # the repaid loan is back
    assert g.cash_crisis_player == "3"


def test_a_bankruptcy_ending_the_game_still_closes_a_private_used_that_round() -> None:
    """18xx.games finishes the operating round the game ends in: WSRC, used in it ("is used and
    will close at the end of the operating round"), closes after the president's bankruptcy
    ends the game (CV keeps only TCC)."""
    g = replay(read_export(CASE.with_name("1856_p3_s1147_crisis.json.gz"))).game
    assert g.finished and g.end_reason == "bankrupt"
    assert g.companies["WSRC"].closed and g.corporations["CV"].companies == ["TCC"]


def test_a_false_national_president_with_money_enough_just_passes() -> None:
    """Player 3, the CGR's false president, sold a CGR share (840) and has nothing left to do
    this turn; 18xx.games declares them bankrupt only when their cash and what they could sell
    of other corporations would not pay for a CGR share. They have the money: the turn passes
    to Player 4 and the game goes on."""
    export = read_export(CASE.with_name("1856_p6_s3131_alt_false_president_liquid.json.gz"))
    g = replay(export, upto=839).game
    assert g.false_national_president == "3"
    g.process(A.Action.from_dict(next(a for a in export["actions"] if a["id"] == 840)))
    assert not g.finished and g.acting() == ["4"]
    assert g.player("3").cash >= g.corp("CGR").price.price
