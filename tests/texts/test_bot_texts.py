"""What a new player reads: every reply ends with who is next and what they do, moves are
credited to the right player, rounds are named as 18xx.games names them, refusals give the
real cause and what would work, unknown options are refused, and every option with a fixed set
of legal values has choices (Discord's autocomplete, local mode's /moves, /help NAME).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.commands.layer import CommandLayer, status_text
from bot.reply import Caller, Pick, Reply
from bot.terminal.textcmd import parse
from engine.decisions import round_title
from engine.replay import filter_actions, snapshot
from render.status_image import header_lines
from tests.fixture_util import load_export

CH = "table"
USERS = ["alice", "bob", "carol", "dave"]


async def run(layer: CommandLayer, user: str, line: str) -> Reply:
    cmd = parse(line)
    return await layer.handle(CH, Caller(user, user), cmd.name, cmd.params)


async def imported(layer: CommandLayer, name: str, upto: int) -> None:
    """An 1856 export with its first ``upto`` actions; alice, bob, carol (, dave) hold the seats."""
    export = load_export("1856", name)
    export["actions"] = filter_actions(export["actions"])[:upto]
    assert (await layer.handle(CH, Caller("alice", "alice"), "game import", {"file": json.dumps(export)})).ok
    for player, user in zip(export["players"], USERS, strict=False):
        assert (await run(layer, user, f'/game claim seat:"{player["name"]}"')).ok


async def game(layer: CommandLayer) -> Any:
    row = await layer.store.open_game(CH)
    assert row is not None
    return (await layer.load(row)).game


async def refused(layer: CommandLayer, user: str, line: str, *fragments: str) -> str:
    row = await layer.store.open_game(CH)
    before = (await layer.store.dump(), snapshot((await layer.load(row)).game, {}) if row else None)
    reply = await run(layer, user, line)
    assert not reply.ok, f"{line} was accepted"
    for frag in fragments:
        assert frag in reply.error, (line, reply.error)
    after = (await layer.store.dump(), snapshot((await layer.load(row)).game, {}) if row else None)
    assert after == before, f"{line} changed something"
    return reply.error


async def choices(layer: CommandLayer, user: str, name: str, param: str, **params: str) -> list[tuple[str, str]]:
    return await layer.autocomplete(CH, Caller(user, user), name, param, params, "")


# 89363: Player 1..4 are alice, bob, carol, dave; carol presides GW, dave WR, bob LPS, alice CA


async def test_every_reply_ends_with_who_is_next_and_what_they_do(layer: CommandLayer) -> None:
    await imported(layer, "89363", 4)  # the auction: alice's turn
    reply = await run(layer, "alice", "/bid company:FT price:20")  # buys FT; the bids on the next resolve
    assert reply.lines[0] == "Player 1 buys FT (Flos Tramway) for $20 (alice)"
    # the same player acts again in a new auction: the reply says so
    assert reply.lines[-1] == "next: Player 1 again, bid on GLSC (at least $85) or pass (/bid, /pass)"
    reply = await run(layer, "alice", "/bid company:GLSC price:85")
    assert reply.lines[-1] == "next: Player 3, bid on GLSC (at least $90) or pass (/bid, /pass)"


async def test_operating_turn_steps_and_the_turn_moving_on(layer: CommandLayer) -> None:
    await imported(layer, "89363", 41)  # CA (alice) has bought its train
    reply = await run(layer, "alice", "/pass")
    assert reply.lines[0] == "CA passes (buy trains) (alice)" and len(reply.lines) == 2
    # (CA took its loan of the round: it may only repay one, and the step says so)
    assert reply.lines[1] == "next: Player 1 for CA, repay a loan (/repay, /pass)"
    reply = await run(layer, "alice", "/pass")  # CA's turn ends; so do the round and the set
    assert reply.lines[0] == "CA passes (repay a loan) (alice)"
    assert "Stock Round 2 begins" in reply.lines
    assert reply.lines[-1] == "next: Player 3, sell shares or pass (/sell, /pass)"
    assert reply.ping == "carol" and reply.ping_text == "your turn (Player 3)"


async def test_the_player_who_acted_is_credited_not_the_next_one(layer: CommandLayer) -> None:
    await imported(layer, "89363", 27)  # GW (carol) passes its last step; WR (dave) floats and operates
    reply = await run(layer, "carol", "/pass")
    assert reply.lines[0] == "GW passes (repay a loan) (carol)"
    assert "WR floats" in reply.lines and "Player 4 operates WR" in reply.lines  # nobody credited there
    assert not any("(carol)" in ln for ln in reply.lines[1:])
    assert reply.lines[-1] == "next: Player 4 for WR, lay track (/loan, /lay, /pass)"


async def test_a_run_reports_its_revenue(layer: CommandLayer) -> None:
    await imported(layer, "89363", 55)
    reply = await run(layer, "carol", '/routes routes:"2-0: F15-F17"')
    assert reply.lines[0] == "GW runs a 2-train for $50: F15-F17 (carol)"
    assert reply.lines[-1].startswith("next: Player 3 for GW, pay or withhold dividends")


async def test_one_round_name_in_text_and_picture(layer: CommandLayer) -> None:
    await imported(layer, "89363", 60)
    g = await game(layer)
    assert round_title(g) == "Operating Round 2.1 (of 1)" and round_title(g, short=True) == "OR 2.1"
    row = await layer.store.open_game(CH)
    assert "Operating Round 2.1 (of 1)" in status_text(row, g, await layer.store.seats(row.id))
    assert "Operating Round 2.1 (of 1)" in header_lines(g)[1] and "turn" not in header_lines(g)[1]
    games = await layer.handle(CH, Caller("alice", "alice", guild=None), "games", {})
    assert "(OR 2.1)" in "\n".join(games.lines)


async def test_a_finished_game_says_it_ended(layer: CommandLayer) -> None:
    await imported(layer, "89363", 10)
    end = await run(layer, "alice", "/game end confirm:yes")
    assert end.lines[-1].startswith("next: nobody, the game is over (the host ended it)")
    error = await refused(layer, "bob", "/pass", "is over", "/game status", "/game export")
    assert "There is no game" not in error
    status = await run(layer, "bob", "/game status")
    assert status.ok and "Game over (the host ended it): " in status.lines[0]
    await refused(layer, "bob", "/game new title:1856 options:fast_mode", "1856 has no option fast_mode; its "
                  "options: alternate_destinations, unlimited_bonus_tokens, eight_train_variant")


async def test_unknown_options_are_refused(layer: CommandLayer) -> None:
    await imported(layer, "89363", 80)  # alice (Player 1) may sell WR_2 in the stock round
    await refused(layer, "alice", "/sell shares:WR_2 percent:10 extra:1", "/sell has no option extra:",
                  "shares:, corporation:, percent:", "/help sell shows an example")
    await refused(layer, "alice", "/game status verbose:yes", "/game status has no option verbose:")
    await refused(layer, "alice", "/help lay colour:red", "/help has no option colour:")
    assert (await run(layer, "alice", "/sell shares:WR_2 percent:10")).ok


async def test_missing_options_say_the_format(layer: CommandLayer) -> None:
    """A missing option's example is the command as typed, completed with what is legal now (it
    was the command's fixed example: "/lay hex:F17 tile:57 rotation:2" for a lay on E16, "/bid
    company:GLSC price:75" while TCC was auctioned); typed as given, it is accepted."""
    await imported(layer, "89363", 53)  # GW (carol) lays track
    await refused(layer, "carol", "/lay hex:E16", "Give tile: (tile), for example /lay hex:E16 tile:7 rotation:4;",
                  "/help lay")
    assert (await run(layer, "carol", "/lay hex:E16 tile:7 rotation:4")).ok


