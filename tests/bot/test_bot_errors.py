"""Bad input, wrong users and channels, stale buttons, undo rules, pings and the per-game lock.

Every refusal must give a clear ephemeral error and leave the database (and the game) unchanged.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.terminal.textcmd import parse
from engine.replay import filter_actions, snapshot
from tests.fixture_util import load_export

CH = "chan-a"
USERS = {"Player 1": "alice", "Player 2": "bob", "Player 3": "carol"}


async def run(layer: CommandLayer, user: str, line: str, channel: str = CH) -> Reply:
    cmd = parse(line)
    return await layer.handle(channel, Caller(user, user.capitalize()), cmd.name, cmd.params)


async def setup_game(layer: CommandLayer, upto: int) -> None:
    """hotseat001 imported with its first ``upto`` actions; alice, bob, carol claim the seats."""
    export = load_export("1856", "hotseat001")
    export["actions"] = filter_actions(export["actions"])[:upto]
    reply = await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})
    assert reply.ok, reply.error
    for seat, user in USERS.items():
        assert (await run(layer, user, f'/game claim seat:"{seat}"')).ok


async def state(layer: CommandLayer) -> tuple[Any, Any]:
    row = await layer.store.open_game(CH)
    game = (await layer.load(row)).game if row and row.status == "active" else None
    return await layer.store.dump(), snapshot(game, {}) if game else None


async def refused(layer: CommandLayer, user: str, line: str, *fragments: str, channel: str = CH) -> str:
    before = await state(layer)
    reply = await run(layer, user, line, channel)
    assert not reply.ok, f"{line} by {user} was accepted"
    assert reply.ephemeral and not reply.ping and not reply.files and not reply.lines
    for frag in fragments:
        assert frag.lower() in reply.error.lower(), (line, reply.error)
    assert await state(layer) == before, f"{line} changed something"
    return reply.error


async def test_refusals_in_the_auction(layer: CommandLayer) -> None:
    await setup_game(layer, 0)  # Player 1 (alice) bids first
    await refused(layer, "bob", "/bid company:FT price:20", "not your turn", "waiting for player 1")
    await refused(layer, "dave", "/pass", "do not hold a seat")
    await refused(layer, "alice", "/pass", "no game in this channel", channel="elsewhere")
    await refused(layer, "alice", "/bid company:XYZ price:20", "no private company 'XYZ'")
    await refused(layer, "alice", "/bid company:FT price:-5", "cannot be negative")
    await refused(layer, "alice", "/bid company:FT price:99999999", "too large")
    await refused(layer, "alice", "/bid company:FT price:abc", "whole number")
    await refused(layer, "alice", "/bid company:GLSC", "give price", "price:75")  # FT alone may leave it out
    await refused(layer, "alice", "/bid company:FT price:100000", "at most")  # more than alice's cash
    await refused(layer, "alice", "/par corporation:BBG price:70", "cannot /par now", "/bid, /pass")
    await refused(layer, "alice", "/lay hex:J15 tile:57 rotation:0", "cannot /lay now")
    await refused(layer, "alice", "/pass state:17", "out of date")
    await refused(layer, "alice", "/pass state:abc", "out of date")
    await refused(layer, "alice", "/frobnicate", "unknown command")
    await refused(layer, "alice", "/game frobnicate", "unknown command")
    await refused(layer, "bob", "/game end", "only the host")
    await refused(layer, "alice", "/game new title:1856", "already has a game")
    await refused(layer, "alice", "/game new title:1899", "unknown title")
    await refused(layer, "dave", "/game join", "already started: a free seat is taken with /game claim seat:NAME")
    await refused(layer, "alice", "/game leave", "/game concede or /game robot lets the computer player play your seat")
    await refused(layer, "bob", '/game claim seat:"Player 1"', "already held")
    await refused(layer, "bob", '/game seat seat:"Player 1" user:bob', "do not hold")
    await refused(layer, "alice", "/game undo", "nothing to undo")
    # a game in another channel: alice holds no seat there and cannot act in it
    reply = await layer.handle("chan-b", Caller("zed", "Zed"), "game new", {"title": "1856"})
    assert reply.ok
    await refused(layer, "alice", "/pass", "not started", channel="chan-b")
    assert (await run(layer, "alice", "/bid company:FT price:20")).ok


async def test_refusals_in_stock_and_operating_rounds(layer: CommandLayer) -> None:
    await setup_game(layer, 6)  # the stock round: Player 1 (alice) to act
    await refused(layer, "alice", "/par corporation:ZZZ price:70", "no corporation 'ZZZ'")
    await refused(layer, "alice", "/par corporation:BBG price:71", "not a par price")
    await refused(layer, "alice", "/buy share:BBG_1", "cannot /buy now")
    await refused(layer, "alice", "/sell shares:BBG_1", "cannot")
    await refused(layer, "alice", "/dividend kind:payout", "cannot /dividend now")
    await refused(layer, "bob", "/par corporation:BBG price:65", "not your turn")
    assert (await run(layer, "alice", "/par corporation:BBG price:65")).ok
    await refused(layer, "bob", "/buy share:NOPE_1", "no share 'NOPE_1'")
    await refused(layer, "bob", "/buy share:BBG_0", "cannot buy BBG's president's certificate")
    await refused(layer, "bob", "/buy share:BBG_1,BBG_2", "one certificate")


async def test_illegal_tiles_and_tokens(layer: CommandLayer) -> None:
    await setup_game(layer, 18)  # BBG (alice) lays track (action 20)
    await refused(layer, "alice", "/lay hex:A1 tile:57 rotation:0", "no hex 'A1'")
    await refused(layer, "alice", "/lay hex:J15 tile:57-0 rotation:7", "at most 5")
    await refused(layer, "alice", "/lay hex:J15 tile:999 rotation:0", "no tile 999")
    await refused(layer, "alice", "/lay hex:A20 tile:57 rotation:0", "cannot lay")
    await refused(layer, "alice", "/lay hex:J15 tile:1 rotation:0", "cannot lay")
    await refused(layer, "bob", "/lay hex:J15 tile:57 rotation:0", "not your turn")
    await refused(layer, "alice", "/routes routes:\"2-0: J15-J17\"", "cannot /routes now")
    await refused(layer, "alice", "/train train:9-9", "cannot /train now")
    reply = await run(layer, "alice", "/lay hex:J15 tile:57 rotation:0")
    assert reply.ok, reply.error
    assert "lays tile #57 with rotation 0 on J15 (Brantford)" in reply.lines[0]


async def test_own_undo_within_the_turn_is_immediate_and_logged(layer: CommandLayer) -> None:
    await setup_game(layer, 18)
    before = await state(layer)
    assert (await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")).ok
    reply = await run(layer, "alice", "/game undo")
    assert reply.ok and any("undoes" in ln and "lays" in ln for ln in reply.lines)
    after = await state(layer)
    assert after[1] == before[1]  # the game is back where it was
    assert len(after[0]["actions"]) == len(before[0]["actions"]) + 2  # the log only grows


async def test_undo_across_players_needs_everyone(layer: CommandLayer) -> None:
    await setup_game(layer, 6)
    row = await layer.store.open_game(CH)
    start = snapshot((await layer.load(row)).game, {})
    assert (await run(layer, "alice", "/par corporation:BBG price:65")).ok  # bob's turn now
    ask = await run(layer, "alice", "/game undo")
    assert ask.ok and "must agree" in ask.lines[0]
    yes = next(b.command for b in ask.buttons if "vote:yes" in b.command)
    await refused(layer, "dave", yes, "do not hold a seat")
    await refused(layer, "alice", yes, "already agreed")
    assert (await run(layer, "bob", yes)).ok
    assert snapshot((await layer.load(row)).game, {}) != start  # not yet: carol has not agreed
    done = await run(layer, "carol", yes)
    assert done.ok and "undoes" in done.lines[0]
    assert snapshot((await layer.load(row)).game, {}) == start
    await refused(layer, "carol", yes, "out of date")  # the vote button is stale now


async def test_an_undo_across_a_round_start_and_a_vote_the_game_moved_past(layer: CommandLayer) -> None:
    await setup_game(layer, 17)  # stock round 1: carol's pass (action 18) starts operating round 1.1
    row = await layer.store.open_game(CH)
    moves = (await run(layer, "alice", "/game status")).lines[0].split("\n")[0]
    assert moves.endswith("· move 17"), moves
    assert (await run(layer, "carol", "/pass")).ok
    ask = await run(layer, "carol", "/game undo")  # no longer carol's turn: the table votes
    assert ask.ok and "(1/3)" in ask.lines[0]
    assert [uid for uid, _ in ask.heads_up] == ["alice", "bob"]  # those whose answer it needs
    assert (await run(layer, "alice", "/game undo vote:yes")).ok  # typed: the vote open now
    done = await run(layer, "bob", "/game undo")  # asking for the same: agreeing
    assert done.lines[0] == "↩ Player 3 undoes, the table agreeing: Player 3 passes", done.lines
    assert "Play is back in Stock Round 1" in done.lines, done.lines
    status = (await run(layer, "alice", "/game status")).lines[0].split("\n")[0]
    assert status.endswith("· move 17"), status  # the undone pass and the undo do not count
    # a vote on a position the game moved past lapses, and the move says so
    assert (await run(layer, "carol", "/pass")).ok
    assert (await run(layer, "carol", "/game undo")).ok
    game = (await layer.load(row)).game
    mover = USERS[game.acting_players()[0]]
    moved = await run(layer, mover, "/pass")
    assert "(the vote to undo the last move lapses: the game moved on; /game undo asks again)" \
        in moved.lines, moved.lines


async def test_a_move_that_ends_the_game_by_a_bankruptcy_is_asked_first(layer: CommandLayer) -> None:
    """hotseat006 after 670 actions: Player 3 must sell, and after the sale cannot raise the money
    for the national's presidency: bankrupt, the game over, and no undo after it (play-test)."""
    export = load_export("1856", "hotseat006")
    export["actions"] = filter_actions(export["actions"])[:670]
    assert (await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})).ok
    for seat, user in USERS.items():
        assert (await run(layer, user, f'/game claim seat:"{seat}"')).ok
    for user, line in [("alice", "/pass"), ("alice", "/train train:6-1 price:700"), ("bob", "/pass"),
                       ("bob", "/pass"), ("bob", "/routes routes:none"), ("bob", "/pass")]:
        assert (await run(layer, user, line)).ok, line
    before = await state(layer)
    ask = await run(layer, "carol", "/sell shares:WGB_0 percent:20")
    assert ask.ephemeral and ask.lines == [
        "This move ends the game (Player 3 cannot raise the money for the CGR presidency and is bankrupt); it"
        " cannot be undone. Make it?"]
    seq = (await layer.load(await layer.store.open_game(CH))).seq
    assert [b.command for b in ask.buttons] == [f"/sell shares:WGB_0 percent:20 confirm:yes state:{seq}"]
    assert await state(layer) == before
    made = await run(layer, "carol", ask.buttons[0].command)
    assert made.ok and any("Result" in line for line in made.lines), made.lines
    assert await layer.store.open_game(CH) is None


