"""1856 rules, one by one, on small positions (including rejected actions).

Rule sources: the summary /work/shared/rules/1856.de.txt ("summary") and the real games in
tests/fixtures/1856 played on 18xx.games ("game <name> #<action id>"); where the two disagree
the games win (shared/rules/README.md). A test that sets state by hand says so.
"""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.entities import POOL, listed
from engine.errors import GameError
from engine.game import Game
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import StockRound
from tests.positions import (
    after_auction_1856,
    at,
    bbg_first_or,
    bbg_running,
    corp_act,
    finish_stock_round,
    fresh,
    lay,
    pass_,
    raw_action,
    rejected,
    route,
    run,
    state,
    turn_moves,
)


def set_cash(g: Game, holder: str, amount: int) -> None:
    """Hand-set cash; the bank keeps the total constant."""
    old = g.cash_of(holder)
    ent = g.player_by_id[holder] if holder in g.player_by_id else g.corporations[holder]
    ent.cash = amount
    g.bank += old - amount


def retire_trains(g: Game, *names: str, keep: tuple[str, ...] = ()) -> None:
    """Hand-set: the bank's trains of the given types leave the game (as if sold and rusted)."""
    for t in g.trains.values():
        if t.name in names and t.owner == "depot" and t.id not in keep:
            t.owner = "rusted"


# ---------------------------------------------------------------------------------- auction


def test_waterfall_bid_on_a_later_private_is_won_when_the_cheaper_one_sells() -> None:
    """Bids on a private other than the cheapest wait; when the cheaper ones are sold a single
    bidder buys it at their bid (summary: privates sold "wie bei 1830"; 1830 waterfall)."""
    g = fresh()
    g.process(A.Bid(entity="1", company="WSRC", price=45))
    assert g.companies["WSRC"].owner is None and g.player("1").cash == 500
    g.process(A.Bid(entity="2", company="FT", price=20))
    assert g.companies["FT"].owner == "2"
    assert g.companies["WSRC"].owner == "1" and g.player("1").cash == 455


def test_bid_on_a_later_private_must_beat_face_value_by_5() -> None:
    """A bid on a non-cheapest private is at least face value + $5, later bids $5 over the high
    bid (1830 auction rules, as 18xx.games plays 1856)."""
    g = fresh()
    rejected(g, A.Bid(entity="1", company="WSRC", price=40), r"minimum bid for WSRC is \$45")
    g.process(A.Bid(entity="1", company="WSRC", price=45))
    rejected(g, A.Bid(entity="2", company="WSRC", price=49), r"minimum bid for WSRC is \$50")


def test_competing_bids_are_settled_by_an_auction_when_the_cheaper_private_sells() -> None:
    """Two bids on one private: once it is the cheapest left, its bidders bid in turn (lowest
    bidder first); a pass leaves it to the other bidder at their bid (1830 waterfall)."""
    g = fresh()
    g.process(A.Bid(entity="1", company="WSRC", price=45))
    g.process(A.Bid(entity="2", company="WSRC", price=50))
    g.process(A.Bid(entity="3", company="FT", price=20))
    assert g.acting() == ["1"]  # the lower bidder must raise or pass
    rejected(g, A.Bid(entity="1", company="WSRC", price=50), r"minimum bid for WSRC is \$55")
    rejected(g, A.Bid(entity="1", company="TCC", price=60), "WSRC is being auctioned")
    g.process(A.Pass(entity="1"))
    assert g.companies["WSRC"].owner == "2" and g.player("2").cash == 450


def test_all_players_passing_lowers_the_cheapest_private_by_5() -> None:
    """When everybody passes, the cheapest private's price drops by $5 (1830 rule for the
    start packet, which 1856 uses)."""
    g = fresh()
    for pid in ("1", "2", "3"):
        g.process(A.Pass(entity=pid))
    assert g.companies["FT"].min_bid == 15
    rejected(g, A.Bid(entity="1", company="FT", price=10), r"minimum bid for FT is \$15")
    g.process(A.Bid(entity="1", company="FT", price=15))
    assert g.companies["FT"].owner == "1" and g.player("1").cash == 485


# ----------------------------------------------------------------------------- stock round


