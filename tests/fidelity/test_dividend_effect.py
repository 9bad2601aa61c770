"""A title's ``dividend_effect`` (what a dividend choice leaves the corporation with: its share
price and treasury, told by the dividend choices before one is made) equals what the dividend
does: the dividend chosen at every position of the fixtures where one is chosen, and every kind
offered, tried on the game, in the real games and in self-played 1833NE games.

What is compared is the corporation right after its ``pay_dividend``: what follows in the same
action (the round ending, the next round's private income, later corporations' skipped turns) is
not the dividend's doing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tools.fidelity import find_exports, read_export
from engine import actions as A
from engine.entities import Corporation
from engine.errors import GameError
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.rounds.operating import OperatingRound
from engine.selfplay import play_one
from engine.titles.g1833ne import selfplay as ne_selfplay
from engine.titles.g1833ne.game import G1833NE

FIXTURES = Path(__file__).parent.parent / "fixtures"
GAMES = find_exports([str(FIXTURES)])
REAL_GAMES = find_exports([str(FIXTURES / "1856"), str(FIXTURES / "1836jr56")])

Effect = tuple[int | None, int]  # (share price, treasury)


def _paid(cls: type[Game], monkeypatch: pytest.MonkeyPatch) -> list[Effect]:
    """Records the paying corporation's price and treasury right after each ``pay_dividend``."""
    seen: list[Effect] = []
    pay = cls.pay_dividend

    def paying(self: Game, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        pay(self, rnd, corp, kind)
        seen.append(((corp.price.price if corp.price is not None else None), corp.cash))

    monkeypatch.setattr(cls, "pay_dividend", paying)
    return seen


def _told(game: Game, entity: str) -> dict[str, Effect]:
    """What the hook tells of each dividend kind ``entity`` may choose now."""
    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    corp = game.corporations[entity]
    net = sum(r["revenue"] for r in rnd.state.get("routes", [])) - game.revenue_deduction(rnd, corp)
    out = {}
    for kind in game.dividend_kinds(corp):
        effect = game.dividend_effect(corp, net, kind)
        out[kind] = (effect.price.price if effect.price is not None else None), effect.cash
    return out


def _tried(game: Game, entity: str, paid: list[Effect]) -> dict[str, Effect]:
    """What each kind does when tried on the game (and undone). The hook must be asked first:
    a trial restores the game's objects."""
    out = {}
    for kind in game.dividend_kinds(game.corporations[entity]):
        paid.clear()
        assert game.accepts(A.Dividend(entity=entity, entity_type="corporation", kind=kind)), f"{entity} {kind}"
        out[kind] = paid[0]
    return out


def _replay_comparing(path: Path, monkeypatch: pytest.MonkeyPatch, every_kind: bool) -> int:
    """Replays a fixture comparing the hook with the dividend at each one chosen (and with the
    trial of every kind when ``every_kind``); returns how many were compared."""
    export = read_export(path)
    game = game_from_export(export)
    game.live = False
    paid = _paid(type(game), monkeypatch)
    compared = 0
    for raw in filter_actions(export.get("actions", [])):
        told = None
        if raw.get("type") == "dividend" and raw.get("entity") in game.corporations:
            told = _told(game, raw["entity"])
            if every_kind:
                assert told == _tried(game, raw["entity"], paid), f"action {raw.get('id')}"
            compared += 1
        paid.clear()
        try:
            game.process(A.Action.from_dict(raw), safe=False)
        except GameError:
            break  # the fidelity corpus says where and why a fixture stops
        if told is not None:
            assert told[raw["kind"]] == paid[0], f"action {raw.get('id')}: told {told}, paid {paid[0]}"
    return compared


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.split(".")[0])
def test_the_hook_tells_what_the_chosen_dividend_does_in_every_fixture(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay_comparing(path, monkeypatch, every_kind=False)


def test_the_hook_tells_what_every_kind_does_in_the_real_games(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sum(_replay_comparing(path, monkeypatch, every_kind=True) for path in REAL_GAMES) > 200


@pytest.mark.parametrize("seed", [3, 11])
def test_the_hook_tells_what_every_kind_does_in_1833ne_games(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """1833NE (no reference engine): self-played games, every dividend decision on the way."""
    paid = _paid(G1833NE, monkeypatch)
    seen: list[str] = []

    def compare(game: Game) -> str | None:
        acting = game.acting()
        if len(acting) == 1 and "dividend" in game.action_types(acting[0]):
            told = _told(game, acting[0])
            assert told == _tried(game, acting[0], paid), f"action {len(game.action_log)}"
            seen.extend(told)
        return ne_selfplay.invariants(game)  # type: ignore[arg-type]

    play_one("1833NE", 4, seed, ["takeover_game"], 1500, ne_selfplay.router, choose=ne_selfplay.choose,
             invariants=compare)
    assert {"payout", "half", "withhold"} <= set(seen) and len(seen) > 60
