"""1833NE rules checked against the summary and 18xx.games (issue #16): the provisional values,
P3, the emergency issue the president chooses, how the game ends, the re-checked decisions
and the self-play summary; each test names the rule (notes: notes.md)."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.errors import GameError
from engine.export import export_game
from engine.replay import replay
from engine.rounds.operating import OperatingRound
from engine.titles.g1833ne import data as g1833ne_data
from engine.titles.g1833ne import provisional as P
from engine.titles.g1833ne.game import G1833NE
from tests.fixture_util import load_export
from tests.g1833ne.test_1833ne import _operating, new, par, start_or, stock_round

PORTLAND = ("I14", 0)
BOSTON = ("G22", 0)


def with_values(text: str, *options: str) -> G1833NE:
    """A 3-player game whose host set ``text`` (as typed after ``bonuses:``)."""
    entries = P.parse_settings(text, g1833ne_data)
    return G1833NE(g1833ne_data, [("1", "P1"), ("2", "P2"), ("3", "P3")], [*options, *entries], seed=1)


def to_train_step(g: G1833NE) -> OperatingRound:
    """Pass the operating corporation's track (its dividend then withholds: no train)."""
    rnd = g.round
    g.process(A.Pass(entity=rnd.corp.sym, entity_type="corporation"))
    return rnd


# ---------------------------------------------------------------------------- 1 provisional values
def test_only_boston_montreal_in_phases_one_to_four_is_built_in() -> None:
    """Summary: "Boston und Montreal: $150 in den Phasen I-II und $200 in III-IV" is the only
    bonus it states; every other bonus, the phase-V value, the ferry ports and values and the
    $1,000 notes set aside are provisional (shown as such, with their source)."""
    assert g1833ne_data.CONNECTION_BONUSES == [
        {"between": ["G22", "B3"], "by_phase": {"I": 150, "II": 150, "III": 200, "IV": 200}}]
    for name in ("CONNECTION_BONUS_TABLE", "FERRY_PORTS", "FERRY_VALUE", "FERRY_NEW_BONUS", "BANK_RESERVE"):
        assert not hasattr(g1833ne_data, name)  # guesses live only in the per-game table
    rows = new().provisional_rows()
    assert rows[0] == ["Boston-Montreal (direct)", "150", "150", "200", "200", "100", "summary I-IV; V provisional"]
    assert all(r[-1] == "provisional" for r in rows[1:])
    assert [r[0] for r in rows[-3:]] == ["Ferry (each)", 'Ferry "New" bonus', 'Ferry "Last" bonus']
    lines = new().provisional_lines()
    assert any(line.startswith("Ferry ports: Boston G22, Portland I14, New Haven C26, Norwich E26, Hyannis I26")
               for line in lines)
    assert any("$2,000 left (provisional)" in line for line in lines)


def test_host_values_replace_the_guesses_in_play() -> None:
    """Set by the host: a bonus pair (its kind kept unless named), a new pair, ferry values,
    ports and the $1,000 notes; routes, ferries and the bank use them."""
    g = with_values("Boston-Portland=70/70/90/90/30; New York-Montreal=cross:5/5/5/5/5; ferry=30; "
                    "new=15; ports=Boston,Portland,C26,E26,H25; notes=3")
    t = g.provisional
    assert t.ferry_ports == ("G22", "I14", "C26", "E26", "H25") and g.bank_reserve == 3000
    assert next(b for b in t.bonuses if {b.a, b.b} == {"G22", "I14"}).values == (70, 70, 90, 90, 30)
    assert next(b for b in t.bonuses if {b.a, b.b} == {"A28", "B3"}).kind == "cross"
    _operating(g, "B&P")
    bp = g.corporations["B&P"]
    assert g.bonuses(bp, [BOSTON, PORTLAND]) == 70
    g.ferries["I14"] = "B&P"
    g.ferry_order.append("I14")
    assert g.ferry_value(bp, "I14") == 45 and g.bonuses(bp, [BOSTON, PORTLAND]) == 115
    sources = {r[0]: r[-1] for r in g.provisional_rows()}
    assert sources["Boston-Portland (direct)"] == "set by the host"
    assert sources["Montreal-Portland (cross)"] == "provisional"


