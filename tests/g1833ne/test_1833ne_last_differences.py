"""1833NE's last rule differences (issue #25), each test named by the rule: the emergency issue
as ``/moves issue`` offers it, the emergency sale that keeps the director, Sherbrooke's shared
station, the words players read and the provisional values changed in play."""

from __future__ import annotations

import pytest

from bot.choices import action_choices, example_for
from engine import actions as A
from engine.entities import POOL
from engine.errors import GameError
from engine.map.board import HexState
from engine.moves import MOVES, choices_for
from engine.titles.g1833ne.game import G1833NE
from tests.g1833ne.test_1833ne import new, par, start_or, stock_round
from tests.g1833ne.test_1833ne_rules import _trainless


def issue_choices_offered(g: G1833NE, sym: str) -> list[tuple[str, str]]:
    return [(c.value, c.label) for c in action_choices(g, sym, MOVES["issue"], "shares", {})]


# ---------------------------------------------------------------------------- /moves issue
def test_moves_issue_offers_the_emergency_bundles_at_their_emergency_price() -> None:
    """At the train step of a trainless corporation the issue choices are the engine's emergency
    bundles ($70 for one share, $120 for two on a $90 price), not the normal issue amounts, and
    every offered bundle is one the engine accepts."""
    g, rnd = _trainless(10)
    offered = issue_choices_offered(g, "CV")
    assert [label for _, label in offered] == [
        "10% of CV issued in an emergency for $70", "20% of CV issued in an emergency for $120"]
    assert [value.count(",") + 1 for value, _ in offered] == [1, 2]


def test_moves_issue_offers_nothing_after_the_emergency_bundles_are_spent() -> None:
    g, rnd = _trainless(80)  # the cheaper side is affordable: bundles still optional
    assert issue_choices_offered(g, "CV")
    g, rnd = _trainless(200)  # the dearer side is affordable: no emergency issue
    assert issue_choices_offered(g, "CV") == []


# ---------------------------------------------------------------------------- emergency sale
def _president_pays(*holdings: int) -> G1833NE:
    """CV ($90) trainless at its train step in phase III (cheapest train $230) with nothing in its
    treasury or to issue, its president P1 without cash; player i holds ``holdings[i]`` ordinary
    shares (P1 also the president's certificate), the rest are in the market."""
    g, rnd = _trainless(0)
    g.change_phase(g.phase_index_of("III"))
    for t in list(g.trains.values()):
        if g.card_of[t.id] in ("2", "3/5"):
            t.owner = "rusted"
    owners = [str(i + 1) for i, n in enumerate(holdings) for _ in range(n)]
    for i, s in enumerate(s for s in g.corp_shares("CV") if not s.president):
        g.move_share(s, owners[i] if i < len(owners) else POOL)
    g.player("1").cash = 0
    return g


def test_emergency_sale_never_changes_the_operating_corporations_director() -> None:
    """Summary "Notverkauf": the president sells his own shares "ohne einen Direktorwechsel ...
    der operierenden Gesellschaft herbeizuführen": he may fall level with another player (a tie
    keeps the director), never below."""
    g = _president_pays(2, 3, 3)  # P1 40%, P2 and P3 30%
    cv = g.corporations["CV"]
    assert g.needs_emergency_money(cv) and cv.president == "1" and g.emergency_shortfall(cv) > 200
    assert [pct for sym, pct in g.emergency_sellable(cv) if sym == "CV"] == [10]  # 20% would hand CV on
    with pytest.raises(GameError):
        g.process(A.SellShares(entity="1", shares=("CV_1", "CV_2"), percent=20))
    g = _president_pays(2, 2, 2)  # P1 40%, P2 and P3 20%: he may sell down to a tie at 20%
    assert [pct for sym, pct in g.emergency_sellable(g.corporations["CV"]) if sym == "CV"] == [10, 20]


# ---------------------------------------------------------------------------- Sherbrooke
def _lay(g: G1833NE, tile: str) -> HexState:
    tid = g.board.supply[tile][0]
    g.board.lay("F5", tid, 0)
    h = g.board.hexes["F5"]
    g.after_tile_laid(h)
    return h


