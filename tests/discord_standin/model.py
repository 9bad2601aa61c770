"""What the stand-in knows: users, guilds, channels, messages, interactions and recorded requests,
and the JSON shapes Discord gives them (API v10, as documented for bots)."""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# the permissions a bot invited as the README says has in a channel
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
READ_MESSAGE_HISTORY, MANAGE_MESSAGES, USE_APPLICATION_COMMANDS = 1 << 16, 1 << 13, 1 << 31
ADMINISTRATOR, MANAGE_GUILD, MENTION_EVERYONE = 1 << 3, 1 << 5, 1 << 17
BOT_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                   | MANAGE_MESSAGES | USE_APPLICATION_COMMANDS)
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY \
    | USE_APPLICATION_COMMANDS
# gateway intents Discord only grants when enabled in the developer portal
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT


class Snowflakes:
    """Discord ids: milliseconds since 2015 in the top bits, a counter below."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    accepts_dms: bool = True

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0, "flags": 0, "banner": None,
                "accent_color": None, "avatar_decoration_data": None}

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int | None  # None: a direct-message channel
    recipient: User | None = None
    app_permissions: int = BOT_PERMISSIONS

    def payload(self) -> dict[str, Any]:
        if self.guild_id is None:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "last_message_id": None, "flags": 0,
                    "recipients": [self.recipient.payload()]}
        return {"id": str(self.id), "type": 0, "guild_id": str(self.guild_id), "name": self.name, "position": 0,
                "permission_overwrites": [], "nsfw": False, "topic": None, "last_message_id": None,
                "rate_limit_per_user": 0, "parent_id": None, "flags": 0}


@dataclass
class Guild:
    id: int
    name: str
    owner: User
    admin_role_id: int
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, User] = field(default_factory=dict)
    admins: set[int] = field(default_factory=set)

    def role_payloads(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int) -> dict[str, Any]:
            return {"id": str(rid), "name": name, "color": 0, "hoist": False, "icon": None, "unicode_emoji": None,
                    "position": position, "permissions": str(perms), "managed": False, "mentionable": False,
                    "flags": 0}

        return [role(self.id, "@everyone", MEMBER_PERMISSIONS, 0),
                role(self.admin_role_id, "Admin", ADMINISTRATOR, 1)]

    def member_payload(self, user: User, *, with_permissions: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"user": user.payload(), "nick": None, "avatar": None,
                               "roles": [str(self.admin_role_id)] if user.id in self.admins else [],
                               "joined_at": iso_now(), "premium_since": None, "deaf": False, "mute": False,
                               "flags": 0, "pending": False, "communication_disabled_until": None}
        if with_permissions:
            perms = ADMINISTRATOR | MANAGE_GUILD | MEMBER_PERMISSIONS if user.id in self.admins else MEMBER_PERMISSIONS
            out["permissions"] = str(perms)
        return out

    def payload(self, bot: User) -> dict[str, Any]:
        """The GUILD_CREATE payload."""
        return {"id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
                "owner_id": str(self.owner.id), "afk_channel_id": None, "afk_timeout": 300,
                "verification_level": 0, "default_message_notifications": 1, "explicit_content_filter": 0,
                "roles": self.role_payloads(), "emojis": [], "features": [], "mfa_level": 0,
                "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
                "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None, "description": None,
                "banner": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
                "public_updates_channel_id": None, "nsfw_level": 0, "stickers": [],
                "premium_progress_bar_enabled": False, "joined_at": iso_now(), "large": False,
                "unavailable": False, "member_count": len(self.members) + 1, "voice_states": [],
                "members": [self.member_payload(bot)], "channels": [c.payload() for c in self.channels],
                "threads": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
                "soundboard_sounds": []}


@dataclass
class SentFile:
    """A file part of a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    flags: int = 0
    files: list[SentFile] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    pinned: bool = False
    deleted: bool = False
    loading: bool = False  # a deferred response's "thinking..." placeholder
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return [c.get("custom_id", "") for row in self.components for c in row.get("components", [])]

    def button(self, label: str) -> dict[str, Any]:
        for row in self.components:
            for c in row.get("components", []):
                if c.get("label") == label:
                    return c
        raise KeyError(f"no button {label!r} on message {self.id}: {self.components}")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    @property
    def menus(self) -> list[dict[str, Any]]:
        """The string select menus (component type 3)."""
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 3]

    def menu(self, words: str) -> dict[str, Any]:
        """The select menu whose placeholder contains ``words``."""
        for c in self.menus:
            if words in (c.get("placeholder") or ""):
                return c
        raise KeyError(f"no menu {words!r} on message {self.id}: {[c.get('placeholder') for c in self.menus]}")

    def pinged_users(self) -> list[int]:
        """Users this message notifies, by Discord's rules for ``allowed_mentions``."""
        if self.ephemeral:
            return []
        mentioned = [int(m) for m in MENTION.findall(self.content)]
        am = self.allowed_mentions
        if am is None:
            return mentioned
        if "users" in (am.get("parse") or []):
            return mentioned
        allowed = {int(u) for u in am.get("users") or []}
        return [u for u in mentioned if u in allowed]

    def pings_everyone(self) -> bool:
        am = self.allowed_mentions
        wants = "@everyone" in self.content or "@here" in self.content
        return wants and (am is None or "everyone" in (am.get("parse") or []))

    def payload(self, api_base: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": self.author.payload(),
            "content": self.content, "timestamp": iso_now(), "edited_timestamp": iso_now() if self.edits else None,
            "tts": False, "mention_everyone": self.pings_everyone(), "mentions": [], "mention_roles": [],
            "attachments": [{"id": str(i), "filename": f.filename, "size": len(f.data),
                             "url": f"{api_base}/attachments/{self.id}/{f.filename}",
                             "proxy_url": f"{api_base}/attachments/{self.id}/{f.filename}",
                             "content_type": f.content_type} for i, f in enumerate(self.files)],
            "embeds": [], "pinned": self.pinned, "type": self.type, "flags": self.flags,
            "components": self.components}
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        return out