def test_no_selling_in_the_first_stock_round() -> None:
    """Nobody may sell in the first stock round (18xx.games 1856; all real games)."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    g.process(A.Pass(entity="3"))
    assert "sell_shares" not in g.action_types("1")
    rejected(g, A.SellShares(entity="1", shares=("BBG_0",), percent=20), "cannot sell")


def test_one_certificate_per_turn_but_selling_after_buying_is_allowed() -> None:
    """In a stock turn a player sells any number and buys one certificate, in either order
    (summary: "beliebig viele Aktien verkaufen und ein Papier ... kaufen ... in beliebiger
    Reihenfolge"); a second purchase is refused."""
    g2 = _sold_out_sr2()
    while g2.acting() != ["2"]:
        pass_(g2)
    g2.process(A.Par(entity="2", corporation="CA", share_price="65,5,4"))
    assert g2.acting() == ["2"] and "sell_shares" in g2.action_types("2")
    rejected(g2, A.BuyShares(entity="2", shares=("CA_1",), percent=10), "cannot buy shares now")
    g2.process(A.SellShares(entity="2", shares=("BBG_1",), percent=10))
    assert g2.percent_of(POOL, "BBG") == 10


def test_priority_goes_to_the_player_after_the_last_to_act() -> None:
    """The next stock round starts with the player after the last one who bought or sold
    (1830-style priority deal, as in the real games)."""
    g = bbg_first_or()  # Ben bought last in SR 1
    lay(g, "BBG", "J15", "57-0", 0)
    while isinstance(g.round, OperatingRound):
        pass_(g)
    assert isinstance(g.round, StockRound) and g.acting() == ["3"]


def _sold_out_sr1() -> Game:
    """SR 1: Ann pars BBG at $65 and buys to 60%, Ben buys 40%: BBG is sold out."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    nxt = 1
    while nxt <= 8:
        who = g.acting()[0]
        if who in ("1", "2"):
            g.process(A.BuyShares(entity=who, shares=(f"BBG_{nxt}",), percent=10))
            nxt += 1
        else:
            pass_(g)
    return g


def _sold_out_sr2() -> Game:
    g = _sold_out_sr1()
    finish_stock_round(g)
    while isinstance(g.round, OperatingRound):
        pass_(g)
    assert isinstance(g.round, StockRound)
    return g


def test_escrow_capitalization_first_half_to_treasury_rest_to_escrow() -> None:
    """A company started while 2-4 trains are for sale gets the money of the first five shares;
    the rest is held until it reaches its destination (summary: "Das Geld ab der sechsten
    Aktie wird erst ausgezahlt, wenn eine Strecke zum Zielpunkt ... existiert")."""
    g = _sold_out_sr1()
    bbg = g.corporations["BBG"]
    assert bbg.capitalization == "escrow"
    assert bbg.cash == 5 * 65 and bbg.escrow == 5 * 65
    assert g.player("1").cash == 410 - 6 * 65 and g.player("2").cash == 360 - 4 * 65


def test_sixty_percent_holding_limit() -> None:
    """A player may hold at most 60% of a company (summary: "maximal 60% Aktien einer AG").
    By hand: Ann has $1000 (so that she still has something to do at 60%)."""
    g = after_auction_1856()
    set_cash(g, "1", 1000)
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    for i in range(1, 5):
        pass_(g)
        pass_(g)
        g.process(A.BuyShares(entity="1", shares=(f"BBG_{i}",), percent=10))
    assert g.percent_of("1", "BBG") == 60
    pass_(g)
    pass_(g)
    assert g.acting() == ["1"] and "buy_shares" not in g.action_types("1")
    assert g.round.why_not_buy("1", g.shares["BBG_5"]) == "you may hold at most 60% of BBG"
    rejected(g, A.BuyShares(entity="1", shares=("BBG_5",), percent=10), "cannot buy shares now")


def test_sold_out_company_rises_at_the_end_of_the_stock_round() -> None:
    """A company whose shares are all in players' hands moves up one row when the stock round
    ends (18xx.games; game move_up_price_sr1 #16)."""
    g = _sold_out_sr1()
    cell = g.corporations["BBG"].price
    assert cell is not None and cell.price == 65
    finish_stock_round(g)
    up = g.market.up_of(g.market.cell(5, 4))  # type: ignore[arg-type]
    assert g.corporations["BBG"].price is up and up.price == 70


def test_sold_out_rise_in_a_real_game() -> None:
    """Game move_up_price_sr1: the last IPO share is bought (#15), the stock round ends and
    the sold-out company rises one row (18xx.games trace: 65 -> 70)."""
    g = at("1856", "move_up_price_sr1", 14)
    sym = next(c.sym for c in g.corporations.values() if c.ipoed)
    before = g.corporations[sym].price
    assert before is not None and before.price == 65
    g.process(raw_action("1856", "move_up_price_sr1", 15))
    assert g.player_percent(sym) == 100 and isinstance(g.round, OperatingRound)
    assert g.corporations[sym].price is g.market.up_of(before)


def test_selling_drops_the_price_one_row_per_10_percent() -> None:
    """Selling moves the price down one row for every full 10% sold (summary: "Der Aktienkurs
    fällt beim Verkauf von Aktien nur für ganze Vielfache von 10%")."""
    g = _sold_out_sr2()
    while g.acting() != ["2"]:
        pass_(g)
    start = g.corporations["BBG"].price
    assert start is not None
    two = tuple(s.id for s in g.shares_of("2", "BBG"))[:2]
    g.process(A.SellShares(entity="2", shares=two, percent=20))
    assert g.corporations["BBG"].price is g.market.down_of(g.market.down_of(start))
    assert g.percent_of(POOL, "BBG") == 20


def test_market_may_hold_at_most_50_percent() -> None:
    """At most 50% of a company may be in the market (summary: "im Pool dürfen maximal 50%
    liegen"): Ann may sell 50% but not all her 60%."""
    g = _sold_out_sr2()
    while g.acting() != ["1"]:
        pass_(g)
    mine = tuple(s.id for s in g.shares_of("1", "BBG"))
    assert len(mine) == 5  # president's 20% + four 10%
    rejected(g, A.SellShares(entity="1", shares=mine, percent=60), "at most 50%")
    g.process(A.SellShares(entity="1", shares=mine, percent=50))
    assert g.percent_of(POOL, "BBG") == 50
    assert g.corporations["BBG"].president == "2"  # Ben (40%) takes over


def test_shares_sold_this_round_cannot_be_bought_back() -> None:
    """A player may not buy shares of a company they sold in the same stock round (1830
    rule used by 18xx.games for 1856)."""
    g = _sold_out_sr2()
    while g.acting() != ["2"]:
        pass_(g)
    sold = g.shares_of("2", "BBG")[0]
    g.process(A.SellShares(entity="2", shares=(sold.id,), percent=10))
    pass_(g, "2")
    while g.acting() != ["2"]:
        pass_(g)
    assert "buy_shares" not in g.action_types("2")
    assert g.round.why_not_buy("2", sold) == "you sold BBG this round"
    rejected(g, A.BuyShares(entity="2", shares=(sold.id,), percent=10), "cannot buy shares now")


def test_certificate_limit() -> None:
    """A player may not exceed the certificate limit (summary: Papierlimit 20 with 3 players).
    By hand: after parring BBG (3 certificates with her privates) Ann is given 17 more."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    given = [s for s in g.corp_shares("CA") + g.corp_shares("CV") if not s.president][:16]
    given += [s for s in g.corp_shares("GT") if not s.president][:1]
    for s in given:
        g.move_share(s, "1")
    assert g.num_certs("1") == 20 == g.cert_limit()
    assert g.round.why_not_buy("1", g.shares["BBG_2"]) == "you would exceed the certificate limit of 20"
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    pass_(g, "3")
    # Ann can do nothing at her limit: her turn is passed for her
    assert g.acting() == ["2"] and "Ann has no valid actions and passes" in g.log
    rejected(g, A.BuyShares(entity="1", shares=("BBG_2",), percent=10), "not Ann's turn")


# --------------------------------------------------------------------- capitalization, float


def test_incremental_capitalization_after_the_last_4_train() -> None:
    """Companies started after the 4th (last) 4-train is sold are incremental: each IPO share
    pays the treasury (summary: "5-er Loks: Die Gesellschaft erhält ihr Geld pro verkaufter
    Aktie"; 18xx.games event no_more_escrow_corps on the 4th 4-train). Trains set by hand."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    retire_trains(g, "2", "3")
    retire_trains(g, "4", keep=("4-3",))
    set_cash(g, "BBG", 400)
    g.process(corp_act(A.BuyTrain, "BBG", train="4-3", price=350))
    assert g.capitalization_mode == "incremental"
    assert g.corporations["BBG"].capitalization == "escrow"  # started companies keep theirs
    while isinstance(g.round, OperatingRound):
        pass_(g)
    pid = g.acting()[0]
    g.process(A.Par(entity=pid, corporation="CA", share_price="65,5,4"))
    ca = g.corporations["CA"]
    assert ca.capitalization == "incremental" and ca.escrow is None and ca.cash == 130


def test_full_capitalization_after_the_last_5_train() -> None:
    """After the 3rd (last) 5-train new companies are fully capitalised: 10x par when enough
    shares are sold to operate (summary: "6-er oder D Lok: ... sofort ihr volles
    Startkapital"; 18xx.games no_more_incremental_corps on the 3rd 5-train; float at 20% +10%
    per train type sold out). Trains set by hand."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    retire_trains(g, "2", "3", "4")
    retire_trains(g, "5", keep=("5-2",))
    set_cash(g, "BBG", 600)
    g.process(corp_act(A.BuyTrain, "BBG", train="5-2", price=550))
    assert g.capitalization_mode == "full"
    while isinstance(g.round, OperatingRound):
        pass_(g)
    set_cash(g, "1", 2000)
    while g.acting() != ["1"]:
        pass_(g)
    g.process(A.Par(entity="1", corporation="CA", share_price="65,5,4"))
    ca = g.corporations["CA"]
    assert ca.capitalization == "full" and ca.cash == 0  # nothing until it floats
    needed = g.percent_to_operate
    while 100 - g.percent_of("CA", "CA") < needed:
        while g.acting() != ["1"]:
            pass_(g)
        share = g.ipo_shares("CA")[1] if g.ipo_shares("CA")[0].president else g.ipo_shares("CA")[0]
        assert ca.cash == 0
        g.process(A.BuyShares(entity="1", shares=(share.id,), percent=10))
    assert ca.cash == 650


def test_float_percentage_grows_when_a_train_type_sells_out() -> None:
    """A company operates with 20% sold while 2-trains are for sale, 10% more for each later
    train type (shared/rules/README.md; 18xx.games PERCENT_TO_OPERATE +10 on the last 2-train).
    Trains set by hand: the other 2-trains are gone."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    assert g.percent_to_operate == 20
    retire_trains(g, "2", keep=("2-5",))
    g.process(corp_act(A.BuyTrain, "BBG", train="2-5", price=100))
    assert g.percent_to_operate == 30
    while isinstance(g.round, OperatingRound):
        pass_(g)
    pid = g.acting()[0]
    g.process(A.Par(entity=pid, corporation="CA", share_price="65,5,4"))  # 20% sold only
    finish_stock_round(g)
    assert "CA" not in [c.sym for c in g.operating_order()]
    assert "CA" not in g.round.entities


def test_operating_order_by_price_then_column_then_arrival() -> None:
    """Companies operate from the highest price; on equal prices the one further right, then
    the one that arrived first on the space (18xx.games market order)."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.Par(entity="2", corporation="CA", share_price="70,4,4"))
    g.process(A.Par(entity="3", corporation="CV", share_price="65,5,4"))
    finish_stock_round(g)
    assert g.round.entities == ["CA", "BBG", "CV"]
    # by hand: BBG moves right to the other $70 space, further right than CA's
    g.move_price(g.corporations["BBG"], "right")
    assert g.corporations["BBG"].price.price == 70  # type: ignore[union-attr]
    assert [c.sym for c in g.operating_order()] == ["BBG", "CA", "CV"]


def test_home_token_is_placed_when_the_company_first_operates() -> None:
    """The home station is placed at the start of the company's first turn (18xx.games
    HOME_TOKEN_TIMING operate)."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    assert "BBG" not in g.board.hex("J15").tokens[0]
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    finish_stock_round(g)
    assert g.board.hex("J15").tokens[0] == ["BBG"]
    assert g.corporations["BBG"].tokens[0].used and g.corporations["BBG"].tokens[0].hex == "J15"


# ------------------------------------------------------------------------------------ track


def test_tile_colour_must_be_available_in_the_phase() -> None:
    """Only yellow tiles in phase 2; green from the first 3-train (phase table of the summary)."""
    g = bbg_first_or()
    rejected(g, corp_act(A.LayTile, "BBG", hex="J15", tile="14-0", rotation=0),
             "green tiles are not available in phase 2")


def test_tile_needs_a_route_of_the_company() -> None:
    """A tile must extend the company's own network (summary: "wenn ein Stück der neuen
    Strecke zu einer Route der Gesellschaft gehört")."""
    g = bbg_first_or()
    rejected(g, corp_act(A.LayTile, "BBG", hex="J13", tile="57-0", rotation=0), "no route to J13")


def test_hex_reserved_by_a_players_private_is_blocked() -> None:
    """A private owned by a player blocks its hex (18xx.games blocks_hexes: FT on L3, WSRC on I12)."""
    g = bbg_first_or()
    rejected(g, corp_act(A.LayTile, "BBG", hex="I12", tile="1-0", rotation=0), "blocked by WSRC")


def test_laid_tile_cannot_be_replaced_by_same_colour() -> None:
    """A laid yellow tile is replaced only by an upgrade (next colour)."""
    g = bbg_running_before_token()
    pass_(g, "BBG")
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="payout"))
    while g.round.name == "Operating Round":
        pass_(g)
    finish_stock_round(g)
    rejected(g, corp_act(A.LayTile, "BBG", hex="J15", tile="57-2", rotation=0), "not an upgrade")