async def test_refused_undo_and_stale_vote(layer: CommandLayer) -> None:
    await setup_game(layer, 6)
    assert (await run(layer, "alice", "/par corporation:BBG price:65")).ok
    ask = await run(layer, "alice", "/game undo")
    no = next(b.command for b in ask.buttons if "vote:no" in b.command)
    yes = next(b.command for b in ask.buttons if "vote:yes" in b.command)
    assert (await run(layer, "bob", no)).ok
    await refused(layer, "carol", yes, "refused")
    assert (await run(layer, "bob", "/buy share:BBG")).ok  # the game moves on
    await refused(layer, "carol", yes, "out of date")


async def test_concurrent_commands_are_serialized(layer: CommandLayer) -> None:
    await setup_game(layer, 0)
    row = await layer.store.open_game(CH)
    seq = (await layer.load(row)).seq
    replies = await asyncio.gather(*(run(layer, "alice", f"/pass state:{seq}") for _ in range(3)))
    assert sum(r.ok for r in replies) == 1  # a double click is applied once
    assert await layer.store.action_count(row.id) == seq + 1


async def test_ping_only_the_next_player_once(layer: CommandLayer) -> None:
    await setup_game(layer, 18)  # BBG's (alice's) operating turn
    lay = await run(layer, "alice", "/lay hex:J15 tile:57-0 rotation:0")
    assert lay.ok and lay.ping is None  # alice keeps acting: no ping
    train = await run(layer, "alice", "/train train:2-0 price:100")
    assert train.ok and train.ping is None
    row = await layer.store.open_game(CH)
    pings = []
    for _ in range(6):
        game = (await layer.load(row)).game
        user = USERS[game.acting_players()[0]]
        reply = await run(layer, user, "/pass")
        if not reply.ok:
            break
        if reply.ping:
            pings.append(reply.ping)
            nxt = (await layer.load(row)).game.acting_players()[0]
            assert reply.ping == USERS[nxt]
            assert "your turn" in reply.ping_text
    assert pings and all(a != b for a, b in zip(pings, pings[1:], strict=False))


