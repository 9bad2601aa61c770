"""The components of a game reply (bot.texts.game.decision_buttons, bot.discord.menus) over recorded
games: at every sampled position each button and menu fits Discord's limits, says what it does,
submits a command line as typed, stamped with the state, and every complete line it offers is a
move the game accepts (the same legality as autocomplete); a line that lacks a number to type (a
train's price agreed) is asked in a box whose range the game accepts."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.acting import resolve_entity
from bot.discord.cog import buttons_view
from bot.discord.menus import menu_reply
from bot.play import MOVES, build_action
from bot.reply import Button, Reply
from bot.terminal.textcmd import format_command, parse
from bot.texts.game import decision_buttons
from engine.actions import BuyTrain
from engine.game import Game
from engine.moves import choices_for
from engine.replay import filter_actions, replay
from engine.rounds.operating import OperatingRound
from tests.fixture_util import load_export

PICKS_TRIED = 4  # per menu: the engine tries each (and undoes it)
BOXES: list[str] = []  # the boxes met (their titles)


def positions(title: str, name: str, upto: int, every: int) -> list[tuple[int, Game]]:
    export = load_export(title, name) if title != "1833NE" else random_1833ne(int(name), upto)
    actions = filter_actions(export["actions"])[:upto]
    return [(i, replay({**export, "actions": actions[:i]}).game) for i in range(0, len(actions), every)]


def random_1833ne(seed: int, actions: int) -> dict[str, Any]:
    """A random 1833NE game's first ``actions`` moves, exported (no recorded games of it here)."""
    from engine.export import export_game
    from engine.titles.g1833ne.selfplay import play_one

    out: list[Game] = []
    play_one(4, seed, [], max_actions=actions, game_out=out)
    return export_game(out[0])


def accepted(game: Game, line: str) -> bool:
    """The game takes the command as the bot would read it from its player (the entity resolved
    as for a typed command)."""
    cmd = parse(line)
    move = MOVES[cmd.name]
    player = game.controller_of(game.acting()[0])
    entity = resolve_entity(game, move, {player} if player else set(), cmd.params.get("entity"))
    assert entity == game.acting()[0], line
    return game.accepts(build_action(move, game, entity, cmd.params))


def check_menu(game: Game, b: Button, state: int, depth: int = 0) -> None:
    assert 1 <= len(b.picks) <= 25 and len(b.label) <= 150
    assert len({p.command for p in b.picks}) == len(b.picks)
    for p in b.picks:
        assert 1 <= len(p.label) <= 100 and len(p.command) <= 100 and f"state:{state}" in p.command
        assert p.label != p.command  # the label says the effect, not the command
    for p in b.picks[:PICKS_TRIED]:
        cmd = parse(p.command)
        entity = cmd.params.get("entity") or game.acting()[0]
        params = dict(cmd.params)
        following = menu_reply(game, entity, MOVES[cmd.name], params)  # fills in single choices
        if following is None:
            assert accepted(game, format_command(cmd.name, params)), (p.command, params)
        elif following.ask is not None:  # a train's price agreed: a box, whose range is legal
            ask = following.ask
            assert len(ask.title) <= 45 and len(ask.label) <= 45 and ask.command == format_command(cmd.name, params)
            option = MOVES[cmd.name].option(ask.option)
            span = option.span(game, entity, params) if option is not None and option.span is not None else None
            assert span is not None and ask.placeholder == span.text and span.text in ask.label
            BOXES.append(ask.title)
            for number in (span.low, span.high):
                assert accepted(game, format_command(cmd.name, {**params, ask.option: str(number)})), (ask, number)
        else:  # a tile's hex: the tiles and rotations come next
            assert depth == 0 and following.ephemeral and following.buttons
            check_menu(game, following.buttons[0], state, depth + 1)


ALL_KINDS = {"bid", "par", "buy", "lay", "token", "train", "dividend", "loan", "pass"}