def test_upgrade_must_keep_the_existing_track() -> None:
    """An upgrade keeps every track segment of the tile it replaces (standard 18xx tile rule).
    Phase set by hand to 3 (green)."""
    from engine.decisions import legal_tile_lays

    g = bbg_first_or()
    lay(g, "BBG", "J15", "57-0", 0)
    g.process(corp_act(A.BuyTrain, "BBG", train="2-0", price=100))
    pass_(g, "BBG")
    finish_stock_round(g)
    g.phase_index = 1
    legal = legal_tile_lays(g, "BBG")["J15"]
    tile = next(t for t in legal if t.startswith("15-") or t.startswith("14-"))
    bad = next(r for r in range(6) if r not in legal[tile])
    rejected(g, corp_act(A.LayTile, "BBG", hex="J15", tile=tile, rotation=bad), "existing track must be kept")
    lay(g, "BBG", "J15", tile, legal[tile][0])
    assert g.board.hex("J15").tile.color == "green"


def test_terrain_costs_money() -> None:
    """A mountain hex costs $40 to build on (1856 map: K14 "upgrade=cost:40,terrain:mountain")."""
    g = bbg_first_or()
    lay(g, "BBG", "J15", "57-0", 1)  # exits towards I14 and K14
    g.process(corp_act(A.BuyTrain, "BBG", train="2-0", price=100))
    pass_(g, "BBG")
    finish_stock_round(g)
    cash = g.corporations["BBG"].cash
    lay(g, "BBG", "K14", "9-0", 1)
    assert g.corporations["BBG"].cash == cash - 40


