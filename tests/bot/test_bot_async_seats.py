"""Absent players through the command layer: substitutes (by the holder, the host, or a vote after
a silence), concession to an automatic seat, and programmed stock-round moves in /game status."""

from __future__ import annotations

from bot.commands.layer import CommandLayer
from engine.replay import replay, snapshot
from tests.store.test_bot_async_reminders import (
    CH,
    USERS,
    FakeClock,
    acting_user,
    clock,
    layer,
    run,
    setup_game,
)

__all__ = ["clock", "layer"]  # fixtures shared with the reminder tests


async def test_sub_by_the_holder_and_by_the_host(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)  # alice (host) acts for BBG
    reply = await run(layer, "alice", "/game sub user:dave user_name:Dave")
    assert reply.ok and "Dave takes over Player 1's seat" in reply.lines[0]
    assert reply.ping == "dave" and "your turn (Player 1)" in reply.ping_text  # it is that seat's turn
    refused = await run(layer, "alice", "/pass")
    assert not refused.ok and "do not hold a seat" in refused.error
    assert (await run(layer, "dave", "/lay hex:J15 tile:57-0 rotation:0")).ok
    # the host (still alice, by the game's record) may not take a playing seat from its holder...
    refused = await run(layer, "alice", '/game sub seat:"Player 3" user:erin')
    assert not refused.ok and "needs 7 days of silence, and so does the host" in refused.error
    # nor may anyone else, without a vote after that silence
    refused = await run(layer, "bob", '/game sub seat:"Player 3" user:bob2')
    assert not refused.ok and "needs 7 days of silence" in refused.error
    # the host hands it over without asking once its holder has been silent for the game's sub_days
    clock.at(days=7)
    assert (await run(layer, "alice", '/game sub seat:"Player 3" user:erin')).ok
    seats = await layer.store.seats((await layer.store.open_game(CH)).id)
    assert [s.user_id for s in seats] == ["dave", "bob", "erin"]


async def test_vote_replaces_a_silent_player(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)  # stock round 1, alice to act
    assert (await run(layer, "alice", "/pass")).ok  # bob to act
    assert (await run(layer, "bob", "/pass")).ok  # carol to act
    assert (await acting_user(layer)) == "carol"
    clock.at(days=6)
    early = await run(layer, "bob", '/game sub seat:"Player 3" user:dave')
    assert not early.ok and "a vote needs 7 days" in early.error
    clock.at(days=8)
    ask = await run(layer, "bob", '/game sub seat:"Player 3" user:dave user_name:Dave')
    assert ask.ok and "(1 of the 2 votes needed, from the 2 other players)" in ask.lines[0]
    assert [b.command for b in ask.buttons] == ['/game sub seat:"Player 3" vote:yes',
                                                '/game sub seat:"Player 3" vote:no']
    not_voter = await run(layer, "carol", '/game sub seat:"Player 3" vote:no')
    assert not not_voter.ok and "other seated players" in not_voter.error
    twice = await run(layer, "bob", '/game sub seat:"Player 3" vote:yes')
    assert not twice.ok and "already voted" in twice.error
    done = await run(layer, "alice", '/game sub seat:"Player 3" vote:yes')
    assert done.ok and "2 of 2 agree" in done.lines[0] and "Dave takes over Player 3's seat" in done.lines[1]
    assert done.ping == "dave"
    assert (await run(layer, "dave", "/pass")).ok


async def test_vote_can_be_refused(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)
    clock.at(days=8)
    assert (await run(layer, "bob", '/game sub seat:"Player 3" user:dave')).ok
    no = await run(layer, "alice", '/game sub seat:"Player 3" vote:no')
    assert no.ok and "refused" in no.lines[0]
    seats = await layer.store.seats((await layer.store.open_game(CH)).id)
    assert seats[2].user_id == "carol"
    gone = await run(layer, "alice", '/game sub seat:"Player 3" vote:yes')
    assert not gone.ok and "no vote" in gone.error


