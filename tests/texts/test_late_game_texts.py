"""Player-facing fixes from the late-game play-test (1856 and 1836Jr56 from the middle of real
games to their end, in local mode): each test types the commands a player typed and checks
what the bot answered.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from engine.replay import filter_actions
from tests.bot.test_command_fixes import typed
from tests.fixture_util import load_export


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[LocalSession]:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        yield LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="p1")
    finally:
        await store.close()


async def imported(session: LocalSession, tmp_path: Path, title: str, name: str, before: int) -> None:
    """The stored game ``name`` imported with its actions before id ``before``; user pN holds the
    seat of its N-th player."""
    export = load_export(title, name)
    export["actions"] = [a for a in filter_actions(export["actions"]) if a["id"] < before]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(export))
    lines = [f"/game import file:{path}"]
    for i, player in enumerate(export["players"], 1):
        lines += [f"/as p{i}", f'/game claim seat:"{player["name"]}"']
    await typed(session, "\n".join(lines))


async def test_help_for_an_any_time_command_asked_without_a_seat(session: LocalSession, tmp_path: Path) -> None:
    """/help command:autopass (autobuy, autostop) typed by someone without a seat in a channel with
    a running game answered "Something went wrong on our side" (an IndexError); now the help."""
    await imported(session, tmp_path, "1856", "hotseat006", 98)
    await session.run_line("/as zed")
    for name in ("autopass", "autobuy", "autostop"):
        printed = await session.run_line(f"/help command:{name}")
        assert printed[0].startswith(f"(only zed can see this) **/{name}"), printed
        assert printed[-1] == "Now: You do not hold a seat in this game", printed


async def test_a_train_nobody_can_pay_for_yet_asks_for_a_sale_not_bankruptcy(
        session: LocalSession, tmp_path: Path) -> None:
    """THB must buy a train: $310 in its treasury, its president Player 1 $226, the cheapest
    train a 5-train for $550, no other corporation's train on offer (its president has sold
    for it). The bot said "(/bankrupt; no /train possible now)" and /game status "You act for
    THB: /bankrupt", although Player 1 can sell shares; now it says to sell, and how much is
    missing. Bankruptcy stays open (the engine accepts it all through an 1856 operating round)."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 695)
    await session.run_line("/as p1")
    wanted = ("buy trains (it must own a train; Player 1 must first sell shares to raise the $14 missing "
              "for a 5-train ($550))")
    status = "\n".join(await session.run_line("/game status"))
    assert f"\nNow waiting for THB (president Player 1) to {wanted}: /sell\n" in status, status
    assert "\nYou act for THB: /sell" in status, status
    moves = await session.run_line("/moves")
    assert moves[-1] == f"next: Player 1 for THB, {wanted} (/sell; no /train possible now)", moves
    assert "bankrupt" not in "\n".join([*moves, status])


async def test_bankruptcy_is_named_when_nothing_can_raise_the_money(session: LocalSession, tmp_path: Path) -> None:
    """BBG must buy a train, its president (Player 3) has sold what he could: $19 are still
    missing for the 4-train; only then is /bankrupt named, with the reason."""
    await imported(session, tmp_path, "1856", "hotseat005", 218)
    await session.run_line("/as p3")
    moves = await session.run_line("/moves")
    assert moves[-1] == ("next: Player 3 for BBG, buy trains (it must own a train; nothing can raise the $19 "
                         "missing for a 4-train ($350)) (/private, /right, /bankrupt; no /train possible now)"), moves