async def test_lobby_hotseat_and_seat_handover(layer: CommandLayer) -> None:
    assert (await run(layer, "alice", "/game new title:1836Jr56")).ok
    await refused(layer, "alice", "/game join", "already have a seat")
    assert (await run(layer, "alice", '/game join name:"Alice Two"')).ok  # hotseat
    await refused(layer, "bob", '/game join name:"alice two"', "already a seat")
    assert (await run(layer, "bob", "/game join")).ok
    assert (await run(layer, "bob", "/game leave")).ok
    await refused(layer, "bob", "/game start", "only the host")
    start = await run(layer, "alice", "/game start order:joined")
    assert start.ok and start.ping == "alice"
    assert (await run(layer, "alice", "/pass")).ok  # seat 1
    assert (await run(layer, "alice", "/pass")).ok  # seat 2: the same user, hotseat
    assert (await run(layer, "alice", '/game seat seat:"Alice Two" user:bob')).ok
    row = await layer.store.open_game(CH)
    game = (await layer.load(row)).game
    who = "alice" if game.acting_players()[0] == "1" else "bob"
    other = "bob" if who == "alice" else "alice"
    await refused(layer, other, "/pass", "not your turn")
    assert (await run(layer, who, "/pass")).ok


async def test_lobby_within_the_titles_seats_and_called_off(layer: CommandLayer) -> None:
    await refused(layer, "alice", "/game new", "give title", "1856, 1836Jr56, 1833NE")
    await refused(layer, "alice", "/game new title:1836Jr56 robots:4", "from 0 to 3", "at most 4 players")
    assert (await run(layer, "alice", "/game new title:1836Jr56 robots:3")).ok
    await refused(layer, "bob", "/game join", "full", "1836Jr56 takes at most 4 players")
    await refused(layer, "bob", '/game leave seat:"Robot 3"', "Robot 3 is not your seat", "the host can")
    left = await run(layer, "alice", '/game leave seat:"Robot 3"')  # the host clears any seat
    assert left.ok and left.lines == ["Alice takes Robot 3's seat out of the game"] and not left.heads_up
    assert (await run(layer, "bob", "/game join")).ok
    for extra in ("Robot 1", "Robot 2"):
        assert (await run(layer, "alice", f'/game leave seat:"{extra}"')).ok
    out = await run(layer, "alice", '/game leave seat:"Bob"')
    assert out.heads_up == [("bob", "the host took your seat (Bob) out of the 1836Jr56 game; /game join takes another")]
    await refused(layer, "alice", "/game start", "1836Jr56 needs 2 to 4 players, not 1", "/game join")
    off = await run(layer, "alice", "/game end")
    assert off.ok and off.lines == ["Alice calls off the 1836Jr56 game before it started. "
                                    "/game new title:1836Jr56 opens another"]
    status = await run(layer, "bob", "/game status")
    assert status.ok and status.lines == ["The 1836Jr56 game 1 was called off before it started"]
    await refused(layer, "bob", "/game export", "called off before it started", "nothing to export")
    await refused(layer, "bob", "/moves", "game 1) was called off before it started", "/game new title:1836Jr56")
    assert (await run(layer, "bob", "/game new title:1856")).ok