async def test_concession_makes_an_automatic_seat(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 18)  # BBG (alice) operates
    ask = await run(layer, "alice", "/game concede")
    assert ask.ok and ask.ephemeral and ask.buttons[0].command == '/game concede seat:"Player 1" confirm:yes'
    row = await layer.store.open_game(CH)
    before = await layer.store.action_count(row.id)
    assert await layer.store.action_count(row.id) == before  # asking changes nothing
    done = await run(layer, "alice", ask.buttons[0].command)
    assert done.ok and "Player 1 concedes" in done.lines[0]
    robot = [ln for ln in done.lines if ln.startswith("🤖")]
    assert robot, done.lines  # BBG's turn was played automatically
    game = (await layer.load(row)).game
    assert game.controller_of(game.acting()[0]) != "Player 1"
    refused = await run(layer, "alice", "/pass")
    assert not refused.ok and "conceded" in refused.error
    status = await run(layer, "bob", "/game status")
    assert "Player 1" in status.lines[0] and "(played by the computer for now)" in status.lines[0]
    # play on with the two others passing: the automatic seat moves whenever it is its turn
    for _ in range(40):
        game = (await layer.load(row)).game
        if game.finished or game.round.name == "Stock Round" and game.turn == 3:
            break
        user = USERS[game.acting_players()[0]]
        assert user != "alice"
        reply = await run(layer, user, "/pass")
        if not reply.ok:  # a corporation that must run or buy: let it do the minimum too
            reply = await run(layer, user, "/routes routes:none") if "/routes" in reply.error else reply
            reply = await run(layer, user, "/dividend kind:withhold") if not reply.ok else reply
        assert reply.ok, reply.error
    logged = await layer.store.actions(row.id)
    assert sum(1 for e in logged if e.user_id == "robot") >= 3
    # the automatic moves are ordinary logged actions: the export replays to the same state
    export = await layer.export(row)
    assert snapshot(replay(export).game, {}) == snapshot((await layer.load(row)).game, {})
    # a substitute can take the conceded seat over
    sub = await run(layer, "alice", '/game sub seat:"Player 1" user:dave')
    assert sub.ok
    seats = await layer.store.seats(row.id)
    assert seats[0].user_id == "dave" and not seats[0].conceded


async def test_the_last_player_cannot_concede(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)
    assert (await run(layer, "bob", "/game concede confirm:yes")).ok
    assert (await run(layer, "carol", "/game concede confirm:yes")).ok
    last = await run(layer, "alice", "/game concede confirm:yes")
    assert not last.ok and "/game end" in last.error


async def test_programmed_moves_are_shown_and_made(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)  # stock round 1: alice acts, then bob, then carol
    assert (await run(layer, "bob", "/autopass")).ok  # out of turn: a standing order
    assert (await run(layer, "carol", "/autobuy corporation:BBG until:30")).ok
    status = await run(layer, "alice", "/game status")
    text = "\n".join(status.lines)
    assert "Programmed moves: Player 2: auto-pass in stock rounds (this stock round)" in text
    assert "Player 3: auto-buy BBG until holding 30% (from the IPO)" in text
    assert status.status is not None and "Programmed moves" in status.status  # the pinned message too
    reply = await run(layer, "alice", "/pass")
    assert reply.ok
    row = await layer.store.open_game(CH)
    game = (await layer.load(row)).game
    assert game.player("Player 2").passed and game.percent_of("Player 3", "BBG") >= 10
    assert (await acting_user(layer)) == "alice"  # both programmed turns were made by the engine
    assert reply.ping is None  # alice typed the command: she sees that it is her turn again
    assert (await run(layer, "carol", "/autostop")).ok
    status = await run(layer, "alice", "/game status")
    assert "auto-buy" not in "\n".join(status.lines)


