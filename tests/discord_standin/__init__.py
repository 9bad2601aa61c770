"""A Discord stand-in on loopback for end-to-end tests of the real discord.py client running the bot.

:class:`DiscordStandIn` (``server.py``) serves Discord's HTTP API v10 and gateway on 127.0.0.1;
``model.py`` holds what it records; ``launch.py`` runs ``conductor`` in a subprocess pointed at it.
The bot is not modified: only discord.py's ``Route.BASE`` is pointed at the stand-in, and the gateway
URL comes from its ``GET /gateway/bot``.
"""

from .model import Channel, Guild, InteractionRecord, Message, Modal, Recorded, SentFile, User
from .server import DiscordStandIn

__all__ = ["Channel", "DiscordStandIn", "Guild", "InteractionRecord", "Message", "Modal", "Recorded", "SentFile",
           "User"]
