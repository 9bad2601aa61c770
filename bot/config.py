"""Settings from the environment (and a .env file), in one typed object.

The database is ``DATABASE_URL`` (a ``postgresql://user:password@host:port/db`` URL, or a SQLite
path) or else ``DATABASE_PATH`` (a SQLite file). ``SHARD_COUNT`` and ``SHARD_IDS`` (comma-separated)
split the bot's Discord shards between processes; unset, one process runs every shard.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    database_path: str
    image_dir: str
    dev_guild_id: int | None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None


class SettingsError(ValueError):
    """A setting that cannot be used; the message names it and says what is expected."""


def _shards() -> tuple[int | None, tuple[int, ...] | None]:
    count_text = (os.environ.get("SHARD_COUNT") or "").strip()
    ids_text = (os.environ.get("SHARD_IDS") or "").strip()
    try:
        count = int(count_text) if count_text else None
        ids = tuple(int(x) for x in ids_text.replace(" ", "").split(",") if x) if ids_text else None
    except ValueError:
        raise SettingsError("SHARD_COUNT must be a number and SHARD_IDS numbers separated by commas") from None
    if ids is not None and count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards of the bot)")
    if count is not None and count < 1:
        raise SettingsError("SHARD_COUNT must be at least 1")
    if count is not None and ids is not None and any(not 0 <= i < count for i in ids):
        raise SettingsError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({count - 1})")
    return count, ids


def load_settings() -> Settings:
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:  # python-dotenv is a dependency; tolerate its absence in odd setups
        pass
    guild = os.environ.get("DEV_GUILD_ID") or None
    count, ids = _shards()
    return Settings(
        discord_token=os.environ.get("DISCORD_TOKEN") or None,
        database_path=os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH", "conductor.sqlite3"),
        image_dir=os.environ.get("IMAGE_DIR", "images"),
        dev_guild_id=int(guild) if guild else None,
        shard_count=count,
        shard_ids=ids,
    )