def bbg_running_before_token() -> Game:
    g = bbg_first_or()
    lay(g, "BBG", "J15", "57-0", 0)
    g.process(corp_act(A.BuyTrain, "BBG", train="2-0", price=100))
    pass_(g, "BBG")
    finish_stock_round(g)
    lay(g, "BBG", "J13", "57-1", 0)
    return g


# ----------------------------------------------------------------------------------- tokens


def test_token_placement_and_cost() -> None:
    """A station costs the price printed on the company's next token (BBG: 0, 40, 100) and
    needs a route to a free city space."""
    g = bbg_running_before_token()
    rejected(g, corp_act(A.PlaceToken, "BBG", city="J11-0"), "not reachable")
    cash = g.corporations["BBG"].cash
    g.process(corp_act(A.PlaceToken, "BBG", city="57-1-0"))
    assert g.corporations["BBG"].cash == cash - 40
    assert g.board.hex("J13").tokens[0] == ["BBG"]


# ------------------------------------------------------------------------- routes, dividends


def test_route_revenue_is_checked() -> None:
    """The claimed revenue must be the route's value (yellow cities 20 + 20)."""
    g = bbg_running()
    rejected(g, corp_act(A.RunRoutes, "BBG", routes=(route("2-0", ["J13", "J15"], 50),)),
             r"worth \$40, not \$50")


def test_illegal_routes_are_rejected() -> None:
    """A company runs only its own trains, each once (standard 18xx route rules)."""
    g = bbg_running()
    rejected(g, corp_act(A.RunRoutes, "BBG", routes=(route("2-1", ["J13", "J15"], 40),)),
             "does not own train 2-1")
    rejected(g, corp_act(A.RunRoutes, "BBG", routes=(route("2-0", ["J13", "J15"], 40),
                                                    route("2-0", ["J15", "J13"], 40))),
             "runs twice")


def test_payout_pays_players_not_the_ipo_and_moves_right() -> None:
    """Paying out: each share in a player's hand gets revenue/10, IPO shares get nothing, the
    price moves right (summary "Ausschütten (steigt)"; 1836Jr56 worked example step 11)."""
    g = bbg_running()
    ann, ben = g.player("1").cash, g.player("2").cash
    cash = g.corporations["BBG"].cash
    start = g.corporations["BBG"].price
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="payout"))
    assert (g.player("1").cash, g.player("2").cash) == (ann + 8, ben + 4)
    assert g.corporations["BBG"].cash == cash
    assert g.corporations["BBG"].price is g.market.right_of(start)


def test_withhold_keeps_revenue_and_moves_left() -> None:
    """Withholding: the company keeps the revenue and the price moves left ("einbehalten (fällt)")."""
    g = bbg_running()
    cash = g.corporations["BBG"].cash
    start = g.corporations["BBG"].price
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    assert g.corporations["BBG"].cash == cash + 40
    assert g.corporations["BBG"].price is g.market.left_of(start)


def test_market_shares_pay_the_company() -> None:
    """Dividends on shares in the market go to the company (1836Jr56/1856 summary "Aktien im
    Pool bringen ihre Dividende der Gesellschaft"). State by hand: one IPO share is put in the market."""
    g = bbg_running()
    g.move_share(g.shares["BBG_5"], POOL)
    cash = g.corporations["BBG"].cash
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="payout"))
    assert g.corporations["BBG"].cash == cash + 4


