"""Settings from the environment and the ``.env`` file of the folder conductor runs in, in one typed
object.

The database is ``DATABASE_URL`` (a ``postgresql://user:password@host:port/db`` URL, or a SQLite
path) or else ``DATABASE_PATH`` (a SQLite file). ``SHARD_COUNT`` and ``SHARD_IDS`` (comma-separated)
split the bot's Discord shards between processes; unset, one process runs every shard.

``.env`` is read from the current folder only (as python-dotenv parses it); a variable set in the
environment wins over it, unless it is set empty there. A setting that cannot be used, or a ``.env``
that cannot be read, is a :class:`SettingsError` whose one line names it and says what it needs.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ENV_FILE = ".env"
DEFAULT_DATABASE = "conductor.sqlite3"
DEFAULT_IMAGE_DIR = "images"
DEFAULT_POOL_SIZE = 10
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


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


def env_file() -> Path:
    """The ``.env`` this run reads: the one in the current folder (it may not exist)."""
    return Path.cwd() / ENV_FILE


def read_env_file(path: Path | None = None) -> dict[str, str]:
    """The variables of ``.env`` (``path``; default :func:`env_file`) as python-dotenv reads them:
    ``{}`` when there is none; :class:`SettingsError` when it cannot be read."""
    path = path or env_file()
    if not path.exists():
        return {}
    if not path.is_file():
        raise SettingsError(f"{path} is not a file; it should hold settings as NAME=value lines (see .env.example)")
    try:
        from dotenv import dotenv_values
    except ImportError:  # python-dotenv is a dependency; tolerate its absence in odd setups
        return {}
    try:
        values = dotenv_values(path, encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsError(f"Cannot read {path}: it is not text (byte {exc.start} is not UTF-8); "
                            "it should hold NAME=value lines (see .env.example)") from None
    except OSError as exc:
        raise SettingsError(f"Cannot read {path}: {exc.strerror or exc}") from None
    return {k: v for k, v in values.items() if v is not None}


def load_env(path: Path | None = None) -> None:
    """Copy ``.env``'s variables into the environment, except those the environment sets (to
    something not blank)."""
    for name, value in read_env_file(path).items():
        if not os.environ.get(name, "").strip():
            os.environ[name] = value


def setting(name: str) -> str:
    """A variable of the environment, stripped ("" when unset)."""
    return os.environ.get(name, "").strip()


def _number(name: str, low: int, what: str) -> int | None:
    text = setting(name)
    if not text:
        return None
    try:
        value: int | None = int(text)
    except ValueError:
        value = None
    if value is None or value < low:
        raise SettingsError(f"{name} must be {what}, not {text!r}")
    return value


def pool_size() -> int:
    """``DATABASE_POOL_SIZE``: PostgreSQL connections per process (default 10)."""
    size = _number("DATABASE_POOL_SIZE", 1, "a whole number of connections, at least 1 (default 10)")
    return DEFAULT_POOL_SIZE if size is None else size


def _shards() -> tuple[int | None, tuple[int, ...] | None]:
    count = _number("SHARD_COUNT", 1, "a whole number of shards, at least 1 (or unset)")
    ids_text = setting("SHARD_IDS")
    ids = None
    if ids_text:
        try:
            ids = tuple(int(x) for x in ids_text.replace(" ", "").split(",") if x)
        except ValueError:
            raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas (0,1), not {ids_text!r}") from None
    if ids is not None and count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards of the bot)")
    if count is not None and ids is not None and any(not 0 <= i < count for i in ids):
        raise SettingsError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({count - 1})")
    return count, ids


def _log_level() -> int | None:
    text = setting("LOG_LEVEL").upper()
    if not text:
        return None
    if text not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {setting('LOG_LEVEL')!r}")
    return int(getattr(logging, text))


def setup_logging(default: int) -> None:
    """Log lines go to stderr, one a line with time, level and source, from ``LOG_LEVEL`` (else
    ``default``: INFO for the Discord bot, WARNING at the terminal) up."""
    logging.basicConfig(level=_log_level() or default, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def load_settings() -> Settings:
    """Read ``.env`` (see the module docstring) and every setting; :class:`SettingsError` on the
    first that cannot be used, even one this mode does not use."""
    load_env()
    guild = _number("DEV_GUILD_ID", 1, "a Discord server id (a number; Developer Mode > right-click the "
                    "server > Copy Server ID) or empty")
    count, ids = _shards()
    pool_size()  # checked here too: used only with PostgreSQL, read when the pool opens
    _log_level()  # read by setup_logging
    return Settings(
        discord_token=setting("DISCORD_TOKEN") or None,
        database_path=setting("DATABASE_URL") or setting("DATABASE_PATH") or DEFAULT_DATABASE,
        image_dir=setting("IMAGE_DIR") or DEFAULT_IMAGE_DIR,
        dev_guild_id=guild,
        shard_count=count,
        shard_ids=ids,
    )