async def test_a_bid_without_price_is_refused_with_the_lowest_bid_as_example(layer: CommandLayer) -> None:
    await imported(layer, "89363", 5)  # GLSC goes up for auction: Player 1 (alice) bids first
    await refused(layer, "alice", "/bid company:GLSC", "Give price: (your bid; none to buy the cheapest private at "
                  "its price), for example /bid company:GLSC price:85;")
    assert (await run(layer, "alice", "/bid company:GLSC price:85")).ok


async def test_lay_refusals_name_the_legal_tiles_and_rotations(layer: CommandLayer) -> None:
    await imported(layer, "89363", 53)  # GW (carol) lays track on E16 or G14
    await refused(layer, "carol", "/lay hex:E16 tile:8 rotation:0", "that rotation does not connect to GW's track",
                  "Tile 8 fits E16 in rotation 3 (track to ", ") or 5 (track to ")
    await refused(layer, "carol", "/lay hex:E16 tile:8", "Tile 8 fits E16 in rotation 3", "add rotation:")
    await refused(layer, "carol", "/lay hex:E16 tile:57 rotation:0",
                  "On E16 GW can lay: 7 (rotations 4, 5), 8 (rotations 3, 5), 9 (rotation 2)")
    await refused(layer, "carol", "/lay hex:K10 tile:8 rotation:0", "GW can lay track on: E16, G14")
    reply = await run(layer, "carol", "/lay hex:E16 tile:8 rotation:3")
    assert reply.ok and reply.lines[0] == "GW lays tile #8 with rotation 3 on E16 (carol)"


