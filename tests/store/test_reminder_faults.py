"""The reminder scheduler under faults: a game that fails does not stop the others (it is tried
again at the next tick), and a reminder counts as sent only once it was delivered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.commands.layer import CommandLayer
from bot.reminders import Reminder, Scheduler
from bot.storage.store import Store
from tests.store.test_bot_async_reminders import FakeClock, setup_game

CHANNELS = ("chan-1", "chan-2", "chan-3")


async def _three_games(tmp_path: Path) -> tuple[CommandLayer, FakeClock, Store]:
    clock = FakeClock()
    store = await Store.open(str(tmp_path / "bot.db"))
    layer = CommandLayer(store, images=False, clock=clock)
    for channel in CHANNELS:
        await setup_game(layer, 18, channel)  # alice's BBG to act in each
    clock.at(hours=24)  # the first reminder is due in all three
    return layer, clock, store


async def _sent(store: Store) -> dict[int, int]:
    return {g.id: len(await store.reminders_log(g.id)) for g in await store.active_games()}


async def test_a_failing_game_does_not_stop_the_others(tmp_path: Path) -> None:
    layer, clock, store = await _three_games(tmp_path)
    try:
        broken = (await store.open_game("chan-2")).id
        original = layer.load

        async def load(row: Any) -> Any:
            if row.id == broken:
                raise RuntimeError("a bug in one game")
            return await original(row)

        layer.load = load  # type: ignore[method-assign]
        first = await Scheduler(layer).tick()
        assert sorted(r.channel_id for r in first) == ["chan-1", "chan-3"]
        assert (await _sent(store))[broken] == 0
        layer.load = original  # type: ignore[method-assign]
        clock.advance(minutes=1)
        second = await Scheduler(layer).tick()
        assert [r.channel_id for r in second] == ["chan-2"]  # tried again, delivered once
        assert set((await _sent(store)).values()) == {1}
    finally:
        await store.close()


async def test_a_reminder_is_marked_sent_only_once_delivered(tmp_path: Path) -> None:
    layer, clock, store = await _three_games(tmp_path)
    try:
        sched = Scheduler(layer)
        tried: list[str] = []

        async def network_down_for_chan_1(r: Reminder) -> bool:
            tried.append(r.channel_id)
            return r.channel_id != "chan-1"

        delivered = await sched.tick(network_down_for_chan_1)
        assert sorted(tried) == list(CHANNELS)
        assert sorted(r.channel_id for r in delivered) == ["chan-2", "chan-3"]
        chan1 = (await store.open_game("chan-1")).id
        assert (await _sent(store))[chan1] == 0 and (await store.turn(chan1)).reminders_sent == 0

        async def raising(r: Reminder) -> bool:
            raise ConnectionError("no route to Discord")

        clock.advance(minutes=1)
        assert await sched.tick(raising) == []  # logged; nothing marked
        assert (await _sent(store))[chan1] == 0

        async def works(r: Reminder) -> bool:
            return True

        clock.advance(minutes=1)
        assert [r.channel_id for r in await sched.tick(works)] == ["chan-1"]
        clock.advance(minutes=1)
        assert await sched.tick(works) == []  # sent once, not again
        assert set((await _sent(store)).values()) == {1}
        assert (await store.turn(chan1)).reminders_sent == 1
    finally:
        await store.close()
