"""The move table (engine.moves): one definition per action type, and every definition reads an
action back as the command a player types and builds the same action from that command."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine.titles.g1833ne.game  # noqa: F401  (registers 1833NE's takeover actions)
from bot.play import build_action
from bot.terminal.textcmd import action_to_command, parse
from engine import actions as A
from engine.errors import BAD_OPTION, UNKNOWN, GameError
from engine.game import Game
from engine.moves import MOVES, command_options, forced_discard, move_for, moves_of_type
from engine.replay import filter_actions, game_from_export
from engine.selfplay import play_one
from tests.fixture_util import load_export
from tests.positions import at, raw_action

# action types that are not moves a player makes with a command: the game's own records (typed
# as /game subcommands), chat, and checks the engine computes itself
NOT_MOVES = {"message", "undo", "redo", "end_game", "destination_connection", "set_provisional"}
KINDS = ("player", "corporation", "company")


def test_every_action_type_has_exactly_one_move_per_kind_of_entity() -> None:
    for action_type in sorted(set(A._REGISTRY) - NOT_MOVES):
        moves = moves_of_type(action_type)
        assert moves, f"{action_type} has no move"
        for kind in KINDS:
            fitting = [m.command for m in moves if m.fits(kind)]
            assert len(fitting) <= 1, f"{action_type} for a {kind}: {fitting}"
        assert any(move_for(action_type, k) for k in KINDS)


def test_a_corporation_sells_with_issue_and_a_player_with_sell() -> None:
    assert move_for("sell_shares", "player").command == "sell"  # type: ignore[union-attr]
    assert move_for("sell_shares", "corporation").command == "issue"  # type: ignore[union-attr]
    assert move_for("buy_shares", "corporation").command == "redeem"  # type: ignore[union-attr]


def test_every_option_with_choices_is_listed_in_command_order() -> None:
    for move in MOVES.values():
        names = [o.name for o in move.options]
        assert len(names) == len(set(names)), move.command
        assert all(o.kind in ("text", "number", "flag") for o in move.options), move.command
        # Discord lists required options first: the table keeps them first too
        required = [o.required for o in move.options]
        assert required == sorted(required, reverse=True), move.command


def _same(game: Game, original: dict[str, Any], built: A.Action) -> None:
    """The built action is the original one (routes: the same trains over the same hexes)."""
    ours = built.to_dict()
    for key in ("id", "created_at", "auto_actions", "user"):
        ours.pop(key, None)
    for key, value in ours.items():
        if key == "routes":
            assert [(r["train"], r["connections"]) for r in value] == \
                [(r["train"], r["connections"]) for r in original.get("routes") or []]
        elif key in ("slot", "variant", "exchange", "percent") and original.get(key) is None:
            continue  # an optional field 18xx.games left out (the engine takes the default)
        elif key == "variant" and value == str(original.get("train", "")).rsplit("-", 1)[0]:
            continue
        else:
            expected = str(original[key]) if key == "entity" else original.get(key)  # ids written as numbers
            assert expected == value, f"{key}: {original.get(key)!r} != {value!r} in {original}"


def _round_trip(game: Game, raw: dict[str, Any]) -> None:
    line = action_to_command(raw)
    if line is None or raw["type"] in NOT_MOVES:
        return
    typed = parse(line)
    move = MOVES[typed.name]
    params = {k: v for k, v in typed.params.items() if k != "entity"}
    built = build_action(move, game, raw["entity"] if isinstance(raw["entity"], str) else str(raw["entity"]), params)
    _same(game, raw, built)


@pytest.mark.parametrize("folder,name", [
    ("1856", "hotseat001"), ("1856", "51745"), ("1836jr56", "hotseat003"),
    ("selfplay/1856", "1856_p3_national_formed"), ("selfplay/1856", "1856_p6_national_station_removed"),
])
def test_every_recorded_action_reads_as_a_command_that_builds_it_again(folder: str, name: str) -> None:
    export = load_export(folder, name)
    game = game_from_export(export)
    game.live = False
    for raw in filter_actions(export["actions"]):
        _round_trip(game, raw)
        game.process(A.Action.from_dict(raw), safe=False)


def test_1833ne_actions_read_as_commands_that_build_them_again() -> None:
    """1833NE has no recorded games: a self-played takeover game's actions round-trip."""
    played: list[Game] = []
    play_one("1833NE", 4, 11, ["takeover_game"], 3000, game_out=played)
    log = played[0].action_log
    replayed = game_from_export({"title": "1833NE", "players": [{"id": p.id, "name": p.name} for p in
                                                                 played[0].players],
                                 "settings": {"optional_rules": ["takeover_game"], "seed": played[0].seed},
                                 "actions": log})
    replayed.live = False
    types = set()
    for raw in log:
        _round_trip(replayed, raw)
        types.add(raw["type"])
        replayed.process(A.Action.from_dict(raw), safe=False)
    assert {"par", "lay_tile", "run_routes", "buy_train"} <= types