async def test_laying_a_tile_takes_one_try_with_moves(layer: CommandLayer) -> None:
    """The issue's example took seven tries; /moves gives the exact commands."""
    await imported(layer, "89363", 53)
    listing = await run(layer, "carol", "/moves lay")
    # a straight tile at rotation 2 and 5 is the same track: listed once
    assert listing.ephemeral and "  E16: 7 (rotations 4, 5), 8 (rotations 3, 5), 9 (rotation 2)" in listing.lines
    listing = await run(layer, "carol", "/moves lay hex:E16")
    commands = [ln.split("  (")[0].strip() for ln in listing.lines if ln.startswith("  /lay")]
    assert commands == [f"/lay hex:E16 tile:{t} rotation:{r}" for t, r in
                        [(7, 4), (7, 5), (8, 3), (8, 5), (9, 2)]]
    assert "(track to " in listing.lines[1] and listing.lines[-1].startswith("next: Player 3 for GW")
    assert (await run(layer, "carol", commands[2])).ok  # the first try


async def test_a_single_legal_rotation_needs_no_rotation_option(layer: CommandLayer) -> None:
    await imported(layer, "89363", 101)  # WR upgrades O16; tile 15 fits in one rotation only
    reply = await run(layer, "dave", "/lay hex:O16 tile:15")
    assert reply.ok and reply.lines[0] == "WR lays tile #15 with rotation 5 on O16 (Niagara Falls) (dave)"


async def test_equivalent_rotations_need_no_rotation_option(layer: CommandLayer) -> None:
    await imported(layer, "89363", 53)  # straight tile 9 fits E16 at rotation 2 and 5: the same track
    reply = await run(layer, "carol", "/lay hex:E16 tile:9")
    assert reply.ok and reply.lines[0] == "GW lays tile #9 with rotation 2 on E16 (carol)"
    assert (await game(layer)).board.hexes["E16"].tile.rotation == 2


async def test_buy_refusals_give_the_cause(layer: CommandLayer) -> None:
    await imported(layer, "89363", 81)  # alice has just sold WR_2 this round
    await refused(layer, "alice", "/buy share:WR", "No share of WR can be bought now: you sold WR this round")
    error = await refused(layer, "alice", "/buy share:BBG_9", "There is no share 'BBG_9'", "share:", "buyable now:")
    assert "GW (IPO $80)" in error and "BBG_0" not in error
    assert (await run(layer, "alice", "/buy share:GW")).ok


async def test_buying_without_the_cash(layer: CommandLayer) -> None:
    await imported(layer, "89363", 44)  # Stock Round 2: carol has $28 left
    g = await game(layer)
    assert g.player(g.acting()[0]).cash < 80
    await refused(layer, "carol", "/buy share:GW", "Player 3 cannot /buy now (a 10% share of GW costs $80 and you have $")


async def test_train_refusal_when_none_is_left(layer: CommandLayer) -> None:
    await imported(layer, "89363", 145)  # every 2-train is sold; GW may buy a 3-train
    error = await refused(layer, "carol", "/train train:2", "No 2-train is left in the bank; you can buy: train:3-4")
    assert "2-0" not in error and "2-5" not in error  # no list of rusted or owned trains
    await refused(layer, "carol", "/train train:Z9", "There is no train 'Z9'; you can buy: train:3-4")


async def test_help_for_one_command(layer: CommandLayer) -> None:
    await imported(layer, "89363", 4)
    reply = await run(layer, "alice", "/help bid")
    assert reply.ephemeral
    assert reply.lines[0] == "**/bid company: price: [entity:]**: bid for (or buy) a private company"
    assert "Example: /bid company:GLSC price:75" in reply.lines
    assert "  /bid company:FT  (FT - Flos Tramway, buy for $20)" in reply.lines  # what alice can choose now
    other = await run(layer, "bob", "/help bid")
    assert any(ln.startswith("Now: It is not your turn") for ln in other.lines)
    assert (await run(layer, "alice", "/help game new")).lines[0].startswith("**/game new title: [options:] [bonuses:] [robots:]**")
    assert (await run(layer, "alice", "/help join")).lines[0].startswith("**/game join")
    await refused(layer, "alice", "/help frobnicate", "There is no command /frobnicate")


async def test_moves_overview_and_token(layer: CommandLayer) -> None:
    await imported(layer, "89363", 87)  # GW (carol) places a token
    reply = await run(layer, "carol", "/moves")
    assert reply.lines[0] == "**GW**: place a token"
    assert not any(ln.startswith("**Player 3**") or "/bankrupt" in ln for ln in reply.lines)  # always open
    assert any(ln.startswith("  /token city: ") for ln in reply.lines)
    token = await run(layer, "carol", "/moves token")
    assert token.lines[0] == "GW can choose city:"
    # a city is typed as the player reads it: its hex (one city there) and named with its place
    assert token.lines[1] == "  /token city:F17  (F17 St. Thomas, $40, leaves $430)"
    assert (await run(layer, "alice", "/moves")).lines[0] == "It is not your turn."
    await refused(layer, "carol", "/moves frobnicate", "/frobnicate is not a game action")


