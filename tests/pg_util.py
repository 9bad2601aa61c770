"""Both store engines for the tests: SQLite always, PostgreSQL when ``TEST_DATABASE_URL`` names a
server (``.ci/run`` always starts one). Each test gets an empty database of its own."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

PG_URL = os.environ.get("TEST_DATABASE_URL") or None
ENGINES = ["sqlite"] + (["postgresql"] if PG_URL else [])


def _with_db(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


async def new_pg_database() -> str:
    """An empty database on the test server; its URL."""
    assert PG_URL is not None
    name = "t_" + uuid.uuid4().hex[:16]
    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return _with_db(PG_URL, name)


async def drop_pg_database(url: str) -> None:
    assert PG_URL is not None
    name = urlsplit(url).path.lstrip("/")
    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()


@pytest.fixture(params=ENGINES)
async def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database for one test: a SQLite file path, or the URL of an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "bot.db")
        return
    url = await new_pg_database()
    yield url
    await drop_pg_database(url)


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """An empty PostgreSQL database (tests of PostgreSQL itself: CI always has a server)."""
    if PG_URL is None:
        raise RuntimeError("these tests need a PostgreSQL server: set TEST_DATABASE_URL (see .ci/run)")
    url = await new_pg_database()
    yield url
    await drop_pg_database(url)


async def raw(store: Any, sql: str, *args: Any) -> None:
    """One statement straight to the database under ``store`` (a hand edit, behind the bot's back);
    PostgreSQL's refusals come as SQLite's classes, as the store raises them."""
    from bot.storage.pg import PgDatabase, _errors, dml

    if isinstance(store, PgDatabase):
        with _errors():
            async with store.pool.acquire() as conn:
                await conn.execute(dml(sql), *args)
        return
    await store.db.execute(sql, args)


def on_pg(store: Any) -> bool:
    from bot.storage.pg import PgDatabase

    return isinstance(store, PgDatabase)
