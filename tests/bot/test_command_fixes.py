"""Player-facing fixes from a play-test in local mode: each test types the commands a player
typed and checks what the bot answered and what it changed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.gamelog import describe_action
from bot.handlers.offers import consent_needed
from bot.play import MOVES, title_example
from bot.robot import ROBOT_USER, absent_seller_refusal, taken_from
from bot.storage.rows import Seat
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from bot.terminal.textcmd import parse
from engine import actions as A
from engine.game import Game
from engine.replay import filter_actions, replay
from engine.titles.registry import new_game
from tests.fixture_util import load_export
from tests.positions import at

# 1833NE for alice, bob and carol: the auction, B&L and BW started, the stock round passed;
# Operating Round 1.1 opens with B&L (alice, $240 in its treasury)
NE_START = """
/as alice
/game new title:1833NE
/as bob
/game join
/as carol
/game join
/as alice
/game start order:joined
/bid company:P1 price:15
/as bob
/bid company:P2 price:40
/as carol
/bid company:P3 price:50
/as alice
/bid company:P4 price:60
/as bob
/bid company:P5 price:70
/as carol
/bid company:P6 price:80
/as alice
/par corporation:B&L price:60
/as bob
/par corporation:BW price:70
/as carol
/buy share:B&L
/as alice
/buy share:BW
/as bob
/buy share:B&L
/as carol
/pass
/as alice
/pass
/as bob
/pass
"""


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[LocalSession]:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        yield LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
    finally:
        await store.close()


async def typed(session: LocalSession, script: str) -> list[str]:
    """Type each line of ``script``; every one must be accepted. Returns the last reply."""
    printed: list[str] = []
    for line in script.strip().splitlines():
        printed = await session.run_line(line)
        assert not (printed and printed[0].startswith("!")), (line, printed)
    return printed


async def count(session: LocalSession) -> int:
    """How many actions the game's log holds."""
    row = await session.layer.store.open_game(session.channel)
    assert row is not None
    return len(await session.layer.store.actions(row.id))


async def test_a_two_sided_train_without_its_side_is_refused_listing_the_sides(session: LocalSession) -> None:
    """1833NE: B&L can pay for either side of the 2-0 card (2 for $75, 2+1 for $100). /train
    without variant: bought the card's first side unasked; now it is refused privately, naming
    both sides, and nothing changes. A price that names a side buys that side."""
    await typed(session, NE_START + "/as alice\n/done")  # B&L passes its track step: buy trains
    before = await count(session)
    for line in ("/train train:2-0", "/train train:2", "/train train:2-0 price:90"):
        refused = await session.run_line(line)
        assert refused[0] == (
            "! (only alice can see this) 2-0 has two sides: variant:2 ($75) or variant:2+1 ($100); "
            "say which, for example /train train:2-0 variant:2. Nothing was bought."
        ), line
    assert await count(session) == before
    bought = await session.run_line("/train train:2-0 price:100")
    assert bought[0].startswith("B&L buys a 2+1-train for $100"), bought
    bought = await session.run_line("/train train:2-1 variant:2")
    assert bought[0].startswith("B&L buys a 2-train for $75"), bought
    assert await count(session) == before + 2


# from B&L's operating turn in OR 1.1 (NE_START): B&L buys the 2-0 card as a 2-train; BW lays
# track, buys the Boston ferry and places its station, and must buy a train
NE_BW_TRAIN = """
/as alice
/done
/train train:2-0 variant:2
/done
/as bob
/lay hex:F23 tile:58 rotation:2
/lay hex:E22 tile:57 rotation:2
/right right:"Ferry G22"
/token city:E22
"""


async def test_moves_says_ready_only_for_a_complete_command(session: LocalSession) -> None:
    """/moves train train:2-0 (B&L's train): answered "Ready: /train train:2-0", which is refused
    for want of a price; now it says what is missing and how to finish the command. A complete
    command is still "Ready"."""
    await typed(session, NE_START + NE_BW_TRAIN)
    missing = await session.run_line("/moves train train:2-0")
    # what it may pay, as /moves train lists it (once: the train's label would only say it again)
    assert missing[0] == ("(only bob can see this) Not ready: Give price: to buy 2-0 from B&L at the price agreed, "
                          "$1-$90; type /train train:2-0 price:N"), missing
    assert not any("Ready" in line for line in missing)
    assert (await session.run_line("/train train:2-0"))[0].startswith("! (only bob can see this) Give price:")
    assert (await session.run_line("/moves train train:2-0 price:1"))[0] == (
        "(only bob can see this) Ready: /train train:2-0 price:1"
    )
    assert not (await session.run_line("/train train:2-0 price:1"))[0].startswith("!")


# from BW's train step in OR 1.1 (NE_BW_TRAIN) to Stock Round 2: BW buys B&L's 2-train; in OR 1.2
# BW runs and pays out, B&L (without a train) buys the 2-1 card as a 2-train; carol acts first
NE_SR2 = """
/train train:2-0 price:1
/as alice
/game offer vote:yes
/as bob
/done
/done
/routes routes:auto
/dividend kind:payout
/done
/as alice
/done
/train train:2-1 variant:2
/done
"""


async def test_sell_takes_a_corporation_name_and_lists_only_shares_that_may_be_sold(
    session: LocalSession,
) -> None:
    """/sell shares:BW was refused ("There is no share 'BW'; choose from: ...") although /buy
    share:BW takes a corporation: now it sells one share of it that may be sold (percent: more).
    An unknown name lists the seller's shares without a president's certificate that cannot be
    sold now (alice's B&L_0: nobody else could take over B&L)."""
    await typed(session, NE_START + NE_BW_TRAIN + NE_SR2 + "/as carol\n/pass\n/as alice")
    refused = await session.run_line("/sell shares:XX")
    assert refused[0].startswith("! (only alice can see this) There is no share 'XX' (name shares or a "
                                 "corporation, for example shares:BW)"), refused
    assert refused[0].endswith("; choose from: BW_1")  # not B&L_0
    # a corporation none of whose shares may be sold: the engine's reason, nothing sold
    before = await count(session)
    no = await session.run_line("/sell shares:B&L")
    assert no[0].startswith("! (only alice can see this) alice cannot sell 10% of B&L: nobody else can take over")
    assert (await session.run_line("/sell shares:CV"))[0] == "! (only alice can see this) You hold no share of CV"
    assert (await session.run_line("/sell shares:BW,B&L"))[0].startswith(
        "! (only alice can see this) Sell one corporation's shares at a time: name it (shares:B&L, ")
    assert await count(session) == before
    sold = await session.run_line("/sell shares:bw")
    assert sold[0].startswith("alice sells a 10% share of BW"), sold
    assert await count(session) == before + 1
    row = await session.layer.store.open_game(session.channel)
    assert row is not None
    game = (await session.layer.load(row)).game
    assert game.shares["BW_1"].owner == "market"