async def test_choices_for_options_without_autocomplete_before(layer: CommandLayer) -> None:
    await imported(layer, "89363", 4)  # the auction: alice to act; the cheapest private is FT ($20)
    assert await choices(layer, "alice", "bid", "price", company="FT") == [("20", "$20 for FT (its price: bought at once)")]
    assert await choices(layer, "alice", "bid", "price", company="GLSC") == [
        ("85", "$85 for GLSC (the minimum)"), ("90", "$90 for GLSC (minimum + $5)"), ("95", "$95 for GLSC (minimum + $10)"),
        ("105", "$105 for GLSC (minimum + $20)"), ("135", "$135 for GLSC (minimum + $50)")]
    assert await choices(layer, "alice", "pass", "entity") == [
        ("11390", "Player 1: buy FT for $20, bid on another private, or pass")]
    assert await choices(layer, "bob", "pass", "entity") == []  # not bob's turn
    assert ("alternate_destinations", "alternate_destinations: Alternate Destinations") in \
        await choices(layer, "alice", "game new", "options", title="1856")
    assert [v for v, _ in await layer.autocomplete(CH, Caller("alice", "alice"), "game new", "options",
                                                   {"title": "1856"}, "alternate_destinations eig")] == \
        ["alternate_destinations eight_train_variant"]
    assert [v for v, _ in await choices(layer, "bob", "game concede", "seat")] == ["Player 2"]
    assert len(await choices(layer, "bob", "game sub", "seat")) == 4
    assert [v for v, _ in await choices(layer, "bob", "help", "command")][:3] == ["help", "moves", "game new"]


async def test_choices_in_stock_and_operating_rounds(layer: CommandLayer) -> None:
    await imported(layer, "89363", 46)  # Stock Round 2: alice
    corps = [v for v, _ in await choices(layer, "alice", "autobuy", "corporation")]
    assert sorted(corps) == ["CA", "GW", "LPS", "WR"]
    assert ("float", "until it floats") in await choices(layer, "alice", "autobuy", "until")


async def test_route_and_slot_choices(layer: CommandLayer) -> None:
    await imported(layer, "89363", 55)  # GW runs
    routes = await choices(layer, "carol", "routes", "routes")
    assert routes[0][0] == "auto" and "$50" in routes[0][1]
    assert ("2-0: F15-F17", "2-train: F15-F17 = $50") in routes and routes[-1][0] == "none"


async def test_token_slot_choices(layer: CommandLayer) -> None:
    await imported(layer, "89363", 87)  # GW places a token on 5-0-0
    assert await choices(layer, "carol", "token", "slot", city="5-0-0") == [("0", "slot 0 (free)")]


@pytest.mark.parametrize(("upto", "name", "param", "expected"), [
    (198, "assign", "target", "J17"),  # GLSC's port marker
    (659, "merge", "corporation", "CA"),  # CA decides: merge into the national
])
async def test_assign_and_merge_choices(layer: CommandLayer, upto: int, name: str, param: str, expected: str) -> None:
    await imported(layer, "hotseat006", upto)
    g = await game(layer)
    user = USERS[[p.id for p in g.players].index(g.controller_of(g.acting()[0]))]
    assert expected in [v for v, _ in await choices(layer, user, name, param)]


async def test_issue_and_redeem_choices(layer: CommandLayer) -> None:
    """1833NE: a corporation issues treasury shares or redeems market shares (seed 7's game)."""
    from engine.export import export_game
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Any] = []
    assert play_one(3, 7, [], 6000, game_out=out).problem is None
    export = export_game(out[0])
    actions = filter_actions(export["actions"])
    # a corporation's sell_shares is an issue, its buy_shares a redemption
    first = {kind: next(i for i, a in enumerate(actions)
                        if a["type"] == kind and a.get("entity_type") == "corporation")
             for kind in ("sell_shares", "buy_shares")}
    for upto, name, param in [(first["sell_shares"], "issue", "shares"), (first["buy_shares"], "redeem", "share")]:
        recorded = actions[upto]
        export["actions"] = actions[:upto]
        channel = f"ne-{upto}"
        reply = await layer.handle(channel, Caller("alice", "alice"), "game import", {"file": json.dumps(export)})
        assert reply.ok, reply.error
        for player, user in zip(export["players"], USERS, strict=False):
            assert (await layer.handle(channel, Caller(user, user), "game claim", {"seat": player["name"]})).ok
        row = await layer.store.open_game(channel)
        g = (await layer.load(row)).game
        user = USERS[[p.id for p in g.players].index(g.controller_of(recorded["entity"]))]
        offered = await layer.autocomplete(channel, Caller(user, user), name, param, {}, "")
        assert ",".join(recorded["shares"]) in [v for v, _ in offered], offered  # what was played is offered
        word = "issued" if name == "issue" else "redeem"  # the engine's own words for each bundle
        assert all(word in label for _, label in offered)