def test_command_options_name_the_private_that_acts() -> None:
    found = command_options({"type": "lay_tile", "entity": "CS", "entity_type": "company",
                             "hex": "F17", "tile": "57-0", "rotation": 1})
    assert found == ("lay", {"hex": "F17", "tile": "57-0", "rotation": 1, "entity": "CS"})


def test_an_option_that_cannot_be_read_is_a_coded_refusal() -> None:
    export = load_export("1856", "hotseat001")
    game = game_from_export(export)
    with pytest.raises(GameError) as refused:
        build_action(MOVES["lay"], game, "Player 1", {"hex": "Z99", "tile": "57"})
    assert refused.value.code == UNKNOWN and refused.value.facts["id"] == "Z99"
    with pytest.raises(GameError) as refused:
        build_action(MOVES["bid"], game, "Player 1", {"company": "FT", "price": "³"})
    assert refused.value.code == BAD_OPTION and refused.value.facts["option"] == "price"
    with pytest.raises(GameError) as refused:
        build_action(MOVES["bid"], game, "Player 1", {"company": "GLSC"})
    assert refused.value.code == BAD_OPTION and "/bid company:GLSC price:75" in str(refused.value)
    # the cheapest private is bought at once at its price: price: may be left out
    assert build_action(MOVES["bid"], game, "Player 1", {"company": "FT"}) == \
        A.Bid(entity="Player 1", entity_type="player", company="FT", price=20)


def test_self_play_draws_every_action_from_the_table() -> None:
    """The random player's actions are the table's samples: a game of each 1856-family title
    ends cleanly with every kind of move made through the table."""
    for title, players in (("1856", 4), ("1836Jr56", 3)):
        report = play_one(title, players, 5, [], 20000)
        assert report.problem is None, report.problem
        assert report.finished


# ---------------------------------------------------------------------- /train as typed
# a trade-in is bought with exchange: alone (its price is the trade-in's) or with the trade-in's
# price: alone; a corporation short of the full price is told the trade-in command; a train sold
# at face value only (to or by the national) needs no price:

G56_TRADE = "generated/1856"
TRADE_GAME = "1856_p5_s1511"  # GT trades its 4-train in for D-0 at 930 ($750)


def _buy(params: dict[str, str]) -> A.Action:
    game = at(G56_TRADE, TRADE_GAME, 929)
    move = move_for("buy_train", "corporation")
    assert move is not None
    return move.build(game, "GT", params)


def test_a_trade_in_needs_only_the_train_traded_in_or_its_price() -> None:
    recorded = raw_action(G56_TRADE, TRADE_GAME, 930)
    assert isinstance(recorded, A.BuyTrain) and (recorded.exchange, recorded.price) == ("4-3", 750)
    named = _buy({"train": "D-0", "exchange": "4-3"})
    assert isinstance(named, A.BuyTrain) and (named.train, named.price, named.exchange) == ("D-0", 750, "4-3")
    priced = _buy({"train": "D-0", "price": "750"})  # either of its two 4-trains (alike)
    assert isinstance(priced, A.BuyTrain) and (priced.train, priced.price) == ("D-0", 750)
    assert priced.exchange in ("4-2", "4-3")
    rich = at(G56_TRADE, TRADE_GAME, 929)
    rich.corp("GT").cash = 2000  # the full price, with no train traded in, when it is affordable
    move = move_for("buy_train", "corporation")
    assert move is not None
    full = move.build(rich, "GT", {"train": "D-0"})
    assert isinstance(full, A.BuyTrain) and (full.price, full.exchange) == (1100, None)


