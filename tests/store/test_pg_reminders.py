"""Reminders with several bot processes on one database: each due reminder is claimed in the
database before it is sent, so exactly one process sends it; one that is not delivered is given
back and sent (once) later. On both engines."""

from __future__ import annotations

import asyncio

from bot.commands.layer import CommandLayer
from bot.reminders import Reminder, Scheduler
from bot.storage.store import Store
from tests.store.test_bot_async_reminders import FakeClock, setup_game


async def test_two_processes_ticking_at_once_send_each_reminder_once(db_target: str) -> None:
    clock = FakeClock()
    stores = [await Store.open(db_target) for _ in range(3)]
    try:
        layers = [CommandLayer(s, images=False, clock=clock) for s in stores]
        await setup_game(layers[0], 6)
        schedulers = [Scheduler(layer) for layer in layers]
        sent: list[tuple[int, Reminder]] = []

        def deliver_by(n: int) -> object:
            async def deliver(r: Reminder) -> bool:
                await asyncio.sleep(0.01)  # the others tick meanwhile
                sent.append((n, r))
                return True
            return deliver

        for hours, expected in ((1, 0), (25, 1), (26, 1), (49, 2)):
            clock.at(hours=hours)
            await asyncio.gather(*(s.tick(deliver_by(n)) for n, s in enumerate(schedulers)))  # type: ignore[arg-type]
            assert len(sent) == expected, (hours, sent)
        assert [r.text[:12] for _, r in sent] == ["reminder 1/3", "reminder 2/3"]
        row = await stores[0].open_game("chan-r")
        assert row is not None
        assert [k for _, _, k, _, _ in await stores[1].reminders_log(row.id)] == ["remind", "remind"]
    finally:
        for s in stores:
            await s.close()


async def test_a_reminder_not_delivered_is_given_back_and_sent_later_once(db_target: str) -> None:
    clock = FakeClock()
    one, two = await Store.open(db_target), await Store.open(db_target)
    try:
        first, second = CommandLayer(one, images=False, clock=clock), CommandLayer(two, images=False, clock=clock)
        await setup_game(first, 6)

        async def down(r: Reminder) -> bool:
            return False

        async def up(r: Reminder) -> bool:
            return True

        clock.at(hours=25)
        assert await Scheduler(first).tick(down) == []
        assert len(await Scheduler(second).tick(up)) == 1  # the other process sends it
        assert await Scheduler(first).tick(up) == []  # and nobody again
    finally:
        await one.close()
        await two.close()
