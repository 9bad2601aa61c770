"""Rules on small hand-made positions, including rejected actions leaving the state as it was."""

from __future__ import annotations

from engine import actions as A
from engine.market import StockMarket
from engine.titles.g1856 import data as g1856_data
from tests.positions import after_auction_1856, fresh, rejected


def test_starting_cash_and_bank() -> None:
    g = fresh()
    assert [p.cash for p in g.players] == [500, 500, 500]
    assert g.bank == 12000 - 1500
    assert g.acting() == ["1"]
    assert g.round.name == "Auction Round"


def test_cheapest_private_is_bought_at_face_value() -> None:
    g = fresh()
    g.process(A.Bid(entity="1", company="FT", price=20))
    assert g.companies["FT"].owner == "1"
    assert g.player("1").cash == 480
    assert g.acting() == ["2"]


def test_bid_below_minimum_is_rejected_and_changes_nothing() -> None:
    rejected(fresh(), A.Bid(entity="1", company="GLSC", price=70), "minimum bid for GLSC is \\$75")


def test_acting_out_of_turn_is_rejected_with_who_is_waited_for() -> None:
    rejected(fresh(), A.Bid(entity="2", company="FT", price=20), "not Ben's turn: waiting for Ann")


def test_bid_over_cash_is_rejected() -> None:
    rejected(fresh(), A.Bid(entity="1", company="SCFTC", price=600), "at most")


def test_stock_round_starts_after_last_buyer_and_par_pays_escrow_treasury() -> None:
    g = after_auction_1856()
    assert g.round.name == "Stock Round"
    assert g.acting() == ["1"]
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    bbg = g.corporations["BBG"]
    assert bbg.capitalization == "escrow" and bbg.cash == 130 and bbg.president == "1"
    # nobody may sell in the first stock round, so the turn passes on after the purchase
    assert g.acting() == ["2"]


def test_par_at_a_non_par_price_is_rejected() -> None:
    rejected(after_auction_1856(), A.Par(entity="1", corporation="BBG", share_price="110,0,5"),
             "not a par price")


def test_buyer_cannot_buy_again_before_the_others_have_had_their_turn() -> None:
    # first stock round: nobody may sell, so each purchase ends the turn
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    g.process(A.BuyShares(entity="3", shares=("BBG_2",), percent=10))
    rejected(g, A.BuyShares(entity="2", shares=("BBG_3",), percent=10),
             "not Ben's turn: waiting for Ann")


def test_market_movement_at_edges() -> None:
    m = StockMarket(g1856_data.MARKET)
    par65 = m.par_cell(65)
    assert par65 is not None and (par65.row, par65.col) == (5, 4)
    assert m.left_of(par65).price == 60
    assert m.right_of(par65).price == 70
    top_left = m.cell(0, 0)
    assert m.up_of(top_left) is top_left
    end = m.cell(5, 8)  # 90, last of its row: moving right goes up
    assert m.right_of(end).price == m.cell(4, 8).price
    start = m.cell(4, 0)  # 50y, first of its row: moving left goes down
    assert m.left_of(start) is m.cell(5, 0)


def test_action_round_trip_keeps_export_fields() -> None:
    raw = {"type": "lay_tile", "entity": "BBG", "entity_type": "corporation", "id": 20,
           "created_at": 1614998351, "hex": "J15", "tile": "57-0", "rotation": 0}
    assert A.Action.from_dict(raw).to_dict() == raw


def test_a_run_claiming_the_wrong_revenue_is_refused_and_changes_nothing() -> None:
    """A submitted run is checked by the same route rules as the optimizer's suggestions (track,
    stops, stations, shared track, revenue); a wrong claim is refused, the right one accepted."""
    import copy

    from engine.decisions import suggest_routes
    from engine.replay import filter_actions, replay
    from tests.fixture_util import load_export

    export = load_export("1856", "89363")
    acts = filter_actions(export["actions"])
    i = next(k for k, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes"))
    g = replay(export, upto=acts[i - 1]["id"]).game
    corp = g.acting()[0]
    routes = suggest_routes(g, corp)
    assert routes
    bad = copy.deepcopy(routes)
    bad[0]["revenue"] += 10
    rejected(g, A.RunRoutes(entity=corp, entity_type="corporation", routes=tuple(bad)),
             "cannot run that")
    g.process(A.RunRoutes(entity=corp, entity_type="corporation", routes=tuple(routes)))
