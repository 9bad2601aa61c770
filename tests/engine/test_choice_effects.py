"""Choices say what they cost and do, and every command ``/moves`` suggests works as written."""

from __future__ import annotations

import pytest

from bot.acting import candidates, resolve_entity
from bot.handlers.moves import command_moves
from bot.play import build_action
from bot.terminal.textcmd import parse
from engine import actions as A
from engine.game import Game
from engine.moves import choices_for, move_for
from engine.moves.spec import entity_type
from engine.replay import filter_actions, game_from_export
from tests.fixture_util import load_export


def _game_at(folder: str, name: str, upto: int) -> Game:
    export = load_export(folder, name)
    game = game_from_export(export)
    for raw in filter_actions(export["actions"])[:upto]:
        game.process(A.Action.from_dict(raw), safe=False)
    return game


def _suggested(lines: list[str]) -> list[str]:
    return [line.strip().split("  (")[0] for line in lines if line.strip().startswith("/")] + [
        line.removeprefix("Ready: ") for line in lines if line.startswith("Ready: ")]


def _walk(game: Game, entity: str, command: str, given: dict[str, str], depth: int = 0) -> int:
    """Follow /moves down to complete commands; each one must be accepted as written."""
    move = move_for(command, entity_type(game, entity))
    assert move is not None
    checked = 0
    for line in _suggested(command_moves(game, entity, move, given))[:3]:
        typed = parse(line)
        params = dict(typed.params)
        if all(params.get(o.name) for o in move.options if o.required) and (line.startswith(f"/{move.command}")):
            controller = game.controller_of(entity) or entity
            actor = resolve_entity(game, move, {controller}, params.get("entity"), params)
            assert actor == entity, f"{line!r} acts for {actor}, not {entity}"
            action = build_action(move, game, actor, {k: v for k, v in params.items() if k != "entity"})
            assert game.accepts(action), f"suggested {line!r} is refused"
            checked += 1
        elif depth < 3:
            checked += _walk(game, entity, command, params, depth + 1)
    return checked


@pytest.mark.parametrize("upto", [3, 8, 20, 45, 90, 160, 260])
def test_every_suggested_command_is_accepted_as_written(upto: int) -> None:
    game = _game_at("1856", "hotseat006", upto)
    checked = 0
    for entity in candidates(game):
        for action_type in game.action_types(entity):
            if action_type in ("bankrupt", "pass", "run_routes"):
                continue  # no options to suggest (routes: the optimizer's own test)
            if move_for(action_type, entity_type(game, entity)) is None:
                continue
            checked += _walk(game, entity, action_type, {})
    assert checked > 0


def test_a_private_s_ability_is_suggested_so_that_the_private_acts() -> None:
    """A private's ability (1856's, laying or placing for its owning corporation) is suggested
    so that the command acts for the private, naming it (``entity:``) where the corporation
    would act otherwise."""
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    walked = named = 0
    for raw in filter_actions(export["actions"]):
        if raw.get("entity_type") == "company" and raw["type"] in ("lay_tile", "place_token"):
            walked += _walk(game, raw["entity"], raw["type"], {})
            corp = game.companies[raw["entity"]].owner or ""
            if raw["type"] in game.action_types(corp):
                move = move_for(raw["type"], "company")
                assert move is not None
                lines = _suggested(command_moves(game, raw["entity"], move, {}))
                assert all(f"entity:{raw['entity']}" in line for line in lines), lines
                named += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert walked > 0


def test_dividend_choices_tell_the_amount_per_share_and_the_price_move() -> None:
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    for raw in filter_actions(export["actions"]):
        if raw["type"] == "dividend" and "payout" in [c.value for c in choices_for(game, raw["entity"], "dividend")]:
            labels = {c.value: c.label for c in choices_for(game, raw["entity"], "dividend")}
            corp = game.corporations[raw["entity"]]
            revenue = sum(r["revenue"] for r in game.round.state["routes"])
            if revenue:
                assert f"{game.fmt(revenue / corp.total_shares)} a share" in labels["payout"], labels
                assert "price" in labels["payout"] and "->" in labels["payout"], labels
                assert "withhold" in labels["withhold"], labels
                return
        game.process(A.Action.from_dict(raw), safe=False)
    pytest.fail("no dividend with revenue")