async def test_a_sale_in_the_first_stock_round_says_why(layer: CommandLayer) -> None:
    """A command the rules forbid now says why, not only "cannot ... now"."""
    await imported(layer, "89363", 16)  # Stock Round 1: bob holds shares
    g = await game(layer)
    held = sorted({s.corporation for s in g.shares_of(g.acting()[0])})
    await refused(layer, "bob", f"/sell shares:{held[0]}",
                  "Player 2 cannot /sell now (no shares may be sold in the first stock round)")


async def test_a_pass_without_a_train_says_why(layer: CommandLayer) -> None:
    await imported(layer, "89363", 24)  # GW has no train, must buy one
    await refused(layer, "carol", "/pass", "GW cannot /pass now (GW has no train and must buy one)")


async def test_a_second_loan_says_why(layer: CommandLayer) -> None:
    await imported(layer, "89363", 26)  # GW has just taken a loan
    await refused(layer, "carol", "/loan", "GW cannot /loan now (GW has taken its loan this operating round: one per round)")


async def test_a_track_step_kept_open_for_a_private_says_so(layer: CommandLayer) -> None:
    """After its own lay a corporation's track step stays open while a private's tile lay could
    still be bought or used (18xx.games): the turn line says that, not a bare "lay track"."""
    await imported(layer, "89363", 102)  # WR has laid its tile; the step waits (pass only)
    reply = await run(layer, "alice", "/moves")
    assert any("lay track (first buy a private company that lays track) or pass" in line
               for line in reply.lines), reply.lines


async def test_the_status_text_names_each_corporation_s_cash_trains_and_loans(layer: CommandLayer) -> None:
    await imported(layer, "89363", 140)
    g = await game(layer)
    row = await layer.store.open_game(CH)
    lines = status_text(row, g, await layer.store.seats(row.id)).splitlines()
    corps = next(line for line in lines if line.startswith("BBG "))
    for sym in ("BBG", "CA", "GW", "LPS", "WR"):
        corp = g.corporations[sym]
        names = [g.train(t).name for t in corp.trains]
        trains = f"train{'s' if len(names) > 1 else ''} {', '.join(names)}" if names else "no train"
        assert f"{sym} {g.fmt(corp.cash)} ({trains}" in corps
    assert "CA $1 (trains 2, 3; 3 loans)" in corps


async def test_a_loan_after_interest_says_what_was_kept_back(layer: CommandLayer) -> None:
    await imported(layer, "89363", 25)  # GW has paid this round's interest; it takes a loan next
    reply = await run(layer, "carol", "/loan")
    assert reply.ok and reply.lines[0].startswith(
        "GW takes a loan and receives $90 ($100 less this round's $10 interest on it)"), reply.lines


async def test_selling_a_share_of_another_names_ones_own(layer: CommandLayer) -> None:
    await imported(layer, "89363", 44)  # Stock Round 2: carol holds GW_1 (and GW's president's share)
    await refused(layer, "carol", "/sell shares:GW_2", "Player 3 does not own GW_2; Player 3's shares of GW: GW_0, GW_1",
                  "(or /sell corporation:GW percent:10)")


async def test_a_stock_command_after_the_stock_round_says_which_round_it_is(layer: CommandLayer) -> None:
    await imported(layer, "89363", 24)  # Operating Round: carol is GW's president, GW must buy a train
    await refused(layer, "carol", "/buy share:GW", "It is Operating Round 1.1 (of 1) now: GW cannot /buy now")


async def test_a_run_below_the_suggestion_says_what_was_left(layer: CommandLayer) -> None:
    """A run typed by hand that earns less than the suggested routes says so while /game undo can
    take it back; the suggestion's own run says nothing more."""
    await imported(layer, "89363", 55)  # GW (carol) is to run its 2-train; the best run earns $50
    await choices(layer, "carol", "routes", "routes")  # the suggestion is found (autocomplete asks)
    reply = await run(layer, "carol", "/routes routes:none")
    assert reply.ok and reply.lines[1] == \
        "(the suggested routes earn $50, $50 more than this run: /game undo takes it back)", reply.lines
    assert (await run(layer, "carol", "/game undo")).ok
    reply = await run(layer, "carol", "/routes routes:auto")
    assert reply.ok and not any("suggested routes earn" in line for line in reply.lines), reply.lines