def _stations(g: G1833NE, h: HexState) -> tuple[list[str], int]:
    """(who holds a station in Sherbrooke, free spaces for another corporation)."""
    slots = h.tokens[0]
    return [s for s in slots if s], g.board.free_slots(h, 0, "B&M")


def test_sherbrookes_shared_marker_is_one_station() -> None:
    """Summary: A&StL "teilt mit der StL&A einen Marker": the marker takes one space however the
    city's tile changes, and stays one station for the partner when the other closes; the space
    frees only when both have closed."""
    g = new()
    h = _lay(g, "57")
    assert _stations(g, h) == (["A&StL", "StL&A"], 0)
    h = _lay(g, "15")  # green, two spaces: one is still free
    assert _stations(g, h) == (["A&StL", "StL&A"], 1)
    g.close_corporation(g.corporations["A&StL"])
    assert _stations(g, h) == (["StL&A"], 1)  # not a second free space
    g.close_corporation(g.corporations["StL&A"])
    assert _stations(g, h) == ([], 2)


def test_sherbrookes_marker_of_a_closed_partner_is_not_placed() -> None:
    g = new()
    g.close_corporation(g.corporations["StL&A"])
    h = _lay(g, "57")
    assert _stations(g, h) == (["A&StL"], 0)


def test_a_takeover_inherits_the_shared_marker_as_the_same_station() -> None:
    """Summary (takeover): the acquirer "erbt ... Marker": it shares Sherbrooke's marker with the
    other partner, still one station."""
    g = new(3, ("takeover_game",))
    h = _lay(g, "57")
    g.sherbrooke_sharer_taken_over(g.corporations["A&StL"], g.corporations["BW"])
    g.close_corporation(g.corporations["A&StL"])  # as take_over does after the transfer
    assert _stations(g, h) == (["BW", "StL&A"], 0)
    g.close_corporation(g.corporations["StL&A"])
    assert _stations(g, h) == (["BW"], 0)


# ---------------------------------------------------------------------------- words
def test_buy_choices_name_the_treasury_not_the_ipo() -> None:
    """1833NE's unsold shares lie in the corporation's treasury (its IPO_NAME)."""
    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    pid = g.round.acting()[0]
    labels = [c.label for c in choices_for(g, pid, "buy_shares", {})]
    assert any("CV 10% from the treasury" in label for label in labels) and not any("IPO" in x for x in labels)


def test_a_discarded_train_is_named_by_its_side_not_its_card() -> None:
    g, rnd = _trainless(200)
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=100, variant="2+1"))
    g.discard_train(g.trains["2-0"])
    assert g.log[-1] == "CV discards a 2+1-train to the open market"


def test_accepting_a_takeover_is_logged() -> None:
    from engine.titles.g1833ne.takeover import AcceptTakeover, Takeover, TakeoverRound

    g = new(3, ("takeover_game",))
    stock_round(g)
    par(g, "1", "BW", 100)
    par(g, "2", "B&L", 50)
    g.phase_index = 1
    bl = g.corporations["B&L"]
    g.give_train(g.trains["2-0"], "BW")
    g.give_train(g.trains["2-1"], "B&L")
    tok = bl.tokens[1]  # a B&L station in BW's Boston city
    g.board.hexes["G22"].tokens[0].append("B&L")
    tok.used, tok.hex, tok.city = True, "G22", 0
    g.board.changed()
    g.round_num = 2
    g.round = TakeoverRound(g)
    g.round.start()
    g.process(Takeover(entity="BW", entity_type="corporation", corporation="B&L"))
    g.process(AcceptTakeover(entity="B&L", entity_type="corporation"))
    assert "B&L accepts the takeover by BW" in g.log and g.corporations["B&L"].closed


def test_help_examples_use_the_titles_own_names() -> None:
    """/help par in 1833NE names a 1833NE corporation, /help takeover a corporation of the
    takeover game, and a private's label does not repeat its id."""
    g = new()
    assert example_for(g, MOVES["par"].example).split()[1].removeprefix("corporation:") in g.corporations
    assert example_for(g, MOVES["bid"].example).split()[1].removeprefix("company:") in g.companies
    assert example_for(g, "/issue shares:GW_5") == f"/issue shares:{next(iter(g.corporations))}_5"
    takeover = new(3, ("takeover_game",))
    assert MOVES["takeover"].example.split()[1].removeprefix("corporation:") in takeover.corporations
    assert g.companies["P1"].name == "Granite Railway"