@pytest.mark.parametrize("title,name,upto,every,kinds", [
    ("1856", "89363", 140, 3, ALL_KINDS),
    ("1856", "hotseat001", 400, 23, {"train", "loan", "routes", "pass"}),
    ("1833NE", "7", 240, 6, {"par", "buy", "lay", "train", "pass"}),
])
def test_every_offered_tap_fits_discord_and_is_a_legal_move(
        title: str, name: str, upto: int, every: int, kinds: set[str]) -> None:
    seen: set[str] = set()
    BOXES.clear()
    for state, game in positions(title, name, upto, every):
        if game.finished:
            break
        buttons = decision_buttons(game, state)
        view = buttons_view(Reply(buttons=buttons))
        assert view is not None and len({getattr(i, "row", 0) for i in view.children}) <= 5
        assert sum(isinstance(i, discord.ui.DynamicItem) for i in view.children) == len(view.children)
        for b in buttons:
            seen.add(parse(b.command).name)
            assert f"state:{state}" in b.command
            if b.picks:
                check_menu(game, b, state)
            else:
                assert 1 <= len(b.label) <= 80
                if isinstance(game.round, OperatingRound) and b.command.startswith("/pass"):
                    assert b.label.startswith(("No ", "Do not")), b.label  # says what is passed
                if not b.command.startswith(("/pass", "/routes", "/done")):
                    assert accepted(game, b.command), b.command
    assert kinds <= seen, seen
    assert BOXES or title != "1856"  # 1856 from phase 3: trains of other corporations, priced in a box


def test_a_train_from_another_corporation_asks_its_price_in_a_box() -> None:
    """1856_game_end_bank after action 585: TGB ($733) may buy the other corporations' trains at
    the price agreed. The move table says the price must then be typed, $1-$733 (the range the
    train's label, /moves and the refusal say); the menu answers such a choice with a box for it,
    the command to type said beside it. A bank train's price, or a price given, asks nothing."""
    from engine.errors import GameError
    from engine.moves.spec import Span
    from tests.positions import at

    game = at("1856", "1856_game_end_bank", 585)
    move = MOVES["train"]
    price = move.option("price")
    assert price is not None and price.span is not None
    assert [o.name for o in move.options if o.span is not None] == ["price"]  # the one number typed
    assert price.span(game, "TGB", {"train": "4-0"}) == Span(1, 733, "$1-$733", "the 4-train from CA")
    assert price.span(game, "TGB", {"train": "6-0"}) is None and price.span(game, "TGB", {}) is None
    box = menu_reply(game, "TGB", move, {"train": "4-0", "state": "585"})
    assert box is not None and box.ephemeral and not box.buttons and box.ask is not None
    assert (box.ask.title, box.ask.label, box.ask.placeholder, box.ask.command, box.ask.option) == (
        "Price for the 4-train from CA", "Price ($1-$733)", "$1-$733", "/train train:4-0 state:585", "price")
    assert box.lines == ["TGB, buy a train: type /train train:4-0 price:N (N: the price for the 4-train from CA, "
                         "$1-$733)"]
    assert menu_reply(game, "TGB", move, {"train": "6-0", "state": "585"}) is None  # the bank's price
    assert menu_reply(game, "TGB", move, {"train": "4-0", "price": "5", "state": "585"}) is None
    labels = {c.value: c.label for c in choices_for(game, "TGB", "buy_train")}
    assert labels["4-0"] == "4-train from CA, $1-$733"
    with pytest.raises(GameError, match=r"^Give price: to buy 4-0 from CA at the price agreed, \$1-\$733$"):
        build_action(move, game, "TGB", {"train": "4-0"})
    # the train menu of the game message offers them (they were left to be typed)
    train = next(b for b in decision_buttons(game, 585) if b.command.startswith("/train"))
    assert "more: type" not in train.label and len(train.picks) == len(labels)
    # CA's president's seat played by the computer (or free): it sells at face value or more,
    # as its refusal says; the box asks from there
    from bot.robot import ROBOT_USER
    from bot.storage.rows import Seat

    ca = game.corporations["CA"].president
    face = game.trains["4-0"].price
    for holder in (ROBOT_USER, None):
        seats = [Seat(0, "CA's", holder, ca), Seat(1, "TGB's", "1", game.corporations["TGB"].president)]
        box = menu_reply(game, "TGB", move, {"train": "4-0", "state": "585"}, seats)
        assert box is not None and box.ask is not None
        assert box.ask.label == f"Price (${face}-$733)" and box.lines[0].endswith(f"(N: the price for the 4-train "
                                                                              f"from CA, ${face}-$733)")
        # the game message's train menu says the same (it said "$1-$733")
        menu = next(b for b in decision_buttons(game, 585, seats) if b.command.startswith("/train"))
        label = next(p.label for p in menu.picks if "train:4-0 " in p.command)
        assert label == f"4-train from CA, ${face}-$733 (its seat sells at face value or more)", label
    people = [Seat(0, "CA's", "2", ca), Seat(1, "TGB's", "1", game.corporations["TGB"].president)]
    box = menu_reply(game, "TGB", move, {"train": "4-0", "state": "585"}, people)
    assert box is not None and box.ask is not None and box.ask.label == "Price ($1-$733)"  # a person may agree
    menu = next(b for b in decision_buttons(game, 585, people) if b.command.startswith("/train"))
    assert next(p.label for p in menu.picks if "train:4-0 " in p.command) == "4-train from CA, $1-$733"