# ------------------------------------------------------------------------------------ trains


def test_1856_allows_two_trains_of_one_type_in_a_turn() -> None:
    """1856 has no one-train-per-type limit (that limit is 1836Jr56's own; README)."""
    g = bbg_first_or()
    set_cash(g, "BBG", 300)  # by hand
    lay(g, "BBG", "J15", "57-0", 0)
    g.process(corp_act(A.BuyTrain, "BBG", train="2-0", price=100))
    g.process(corp_act(A.BuyTrain, "BBG", train="2-1", price=100))
    assert g.corporations["BBG"].trains == ["2-0", "2-1"]


def test_first_3_train_starts_phase_3() -> None:
    """The first 3-train starts phase 3: green tiles, two ORs per set, privates may be bought
    (summary train table). The other 2-trains are retired by hand."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    retire_trains(g, "2")
    set_cash(g, "BBG", 300)
    rejected(g, corp_act(A.BuyTrain, "BBG", train="3-0", price=200), r"costs \$225")
    g.process(corp_act(A.BuyTrain, "BBG", train="3-0", price=225))
    assert g.phase["name"] == "3" and "green" in g.phase["tiles"]
    assert g.phase["operating_rounds"] == 2 and g.phase_status("can_buy_companies")


def test_first_4_train_rusts_the_2_trains_and_lowers_the_limit() -> None:
    """The first 4-train rusts all 2-trains; the train limit becomes 3 (summary: "Die 2-er
    Loks werden verschrottet"; limits as 18xx.games). Earlier trains retired by hand."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    retire_trains(g, "2", "3")
    set_cash(g, "BBG", 400)
    g.process(corp_act(A.BuyTrain, "BBG", train="4-0", price=350))
    assert g.trains["2-0"].owner == "rusted"
    assert g.corporations["BBG"].trains == ["4-0"]
    assert g.phase["name"] == "4" and g.train_limit == 3


def test_train_limit() -> None:
    """A company may not buy beyond its train limit (4 in phase 2). Trains given by hand."""
    g = bbg_running()
    for t in ("2-1", "2-2", "2-3"):
        g.give_train(g.trains[t], "BBG")
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    assert "buy_train" not in g.action_types("BBG")
    rejected(g, corp_act(A.BuyTrain, "BBG", train="2-4", price=100), "cannot buy train")


def test_company_over_the_new_limit_must_discard() -> None:
    """When a phase change lowers the limit, a company over it discards trains to the bank
    pool (standard 18xx). CA is given four 3-trains by hand; BBG buys the first 4-train."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    for t in ("3-0", "3-1", "3-2", "3-3"):
        g.give_train(g.trains[t], "CA")
    retire_trains(g, "2", "3")
    set_cash(g, "BBG", 400)
    g.process(corp_act(A.BuyTrain, "BBG", train="4-0", price=350))
    assert g.acting() == ["CA"] and g.action_types("CA") == ["discard_train"]
    rejected(g, corp_act(A.DiscardTrain, "CA", train="4-0"), "does not own")
    g.process(corp_act(A.DiscardTrain, "CA", train="3-0"))
    assert g.trains["3-0"].owner == "discard" and len(g.corporations["CA"].trains) == 3
    assert g.acting() == ["BBG"]


def _must_buy() -> Game:
    """BBG has a route and, by hand, loses its train and has $30 left at the buy-train step."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    g.remove_train(g.trains["2-0"], "rusted")
    set_cash(g, "BBG", 30)
    return g


def test_trainless_company_with_a_route_must_buy_with_the_presidents_help() -> None:
    """A company with a route but no train must buy one; the president pays what the treasury
    lacks (summary: "Lokzwang existiert nur bei vorhandener Strecke")."""
    g = _must_buy()
    assert "pass" not in g.action_types("BBG")
    rejected(g, corp_act(A.Pass, "BBG"), "cannot pass")
    ann = g.player("1").cash
    g.process(corp_act(A.BuyTrain, "BBG", train="2-1", price=100))
    assert g.player("1").cash == ann - 70 and g.corporations["BBG"].cash == 0
    assert g.corporations["BBG"].trains == ["2-1"]


def test_president_helps_only_for_the_cheapest_bank_train() -> None:
    """The president's money may only go to the cheapest available train from the bank,
    pool included (summary: "Eine Bezuschussung durch den Direktor ist nur bei dem Kauf der
    preiswertesten verfügbaren Lok von der Bank (inklusive Pool) möglich"). By hand: the
    2-trains are gone except one in the pool, so the 3-train is also for sale."""
    g = _must_buy()
    retire_trains(g, "2", keep=("2-5",))
    g.trains["2-5"].owner = "discard"
    rejected(g, corp_act(A.BuyTrain, "BBG", train="3-0", price=225), "cannot afford")
    g.process(corp_act(A.BuyTrain, "BBG", train="2-5", price=100))
    assert g.corporations["BBG"].trains == ["2-5"]


def test_bankruptcy_may_be_declared_any_time_in_an_operating_round() -> None:
    """18xx.games offers "Declare Bankruptcy" throughout the operating round, also while the
    president could still pay (docs/rules-deviations.md): the president's cash goes to the
    bank and the game ends."""
    g = _must_buy()
    bank = g.bank
    cash = g.player("1").cash
    g.process(corp_act(A.Bankrupt, "BBG"))
    assert g.finished and g.player("1").bankrupt
    assert g.player("1").cash == 0 and g.bank == bank + cash


def test_d_train_trade_in() -> None:
    """A D-train costs $750 when a 4, 5 or 6-train is traded in (summary: "Sie kostet nur
    $750, wenn sie gegen eine 4-er, 5-er oder 6-er Lok eingetauscht wird"). By hand: phase 6,
    earlier trains gone, BBG has a 4-train and $800."""
    g = bbg_running()
    g.phase_index = 4
    retire_trains(g, "2", "3", "4", "5", "6")
    g.give_train(g.trains["4-0"], "BBG")
    set_cash(g, "BBG", 800)
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    rejected(g, corp_act(A.BuyTrain, "BBG", train="D-0", price=1100, exchange="4-0"), r"costs \$750")
    rejected(g, corp_act(A.BuyTrain, "BBG", train="D-0", price=750, exchange="2-0"), "cannot trade in")
    g.process(corp_act(A.BuyTrain, "BBG", train="D-0", price=750, exchange="4-0"))
    assert "D-0" in g.corporations["BBG"].trains and "4-0" not in g.corporations["BBG"].trains
    assert g.corporations["BBG"].cash == 800 + 40 - 750


# ------------------------------------------------------------------------------------- loans


def test_one_loan_per_operating_round_up_to_the_shares_held_by_players() -> None:
    """Loans of $100, one per OR, at most one per share in players' hands (summary: "AG's
    können pro OR eine Anleihe aufnehmen ... nur soviele Anleihen ... wie sich Aktien in
    Spielerhand befinden")."""
    g = bbg_first_or()
    cash = g.corporations["BBG"].cash
    g.process(corp_act(A.TakeLoan, "BBG"))
    assert g.corporations["BBG"].loans == 1 and g.corporations["BBG"].cash == cash + 100
    rejected(g, corp_act(A.TakeLoan, "BBG"), "cannot take loan")
    g2 = bbg_first_or()
    g2.corporations["BBG"].loans = 3  # by hand: 30% in players' hands = 3 loans
    assert "take_loan" not in g2.action_types("BBG")


def test_interest_is_paid_after_the_run() -> None:
    """$10 interest per loan, paid after the run step, not before (README: "the interest on
    loans is paid after the run step")."""
    g = bbg_running()
    g.process(corp_act(A.TakeLoan, "BBG"))
    assert g.corporations["BBG"].cash == 195
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    assert g.corporations["BBG"].cash == 185


def test_interest_comes_out_of_revenue_when_the_treasury_is_short() -> None:
    """Interest the treasury cannot pay (in multiples of $10) is deducted from the revenue
    (summary: "Bei fehlendem Geld wird der Rest vom Einfahrergebnis in Vielfachen von $10
    abgezogen"). By hand: BBG has 2 loans and $5."""
    g = bbg_running()
    g.corporations["BBG"].loans = 2
    set_cash(g, "BBG", 5)
    ann = g.player("1").cash
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="payout"))
    assert g.corporations["BBG"].cash == 5
    assert g.player("1").cash == ann + 4  # 20% of the 20 left