def test_a_corporation_short_of_the_full_price_is_told_the_trade_in() -> None:
    game = at(G56_TRADE, TRADE_GAME, 929)
    game.corp("GT").cash = 800  # enough for the trade-in only
    move = move_for("buy_train", "corporation")
    assert move is not None
    assert not game.president_may_help_buy(game.corp("GT"), game.trains["D-0"])
    with pytest.raises(GameError, match=r"cannot afford D-0 \(\$1100\); to trade in its 4-train for \$750: "
                                         r"/train train:D-0 exchange:4-2"):
        move.build(game, "GT", {"train": "D-0"})


def test_each_train_is_offered_once_and_its_trade_ins_under_exchange() -> None:
    """A choice's value is what it buys: the D-train is one choice (its trade-in price in its
    label), not one per train the corporation could trade in (a menu's values must differ, and
    tapping "trading in" must not buy at the full price); ``exchange`` then lists the trade-ins,
    after "none" (the full price) when the treasury can pay that."""
    from engine.moves.operating import exchange_choices, train_choices

    game = at(G56_TRADE, TRADE_GAME, 929)
    gt = game.corp("GT")
    offered = train_choices(game, "GT", {})
    assert len({c.value for c in offered}) == len(offered)
    d = [c for c in offered if c.value == "D-0"]
    assert len(d) == 1 and d[0].label.startswith("D-train trading in a 4-train, $750")
    assert [c.value for c in exchange_choices(game, "GT", {"train": "D-0"})] == ["4-2"]
    gt.cash = 2000
    d = [c for c in train_choices(game, "GT", {}) if c.value == "D-0"]
    assert len(d) == 1 and d[0].label == ("D-train from the bank, $1100, leaves $900 (or $750 trading in a 4-train)"
                                          "; starts phase D: 4-trains rust (its own too)")  # what it sets off, last
    assert [(c.value, c.label) for c in exchange_choices(game, "GT", {"train": "D-0"})] == [
        ("none", "no trade-in: D-train for $1100"), ("4-2", "trade in its 4-train 4-2: $750, leaves $1250")]
    move = move_for("buy_train", "corporation")
    assert move is not None
    kept = move.build(game, "GT", {"train": "D-0", "exchange": "none"})
    assert isinstance(kept, A.BuyTrain) and (kept.price, kept.exchange) == (1100, None)
    assert exchange_choices(game, "GT", {"train": "6-0"}) == []  # the national's train: no trade-in


def test_a_train_sold_at_face_value_needs_no_price() -> None:
    """Trains change hands with the national at face value only: /train names the train alone.
    Another corporation's train at a price the sellers agree on still needs price:."""
    game = at(G56_TRADE, TRADE_GAME, 929)
    assert game.face_value_only(game.corp("GT"), game.trains["6-0"])
    move = move_for("buy_train", "corporation")
    assert move is not None
    action = move.build(game, "GT", {"train": "6-0"})
    assert isinstance(action, A.BuyTrain) and action.price == game.trains["6-0"].price == 700
    other = next(t for sym in game.corporations if sym not in ("GT", "CGR")
                 for t in game.corp_trains(sym))
    with pytest.raises(GameError, match="Give price:"):
        move.build(game, "GT", {"train": other.id})


# ---------------------------------------------------------------------- /sell as offered
# A stock-round sale may go into the president's certificate (another player takes the
# presidency over); a sale of part of it is offered with its percent ("NFL_0 10%"), which a
# tap or a typed line sells as such:

def _offered_sale(title: str, name: str, action_id: int) -> tuple[Game, A.Action, list[str]]:
    from engine.moves.stock import sell_choices

    game = at(title, name, action_id - 1)
    recorded = raw_action(title, name, action_id)
    assert isinstance(recorded, A.SellShares)
    return game, recorded, [c.value for c in sell_choices(game, recorded.entity, {})]