@pytest.mark.parametrize(("text", "match"), [
    ("Boston-Atlantis=1/2/3/4/5", "not a place on the map"),
    ("Boston-Portland=1/2/3", "five values"),
    ("Boston-Portland=sideways:1/2/3/4/5", "direct or cross"),
    ("Concord-Boston=1/1/1/1/1", "ambiguous"),
    ("ports=G22,I14", "5 different places"),
    ("notes=12", "0 to 5"),
    ("speed=3", "unknown setting"),
    ("ferry", "key=value"),
])
def test_host_values_are_checked(text: str, match: str) -> None:
    """A value the engine cannot read is refused with the reason (never ignored)."""
    with pytest.raises(GameError, match=match):
        P.parse_settings(text, g1833ne_data)


def test_host_values_travel_with_the_export() -> None:
    """Stored as entries of the game's optional rules, the values are exported with the game
    and replay with it."""
    g = with_values("ferry=25 Boston-Portland=10/10/10/10/10")
    export = export_game(g)
    assert "provisional:ferry=25" in export["settings"]["optional_rules"]
    again = replay(export).game
    assert again.provisional == g.provisional


def test_e26_is_norwich_and_the_docks_give_the_default_ports() -> None:
    """18xx.games names E26 Norwich (the ferry list said New London); its port icons sit on C28
    (New Haven) and E28 (Norwich), the blue terminal J25 beside Hyannis (I26), and the Boston and
    Portland tiles carry harbour nodes: those five are the default ports."""
    g = new()
    assert g.data.LOCATION_NAMES["E26"] == "Norwich" and P.place_name("E26", g.data) == "Norwich"
    assert g.board.hexes["E28"].neighbors[3] == "E26" and g.board.hexes["J25"].neighbors[1] == "I26"
    assert g.board.hexes["C28"].neighbors[3] == "C26"
    assert tuple(g.ferries) == ("G22", "I14", "C26", "E26", "I26")


def test_new_moves_to_the_newest_ferry_and_last_is_on_the_fifth() -> None:
    """Summary: the "New" bonus always passes to the most recently bought ferry; P5 doubles one
    ferry "einschließlich der Boni New oder Last".  Decision: once no ferry is left for sale
    the most recently bought carries "Last" instead of "New"."""
    g = with_values("ferry=20 new=10 last=40")
    _operating(g)
    cv = g.corporations["CV"]
    for i, hid in enumerate(g.provisional.ferry_ports):
        g.ferries[hid] = "CV"
        g.ferry_order.append(hid)
        if i < 4:
            assert g.ferry_badge(hid) == "New" and g.ferry_value(cv, hid) == 30
    last = g.provisional.ferry_ports[-1]
    assert g.ferry_badge(last) == "Last" and g.ferry_value(cv, last) == 60
    assert g.ferry_badge(g.provisional.ferry_ports[0]) is None
    g.companies["P5"].owner = "CV"
    cv.companies.append("P5")
    g.p5_ferry = last
    assert g.ferry_value(cv, last) == 120  # P5: the ferry and its bonus doubled


def test_p4_doubles_only_the_a6_boston_bonus_in_phases_one_to_three() -> None:
    """Summary, P4: "verdoppelt in den Phasen I-III die Boni für Strecken von A6 nach Boston"."""
    g = with_values("Ogdensburg-Montreal=cross:7/7/7/7/7")
    _operating(g)
    cv = g.corporations["CV"]
    a6 = ("A6", g.board.hexes["A6"].tile.offboards[0].index)
    montreal = ("B3", 0)
    plain = g.bonuses(cv, [a6, BOSTON]), g.bonuses(cv, [a6, montreal])
    g.companies["P4"].owner = "CV"
    cv.companies.append("P4")
    assert (g.bonuses(cv, [a6, BOSTON]), g.bonuses(cv, [a6, montreal])) == (2 * plain[0], plain[1])
    g.change_phase(g.phase_index_of("IV"))
    assert g.bonuses(cv, [a6, BOSTON]) == g.provisional.bonuses[3].value_in("IV")


def test_status_picture_shows_the_provisional_table() -> None:
    """The status picture carries the table, titled "provisional: set from your rulebook"."""
    import io

    from PIL import Image

    from render.status_image import PROVISIONAL_TITLE, provisional_table, render_status

    g = with_values("ferry=30")
    table = provisional_table(g)
    assert table is not None and "set from your rulebook" in PROVISIONAL_TITLE
    assert table.headers == ["Bonus / ferry", "I", "II", "III", "IV", "V", "Source"]
    ferry = next(r for r in table.rows if r[0].text == "Ferry (each)")
    assert [c.text for c in ferry[1:]] == ["30", "30", "30", "-", "-", "set by the host"]
    assert ferry[1].bold  # the current phase
    assert Image.open(io.BytesIO(render_status(g))).size[1] > 900