def test_interest_the_company_cannot_pay_is_paid_by_the_president() -> None:
    """Interest neither the treasury nor the revenue covers is paid by the president (18xx.games
    1856; 1836Jr56 summary "Der Direktor deckt Zinsen ... die die Gesellschaft nicht bezahlen
    kann"). By hand: BBG owes 5 loans ($50 interest) and has no cash; it runs for 40."""
    g = bbg_running()
    g.corporations["BBG"].loans = 5
    set_cash(g, "BBG", 0)
    ann = g.player("1").cash
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    assert g.player("1").cash == ann - 10 and g.corporations["BBG"].cash == 0


def test_no_interest_when_the_turn_ends_before_the_run_is_reached() -> None:
    """18xx.games settles interest after an action once the run step is over; a turn that ends
    with its run and dividend skipped right after the tile lay pays none that round (the rules
    charge $10 per loan every OR: "Für die gerade aufgenommene und für alle bereits existierende
    Anleihen muß die AG je $10 Zinsen bezahlen"; see docs/rules-deviations.md). By hand: after
    its loan BBG has $50, too little for a train, so its turn ends with the tile lay."""
    g = bbg_first_or()
    g.process(corp_act(A.TakeLoan, "BBG"))
    set_cash(g, "BBG", 50)
    lay(g, "BBG", "J15", "57-0", 0)
    assert isinstance(g.round, StockRound)  # BBG's turn (and the OR) is over
    assert g.corporations["BBG"].cash == 50


def test_interest_is_paid_once_the_run_is_over() -> None:
    """Each loan costs $10 interest once the run is over, from the treasury first (summary:
    "Für ... alle bereits existierende Anleihen muß die AG je $10 Zinsen bezahlen")."""
    g = bbg_running()
    g.corporations["BBG"].loans = 2
    set_cash(g, "BBG", 100)
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    assert g.corporations["BBG"].cash == 80


def test_loans_above_the_maximum_are_repaid_after_buying_trains() -> None:
    """A company with more loans than shares in players' hands repays the excess when its
    train buying ends (summary: "Bei Zwangsrückkauf muß ggf. der Direktor den Fehlbetrag
    selber bezahlen"). By hand: 4 loans with 30% in players' hands, $300 cash."""
    g = bbg_running()
    g.corporations["BBG"].loans = 4
    set_cash(g, "BBG", 300)
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))  # interest 40
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))  # +40
    assert g.corporations["BBG"].cash == 300
    pass_(g, "BBG")  # no train bought
    assert g.corporations["BBG"].loans == 3 and g.corporations["BBG"].cash == 200


# ------------------------------------------------------------------------------ destinations


def test_reaching_the_destination_releases_the_escrow() -> None:
    """An escrow company connecting home and destination gets the held money (summary;
    game hotseat006 #205: CV reaches I14 and receives its $400)."""
    g = at("1856", "hotseat006", 204)
    cv = g.corporations["CV"]
    assert cv.escrow == 400 and not cv.destinated
    cash = cv.cash
    g.process(raw_action("1856", "hotseat006", 205))
    assert cv.destinated and cv.escrow is None and cv.capitalization == "incremental"
    assert cv.cash > cash + 300


