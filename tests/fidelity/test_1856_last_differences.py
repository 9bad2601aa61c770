"""1856's last difference with 18xx.games (issue #25), named by the rule, on a reference game
generated on the 18xx.games engine (tests/fixtures/generated/1856, its trace beside it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.tools.fidelity import read_export
from engine import actions as A
from engine.entities import POOL
from engine.replay import replay
from engine.titles.g1856.trains import ebuy_bundles

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


def test_a_false_presidents_late_payment_counts_in_the_share_table() -> None:
    """Player 1, the CGR's false president, lost the presidency to Player 2 (987) and then paid
    for "the full presidency" (1003): Player 2's certificate became 20%, but 18xx.games counts
    the 10% paid for as Player 1's in its share-holder table (Player 2's stays at 10%), and that
    table decides presidencies, among players holding certificates worth the president's one.
    Player 1's first share (1054) leaves them short of 20% in certificates; their second
    (1061) makes them president."""
    export = read_export(CASE.with_name("1856_p4_s3465_alt_false_president_table.json.gz"))
    g = replay(export, upto=1053).game
    assert g.corp("CGR").president == "2" and g.national_table_adjust == {"1": 10, "2": -10}
    for action_id in (1054, 1061):
        g.process(A.Action.from_dict(next(a for a in export["actions"] if a["id"] == action_id)))
        assert g.corp("CGR").president == ("2" if action_id == 1054 else "1")
        if action_id == 1054:
            g = replay(export, upto=1060).game
    assert g.percent_of("1", "CGR") == 20 and g.presidency_holdings("CGR")["1"] == 30


def test_a_crisis_sale_closing_another_corporation_keeps_the_turn_with_the_operator() -> None:
    """Player 3, in a cash crisis over GW's forced loan repayment, sells TGB (164) down to 0:
    TGB closes, and the crisis still lists its sale (18xx.games' step does even when nothing
    is left to sell), so the round stays with GW rather than moving to TGB, the closed last
    corporation; Player 3's bankruptcy (165) then ends the game without TGB paying interest."""
    export = read_export(CASE.with_name("1856_p3_s5172_crisis.json.gz"))
    g = replay(export, upto=164).game
    assert g.corporations["TGB"].closed and g.round.corp.sym == "GW" and g.acting() == ["3"]
    before = g.player("1").cash
    g.process(A.Action.from_dict(next(a for a in export["actions"] if a["id"] == 165)))
    assert g.finished and g.player("1").cash == before


def test_a_presidents_sale_for_a_train_is_measured_by_the_share_table() -> None:
    """CGR (the national) needs a train and its president, Player 1, sells 30% of CGR (1150).
    Player 1 holds 50% in certificates against Player 5's 30%, but an earlier false president's
    late payment counts 10% more as Player 1's in 18xx.games' share-holder table (60%): the
    sale leaves them 30% there, level with Player 5, so it is allowed and Player 1 stays
    president with 20% in certificates."""
    export = read_export(CASE.with_name(
        "1856_p5_s20331_eight_train_variant_alternate_destinations_long_ebuy_sale_by_share_table.json.gz"))
    g = replay(export, upto=1149).game
    cgr = g.corp("CGR")
    assert cgr.president == "1" and g.national_table_adjust == {"1": 10, "4": -10}
    assert (g.percent_of("1", "CGR"), g.percent_of("5", "CGR")) == (50, 30)
    assert ("CGR", 30) in ebuy_bundles(g, g.round, "1")
    cash = g.player("1").cash
    g.process(A.Action.from_dict(next(a for a in export["actions"] if a["id"] == 1150)))
    assert cgr.president == "1" and g.percent_of("1", "CGR") == 20
    assert g.player("1").cash == cash + 300


def test_a_crisis_sale_keeping_the_presidency_is_measured_by_the_share_table() -> None:
    """The same table decides what a president in a cash crisis over the national may sell
    (18xx.games' CashCrisis step): set by hand, Player 1 owes $250 for CGR; 30% of CGR leaves
    them 30% in the table, level with Player 5, so it may be sold (with 10% and 20%)."""
    export = read_export(CASE.with_name(
        "1856_p5_s20331_eight_train_variant_alternate_destinations_long_ebuy_sale_by_share_table.json.gz"))
    g = replay(export, upto=1149).game
    g.player("1").cash = -250
    g.cash_crisis_corp = "CGR"
    assert [pct for sym, pct in g.crisis_sellable("1") if sym == "CGR"] == [10, 20, 30]


