"""Fixtures shared by the test modules: both store engines (:mod:`tests.pg_util`) and a
command layer on a fresh SQLite store without pictures (``layer``)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.storage.store import Store

pytest_plugins = ["tests.pg_util"]


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[CommandLayer]:
    store = await Store.open(str(tmp_path / "bot.db"))
    yield CommandLayer(store, images=False)
    await store.close()
