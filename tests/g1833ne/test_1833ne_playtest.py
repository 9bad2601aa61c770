"""What a 1833NE play-test (standard and takeover game, 3-5 players, local mode) found; each
test names the summary line it checks."""

from __future__ import annotations

from engine import actions as A
from engine.game import Game
from engine.moves import choices_for
from tests.g1833ne.test_1833ne import new, par, stock_round
from tests.g1833ne.test_1833ne_rules import _issue, _trainless


# ---------------------------------------------------------------------------- train limits
def test_takeover_game_phases_carry_its_train_limits() -> None:
    """Summary: "Zuglimit im Standardspiel: 3 in den Phasen I-III und 2 in den Phasen IV-V (im
    Takeover-Spiel: 3 in I, 3 in II, 2 in III und 1 in IV-V ...)": the phase's log line and
    the status picture's header said 3 in phase III of the takeover game while 2 applied."""
    g = new(3, ("takeover_game",))
    stock_round(g)
    par(g, "1", "BW", 100)
    bw = g.corporations["BW"]
    for tid in ("2-0", "2-1", "3/5-0"):
        g.give_train(g.trains[tid], "BW")
    g.change_phase(g.phase_index_of("III"))
    assert g.train_limit == 2
    line = next(ln for ln in reversed(g.log) if ln.startswith("-- Phase III ("))
    assert "Train Limit: 2" in line and "the train limit is 2 (was 3" in line, line
    assert g.corp_train_limit(bw) == 2 + 2  # the two obsolete phase I trains do not count
    g.change_phase(g.phase_index_of("IV"))
    assert g.train_limit == 1 and "Train Limit: 1" in next(
        ln for ln in reversed(g.log) if ln.startswith("-- Phase IV ("))
    assert bw.trains == ["3/5-0"]  # the phase I cards are gone, the 3/5 is obsolete
    g.takeovers["BW"] = 1  # "plus 1 für jede Übernahme"
    assert g.corp_train_limit(bw) == 1 + 1 + 1  # (the obsolete 3/5 does not count)


def test_standard_game_limits_are_unchanged() -> None:
    g = new(3)
    assert [p["train_limit"] for p in g.phases] == [3, 3, 3, 2, 2]
    t = new(3, ("takeover_game",))
    assert [p["train_limit"] for p in t.phases] == [3, 3, 2, 1, 1]


# ---------------------------------------------------------------------------- takeover starts
def test_takeover_corporation_may_start_beside_a_reserved_place() -> None:
    """Summary: a takeover corporation starts "auf jedem freien Stadtplatz ..., der nicht
    reserviert ... ist": Worcester's green tile has two places, one reserved for B&W until phase
    IV; the other is free and not reserved (the engine refused the whole city)."""
    g = new(3, ("takeover_game",))
    stock_round(g)
    g.phase_index = g.phase_index_of("II")
    g.board.lay("E22", "15-0", 0)  # two places; B&W's reservation keeps one
    bm = g.corporations["B&M"]
    homes = g.variable_homes(bm)
    assert ("E22", 0, 120) in homes  # track on it: $120
    g.board.hexes["E22"].tokens[0][1] = "B&P"  # the free place taken: nothing left there
    g.board.changed()
    assert all(h[0] != "E22" for h in g.variable_homes(bm))


# ---------------------------------------------------------------------------- emergency money
def test_no_ferry_after_an_emergency_issue_until_a_train_is_bought() -> None:
    """Summary "Notverkauf": "Zuerst gibt sie die ganze Kasse aus": after its emergency issue
    a trainless corporation could still spend $40 on a ferry (not on a private: notes, "Buying
    a private after an emergency issue") and leave its president to pay more for the train."""
    g, _ = _trainless(50)
    cv = g.corporations["CV"]
    assert "Ferry G22" in g.special_buys(cv)  # before the issue, as a private may be bought
    _issue(g, 1)
    cv = g.corporations["CV"]
    assert cv.cash >= 40 and g.special_buys(cv) == []
    assert choices_for(g, "CV", "special_buy") == []
    g.process(A.BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=100, variant="2+1"))
    cv = g.corporations["CV"]
    assert cv.trains and (cv.cash < 40 or "Ferry G22" in g.special_buys(cv))


# ---------------------------------------------------------------------------- status
def test_status_names_receivership_and_the_bankrupt_player() -> None:
    """Play-test: after a bankruptcy (summary "Notverkauf": "seine restlichen Aktien werden am
    Markt verkauft ... auch wenn ... ein Direktorzertifikat dort landet") the status picture's
    president cell of the corporation left without one was blank, and /game status read
    "Player 3 $0" for the player who left the game."""
    from types import SimpleNamespace

    from bot.texts.game import status_text
    from render.status_image import corporations_table
    from tests.g1833ne.test_1833ne import start_or

    g = new(3)
    stock_round(g)
    par(g, "1", "BW", 100)
    par(g, "3", "CV", 60)
    rnd = start_or(g)
    g.bankrupt_player("3", rnd.corp)
    assert g.corporations["CV"].president is None
    presidents = {str(row[0].text): row[1] for row in corporations_table(g).rows}
    assert presidents["BW"].text == g.player("1").name
    assert presidents["CV"].text == "none" and presidents["CV"].muted
    players = status_text(SimpleNamespace(title="1833NE", id=1), g, []).splitlines()[1]
    assert f"{g.player('3').name} (bankrupt)" in players and f"{g.player('1').name} $" in players