# ---------------------------------------------------------------------------- 2 P3
def _p3_game() -> G1833NE:
    g = new()
    _operating(g)
    g.companies["P3"].owner = "CV"
    g.corporations["CV"].companies.append("P3")
    return g


def _p3(g: G1833NE, hex_id: str, tile: str, rotation: int) -> None:
    g.process(A.LayTile(entity="P3", entity_type="company", hex=hex_id, tile=tile, rotation=rotation))


def _rotation(g: G1833NE, hex_id: str, tile: str, edges: set[int], avoid: set[int] = frozenset()) -> int:
    base = g.board.tile_for(tile.rsplit("-", 1)[0])
    on_map = set(g.board.hexes[hex_id].neighbors)  # no track off the map or into a barrier
    return next(r for r in range(6) if edges <= base.with_rotation(r).exits <= on_map
                and not avoid & base.with_rotation(r).exits)


def test_p3_lays_3_4_58_on_c4_and_7_8_9_on_c6() -> None:
    """18xx.games step/special_track.rb: P3_TILES C4 3/4/58, C6 7/8/9."""
    g = _p3_game()
    with pytest.raises(GameError, match="P3 lays tile 7 or 8 or 9 on C6"):
        _p3(g, "C6", "3-0", 0)
    with pytest.raises(GameError, match="P3 lays tile 3 or 4 or 58 on C4"):
        _p3(g, "C4", "8-0", 0)


def test_p3_c4_laid_after_c6_must_connect_to_montreal_and_to_c6() -> None:
    """Summary: P3's two tiles "miteinander verbunden und das in C4 mit Montreal": with C6 laid
    first, C4 must reach B3 (edge 2) and C6 (edge 0); and C6 must have the matching track back."""
    g = _p3_game()
    _p3(g, "C6", "8-0", _rotation(g, "C6", "8-0", set(), {3}))  # C6 turned away from C4
    rot = _rotation(g, "C4", "58-0", {0, 2})
    with pytest.raises(GameError, match="C4 and C6 must connect to each other"):
        _p3(g, "C4", "58-0", rot)  # C4 points at C6, C6 does not point back

    g = _p3_game()
    _p3(g, "C6", "8-0", _rotation(g, "C6", "8-0", {3}))
    with pytest.raises(GameError, match="must connect to Montreal"):
        _p3(g, "C4", "58-0", _rotation(g, "C4", "58-0", {0}, {2}))
    with pytest.raises(GameError, match="must connect to each other"):
        _p3(g, "C4", "58-0", _rotation(g, "C4", "58-0", {2}, {0}))
    _p3(g, "C4", "58-0", _rotation(g, "C4", "58-0", {0, 2}))
    assert g.p3_hexes_laid == ["C6", "C4"]


# ---------------------------------------------------------------------------- 3 emergency issue
def _trainless(cash: int) -> tuple[G1833NE, OperatingRound]:
    """CV ($100 start, other players hold 30%) trainless at its train step with ``cash``."""
    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    for sid in ("CV_1", "CV_2", "CV_3"):
        g.move_share(g.shares[sid], "2")
    start_or(g)
    rnd = to_train_step(g)
    g.corporations["CV"].cash = cash
    return g, rnd


def _issue(g: G1833NE, n: int) -> None:
    ids = tuple(s.id for s in g.ipo_shares("CV") if not s.president)[:n]
    g.process(A.SellShares(entity="CV", entity_type="corporation", shares=ids))


def test_president_chooses_the_emergency_bundle() -> None:
    """Summary "Notverkauf" and 18xx.games emergency_issuable_bundles: while the treasury is below
    the dearer side of the cheapest card the corporation may issue, the president choosing among
    the bundles that reach the cheaper side up to the first that reaches the dearer one; below the
    cheaper side it must issue before the president pays."""
    g, rnd = _trainless(10)
    cv = g.corporations["CV"]
    assert cv.price.price == 90  # withheld (no train)
    assert g.emergency_issue_bundles(rnd, cv) == [(1, 70), (2, 120)]  # $75 / $100 card
    assert "buy_train" not in g.action_types("CV") and "sell_shares" in g.action_types("CV")
    assert g.action_types("1") == []  # the president waits: the corporation issues first
    with pytest.raises(GameError, match="sell_shares"):
        g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=75, variant="2"))
    with pytest.raises(GameError, match="cannot issue 3"):
        _issue(g, 3)
    _issue(g, 2)
    rnd, cv = g.round, g.corporations["CV"]  # a refused action restores the state (new objects)
    assert cv.cash == 130 and cv.price.price == 70 and g.emergency_issue_bundles(rnd, cv) == []
    with pytest.raises(GameError, match="needed the last share"):  # 1 share would have paid the 2
        g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=75, variant="2"))
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=100, variant="2+1"))
    cv = g.corporations["CV"]
    assert cv.trains == ["2-0"] and cv.cash == 30