async def test_a_seat_handed_to_the_computer_by_its_holder_is_taken_back(layer: CommandLayer,
                                                                         clock: FakeClock) -> None:
    await setup_game(layer, 9)  # stock round 1: alice acts, then bob, then carol
    assert (await run(layer, "alice", "/pass")).ok  # bob to act
    robot = await run(layer, "carol", "/game robot")
    assert robot.ok and robot.lines[0] == ("The computer player plays Player 3's seat for Carol from now on; "
                                           'Carol takes it back with /game claim seat:"Player 3"')
    row = await layer.store.open_game(CH)
    seats = await layer.store.seats(row.id)
    assert seats[2].user_id == "carol" and seats[2].conceded
    other = await run(layer, "bob", '/game claim seat:"Player 3"')
    assert not other.ok and "for its holder, who takes it back with /game claim" in other.error
    back = await run(layer, "carol", '/game claim seat:"Player 3"')
    assert back.ok and back.lines[0] == "Carol takes Player 3's seat back from the computer player"
    seats = await layer.store.seats(row.id)
    assert seats[2].user_id == "carol" and not seats[2].conceded
    # the last person at the table keeps playing: the computer player would play every seat
    assert (await run(layer, "bob", "/game robot")).ok
    assert (await run(layer, "carol", "/game robot")).ok
    last = await run(layer, "alice", "/game robot")
    assert not last.ok and "Nobody else would be left playing" in last.error


async def test_typed_requests_for_the_same_hand_over_are_votes(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)  # alice to act
    clock.at(days=8)
    ask = await run(layer, "bob", '/game robot seat:"Player 1"')
    assert ask.ok and "(silent for 8d 0h)" in ask.lines[0] and "1 of the 2 votes needed" in ask.lines[0]
    assert ask.heads_up == [("carol", "your vote: hand Player 1's seat to the computer player? (this message's buttons)"),
                            ("alice", "the other players vote on handing your seat (Player 1) to the computer player")]
    other = await run(layer, "carol", '/game sub seat:"Player 1" user:dave')
    assert not other.ok and "A vote to hand Player 1's seat to the computer player is open" in other.error
    again = await run(layer, "carol", '/game robot seat:"Player 1"')  # the same request: a vote for it
    assert again.ok and "2 of 2 agree" in again.lines[0], again.lines
    seats = await layer.store.seats((await layer.store.open_game(CH)).id)
    assert seats[0].user_id == "robot"
    taken = await run(layer, "dave", '/game claim seat:"Player 1"')
    assert not taken.ok and '/game seat seat:"Player 1" user:@you' in taken.error


async def test_a_new_holder_is_pinged_and_gets_a_fresh_clock(layer: CommandLayer, clock: FakeClock) -> None:
    await setup_game(layer, 9)  # alice to act since the import
    row = await layer.store.open_game(CH)
    assert (await run(layer, "alice", "/game settings reminders:3 remind_hours:1 repeat_hours:1")).ok
    clock.at(days=2)
    same = await run(layer, "alice", '/game seat seat:"Player 1" user:alice')
    assert not same.ok and "already holds Player 1's seat" in same.error
    handed = await run(layer, "alice", '/game seat seat:"Player 1" user:dave user_name:Dave')
    assert handed.ok and handed.ping == "dave" and "your turn (Player 1)" in handed.ping_text
    turn = await layer.store.turn(row.id)
    assert turn is not None and turn.reminders_sent == 0 and turn.since == clock().timestamp()
    clock.at(days=8)  # alice's silence was 8 days; dave's began with the seat
    early = await run(layer, "bob", '/game robot seat:"Player 1"')
    assert not early.ok and "silent for 6d 0h" in early.error and "a vote needs 7 days" in early.error
    # a free seat claimed when it is its turn: pinged too
    await layer.store.set_seat_user(row.id, 0, None)
    claimed = await run(layer, "erin", '/game claim seat:"Player 1"')
    assert claimed.ok and claimed.ping == "erin" and "your turn (Player 1)" in claimed.ping_text
