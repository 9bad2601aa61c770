"""Rules as 18xx.games plays them, one test per divergence found by replaying generated games.

Each test takes a position from a game played by random legal moves on the 18xx.games engine
(tests/fixtures/generated, with its reference trace) and checks the one rule there.
docs/rules-deviations.md lists where 18xx.games differs from the published rules.
"""

from __future__ import annotations

from engine import actions as A
from engine.entities import POOL
from engine.game import Game
from tests.positions import at, raw_action, turn_moves

G56 = "generated/1856"
GJR = "generated/1836jr56"


def before(title: str, name: str, action_id: int) -> Game:
    return at(title, name, action_id - 1)


def play(g: Game, title: str, name: str, action_id: int) -> None:
    g.process(raw_action(title, name, action_id), safe=False)


def test_president_may_sell_in_the_train_step_while_the_corporation_owns_trains() -> None:
    """TGB owns a 2-train and cannot afford the next bank train ($225 3-train? no: the bank's
    cheapest) with its president's cash; the president may sell to raise money."""
    g = before(G56, "1856_p4_s102", 39)
    corp = g.round.corp
    assert corp.sym == "TGB" and corp.trains
    assert "sell_shares" in g.action_types("1")
    cash = g.player("1").cash
    play(g, G56, "1856_p4_s102", 39)
    assert g.player("1").cash > cash


def test_emergency_sale_counts_the_bundles_smallest_certificate() -> None:
    """"Only as much as needed" means: without its smallest certificate the sale would not be
    enough. A president's certificate sold alone is therefore always allowed when money is short."""
    g = before(GJR, "1836jr56_p3_s201", 93)
    assert [s.id for s in g.shares_of("2", "GCL") if s.president] == ["GCL_0"]
    play(g, GJR, "1836jr56_p3_s201", 93)
    assert g.shares["GCL_0"].owner != "2"


def test_any_player_may_declare_bankruptcy_in_an_operating_round() -> None:
    g = before(G56, "1856_p3_s105_alternate_destinations", 477)
    assert "bankrupt" in g.action_types("3")
    play(g, G56, "1856_p3_s105_alternate_destinations", 477)
    assert g.finished and g.player("3").bankrupt and g.player("3").cash == 0


def test_port_offboards_do_not_count_for_a_route_so_the_run_is_skipped() -> None:
    """1836Jr56 Nord reaches only Paris (J2, route:never) from Lille: no route, so after its
    token-step pass the run, dividend and train steps are skipped and HSM operates."""
    g = before(GJR, "1836jr56_p2_s202", 25)
    assert not g.can_run_routes(g.corporations["Nord"])
    play(g, GJR, "1836jr56_p2_s202", 25)
    assert g.acting() == ["HSM"]


def test_a_closing_corporation_gives_its_treasury_to_the_bank_and_its_trains_leave_play() -> None:
    g = before(G56, "1856_p3_s101", 130)
    ca = g.corporations["CA"]
    bank, cash, trains = g.bank, ca.cash, list(ca.trains)
    play(g, G56, "1856_p3_s101", 130)  # a sale drops CA to $0
    assert ca.closed and ca.cash == 0 and not ca.trains
    assert all(g.trains[t] not in g.depot_trains() for t in trains)
    assert g.bank == bank + cash - 30  # the seller got $30 for the share


def test_partial_president_sale_moves_the_certificates_as_18xx_games_does() -> None:
    """Player 3 sells GW_3 and 20% of the president's GW_0; player 2 becomes president and
    hands over GW_2 and GW_5, which are what reach the market; GW_3 returns to the seller."""
    g = before(G56, "1856_p6_s101", 72)
    play(g, G56, "1856_p6_s101", 72)
    assert g.shares["GW_0"].owner == "2"
    assert {g.shares["GW_2"].owner, g.shares["GW_5"].owner} == {POOL}
    assert g.shares["GW_3"].owner == "3"


def test_pre_printed_cities_are_named_hex_0_index() -> None:
    g = before(G56, "1856_p3_s102", 95)
    assert g.parse_city("I12-0-1") == ("I12", g.board.hexes["I12"].tile.cities[1].index)