# ---------------------------------------------------------------------------- provisional values in play
def test_provisional_values_change_in_play_from_that_action_on_and_are_logged() -> None:
    """After the first operating round a set_provisional action (appended once the players
    agreed) changes the table from then on, told in the log; replay gives the same game."""
    from engine.export import export_game
    from engine.replay import replay
    from engine.titles.g1833ne.provisional import SetProvisional, parse_settings, source_of

    g, rnd = _trainless(200)
    assert not g.provisional_open()
    entries = tuple(parse_settings("Boston-Portland=70/70/90/90/30; ferry=30; notes=3", g.data))
    g.process(SetProvisional(entity="1", entries=entries))
    assert g.provisional.ferry_value == 30 and g.bank_reserve == 3000
    bonus = next(b for b in g.provisional.bonuses if {b.a, b.b} == {"G22", "I14"})
    assert bonus.values == (70, 70, 90, 90, 30)
    assert g.log[-1] == ("Provisional values changed by agreement of the players: "
                         "Boston-Portland $70/$70/$90/$90/$30; ferry $30; notes 3")
    assert source_of(g.provisional, "ferry") == "set by the host"  # shown as set, no longer a guess
    fresh = new()
    fresh.process(SetProvisional(entity="1", entries=entries))
    again = replay(export_game(fresh)).game
    assert again.provisional == fresh.provisional and again.bank_reserve == 3000


def test_ferry_ports_stay_once_a_ferry_is_bought() -> None:
    from engine.titles.g1833ne.provisional import SetProvisional, parse_settings

    g, rnd = _trainless(200)
    g.ferries[next(iter(g.ferries))] = "CV"
    entries = tuple(parse_settings("ports=Boston,Portland,C26,E26,H25", g.data))
    with pytest.raises(GameError, match="ferry ports"):
        g.process(SetProvisional(entity="1", entries=entries))


def test_p5s_owner_chooses_which_ferry_it_doubles_for_good() -> None:
    """Summary: P5 "verdoppelt den Wert einer der Fähren der Gesellschaft ...; kann nicht neu
    zugewiesen werden": the corporation owning P5 chooses (/assign by P5) which of its ferries,
    any time in its turn; none is doubled before, and the choice never moves."""
    g, rnd = _trainless(400)
    cv = g.corporations["CV"]
    g.companies["P5"].owner = "CV"
    cv.companies.append("P5")
    for hid in ("G22", "I14"):
        g.process(A.SpecialBuy(entity="CV", entity_type="corporation", description=f"Ferry {hid}"))
    assert g.p5_ferry is None and "assign" in g.action_types("P5")
    assert [c.value for c in choices_for(g, "P5", "assign")] == ["G22", "I14"]
    plain = g.ferry_value(cv, "G22")
    g.process(A.Assign(entity="P5", entity_type="company", target="G22", target_type="hex"))
    assert g.p5_ferry == "G22" and g.ferry_value(cv, "G22") == 2 * plain
    assert "P5 doubles CV's Boston ferry (for good)" in g.log
    assert "assign" not in g.action_types("P5")
    with pytest.raises(GameError):
        g.process(A.Assign(entity="P5", entity_type="company", target="I14", target_type="hex"))


