"""What one member can cost the bot (issue 28): commands are limited per member and per channel
with a polite refusal that says when to try again, pictures are drawn once per position, and
autocomplete does its engine work off the event loop."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from bot.commands import complete
from bot.commands.layer import CommandLayer
from bot.commands.limits import RateLimits
from bot.reply import Attachment, Caller
from bot.storage.store import Store
from tests.store.test_bot_async_reminders import CH, acting_user, run, setup_game


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await Store.open(str(tmp_path / "bot.db"))
    yield s
    await s.close()


async def test_a_member_over_the_limit_is_told_when_to_try_again(store: Store) -> None:
    ticks = Ticks()
    layer = CommandLayer(store, images=False, rates=RateLimits(per_user=5, per_channel=8, window=30, clock=ticks))
    for _ in range(5):
        assert (await run(layer, "mallory", "/games")).ok
    before = await store.dump()
    refused = await run(layer, "mallory", "/games")
    assert not refused.ok and "try again in 30 seconds" in refused.error and "at most 5 in 30" in refused.error
    assert await store.dump() == before
    assert (await run(layer, "bob", "/games")).ok  # others are not held up by her
    ticks.t += 12
    refused = await run(layer, "mallory", "/games")
    assert not refused.ok and "try again in 18 seconds" in refused.error
    ticks.t += 18
    assert (await run(layer, "mallory", "/games")).ok


async def test_a_busy_channel_is_limited_as_a_whole(store: Store) -> None:
    ticks = Ticks()
    layer = CommandLayer(store, images=False, rates=RateLimits(per_user=5, per_channel=8, window=30, clock=ticks))
    for i in range(8):
        assert (await run(layer, f"user{i}", "/games")).ok
    refused = await run(layer, "user9", "/games")
    assert not refused.ok and "this channel sends commands" in refused.error and "try again in" in refused.error
    assert (await run(layer, "user9", "/games", "elsewhere")).ok


async def test_autocomplete_has_its_own_allowance(store: Store) -> None:
    ticks = Ticks()
    layer = CommandLayer(store, images=False, rates=RateLimits(completions=3, clock=ticks))
    caller = Caller("mallory", "Mallory")
    got = [await layer.autocomplete(CH, caller, "help", "command", {}, "ga") for _ in range(4)]
    assert got[0] and got[2] and got[3] == []
    ticks.t += 31
    assert await layer.autocomplete(CH, caller, "help", "command", {}, "ga")


async def test_status_pictures_are_drawn_once_per_position(store: Store) -> None:
    layer = CommandLayer(store, images=False)
    await setup_game(layer, 18)
    layer.images = True
    drawn: list[tuple[str, ...]] = []

    async def render(game: Any, which: tuple[str, ...]) -> list[Attachment]:
        drawn.append(which)
        return [Attachment(f"{name}.png", b"png") for name in which]

    layer.render = render  # type: ignore[method-assign]
    for user in ("dave", "erin", "dave"):
        reply = await run(layer, user, "/game status")
        assert reply.ok and [f.filename for f in reply.files] == ["map.png", "market.png", "status.png"]
    assert drawn == [("map", "market", "status")]
    assert (await run(layer, await acting_user(layer), "/pass")).ok
    drawn.clear()
    await run(layer, "dave", "/game status")
    assert drawn and "status" in drawn[-1]  # a new position is drawn again


async def test_autocomplete_runs_the_engine_off_the_event_loop(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    layer = CommandLayer(store, images=False)
    await setup_game(layer, 18)
    where: list[bool] = []
    original = complete.action_choices

    def spy(*args: Any, **kwargs: Any) -> Any:
        where.append(threading.current_thread() is threading.main_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(complete, "action_choices", spy)
    user = await acting_user(layer)
    got = await layer.autocomplete(CH, Caller(user, user), "lay", "hex", {}, "")
    assert got and where == [False]


async def test_imports_have_a_tighter_allowance(store: Store) -> None:
    ticks = Ticks()
    layer = CommandLayer(store, images=False, rates=RateLimits(imports=2, import_window=600, clock=ticks))
    for i in range(2):
        await setup_game(layer, 6, f"imp{i}")
    refused = await layer.handle("imp3", Caller("alice", "Alice", guild="g1"), "game import", {"file": "{}"})
    assert not refused.ok and "2 games in 10 minutes" in refused.error and "try again in 600 seconds" in refused.error
    ticks.t += 600
    await setup_game(layer, 6, "imp3")


async def test_pictures_posted_after_a_move_are_reused_by_status(store: Store) -> None:
    """The pictures drawn for the channel after a move are kept for that position: a /game status
    right after it draws only what was not posted."""
    layer = CommandLayer(store, images=False)
    await setup_game(layer, 18)
    layer.images = True
    drawn: list[tuple[str, ...]] = []

    async def render(game: Any, which: tuple[str, ...]) -> list[Attachment]:
        drawn.append(which)
        return [Attachment(f"{name}.png", b"png") for name in which]

    layer.render = render  # type: ignore[method-assign]
    for _ in range(6):  # until a move changes whose turn it is (then the pictures are posted)
        reply = await run(layer, await acting_user(layer), "/pass")
        if reply.files:
            break
    posted = {f.filename.removesuffix(".png") for f in reply.files}
    assert posted
    drawn.clear()
    assert (await run(layer, "dave", "/game status")).ok
    assert all(name not in posted for which in drawn for name in which)