async def test_a_private_bought_above_its_price_says_so(layer: CommandLayer) -> None:
    await imported(layer, "89363", 4)  # the auction: alice to act; the cheapest private is FT ($20)
    reply = await run(layer, "alice", "/bid company:FT price:25")
    assert reply.ok and reply.lines[0].startswith("Player 1 buys FT (Flos Tramway) for $25 ($5 more than its price)")


async def test_a_train_over_the_limit_says_why(layer: CommandLayer) -> None:
    # 51745 is a 1856 game whose players are not named alice..dave: look up GT's president's user
    export = load_export("1856", "51745")
    export["actions"] = filter_actions(export["actions"])[:361]
    assert (await layer.handle(CH, Caller("alice", "alice"), "game import", {"file": json.dumps(export)})).ok
    g = await game(layer)
    president = g.controller_of("GT")
    seat = next(p["name"] for p in export["players"] if str(p["id"]) == president)
    assert (await run(layer, "alice", f'/game claim seat:"{seat}"')).ok
    await refused(layer, "alice", "/train train:5", "GT cannot /train now (GT owns as many trains as it may (2))")


def test_the_status_header_names_a_corporation_s_own_train_limit() -> None:
    # the CGR holds three trains where the phase allows two: the header said only "train limit 2"
    from tests.positions import at

    game = at("1856", "1856_game_end_bank", 917)
    assert "  ·  train limit 2 (CGR 3)  ·  " in header_lines(game)[0]
    early = at("1856", "1856_game_end_bank", 100)
    assert "(" not in header_lines(early)[0].split("train limit")[1].split("·")[0]


def test_the_status_says_whose_shares_do_not_count_toward_the_certificate_limit() -> None:
    # Player 4 holds 60% of TGB and "0/16" certificates: TGB is priced in a zone without the limit
    from render.status_image import player_notes
    from tests.positions import at

    game = at("1856", "1856_game_end_bank", 576)
    assert game.num_certs(game.players[3].id) == 0 and game.percent_of(game.players[3].id, "TGB") == 60
    assert player_notes(game)[0] == ("Certs: the shares of TGB do not count (priced in a zone of the market "
                                     "without a certificate limit)")
    assert not any(n.startswith("Certs:") for n in player_notes(at("1856", "1856_game_end_bank", 917)))


def test_a_decision_with_one_choice_is_a_button_not_a_menu_of_one() -> None:
    """1856: the CGR forms and TGB's president may only merge TGB (a menu of one item before)."""
    from bot.texts.game import decision_buttons
    from tests.positions import at

    game = at("1856", "1856_game_end_bank", 586)
    buttons = decision_buttons(game, 7)
    merge = next(b for b in buttons if b.command.startswith("/merge "))
    assert (merge.label, merge.command, merge.picks) == ("TGB merges into CGR", "/merge corporation:TGB state:7", ())


async def test_lay_texts_say_which_hexes_each_track_joins_and_where_it_ends(layer: CommandLayer) -> None:
    """A play-test: tiles 2 and 56 on E18 both read "track to D17, D19, E16, F17" (which hexes
    each of their two tracks joins was not said), and CA laid a 9 on E16 "track to D17, F15"
    into London's side without track: it could not run, and nothing had said so."""
    from engine.moves.track import track_text
    from tests.positions import at

    await imported(layer, "89363", 53)  # GW (carol) lays track
    lines = await run(layer, "carol", "/moves lay hex:E16")
    assert "  /lay hex:E16 tile:7 rotation:4  (track to F15, F17 (London has no track on that side yet))" in lines.lines
    assert "  /lay hex:E16 tile:7 rotation:5  (track to E18, F17)" in lines.lines  # (no dead end: nothing said)
    g = at("1856", "89363", 53)
    assert track_text(g, "E18", "2-0", 1) == ("track D17-E16 and D19-F17 (Glencoe and St. Thomas have no track "
                                               "on that side yet)")
    assert track_text(g, "E18", "56-0", 1).startswith("track D17-F17 and D19-E16 (")