async def test_a_sale_for_the_train_says_it_gives_up_the_other_corporations_trains(
        session: LocalSession, tmp_path: Path) -> None:
    """THB must buy a train ($320; the 5-train costs $550): /moves offered the other
    corporations' trains and Player 1's /sell side by side, without saying that after a sale
    the train must come from the bank (the engine then refuses the others' trains); now /moves,
    /moves sell and /help sell say so."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 693)
    await session.run_line("/as p1")
    overview = await session.run_line("/moves")
    assert "  /train train: 4-0, 5-0, 5-1, 3-3, ... (/moves train)" in overview, overview
    assert ("  /sell: CPR 10%, GT 10%, LPS 10%, TGB 10%, ... (/moves sell) "
            "(after a sale the train must come from the bank)") in overview, overview
    note = ("After a sale the train must come from the bank: THB could no longer buy: 4-train from CA, $1-$320; "
            "5-train from CA, $1-$320; 5-train from CPR, $1-$320; and 7 more (/moves train)")
    assert note in await session.run_line("/moves sell")
    assert note in await session.run_line("/help command:sell")
    await typed(session, "/sell shares:GT_3")
    trains = await session.run_line("/moves train")
    assert not any(" from CA" in line for line in trains), trains  # as the engine has it


async def test_moves_train_does_not_call_a_train_it_offers_unaffordable(session: LocalSession, tmp_path: Path) -> None:
    """/moves train offered "5-train from the bank, $550 (the president pays $240)" and then
    "Not yet affordable: 5-train $550 ($240 more)", the president's cash left out. Now a train
    offered is not in that line, and what is missing counts the president's cash where the
    president may help pay."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 696)
    await session.run_line("/as p1")
    trains = await session.run_line("/moves train")
    assert trains[1] == "  /train train:5-2  (5-train from the bank, $550 (the president pays $240))", trains
    assert not any("affordable" in line for line in trains), trains


async def test_what_a_train_lacks_counts_the_presidents_cash(session: LocalSession, tmp_path: Path) -> None:
    """Before Player 1's last sale for THB's 5-train $14 are missing, not $240."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 695)
    await session.run_line("/as p1")
    trains = await session.run_line("/moves train")
    assert "Not yet affordable: 5-train $550 ($14 more than the $536 THB and its president have)" in trains, trains


async def test_no_train_to_choose_says_so_and_why(session: LocalSession, tmp_path: Path) -> None:
    """With no train THB can buy now /moves train read "Give train: (train); nothing to choose
    from now"; now it says plainly that there is none, and why."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 695)
    await session.run_line("/as p1")
    trains = await session.run_line("/moves train")
    assert trains[0] == ("(only p1 can see this) There is no train to choose now: Player 1 must first sell shares "
                         "to raise the $14 missing for a 5-train ($550)"), trains


async def test_moves_lay_names_the_hexes_it_has_no_room_for(session: LocalSession, tmp_path: Path) -> None:
    """CGR may lay track on 45 hexes: /moves lay stopped at 24 without saying so; now the rest
    are named in one line, the hexes in reading order (K6 before K10); /help lay as well."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 812)
    await session.run_line("/as p2")
    for command in ("/moves lay", "/help command:lay"):
        lines = await session.run_line(command)
        hexes = [line.split(":")[0].split()[0] for line in lines if line.startswith("  ")]
        more = next(line for line in lines if line.startswith("...and "))
        named = more.split(": ", 1)[1].split(", ")
        assert more.startswith(f"...and {len(named)} more: K6, K10, K12, "), more
        assert len(hexes) + len(named) == 45, lines
        assert command == "/help command:lay" or len(lines) <= 26, lines  # 25 and the next: line


async def test_the_nationals_formation_says_loans_end(session: LocalSession, tmp_path: Path) -> None:
    """Once CGR formed no loan is given: the formation's reply did not say so and /help loan
    still read "take a loan"; now the reply tells it, /help loan says it before (the loan rule)
    and after, and /moves never says "Ready: /loan" when the engine refuses it."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 595)
    await session.run_line("/as p3")
    before = await session.run_line("/help command:loan")
    assert before[0].endswith("**: take a loan ($100 each; one per operating round, at most one per 10% of its "
                              "shares held by players; none once the national has formed)"), before
    formed = await session.run_line("/merge corporation:LPS")
    assert "Loans end: no loans are given once the national has formed (/loan is refused from now on)" in formed
    after = await session.run_line("/help command:loan")
    assert after[0].endswith("**: take a loan: not any more (no loans are given once the national has formed)"), after
    for user in ("p1", "p2", "p3", "p4"):
        await session.run_line(f"/as {user}")
        assert not any("Ready" in line for line in await session.run_line("/moves loan"))