def test_the_runs_story_tells_each_bonus_and_ferry_marked_provisional_where_it_is() -> None:
    """A route's revenue is no longer a bare total: each connection bonus and ferry inside it is
    told, marked provisional unless a source (or the host) states it (Boston-Montreal in phase I
    is the summary's $150; the ferry amounts are guesses)."""

    g, rnd = _trainless(400)
    cv = g.corporations["CV"]
    g.process(A.SpecialBuy(entity="CV", entity_type="corporation", description="Ferry G22"))
    stops = [("G22", 0), ("B3", 0)]
    items = g.bonus_items(cv, stops)
    assert items == [("Boston-Montreal (direct) bonus", 150, False), ('Boston ferry with "New"', 40, True)]
    assert sum(amount for _, amount, _ in items) == g.bonuses(cv, stops)  # the total they make up
    g.give_train(g.trains["2-0"], "CV")
    g.tell_bonuses(cv, [{"train": "2-0", "stops": stops}])
    assert g.log[-1] == ('CV\'s 2 train earns Boston-Montreal (direct) bonus +$150, '
                         'Boston ferry with "New" +$40 (provisional)')


# ---------------------------------------------------------------------------- money within a turn
def _p2_with_player(g: G1833NE) -> None:
    g.companies["P2"].owner = "2"
    g.player("2").companies.append("P2")


def _bl_in_first_or(cash: int | None = None) -> G1833NE:
    g = new()
    stock_round(g)
    par(g, "1", "B&L", 100)
    _p2_with_player(g)
    start_or(g)
    if cash is not None:
        g.corporations["B&L"].cash = cash
    return g


def test_bl_buying_lowell_merchants_in_its_phase_one_turn_lays_the_free_lowell_tile() -> None:
    """Summary, P2: "die kaufende Gesellschaft kann dort in derselben Runde kostenlos das
    Plättchen legen. Solange keine Gesellschaft sie gekauft hat, kann die Boston & Lowell in
    Phase I keine Gleise legen": B&L's track step waits while it may still buy P2, and buying
    it there lifts the ban at once (the step was passed for good before)."""
    g = _bl_in_first_or()
    assert g.phase["name"] == "I"
    assert "lay_tile" not in g.action_types("B&L")
    assert "buy_company" in g.action_types("B&L") and "pass" in g.action_types("B&L")
    with pytest.raises(GameError):
        g.process(A.LayTile(entity="B&L", entity_type="corporation", hex="G20", tile="5-0", rotation=0))
    g.process(A.BuyCompany(entity="B&L", entity_type="corporation", company="P2", price=40))
    assert "lay_tile" in g.action_types("B&L")
    cash = g.corporations["B&L"].cash
    g.process(A.LayTile(entity="B&L", entity_type="corporation", hex="G20", tile="5-0", rotation=0))
    assert g.corporations["B&L"].cash == cash  # free in the round P2 was bought
    assert g.board.hexes["G20"].tile.name == "5"


def test_bl_with_no_lowell_merchants_to_buy_has_no_track_step_in_phase_one() -> None:
    """P2 not in a player's hands (unsold here) cannot be bought: nothing waits for it."""
    g = new()
    stock_round(g)
    par(g, "1", "B&L", 100)
    start_or(g)
    assert "lay_tile" not in g.action_types("B&L")
    assert g.round.active_step() is None or g.round.active_step().name != "lay track"


def test_a_buyer_left_with_less_than_20_still_lays_the_free_lowell_tile() -> None:
    """Every lay costs at least $20, but P2's Lowell tile is free in the round it was bought:
    a buyer with $5 left is offered that lay (it was offered only its sales before)."""
    g = _bl_in_first_or(cash=45)
    g.process(A.BuyCompany(entity="B&L", entity_type="corporation", company="P2", price=40))
    assert g.corporations["B&L"].cash == 5
    assert "lay_tile" in g.action_types("B&L")
    g.process(A.LayTile(entity="B&L", entity_type="corporation", hex="G20", tile="5-0", rotation=0))
    assert g.corporations["B&L"].cash == 5
    # the second lay costs $20 it has not got; it could issue shares for it, so the step waits
    assert "lay_tile" not in g.action_types("B&L") and "pass" in g.action_types("B&L")
    assert "sell_shares" in g.action_types("B&L")


def _cv_poor(cash: int, holders: tuple[str, ...] = ("CV_1", "CV_2")) -> G1833NE:
    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    for sid, pid in zip(holders, ("2", "3", "2", "3"), strict=False):
        g.move_share(g.shares[sid], pid)
    g.corporations["CV"].cash = cash
    start_or(g)
    return g