def test_emergency_issue_is_optional_when_the_cheaper_side_is_affordable() -> None:
    """With the cheaper side in the treasury the corporation may buy it or issue for the dearer."""
    g, rnd = _trainless(80)
    assert {"buy_train", "sell_shares"} <= set(g.action_types("CV"))
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=75, variant="2"))
    assert g.corporations["CV"].trains == ["2-0"]


def test_emergency_issue_of_all_shares_when_no_bundle_reaches_a_train() -> None:
    """Summary: "muss dann Aktien bis zum üblichen Limit ausgeben": only the largest bundle is
    offered when none reaches the cheaper side; then the president pays the rest."""
    g, rnd = _trainless(0)
    cv = g.corporations["CV"]
    g.change_phase(g.phase_index_of("III"))  # cheapest card now 4/7 or 3+3 ($320/$230)
    for t in list(g.trains.values()):
        if g.card_of[t.id] in ("2", "3/5"):
            t.owner = "rusted"
    set_price(g, "CV", 40)
    assert g.emergency_issue_bundles(rnd, cv) == [(2, 20)]  # price 40 -> 20, shares at $10
    _issue(g, 2)
    assert cv.cash == 20 and g.emergency_issue_bundles(rnd, cv) == []
    assert "buy_train" in g.action_types("CV")  # now with the president's money (or his shares)


def set_price(g: G1833NE, sym: str, price: int) -> None:
    corp = g.corporations[sym]
    corp.price = g.market.move(sym, corp.price, next(c for c in g.market.grid[0] if c and c.price == price))


def test_private_only_with_a_train_after_an_emergency_issue() -> None:
    """18xx.games (1846 BuyCompany): after an emergency issue the corporation may buy a private
    only once it has a (non-obsolete) train again."""
    g, rnd = _trainless(10)
    cv = g.corporations["CV"]
    g.companies["P1"].owner = "2"
    g.player("2").companies.append("P1")
    assert g.can_buy_companies(cv)
    _issue(g, 1)
    assert not g.can_buy_companies(cv)
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=75, variant="2"))
    assert g.can_buy_companies(cv)


# ---------------------------------------------------------------------------- 4 game end
def test_no_end_when_everyone_passes_with_no_corporation_running() -> None:
    """Summary "Spielende": only the bank and bankruptcies end the game (18xx.games adds the last
    train and all closed): a stock round in which nobody starts a corporation does not end it."""
    g = new()
    stock_round(g)
    for _ in range(3):
        g.process(A.Pass(entity=g.round.acting()[0], entity_type="player"))
    assert not g.finished and g.turn == 2


def test_bank_ends_the_game_after_the_current_set() -> None:
    """Summary: "Der Bank geht das Geld aus: Die laufende Sequenz ... wird zu Ende gespielt"."""
    g = new()
    _operating(g)
    g.bank = g.bank_reserve
    g.check_bank()
    assert g.game_end_triggered == "bank" and g.end_after_turn == 1
    g.round_num = 1
    g._or_set_size = 2
    assert not g.check_game_end("operating")
    g.round_num = 2
    assert g.check_game_end("operating") and g.end_reason == "bank"
    assert g.end_reason_text == "the bank ran out of money and the set of operating rounds was played to its end"


def test_last_train_sold_ends_after_one_more_set() -> None:
    """18xx.games GAME_END_CHECK final_train: :one_more_full_or_set."""
    g = new()
    _operating(g)
    cv = g.corporations["CV"]
    last = g.train_order[-1]
    for tid in g.train_order[:-1]:
        g.trains[tid].owner = "rusted"
    cv.cash = 2000
    g.bank -= 2000 - 160
    g.process(A.Pass(entity="CV", entity_type="corporation"))
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train=last, price=1000, variant="7+3"))
    assert g.game_end_triggered == "final_train" and g.end_after_turn == 2
    assert g.turn == 2 and not g.finished  # turn 1's set ended (CV alone, one OR): play on
    g.round = g.new_operating_round(1)
    g._or_set_size, g.round_num = 2, 1
    assert not g.check_game_end("operating")
    g.round_num = 2
    assert g.check_game_end("operating") and g.end_reason == "final_train"