async def test_routes_typed_with_spaces_or_place_names(session: LocalSession, tmp_path: Path) -> None:
    """/routes routes:"5-0: M4 N9 N11 P9" answered "A route chain needs at least two hexes" and
    "5-0: Barrie-Toronto-Oshawa" "There is no hex 'BARRIE'": spaces now separate hexes as '-'
    does, a place's name (any case) stands for its hex, and a chain of stops only is refused
    saying that every hex must be named; /help routes shows the continuous form."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 579)  # TGB runs its 3-train
    await session.run_line("/as p4")
    helped = await session.run_line("/help command:routes")
    assert 'Example: /routes routes:auto (or routes:"5-0: M4-M6-N7-N9-N11-O10-P9")' in helped, helped
    assert '  /routes routes:"3-4: K8-L9-L11-L13"  (3-train: K8-L9-L11-L13 = $60)' in helped, helped  # not K8-L9 | L9-L11-L13
    refused = await session.run_line('/routes routes:"3-4: Orangeville I8"')
    assert refused[0].endswith("No track connects K8-I8 (K8 and I8 are not neighbours: name every hex the route "
                               "runs through, in order, as M4-M6-N7)"), refused
    unknown = await session.run_line('/routes routes:"3-4: Oranjeville J9 I8"')
    assert "There is no hex or place 'Oranjeville' on this map" in unknown[0], unknown
    ran = await session.run_line('/routes routes:"3-4: orangeville j9 i8"')
    assert ran[0].startswith("TGB runs a 3-train for $60: K8-J9-I8"), ran


def test_a_place_name_stands_for_its_hex_when_only_one_hex_has_it() -> None:
    from engine.errors import GameError
    from engine.moves.operating import chain_hexes
    from engine.titles.registry import new_game

    g = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")], [])
    windsor = next(h for h, s in g.board.hexes.items() if s.location == "Detroit - Windsor")
    assert chain_hexes(g, "detroit - windsor") == chain_hexes(g, "Windsor") == [windsor]
    assert chain_hexes(g, "St. Thomas London") == ["F17", "F15"]
    ne = new_game("1833NE", [("1", "A"), ("2", "B"), ("3", "C")], [])
    with pytest.raises(GameError, match="Concord names several hexes"):
        chain_hexes(ne, "Concord")


async def test_moves_sell_offers_sales_as_players_write_them(session: LocalSession, tmp_path: Path) -> None:
    """/moves sell offered "/sell shares:CGR_26,CGR_25,CGR_0 15%" (certificate ids); now the
    readable form the command takes, "/sell corporation:GT percent:10", which sells the same."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s103", 693)
    await session.run_line("/as p1")
    sales = await session.run_line("/moves sell")
    assert sales[1:6] == ["  /sell corporation:CPR percent:10  (10% of CPR for $60 → price falls from $60 to $55)",
                          "  /sell corporation:GT percent:10  (10% of GT for $65 → price falls from $65 to $60)",
                          "  /sell corporation:LPS percent:10  (10% of LPS for $65 → price falls from $65 to $60)",
                          "  /sell corporation:TGB percent:10  (10% of TGB for $70 → price falls from $70 to $65)",
                          "  /sell corporation:THB percent:10  (10% of THB for $45 → price falls from $45 to $40)"], sales
    sold = await session.run_line("/sell corporation:GT percent:10")
    assert sold[0].startswith("Player 1 sells a 10% share of GT and receives $65"), sold
    assert "GT's share price moves down from $65 to $60" in sold, sold  # as the choice said