def test_a_president_certificate_left_in_the_market_stays_there_and_is_bought_as_a_share() -> None:
    """Player 4 holds CGR's 20% president's certificate but only 10% by 18xx.games' share-holder
    table (Player 1's late payment as false president counts there). Selling "10%" of it (900)
    puts the whole certificate in the market: by the table nobody can take the presidency
    (Player 1 holds 20% there but one 10% certificate), so Player 4 stays president with
    nothing. Player 1's next CGR share (903) makes them president, and the certificate stays
    in the market (no certificates move); Player 3 then buys it there as a 20% share for twice
    the price (994, added by hand to the generated game), and Player 1 stays president."""
    export = read_export(CASE.with_name(
        "1856_p5_s20331_eight_train_variant_alternate_destinations_long_u870_r21_crisis"
        "_president_certificate_in_market.json.gz"))
    actions = {a["id"]: a for a in export["actions"]}
    g = replay(export, upto=899).game
    pres = g.share("CGR_0")
    assert (pres.owner, pres.percent, g.presidency_holdings("CGR")["4"]) == ("4", 20, 10)
    g.process(A.Action.from_dict(actions[900]))
    assert (pres.owner, g.corp("CGR").president, g.percent_of("4", "CGR")) == (POOL, "4", 0)
    g = replay(export, upto=903).game
    assert g.corp("CGR").president == "1" and g.share("CGR_0").owner == POOL
    assert g.percent_of("1", "CGR") == 20
    g = replay(export, upto=993).game
    cash = g.player("3").cash
    g.process(A.Action.from_dict(actions[994]))
    assert g.share("CGR_0").owner == "3" and g.corp("CGR").president == "1"
    assert g.player("3").cash == cash - 2 * g.corp("CGR").price.price


def _branch(tag: str) -> dict[str, Any]:
    return read_export(CASE.with_name(
        f"1856_p5_s20331_eight_train_variant_alternate_destinations_long_{tag}.json.gz"))


def _act(export: dict[str, Any], action_id: int) -> A.Action:
    return A.Action.from_dict(next(a for a in export["actions"] if a["id"] == action_id))


def test_a_partial_sale_that_keeps_the_presidency_by_the_table_sells_the_whole_certificate() -> None:
    """Player 1 (CGR president, 30% in certificates: the president's and one share; 40% by the
    share-holder table) sells 20% (1244). The table leaves them 20%, level with Player 5, so
    they stay president; the bundle's certificates all go to the market (nothing comes back
    for the part of the president's certificate not sold) and the table keeps counting 20%
    for them."""
    export = _branch("u820_r47_crisis_partial_sale_kept_by_the_table")
    g = replay(export, upto=1243).game
    assert (g.percent_of("1", "CGR"), g.presidency_holdings("CGR")["1"]) == (30, 40)
    cash = g.player("1").cash
    g.process(_act(export, 1244))
    assert g.corp("CGR").president == "1" and g.percent_of("1", "CGR") == 0
    assert g.share("CGR_0").owner == POOL and g.percent_of(POOL, "CGR") == 60
    assert g.presidency_holdings("CGR")["1"] == 20 and g.player("1").cash == cash + 60


def test_a_presidency_moving_to_the_certificates_holder_moves_no_certificate() -> None:
    """Player 3 holds CGR's president's certificate (bought in the market) while Player 1 is
    president by the table. Player 1's sale (1452) makes Player 3 president: nothing is
    swapped, Player 3 keeps all 50%."""
    export = _branch("u868_r41_crisis_presidency_to_the_certificate_holder")
    g = replay(export, upto=1451).game
    assert g.corp("CGR").president == "1" and g.share("CGR_0").owner == "3"
    g.process(_act(export, 1452))
    assert g.corp("CGR").president == "3" and g.percent_of("3", "CGR") == 50
    assert g.percent_of("1", "CGR") == 20


def test_a_president_without_the_certificate_may_sell_and_its_buyer_swaps_for_it() -> None:
    """Player 1, president of CGR by the table with two ordinary shares (the certificate is in
    the market), may sell one (1375): no president's certificate is in their bundle. Later
    Player 5 buys the certificate in the market (1430) and becomes president: their first two
    shares go to Player 4, the old president, as on 18xx.games, and the table, which does not
    follow that swap, keeps Player 5 president."""
    export = _branch("u880_r42_crisis_president_certificate_bought_back")
    g = replay(export, upto=1374).game
    assert g.corp("CGR").president == "1" and g.share("CGR_0").owner == POOL
    assert g.round.why_not_sell("1", "CGR", 10) is None
    g = replay(export, upto=1429).game
    assert g.corp("CGR").president == "4" and g.percent_of("5", "CGR") == 30
    g.process(_act(export, 1430))
    assert g.corp("CGR").president == "5"
    assert (g.percent_of("5", "CGR"), g.percent_of("4", "CGR")) == (30, 60)
    assert (g.presidency_holdings("CGR")["5"], g.presidency_holdings("CGR")["4"]) == (50, 30)


def test_a_corporation_is_sold_out_by_the_share_holder_table() -> None:
    """At the end of the stock round (1454) players hold every CGR certificate, but 18xx.games'
    share-holder table counts 110% for them (the market -10%): CGR is not sold out by it, so
    its price does not rise."""
    export = _branch("u910_r62_crisis_sold_out_by_the_table")
    g = replay(export, upto=1453).game
    assert g.player_percent("CGR") == 100 and sum(g.presidency_holdings("CGR").values()) == 110
    g.process(_act(export, 1454))
    assert g.round.name == "Operating Round" and g.corp("CGR").price.price == 30