@pytest.mark.parametrize(("title", "name", "action_id", "value"), [
    ("1856", "hotseat006", 383, "CPR_4,CPR_3,CPR_2,CPR_1,CPR_0 50%"),  # 50% of 60%: the presidency goes
    ("generated/1836jr56", "1836jr56_p2_s204_diesel_variant", 496, "NFL_0 10%"),  # half the certificate
])
def test_a_sale_into_the_presidents_certificate_is_offered(title: str, name: str, action_id: int,
                                                           value: str) -> None:
    game, recorded, offered = _offered_sale(title, name, action_id)
    assert value in offered
    move = move_for("sell_shares", "player")
    assert move is not None
    built = move.build(game, recorded.entity, {"shares": value})
    assert isinstance(built, A.SellShares) and isinstance(recorded, A.SellShares)
    assert (sorted(built.shares), built.percent) == (sorted(recorded.shares), recorded.percent)
    assert game.accepts(built)
    # the choice says who takes the presidency over, as the sale then decides
    from engine.moves.stock import sell_choices

    label = next(c.label for c in sell_choices(game, recorded.entity, {}) if c.value == value)
    sym = game.shares[recorded.shares[0]].corporation
    game.process(recorded, safe=False)
    president = game.corporations[sym].president
    assert president != recorded.entity and president is not None
    assert label.endswith(f" ({game.name_of(president)} becomes president)")


def test_a_partial_sale_as_typed_says_its_percent_once() -> None:
    from bot.play import MOVES as BOT_MOVES

    game, recorded, _ = _offered_sale("generated/1836jr56", "1836jr56_p2_s204_diesel_variant", 496)
    pid = recorded.entity
    for params in ({"shares": "NFL_0 10%"}, {"shares": "NFL_0", "percent": "10"}, {"shares": "NFL"}):
        action = build_action(BOT_MOVES["sell"], game, pid, params)
        assert isinstance(action, A.SellShares) and (action.shares, action.percent) == (("NFL_0",), 10)
    with pytest.raises(GameError, match="says 10% and percent: 20%"):
        build_action(BOT_MOVES["sell"], game, pid, {"shares": "NFL_0 10%", "percent": "20"})


# Each sale offered says where the share price goes, as the title's market moves it on the sale
# (1856 and 1836Jr56: a row down per 10% sold, a closing space closes the corporation; 1833NE:
# one column left for the president's sale, none for another's): what the market shows after the
# sale is what the choice said.
@pytest.mark.parametrize(("title", "name", "seen"), [
    ("1856", "hotseat006", {"falls", "stays"}),
    ("1836jr56", "hotseat003", {"falls", "closes"}),
    ("selfplay/1833ne", "1833ne_emergency_sale", {"falls", "stays"}),
])
def test_each_sale_offered_says_what_the_share_price_becomes(title: str, name: str, seen: set[str]) -> None:
    import copy
    import re

    from engine.decisions import acting_entities
    from engine.moves.spec import base
    from engine.moves.stock import sale_of, sell_choices
    from engine.rounds.stock import StockRound

    export = load_export(title, name)
    game = game_from_export(export)
    said: dict[str, int] = {}
    in_stock_rounds = 0
    for n, raw in enumerate(filter_actions(export["actions"])):
        sellers = [e for e in acting_entities(game) if e in game.player_by_id]
        for choice in sell_choices(game, sellers[0], {}) if sellers and n % 3 == 0 else []:
            pid = sellers[0]
            ids, percent = sale_of(game, choice.value)
            sym = game.shares[ids[0]].corporation
            before = game.corporations[sym].price
            assert before is not None
            sold = copy.deepcopy(game)
            sold.process(A.SellShares(**base(sold, pid), shares=ids, percent=percent))
            corp = sold.corporations[sym]
            prefix = f"{percent}% of {sym} for {game.fmt(game.shares_worth(sym, percent))} → "
            assert choice.label.startswith(prefix), choice.label
            effect = re.sub(r" \(.* becomes president\)$", "", choice.label.removeprefix(prefix))
            if corp.closed:
                assert effect == f"{sym} closes", choice.label
            else:
                assert corp.price is not None
                now, after = game.fmt(before.price), game.fmt(corp.price.price)
                assert effect == (f"price stays at {now}" if corp.price.price == before.price
                                  else f"price falls from {now} to {after}"), choice.label
            kind = "closes" if corp.closed else effect.split()[1]
            said[kind] = said.get(kind, 0) + 1
            in_stock_rounds += isinstance(game.round, StockRound)
        game.process(A.Action.from_dict(raw), safe=False)
    assert seen <= set(said), said  # (each game shows the ways its title moves the price)
    assert in_stock_rounds > 20, in_stock_rounds


