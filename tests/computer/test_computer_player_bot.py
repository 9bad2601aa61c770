"""The computer player in the bot: seats opened with ``/game new robots:N`` and seats handed to
it with ``/game robot`` act at once when it is their turn; their moves are posted with a
one-line reason, logged as the robot's, and nobody pings them."""

from __future__ import annotations

import pytest

import bot.service as service_module
from bot.commands.layer import CommandLayer
from bot.handlers.moves import command_moves
from bot.play import MOVES
from bot.reply import Caller
from bot.robot import robot_decision, takes_from_person
from bot.storage.rows import Seat
from bot.texts.story import robot_lines
from engine import actions as A
from engine.replay import filter_actions, replay
from tests.command_script import send, set_up, user_of
from tests.fixture_util import load_export
from tests.store.test_bot_async_reminders import CH, FakeClock, clock, layer, run, setup_game

__all__ = ["clock", "layer"]


async def test_robot_seats_from_game_new_act_and_their_moves_are_posted(layer: CommandLayer) -> None:
    opened = await run(layer, "alice", "/game new title:1856 robots:2")
    assert opened.ok and "with 2 computer players" in opened.lines[0]
    assert (await run(layer, "bob", "/game join")).ok
    started = await run(layer, "alice", "/game start order:joined")
    assert started.ok, started.error
    row = await layer.store.open_game(CH)
    assert row is not None
    seats = await layer.store.seats(row.id)
    assert [(s.name, s.conceded) for s in seats] == [("Alice", False), ("Robot 1", True), ("Robot 2", True),
                                                     ("Bob", False)]
    reply = await run(layer, "alice", "/pass")  # the auction: Alice passes, the two robots follow
    assert reply.ok, reply.error
    posted = [ln for ln in reply.lines if ln.startswith("🤖")]
    assert len(posted) >= 2, reply.lines
    # each move told as any move, with its reason: "<what it did>: <why>"
    assert "🤖 Robot 1 buys FT (Flos Tramway) for $20: it pays $5 a round" in posted
    assert reply.ping in (None, "bob", "alice")
    game = (await layer.load(row)).game
    assert game.acting_players()[0] in ("1", "4")  # a person's turn again
    logged = await layer.store.actions(row.id)
    assert sum(1 for e in logged if e.user_id == "robot") >= 2


async def test_a_seat_handed_to_the_computer_moves_at_once(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)  # BBG (alice, Player 1) operates
    early = await run(layer, "bob", '/game robot seat:"Player 1"')
    assert not early.ok  # not bob's seat, and alice has not been silent
    clock.at(days=8)
    reply = await run(layer, "alice", '/game robot seat:"Player 1"')  # its holder may, at any time
    assert reply.ok, reply.error
    assert reply.lines[0].startswith("The computer player plays Player 1's seat for Alice from now on")
    assert any(ln.startswith("🤖") for ln in reply.lines), reply.lines  # BBG's turn, played at once
    row = await layer.store.open_game(CH)
    assert row is not None
    seats = await layer.store.seats(row.id)
    assert seats[0].user_id == "alice" and seats[0].conceded  # still hers: she takes it back
    assert reply.ping != "robot"
    back = await run(layer, "alice", '/game claim seat:"Player 1"')
    assert back.ok and not (await layer.store.seats(row.id))[0].conceded


def test_an_automatic_seats_move_keeps_every_fact_of_its_story() -> None:
    """The reason was put in place of the story's first line: a side bought ("buys a 4/7-train"
    for the 3+3 side bought for $230), a first route and an event ("the bank is empty") were
    lost (1833NE late-game play-test). Now the line reporting the move carries the reason."""
    mark = "\x00"
    told = ["-- The bank is empty: the game ends after this set of operating rounds --",
            f"B&P withholds $1050 ({mark})", "B&P's share price moves left from $100 to $90"]
    assert robot_lines(told, "B&P", "withholds $1050: others buy its trains below value") == [
        "🤖 -- The bank is empty: the game ends after this set of operating rounds --",
        "🤖 B&P withholds $1050: others buy its trains below value",
        "🤖 B&P's share price moves left from $100 to $90"]
    assert robot_lines([f"RR buys a 3+3-train for $230 from the depot ({mark})"], "RR",
                       "buys a 4/7-train: it must own one to run") == [
        "🤖 RR buys a 3+3-train for $230 from the depot: it must own one to run"]
    assert robot_lines(["FRR runs a 2+1-train for $70", "FRR runs for $130 in all"], "FRR",
                       "runs for $130: the best routes") == [
        "🤖 FRR runs for $130: the best routes", "🤖 FRR runs a 2+1-train for $70", "🤖 FRR runs for $130 in all"]


