"""/right's example names what the title sells (``Game.special_buy_names``): it read
"/right right:tunnel" in 1833NE, which sells ferries (a play-test), and 1856's engine refused
"tunnel" too (its rights are "Tunnel Token" and "Bridge Token"). The example, typed as shown,
buys."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.play import MOVES, title_example
from bot.storage.store import Store
from bot.terminal.local import LocalSession
from bot.terminal.textcmd import parse
from engine.titles.registry import new_game
from tests.bot.test_command_fixes import NE_START, typed
from tests.positions import at

PLAYERS = [("1", "a"), ("2", "b"), ("3", "c")]


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[LocalSession]:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        yield LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
    finally:
        await store.close()


def test_the_example_comes_from_the_titles_own_names() -> None:
    ne, g56, jr = (new_game(t, PLAYERS) for t in ("1833NE", "1856", "1836Jr56"))
    assert title_example(ne, MOVES["right"]) == '/right right:"Ferry G22"'  # its first ferry port
    assert ne.special_buy_names() == [f"Ferry {hid}" for hid in ne.ferries]
    assert title_example(g56, MOVES["right"]) == '/right right:"Tunnel Token"'
    assert g56.special_buy_names() == ["Tunnel Token", "Bridge Token"]
    assert jr.special_buy_names() == []  # 1836Jr56 has neither private that sells a right


async def test_1833ne_help_shows_a_ferry_and_typing_it_buys_the_ferry(session: LocalSession) -> None:
    await typed(session, NE_START)  # Operating Round 1.1: alice's B&L ($240) acts
    shown = await session.run_line("/help command:right")
    example = next(line.removeprefix("Example: ") for line in shown if line.startswith("Example: "))
    assert example == '/right right:"Ferry G22"' and "tunnel" not in "\n".join(shown).lower(), shown
    await session.run_line("/as alice")
    bought = await session.run_line(example)
    assert bought[0] == "B&L buys the Boston ferry for $40 (alice)", bought


def test_1856_example_is_what_its_engine_accepts() -> None:
    """1856_game_end_bank just before LPS bought its tunnel right (action 225)."""
    g = at("1856", "1856_game_end_bank", 224)
    line = parse(title_example(g, MOVES["right"]))
    assert line.params == {"right": "Tunnel Token"}
    g.process(MOVES["right"].build(g, "LPS", line.params))
    assert "tunnel" in g.rights["LPS"]