def _walk(connections: list[list[str]]) -> list[str]:
    """A route's connections as one hex sequence, in the order a player reads the route."""
    chains = [list(c) for c in connections]
    if len(chains) > 1 and chains[0][-1] not in (chains[1][0], chains[1][-1]):
        chains[0].reverse()
    walk = list(chains[0])
    for chain in chains[1:]:
        walk += chain[1:] if chain[0] == walk[-1] else chain[::-1][1:]
    return walk


def _typed_runs(write: Callable[[Game, list[dict[str, Any]]], str],
                wanted: Callable[[list[dict[str, Any]]], bool]) -> Iterator[tuple[Game, list[dict[str, Any]], A.RunRoutes]]:
    """Game 51745's runs that ``wanted`` picks, each typed as ``write`` writes its routes and
    built as /routes builds it: (the game before the run, the recorded routes, the action built)."""
    export = load_export("1856", "51745")
    game = game_from_export(export)
    game.live = False
    for raw in filter_actions(export["actions"]):
        routes = raw.get("routes") or []
        if raw["type"] == "run_routes" and routes and wanted(routes):
            built = build_action(MOVES["routes"], game, str(raw["entity"]), {"routes": write(game, routes)})
            assert isinstance(built, A.RunRoutes)
            yield game, routes, built
        game.process(A.Action.from_dict(raw), safe=False)


def test_a_route_typed_as_one_hex_sequence_stops_at_the_stops_on_it() -> None:
    """'3-1: F17-F15-G14-G12' (the hexes a train runs through, in order) is read as the
    connections of 18xx.games, cut at the stops on the way: the same stops and track as the
    route recorded as 'F17-F15 | F15-G14-G12'."""
    tried = 0
    for game, routes, built in _typed_runs(
            lambda g, rs: "; ".join(f"{r['train']}: {'-'.join(_walk(r['connections']))}" for r in rs),
            lambda rs: any(len(r["connections"]) > 1 for r in rs)):
        for mine, theirs in zip(built.route_dicts(), routes, strict=True):
            ours = game.board.route_stops(mine["connections"])
            recorded = game.board.route_stops(theirs["connections"])
            assert set(ours[0]) == set(recorded[0]) and set(ours[1]) == set(recorded[1]), routes
        assert game.accepts(built), routes
        tried += 1
    assert tried > 10


def test_names_are_read_with_or_without_ampersand_and_trains_by_their_kind() -> None:
    """1833NE's rules write B&W for BW; a route may name its train by its kind ("2+1", "D") when
    the corporation owns one (the train ids look like kinds: "2-1" is a 2-train)."""
    from engine.moves.spec import pick

    assert pick("B&W", ["BW", "B&L", "B&P"], "corporation") == "BW"
    assert pick("bl", ["BW", "B&L", "B&P"], "corporation") == "B&L"
    tried = 0
    for game, routes, built in _typed_runs(
            lambda g, rs: "; ".join(f"{g.train(r['train']).name}: "
                                    + " | ".join("-".join(c) for c in r["connections"]) for r in rs),
            lambda rs: True):
        assert sorted(game.train(r["train"]).name for r in built.route_dicts()) == \
            sorted(game.train(r["train"]).name for r in routes)
        assert all(game.train(r["train"]).owner == built.entity for r in built.route_dicts())
        assert game.accepts(built), routes
        tried += 1
        if tried == 20:
            break
    assert tried == 20