async def test_automatic_seats_stopped_by_their_cap_go_on_with_game_remind(
        layer: CommandLayer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The automatic seats stop after a cap of moves in a row (one command's work); nothing let
    them go on (1833NE play-test: the game stalled). Now the reply says so and /game remind by
    anyone at the table lets them go on."""
    monkeypatch.setattr(service_module, "MAX_ROBOT_MOVES", 1)
    assert (await run(layer, "alice", "/game new title:1856 robots:2")).ok
    assert (await run(layer, "bob", "/game join")).ok
    assert (await run(layer, "alice", "/game start order:joined")).ok
    reply = await run(layer, "alice", "/pass")  # the auction: Alice passes; one robot move, then the cap
    assert reply.ok, reply.error
    assert ("⏸ The automatic seats stop after 1 moves in a row: /game remind lets them go on"
            in reply.lines), reply.lines
    row = await layer.store.open_game(CH)
    assert row is not None
    before = await layer.store.action_count(row.id)
    going = await run(layer, "alice", "/game remind")
    assert going.ok and going.lines[0] == "Alice lets the automatic seats go on", going.lines
    acting = (await layer.load(row)).game.acting_players()[0]
    assert acting == "4", acting  # bob: pinged, though pinged before the computer moved
    assert going.ping == "bob", (going.ping, going.lines)
    assert any(ln.startswith("🤖") for ln in going.lines), going.lines
    assert await layer.store.action_count(row.id) == before + 1  # one more move (the cap is 1)


async def test_the_computer_sells_at_face_value_and_takes_nothing_from_a_person(layer: CommandLayer) -> None:
    """A purchase from a person is an offer they answer; the computer player cannot wait for
    answers (1833NE play-test: it took a person's trains for $1, and a person took its train for
    $50): it sells at face value or more, and buys nothing a person owns. Game hotseat006 before
    its action 98: CA (Player 3) may buy BBG's 2-train 2-5; BBG's president, Player 2, hands
    the seat to the computer."""
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    head = {**export, "actions": acts[:next(i for i, a in enumerate(acts) if a["id"] == 98)]}
    await set_up(layer, "offers", head)
    handed = await send(layer, "offers", user_of("Player 2"), '/game robot seat:"Player 2"')
    assert handed.ok, handed.error
    low = await send(layer, "offers", user_of("Player 3"), "/train train:2-5 price:50")
    assert not low.ok and low.error.startswith(
        "The computer player, who plays Player 2's seat, sells BBG's 2-train (2-5) for no less than $100, its face"
        " value (nobody is there to agree to less)"), low.error
    bought = await send(layer, "offers", user_of("Player 3"), "/train train:2-5 price:100")
    assert bought.ok and bought.lines[0] == "CA buys a 2-train for $100 from BBG (u-player3)", bought.lines
    game = (await layer.load(await layer.store.open_game("offers"))).game  # type: ignore[arg-type]
    assert game.trains["2-5"].owner == "CA"


async def test_a_seat_handed_to_the_computer_in_a_train_emergency_takes_its_other_corporations_train(
        layer: CommandLayer) -> None:
    """Self-play game 1856 p5 s1011 before its action 898: CV (Player 2) must own a train, the
    bank's cheapest costs more than CV and its president have, no sale of theirs is allowed,
    and the trains on offer belong to persons' corporations and to CA, Player 2's other
    corporation, its only train. The computer player never considered CA's train: it went
    bankrupt (ending the game) unless its random fallback happened to pick that train, as it
    does at this seed ("CV buys a 5-train for $550 from CA", no reason). It now buys it, saying why."""
    export = load_export("generated/1856", "1856_p5_s1011")
    acts = filter_actions(export["actions"])
    head = {**export, "actions": acts[:next(i for i, a in enumerate(acts) if a["id"] == 898)]}
    await set_up(layer, "emergency", head)
    handed = await send(layer, "emergency", user_of("2"), '/game robot seat:"Player 2"')
    assert handed.ok, handed.error
    assert ("🤖 CV buys a 5-train for $550 from CA: its president cannot pay for a train from the bank"
            in handed.lines), handed.lines
    game = (await layer.load(await layer.store.open_game("emergency"))).game  # type: ignore[arg-type]
    assert not game.finished and game.corp_trains("CV")


async def test_moves_train_lists_a_train_of_the_computers_or_a_free_seat_from_its_face_value(
        layer: CommandLayer) -> None:
    """/moves train listed BBG's train "$1-$..." although the seat playing BBG's president, the
    computer's or a free one, sells for no less than its face value (play-test); it now lists
    it from its face value. Game hotseat006 before its action 98: CA (Player 3) may buy BBG's
    2-trains ($100)."""
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    head = {**export, "actions": acts[:next(i for i, a in enumerate(acts) if a["id"] == 98)]}
    await set_up(layer, "offers", head)
    row = await layer.store.open_game("offers")
    assert row is not None
    cash = (await layer.load(row)).game.corporations["CA"].cash
    assert cash > 100

    async def listed() -> list[str]:
        moves = await send(layer, "offers", user_of("Player 3"), "/moves train")
        assert moves.ok, moves.error
        # autocomplete (Discord) names the same price as /moves
        offered = await layer.autocomplete("offers", Caller(user_of("Player 3"), "P3"), "train", "train", {})
        shown = [label for value, label in offered if value == "2-2"]
        # typed without a price the command is refused: the line names it (price:N)
        assert [ln for ln in moves.lines if "train:2-2 " in ln] == [
            f"  /train train:2-2 price:N  ({shown[0]}: N is the price agreed)"], shown
        return [ln for ln in moves.lines if "from BBG" in ln]

    assert await listed() == [  # a person: any price
        f"  /train train:2-2 price:N  (2-train from BBG, $1-${cash}: N is the price agreed)"]
    at_face = [f"  /train train:2-2 price:N  (2-train from BBG, $100-${cash} (its seat sells at face value or more)"
               ": N is the price agreed)"]
    assert (await send(layer, "offers", user_of("Player 2"), '/game robot seat:"Player 2"')).ok
    assert await listed() == at_face
    await layer.store.set_seat_user(row.id, 1, None, was=user_of("Player 2"))  # a free seat
    assert [s.user_id for s in await layer.store.seats(row.id)][1] is None
    assert await listed() == at_face


def test_moves_train_leaves_out_a_face_value_beyond_the_treasury() -> None:
    """A train whose absent seller takes no less than its face value, more than the buyer's
    treasury, is not listed as a command that would be refused: it is named apart."""
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    game = replay({**export, "actions": acts[:next(i for i, a in enumerate(acts) if a["id"] == 98)]}).game
    game.corporations["CA"].cash = 80
    seats = [Seat(i, p.name, "robot" if p.id == "Player 2" else f"u{i}", p.id, p.id == "Player 2")
             for i, p in enumerate(game.players)]
    lines = command_moves(game, "CA", MOVES["train"], {}, seats)
    assert not any("from BBG" in ln for ln in lines), lines
    assert "  /train train:2-1 price:N  (2-train from LPS, $1-$80: N is the price agreed)" in lines  # any price
    assert "Beyond the treasury (their seats sell at face value or more): BBG's 2-train: $100" in lines, lines


def test_the_computer_avoids_a_purchase_from_a_person() -> None:
    """``takes_from_person``: a train of a person's corporation (not one the computer plays, not
    the mover's own) is avoided by the computer player's decision."""
    export = load_export("1856", "hotseat006")
    acts = filter_actions(export["actions"])
    game = replay({**export, "actions": acts[:next(i for i, a in enumerate(acts) if a["id"] == 98)]}).game
    buy = A.BuyTrain(entity="CA", entity_type="corporation", train="2-5", price=1)
    assert takes_from_person(game, buy, set())  # Player 2 is a person
    assert not takes_from_person(game, buy, {"Player 2"})  # the computer plays Player 2's seat
    decision = robot_decision(game, "CA", avoid=lambda a: takes_from_person(game, a, set()))
    assert decision is None or not takes_from_person(game, decision.action, set())


async def test_a_seat_taken_back_from_the_computer_is_played_by_its_person(
        layer: CommandLayer, clock: FakeClock) -> None:
    """/game seat gave a computer's seat to a person but left it automatic: the computer kept
    playing it (play-test). The status names the computer player's seats as such."""
    await setup_game(layer, 18)  # BBG (alice, Player 1) operates; alice is the host
    clock.at(days=8)
    assert (await run(layer, "bob", '/game robot seat:"Player 1"')).ok  # a vote after alice's silence
    assert (await run(layer, "carol", '/game robot seat:"Player 1"')).ok  # carried
    status = await run(layer, "bob", "/game status")
    assert "Player 1 $170 (the computer player)" in status.lines[0], status.lines[0]
    back = await run(layer, "alice", '/game seat seat:"Player 1" user:alice')
    assert back.ok, back.error
    row = await layer.store.open_game(CH)
    assert row is not None
    seat = (await layer.store.seats(row.id))[0]
    assert seat.user_id == "alice" and not seat.conceded


async def test_undo_takes_back_the_automatic_seats_moves_with_the_move_they_followed(layer: CommandLayer) -> None:
    """/game undo after the computer had moved undid the computer's last move, which it made
    again at once: a person's move could never be reached (play-test). The automatic seats'
    moves now go with the move they followed, as the bot's skipped steps do."""
    assert (await run(layer, "alice", "/game new title:1856 robots:2")).ok
    assert (await run(layer, "bob", "/game join")).ok
    assert (await run(layer, "alice", "/game start order:joined")).ok
    row = await layer.store.open_game(CH)
    assert row is not None
    before = await layer.store.action_count(row.id)
    moved = await run(layer, "alice", "/pass")  # the auction: alice passes, the two robots follow
    robots = sum(1 for ln in moved.lines if ln.startswith("🤖"))
    assert robots >= 2, moved.lines
    undone = await run(layer, "alice", "/game undo")
    assert undone.ok and undone.lines[0].startswith("↩ Alice undoes: Alice passes bidding (and the "), undone.lines
    assert "moves of the automatic seats after it)" in undone.lines[0], undone.lines
    game = (await layer.load(row)).game
    assert game.acting_players() == ["1"]  # alice's turn again, as before her pass
    assert await layer.store.action_count(row.id) > before  # an undo is appended, not a deletion