def test_flipped_privates_show_no_income() -> None:
    """Summary, phase III: "P3-P6 werden umgedreht (sie bringen keine Einnahmen mehr, behalten
    aber ihre Fähigkeit)": they paid nothing, but the status picture still listed $10/$15."""
    from render.status_image import companies_table

    g = new(3)
    stock_round(g)
    par(g, "1", "BW", 100)
    for sym in ("P3", "P4"):
        g.companies[sym].owner = "BW"
        g.corporations["BW"].companies.append(sym)
    g.change_phase(g.phase_index_of("III"))
    assert {"P3", "P4"} <= g.flipped
    table = companies_table(g)
    assert table is not None
    income = {str(row[0].text): row[4] for row in table.rows}
    assert income["P3"].text == "$0" and income["P3"].muted and g.company_income(g.companies["P4"]) == 0
    bank = g.bank
    g.payout_companies()
    assert g.bank == bank


def test_ferries_are_offered_by_their_places() -> None:
    """Play-test: /moves right listed "Ferry I14 for $40"; a player looks for Portland."""
    from engine.moves import choices_for

    g, _ = _trainless(200)
    labels = {c.value: c.label for c in choices_for(g, "CV", "special_buy")}
    assert labels["Ferry I14"] == "Portland ferry (I14) for $40, leaves $160"
    assert labels["Ferry G22"].startswith("Boston ferry (G22) for $40")


def test_a_takeover_round_that_ends_at_once_says_why() -> None:
    """'Takeover Round begins' was followed by the next round with no word of why."""
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Game] = []
    assert play_one(3, 1, ["takeover_game"], 6000, game_out=out).problem is None
    log = out[0].log
    said = [i for i, line in enumerate(log) if line.startswith("No takeover is possible: ")]
    assert said and all(log[i - 1] == "-- Takeover Round --" for i in said)
    assert {log[i] for i in said} == {
        "No takeover is possible: no corporation with a running train reaches another corporation's station",
        "No takeover is possible: the corporations that reach another's station cannot pay for it"}


def test_status_header_states_a_limit_raised_by_takeovers_not_by_obsolete_trains() -> None:
    """The header said "train limit 3 (CV 4, FRR 4, B&L 5, BW 5)": obsolete trains (which do not
    count toward the limit) read as a higher limit; only a takeover raises it (summary: "plus 1
    für jede Übernahme, die die Gesellschaft durchgeführt hat")."""
    from render.status_image import header_lines

    g = new(3, ("takeover_game",))
    stock_round(g)
    par(g, "1", "BW", 100)
    for tid in ("2-0", "2-1", "3/5-0"):
        g.give_train(g.trains[tid], "BW")
    g.change_phase(g.phase_index_of("III"))
    g.corporations["BW"].started = True
    assert g.corp_train_limit(g.corporations["BW"]) == 4  # two obsolete trains beside the limit of 2
    assert "  ·  train limit 2  ·  " in header_lines(g)[0]
    g.takeovers["BW"] = 1
    assert "  ·  train limit 2 (BW 3)  ·  " in header_lines(g)[0]


# ---------------------------------------------------------------------------- phase changes
def test_a_train_that_starts_a_phase_says_which_trains_become_obsolete_or_rust() -> None:
    """Summary ("Phase-I-Karten werden in Phase III obsolet und in Phase IV entfernt, ..."): the
    bank's first 4/7 card starts phase III, where BW's 2 card becomes obsolete; the first 6/9
    starts phase IV, where it leaves the game and the 3/5 card becomes obsolete. The train's
    choice says so, as it says which trains rust in 1856 (it said nothing in 1833NE); buying
    it does what it said."""
    from engine.moves.operating import phase_note

    g = new(3)
    stock_round(g)
    par(g, "1", "BW", 100)
    g.round = g.new_operating_round(1)
    g.round.start()
    bw = g.corporations["BW"]
    for tid in ("2-0", "3/5-0"):
        g.give_train(g.trains[tid], "BW")
    g.change_phase(g.phase_index_of("II"))
    for t in g.trains.values():  # the phase I and II cards are sold out
        if t.owner == "depot" and t.name in ("2", "3/5"):
            t.owner = "rusted"
    first_47 = g.depot_trains()[0]
    assert g.card_of[first_47.id] == "4/7"
    assert phase_note(g, bw, first_47) == "; starts phase III: 2-trains become obsolete (its own too)"
    g.change_phase(g.phase_index_of("III"))
    assert g.obsolete == {"2-0"}
    for t in g.trains.values():
        if t.owner == "depot" and t.name == "4/7":
            t.owner = "rusted"
    first_69 = g.depot_trains()[0]
    assert phase_note(g, bw, first_69) == \
        "; starts phase IV: 2-trains rust and 3/5-trains become obsolete (its own too)"
    g.change_phase(g.phase_index_of("IV"))
    assert bw.trains == ["3/5-0"] and g.obsolete >= {"3/5-0"}