async def test_private_choices_name_the_owner_and_what_the_treasury_pays(layer: CommandLayer) -> None:
    """/moves private listed "/private company:SCFTC (..., $50-$200)" with $65 in LPS's treasury,
    without the owner, and the command was refused as written (no price); a price too high was
    refused with "LPS cannot pay $190" without what it has."""
    await imported(layer, "89363", 100)  # phase 3: LPS (Player 2, bob) may buy privates
    lines = (await run(layer, "bob", "/moves private")).lines
    assert lines[0] == "LPS can choose company (then /moves private company:COMPANY for its price):"
    assert ("  /private company:SCFTC  (SCFTC - St. Clair Frontier Tunnel Company, Player 1's, $50-$65 (all LPS has))"
            in lines)
    assert "  /private company:FT  (FT - Flos Tramway, Player 1's, $10-$40)" in lines
    await refused(layer, "bob", "/private company:SCFTC price:190", "LPS cannot pay $190: it has $65")
    await refused(layer, "bob", "/private company:WSRC", "for example /private company:WSRC price:20;")
    # the treasury holding just the lowest price: one price, not "$10-$10 (all LPS has)"
    from engine.moves.operating import private_choices
    from tests.positions import at

    g = at("1856", "hotseat005", 94)
    assert [c.label for c in private_choices(g, "LPS", {})] == ["FT - Flos Tramway, Player 1's, $10 (all LPS has)"]


async def test_an_auction_is_announced_and_the_port_says_what_it_does(layer: CommandLayer) -> None:
    """A play-test: when the cheapest private was bought and TCC had two bids, nothing said that
    TCC went up for auction (18xx.games: "The Canada Company goes up for auction"); GLSC's port
    read "BBG places the port marker on J17" (not that GLSC closes, nor what the marker does), and
    its choices did not say which hexes the corporation reaches."""
    await imported(layer, "89363", 4)  # Player 1 (alice) buys FT: WSRC and TCC are sold, GLSC auctioned
    said = (await run(layer, "alice", "/bid company:FT")).lines
    assert said[-2:] == ["GLSC (Great Lakes Shipping Company) goes up for auction between Player 1 ($75) and "
                         "Player 3 ($80)", "next: Player 1 again, bid on GLSC (at least $85) or pass (/bid, /pass)"], said
    await layer.handle(CH, Caller("alice", "alice"), "game end", {"confirm": "yes"})
    CH2 = "port"
    export = load_export("1856", "hotseat006")
    export["actions"] = filter_actions(export["actions"])[:198]
    assert (await layer.handle(CH2, Caller("alice", "alice"), "game import", {"file": json.dumps(export)})).ok
    row = await layer.store.open_game(CH2)
    assert row is not None
    g = (await layer.load(row)).game
    user = USERS[[p.id for p in g.players].index(g.controller_of("BBG"))]
    for player, seat_user in zip(export["players"], USERS, strict=False):
        await layer.handle(CH2, Caller(seat_user, seat_user), "game claim", {"seat": player["name"]})
    targets = await layer.autocomplete(CH2, Caller(user, user), "assign", "target", {}, "")
    assert targets[0] == ("J17", "J17 (BBG reaches it)")
    port = await layer.handle(CH2, Caller(user, user), "assign", {"target": "J17"})
    assert port.lines[0] == "BBG places GLSC's port marker on J17: its stops there count $20 more for BBG; GLSC closes (bob)"


def test_a_one_choice_button_keeps_the_price_in_its_label() -> None:
    """The last private for sale: the button read "Bid for (or buy) a private company: SCFTC - St.
    Clair Frontier Tunnel Company, b" (cut at Discord's 80 characters, the price lost)."""
    from bot.texts.game import decision_buttons
    from tests.positions import at

    buttons = decision_buttons(at("1856", "89363", 11), 11)
    bid = next(b for b in buttons if b.command.startswith("/bid "))
    assert (bid.label, bid.command) == ("SCFTC - St. Clair Frontier Tunnel Company, buy for $100",
                                        "/bid company:SCFTC state:11")


def test_the_privates_abilities_are_offered_by_taps_and_named_in_the_next_line() -> None:
    """A play-test: LPS bought WSRC, whose tile and station only /moves named; no button or menu
    offered them and the next: line did not say them. BBG owns WSRC and GLSC here."""
    from bot.texts.game import decision_buttons
    from bot.texts.turns import next_line
    from tests.positions import at

    game = at("1856", "hotseat006", 198)
    assert next_line(game) == ("next: Player 2 for BBG, lay track (/private, /right, /lay, /pass; "
                               "WSRC: /lay entity:WSRC; GLSC: /assign entity:GLSC)")
    buttons = {b.label: b for b in decision_buttons(game, 7)}
    wsrc = buttons["WSRC: Lay or upgrade a tile: I12 Kitchener, 59 - green 2 cities, 40"]  # its one lay: a button
    assert (wsrc.command, wsrc.picks) == ("/lay hex:I12 tile:59-0 entity:WSRC state:7", ())
    port = buttons["GLSC: Place a private's marker (port): choose target"]
    assert port.picks[0].label == "J17 (BBG reaches it)"