def test_wsrc_station_is_the_turns_token_and_wsrc_closes_at_the_end_of_the_round() -> None:
    g = before(G56, "1856_p3_s102", 95)
    play(g, G56, "1856_p3_s102", 95)
    assert "place_token" not in g.action_types("WR")
    assert not g.companies["WSRC"].closed
    g2 = at(G56, "1856_p3_s103", 233)  # the round in which LPS used WSRC has ended
    assert g2.companies["WSRC"].closed


def test_cdh_places_the_teleport_station_itself() -> None:
    g = before(GJR, "1836jr56_p4_s201", 267)
    assert g.acting() == ["CdH"]
    play(g, GJR, "1836jr56_p4_s201", 267)
    assert "J8" in [t.hex for t in g.corporations["Nord"].tokens if t.used]


def test_home_station_on_a_hex_reserved_tile_is_chosen_even_with_one_free_city() -> None:
    g = before(G56, "1856_p3_s103", 560)
    assert g.acting() == ["THB"] and "place_token" in turn_moves(g, "THB")
    assert g.round.active_step().name == "place the home token"


def test_a_traded_in_train_goes_back_to_the_bank_for_sale() -> None:
    g = before(G56, "1856_p5_s101", 1066)
    assert g.trains["5-2"] in g.depot_trains()


def test_a_corporation_may_buy_past_its_train_limit_and_then_discards() -> None:
    g = before(G56, "1856_p5_s101", 1094)
    wr = g.corporations["WR"]
    assert len(wr.trains) == g.corp_train_limit(wr)
    play(g, G56, "1856_p5_s101", 1094)
    assert len(wr.trains) == g.corp_train_limit(wr) + 1 and g.action_types("WR")[-1:] == ["discard_train"]


def test_the_discard_step_waits_for_the_first_crowded_corporation_only() -> None:
    g = at(G56, "1856_p3_s103", 574)
    crowded = [c.sym for c in g.crowded_corps()]
    assert len(crowded) == 2 and g.acting() == crowded[:1]
    assert all("discard_train" in g.action_types(c) for c in crowded)


def test_nationalization_with_nobody_to_nationalize_leaves_the_national_unformed() -> None:
    g = at(G56, "1856_p6_s102", 977)
    cgr = g.corporations["CGR"]
    assert not cgr.closed and not cgr.started and not g.post_nationalization


def test_any_corporation_may_buy_a_right_during_the_operating_round() -> None:
    g = before(G56, "1856_p6_s104_unlimited_bonus_tokens", 264)
    assert g.round.corp.sym == "GW" and "special_buy" in g.action_types("GW")
    others = [c for c in g.corporations.values() if c.sym != g.round.corp.sym and g.special_buys(c)]
    assert all("special_buy" in g.action_types(c.sym) for c in others)


def test_the_certificate_limit_resets_when_a_corporation_closes_after_nationalization() -> None:
    g = before(G56, "1856_p5_s101", 1267)
    assert g.post_nationalization and g.cert_limit() == g.data.CERT_LIMIT[len(g.players)]


def test_e5_keeps_its_future_label_and_upgrades_to_123_in_gray() -> None:
    g = before(GJR, "1836jr56_p3_s203", 896)
    assert g.board.hexes["E5"].tile.future_label is not None
    play(g, GJR, "1836jr56_p3_s203", 896)
    assert g.board.hexes["E5"].tile.name == "123"


def test_after_the_presidents_sale_no_train_from_another_corporation() -> None:
    """GCL's president sold shares for its train; with less cash than the bank's cheapest train,
    other corporations' trains are no longer for sale, so after its 4-train (one of each type
    from the bank, 1836Jr56) the train step ends."""
    g = before(GJR, "1836jr56_p2_s205_diesel_variant", 317)
    play(g, GJR, "1836jr56_p2_s205_diesel_variant", 317)
    assert g.acting() == ["NFL"]


def test_the_nationals_train_limit() -> None:
    g = before(G56, "1856_p4_s105_alternate_destinations", 1046)
    cgr = g.corporations["CGR"]
    assert g.corp_train_limit(cgr) == g.train_limit + 1
    g2 = before(GJR, "1836jr56_p2_s202", 806)
    assert g2.corp_train_limit(g2.corporations["MESS"]) == g2.train_limit + 99  # before its discard