def test_a_route_piece_ending_where_there_is_no_stop_says_so() -> None:
    game = game_from_export(load_export("1856", "hotseat001"))
    with pytest.raises(GameError, match=r"No track connects F17-G16 \(a route runs from stop to stop: G16 has no"):
        game.board.route_stops([["F17", "G16"]])


def test_a_route_written_as_its_stops_takes_the_one_way_the_track_runs() -> None:
    """/routes by stops only ("3-1: H4-I3-J2"; the late-game play-test typed "Barrie-Toronto-Oshawa")
    was refused: H4 and I3 are not neighbours. Where the corporation's track runs one way between
    two stops it is taken (H4-I5-I3, as B ran it); where several, the player is asked which.
    1836jr56_game_end_bank: B's run at action 89; over the whole game typed that way, every run is
    read as it was run, or asked about, or differs only where two stops are neighbours."""
    export = load_export("1836jr56", "1836jr56_game_end_bank")
    g = game_from_export(export)
    told = {"same": 0, "asked": 0}
    for raw in filter_actions(export["actions"]):
        if raw["type"] == "run_routes" and raw.get("routes"):
            text = "; ".join(f"{r['train']}: " + "-".join(r["hexes"]) for r in raw["routes"])
            want = [[list(c) for c in r["connections"]] for r in raw["routes"]]
            try:
                got = [[list(c) for c in r["connections"]] for r in MOVES["routes"].build(g, raw["entity"],
                                                                                         {"routes": text}).routes]
            except GameError as exc:
                assert "the track runs several ways" in str(exc) and "write the hexes of the one you mean" in str(exc)
                told["asked"] += 1
            else:
                if got == want:
                    told["same"] += 1
                else:  # a step between neighbours is read as the track between them, not around
                    assert all(len(c) == 2 for r in got for c in r), (raw["id"], got, want)
            if raw["id"] == 89:
                assert got == [[["H4", "I5", "I3"], ["I3", "J2"]], [["H6", "H4"]], [["H6", "G7"]]]
        g.process(A.Action.from_dict(raw), safe=False)
    assert told["same"] >= 50 and told["asked"] >= 20, told


def test_a_discard_is_forced_only_when_every_train_that_may_go_is_alike() -> None:
    # MESS, formed with six trains, must keep three: its three rusting 4-trains go
    game = at("selfplay/1836jr56", "1836jr56_p4_national_discards_next_round", 619)
    forced = forced_discard(game)
    assert forced is not None and forced.entity == "MESS" and game.trains[forced.train].name == "4"
    assert game.accepts(forced)
    # the national may keep its rusting train (three trains or fewer): passing is a choice
    assert forced_discard(at("selfplay/1856", "1856_p4_bankrupt_keeps_unsellable_national", 839)) is None
    # a 3-train or a 4-train: a choice
    assert forced_discard(at("selfplay/1856", "1856_p5_national_help_only_cheapest", 667)) is None


def test_1833ne_cards_alike_only_on_the_same_side() -> None:
    # a card runs as the side its buyer chose: two 4/7 cards, one running as 4 and one as 7, differ
    from engine.titles.g1833ne.game import G1833NE
    from engine.titles.registry import new_game

    game = new_game("1833NE", [("1", "A"), ("2", "B"), ("3", "C")])
    assert isinstance(game, G1833NE)
    first, second = [t for t in game.trains.values() if t.name == "4/7"][:2]
    low, high = game.sides[first.id]
    game.chosen[first.id], game.chosen[second.id] = low, high
    assert game.train_kind(first) != game.train_kind(second)
    game.chosen[second.id] = low
    assert game.train_kind(first) == game.train_kind(second)


def test_a_payout_s_choice_says_what_the_corporation_s_own_shares_bring_it() -> None:
    # GT ($205) holds unsold shares that earn for it: the payout's label left its treasury out
    from engine.moves.operating import dividend_choices

    game = at("1856", "1856_game_end_bank", 465)
    labels = [c.label for c in dividend_choices(game, "GT", {})]
    assert labels[0] == "pay out $100 ($10 a share), price $100 -> $110, treasury $225", labels
    assert labels[1] == "withhold $100, price $100 -> $90, treasury $305", labels
