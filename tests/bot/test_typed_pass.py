"""A typed /pass right after another player's move ended the round: a button carries the state it
was made for and is refused once the game moved on, a typed command carries nothing. The pass is
made (nothing tells it from a deliberate first pass of the new round) and the reply says what it
passed, in which round, and how to take it back (bot/texts/typed.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from tests.bot.test_command_fixes import NE_START, typed

NOTE = ("Note: bob's move just ended the Stock Round: this /pass was B&L's, in the Operating Round. "
        "If you meant to pass in the Stock Round, /game undo takes it back.")


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[LocalSession]:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        yield LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
    finally:
        await store.close()


async def test_a_typed_pass_after_the_round_ended_says_what_it_passed(session: LocalSession) -> None:
    await typed(session, NE_START)  # bob's /pass ended the stock round; alice's B&L lays track
    await session.run_line("/as alice")
    passed = await session.run_line("/pass")
    assert passed[:2] == ["B&L passes (lay track) (alice)", NOTE], passed
    undone = await session.run_line("/game undo")
    assert undone[0] == "↩ alice undoes: B&L passes", undone
    assert undone[1].startswith("next: alice for B&L, lay track"), undone
    again = await session.run_line("/pass")  # the round did not just change: a plain pass
    assert again[0] == "B&L passes (lay track) (alice)" and not any(line.startswith("Note:") for line in again)


async def test_the_pass_button_says_nothing_more(session: LocalSession) -> None:
    """The button was made for this position (its state): the player saw what it passes."""
    shown = await typed(session, NE_START)
    button = next(line for line in shown if line.startswith("[button No track] "))
    await session.run_line("/as alice")
    passed = await session.run_line(button.removeprefix("[button No track] "))
    assert passed[0] == "B&L passes (lay track) (alice)" and NOTE not in passed, passed


async def test_the_player_who_ended_the_round_is_not_warned(session: LocalSession) -> None:
    """bob ends the stock round and is first in the operating round (his BW is the only one)."""
    auction = NE_START.split("/as alice\n/par corporation:B&L")[0]
    await typed(session, auction + "/as alice\n/pass\n/as bob\n/par corporation:BW price:70\n"
                                    "/as carol\n/pass\n/as alice\n/pass\n/as bob")
    ended = await session.run_line("/pass")
    assert any("Operating Round" in line for line in ended), ended
    passed = await session.run_line("/pass")
    assert passed[0] == "BW passes (lay track) (bob)" and not any(line.startswith("Note:") for line in passed)