def test_the_national_borrows_from_the_pool_and_trades_at_face_value() -> None:
    g = before(GJR, "1836jr56_p2_s202", 826)
    assert turn_moves(g, "MESS") == ["borrow_train", "pass"]
    play(g, GJR, "1836jr56_p2_s202", 826)  # 8-3: the pool's first-discarded 8
    g2 = before(GJR, "1836jr56_p2_s202", 828)
    mess = g2.corporations["MESS"]
    other = next(g2.trains[t] for c in g2.corporations.values() if c.sym != "MESS" for t in c.trains)
    assert g2.face_value_only(mess, other)


def test_a_network_never_uses_the_same_track_twice() -> None:
    """TGB's stations reach only Kitchener's neighbourhood along track used once: the loop
    back through M8 does not open the way to K6, so it has no city to put a station in."""
    g = at(G56, "1856_p6_s105_alternate_destinations", 776)
    assert not g.tokenable_cities(g.corporations["TGB"])


def test_a_lifted_token_is_placed_again_by_the_corporation_that_laid_the_tile() -> None:
    g = at(G56, "1856_p5_s104_unlimited_bonus_tokens", 132)
    assert g.acting() == ["WGB"] and g.round.active_step().name == "place the home token"
    play(g, G56, "1856_p5_s104_unlimited_bonus_tokens", 133)
    assert "GT" in g.board.hexes["I12"].tokens[g.board.hexes["I12"].tile.cities[0].index]


def test_a_game_ends_at_turn_100() -> None:
    g = at(G56, "1856_p3_s104_unlimited_bonus_tokens", 2501)
    assert g.finished and g.end_reason == "dnf" and g.turn == 100


def test_a_bankrupt_player_sells_as_the_open_step_allows() -> None:
    """The player declaring bankruptcy in a train step sells, largest bundle first, only what
    the train step's rule lets them sell (one sale per corporation, no more than needed); their
    cash, even a debt, goes to the bank and the game ends."""
    g = before(G56, "1856_p3_s102", 663)
    act = raw_action(G56, "1856_p3_s102", 663)
    pres = g.corporations[str(act.entity)].president
    assert pres is not None and isinstance(act, A.Bankrupt)
    held = {s.id for s in g.shares_of(pres)}
    g.process(act, safe=False)
    assert g.finished and g.end_reason == "bankrupt" and g.player(pres).bankrupt
    assert g.player(pres).cash == 0
    assert {s.id for s in g.shares_of(pres)} <= held


def test_a_cash_crisis_may_sell_the_presidents_certificate_whole() -> None:
    """1856 cash crisis: a sale may not be larger than needed, judged without the bundle's
    smallest certificate. Player 4 owes $39 and holds only NFL's 20% president's certificate:
    selling all of it ($150) is allowed, as the certificate is the smallest in its bundle."""
    g = before(GJR, "1836jr56_p4_s707", 452)
    assert g.cash_crisis_player == "4" and g.player("4").cash == -39
    assert ("NFL", 20) in g.crisis_sellable("4")
    play(g, GJR, "1836jr56_p4_s707", 452)
    assert g.player("4").cash == 111 and g.corporations["NFL"].president == "3"


def test_a_closing_by_price_ends_the_turn_whose_step_it_empties_and_the_closed_last_corporation_passes() -> None:
    """18xx.games closes a corporation only after the action that drops its price to 0, then
    moves on when the step the turn was in has nothing left for the operating corporation:
    Player 2's sale of GCL in HSM's train step (no train left that HSM could buy) ends HSM's
    turn although HSM could repay a loan, and GCL, closed but last in the round, is current and
    must pass its loan step (it may take a loan: it keeps its shareholders' count)."""
    g = before(GJR, "1836jr56_p3_s8803", 101)
    hsm = g.corporations["HSM"]
    assert g.round.corp is hsm and hsm.loans and hsm.cash >= g.loan_value
    play(g, GJR, "1836jr56_p3_s8803", 101)
    assert g.corporations["GCL"].closed and g.round.corp.sym == "GCL"
    assert g.log.count("GCL closes") == 1  # the second share's price drop does not close it again
    assert g.round.acting() == ["GCL"]
    assert set(turn_moves(g, "GCL")) == {"take_loan", "pass"}
    assert "payoff_loan" not in turn_moves(g, "HSM")
    play(g, GJR, "1836jr56_p3_s8803", 102)
    assert g.round.name == "Stock Round"


