"""Settings from the environment (and a .env file), in one typed object."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    database_path: str
    image_dir: str
    dev_guild_id: int | None


def load_settings() -> Settings:
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:  # python-dotenv is a dependency; tolerate its absence in odd setups
        pass
    guild = os.environ.get("DEV_GUILD_ID") or None
    return Settings(
        discord_token=os.environ.get("DISCORD_TOKEN") or None,
        database_path=os.environ.get("DATABASE_PATH", "conductor.sqlite3"),
        image_dir=os.environ.get("IMAGE_DIR", "images"),
        dev_guild_id=int(guild) if guild else None,
    )
