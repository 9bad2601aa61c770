"""``python -m tests.discord_standin.launch API_BASE GATEWAY ARGS...``: the unmodified ``conductor``
command line with discord.py's HTTP API base and gateway pointed at a stand-in (or a closed port)."""

from __future__ import annotations

import sys

import discord.gateway
import discord.http
import yarl

from bot.cli import main

if __name__ == "__main__":
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    raise SystemExit(main(sys.argv[3:]))