async def test_a_finished_import_is_claimed_for_its_result(layer: CommandLayer) -> None:
    export = load_export("1856", "hotseat001")
    reply = await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})
    assert reply.ok and "the game is over: its result then counts for you in /stats" in reply.lines[0]
    assert await layer.store.open_game(CH) is None
    name = max(export["result"], key=lambda who: export["result"][who])  # hotseat: results by name
    claim = await run(layer, "bob", f'/game claim seat:"{name}"')
    assert claim.ok and claim.lines == [f"Bob takes the seat of {name} in the finished 1856 game 1: its result "
                                        f"(rank 1, value {export['result'][name]}) counts for Bob in /stats"]
    stats = await run(layer, "bob", "/stats")
    assert "1 game played, 1 won" in "\n".join(stats.lines), stats.lines
    await refused(layer, "carol", f'/game claim seat:"{name}"', "already held", "is over")
    other = next(p["name"] for p in export["players"] if p["name"] != name)
    await refused(layer, "bob", f'/game claim seat:"{other}"', f"You hold {name}'s seat in this finished game already")
    history = "\n".join((await run(layer, "bob", "/game history")).lines)
    assert f"won by Bob ({name}) with {export['result'][name]}" in history, history  # claimed: named with Bob
    second = sorted(export["result"], key=lambda who: -export["result"][who])[1]
    assert f"2. {second} {export['result'][second]}" in history, history  # nobody's seat: its name alone
    await refused(layer, "carol", "/pass", "is over")


