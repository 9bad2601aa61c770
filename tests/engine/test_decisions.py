"""Choices offered for the current decision agree with what the engine accepts."""

from __future__ import annotations

import copy

import pytest

from engine import actions as A
from engine.decisions import lay_obstacles, legal_tile_lays, tile_lay_hexes, why_not_now
from engine.errors import GameError
from engine.game import Game
from engine.moves import choices_for
from engine.replay import filter_actions, game_from_export
from engine.selfplay import play_one
from engine.titles.g1833ne import selfplay as ne_selfplay
from tests.fixture_util import load_export

GAMES = ["hotseat001", "89363", "hotseat004"]


@pytest.mark.parametrize("name", GAMES)
def test_every_recorded_choice_is_offered(name: str) -> None:
    """Before each recorded tile lay, token, par, share buy and train buy of a real game, the
    recorded choice is among the choices we offer."""
    export = load_export("1856", name)
    game = game_from_export(export)
    checked = 0
    for raw in filter_actions(export["actions"]):
        action = A.Action.from_dict(raw)
        e = action.entity
        if isinstance(action, A.LayTile) and e in game.corporations:
            lays = legal_tile_lays(game, e)
            name_ok = any(t.rsplit("-", 1)[0] == action.tile.rsplit("-", 1)[0] and action.rotation in rots
                          for t, rots in lays.get(action.hex, {}).items())
            assert name_ok, f"{raw['id']}: {action.describe()} not offered: {lays.get(action.hex)}"
            checked += 1
        elif isinstance(action, A.Par):
            assert action.corporation in [c.value for c in choices_for(game, e, "par")]
            checked += 1
        elif isinstance(action, A.BuyShares):
            offered = choices_for(game, e, "buy_shares")
            sym = action.shares[0].rsplit("_", 1)[0]
            assert any(c.value.split()[0] == sym for c in offered), raw["id"]  # "GW" or "GW market"
            checked += 1
        elif isinstance(action, A.BuyTrain):
            offered = [c.value for c in choices_for(game, e, "buy_train")]
            tname = action.train.rsplit("-", 1)[0]
            assert any(v.rsplit("-", 1)[0] == tname for v in offered), (raw["id"], offered)
            checked += 1
        game.process(action, safe=False)
    assert checked > 10


def test_offered_tile_lays_are_accepted() -> None:
    export = load_export("1856", "89363")
    game = game_from_export(export)
    tried = 0
    for raw in filter_actions(export["actions"]):
        action = A.Action.from_dict(raw)
        if isinstance(action, A.LayTile) and tried < 40:
            corp = action.entity
            for hid, tiles in legal_tile_lays(game, corp).items():
                for tile_id, rots in tiles.items():
                    probe = copy.deepcopy(game)
                    probe.process(A.LayTile(entity=corp, entity_type="corporation", hex=hid, tile=tile_id,
                                            rotation=rots[0]))
                    tried += 1
        game.process(action, safe=False)
    assert tried >= 40


def test_no_choices_for_an_entity_that_is_not_acting() -> None:
    export = load_export("1856", "hotseat001")
    game = game_from_export(export)
    assert choices_for(game, "Player 2", "bid") == []
    assert [c.value for c in choices_for(game, "Player 1", "bid")] == ["FT", "WSRC", "TCC", "GLSC", "NFSBC", "SCFTC"]


def test_suggested_routes_are_accepted_and_at_least_as_good_as_recorded() -> None:
    from engine.decisions import suggest_routes

    export = load_export("1856", "89363")
    game = game_from_export(export)
    checked = 0
    for raw in filter_actions(export["actions"]):
        action = A.Action.from_dict(raw)
        if isinstance(action, A.RunRoutes) and action.routes:
            routes = suggest_routes(game, action.entity)
            recorded = sum(r["revenue"] for r in action.route_dicts())
            assert sum(r["revenue"] for r in routes) >= recorded
            probe = copy.deepcopy(game)
            probe.process(A.RunRoutes(entity=action.entity, entity_type="corporation", routes=tuple(routes)))
            checked += 1
        game.process(action, safe=False)
    assert checked >= 5