def test_a_long_list_of_hexes_offers_those_next_to_the_network_first() -> None:
    from engine.map import hexgrid

    export = load_export("1856", "1856_game_end_bank")
    game = replay({**export, "actions": filter_actions(export["actions"])[:658]}).game
    corp = game.acting()[0]
    lay = next(b for b in decision_buttons(game, 658) if b.command.startswith("/lay"))
    assert len(lay.picks) == 25 and "more: type /lay" in lay.label
    board = game.board
    homes = [h for h, x in board.hexes.items() if any(corp in s for s in x.tokens.values())]

    def away(hex_id: str) -> int:
        return min(hexgrid.distance(hex_id, h, board.layout, game.AXES) for h in homes)

    shown = [parse(p.command).params["hex"] for p in lay.picks]
    hidden = {c.value for c in choices_for(game, corp, "lay_tile")} - set(shown)
    assert hidden and max(map(away, shown)) <= min(map(away, hidden))


def test_tapping_a_train_asks_whether_to_trade_one_in() -> None:
    """1856, GT before buying D-0 (it traded a 4-train in): the D-train is one pick; tapped, a
    treasury that can also pay the full price is asked (no trade-in, or the 4-train); one that
    can only pay the trade-in gets it filled in, and the game takes that command."""
    from tests.positions import at

    for cash, asked in ((2000, True), (800, False)):
        game = at("generated/1856", "1856_p5_s1511", 929)
        game.corp("GT").cash = cash
        state = len(game.action_log)
        train = next(b for b in decision_buttons(game, state) if b.command.startswith("/train"))
        picks = [p for p in train.picks if "train:D-0" in p.command]
        assert len(picks) == 1 and "trading in a 4-train" in picks[0].label
        params = dict(parse(picks[0].command).params)
        following = menu_reply(game, "GT", MOVES["train"], params)
        if asked:
            assert following is not None and "choose exchange" in following.lines[0]
            offered = [(p.label, parse(p.command).params.get("exchange")) for p in following.buttons[0].picks]
            assert offered == [("no trade-in: D-train for $1100", "none"),
                               ("trade in its 4-train 4-2: $750, leaves $1250", "4-2")]
            params = dict(parse(following.buttons[0].picks[1].command).params)
        else:
            assert following is None and params["exchange"] == "4-2"
        action = build_action(MOVES["train"], game, "GT", params)
        assert isinstance(action, BuyTrain) and (action.price, action.exchange) == (750, "4-2")
        assert game.accepts(action)


def test_a_long_choice_goes_on_in_the_menu_options_description() -> None:
    """A select option shows 100 characters: a longer choice (a train that starts a phase, rusts
    trains and forms the national) was cut in the middle of a word; it now goes on in the
    option's description from its last clause that fits."""
    from bot.reply import pick

    text = ("D-train trading in a 4/5-train, 750 F, leaves 177 F; starts phase D: 4-trains rust (its own too); "
            "MESS forms")
    got = pick(text, "/train train:D-0 exchange:4-1")
    assert (got.label, got.description) == (
        "D-train trading in a 4/5-train, 750 F, leaves 177 F; starts phase D: 4-trains rust (its own too)",
        "MESS forms")
    assert pick("4-train from the bank, $300", "/train").description == ""
    word = pick("x" * 150, "/c")
    assert len(word.label) == 100 and word.label.endswith("…") and len(word.description) <= 100


def test_a_button_label_is_cut_at_a_clause_never_in_a_number() -> None:
    """A button shows 80 characters: 1836Jr56's withhold button read "..., treasury 2" (for
    255 F) and its payout "... price 125 F -> 150". The dividend says the interest shorter, and a
    label too long is cut after its last whole clause."""
    from bot.reply import fitted
    from tests.positions import at

    game = at("1836jr56", "1836jr56_game_end_bank", 98)
    labels = [b.label for b in decision_buttons(game, 99) if b.command.startswith("/dividend")]
    assert labels == ["Pay out 230 F (23 F a share, after 20 F interest), price 125 F -> 150 F",
                      "Withhold 230 F (after 20 F interest), price 125 F -> 110 F, treasury 230 F"], labels
    text = "Withhold 230 F (after 20 F of unpaid interest), price 125 F -> 110 F, treasury 255 F"
    assert fitted(text, 80) == "Withhold 230 F (after 20 F of unpaid interest), price 125 F -> 110 F…"
    assert fitted("short", 80) == "short" and len(fitted("x" * 90, 80)) == 80