async def test_status_help_and_export(layer: CommandLayer) -> None:
    await setup_game(layer, 18)
    status = await run(layer, "bob", "/game status")
    assert status.ok and "waiting for BBG (president Player 1)" in status.lines[0]
    assert any("not your turn" in ln.lower() for ln in status.lines)
    help_ = await run(layer, "alice", "/help")
    assert help_.ephemeral and any("You act for BBG:" in ln and "/lay" in ln for ln in help_.lines)
    export = await run(layer, "carol", "/game export")
    data = json.loads(export.files[0].data)
    assert data["title"] == "1856" and len(data["actions"]) == 18 and data["engine_version"]


async def test_game_end_by_host(layer: CommandLayer) -> None:
    await setup_game(layer, 18)
    before = await state(layer)
    ask = await run(layer, "alice", "/game end")  # asks first: the game ends as it stands
    assert ask.ephemeral and "ranked by what they have now" in ask.lines[0]
    assert [b.command for b in ask.buttons] == ["/game end confirm:yes"]
    assert await state(layer) == before
    reply = await run(layer, "alice", "/game end confirm:yes")
    assert reply.ok and any("Result" in ln for ln in reply.lines)
    assert await layer.store.open_game(CH) is None
    await refused(layer, "alice", "/pass", "is over", "/game status")
    export = await run(layer, "alice", "/game export")
    assert json.loads(export.files[0].data)["actions"][-1]["type"] == "end_game"


async def test_bad_imports_change_nothing(layer: CommandLayer) -> None:
    for text, frag in [("not json", "not json"), ("[]", "not an 18xx.games export"),
                       ('{"title": "1856"}', "not an 18xx.games export"),
                       ('{"title": "9999", "players": [], "actions": []}', "unknown title")]:
        before = await layer.store.dump()
        reply = await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": text})
        assert not reply.ok and frag in reply.error.lower()
        assert await layer.store.dump() == before
    export = load_export("1856", "hotseat001")
    export["actions"] = export["actions"][:3] + [{"type": "bid", "entity": "Player 1", "company": "ZZ",
                                                  "price": 1, "id": 999}]
    reply = await layer.handle(CH, Caller("alice", "Alice"), "game import", {"file": json.dumps(export)})
    assert not reply.ok and "does not replay" in reply.error and "999" in reply.error
    assert await layer.store.open_game(CH) is None


async def test_an_engine_bug_is_logged_rolled_back_and_not_told_as_a_rule(
    layer: CommandLayer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An unexpected exception inside the engine is an EngineBug: the game is rolled back, the
    traceback is logged, and the player reads "something went wrong on our side" (never a rule)."""
    from engine.errors import EngineBug
    from engine.game import Game

    await setup_game(layer, 6)  # the stock round: Player 1 (alice) to act
    before = await state(layer)

    def broken(self: Game, *args: Any, **kwargs: Any) -> None:
        raise ZeroDivisionError("a bug in the rules code")

    monkeypatch.setattr(Game, "par_corporation", broken)
    reply = await run(layer, "alice", "/par corporation:BBG price:65")
    assert not reply.ok and "went wrong on our side" in reply.error.lower()
    assert "zerodivision" not in reply.error.lower() and "bug" not in reply.error.lower()
    assert any(r.exc_info and isinstance(r.exc_info[1], EngineBug) for r in caplog.records)
    assert await state(layer) == before
    monkeypatch.undo()
    assert (await run(layer, "alice", "/par corporation:BBG price:65")).ok  # the game goes on


async def test_a_refusal_naming_whom_the_game_waits_for_adds_no_next_line(layer: CommandLayer) -> None:
    """The bot decides on the refusal's code: "not your turn" already names who is waited for."""
    await setup_game(layer, 6)
    error = await refused(layer, "bob", "/par corporation:BBG price:65", "not your turn")
    assert error.lower().count("waiting for") == 1