def test_everything_closed_ends_the_game_at_once() -> None:
    """18xx.games GAME_END_CHECK all_closed: every corporation and private closed, immediately."""
    g = new()
    for c in [*g.corporations.values(), *g.companies.values()]:
        c.closed = True
    g.check_end_triggers()
    assert g.finished and g.end_reason == "all_closed"
    assert g.end_reason_text == "every corporation and private company had closed"


def test_end_of_game_summary_says_why_in_the_titles_words() -> None:
    from bot.texts.summary import Summary, summary_lines

    s = Summary(title="1833NE", reason="final_train", standings=[], stock_rounds=9, operating_rounds=18,
                days=None, reason_text="the last train was sold and one more set of operating rounds was played")
    assert "is over: the last train was sold" in summary_lines(s)[0]


# ---------------------------------------------------------------------------- 5 re-checked decisions
def test_seven_plus_three_costs_1000() -> None:
    """Summary: "Phase V - 7+3-Zug ($1.000)" (18xx.games: $950)."""
    g = new()
    card = next(t for t in g.trains.values() if g.card_of[t.id] == "7+3")
    assert g.side_prices(card) == [1000]


def test_p2_route_restriction_outlives_p2_while_boston_is_yellow() -> None:
    """Summary, P2: "Solange keine Gesellschaft sie gekauft hat, kann die Boston & Lowell ... weder
    in Phase I noch später Strecken fahren, solange Boston nicht aufgewertet ist"."""
    g = new()
    _operating(g, "B&L")
    bl = g.corporations["B&L"]
    g.give_train(g.trains["2-0"], "B&L")
    g.change_phase(g.phase_index_of("III"))  # P2 removed, never bought by a corporation
    assert g.companies["P2"].closed and not g.can_run_routes(bl)
    g.p2_bought_key = (1, "Operating Round", 1)  # had a corporation bought it
    assert g.can_run_routes(bl)


def test_all_pass_auction_pays_the_privates_twice_without_lowering_prices() -> None:
    """18xx.games step/waterfall_auction.rb: when everyone passes, the bids standing are resolved
    and two special operating rounds pay the privates; no price falls."""
    g = new()
    rnd = g.round
    assert type(rnd).__name__ == "NEAuctionRound"
    first = rnd.acting()[0]
    g.process(A.Bid(entity=first, entity_type="player", company="P1", price=15))  # bought outright
    second = rnd.acting()[0]
    g.process(A.Bid(entity=second, entity_type="player", company="P3", price=55))  # a bid
    cash = g.player(first).cash
    for _ in range(3):
        g.process(A.Pass(entity=rnd.acting()[0], entity_type="player"))
    assert g.companies["P3"].owner == second  # the single bid was resolved
    assert g.player(first).cash == cash + 2 * 5  # P1 paid twice
    assert g.companies["P2"].min_bid == 40 and g.companies["P2"].owner is None
    assert any("special operating round" in line for line in g.log)


def test_two_bids_on_the_same_private_are_auctioned_when_all_pass() -> None:
    g = new()
    rnd = g.round
    a, b, c = (rnd.acting()[0], None, None)
    g.process(A.Bid(entity=a, entity_type="player", company="P4", price=65))
    b = rnd.acting()[0]
    g.process(A.Bid(entity=b, entity_type="player", company="P4", price=70))
    c = rnd.acting()[0]
    for who in (c, a, b):
        g.process(A.Pass(entity=who, entity_type="player"))
    assert rnd.auctioning == "P4" and rnd.acting() == [a]
    g.process(A.Pass(entity=a, entity_type="player"))
    assert g.companies["P4"].owner == b and rnd.auctioning is None