def test_a_corporation_short_of_20_may_issue_shares_and_then_lay_track_and_place_a_station() -> None:
    """Summary: "Die Gesellschaft kann Aktien aus der Kasse am Markt ausgeben, um Geld zu
    beschaffen" (1846's order puts the issue before track and stations): with $10 the track
    step waits (pass only) instead of being passed at the start of the turn, and after the
    issue the corporation lays and builds with that money."""
    g = _cv_poor(10)
    assert g.action_types("CV") == ["sell_shares", "pass"]
    ids = tuple(s.id for s in g.ipo_shares("CV") if not s.president)[:2]
    g.process(A.SellShares(entity="CV", entity_type="corporation", shares=ids))
    cv = g.corporations["CV"]
    assert cv.cash > 100
    assert "lay_tile" in g.action_types("CV")
    g.process(A.Pass(entity="CV", entity_type="corporation"))  # no lay this time
    assert g.round.active_step().name != "lay track"


def test_a_station_waits_for_an_issue_that_pays_for_it() -> None:
    """The station step too: HR with $30 lays into New Haven ($20), and its $10 do not pay for
    the $80 station there; an issue could, so the step waits (pass only), then offers it."""
    g = new()
    stock_round(g)
    par(g, "1", "HR", 100)
    g.move_share(g.shares["HR_1"], "2")
    g.corporations["HR"].cash = 30
    start_or(g)
    g.process(A.LayTile(entity="HR", entity_type="corporation", hex="C26", tile="5-0", rotation=2))
    if g.round.active_step().name == "lay track":
        g.process(A.Pass(entity="HR", entity_type="corporation"))
    hr = g.corporations["HR"]
    assert hr.cash == 10 and g.cheapest_station(hr) == 80
    assert g.round.active_step().name == "place a token"
    assert "place_token" not in g.action_types("HR") and "pass" in g.action_types("HR")
    ids = tuple(s.id for s in g.ipo_shares("HR") if not s.president)[:1]
    g.process(A.SellShares(entity="HR", entity_type="corporation", shares=ids))
    assert "place_token" in g.action_types("HR")
    g.process(A.PlaceToken(entity="HR", entity_type="corporation", city="5-0-0"))
    assert "C26" in [t.hex for t in hr.tokens if t.used]


def test_a_corporation_that_cannot_raise_money_has_no_track_step() -> None:
    """Nothing to issue (no shares in players' hands beyond the president's) and under $20:
    the track and station steps are passed at once, as before."""
    g = _cv_poor(10, holders=())
    for sid in ("CV_1", "CV_2"):  # the market holds as many as the players: nothing to issue
        g.move_share(g.shares[sid], POOL)
    assert g.issue_options(g.corporations["CV"]) == []
    assert "lay_tile" not in g.action_types("CV") and "pass" not in g.action_types("CV")


def test_the_first_operating_round_keeps_its_reverse_order_when_re_sorted() -> None:
    """Summary: "die erste der Partie wird in umgekehrter Kursreihenfolge gespielt": a
    bankruptcy re-sorts the corporations still to run (recalculate_order); in OR 1.1 that
    keeps the lowest price first (it turned to highest first), in OR 1.2 highest first."""
    g = new()
    stock_round(g)
    for pid, sym, price in (("1", "CV", 100), ("2", "HR", 70), ("3", "RR", 40)):
        par(g, pid, sym, price)
    rnd = start_or(g)
    assert rnd.entities == ["RR", "HR", "CV"]
    rnd.recalculate_order()
    assert rnd.entities == ["RR", "HR", "CV"]
    g.round_num = 2
    assert [c.sym for c in g.operating_order()] == ["CV", "HR", "RR"]


def test_the_turn_line_says_what_comes_first_when_the_track_step_waits() -> None:
    """The player is not asked to "lay track" they cannot pay for: the line says what to do
    first (the buttons offer the issue and the pass)."""
    from bot.texts.turns import activity, fallback_line

    assert activity(_cv_poor(10), "CV") == "lay track (first issue shares) or pass"
    assert activity(_bl_in_first_or(), "B&L") == "lay track (first buy P2 (Lowell Merchants)) or pass"
    assert activity(_cv_poor(500), "CV") == "lay track"
    assert fallback_line(_bl_in_first_or(), "B&L", "pass", "pass") == "B&L passes (lay track)"