def test_a_closed_last_corporation_takes_a_loan_with_the_loans_it_had() -> None:
    """The same on 18xx.games in 1856: CA, closed by Player 1's sale in BBG's turn and last in
    the round, takes a loan ($100) and pays interest on the loan it had and the new one."""
    g = before(G56, "1856_p3_s101", 131)
    assert g.round.corp.sym == "CA" and g.corporations["CA"].closed
    bank = g.bank
    play(g, G56, "1856_p3_s101", 131)
    assert g.bank == bank - 100 + 20
    assert g.round.name == "Stock Round"


def test_a_closing_moves_on_only_when_it_empties_the_step_then_holding_the_turn() -> None:
    """gen.rb 1856 (4 players, alternate destinations, seed 7345): in CV's train step (CV has $10,
    a 3-train that found no run and a loan), Player 1 sells a CA share (1654), dropping CA to the
    closing space. 18xx.games settles the action first: CV pays its $10 interest, so the train
    step offers it nothing and is skipped, and the loan step holds the turn; CA closes after
    that and the loan step still offers CV a loan, so the round stays with CV, which passes
    (1655) before LPS operates. (A closing that empties the step then holding the turn moves
    on at once: the 1836Jr56 seed 8803 test above.)"""
    name = "1856_p4_s7345_alternate_destinations_close_at_train_step_keeps_loan_step"
    g = before(G56, name, 1654)
    assert g.round.corp.sym == "CV" and g.corp("CV").cash == 10
    assert set(turn_moves(g, "CV")) == {"take_loan", "buy_train", "pass"}
    play(g, G56, name, 1654)
    assert g.corporations["CA"].closed and g.corp("CV").cash == 0
    assert g.round.corp.sym == "CV" and g.round.acting() == ["CV"]
    assert set(turn_moves(g, "CV")) == {"take_loan", "pass"}
    assert g.log.index("CV pays $10 interest for 1 loan") < g.log.index("CA closes")
    play(g, G56, name, 1655)
    assert g.round.corp.sym == "LPS"


def test_the_bank_never_runs_out_of_1856_eight_trains() -> None:
    """1856's 8-trains (and D-trains) are unlimited on 18xx.games: the bank holds one at a time
    and the next appears when it is sold, numbered on. gen.rb 1856 (5 players, seed 7602) sells
    the 23rd 8-train (8-22) to WGB at 1551; 1836Jr56 keeps its five 8s and 22 Ds."""
    name = "1856_p5_s7602_unlimited_bonus_tokens_eight_train_variant_23rd_eight_train"
    g = before(G56, name, 1551)
    eights = [t for t in g.upcoming_trains() if t.name == "8"]
    assert [t.id for t in eights] == ["8-22"] and eights[0].unlimited
    assert sum(1 for t in g.trains.values() if t.name == "8") == 23
    play(g, G56, name, 1551)
    assert g.trains["8-22"].owner == "WGB"
    assert [t.id for t in g.upcoming_trains() if t.name == "8"] == ["8-23"]
    assert "8-23" in [t.id for t in g.depot_trains()]


def test_unlimited_trains_appear_one_at_a_time() -> None:
    from engine.titles.registry import new_game

    g = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    assert [t.id for t in g.upcoming_trains() if t.name == "D"] == ["D-0"]
    g.give_train(g.trains["D-0"], "CA")
    assert [t.id for t in g.upcoming_trains() if t.name == "D"] == ["D-1"]
    g.remove_train(g.trains["D-1"], "discard")  # however a train leaves the bank, the next comes
    assert [t.id for t in g.upcoming_trains() if t.name == "D"] == ["D-2"]
    assert g.train_order.index("D-2") == g.train_order.index("D-1") + 1
    eight = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")], ["eight_train_variant"])
    assert [t.id for t in eight.upcoming_trains() if t.name in ("8", "D")] == ["8-0"]
    for options, kind, count in (([], "8", 5), (["diesel_variant"], "D", 22)):
        jr = new_game("1836Jr56", [("1", "A"), ("2", "B"), ("3", "C")], options)
        kept = [t for t in jr.upcoming_trains() if t.name == kind]
        assert len(kept) == count and not any(t.unlimited for t in kept)