@dataclass
class Callback:
    type: int
    data: dict[str, Any]
    at: float


@dataclass
class Modal:
    """A modal the bot opened (callback type 9): its title, ``custom_id`` and text inputs (each
    with its ``custom_id``, ``label``, ``placeholder``, ``style``, ``required``, lengths), and the
    message of the component it answered (a submit carries it)."""

    title: str
    custom_id: str
    inputs: list[dict[str, Any]]  # (one in a Label, type 18, also has its "label_id")
    message: Message | None = None

    def input(self, custom_id: str) -> dict[str, Any]:
        for i in self.inputs:
            if i.get("custom_id") == custom_id:
                return i
        raise KeyError(f"no text input {custom_id!r} in modal {self.title!r}: {self.inputs}")


@dataclass
class InteractionRecord:
    """One interaction the stand-in dispatched, and everything the bot did to answer it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    payload: dict[str, Any]
    created: float  # loop time
    message: Message | None = None  # the message a clicked button is on
    callbacks: list[Callback] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (status, reason) of refused callbacks
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: Modal | None = None  # the modal opened in answer (callback type 9)

    @property
    def thinking(self) -> bool:
        """Discord shows "thinking..." (a deferred response not followed up yet)."""
        return self.original is not None and self.original.loading and not self.original.deleted

    @property
    def answered(self) -> bool:
        if not self.callbacks or self.thinking:
            return False
        kind = self.callbacks[0].type
        if kind == 8:
            return self.choices is not None
        if kind == 9:
            return self.modal is not None
        return bool(self.messages)  # an update (6, 7) answers once its followup is posted

    @property
    def messages(self) -> list[Message]:
        """What the user sees now, oldest first."""
        out = [m for m in [self.original, *self.followups] if m is not None and not m.deleted and not m.loading]
        return out

    @property
    def answer(self) -> Message:
        assert self.messages, f"interaction {self.id} has no answer: {self.callbacks} {self.refused}"
        return self.messages[0]

    @property
    def flashed_public_thinking(self) -> bool:
        """A public "thinking..." was shown although everything said was private."""
        public_defer = any(c.type == 5 and not (c.data.get("flags", 0) & EPHEMERAL) for c in self.callbacks)
        return public_defer and all(m.ephemeral for m in self.messages)


@dataclass
class Recorded:
    """One HTTP request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[SentFile]
    authorization: str | None
    at: float
    status: int = 0
    response: Any = None
