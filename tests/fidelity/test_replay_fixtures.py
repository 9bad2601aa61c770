"""Real 18xx.games games replay through our engine with the same state after every action."""

from __future__ import annotations

import pytest

from engine.replay import first_divergence, replay
from tests.fixture_util import load_export, load_trace

# Fixtures that replay completely today; the others are listed in the issue note with the
# first action where they stop.
REPLAYING_1856 = ["hotseat001", "hotseat004", "move_up_price_sr1", "89363", "hotseat006", "hotseat005"]


@pytest.mark.parametrize("name", REPLAYING_1856)
def test_1856_fixture_matches_reference_trace(name: str) -> None:
    export = load_export("1856", name)
    expected = load_trace("1856", name)
    res = replay(export, trace=True)
    assert res.error is None, f"action {res.failed_action_id}: {res.error}"
    assert first_divergence(res.trace, expected) is None
    final = expected[-1]
    assert final["final"]
    assert {str(k): v for k, v in res.game.result().items()} == {str(k): v for k, v in final["result"].items()}


REPLAYING_1836JR56 = ["1836jr56_game_end_bank", "hotseat003"]


@pytest.mark.parametrize("name", REPLAYING_1836JR56)
def test_1836jr56_fixture_matches_reference_trace(name: str) -> None:
    export = load_export("1836jr56", name)
    expected = load_trace("1836jr56", name)
    res = replay(export, trace=True)
    assert res.error is None, f"action {res.failed_action_id}: {res.error}"
    assert first_divergence(res.trace, expected) is None
    assert res.game.finished
    assert {str(k): v for k, v in res.game.result().items()} == {str(k): v for k, v in export["result"].items()}


@pytest.mark.parametrize("name", REPLAYING_1856)
def test_1856_fixture_result_matches_export(name: str) -> None:
    export = load_export("1856", name)
    res = replay(export)
    assert {str(k): v for k, v in res.game.result().items()} == {str(k): v for k, v in export["result"].items()}
    assert res.game.finished


def test_first_divergence_names_action_field_and_values() -> None:
    export = load_export("1856", "hotseat001")
    expected = load_trace("1856", "hotseat001")
    res = replay(export, trace=True)
    tampered = [dict(line) for line in res.trace]
    tampered[5] = dict(tampered[5], bank=tampered[5]["bank"] + 1)
    msg = first_divergence(tampered, expected)
    assert msg is not None
    assert "bank" in msg and f"action {expected[5]['id']}" in msg