def test_a_dividend_that_closes_the_corporation_says_so() -> None:
    """NBDS (1836Jr56) at 30 F runs its best routes, 1490 F: withholding them would move it onto
    the closing space (in the recorded game it ran nothing and closed). The choice said "price
    30 F -> 0 F, treasury 0 F"; it says the corporation closes, as a sale's does."""
    from engine.routing.router import best_routes

    export = load_export("generated/1836jr56", "1836jr56_p3_s205_diesel_variant")
    game = game_from_export(export)
    for raw in filter_actions(export["actions"]):
        if raw["id"] == 854:  # (NBDS's run)
            break
        game.process(A.Action.from_dict(raw), safe=False)
    routes = best_routes(game, "NBDS", time_budget=30.0).routes
    game.process(A.Action.from_dict({"type": "run_routes", "entity": "NBDS", "entity_type": "corporation",
                                     "routes": routes}))
    labels = {c.value: c.label for c in choices_for(game, "NBDS", "dividend")}
    assert labels["withhold"] == "withhold 1490 F, NBDS closes", labels
    assert "closes" not in labels["payout"] and "price 30 F -> 35 F" in labels["payout"], labels
    game.process(A.Action.from_dict({"type": "dividend", "entity": "NBDS", "entity_type": "corporation",
                                     "kind": "withhold"}))
    assert game.corporations["NBDS"].closed


def test_trains_and_stations_say_what_the_treasury_keeps() -> None:
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    seen = set()
    for raw in filter_actions(export["actions"]):
        if raw["type"] in ("buy_train", "place_token") and raw.get("entity_type") == "corporation":
            offered = choices_for(game, raw["entity"], raw["type"])
            if offered:
                assert all("leaves" in c.label or "president pays" in c.label or " from " in c.label
                           for c in offered), [c.label for c in offered]
                seen.add(raw["type"])
        if len(seen) == 2:
            return
        game.process(A.Action.from_dict(raw), safe=False)
    pytest.fail(f"only {seen} seen")


@pytest.mark.parametrize("folder,name", [("1856", "hotseat006"), ("1836jr56", "hotseat003")])
def test_no_two_choices_read_the_same(folder: str, name: str) -> None:
    """Every option's choices have different labels (two cities of one hex, two tiles, two
    trains of a kind from different sellers...), at positions all through a game."""
    export = load_export(folder, name)
    game = game_from_export(export)
    actions = filter_actions(export["actions"])
    for i, raw in enumerate(actions):
        if i % 7 == 0:
            for entity in candidates(game):
                for action_type in game.action_types(entity):
                    move = move_for(action_type, entity_type(game, entity))
                    if move is None or action_type == "run_routes":
                        continue
                    labels = [c.label for c in choices_for(game, entity, action_type)]
                    assert len(labels) == len(set(labels)), (i, entity, action_type, labels)
        game.process(A.Action.from_dict(raw), safe=False)


def test_shares_are_offered_by_corporation_and_source_not_by_certificate_id() -> None:
    """/buy offers "GW" (from the IPO) and "GW market" (from the market), never an id like GW_3;
    each builds the purchase of a share from that source."""
    export = load_export("1856", "hotseat006")
    game = game_from_export(export)
    seen_market = False
    for raw in filter_actions(export["actions"]):
        if raw["type"] == "buy_shares" and raw.get("entity_type") == "player":
            for c in choices_for(game, raw["entity"], "buy_shares"):
                assert "_" not in c.value, c.value
                action = build_action(move_for("buy_shares", "player"), game, raw["entity"], {"share": c.value})  # type: ignore[arg-type]
                share = game.shares[action.shares[0]]  # type: ignore[attr-defined]
                assert share.corporation == c.value.split()[0]
                assert (share.owner == share.corporation) == (not c.value.endswith(" market"))
                seen_market |= c.value.endswith(" market")
        game.process(A.Action.from_dict(raw), safe=False)
    assert seen_market