def test_bws_worcester_station_is_offered_at_40_with_40_in_cash() -> None:
    """Summary: B&W's marker in Worcester "kostet immer $40": the station choices (/moves token,
    the menu) price it $40 as the station itself does, and offer it with $40-79 in cash."""
    g = new()
    stock_round(g)
    par(g, "1", "BW", 70)
    start_or(g)
    g.process(A.LayTile(entity="BW", entity_type="corporation", hex="F23", tile="58-0", rotation=2))
    g.process(A.LayTile(entity="BW", entity_type="corporation", hex="E22", tile="57-0", rotation=2))
    g.corporations["BW"].cash = 50
    labels = [c.label for c in choices_for(g, "BW", "place_token")]
    assert any(label.startswith("E22") and "$40, leaves $10" in label for label in labels), labels
    g.process(A.PlaceToken(entity="BW", entity_type="corporation", city="57-0-0"))
    assert g.corporations["BW"].cash == 10


def test_the_last_private_of_the_auction_is_offered_alone() -> None:
    """With one private left there is no "other private" to bid on."""
    from bot.texts.turns import activity

    g = new()
    for comp, price in (("P1", 15), ("P2", 40), ("P3", 50), ("P4", 60), ("P5", 70)):
        g.process(A.Bid(entity=g.acting()[0], entity_type="player", company=comp, price=price))
    assert activity(g, g.acting()[0]) == "buy P6 for $80 or pass"


def test_player_facing_wording_of_issues_half_payouts_and_trains() -> None:
    """'issues 1 share' (not 'share(s)'), a half payout says what half it pays, a bank train is
    'from the bank' (not 'from the bank (bank)'), a train of another corporation is 'not owned'."""
    g = _cv_poor(10)
    ids = tuple(s.id for s in g.ipo_shares("CV") if not s.president)[:1]
    g.process(A.SellShares(entity="CV", entity_type="corporation", shares=ids))
    assert g.log[-1].startswith("CV issues 1 share for $")
    at_train, _ = _trainless(200)
    labels = [c.label for c in choices_for(at_train, "CV", "buy_train")]
    assert any(label.startswith("2-train from the bank, 2 $75 or 2+1 $100") for label in labels), labels
    poorer, _ = _trainless(85)  # the 2+1 side ($100) is not offered to a corporation with $85
    assert [c.label for c in choices_for(poorer, "CV", "buy_train")][0] == "2-train from the bank, 2 $75"
    with pytest.raises(GameError, match="CV does not own train 2-0"):
        g.check_routes(g.corporations["CV"], [{"train": "2-0", "connections": [], "hexes": [], "revenue": 0}])


def test_a_half_payout_says_which_half_it_pays() -> None:
    g = _cv_poor(100)
    rnd = g.round
    rnd.state["routes"] = [{"revenue": 60}]
    g.pay_dividend(rnd, g.corporations["CV"], "half")
    line = next(ln for ln in reversed(g.log) if "pays half" in ln)
    assert line.startswith("CV pays half of $60 ($30) = $3 per share (") and line.endswith("and keeps $30")


def test_the_auctions_standing_bids_are_shown_in_the_status_and_its_picture() -> None:
    """A private with bids is no longer shown "(for sale)": the status names its highest bid
    and who made it (they were shown nowhere)."""
    from types import SimpleNamespace

    from bot.texts.game import status_text
    from engine.decisions import standing_bids
    from render.status_image import companies_table

    g = new()
    g.process(A.Bid(entity=g.acting()[0], entity_type="player", company="P1", price=15))
    g.process(A.Bid(entity=g.acting()[0], entity_type="player", company="P4", price=65))
    g.process(A.Bid(entity=g.acting()[0], entity_type="player", company="P4", price=70))
    assert standing_bids(g) == {"P4": ("3", 70)}
    table = companies_table(g)
    assert table is not None
    owners = {str(row[0].text): row[2].text for row in table.rows}
    assert owners["P4"] == "(bid $70: P3)" and owners["P5"] == "(for sale)"
    row = SimpleNamespace(title="1833NE", id=1)
    assert "Standing bids: P4 $70 (P3)" in status_text(row, g, []).splitlines()