async def test_done_where_nothing_may_be_passed_is_refused_naming_done(session: LocalSession) -> None:
    """/done at BW's routes step answered "BW cannot /pass now; ...": the player typed /done."""
    await typed(session, NE_START + NE_BW_TRAIN + "\n".join(NE_SR2.strip().splitlines()[:6]))
    before = await count(session)
    refused = await session.run_line("/done")
    assert refused[0].startswith("! (only bob can see this) BW cannot /done now; it can: "), refused
    assert "/routes" in refused[0] and "/pass" not in refused[0]
    assert refused[-1].startswith("! next: bob for BW, run routes")
    assert (await session.run_line("/done entity:BW"))[0].startswith("! (only bob can see this) BW cannot /done now")
    assert await count(session) == before


async def test_asking_for_an_undo_already_asked_for_agrees_to_it(session: LocalSession) -> None:
    """carol asks to undo her purchase after her turn (1/3); bob's /game undo restarted the vote
    ("bob asks to undo ... (1/3)") and carol had to agree again. Now bob's request is his vote
    (2/3), carol asking again is told she agreed, and alice's request completes the undo."""
    await typed(session, NE_START.split("/as alice\n/buy share:BW")[0])  # carol bought B&L_1
    asked = await session.run_line("/game undo")
    assert asked[0] == "carol asks to undo carol buys 10% of B&L from the treasury for $60. Every seated player must agree (1/3)."
    session.user = "bob"
    assert (await session.run_line("/game undo"))[0] == "bob agrees to undo carol buys 10% of B&L from the treasury for $60 (2/3)"
    session.user = "carol"
    again = await session.run_line("/game undo")
    assert again[0].startswith("! (only carol can see this) You have already agreed to undo carol buys 10% of B&L from the treasury for $60 (2/3)")
    before = await count(session)
    session.user = "alice"
    assert (await session.run_line("/game undo"))[0] == "↩ carol undoes, the table agreeing: carol buys 10% of B&L from the treasury for $60"
    assert await count(session) == before + 1
    # a refused request is over: asking again starts a new vote
    await typed(session, "/as carol\n/buy share:B&L")
    await session.run_line("/game undo")
    state = next(line for line in await session.run_line("/game status") if "/pass state:" in line).split(":")[-1]
    session.user = "bob"
    assert (await session.run_line(f"/game undo vote:no state:{state}"))[0] == (
        "bob refuses to undo carol buys 10% of B&L from the treasury for $60; nothing changes")
    assert (await session.run_line("/game undo"))[0] == (
        "bob asks to undo carol buys 10% of B&L from the treasury for $60. Every seated player must agree (1/3).")


async def test_texts_name_only_the_game_s_own_title(session: LocalSession) -> None:
    """In 1833NE: /par without price gave "for example /par corporation:GW price:70" (GW is
    1856's); /help command:dividend left out half; /right read "buy a right (1856 tunnel/bridge)
    or a ferry (1833NE)". Now each names what 1833NE has, and an 1856 game its own."""
    await typed(session, NE_START.split("/par corporation:B&L")[0])
    par = await session.run_line("/par corporation:B&L")
    assert par[0] == ("! (only alice can see this) Give price: (par price), for example /par corporation:B&L "
                      "price:150; /help par shows what you can choose now"), par  # B&L's first par price
    assert (await session.run_line("/par corporation:CV price:70"))[0].startswith("alice pars CV")
    dividend = await session.run_line("/help command:dividend")
    assert dividend[0] == "(only alice can see this) **/dividend kind: [entity:]**: pay out, pay half or withhold"
    assert dividend[1].startswith("kind: payout, half or withhold · ")
    right = await session.run_line("/help command:right")
    assert right[0].endswith("**: buy a ferry") and right[1].startswith("right: which ferry · "), right
    topic = await session.run_line("/help topic:Actions")
    assert "/right: buy a ferry" in topic and "/dividend: pay out, pay half or withhold" in topic
    assert "/takeover: take over another corporation" in topic and not any("/merge" in t for t in topic)
    assert not any("1856" in line or "GW" in line for line in (*par, *dividend, *right, *topic)), topic

    session.channel = "an-1856-game"
    await typed(session, "/as alice\n/game new title:1856\n/as bob\n/game join\n/as carol\n/game join\n"
                         "/as alice\n/game start order:joined")
    right = await session.run_line("/help command:right")
    assert right[0].endswith("**: buy a right (tunnel/bridge)") and "ferry" not in right[1], right
    dividend = await session.run_line("/help command:dividend")
    assert dividend[0].endswith("**: pay out or withhold") and dividend[1].startswith("kind: payout or withhold")
    par = await session.run_line("/help command:par")
    assert "home:" not in par[0] + par[1] and "1833NE" not in "\n".join(par)  # 1856 has no home: option


def test_a_move_s_help_in_each_title_s_words() -> None:
    """What a button or menu showing a move's help should say (bot.play.move_help): the /right
    button read "Buy a right (1856 tunnel/bridge) or a ferry (1833NE)" in every game."""
    from bot.play import MOVES, move_help
    from engine.titles.registry import title_info

    players = [("1", "a"), ("2", "b"), ("3", "c")]
    ne, g56 = title_info("1833NE").make(players), title_info("1856").make(players)
    assert move_help(ne, MOVES["right"]) == "buy a ferry"
    assert move_help(g56, MOVES["right"]) == "buy a right (tunnel/bridge)"
    assert move_help(ne, MOVES["takeover"]) == "take over another corporation"
    assert move_help(g56, MOVES["merge"]) == "merge into the national"
    assert move_help(ne, MOVES["dividend"]) == "pay out, pay half or withhold"
    assert move_help(g56, MOVES["dividend"]) == "pay out or withhold"


def test_terminal_words_after_a_value_go_on_with_it() -> None:
    """At the terminal `/game claim seat:Player 1` and `/help command:game import` were refused
    ("Write options as key:value, not '1'"); Discord takes such values whole, so does the terminal."""
    from bot.terminal.textcmd import parse

    assert parse("/game claim seat:Player 1").params == {"seat": "Player 1"}
    assert parse("/help command:game import").params == {"command": "game import"}
    assert parse("/lay hex:F17 tile:57 rotation:2").params == {"hex": "F17", "tile": "57", "rotation": "2"}


async def test_help_for_a_command_group_lists_its_commands(session: LocalSession) -> None:
    """`/help game` said "There is no command /game", then answered as a refusal: now each of its
    commands with what it does, as a plain answer."""
    printed = await session.run_line("/help game")
    assert not printed[0].startswith("!"), printed
    text = "\n".join(printed)
    assert "/game new: " in text and "/game undo: " in text and "/help command:game new explains one of them" in text