# ----------------------------------------------------------------------------------- privates


def test_privates_pay_their_owners_at_the_start_of_each_or() -> None:
    """Privates pay their revenue to their owners when an OR starts (FT 5, WSRC 10, TCC 10,
    GLSC 15, NFSBC 20, SCFTC 20; 18xx.games values)."""
    g = after_auction_1856()
    g.process(A.Par(entity="1", corporation="BBG", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("BBG_1",), percent=10))
    cash = [p.cash for p in g.players]
    finish_stock_round(g)
    assert [p.cash for p in g.players] == [cash[0] + 20, cash[1] + 30, cash[2] + 30]


def test_companies_buy_privates_for_half_to_twice_face_value_from_phase_3() -> None:
    """From phase 3 (until the privates close) a company may buy a private from a player for
    50% to 200% of its face value (summary: "Aktiengesellschaften können Privatbahnen für 50%
    bis 200% des Nennwertes von einem Spieler kaufen"). Phase and cash set by hand."""
    g = bbg_running()
    rejected(g, corp_act(A.BuyCompany, "BBG", company="GLSC", price=70), "cannot buy company")
    g.phase_index = 1
    set_cash(g, "BBG", 500)
    rejected(g, corp_act(A.BuyCompany, "BBG", company="GLSC", price=34), r"between \$35 and \$140")
    rejected(g, corp_act(A.BuyCompany, "BBG", company="GLSC", price=141), r"between \$35 and \$140")
    ann = g.player("1").cash
    g.process(corp_act(A.BuyCompany, "BBG", company="GLSC", price=140))
    assert g.companies["GLSC"].owner == "BBG" and g.player("1").cash == ann + 140
    assert g.corporations["BBG"].companies == ["GLSC"]


def test_first_5_train_closes_the_privates() -> None:
    """All privates close when the first 5-train is bought (summary phase table; 18xx.games
    close_companies). Earlier trains retired by hand."""
    g = bbg_running()
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="withhold"))
    retire_trains(g, "2", "3", "4")
    set_cash(g, "BBG", 600)
    open_ones = [c for c in g.companies.values() if not c.closed]
    held = [f"{c.sym} of {g.name_of(c.owner)}" for c in open_ones if c.owner]
    g.process(corp_act(A.BuyTrain, "BBG", train="5-0", price=550))
    assert all(c.closed for c in g.companies.values())
    assert all(not p.companies for p in g.players)
    # the log names the privates that close and who held them (a play-test asked which)
    assert held and f"-- Event: private companies close ({listed(held)}) --" in g.log


def test_port_marker_adds_20() -> None:
    """GLSC's port marker adds $20 to the hex for its company (summary: "wird er Wert der Stadt
    ... um $20 erhöht"; game hotseat006 #199 BBG places it on J17, #202 J15-J17 pays 60)."""
    g = at("1856", "hotseat006", 201)
    assert g.port_assignment.get("BBG") == "J17"
    act = raw_action("1856", "hotseat006", 202)
    routes = [dict(r) for r in act.to_dict()["routes"]]
    bad = [dict(r, revenue=r["revenue"] - 20) if "J17" in r["hexes"] else r for r in routes]
    rejected(g, corp_act(A.RunRoutes, "BBG", routes=tuple(bad)), "worth")
    g.process(act)


def test_port_marker_only_on_a_port_hex() -> None:
    """The GLSC marker goes on a hex with a port symbol only (18xx.games assign_hexes list).
    By hand: BBG owns GLSC."""
    g = bbg_running()
    c = g.companies["GLSC"]
    g.player("1").companies.remove("GLSC")
    c.owner = "BBG"
    g.corporations["BBG"].companies.append("GLSC")
    rejected(g, A.Assign(entity="GLSC", entity_type="company", target="J13", target_type="hex"),
             "cannot be assigned to J13")
    g.process(A.Assign(entity="GLSC", entity_type="company", target="J17", target_type="hex"))
    assert g.port_assignment["BBG"] == "J17" and c.closed


def test_tunnel_right_bought_for_50_and_worth_10() -> None:
    """Other companies may buy the tunnel right for $50 from the company owning SCFTC; it adds
    $10 to Sarnia (summary; game hotseat005 #159 LPS buys it, #161 C14-B13 runs for 90)."""
    g = at("1856", "hotseat005", 158)
    lps, gw = g.corporations["LPS"], g.corporations["GW"]
    assert g.companies["SCFTC"].owner == "GW"
    cash_lps, cash_gw = lps.cash, gw.cash
    g.process(raw_action("1856", "hotseat005", 159))
    assert lps.cash == cash_lps - 50 and gw.cash == cash_gw + 50
    assert "tunnel" in g.rights["LPS"]
    rejected(g, corp_act(A.SpecialBuy, "LPS", description="Tunnel Token", cost=50), "cannot special buy")
    g = at("1856", "hotseat005", 160)
    act = raw_action("1856", "hotseat005", 161)
    routes = tuple(dict(r, revenue=r["revenue"] - 10) for r in act.to_dict()["routes"])
    rejected(g, corp_act(A.RunRoutes, "LPS", routes=routes), "worth")
    g.process(act)


# ---------------------------------------------------------------------------- nationalization


def test_nationalization_merge_forms_the_cgr() -> None:
    """At the first 6-train a company that cannot repay its loans merges into the CGR; the CGR
    price is the merged price on the top row; each 2 shares become 1 CGR share, a lone CGR
    share makes its holder a president who must buy a second one (summary; game hotseat006
    #658 6-train, #660 CA merges at $175)."""
    g = at("1856", "hotseat006", 659)
    assert g.nationalizables == ["CA"] and turn_moves(g, "CA") == ["merge"]
    rejected(g, corp_act(A.Pass, "CA"), "cannot pass")  # Player 3 cannot pay the $191 owed
    g.process(raw_action("1856", "hotseat006", 660))
    cgr, ca = g.corporations["CGR"], g.corporations["CA"]
    assert ca.closed and cgr.started
    assert cgr.price is not None and cgr.price.price == 175 and cgr.price.row == 0
    p3 = g.players[2].id
    assert cgr.president == p3 and g.percent_of(p3, "CGR") == 10
    assert g.false_national_president == p3