# ---------------------------------------------------------------------------- 6 self-play summary
def test_selfplay_summary_prints_1833ne_facts() -> None:
    """Self-play's summary line counts what 1833NE has: players gone bankrupt (not "ended in
    bankruptcy"), phase V, takeovers in the Takeover game; no national."""
    from bot.tools.selfplay import title_facts
    from engine.selfplay import GameReport

    reports = [GameReport(seed=1, players=3, end_reason="bank", bankrupt=True, takeovers=2, phases={"V"}),
               GameReport(seed=2, players=3, end_reason="bankrupt", bankrupt=True)]
    facts = title_facts("1833NE", ["takeover_game"], reports)
    assert facts == ["2 with a player bankrupt", "1 reached phase V", "2 takeovers"]
    assert not any("national" in f for f in facts)
    assert "takeovers" not in " ".join(title_facts("1833NE", [], reports))
    assert title_facts("1856", [], reports)[0] == "0 formed the national"


def test_automatic_seat_issues_and_buys_a_legal_side() -> None:
    """A conceded player's automatic seat can play the emergency: the issue bundles are offered
    as /issue choices (``choices_for``), and it buys the cheapest side it may."""
    from bot.robot import robot_action
    from engine.moves import choices_for

    g, rnd = _trainless(10)
    offered = [c.label for c in choices_for(g, "CV", "sell_shares")]
    assert offered == ["10% of CV issued in an emergency for $70", "20% of CV issued in an emergency for $120"]
    for _ in range(2):
        g.process(robot_action(g, "CV", seed=1))
    cv = g.corporations["CV"]
    assert len(cv.trains) == 1 and g.emergency_issue_bundles(g.round, cv) == []


# ---------------------------------------------------------------------------- Notverkauf: the president sells
def test_a_trainless_corporation_waits_for_its_presidents_sale() -> None:
    """Summary "Notverkauf": a trainless corporation pays what it can, then "schießt der Direktor
    Privatgeld zu und muss … eigene Aktien verkaufen". BW ($10, no train, no share left to
    issue) must buy the $230 3+3 side; its president has $62 and shares: the turn waits in the
    train step for their sales (it was skipped: BW ran nothing and bought nothing). A play-test
    game (the computer played the other seats), cut after its action 277."""
    g = replay(load_export("selfplay/1833ne", "1833ne_emergency_sale")).game
    assert isinstance(g, G1833NE)
    bw = g.corporations["BW"]
    pid = bw.president
    assert pid is not None and not bw.trains and bw.cash == 10 and g.player(pid).cash == 62
    assert g.acting() == ["BW"] and g.round.action_types("BW") == ["buy_train"]
    assert g.round.action_types(pid) == ["sell_shares"]
    t = g.cheapest_depot_train(bw)
    assert t is not None
    side = min(g.sides[t.id], key=lambda s: s.price)
    buy = A.BuyTrain(entity="BW", entity_type="corporation", train=t.id, price=side.price, variant=side.name)
    with pytest.raises(GameError, match=r"cannot cover the \$220 shortfall \(\$62 in cash\); they sell shares first"):
        g.process(buy)
    bw = g.corporations["BW"]  # (a refusal restores the game: objects read before are stale)
    while g.emergency_shortfall(bw) > 0:  # "only as much as needed", one bundle at a time
        sym, pct = g.emergency_sellable(bw)[0]
        shares = [s.id for s in g.shares_of(pid) if s.corporation == sym and not s.president][: pct // 10]
        g.process(A.SellShares(entity=pid, entity_type="player", shares=tuple(shares), percent=pct))
    g.process(buy)
    assert bw.trains == [t.id] and g.acting() != ["BW"]


def test_an_emergency_sale_ends_at_a_certificate_and_bankruptcy_follows_when_none_may_be_sold() -> None:
    """Random 3-player takeover game (seed 1) at its action 594: B&P must buy a $1000 7+3 and
    its president lacks $5; of BW they hold only the 20% president's certificate. Selling 10%
    of it is not a sale the game makes (it counted as one, so neither a sale nor bankruptcy was
    offered: the game stopped); the whole certificate would put 60% of BW in the market (limit
    50%). So nothing may be sold and the president goes bankrupt."""
    from engine.titles.g1833ne.selfplay import play_one

    out: list[G1833NE] = []
    play_one(3, 1, ["takeover_game"], 594, game_out=out)
    g = out[0]
    bp = g.corporations["B&P"]
    pid = bp.president
    assert pid is not None and g.acting() == ["B&P"] and g.emergency_shortfall(bp) == 5
    assert [s.percent for s in g.shares_of(pid) if s.corporation == "BW"] == [20]  # the president's
    assert g.emergency_sellable(bp) == [] and not g._emergency_sale_ok(pid, bp, "BW", 10, 5)
    assert g.can_go_bankrupt(bp) and "bankrupt" in g.round.action_types("B&P")
