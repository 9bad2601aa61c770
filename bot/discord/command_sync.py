"""Slash-command registration only when the command tree changed.

Discord rate-limits command registration (``PUT .../commands``), so the bot does not register its
commands on every start. It hashes exactly what :meth:`CommandTree.sync` would send and keeps the
hash of the last successful sync in a small JSON file next to the database
(``conductor.sqlite3.commands.json``), one entry per application and scope (global or a guild).
A start with the same tree and the same application registers nothing; ``/sync`` (server admins)
forces a registration.

The ids Discord gave the commands are kept too (in the same file, or read back once with a GET
when an older file lacks them): replies mention commands as clickable ``</game new:ID>``
(:func:`command_ids`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


_IDS: dict[int | None, dict[str, int]] = {}  # application id -> top-level command name -> id


def command_ids(application_id: int | None) -> dict[str, int]:
    """The ids of the application's registered commands, by name (empty before the first sync)."""
    return dict(_IDS.get(application_id, {}))


def _ids_of(text: str | None) -> dict[str, int]:
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    return {str(k): int(v) for k, v in data.items() if str(v).isdigit()} if isinstance(data, dict) else {}


def record_path(database_path: str) -> Path | None:
    """The file that remembers the last sync, next to the database (None for an in-memory one)."""
    if not database_path or database_path == ":memory:":
        return None
    return Path(database_path + ".commands.json")


def tree_hash(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None) -> str:
    """SHA-256 of the commands a sync for ``guild`` (None: global) would send to Discord."""
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def _scope(application_id: int | None, guild: discord.abc.Snowflake | None) -> str:
    return f"{application_id}/{'global' if guild is None else guild.id}"


def _load(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


async def sync_commands(client: discord.Client, tree: app_commands.CommandTree[Any], database_path: str, *,
                        guild: discord.abc.Snowflake | None = None, force: bool = False) -> int | None:
    """Register the tree's commands when they differ from the last sync (or when ``force``).

    Returns how many commands were registered, or None when nothing had to be sent."""
    path = record_path(database_path)
    scope = _scope(client.application_id, guild)
    digest = tree_hash(tree, guild)
    known = _load(path)
    if not force and known.get(scope) == digest:
        log.info("slash commands unchanged since the last sync (%s): not registering them again", scope)
        ids = _ids_of(known.get(scope + " ids"))
        if not ids:
            try:
                ids = {c.name: c.id for c in await tree.fetch_commands(guild=guild)}
            except discord.HTTPException as exc:
                log.warning("could not read the commands' ids (%s): commands are named, not linked", exc)
        _IDS[client.application_id] = ids
        return None
    synced = await tree.sync(guild=guild)
    known[scope] = digest
    _IDS[client.application_id] = {c.name: c.id for c in synced}
    known[scope + " ids"] = json.dumps(_IDS[client.application_id], sort_keys=True)
    if path is not None:
        try:
            path.write_text(json.dumps(known, indent=1, sort_keys=True))
        except OSError:
            log.warning("could not write %s: the commands will be registered again on the next start", path)
    log.info("registered %d slash commands with Discord (%s)", len(synced), scope)
    return len(synced)