async def test_the_formations_pass_says_that_the_president_pays(session: LocalSession, tmp_path: Path) -> None:
    """LPS, at the national's formation, may merge or have its president repay its loans: the
    choice read "(/merge, /pass)", not saying that /pass means Player 3 pays $229 of his own;
    now the step, /moves and the reply to /pass say so."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 595)
    await session.run_line("/as p3")
    moves = await session.run_line("/moves")
    assert moves[0].endswith("**LPS**: repay loans or merge into CGR (LPS's loans need $229 more than its "
                             "treasury: /pass repays them, Player 3 paying $229; /merge merges LPS into CGR)")
    assert "  /pass: repay the loans (Player 3 pays $229)" in moves, moves
    passed = await session.run_line("/pass")
    assert passed[:2] == ["LPS passes: repay the loans (Player 3 pays $229) (p3)", "Player 3 pays off LPS's debt ($229)"]


async def test_the_nationals_discard_step_reads_after_to(session: LocalSession, tmp_path: Path) -> None:
    """"Now waiting for CGR ... to national discards trains": the step names read after "to"."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 597)
    status = "\n".join(await session.run_line("/game status"))
    assert "to discard trains (7 trains, keeps 3: discard 4 more): /discard" in status, status
    assert "national discards" not in status


async def test_only_programs_still_in_force_are_shown(session: LocalSession, tmp_path: Path) -> None:
    """"Programmed moves: Player 4: auto-pass in stock rounds (this stock round)" was still shown
    in the operating round after that stock round (and into the next one, until the engine
    cancels it at the player's turn); now only programs that still apply are shown."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 611)  # SR 6: Player 4's pass set at 610
    status = "\n".join(await session.run_line("/game status"))
    assert "Programmed moves: Player 4: auto-pass in stock rounds (this stock round)" in status, status


async def test_a_pass_for_one_stock_round_is_not_shown_after_it(session: LocalSession, tmp_path: Path) -> None:
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 595)  # Operating Round 5.2
    status = "\n".join(await session.run_line("/game status"))
    assert "Operating Round" in status and "Programmed moves" not in status, status


def test_1836jr56_rdp_marker_is_called_its_plus_20_token() -> None:
    """RdP (Régie des Postes) places a "+20" token on a city or town; the story called it 1856's
    "port marker" when B placed it and when the first 6-train took it off (1836jr56_game_end_bank
    #88 and #391; 18xx.games: "B's Régie des Postes token removed from H6"). 1856's GLSC keeps its
    port marker."""
    from tests.positions import at

    g = at("1836jr56", "1836jr56_game_end_bank", 391)
    told = [line for line in g.log if "H6 (Brussels)" in line and "RdP" in line or "removed" in line]
    assert "B places RdP's +20 token on H6 (Brussels): its stops there count 20 F more for B; RdP closes" in told
    assert "-- Event: B's +20 token is removed from H6 (Brussels) --" in told
    assert not any("port" in line for line in told), told
    assert at("1856", "1856_game_end_bank", 5).rules.port_marker == "port marker"


def test_the_nationals_pass_on_its_trains_reads_as_one_step() -> None:
    """MESS keeping its trains at its formation read "MESS passes (discard trains (it may scrap
    its rusting trains))" (a play-test of 1836jr56_game_end_bank, NFL merged too at #393); the
    pass names the step, and the turn line still explains it."""
    from bot.play import MOVES
    from bot.texts.turns import activity, fallback_line
    from tests.positions import at

    g = at("1836jr56", "1836jr56_game_end_bank", 392)
    g.process(MOVES["merge"].build(g, "NFL", {"corporation": "NFL"}))
    assert activity(g, "MESS") == "discard trains (it may scrap its rusting trains)"
    assert fallback_line(g, "MESS", "pass", "pass") == "MESS passes (discard trains)"


def test_the_nationals_forced_withholding_says_why() -> None:
    """MESS's runs were withheld without its president being asked ("MESS withholds 270 F
    (kept in its treasury)", 1836jr56_game_end_bank #406): the national withholds until it has
    owned a permanent train (18xx.games' NATIONAL_FORCED_WITHHOLD_ABILITY); the line says so.
    Another corporation's withholding reads as before."""
    from tests.positions import at

    g = at("1836jr56", "1836jr56_game_end_bank", 406)
    assert ("MESS withholds 270 F (kept in its treasury: the national pays no dividend until it has owned a "
            "permanent train)") in g.log
    assert not any(line.startswith("MESS withholds") and line.endswith("(kept in its treasury)") for line in g.log)
    assert any(line.endswith(" (kept in its treasury)") and not line.startswith("MESS") for line in g.log)
