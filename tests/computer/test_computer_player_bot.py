"""The computer player in the bot: seats opened with ``/game new robots:N`` and seats handed to
it with ``/game robot`` act at once when it is their turn; their moves are posted with a
one-line reason, logged as the robot's, and nobody pings them."""

from __future__ import annotations

from bot.commands.layer import CommandLayer
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
    # each move with its reason, as "<seat> <what it does>: <why>"
    assert "🤖 Robot 1 buys FT for $20 (it pays $5 a round)" in posted
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
    assert "the computer player takes over Player 1's seat" in reply.lines[0]
    assert any(ln.startswith("🤖") for ln in reply.lines), reply.lines  # BBG's turn, played at once
    row = await layer.store.open_game(CH)
    assert row is not None
    seats = await layer.store.seats(row.id)
    assert seats[0].user_id == "robot" and seats[0].conceded
    assert reply.ping != "robot"
    # a person takes it back with /game sub (the host may: the seat is the computer's)
    back = await run(layer, "alice", '/game sub seat:"Player 1" user:alice')
    assert back.ok and not (await layer.store.seats(row.id))[0].conceded