def test_the_loan_step_says_take_a_loan_when_there_is_none_to_repay() -> None:
    """After its trains a corporation without a loan was asked to "take or repay loans" (18xx.games:
    "Take Loans"); it has nothing to repay."""
    from bot.texts.turns import next_line
    from tests.positions import at

    game = at("1856", "hotseat001", 21)
    assert game.corporations["BBG"].loans == 0
    assert next_line(game) == "next: Player 1 for BBG, take a loan (/loan, /pass)"


def test_a_right_says_what_it_brings() -> None:
    """The tunnel right read "Tunnel Token for $50, leaves $75": nothing said what it is for."""
    from bot.texts.game import decision_buttons
    from tests.positions import at

    right = next(b for b in decision_buttons(at("1856", "hotseat006", 198), 7) if b.command.startswith("/right "))
    assert right.label == "Tunnel Token for $50, leaves $75: +$10 for each run to B13 (Sarnia)"


def test_a_bid_on_the_one_private_auctioned_is_one_menu_of_prices() -> None:
    """GLSC auctioned: the only private to bid on was a menu of one item ("choose company"), then
    a menu of prices; now the prices at once, each a complete bid."""
    from bot.texts.game import decision_buttons
    from tests.positions import at

    bid = next(b for b in decision_buttons(at("1856", "89363", 5), 5) if b.command.startswith("/bid "))
    assert bid.label == "Bid for (or buy) a private company: GLSC - Great Lakes Shipping Company, min $85: choose price"
    assert bid.picks[0] == Pick("$85 for GLSC (the minimum)", "/bid company:GLSC price:85 state:5")
    assert len(bid.picks) == 5


async def test_moves_bid_says_how_to_see_the_prices(layer: CommandLayer) -> None:
    """/moves bid listed "/bid company:WSRC (min $45)", refused as written (a bid needs its price)."""
    await imported(layer, "89363", 0)
    lines = (await run(layer, "alice", "/moves bid")).lines
    assert lines[0] == "Player 1 can choose company (then /moves bid company:COMPANY for its price):"
    assert "  /bid company:WSRC  (WSRC - Waterloo & Saugeen Railway Co., min $45)" in lines


def test_par_choices_say_each_corporation_s_home_and_destination() -> None:
    """Choosing which corporation to start, /moves par said only "GW - Great Western Railway": where
    it starts and where its destination (its escrow's release) is were on no list."""
    from engine.moves.stock import par_choices
    from engine.replay import replay
    from tests.positions import at

    game = at("1856", "89363", 12)  # (alternate destinations)
    labels = [c.label for c in par_choices(game, game.acting()[0], {})]
    assert "GW - Great Western Railway: home London F15, destination Brantford J15" in labels
    assert "TGB - Toronto, Grey & Bruce Railway: home Orangeville K8, destination Canadian West O2 or N1" in labels
    jr = replay(load_export("1836jr56", "hotseat003"), upto=4).game
    labels = [c.label for c in par_choices(jr, jr.acting()[0], {})]  # too long with the name: without it
    assert "NBDS: home Arnhem & Nijmegen E11, destination Rotterdam & Den Haag E5" in labels
    assert all(len(label) <= 100 for label in labels)


def test_a_bidder_whose_cash_is_all_bid_is_asked_to_pass_and_told_why() -> None:
    """1856's auction: Player 1's $500 is held for three standing bids; the turn line asked them
    to "buy FT for $10, bid on another private, or pass" and /bid offered nothing without a word."""
    from bot.texts.turns import activity
    from engine.decisions import why_not_now
    from tests.positions import at

    game = at("generated/1856", "1856_p3_s2407_eight_train_variant", 30)
    held = "Player 1's $500 is held for their bids: TCC $75, GLSC $295, SCFTC $130"
    assert activity(game, "1") == f"pass ({held})"
    assert why_not_now(game, "1", "bid") == held
    earlier = at("generated/1856", "1856_p3_s2407_eight_train_variant", 5)
    assert why_not_now(earlier, "1", "bid") is None  # $155 beside their bids then


def test_a_private_ability_with_nothing_to_lay_is_not_offered_and_says_why() -> None:
    """1856 (game 51745): WR owns WSRC, whose ability lays tile 59 on I12, and no 59 is left.
    The turn line offered "WSRC: /lay entity:WSRC", which could only be refused."""
    from bot.texts.turns import acting_parts
    from engine.decisions import why_not_now
    from tests.positions import at

    game = at("1856", "51745", 225)
    assert game.acting() == ["WR"] and "WSRC" in game.corporations["WR"].companies
    assert not any("WSRC" in part for part in acting_parts(game)), acting_parts(game)
    assert why_not_now(game, "WSRC", "lay_tile") == "no 59 tile left"
