"""The legal choices computed once per position (engine.choice.per_position): shared by the
buttons, autocomplete, the skipped steps and error messages of a live game, and never offered
at another position: a move, a refused action, a trial and an undo each give the choices of
the position the game is at, identical to choices computed afresh (the bot's commands offered
for the turn line, the status and the buttons too). The same for what the board
keeps until the map changes (1856's destination connections)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.play import allowed_commands, offered_commands, train_shortfall
from bot.texts.game import decision_buttons
from bot.texts.turns import activity
from engine import actions as A
from engine.choice import Choice
from engine.decisions import acting_entities, buyable_shares, deciders, tile_lay_hexes
from engine.errors import GameError
from engine.game import Game
from engine.moves import MOVES, move_for, only_pass, option_choices
from engine.moves.spec import entity_type
from engine.replay import filter_actions, replay
from tests.command_script import script, send, set_up, user_of
from tests.fixture_util import load_export

START, WINDOW = 450, 60  # hotseat006's late game: track, tokens, routes, dividends, trains, loans


def _actions() -> list[dict[str, Any]]:
    return [a for a in filter_actions(load_export("1856", "hotseat006")["actions"]) if a.get("type") != "end_game"]


def _live(upto: int) -> Game:
    game = replay({**load_export("1856", "hotseat006"), "actions": _actions()[:upto]}).game
    game.live, game.process_only = True, True
    return game


def _first_lay() -> int:
    return next(i for i, a in enumerate(_actions()) if i >= START and a["type"] == "lay_tile")


def _offered(game: Game) -> dict[tuple[str, str], list[Choice]]:
    """Every first option's choices of every move of the acting entity, whether it only passes, who
    acts, where the acting corporation may lay track, which shares a player may buy and what the
    turn line says it is asked to do."""
    out: dict[tuple[str, str], list[Choice]] = {}
    for e in game.acting():
        kind = entity_type(game, e)
        for t in game.action_types(e):
            move = next((m for m in MOVES.values() if m.action_type == t and m.fits(kind)), None)
            first = next((o for o in move.options if o.choices is not None), None) if move else None
            if move is not None and first is not None:
                out[(e, move.command)] = option_choices(game, e, move, first.name, {})
    out[("only_pass", "")] = [Choice(str(only_pass(game)), "")]
    out[("acting", "")] = [Choice(e, "") for e in acting_entities(game)]
    out[("buyable", "")] = [Choice(s.id, s.owner) for e in game.acting() for s in buyable_shares(game, e)]
    out[("lay hexes", "")] = [Choice(h, "") for e in game.acting() if e in game.corporations
                              for h in tile_lay_hexes(game, e)]
    out[("activity", "")] = [Choice(activity(game, e), "") for e in game.acting()]
    # the bot's commands for the turn line, the status and the buttons (bot.play)
    out[("commands", "")] = [Choice(c, e) for e in game.acting()
                             for c in (*allowed_commands(game, e), "|", *offered_commands(game, e))]
    out[("shortfall", "")] = [Choice(str(train_shortfall(game, e)), e) for e in game.acting()]
    return out


def _fresh(game: Game) -> dict[tuple[str, str], list[Choice]]:
    game.process_only = False
    try:
        return _offered(game)
    finally:
        game.process_only = True


def test_choices_change_after_a_move_and_come_back_after_a_refusal_and_a_trial() -> None:
    at = _first_lay()
    game = _live(at)
    raw = _actions()[at]
    lay = MOVES["lay"]
    before = option_choices(game, raw["entity"], lay, "hex", {})
    assert raw["hex"] in [c.value for c in before]
    stamp = game.position_stamp

    # a trial of the lay (the buttons' and the skipped steps' way of asking) leaves the position
    assert game.accepts(A.Action.from_dict(raw))
    assert game.position_stamp == stamp
    assert option_choices(game, raw["entity"], lay, "hex", {}) == before

    # a refused action is rolled back: the same position, the same choices
    with pytest.raises(GameError):
        game.process(A.LayTile(entity=raw["entity"], entity_type="corporation", hex=raw["hex"],
                               tile="no-such-tile", rotation=0))
    assert game.position_stamp == stamp
    assert option_choices(game, raw["entity"], lay, "hex", {}) == before

    # the lay made: a new position, whose choices are computed for it
    game.process(A.Action.from_dict(raw))
    assert game.position_stamp != stamp
    after = _offered(game)
    assert after == _fresh(game)
    assert after.get((raw["entity"], "lay"), []) != before


@pytest.mark.parametrize("start", [START, 170])  # (the late game; a stock round and what follows)
def test_shared_choices_equal_fresh_ones_over_a_recorded_game(start: int) -> None:
    """At each position of a stretch of a real game: the shared choices (asked twice, and again
    after a trial of the next action) are the ones computed afresh."""
    game = _live(start)
    checked = 0
    for raw in _actions()[start:start + WINDOW]:
        action = A.Action.from_dict(raw)
        shared = _offered(game)
        assert _offered(game) == shared
        game.accepts(action)
        assert _offered(game) == shared == _fresh(game), f"action {raw.get('id')} ({raw['type']})"
        checked += sum(1 for v in shared.values() if v)
        game.process(action)
    assert checked > WINDOW


async def test_buttons_change_after_a_move_and_after_an_undo(layer: CommandLayer) -> None:
    """Through the bot: the buttons after a lay are not the ones before it, and /game undo
    brings the ones before it back."""
    at = _first_lay()
    head, steps = script(load_export("1856", "hotseat006"), at, 1)
    await set_up(layer, "memo", head)

    async def shown() -> list[Any]:
        _, cached = await layer.active("memo")
        return decision_buttons(cached.game, cached.seq)

    first = await shown()
    reply = await send(layer, "memo", user_of(steps[0].pid), steps[0].line)
    assert reply.ok, reply.error
    moved = await shown()
    assert _seen(moved) != _seen(first)
    reply = await send(layer, "memo", user_of(steps[0].pid), "/game undo")
    assert reply.ok, reply.error
    undone = await shown()
    assert _seen(undone) == _seen(first)


def _seen(buttons: list[Any]) -> list[tuple[str, list[str]]]:
    """What a player sees of the buttons (their state stamps count the undo's log entries)."""
    return [(b.label, [p.label for p in b.picks]) for b in buttons]


def test_every_move_without_options_a_step_offers_is_accepted() -> None:
    """only_pass counts a move without options (a loan, repaying one) as a decision without
    trying it: over a recorded game, each one offered is one the engine takes."""
    export = load_export("1856", "hotseat006")
    game = replay({**export, "actions": []}).game
    tried = 0
    for raw in filter_actions(export["actions"]):
        for e in ([] if game.finished else game.acting()):
            for who in deciders(game, e):
                kind = entity_type(game, who)
                for t in game.action_types(who):
                    move = move_for(t, kind)
                    if t in ("pass", "bankrupt") or move is None or move.any_time or move.options:
                        continue
                    tried += 1
                    assert game.accepts(move.build(game, who, {})), f"action {raw.get('id')}: {who} {t}"
        game.process(A.Action.from_dict(raw), safe=False)
    assert tried > 100


def test_destination_connections_kept_until_the_map_changes() -> None:
    """1856's destination check (Board.hexes_connected, asked after every track step for every
    corporation) is kept until a hex its walk looked at changes: at every action of a whole
    game the kept answer equals one computed afresh, some destinations become connected on the
    way, and many answers outlive a change of the map elsewhere."""
    export = load_export("1856", "hotseat006")
    game = replay({**export, "actions": []}).game
    connected = set()
    outlived = 0
    for raw in filter_actions(export["actions"]):
        if raw.get("type") == "end_game":
            break
        board = game.board
        for sym, (start, goals) in game.destinations.items():
            kept = board.hexes_connected(start, goals)
            assert kept == board._linked(start, goals)[0], (raw["id"], sym)
            if kept:
                connected.add(sym)
        version = board.version
        game.process(A.Action.from_dict(raw), safe=False)
        if game.board is board and board.version != version:
            outlived += sum(("linked", start, tuple(goals)) in board._cache
                            for start, goals in game.destinations.values())
    assert len(connected) >= 3, connected
    assert outlived > 100


def test_values_kept_beside_an_object_follow_it() -> None:
    """engine.beside.Beside: one value per owner (asked in turn, each gets its own), nothing made
    by ``get``, and a value gone with its owner: a new owner gets a new value."""
    import gc

    from engine.beside import Beside

    class Owner:
        pass

    made: list[dict[str, int]] = []

    def make() -> dict[str, int]:
        made.append({})
        return made[-1]

    kept: Beside[Owner, dict[str, int]] = Beside(make)
    a, b = Owner(), Owner()
    assert kept.get(a) is None and not made
    kept.of(a)["n"] = 1
    kept.of(b)["n"] = 2
    assert [kept.of(a)["n"], kept.of(b)["n"], kept.of(a)["n"], kept.get(b)] == [1, 2, 1, {"n": 2}]
    assert len(made) == 2
    del a, b
    gc.collect()
    assert len(kept._kept) == 0
    c = Owner()
    assert kept.get(c) is None and kept.of(c) == {} and len(made) == 3


def test_the_known_network_kept_beside_the_board_equals_one_worked_out_afresh() -> None:
    """Board.known_network (kept for every hex while the same station walks are kept): at each
    position of a stretch of a real game (whose lays drop walks), for every corporation with
    stations, asked at every hex, before and after one more station is walked, it equals the
    union of the kept walks worked out afresh."""

    def afresh(board: Any, sym: str, hid: str) -> tuple[set[int], set[int]]:
        kept = board._kept_walks(sym)
        edges = {e for (h, _), _ in kept if h == hid for e in board.hexes[h].neighbors}
        entries: set[int] = set()
        for _, walk in kept:
            if walk is not None:
                edges |= {e for h, e in walk.touched if h == hid}
                entries |= {e for h, e in walk.arrivals if h == hid}
        return edges, entries

    game = _live(START)
    asked = walked = 0
    for raw in _actions()[START:START + WINDOW]:
        board = game.board
        for sym in game.corporations:
            if not board.stations(sym):
                continue
            for _ in range(2):  # as kept, then with one more station walked (if any is left)
                for hid in board.hexes:
                    assert board.known_network(sym, hid) == afresh(board, sym, hid), (raw.get("id"), sym, hid)
                    asked += 1
                if not board.walk_next_station(sym):
                    break
                walked += 1
        game.process(A.Action.from_dict(raw))
    assert asked > 10_000 and walked >= 10, (asked, walked)