def test_a_trainless_corporation_that_must_issue_first_is_told_so() -> None:
    """Its train step offers only the issue: the turn line says "first issue shares" (the
    player saw no /train and no reason)."""
    from bot.texts.turns import activity

    g, _ = _trainless(10)
    assert g.action_types("CV") == ["sell_shares"]
    assert activity(g, "CV") == "buy trains (it must own a train) (first issue shares)"
    rich, _ = _trainless(500)
    assert activity(rich, "CV") == "buy trains (it must own a train)"
    # its president cannot pay either: the shortfall names the issue, once
    g.player("1").cash = 0
    assert activity(g, "CV") == \
        "buy trains (it must own a train; issue shares to raise the $65 missing for a 2-train ($75))"


def test_the_ferry_button_names_only_what_1833ne_sells() -> None:
    """The button read "Buy a right (1856 tunnel/bridge) or a ferry (1833NE)"."""
    from bot.play import MOVES
    from bot.texts.game import _move_components

    g = _cv_poor(500)
    buttons = _move_components(g, "CV", MOVES["right"], 0, {})
    assert buttons and buttons[0].label.startswith("Buy a ferry: choose"), buttons


def test_moves_heads_a_private_by_its_ability_and_says_when_nothing_fits() -> None:
    """/moves: P3 (owned by the operating corporation) is headed "use its ability", not the
    corporation's step; a command its step offers with nothing to choose says so, and why (a
    bare "/lay" led to "/moves lay": nothing to choose)."""
    from bot.handlers.moves import overview

    g = _cv_poor(500)
    g.companies["P3"].owner = "CV"
    g.corporations["CV"].companies.append("P3")
    lines = overview(g, {"1"})
    # named: typed without entity: both commands act for CV ("/moves lay" lists CV's hexes)
    assert "**P3**: use its ability" in lines and "  /lay entity:P3 hex: C4, C6 (/moves lay entity:P3)" in lines
    g.board.lay("C4", "3-0", 0)  # (by hand: both of P3's hexes taken)
    g.board.lay("C6", "7-0", 0)
    assert overview(g, {"1"})[-1] == "  /lay entity:P3 (no hex to choose now: no tile of P3's fits C4, C6)"


def test_a_private_lay_without_rotation_takes_its_only_rotation() -> None:
    """/lay hex:C4 tile:4 entity:P3 was refused "must connect to Montreal" (rotation 0 was
    tried): the only rotation that fits is taken, as for a corporation's lay."""
    from engine.moves.track import build_lay

    g = _cv_poor(500)
    g.companies["P3"].owner = "CV"
    g.corporations["CV"].companies.append("P3")
    action = build_lay(g, "P3", {"hex": "C4", "tile": "4"})
    assert action.rotation == 2
    g.process(action)
    assert g.board.hexes["C4"].tile.name == "4"


@pytest.mark.parametrize(("revenue", "kind", "columns"), [
    (100, "payout", 1),   # pays out the price: right (per share $10 would have fallen)
    (60, "payout", 0),    # at least half the price: stays
    (40, "payout", -1),   # under half: left
    (200, "half", 1),     # half of $200 paid out: $100, the price: right
    (180, "half", 0),
])
def test_the_price_moves_by_what_the_corporation_pays_out_in_all(revenue: int, kind: str, columns: int) -> None:
    """Rules summary, "Linearer Markt": the payout of the corporation against its price (a
    share's part was compared, so nearly every payout fell)."""
    g = _cv_poor(100)
    cv = g.corporations["CV"]
    before = cv.price
    assert before is not None and before.price == 100
    rnd = g.round
    rnd.state["routes"] = [{"revenue": revenue}]
    effect = g.dividend_effect(cv, revenue, kind)
    g.pay_dividend(rnd, cv, kind)
    assert cv.price is not None and cv.price.col == before.col + columns
    assert effect.price is cv.price