def test_nationalization_president_may_pay_off_instead() -> None:
    """A president who can pay the rest of the loans does so and the company stays; if no
    company merges the CGR does not form (summary: "Weitere Anleihen können mit Hilfe des
    Bargeldes des Direktors zurückgekauft werden. Sind alle Anleihen zurückgekauft, dann wird
    die CGR nicht gegründet"). By hand: Player 3 gets $300."""
    g = at("1856", "hotseat006", 659)
    p3 = g.players[2].id
    set_cash(g, p3, 300)
    assert turn_moves(g, "CA") == ["merge", "pass"]
    g.process(corp_act(A.Pass, "CA"))
    ca = g.corporations["CA"]
    assert ca.loans == 0 and not ca.closed and g.player(p3).cash == 300 - 191
    assert g.corporations["CGR"].closed and not g.corporations["CGR"].started


def test_cgr_with_more_than_ten_shares_and_the_price_rule() -> None:
    """More than 10 CGR shares to issue: the CGR has 20 shares of 5%; its price is the
    average of the merged prices with the lowest dropped (3 or more), on the top row rounded
    to a multiple of 25 (summary; 18xx.games). By hand before the 6-train (hotseat006 #658):
    LPS ($300), BBG ($175) and TGB ($80) owe 3 loans each with empty treasuries."""
    g = at("1856", "hotseat006", 657)
    for sym in ("LPS", "BBG", "TGB"):
        g.corporations[sym].loans = 3
        set_cash(g, sym, 0)
    g.process(raw_action("1856", "hotseat006", 658))
    while g.nationalizables:
        sym = g.nationalizables[0]
        g.process(corp_act(A.Merge, sym, corporation=sym))
    cgr = g.corporations["CGR"]
    assert cgr.total_shares == 20
    # GW (which took a loan before buying the 6-train) merges too. Prices LPS 300, BBG 175,
    # GW 90, TGB 80, CA 175: without TGB's 80 the average is 185, nearest multiple of 25: 175
    # (all five would give 164 -> 150)
    assert g.pre_national_prices == {"LPS": 300, "BBG": 175, "GW": 90, "TGB": 80, "CA": 175}
    assert cgr.price is not None and cgr.price.price == 175 and cgr.price.row == 0
    assert sum(s.percent for s in g.corp_shares("CGR")) == 100


def test_cert_limit_after_nationalization_depends_on_companies_left() -> None:
    """After the CGR forms the 1856 certificate limit follows the number of companies
    (summary table "Papierlimit ab der 6-er Lok")."""
    g = at("1856", "hotseat006", 659)
    assert g.cert_limit() == 20
    g.process(raw_action("1856", "hotseat006", 660))
    left = sum(1 for c in g.corporations.values() if not c.closed)
    table = {4: 10, 5: 13, 6: 15, 7: 18, 8: 20, 9: 22, 10: 25, 11: 28}
    assert g.cert_limit() == table[min(max(left, 4), 11)]


# ------------------------------------------------------------------------------------ game end


def test_bankruptcy_ends_the_game() -> None:
    """A president who cannot raise the money for a train goes bankrupt and the game ends
    (1836Jr56 summary "sofortiges Ende"; game hotseat005 #218)."""
    g = at("1856", "hotseat005", 217)
    g.process(raw_action("1856", "hotseat005", 218))
    assert g.finished and g.end_reason == "bankrupt"
    assert any(p.bankrupt for p in g.players)
    rejected(g, A.Pass(entity=g.players[0].id), "game is over")


def test_broken_bank_ends_the_game_after_the_or_set() -> None:
    """When the bank breaks the game ends after the current set of ORs (summary "Gespielt wird
    bis zum Ende dieses Blocks Betriebsrunden"). By hand: the bank has $10 left."""
    g = bbg_running()
    g.bank = 10
    run(g, "BBG", route("2-0", ["J13", "J15"], 40))
    g.process(corp_act(A.Dividend, "BBG", kind="payout"))
    assert g.game_end_triggered == "bank" and not g.finished
    while not g.finished:
        pass_(g)
    assert g.end_reason == "bank" and isinstance(g.round, OperatingRound)


def test_final_value_counts_cash_shares_privates_minus_loans() -> None:
    """A player's value is cash + shares at market price - $10 per share per loan of that
    company + privates at face value (1856 END_GAME_LOAN_PENALTY_PER_SHARE)."""
    g = bbg_running()
    g.process(corp_act(A.TakeLoan, "BBG"))
    ann = g.player("1")
    price = g.corporations["BBG"].price.price  # type: ignore[union-attr]
    assert g.player_value(ann) == ann.cash + 2 * price - 2 * 10 + 20 + 70
    assert state(g)["players"]["Ann"]["value"] == g.player_value(ann)


def _money(g: Game) -> int:
    return (g.bank + sum(p.cash for p in g.players) + sum(c.cash for c in g.corporations.values())
            + sum(c.escrow or 0 for c in g.corporations.values()))


def test_game_stays_whole_after_a_rejected_action() -> None:
    """Money is only moved, never made or lost, also after a rejected action (conservation of
    money, every 18xx game); the round must keep acting on the game itself (engine contract:
    "on GameError the state is left exactly as it was")."""
    g = fresh()
    total = _money(g)
    with pytest.raises(GameError):
        g.process(A.Bid(entity="1", company="GLSC", price=70))
    g.process(A.Bid(entity="1", company="FT", price=20))
    assert g.round.game is g
    assert _money(g) == total