def test_bankruptcy_must_be_confirmed() -> None:
    """/bankrupt ended an 1856 game at once, even for a player who could still sell: it now asks
    for confirm:yes (a menu of one choice on Discord); a replayed export's bankruptcy types it."""
    import pytest

    from bot.play import MOVES, build_action
    from bot.terminal.textcmd import action_to_command
    from engine import actions as A
    from engine.errors import GameError
    from engine.titles.registry import new_game

    g = new_game("1856", [("1", "A"), ("2", "B"), ("3", "C")])
    with pytest.raises(GameError, match="cannot be taken back.*/bankrupt confirm:yes"):
        build_action(MOVES["bankrupt"], g, "1", {})
    assert isinstance(build_action(MOVES["bankrupt"], g, "1", {"confirm": "yes"}), A.Bankrupt)
    assert action_to_command({"type": "bankrupt", "entity": "GW", "entity_type": "corporation"}) \
        == "/bankrupt confirm:yes"


# ---------------------------------------------------------------------------- offers
# A purchase of another player's private or of a train of their corporation is an offer the
# seller accepts or refuses (the rules: "at a price both agree"; 18xx.games asks nobody).
BW_AT_ITS_TRAIN_STEP = NE_START + NE_BW_TRAIN


async def test_buying_another_players_train_is_an_offer_the_seller_accepts(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    before = await count(session)
    printed = await session.run_line("/train train:2-0 price:1")  # bob's BW, alice's B&L's train
    assert printed[0] == ("BW (bob) offers $1 for B&L's 2-train (2-0): alice, its president, accepts or refuses"
                          " (nothing changes until then; another move withdraws the offer)"), printed
    assert ("@alice alice: BW (bob) offers $1 for your corporation B&L's 2-train (2-0); accept or refuse with this"
            " message's buttons (/game offer vote:yes or vote:no)") in printed
    assert await count(session) == before  # nothing changed
    printed = await session.run_line("/game offer vote:yes")  # bob cannot accept his own offer
    assert printed[0].startswith("!") and "alice answers your offer" in printed[0], printed
    await session.run_line("/as carol")
    printed = await session.run_line("/game offer vote:yes")
    assert printed[0].startswith("!") and "Only alice answers BW's offer of $1 for B&L's 2-train (2-0)" in printed[0], printed
    await session.run_line("/as alice")
    printed = await session.run_line("/game offer vote:yes")
    assert printed[0] == "alice accepts BW's offer of $1 for B&L's 2-train (2-0):", printed
    assert printed[1] == "BW buys a 2-train for $1 from B&L (bob)", printed
    assert await count(session) == before + 1
    row = await session.layer.store.open_game(session.channel)
    assert row is not None
    logged = await session.layer.store.actions(row.id)
    assert logged[-1].data["type"] == "buy_train" and logged[-1].user_id == "bob"  # the buyer's move
    printed = await session.run_line("/game offer vote:yes")  # answered: nothing open
    assert printed[0].startswith("!") and "No offer is open now" in printed[0], printed


async def test_a_refused_or_withdrawn_offer_changes_nothing(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    before = await count(session)
    await session.run_line("/private company:P1 price:1")  # alice's private
    await session.run_line("/as alice")
    printed = await session.run_line("/game offer vote:no")
    assert printed[0] == "alice refuses BW's offer of $1 for P1; nothing changes", printed
    assert ("@bob bob: alice refused your offer; make another, or do something else") in printed
    assert any(ln.startswith("[button Buy a private") or ln.startswith("[button Buy a train") for ln in printed), \
        printed  # bob's decisions again
    assert await count(session) == before
    await session.run_line("/as bob")
    printed = await session.run_line("/private company:P1 price:10")
    assert printed[0].startswith("BW (bob) offers $10 for P1: alice, its owner, accepts"), printed
    printed = await session.run_line("/game offer vote:no")  # the buyer withdraws it
    assert printed[0] == "bob withdraws BW's offer of $10 for P1; nothing changes", printed
    await session.run_line("/as alice")
    printed = await session.run_line("/game offer vote:yes")
    assert printed[0].startswith("!") and "No offer is open now" in printed[0], printed
    assert await count(session) == before


async def test_another_move_ends_an_offer(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    printed = await session.run_line("/train train:2-0 price:1")
    accept = next(ln.split("] ", 1)[1] for ln in printed if ln.startswith("[button Accept $1]"))
    assert accept.startswith("/game offer offer:") and accept.endswith(" vote:yes"), accept
    before = await count(session)
    printed = await session.run_line("/private company:P2 price:1")  # bob's own private: no offer, done at once
    assert printed[0].startswith("BW buys P2"), printed
    assert printed[1] == "(BW's offer of $1 for B&L's 2-train (2-0) is withdrawn)", printed
    assert await count(session) == before + 1
    await session.run_line("/as alice")
    printed = await session.run_line(accept)  # the old offer's button
    assert printed[0].startswith("!") and "out of date" in printed[0], printed


async def test_an_offer_and_an_undo_request_leave_each_other_alone(session: LocalSession) -> None:
    """They shared the position's slot in the store: an undo request cancelled the offer, unsaid."""
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/train train:2-0 price:1")
    await session.run_line("/as carol")
    asked = await session.run_line("/game undo")
    assert "asks to undo" in asked[0], asked
    await session.run_line("/as alice")
    moves = await session.run_line("/moves")
    assert ("An offer waits for your answer: BW offers $1 for B&L's 2-train (2-0): /game offer vote:yes (accept)"
            " or vote:no (refuse)") in moves[0], moves
    status = await session.run_line("/game status")
    assert any(ln.startswith("An offer waits for your answer") for ln in status), status
    accepted = await session.run_line("/game offer vote:yes")
    assert accepted[0] == "alice accepts BW's offer of $1 for B&L's 2-train (2-0):", accepted


async def test_a_withdrawn_offers_button_does_not_answer_the_next(session: LocalSession) -> None:
    """The Accept button of an offer since withdrawn accepted the one made after it, at its price."""
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    first = await session.run_line("/train train:2-0 price:90")
    old = next(ln.split("] ", 1)[1] for ln in first if ln.startswith("[button Accept $90]"))
    await session.run_line("/game offer vote:no")  # bob withdraws it
    await session.run_line("/train train:2-0 price:10")
    mine = await session.run_line("/moves")
    assert "Your offer waits for alice's answer: BW offers $10 for B&L's 2-train (2-0)" in mine[0], mine
    await session.run_line("/as alice")
    late = await session.run_line(old)
    assert late[0].startswith("!") and "That offer was withdrawn; another is open now" in late[0], late
    assert (await session.run_line("/game offer vote:yes"))[0].startswith("alice accepts BW's offer of $10")


async def test_an_offer_waits_for_the_seats_new_holder_who_is_pinged(session: LocalSession) -> None:
    """alice handed her seat to dave while bob's offer for her corporation's train waited: dave
    was not told of it (offers play-test). He is pinged with its buttons, and his answer counts."""
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/train train:2-0 price:1")  # bob's BW, alice's B&L's train
    await session.run_line("/as alice")
    printed = await session.run_line('/game seat seat:alice user:dave')
    assert printed[:2] == ["alice hands alice's seat to dave",
                           "BW's offer of $1 for B&L's 2-train (2-0) waits for dave's answer"], printed
    assert ("@dave dave: BW (bob) offers $1 for your corporation B&L's 2-train (2-0); accept or refuse with this"
            " message's buttons (/game offer vote:yes or vote:no)") in printed
    accept = next(ln.split("] ", 1)[1] for ln in printed if ln.startswith("[button Accept $1]"))
    await session.run_line("/as dave")
    accepted = await session.run_line(accept)
    assert accepted[:2] == ["dave accepts BW's offer of $1 for B&L's 2-train (2-0):",
                            "BW buys a 2-train for $1 from B&L (bob)"], accepted


async def test_an_offer_whose_buyer_hands_the_seat_over_lapses_and_says_so(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/train train:2-0 price:1")  # bob's offer
    printed = await session.run_line("/game seat seat:bob user:dave")
    assert printed[:2] == ["bob hands bob's seat to dave",
                           "(BW's offer of $1 for B&L's 2-train (2-0) lapses: the buyer's seat changed hands; dave may"
                           " offer again)"], printed
    await session.run_line("/as alice")
    late = await session.run_line("/game offer vote:yes")
    assert late[0].startswith("!") and "no longer stands" in late[0], late


async def test_an_offer_to_a_seat_handed_to_the_computer_lapses_and_says_so(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/train train:2-0 price:1")
    await session.run_line("/as alice")
    printed = await session.run_line('/game robot seat:alice')
    assert printed[:2] == ["The computer player plays alice's seat for alice from now on; alice takes it back with "
                           '/game claim seat:"alice"',
                           "(BW's offer of $1 for B&L's 2-train (2-0) lapses: the computer player plays alice's seat"
                           " now and answers no offer; it sells at face value or more, at once)"], printed


async def test_an_undo_while_an_offer_is_open_says_the_offer_is_withdrawn(session: LocalSession) -> None:
    """It ended the offer silently; other moves say so (offers play-test)."""
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/train train:2-0 price:1")
    before = await count(session)
    printed = await session.run_line("/game undo")  # bob's own station, in his turn: undone at once
    assert printed[0] == "↩ bob undoes: BW places a station on E22 for $40", printed
    assert printed[1] == "(BW's offer of $1 for B&L's 2-train (2-0) is withdrawn)", printed
    assert await count(session) == before + 1
    await session.run_line("/as alice")
    late = await session.run_line("/game offer vote:yes")
    assert late[0].startswith("!") and "No offer is open now" in late[0], late


async def test_an_illegal_purchase_is_refused_not_offered(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    printed = await session.run_line("/private company:P1 price:1000")
    assert printed[0].startswith("!"), printed
    assert not any("offers" in ln for ln in printed), printed


async def test_an_accepted_purchase_is_taken_back_by_the_table(session: LocalSession) -> None:
    """The seller agreed to it: their /game undo alone took it back, unasked by the buyer
    (offers play-test). Now the table votes, as on any move that is not the caller's own."""
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    await session.run_line("/private company:P1 price:1")
    await session.run_line("/as alice")
    await session.run_line("/game offer vote:yes")
    printed = await session.run_line("/game undo")
    assert printed[0].startswith("alice asks to undo BW buys P1 from alice for $1"), printed
    await session.run_line("/as bob")
    printed = await session.run_line("/game undo vote:no")  # typed, without the button's state: the open one
    assert printed[0] == "bob refuses to undo BW buys P1 from alice for $1; nothing changes", printed
    printed = await session.run_line("/game undo vote:yes")
    assert "That request to undo was refused" in printed[0], printed


# Who is asked (consent_needed): a person holding the seller's seat; not an automatic seat, a
# conceded one, a free one, nor the buyer themselves. Position: game hotseat006 before its
# action 98, where CA (Player 3) buys BBG's (Player 2) train 2-5 for $250.
@pytest.fixture(scope="module")
def before_sale() -> tuple[Game, A.Action]:
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    at = next(i for i, a in enumerate(acts) if a["id"] == 98)
    game = replay({**export, "actions": acts[:at]}).game
    return game, A.Action.from_dict(acts[at])


def offer_seats(seller_user: str | None, conceded: bool = False) -> list[Seat]:
    return [Seat(0, "Player 1", "u1", "Player 1"), Seat(1, "Player 2", seller_user, "Player 2", conceded),
            Seat(2, "Player 3", "u3", "Player 3")]


def test_a_train_of_another_players_corporation_asks_its_president(before_sale: tuple[Game, A.Action]) -> None:
    game, action = before_sale
    sale = taken_from(game, action)
    assert sale is not None and (sale.seller, sale.thing, sale.private) == ("Player 2", "BBG's 2-train (2-5)", False)
    asked = consent_needed(game, action, offer_seats("u2"), "u3")
    assert asked is not None and asked[1].user_id == "u2"
    assert game.accepts(action)  # the offer is of a purchase the engine takes


@pytest.mark.parametrize(("seller_user", "conceded", "caller"), [
    (ROBOT_USER, False, "u3"),  # the computer's seat
    ("u2", True, "u3"),  # conceded: it moves automatically
    (None, False, "u3"),  # a free seat: nobody to ask
    ("u3", False, "u3"),  # one person holds both seats
])
def test_nobody_to_ask(before_sale: tuple[Game, A.Action], seller_user: str | None, conceded: bool,
                       caller: str) -> None:
    game, action = before_sale
    assert consent_needed(game, action, offer_seats(seller_user, conceded), caller) is None


def test_a_free_seat_sells_at_face_value_only(before_sale: tuple[Game, A.Action]) -> None:
    """Nobody holds the seller's seat: nobody can agree to less than face value (it was taken
    at any price, unasked)."""
    game, action = before_sale
    cheap = A.BuyTrain(entity="CA", entity_type="corporation", train="2-5", price=1)
    assert absent_seller_refusal(game, cheap, offer_seats(None)) == (
        "Nobody holds Player 2's seat to agree: BBG's 2-train (2-5) sells for no less than $100, its face value"
        " (a player who claims the seat with /game claim may agree to less)")
    assert absent_seller_refusal(game, action, offer_seats(None)) is None  # $250: taken
    assert absent_seller_refusal(game, cheap, offer_seats("u2")) is None  # a person: an offer instead


def test_a_purchase_from_the_depot_asks_nobody(before_sale: tuple[Game, A.Action]) -> None:
    game, _ = before_sale
    train = game.depot_trains()[0]
    action = A.BuyTrain(entity="CA", entity_type="corporation", train=train.id, price=train.price)
    assert taken_from(game, action) is None


async def test_a_players_own_purchase_mentions_nobody_else(session: LocalSession) -> None:
    await typed(session, BW_AT_ITS_TRAIN_STEP)
    printed = await session.run_line("/private company:P2 price:1")  # bob's own private
    assert not [ln for ln in printed if ln.startswith("@") and "was bought" in ln], printed


def test_on_discord_the_message_notifies_the_next_player_and_the_seller_only() -> None:
    from bot.discord.cog import message_for
    from bot.reply import Reply

    reply = Reply(lines=["BW buys P1 from alice for $1 (bob)"], ping="222", ping_text="your turn (bob)",
                  heads_up=[("111", "alice: your private P1 was bought (see above)")])
    mentions = message_for(reply, "text", reply.ping)["allowed_mentions"]
    assert [u.id for u in mentions.users] == [222, 111]
    assert mentions.everyone is False and mentions.roles is False
    alone = message_for(Reply(lines=["x"], heads_up=[("111", "t")]), "text", None)["allowed_mentions"]
    assert [u.id for u in alone.users] == [111]


def test_the_next_line_names_only_commands_with_something_to_choose() -> None:
    """1856 (hotseat006, before action 223): BBG's step allows a station, but no city has room
    for one it may place. The reply's next line offers the other commands and says no /token is
    possible now, "you act for" leaves it out (its menu would be empty); typed anyway, /token is
    refused with the game's reason."""
    from bot.play import MOVES, allowed_commands, build_action, offered_commands
    from bot.texts.turns import acting_parts
    from engine.errors import GameError
    from engine.moves import option_choices
    from tests.positions import at

    game = at("1856", "hotseat006", 222)
    assert game.acting() == ["BBG"] and "/token" in allowed_commands(game, "BBG")
    assert not option_choices(game, "BBG", MOVES["token"], "city", {})
    assert "/token" not in offered_commands(game, "BBG")
    # (its private WSRC may still place its own station: named as the private's)
    assert acting_parts(game) == ["Player 2 for BBG, place a token (/right, /pass; no /token possible now; "
                                  "WSRC: /token entity:WSRC)"]
    with pytest.raises(GameError, match="BBG cannot place a token on M4: not reachable or no free space"):
        game.process(build_action(MOVES["token"], game, "BBG", {"city": "M4"}))


def test_a_stock_turn_offers_selling_only_when_a_sale_is_possible() -> None:
    """1836Jr56 (generated s815, before action 694): Player 2 may sell in principle, but no
    holding may be sold now: the turn reads "buy a share or pass", not "sell shares" too."""
    from bot.play import allowed_commands
    from bot.texts.turns import acting_parts
    from tests.positions import at

    game = at("generated/1836jr56", "1836jr56_p2_s815", 693)
    assert "/sell" in allowed_commands(game, "2")
    assert acting_parts(game) == ["Player 2, buy a share or pass (/buy, /pass)"]


def test_an_undone_move_is_told_with_its_amounts() -> None:
    """The undo line names money as the game writes it, and a run typed without revenues by its
    routes (it said "GW runs for 0")."""
    game = new_game("1856", [("1", "Ann"), ("2", "Ben"), ("3", "Cy")])
    typed = {"type": "run_routes", "entity": "GW", "entity_type": "corporation",
             "routes": [{"train": "3-1", "connections": [["F17", "F15"], ["F15", "G14", "G12"]],
                         "hexes": ["F17", "F15", "G12"]}]}
    assert describe_action(game, typed) == "GW runs 3-1: F17-F15-G12"
    recorded = {**typed, "routes": [{**typed["routes"][0], "revenue": 70}]}
    assert describe_action(game, recorded) == "GW runs for $70"
    bought = {"type": "buy_train", "entity": "CV", "entity_type": "corporation", "train": "2-3", "price": 100}
    assert describe_action(game, bought) == "CV buys train 2-3 for $100"


# ---------------------------------------------------------------------------- typed /pass
# A typed /pass right after another player's move ended the round: a button carries the state it
# was made for and is refused once the game moved on, a typed command carries nothing. The pass is
# made (nothing tells it from a deliberate first pass of the new round) and the reply says what it
# passed, in which round, and how to take it back (bot/texts/typed.py).
TYPED_PASS_NOTE = ("Note: bob's move just ended the Stock Round: this /pass was B&L's, in the Operating Round. "
        "If you meant to pass in the Stock Round, /game undo takes it back.")


async def test_a_typed_pass_after_the_round_ended_says_what_it_passed(session: LocalSession) -> None:
    await typed(session, NE_START)  # bob's /pass ended the stock round; alice's B&L lays track
    await session.run_line("/as alice")
    passed = await session.run_line("/pass")
    assert passed[:2] == ["B&L passes (lay track) (alice)", TYPED_PASS_NOTE], passed
    undone = await session.run_line("/game undo")
    assert undone[0] == "↩ alice undoes: B&L passes (lay track)", undone
    assert undone[1].startswith("next: alice for B&L, lay track"), undone
    again = await session.run_line("/pass")  # the round did not just change: a plain pass
    assert again[0] == "B&L passes (lay track) (alice)" and not any(line.startswith("Note:") for line in again)


async def test_the_pass_button_says_nothing_more(session: LocalSession) -> None:
    """The button was made for this position (its state): the player saw what it passes."""
    shown = await typed(session, NE_START)
    button = next(line for line in shown if line.startswith("[button No track] "))
    await session.run_line("/as alice")
    passed = await session.run_line(button.removeprefix("[button No track] "))
    assert passed[0] == "B&L passes (lay track) (alice)" and TYPED_PASS_NOTE not in passed, passed


async def test_the_player_who_ended_the_round_is_not_warned(session: LocalSession) -> None:
    """bob ends the stock round and is first in the operating round (his BW is the only one)."""
    auction = NE_START.split("/as alice\n/par corporation:B&L")[0]
    await typed(session, auction + "/as alice\n/pass\n/as bob\n/par corporation:BW price:70\n"
                                    "/as carol\n/pass\n/as alice\n/pass\n/as bob")
    ended = await session.run_line("/pass")
    assert any("Operating Round" in line for line in ended), ended
    passed = await session.run_line("/pass")
    assert passed[0] == "BW passes (lay track) (bob)" and not any(line.startswith("Note:") for line in passed)


# ---------------------------------------------------------------------------- /right's example
# /right's example names what the title sells (``Game.special_buy_names``): it read
# "/right right:tunnel" in 1833NE, which sells ferries (a play-test), and 1856's engine refused
# "tunnel" too (its rights are "Tunnel Token" and "Bridge Token"). The example, typed as shown,
# buys.
RIGHT_PLAYERS = [("1", "a"), ("2", "b"), ("3", "c")]


def test_the_example_comes_from_the_titles_own_names() -> None:
    ne, g56, jr = (new_game(t, RIGHT_PLAYERS) for t in ("1833NE", "1856", "1836Jr56"))
    assert title_example(ne, MOVES["right"]) == '/right right:"Ferry G22"'  # its first ferry port
    assert ne.special_buy_names() == [f"Ferry {hid}" for hid in ne.ferries]
    assert title_example(g56, MOVES["right"]) == '/right right:"Tunnel Token"'
    assert g56.special_buy_names() == ["Tunnel Token", "Bridge Token"]
    assert jr.special_buy_names() == []  # 1836Jr56 has neither private that sells a right


async def test_1833ne_help_shows_a_ferry_and_typing_it_buys_the_ferry(session: LocalSession) -> None:
    await typed(session, NE_START)  # Operating Round 1.1: alice's B&L ($240) acts
    shown = await session.run_line("/help command:right")
    example = next(line.removeprefix("Example: ") for line in shown if line.startswith("Example: "))
    assert example == '/right right:"Ferry G22"' and "tunnel" not in "\n".join(shown).lower(), shown
    await session.run_line("/as alice")
    bought = await session.run_line(example)
    assert bought[0] == "B&L buys the Boston ferry for $40 (alice)", bought


def test_1856_example_is_what_its_engine_accepts() -> None:
    """1856_game_end_bank just before LPS bought its tunnel right (action 225)."""
    g = at("1856", "1856_game_end_bank", 224)
    line = parse(title_example(g, MOVES["right"]))
    assert line.params == {"right": "Tunnel Token"}
    g.process(MOVES["right"].build(g, "LPS", line.params))
    assert "tunnel" in g.rights["LPS"]


async def test_an_undo_names_the_move_as_the_channel_told_it(session: LocalSession) -> None:
    """An undo named the move as its action reads ("alice bids $20 for FT" for buying the
    cheapest private at its price); it now says what the channel said when the move was made."""
    told = await typed(session, "/game new title:1856\n/as bob\n/game join\n/as carol\n/game join\n"
                                "/as alice\n/game start order:joined\n/bid company:FT price:20")
    assert told[0] == "alice buys FT (Flos Tramway) for $20", told
    asked = await session.run_line("/game undo")
    assert asked[0] == "alice asks to undo alice buys FT (Flos Tramway) for $20. Every seated player must agree (1/3).", asked


# ---------------------------------------------------------------------- late-game play-test
async def imported(session: LocalSession, tmp_path: Path, folder: str, name: str, upto: int) -> None:
    """``/game import`` of a recorded game cut after action ``upto``; user "pN" claims seat N."""
    import json

    export = load_export(folder, name)
    export["actions"] = [a for a in export["actions"] if a["id"] <= upto]
    for key in ("result", "game_end_reason", "status"):
        export.pop(key, None)
    path = tmp_path / f"{name}-{upto}.json"
    path.write_text(json.dumps(export))
    await typed(session, f"/game import file:{path}")
    for n, player in enumerate(export["players"], 1):
        await typed(session, f"/as p{n}\n/game claim seat:{player['name']}")


async def test_a_president_in_a_cash_crisis_who_can_sell_nothing_is_told_so(
    session: LocalSession, tmp_path: Path
) -> None:
    """1856: GW's train purchase left it unable to repay its excess loan; Player 1 pays and owes
    the bank $54, with only presidencies no one can take over. /moves answered "It is not your
    turn." and the next: line "raise money (cash crisis) (/bankrupt)"; now both say what is owed
    and that only bankruptcy is left, and /moves lists it."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s1144_crisis", 210)
    moves = await typed(session, "/as p1\n/moves")
    told = "raise the $54 owed to the bank (cash crisis): no share may be sold, only bankruptcy is left"
    assert moves[0] == f"(only p1 can see this) **Player 1**: {told}", moves
    assert moves[1].strip().startswith("/bankrupt confirm: yes"), moves
    assert moves[-1] == f"next: Player 1, {told} (/bankrupt)"


async def test_a_president_in_a_cash_crisis_is_told_what_to_raise_by_selling(
    session: LocalSession, tmp_path: Path
) -> None:
    """1856: Player 3 owes the bank $39 and holds shares that may be sold: the sale is asked for."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s1135_crisis_u1390_r3", 1408)
    moves = await typed(session, "/as p3\n/moves")
    assert moves[0] == "(only p3 can see this) **Player 3**: raise the $39 owed to the bank by selling " \
                       "shares (cash crisis)", moves
    assert moves[1].strip().startswith("/sell"), moves
    assert moves[2].strip().startswith("/bankrupt"), moves  # the last resort, last


async def test_moves_lists_bankruptcy_for_a_corporation_nothing_can_save(
    session: LocalSession, tmp_path: Path
) -> None:
    """1836Jr56: NFL must buy a train; after its loan and its president's last sale nothing can
    raise the 5-train's price. The next: line offered /bankrupt, /moves did not list it."""
    await imported(session, tmp_path, "generated/1836jr56", "1836jr56_p3_s201", 414)
    await typed(session, "/as p2\n/lay hex:J8 tile:6 rotation:3 entity:CdH\n/loan\n"
                         "/sell corporation:NBDS percent:10")
    moves = await typed(session, "/moves")
    assert moves[0].startswith("(only p2 can see this) **NFL**: buy trains (it must own a train; nothing can "
                               "raise the 392 F missing"), moves
    assert [m.strip().split(" (")[0] for m in moves[1:-1]] == ["/train", "/bankrupt confirm: yes"], moves


async def test_moves_suggests_another_corporations_train_with_the_price_to_type(
    session: LocalSession, tmp_path: Path
) -> None:
    """1856, phase 5: TGB may buy other corporations' trains at a price agreed. /moves train
    suggested "/train train:4-0", refused as written ("Give price:"); now the line names the
    price to type, and typed with one it is made (here an offer to CA's president)."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 585)
    moves = await typed(session, "/as p4\n/moves train")
    # the first 6-train starts phase 6, where the 3-trains rust, TGB's own among them, and CGR forms
    assert "  /train train:6-0  (6-train from the bank, $700, leaves $33; starts phase 6: 3-trains rust " \
           "(its own too); CGR forms)" in moves, moves
    assert "  /train train:4-0 price:N  (4-train from CA, $1-$733: N is the price agreed)" in moves, moves
    assert not any(line.startswith("  /train") and " from CA" in line and "price:N" not in line for line in moves)
    refused = await session.run_line("/train train:4-0")
    assert refused[0].startswith("! (only p4 can see this) Give price:"), refused
    offered = await session.run_line("/train train:4-0 price:100")
    assert not offered[0].startswith("!"), offered


async def test_moves_names_the_private_for_its_ability(session: LocalSession, tmp_path: Path) -> None:
    """1836Jr56: CdH may lay in J8 for NFL. /moves said "/lay hex: J8 (/moves lay)", and both
    commands act for NFL ("NFL cannot lay a tile on J8"); now they name the private."""
    await imported(session, tmp_path, "generated/1836jr56", "1836jr56_p3_s201", 414)
    moves = await typed(session, "/as p2\n/moves")
    assert "  /lay entity:CdH hex: J8 (/moves lay entity:CdH)" in moves, moves
    listed = await typed(session, "/moves lay entity:CdH")
    assert listed[1].strip().startswith("/lay hex:J8 entity:CdH"), listed


async def test_moves_lists_a_privates_lays_as_commands_like_a_corporations(
    session: LocalSession, tmp_path: Path
) -> None:
    """1836Jr56: /moves lay hex:J8 entity:CdH listed tile copies ("/lay hex:J8 tile:5-0
    entity:CdH (5 - yellow 1 city, 20)"), then all six rotations of the straight 57, three of
    them the same track; a corporation's /moves lay hex: lists each distinct lay as a command
    with where its track goes. Now the private's do too, and one typed as listed is made."""
    await imported(session, tmp_path, "generated/1836jr56", "1836jr56_p3_s201", 414)
    listed = await typed(session, "/as p2\n/moves lay hex:J8 entity:CdH")
    assert listed[0] == "(only p2 can see this) CdH can lay on J8 Hainaut Coalfields:", listed
    lays = [line for line in listed if line.startswith("  /lay ")]
    assert len(lays) == 15 and not any("-0" in line for line in lays), lays  # 57 straight: 3 rotations, not 6
    assert "  /lay hex:J8 tile:57 rotation:1 entity:CdH  (track to J10, J6 (J10 has no track on that side yet))" in lays
    made = await typed(session, lays[0].split("  (")[0].strip())
    assert made[0].startswith("NFL (CdH) lays tile #5 with rotation 0 on J8"), made


async def test_a_corporation_over_its_loan_limit_is_warned_before_it_buys(
    session: LocalSession, tmp_path: Path
) -> None:
    """1856: GW holds 3 loans, 2 allowed; as its turn ends it repays one, its president paying
    what the treasury lacks. The 3-train ("leaves $7") then threw Player 1 into a cash crisis
    and bankruptcy without a word before; now its turn says so, and the repayment happens as told."""
    await imported(session, tmp_path, "generated/1856", "1856_p3_s1144_crisis", 209)
    warning = "GW has 3 loans, 2 allowed: it repays 1 ($100) as its turn ends, Player 1 paying what its treasury lacks"
    moves = await typed(session, "/as p1\n/moves")
    assert moves[0] == f"(only p1 can see this) **GW**: buy trains; {warning}", moves
    bought = await typed(session, "/train train:3-1")
    assert "GW has more loans than it may have (2): it must repay 1 loan and owes $100" in bought, bought
    assert "GW cannot pay the remaining $93: its president Player 1 pays it" in bought, bought


async def test_a_discard_that_leaves_no_choice_is_made_for_the_corporation(
    session: LocalSession, tmp_path: Path
) -> None:
    """1836Jr56: the stock round's last sale starts the operating round, where the new national
    MESS holds six trains and must get down to three, scrapping its rusting trains: three
    4-trains. Its president had to pick each from a menu of identical 4-trains (the play-test's
    CGR: four of them, about eight taps); the bot now discards them, says why, and play goes on
    to the first real decision."""
    await imported(session, tmp_path, "selfplay/1836jr56", "1836jr56_p4_national_discards_next_round", 618)
    told = await typed(session, "/as p1\n/sell corporation:MESS percent:5")
    forced = "⏭ MESS discards a 4-train: it must, and every train it may discard is a 4-train"
    assert told.count(forced) == 3, told
    assert not any(line.startswith("!") for line in told), told
    assert told.index("Player 3 operates MESS") < told.index(forced)
    assert "next: Player 3 for MESS, lay track (/lay, /pass)" in told, told
    moves = await typed(session, "/as p3\n/moves")
    assert moves[0] == "(only p3 can see this) **MESS**: lay track", moves
    assert not any("/discard" in line for line in moves), moves


async def test_a_train_refused_for_want_of_money_names_the_loan(session: LocalSession, tmp_path: Path) -> None:
    """1856: TGB withholds and wants the first 6-train ($700) with $643: refused, and the refusal
    now says what the play-test's president did next (a loan first) instead of leaving it to /moves."""
    await imported(session, tmp_path, "1856", "1856_game_end_bank", 583)
    await typed(session, "/as p4\n/dividend kind:withhold")
    refused = await session.run_line("/train train:6-0")
    assert refused[0].startswith("! (only p4 can see this) TGB cannot afford 6-0 ($700)"), refused
    assert refused[0].endswith("TGB may take a loan first (/loan)"), refused
    await typed(session, "/loan")
    bought = await session.run_line("/train train:6-0")
    assert not bought[0].startswith("!"), bought


def test_moves_lay_says_what_a_lay_costs_before_it_is_made() -> None:
    """1833NE play-test: the $60 of a hex showed only after the lay. Here 1856's CPR may lay on
    N3 (a river, $40): the overview and the hex's commands say so, and the lay costs that much."""
    from bot.handlers.moves import lay_moves
    from engine.decisions import lay_cost

    game = at("1856", "1856_game_end_bank", 44)
    assert "  N3 (costs $40): 5 (rotation 1), 57 (rotation 1)" in lay_moves(game, "CPR", "")
    assert lay_moves(game, "CPR", "N3")[1:] == [
        "  /lay hex:N3 tile:5 rotation:1  (track to M2, M4; costs $40)",
        "  /lay hex:N3 tile:57 rotation:1  (track to M4, O2; costs $40)"]
    cash = game.corporations["CPR"].cash
    tile = game.board.supply["57"][0]
    assert lay_cost(game, "CPR", "N3", tile, 1) == 40
    game.process(A.LayTile(entity="CPR", entity_type="corporation", hex="N3", tile=tile, rotation=1))
    assert game.corporations["CPR"].cash == cash - 40


def test_a_rotation_s_choice_says_what_the_lay_costs() -> None:
    from engine.moves.track import lay_choices

    game = at("1856", "1856_game_end_bank", 44)
    labels = [c.label for c in lay_choices(game, "CPR", {"hex": "N3", "tile": "57"})]
    assert labels and all(label.endswith("; costs $40") for label in labels), labels


# ------------------------------------------------------------- examples on the title's own map
# /help lay, token, assign and routes showed 1856's hexes in a 1836Jr56 game ("/lay hex:F17",
# 'routes:"5-0: M4-M6-N7-N9-N11-O10-P9"'): its map has rows A-K and columns 1-13, none of them
# (1833NE has no M4 either). A hex the map lacks becomes one of its cities, a chain a chain of
# adjacent hexes; 1856's examples stay as written.
def test_examples_name_hexes_of_the_titles_map() -> None:
    import re

    from bot.play import option_text
    from engine.map import hexgrid

    g56, jr, ne = (new_game(t, RIGHT_PLAYERS) for t in ("1856", "1836Jr56", "1833NE"))
    for cmd in ("lay", "token", "assign", "routes"):
        assert title_example(g56, MOVES[cmd]) == MOVES[cmd].example
    assert title_example(jr, MOVES["lay"]) == "/lay hex:B10 tile:57 rotation:2"  # Groningen, an empty city
    assert title_example(jr, MOVES["token"]) == "/token city:B10"
    for game in (jr, ne):
        said = [title_example(game, MOVES[cmd]) for cmd in ("lay", "token", "assign", "routes")]
        said.append(option_text(game, MOVES["routes"], MOVES["routes"].options[0]) or "")
        chains = [c.split("-") for text in said for c in re.findall(r"\b[A-Z]{1,2}\d{1,2}(?:-[A-Z]{1,2}\d{1,2})*", text)]
        assert chains and all(h in game.board.hexes for chain in chains for h in chain), said
        assert all(hexgrid.edge_between(a, b, game.board.layout) is not None
                   for chain in chains for a, b in zip(chain, chain[1:], strict=False)), said
        assert len(max(chains, key=len)) == 7, said  # the 5-train's route keeps its length


# ------------------------------------------------------- what a bank train's events set off
# The first 6-train forms 1836Jr56's national (MESS: corporations with loans merge into it or
# their presidents repay) and the first 5-train closes the privates; the choices told only the
# phase and the rusting ("6-train from the bank, 700 F, leaves 259 F; starts phase 6: 3-trains
# rust"), a play-test's NBDS president bought it unwarned.
def test_a_bank_trains_choice_says_the_national_forms_and_the_privates_close() -> None:
    g = at("1836jr56", "1836jr56_game_end_bank", 390)
    six = {c.value: c.label for c in MOVES["train"].options[0].choices(g, "NBDS", {})}["6-0"]
    assert six == "6-train from the bank, 700 F, leaves 259 F; starts phase 6: 3-trains rust; MESS forms"
    g = at("1836jr56", "1836jr56_game_end_bank", 306)
    five = {c.value: c.label for c in MOVES["train"].options[0].choices(g, "Nord", {})}["5-0"]
    assert five.endswith("; starts phase 5; private companies close"), five
    g.process(MOVES["train"].build(g, "Nord", {"train": "5-0"}))
    assert all(c.closed for c in g.companies.values())


def test_a_free_private_lay_is_not_offered_at_its_terrain_cost() -> None:
    """1836Jr56's E-SF lays its tile on B8 free of cost; its hex was offered as "B8 Enkhuizen &
    Stavoren, terrain 80 F" (the menu and /moves lay entity:E-SF). CdH pays J8's 60 F mountain and
    says so."""
    from engine.moves.track import lay_choices

    g = at("1836jr56", "1836jr56_game_end_bank", 190)
    assert [(c.value, c.label) for c in lay_choices(g, "E-SF", {})] == [("B8", "B8 Enkhuizen & Stavoren, free")]
    cash = g.corporations["GCL"].cash
    g.process(MOVES["lay"].build(g, "E-SF", {"hex": "B8", "tile": "2", "rotation": "3"}))
    assert g.corporations["GCL"].cash == cash
    g = at("generated/1836jr56", "1836jr56_p3_s201", 414)
    assert [c.label for c in lay_choices(g, "CdH", {})] == ["J8 Hainaut Coalfields, terrain 60 F"]


def test_help_topic_lists_only_the_titles_commands() -> None:
    """/help topic:Actions in a 1836Jr56 game listed /right ("buy a right (tunnel/bridge)": it has
    no such privates), /issue, /redeem and /accept (1833NE's); 1833NE's listed the loans and the
    national's /remove and /borrow. Each lists what its title has."""
    from bot.commands.table import topic_help

    def listed(title: str) -> set[str]:
        lines = topic_help("Actions", new_game(title, RIGHT_PLAYERS))
        return {line.split(":")[0] for line in lines[1:]}

    jr, g56, ne = listed("1836Jr56"), listed("1856"), listed("1833NE")
    assert not jr & {"/right", "/issue", "/redeem", "/takeover", "/accept"}, jr
    assert {"/loan", "/repay", "/merge", "/borrow", "/remove", "/assign", "/private"} <= jr
    assert g56 == jr | {"/right"}
    assert not ne & {"/loan", "/repay", "/merge", "/borrow", "/remove"}, ne
    assert {"/right", "/issue", "/redeem", "/takeover", "/accept"} <= ne


def test_assign_is_explained_with_the_titles_marker() -> None:
    """/assign read "place a private's marker (port)" in 1836Jr56, whose only marker is RdP's
    +20 token (no ports); 1856's keeps its port."""
    from bot.play import move_help

    assert move_help(new_game("1836Jr56", RIGHT_PLAYERS), MOVES["assign"]) == "place a private's marker (+20 token)"
    assert move_help(new_game("1856", RIGHT_PLAYERS), MOVES["assign"]) == "place a private's marker (port)"


async def test_a_corporation_that_can_lay_no_tile_is_told_why(session: LocalSession, tmp_path: Path) -> None:
    """1836Jr56: HSM reaches hexes but can lay on none of them; /moves said "(no hex to choose
    now)" and /lay asked for a hex with a made-up example. Both now say why, hex by hex."""
    await imported(session, tmp_path, "1836jr56", "1836jr56_game_end_bank", 170)
    why = ("no tile of this phase fits E5, E7, E9, E11, F10; D6 is blocked by ACC; D10 costs 40 F, F8 costs 40 F "
           "(HSM has 10 F)")
    moves = await typed(session, "/as p1\n/moves")
    assert f"  /lay (no hex to choose now: {why})" in moves, moves
    assert (await session.run_line("/lay"))[0] == f"! (only p1 can see this) There is no hex to choose now: {why}"
    assert (await typed(session, "/moves lay"))[0] == f"(only p1 can see this) HSM has no tile to lay now: {why}"