@pytest.mark.parametrize(("folder", "name"), [("1856", "hotseat006"), ("generated/1836jr56", "1836jr56_p2_s201")])
def test_the_tile_lays_listed_are_exactly_those_a_lay_would_pass(folder: str, name: str) -> None:
    """Before recorded tile lays of a real game, the lays listed at once (the network at a hex
    looked up once for every tile and rotation tried there) are exactly the tiles and rotations
    on the hexes its network touches whose own full check (``check_lay_tile``) passes; the hexes
    alone (``tile_lay_hexes``) are those hexes."""
    export = load_export(folder, name)
    game = game_from_export(export)
    game.live = False
    checked = seen = 0
    for raw in filter_actions(export["actions"]):
        action = A.Action.from_dict(raw)
        seen += isinstance(action, A.LayTile)
        if isinstance(action, A.LayTile) and action.entity in game.corporations and seen % 3 == 0:
            _assert_lays_pass_the_full_check(game, action.entity, raw["id"])
            checked += 1
        game.process(action, safe=False)
    assert checked > 10


def test_the_tile_lays_listed_in_1833ne_are_exactly_those_a_lay_would_pass() -> None:
    """The same in a self-played 1833NE game (its own costs, limits and border checks)."""
    checked: list[int] = []

    def compare(game: Game) -> str | None:
        acting = game.acting()
        if len(acting) == 1 and "lay_tile" in game.action_types(acting[0]) and acting[0] in game.corporations:
            checked.append(len(game.action_log))
            if len(checked) % 4 == 0:
                _assert_lays_pass_the_full_check(game, acting[0], len(game.action_log))
        return ne_selfplay.invariants(game)  # type: ignore[arg-type]

    play_one("1833NE", 4, 5, [], 700, ne_selfplay.router, choose=ne_selfplay.choose, invariants=compare)
    assert len(checked) > 40


def _assert_lays_pass_the_full_check(game: Game, sym: str, where: object) -> None:
    corp = game.corporations[sym]
    edges, _ = game.board.connectivity(corp.sym)
    passing: dict[str, dict[str, list[int]]] = {}
    for hid in edges:
        for ids in game.board.supply.values():
            for r in range(6) if ids else ():
                try:
                    game.check_lay_tile(corp, hid, ids[0], r)
                except GameError:
                    continue
                passing.setdefault(hid, {}).setdefault(ids[0], []).append(r)
    assert legal_tile_lays(game, corp.sym) == passing, where
    assert tile_lay_hexes(game, corp.sym) == sorted(passing), where  # each found at its first lay


def test_why_no_hex_takes_a_tile() -> None:
    """1836Jr56: HSM's track reaches eleven hexes and it may lay on none: upgrades of the next
    colour wait for their phase, ACC's hex is reserved, two hexes cost more than its 10 F.
    Saying so changes nothing; a corporation that may lay is told nothing."""
    from tests.positions import at, bbg_first_or, state

    g = at("1836jr56", "1836jr56_game_end_bank", 170)
    before = state(g)
    assert tile_lay_hexes(g, "HSM") == []
    assert why_not_now(g, "HSM", "lay_tile") == (
        "no tile of this phase fits E5, E7, E9, E11, F10; D6 is blocked by ACC; D10 costs 40 F, F8 costs 40 F "
        "(HSM has 10 F)")
    assert state(g) == before
    many = at("generated/1836jr56", "1836jr56_p2_s201", 394)
    assert why_not_now(many, "HSM", "lay_tile") == (
        "no tile of this phase fits D6, E5, E7, E9, F6, F8 and 3 more; G11: an upgrade must add track HSM can use "
        "or raise a city's value")
    g2 = bbg_first_or()
    assert tile_lay_hexes(g2, "BBG") and lay_obstacles(g2, "BBG") is None


def test_why_no_station_can_be_placed_nor_private_bought() -> None:
    """1856: LPS may place a station in Toronto or Hamilton but holds $5 of the $40 it costs,
    and the cheapest private costs $25: /moves said only "no city (company) to choose now"."""
    from tests.positions import at

    g = at("1856", "hotseat005", 201)
    assert g.acting() == ["LPS"]
    assert why_not_now(g, "LPS", "place_token") == "a station costs $40 in F15, F17 (LPS has $5)"
    assert why_not_now(g, "LPS", "buy_company") == "the cheapest private, TCC, costs $25 or more (LPS has $5)"
    g.corporations["LPS"].cash = 40
    assert why_not_now(g, "LPS", "place_token") is None


def test_why_no_train_can_be_bought() -> None:
    """1836Jr56: MESS (the national) holds 335 F; the bank's next train costs 700 F and the other
    corporations' trains sell to it at face value only: "(no train to choose now)" said nothing more."""
    from tests.positions import at

    g = at("1836jr56", "1836jr56_game_end_bank", 406)
    assert why_not_now(g, "MESS", "buy_train") == (
        "the cheapest train it may buy, a 6-train from the bank, costs 700 F (MESS has 335 F)")
