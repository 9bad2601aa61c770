"""The Discord stand-in: an aiohttp server on 127.0.0.1 speaking enough of Discord's HTTP API v10
and gateway for an unmodified discord.py bot.

HTTP (under ``/api/v10``): ``GET /users/@me``, ``GET /oauth2/applications/@me``, ``GET /gateway/bot``,
``GET``/``PUT`` application commands (global and per guild), interaction callbacks (types 4, 5, 6, 7,
8 and 9 a modal, ``flags`` 64 for ephemeral), followup webhooks (``POST``/``GET``/``PATCH``/``DELETE``, JSON or
multipart with files), channel messages (posted, edited, listed), pins, DM channels, users and channels. Every request is
recorded (:attr:`DiscordStandIn.requests`); message bodies are checked against Discord's documented
limits and refused with its error codes.

Gateway (``/gateway``): HELLO, IDENTIFY -> READY + one GUILD_CREATE per guild, heartbeat ACK,
RESUME (missed events replayed, then RESUMED), and INTERACTION_CREATE dispatches that tests build
with :meth:`DiscordStandIn.slash`, :meth:`DiscordStandIn.autocomplete`, :meth:`DiscordStandIn.click`,
:meth:`DiscordStandIn.select` and :meth:`DiscordStandIn.submit_modal` from the commands, components
and modals the bot sent, shaped like Discord's payloads.

Shards: ``GET /gateway/bot`` recommends :attr:`DiscordStandIn.shard_count` shards; each IDENTIFY with
``shard: [id, count]`` opens a session of its own (:attr:`DiscordStandIn.sessions`), whose READY and
GUILD_CREATEs carry only the guilds of that shard (``(guild_id >> 22) % count``, Discord's rule), and
a guild's interactions go to its shard's session (direct messages to shard 0).

The awkward parts: a wrong token is refused (401 on HTTP, close code 4004 on the gateway), an
interaction not acknowledged within :attr:`DiscordStandIn.interaction_deadline` is unknown (404,
code 10062), an acknowledged one refuses a second callback (400, code 40060), :meth:`fail` plays
any status on chosen requests (a 403 Missing Permissions, a 429 with ``retry_after``),
:attr:`close_on_identify` closes the gateway with a code (4014: disallowed intents), and
:meth:`drop_gateway` cuts the connection so that the client must resume.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .model import (
    ATTACHMENT_SIZE_LIMIT,
    EPHEMERAL,
    Callback,
    Channel,
    Guild,
    InteractionRecord,
    Message,
    Modal,
    Recorded,
    SentFile,
    Snowflakes,
    User,
)

API = "/api/v10"
REC: Any = web.RequestKey("rec", Recorded) if hasattr(web, "RequestKey") else "rec"  # the request's record
OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}  # string, integer, boolean, number
NAME_RE = re.compile(r"^[-_a-z0-9]{1,32}$")


def jresp(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: ``Content-Type: application/json`` exactly (discord.py decodes only that)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def discord_error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return jresp(body, status=status)


def invalid_form(what: str) -> web.Response:
    return discord_error(400, 50035, "Invalid Form Body", {"_errors": [{"code": "BASE_TYPE_INVALID", "message": what}]})


@dataclass
class Fault:
    """Answer matching requests with ``status`` instead of serving them (``times`` times)."""

    method: str
    path: re.Pattern[str]
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    when: Callable[[Recorded], bool] | None = None
    hits: int = 0

    def matches(self, rec: Recorded) -> bool:
        return (self.hits < self.times and rec.method == self.method and bool(self.path.search(rec.path))
                and (self.when is None or self.when(rec)))


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    request: web.Request | None = None  # the websocket's HTTP request (its transport, to cut it)
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count) as identified


class DiscordStandIn:
    def __init__(self, *, token: str | None = None, bot_name: str = "Conductor") -> None:
        self.snowflake = Snowflakes()
        self.token = token or f"standin.{secrets.token_urlsafe(24)}"
        self.bot = User(self.snowflake(), bot_name, bot=True)
        self.application_id = self.bot.id  # as for every bot created since 2019
        self.owner = User(self.snowflake(), "app-owner")
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[Recorded] = []
        self.faults: list[Fault] = []
        self.interaction_deadline = 3.0  # Discord's: acknowledge within 3 seconds
        self.close_on_identify: int | None = None
        self.session: Session | None = None  # shard 0's (the only one of an unsharded bot)
        self.sessions: dict[int, Session] = {}  # by shard id
        self.shard_count = 1  # what GET /gateway/bot recommends
        self.identifies: list[dict[str, Any]] = []
        self.resumes = 0
        self.gateway_connections = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get(API + "/users/@me", self._me)
        r.add_get(API + "/oauth2/applications/@me", self._application)
        r.add_get(API + "/gateway/bot", self._gateway_bot)
        r.add_get(API + "/applications/{app}/commands", self._get_commands)
        r.add_put(API + "/applications/{app}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_post(API + "/interactions/{id}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app}/{token}", self._followup)
        r.add_route("*", API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_message)
        r.add_post(API + "/channels/{channel}/messages", self._channel_post)
        r.add_get(API + "/channels/{channel}/messages", self._channel_history)
        r.add_route("*", API + "/channels/{channel}/messages/{message:\\d+}", self._channel_message)
        r.add_route("*", API + "/channels/{channel}/messages/pins/{message}", self._pin)
        r.add_route("*", API + "/channels/{channel}/pins/{message}", self._pin)
        r.add_get(API + "/channels/{channel}", self._get_channel)
        r.add_post(API + "/users/@me/channels", self._open_dm)
        r.add_get(API + "/users/{user:\\d+}", self._get_user)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for session in list(self.sessions.values()):
            if session.ws is not None:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What discord.py's ``Route.BASE`` must be set to."""
        return self.http_base + API

    @property
    def gateway_url(self) -> str:
        """The gateway: in ``GET /gateway/bot`` (sharded clients ask), and what a plain
        ``discord.Client`` must have as ``DiscordWebSocket.DEFAULT_GATEWAY`` (it does not ask)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------------ the world
    def add_user(self, name: str, *, accepts_dms: bool = True) -> User:
        user = User(self.snowflake(), name, accepts_dms=accepts_dms)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, members: list[User], *, admins: tuple[User, ...] = (),
                  channels: tuple[str, ...] = ("games",), shard: tuple[int, int] | None = None) -> Guild:
        """A guild the bot is in; with ``shard`` (id, count) one whose id falls on that shard."""
        gid = self.snowflake()
        while shard is not None and self.shard_of(gid, shard[1]) != shard[0]:
            gid = self.snowflake()
        guild = Guild(gid, name, self.owner, self.snowflake())
        for cname in channels:
            channel = Channel(self.snowflake(), cname, guild.id)
            guild.channels.append(channel)
            self.channels[channel.id] = channel
        guild.members = {u.id: u for u in members}
        guild.admins = {u.id for u in admins}
        self.guilds[guild.id] = guild
        return guild

    def channel_messages(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel.id and not m.deleted
                and not m.loading and (include_ephemeral or not m.ephemeral)]

    @property
    def command_puts(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "PUT" and r.path.endswith("/commands")]

    @property
    def errors(self) -> list[Recorded]:
        return [r for r in self.requests if r.status >= 400]

    # ------------------------------------------------------------------ faults and waiting
    def fail(self, method: str, path: str, status: int, body: dict[str, Any] | None = None, *,
             headers: dict[str, str] | None = None, times: int = 1,
             when: Callable[[Recorded], bool] | None = None) -> Fault:
        """Answer the next ``times`` requests ``method path`` (a regex) with ``status``."""
        fault = Fault(method, re.compile(path), status, body or {"message": "error", "code": 0},
                      headers or {}, times, when)
        self.faults.append(fault)
        return fault

    def rate_limit(self, method: str, path: str, retry_after: float, *, times: int = 1) -> Fault:
        """A 429 as Discord sends it (Cloudflare's ``Via`` header, ``retry_after`` in seconds)."""
        return self.fail(method, path, 429, {"message": "You are being rate limited.", "retry_after": retry_after,
                                             "global": False},
                         headers={"Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))),
                                  "X-RateLimit-Scope": "user"}, times=times)

    def forbid(self, method: str, path: str, *, times: int = 1,
               when: Callable[[Recorded], bool] | None = None) -> Fault:
        """A 403 Missing Permissions (e.g. files in a channel without Attach Files)."""
        return self.fail(method, path, 403, {"message": "Missing Permissions", "code": 50013}, times=times, when=when)

    @staticmethod
    async def wait_for(predicate: Callable[[], bool], timeout: float = 15.0, what: str = "") -> None:
        """Poll ``predicate`` until it holds (AssertionError after ``timeout`` seconds)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            if loop.time() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ HTTP plumbing
    @web.middleware
    async def _middleware(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        payload, files = await self._read_body(request)
        rec = Recorded(request.method, request.path, dict(request.query), payload, files,
                       request.headers.get("Authorization"), asyncio.get_running_loop().time())
        request[REC] = rec
        self.requests.append(rec)
        fault = next((f for f in self.faults if f.matches(rec)), None)
        if fault is not None:
            fault.hits += 1
            response: web.StreamResponse = jresp(fault.body, status=fault.status, headers=fault.headers)
        elif not self._authorized(request):
            response = discord_error(401, 0, "401: Unauthorized")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = exc
        rec.status = response.status
        if isinstance(response, web.Response) and isinstance(response.body, bytes) and response.body \
                and response.content_type == "application/json":
            rec.response = json.loads(response.body)  # type: ignore[arg-type]
        return response

    def _authorized(self, request: web.Request) -> bool:
        if request.path.startswith((API + "/interactions/", API + "/webhooks/")):
            return True  # the interaction token in the URL is the credential
        return request.headers.get("Authorization") == f"Bot {self.token}"

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[SentFile]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            files: list[SentFile] = []
            reader = await request.multipart()
            async for part in reader:
                data = await part.read(decode=False)  # type: ignore[union-attr]
                if part.name == "payload_json":
                    payload = json.loads(data)
                else:
                    files.append(SentFile(part.name or "", part.filename or "",  # type: ignore[union-attr]
                                          part.headers.get("Content-Type", "application/octet-stream"),
                                          bytes(data)))
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    # ------------------------------------------------------------------ login and commands
    async def _me(self, request: web.Request) -> web.Response:
        return jresp({**self.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US",
                                  "email": None})

    async def _application(self, request: web.Request) -> web.Response:
        return jresp({
            "id": str(self.application_id), "name": self.bot.name, "icon": None, "description": "",
            "summary": "", "type": None, "bot_public": True, "bot_require_code_grant": False,
            "verify_key": "0" * 64, "owner": self.owner.payload(), "team": None, "flags": 0,
            "interactions_endpoint_url": None, "bot": self.bot.payload()})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return jresp({"url": self.gateway_url, "shards": self.shard_count,
                                  "session_start_limit": {"total": 1000, "remaining": 999,
                                                          "reset_after": 14400000, "max_concurrency": 1}})

    def _commands_of(self, request: web.Request) -> list[dict[str, Any]]:
        if int(request.match_info["app"]) != self.application_id:
            raise web.HTTPNotFound()
        guild = request.match_info.get("guild")
        if guild is None:
            return self.global_commands
        if int(guild) not in self.guilds:
            raise web.HTTPForbidden(body=json.dumps({"message": "Missing Access", "code": 50001}).encode(),
                                    headers={"Content-Type": "application/json"})
        return self.guild_commands.setdefault(int(guild), [])

    async def _get_commands(self, request: web.Request) -> web.Response:
        return jresp(self._commands_of(request))

    async def _put_commands(self, request: web.Request) -> web.Response:
        current = self._commands_of(request)
        body = request[REC].json
        problem = _check_commands(body)
        if problem:
            return invalid_form(problem)
        ids = {c["name"]: c["id"] for c in current}
        guild = request.match_info.get("guild")
        registered = []
        for cmd in body:
            registered.append({"type": 1, "default_member_permissions": None, "dm_permission": True, "nsfw": False,
                               "contexts": None, "integration_types": [0], **cmd,
                               "id": ids.get(cmd["name"]) or str(self.snowflake()),
                               "application_id": str(self.application_id), "version": str(self.snowflake()),
                               **({"guild_id": guild} if guild else {})})
        current[:] = registered
        return jresp(registered)

    # ------------------------------------------------------------------ interactions
    def _interaction(self, request: web.Request, *, by: str = "token") -> InteractionRecord:
        if by == "id":
            rec = self.interactions.get(int(request.match_info["id"]))
            if rec is not None and rec.token == request.match_info["token"]:
                return rec
        else:
            if int(request.match_info["app"]) == self.application_id:
                for rec in self.interactions.values():
                    if rec.token == request.match_info["token"]:
                        return rec
        raise web.HTTPNotFound(body=json.dumps({"message": "Unknown Webhook", "code": 10015}).encode(),
                               headers={"Content-Type": "application/json"})

    async def _callback(self, request: web.Request) -> web.Response:
        try:
            inter = self._interaction(request, by="id")
        except web.HTTPNotFound:
            return discord_error(404, 10062, "Unknown interaction")
        now = asyncio.get_running_loop().time()
        if inter.callbacks:
            inter.refused.append((400, "already acknowledged"))
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        if now - inter.created > self.interaction_deadline:
            inter.refused.append((404, "expired"))
            return discord_error(404, 10062, "Unknown interaction")
        rec: Recorded = request[REC]
        body = rec.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        if kind == 8:
            if inter.type != 4:
                return invalid_form("autocomplete results answer autocomplete interactions only")
            problem = _check_choices(data.get("choices"))
            if problem:
                return invalid_form(problem)
            inter.choices = list(data["choices"])
        elif kind in (6, 7) and not (inter.type == 3 or (inter.type == 5 and inter.message is not None)):
            return invalid_form("update callbacks answer component interactions (or their modals) only")
        elif kind == 9:
            if inter.type not in (2, 3):
                return invalid_form("a modal answers a command or a component interaction only")
            modal = _read_modal(data)
            if isinstance(modal, str):
                return invalid_form(modal)
            modal.message = inter.message
            inter.modal = modal
        elif kind == 4:
            problem = _check_message(data, rec.files)
            if problem:
                return problem
            inter.original = self._new_message(inter.channel, data, rec.files, interaction=inter,
                                               flags=int(data.get("flags", 0)))
        elif kind == 5:
            inter.original = self._new_message(inter.channel, {}, [], interaction=inter,
                                               flags=int(data.get("flags", 0)) & EPHEMERAL)
            inter.original.loading = True
        elif kind == 7:
            assert inter.message is not None
            _apply_edit(inter.message, data, rec.files)
        elif kind not in (6, 9):
            return invalid_form(f"unsupported interaction callback type {kind}")
        inter.callbacks.append(Callback(kind, data, now))
        out: dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type,
            "response_message_id": str(inter.original.id) if inter.original else None,
            "response_message_loading": kind == 5, "response_message_ephemeral": bool(
                inter.original and inter.original.ephemeral)}}
        if kind in (4, 5) and inter.original is not None:
            out["resource"] = {"type": kind, "message": inter.original.payload(self.api_base)}
        return jresp(out)

    async def _followup(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        if not inter.callbacks:
            return discord_error(404, 10015, "Unknown Webhook")
        rec: Recorded = request[REC]
        body = rec.json or {}
        problem = _check_message(body, rec.files)
        if problem:
            return problem
        if inter.thinking:
            # Discord: a followup right after a deferred response edits the loading message instead,
            # keeping the defer's ephemeral state
            msg = inter.original
            assert msg is not None
            msg.loading = False
            _apply_edit(msg, body, rec.files)
            msg.edits = 0
        else:
            msg = self._new_message(inter.channel, body, rec.files, interaction=inter,
                                    flags=int(body.get("flags", 0)))
            inter.followups.append(msg)
        return jresp(msg.payload(self.api_base))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        key = request.match_info["message"]
        if key == "@original":
            msg = inter.original
        else:
            msg = next((m for m in inter.followups if m.id == int(key)), None)
            if msg is None and inter.original is not None and inter.original.id == int(key):
                msg = inter.original
        if msg is None or msg.deleted:
            return discord_error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return jresp(msg.payload(self.api_base))
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        if request.method == "PATCH":
            rec: Recorded = request[REC]
            problem = _check_message(rec.json or {}, rec.files, edit=True)
            if problem:
                return problem
            msg.loading = False
            _apply_edit(msg, rec.json or {}, rec.files)
            return jresp(msg.payload(self.api_base))
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    # ------------------------------------------------------------------ channels, pins, DMs, users
    def _channel(self, request: web.Request) -> Channel:
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is None:
            raise web.HTTPNotFound(body=json.dumps({"message": "Unknown Channel", "code": 10003}).encode(),
                                   headers={"Content-Type": "application/json"})
        return channel

    async def _get_channel(self, request: web.Request) -> web.Response:
        return jresp(self._channel(request).payload())

    async def _channel_post(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        rec: Recorded = request[REC]
        body = rec.json or {}
        if channel.guild_id is None and channel.recipient is not None and not channel.recipient.accepts_dms:
            return discord_error(403, 50007, "Cannot send messages to this user")
        problem = _check_message(body, rec.files)
        if problem:
            return problem
        msg = self._new_message(channel, body, rec.files, flags=0)
        return jresp(msg.payload(self.api_base))

    async def _channel_history(self, request: web.Request) -> web.Response:
        """The channel's messages, newest first (``limit`` up to 100, ``before``/``after`` a message id);
        ephemeral ones are never listed."""
        channel = self._channel(request)
        limit = min(100, max(1, int(request.query.get("limit", "50"))))
        before = int(request.query.get("before", str(2**63)))
        after = int(request.query.get("after", "0"))
        shown = [m for m in self.messages.values() if m.channel_id == channel.id and not m.deleted
                 and not m.ephemeral and not m.loading and after < m.id < before]
        shown.sort(key=lambda m: m.id, reverse=True)
        return jresp([m.payload(self.api_base) for m in shown[:limit]])

    def _own_message(self, request: web.Request) -> Message:
        channel = self._channel(request)
        msg = self.messages.get(int(request.match_info["message"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise web.HTTPNotFound(body=json.dumps({"message": "Unknown Message", "code": 10008}).encode(),
                                   headers={"Content-Type": "application/json"})
        return msg

    async def _channel_message(self, request: web.Request) -> web.Response:
        msg = self._own_message(request)
        if request.method == "GET":
            return jresp(msg.payload(self.api_base))
        if msg.author.id != self.bot.id:
            return discord_error(403, 50005, "Cannot edit a message authored by another user")
        if request.method == "PATCH":
            rec: Recorded = request[REC]
            problem = _check_message(rec.json or {}, rec.files, edit=True)
            if problem:
                return problem
            _apply_edit(msg, rec.json or {}, rec.files)
            return jresp(msg.payload(self.api_base))
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    async def _pin(self, request: web.Request) -> web.Response:
        msg = self._own_message(request)
        if request.method not in ("PUT", "DELETE"):
            raise web.HTTPMethodNotAllowed(request.method, ["PUT", "DELETE"])
        msg.pinned = request.method == "PUT"
        return web.Response(status=204)

    async def _open_dm(self, request: web.Request) -> web.Response:
        user = self.users.get(int((request[REC].json or {}).get("recipient_id", 0)))
        if user is None:
            return discord_error(400, 50035, "Invalid Form Body")
        channel = next((c for c in self.channels.values() if c.recipient is user), None)
        if channel is None:
            channel = Channel(self.snowflake(), "", None, recipient=user)
            self.channels[channel.id] = channel
        return jresp(channel.payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user"]))
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        return jresp(user.payload())

    def _new_message(self, channel: Channel, body: dict[str, Any], files: list[SentFile], *,
                     interaction: InteractionRecord | None = None, flags: int = 0) -> Message:
        msg = Message(self.snowflake(), channel.id, channel.guild_id, self.bot, flags=flags & EPHEMERAL,
                      interaction_id=interaction.id if interaction else None,
                      webhook_id=self.application_id if interaction else None,
                      type=20 if interaction and interaction.type == 2 else 0)
        _apply_edit(msg, body, files)
        msg.edits = 0
        self.messages[msg.id] = msg
        return msg

    # ------------------------------------------------------------------ the gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.gateway_connections += 1
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == 1:
                await ws.send_json({"op": 11})
            elif op == 2:
                await self._identify(ws, data)
            elif op == 6:
                await self._resume(ws, data)
            for session in self.sessions.values():
                if session.ws is ws:
                    session.request = request
        for session in self.sessions.values():
            if session.ws is ws:
                session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if self.close_on_identify is not None:
            await ws.close(code=self.close_on_identify, message=b"Disallowed intent(s).")
            return
        shard = (int(data["shard"][0]), int(data["shard"][1])) if data.get("shard") else (0, 1)
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), ws=ws, shard=shard)
        self.sessions[shard[0]] = session
        if shard[0] == 0:
            self.session = session
        guilds = [g for g in self.guilds.values() if self.shard_of(g.id, shard[1]) == shard[0]]
        await self._send_event("READY", {
            "v": 10, "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds], "shard": list(shard),
            "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0}, "private_channels": [],
            "relationships": [], "presences": [], "guild_join_requests": [], "geo_ordered_rtc_regions": []},
            session)
        for guild in guilds:
            await self._send_event("GUILD_CREATE", guild.payload(self.bot), session)

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if session is None or data.get("token") != self.token:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
            return
        self.resumes += 1
        session.ws = ws
        seq = int(data.get("seq") or 0)
        for event in session.events:
            if event["s"] > seq:
                await ws.send_json(event)
        await self._send_event("RESUMED", {}, session)

    @staticmethod
    def shard_of(guild_id: int | None, shard_count: int) -> int:
        """The shard Discord sends a guild's events to (direct messages: shard 0)."""
        return (guild_id >> 22) % shard_count if guild_id is not None else 0

    async def _dispatch(self, channel: Channel, rec: InteractionRecord) -> None:
        """An INTERACTION_CREATE to the session of the channel's shard; when a sharded bot runs no
        session for that shard, nobody receives it (as on Discord: the user sees no answer)."""
        session = self.session_of(channel)
        if session is None and any(s.shard[1] > 1 for s in self.sessions.values()):
            return
        await self._send_event("INTERACTION_CREATE", rec.payload, session)

    def session_of(self, channel: Channel) -> Session | None:
        """The gateway session that receives ``channel``'s events (its guild's shard)."""
        for session in self.sessions.values():
            if self.shard_of(channel.guild_id, session.shard[1]) == session.shard[0]:
                return session
        return None

    async def _send_event(self, name: str, data: dict[str, Any], session: Session | None = None) -> None:
        session = session or self.session
        assert session is not None, "no gateway session: is the bot connected?"
        session.seq += 1
        event = {"op": 0, "t": name, "s": session.seq, "d": data}
        session.events.append(event)
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_json(event)
            except ConnectionError:
                session.ws = None  # missed: replayed when the client resumes

    async def drop_gateway(self, code: int | None = 4000) -> None:
        """Cut the gateway connection: a close frame with ``code`` (Discord sends 4000-range codes
        for resumable failures), with None an abrupt end of the TCP connection, with 7 Discord's
        RECONNECT opcode (the client closes and resumes)."""
        session = self.session
        assert session is not None and session.ws is not None, "no gateway connection to drop"
        ws, session.ws = session.ws, None
        if code == 7:
            await ws.send_json({"op": 7, "d": None, "s": None, "t": None})
        elif code is None:
            transport = session.request.transport if session.request is not None else None
            assert transport is not None
            transport.abort()
        else:
            await ws.close(code=code, message=b"dropped by the stand-in")

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.ws is not None and not self.session.ws.closed

    # ------------------------------------------------------------------ what users do
    def _new_interaction(self, kind: int, user: User, channel: Channel, data: dict[str, Any],
                         message: Message | None = None) -> InteractionRecord:
        guild = self.guilds[channel.guild_id] if channel.guild_id is not None else None
        iid = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}:{secrets.token_urlsafe(32)}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": kind, "data": data,
            "channel_id": str(channel.id), "channel": channel.payload(), "token": token, "version": 1,
            "app_permissions": str(channel.app_permissions), "locale": "en-US", "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
        if guild is not None:
            assert user.id in guild.members, f"{user.name} is not a member of {guild.name}"
            payload.update({"guild_id": str(guild.id), "guild": {"id": str(guild.id), "locale": "en-US",
                                                                  "features": []},
                            "guild_locale": "en-US", "member": guild.member_payload(user, with_permissions=True),
                            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0})
        else:
            payload.update({"user": user.payload(), "authorizing_integration_owners": {"1": str(user.id)},
                            "context": 1})
        if message is not None:
            payload["message"] = message.payload(self.api_base)
        rec = InteractionRecord(iid, token, kind, user, channel, payload, asyncio.get_running_loop().time(),
                                message=message)
        self.interactions[iid] = rec
        return rec

    def _command_schema(self, channel: Channel, name: str) -> dict[str, Any]:
        scoped = self.guild_commands.get(channel.guild_id or 0, [])
        for cmd in [*scoped, *self.global_commands]:
            if cmd["name"] == name:
                return cmd
        raise AssertionError(f"/{name} is not registered with the stand-in (registered: "
                             f"{sorted(c['name'] for c in [*scoped, *self.global_commands])})")

    def command_data(self, channel: Channel, command: str, options: dict[str, Any], *,
                     focused: str | None = None) -> dict[str, Any]:
        """``data`` of an application-command interaction, built from the registered command, with
        option values typed as the command declares them (and checked against its choices)."""
        words = command.split()
        schema = self._command_schema(channel, words[0])
        data: dict[str, Any] = {"id": schema["id"], "name": schema["name"], "type": 1}
        if schema.get("guild_id"):
            data["guild_id"] = schema["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        leaf, holder = schema, data
        for word in words[1:]:
            sub = next((o for o in leaf.get("options", []) if o["name"] == word and o["type"] in (1, 2)), None)
            assert sub is not None, f"/{command}: no subcommand {word!r}"
            entry: dict[str, Any] = {"name": word, "type": sub["type"]}
            holder["options"] = [entry]
            leaf, holder = sub, entry
        specs = {o["name"]: o for o in leaf.get("options", [])}
        out = []
        for name, value in options.items():
            spec = specs.get(name)
            assert spec is not None, f"/{command} has no option {name!r} (it has {sorted(specs)})"
            entry = {"name": name, "type": spec["type"]}
            if name == focused:
                assert spec.get("autocomplete"), f"/{command} {name}: no autocomplete declared"
                entry.update(value=str(value), focused=True)
            elif spec["type"] == 6:
                user = value if isinstance(value, User) else self.users[int(value)]
                entry["value"] = str(user.id)
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                guild = self.guilds.get(channel.guild_id or 0)
                if guild is not None and user.id in guild.members:
                    member = guild.member_payload(user, with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[str(user.id)] = member
            else:
                entry["value"] = OPTION_TYPES[spec["type"]](value)
                if spec.get("choices"):
                    assert entry["value"] in [c["value"] for c in spec["choices"]], \
                        f"/{command} {name}: {value!r} is not one of its choices"
            out.append(entry)
        if focused is None:
            missing = [n for n, s in specs.items() if s.get("required") and n not in options]
            assert not missing, f"/{command}: required options missing: {missing}"
        if out:
            holder["options"] = out
        elif holder is data:
            holder.pop("options", None)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user: User, channel: Channel, command: str,
                    options: dict[str, Any] | None = None) -> InteractionRecord:
        """``user`` runs ``/command`` with ``options`` in ``channel`` (an INTERACTION_CREATE)."""
        rec = self._new_interaction(2, user, channel, self.command_data(channel, command, options or {}))
        await self._dispatch(channel, rec)
        return rec

    async def autocomplete(self, user: User, channel: Channel, command: str, options: dict[str, Any],
                           focused: str, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types option ``focused``."""
        data = self.command_data(channel, command, options, focused=focused)
        rec = self._new_interaction(4, user, channel, data)
        await self._dispatch(channel, rec)
        await self.wait_for(lambda: rec.choices is not None or bool(rec.refused), timeout,
                            f"autocomplete of /{command} {focused}")
        assert rec.choices is not None, rec.refused
        return rec.choices

    async def click(self, user: User, message: Message, label: str | dict[str, Any]) -> InteractionRecord:
        """``user`` clicks the button ``label`` of ``message`` (a MESSAGE_COMPONENT interaction); a
        button (dict) seen on it earlier is clicked as a client not yet refreshed would."""
        button = message.button(label) if isinstance(label, str) else label
        channel = self.channels[message.channel_id]
        rec = self._new_interaction(3, user, channel, {"custom_id": button["custom_id"], "component_type": 2},
                                    message=message)
        await self._dispatch(channel, rec)
        return rec

    async def select(self, user: User, message: Message, menu: dict[str, Any], value: str) -> InteractionRecord:
        """``user`` picks the option ``value`` of the select menu ``menu`` of ``message``."""
        assert value in [o["value"] for o in menu.get("options", [])], f"{value!r} is not offered by {menu}"
        channel = self.channels[message.channel_id]
        rec = self._new_interaction(3, user, channel, {"custom_id": menu["custom_id"], "component_type": 3,
                                                       "values": [value]}, message=message)
        await self._send_event("INTERACTION_CREATE", rec.payload)
        return rec

    async def modal_opened(self, rec: InteractionRecord, timeout: float = 20.0) -> Modal:
        """Wait until ``rec`` is answered with a modal (AssertionError when it is answered otherwise)."""
        await self.wait_for(lambda: rec.answered or bool(rec.refused), timeout, f"an answer to interaction {rec.id}")
        assert rec.modal is not None, f"answered without a modal: {[m.content for m in rec.messages]} {rec.refused}"
        return rec.modal

    async def submit_modal(self, user: User, channel: Channel, modal: Modal,
                           values: dict[str, str]) -> InteractionRecord:
        """``user`` types ``values`` (by text input ``custom_id``) into ``modal`` and submits it (a
        MODAL_SUBMIT interaction, with the message of the component it was opened from). The
        client enforces a required input and the lengths, as Discord's does."""
        fields = []
        for i in modal.inputs:
            value = values.get(i["custom_id"], "")
            assert value or not i.get("required", True), f"{i['custom_id']} is required"
            assert len(value) <= int(i.get("max_length") or 4000), f"{value!r} is longer than {i.get('max_length')}"
            assert len(value) >= int(i.get("min_length") or 0), f"{value!r} is shorter than {i.get('min_length')}"
            typed = {"type": 4, "id": i.get("id", 0), "custom_id": i["custom_id"], "value": value}
            fields.append({"type": 18, "id": i["label_id"], "component": typed} if "label_id" in i
                          else {"type": 1, "id": 0, "components": [typed]})
        assert set(values) <= {i["custom_id"] for i in modal.inputs}, f"{values} are not all inputs of {modal.inputs}"
        rec = self._new_interaction(5, user, channel, {"custom_id": modal.custom_id, "components": fields},
                                    message=modal.message)
        await self._dispatch(channel, rec)
        return rec

    async def answered(self, rec: InteractionRecord, timeout: float = 20.0) -> Message:
        """Wait until ``rec`` is answered (not "thinking..."); its first visible message."""
        await self.wait_for(lambda: rec.answered or bool(rec.refused), timeout, f"an answer to interaction {rec.id}")
        return rec.answer


def _apply_edit(msg: Message, body: dict[str, Any], files: list[SentFile]) -> None:
    if "content" in body:
        msg.content = body["content"] or ""
    if "components" in body:
        msg.components = body["components"] or []
    if "allowed_mentions" in body:
        msg.allowed_mentions = body["allowed_mentions"]
    if files or "attachments" in body:
        kept = [f for f in msg.files if any(str(a.get("id")) == f.field for a in body.get("attachments") or [])]
        msg.files = kept + files
    msg.edits += 1


def _check_message(body: dict[str, Any], files: list[SentFile], *, edit: bool = False) -> web.Response | None:
    """Discord's documented limits for a message body; None when it is acceptable."""
    content = body.get("content") or ""
    if len(content) > 2000:
        return invalid_form("content: Must be 2000 or fewer in length.")
    if not edit and not content.strip() and not files and not body.get("embeds") and not body.get("components") \
            and not body.get("sticker_ids"):
        return discord_error(400, 50006, "Cannot send an empty message")
    if len(files) > 10:
        return invalid_form("files: Must be 10 or fewer in length.")
    if any(len(f.data) > ATTACHMENT_SIZE_LIMIT for f in files):
        return discord_error(413, 40005, "Request entity too large")
    am = body.get("allowed_mentions")
    if am is not None:
        parse = am.get("parse") or []
        if not set(parse) <= {"users", "roles", "everyone"}:
            return invalid_form("allowed_mentions.parse: unknown value")
        if ("users" in parse and am.get("users")) or ("roles" in parse and am.get("roles")):
            return invalid_form("allowed_mentions: parse and a list are mutually exclusive")
    rows = body.get("components") or []
    if len(rows) > 5:
        return invalid_form("components: Must be 5 or fewer in length.")
    seen: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            return invalid_form("components: an action row holds 1 to 5 components")
        for item in items:
            cid = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") != 5:
                if not cid or len(cid) > 100 or cid in seen:
                    return invalid_form("custom_id: 1 to 100 characters, unique in the message")
                seen.add(cid)
            if len(item.get("label") or "") > 80:
                return invalid_form("label: Must be 80 or fewer in length.")
            if item.get("type") == 3:
                problem = _check_select(item, len(items))
                if problem:
                    return invalid_form(problem)
                if cid in seen:
                    return invalid_form("custom_id: unique in the message")
                seen.add(cid)
    return None


def _check_select(item: dict[str, Any], in_row: int) -> str | None:
    """A string select: alone in its row, 1 to 25 options with unique values, Discord's lengths."""
    if in_row != 1:
        return "components: a select menu fills its action row"
    cid = item.get("custom_id") or ""
    if not 1 <= len(cid) <= 100:
        return "custom_id: 1 to 100 characters"
    if len(item.get("placeholder") or "") > 150:
        return "placeholder: Must be 150 or fewer in length."
    options = item.get("options") or []
    if not 1 <= len(options) <= 25:
        return "options: Must be between 1 and 25 in length."
    values = [o.get("value") or "" for o in options]
    if len(set(values)) != len(values):
        return "options: values must be unique"
    for o in options:
        if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
            return "options: label and value 1 to 100 characters"
        if len(o.get("description") or "") > 100:
            return "options.description: Must be 100 or fewer in length."
    return None


def _read_modal(data: dict[str, Any]) -> Modal | str:
    """A modal callback's data by Discord's documented rules (title 1-45 characters, custom_id
    1-100, 1 to 5 components: a Label (type 18, text 1-45) holding a text input (type 4), or the
    older action row holding one); the problem when it breaks one."""
    title, cid = data.get("title") or "", data.get("custom_id") or ""
    if not 1 <= len(title) <= 45:
        return "title: Must be between 1 and 45 in length."
    if not 1 <= len(cid) <= 100:
        return "custom_id: Must be between 1 and 100 in length."
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        return "components: Must be between 1 and 5 in length."
    inputs: list[dict[str, Any]] = []
    for row in rows:
        if row.get("type") == 18:
            label, item = row.get("label") or "", row.get("component") or {}
            item = {**item, "label": label, "label_id": row.get("id", 0)}
        elif row.get("type") == 1 and len(row.get("components") or []) == 1:
            item = row["components"][0]
            label = item.get("label") or ""
        else:
            return "components: a Label or an action row holding one text input"
        if item.get("type") != 4:
            return "components: only text inputs are read here"
        if not 1 <= len(label) <= 45:
            return "label: Must be between 1 and 45 in length."
        if not 1 <= len(item.get("custom_id") or "") <= 100 or item.get("style") not in (1, 2):
            return "text input: custom_id 1 to 100 characters, style 1 or 2"
        if len(item.get("placeholder") or "") > 100:
            return "placeholder: Must be 100 or fewer in length."
        inputs.append(item)
    if len({i["custom_id"] for i in inputs}) != len(inputs):
        return "custom_id: unique in the modal"
    return Modal(title, cid, inputs)


def _check_choices(choices: Any) -> str | None:
    if not isinstance(choices, list) or len(choices) > 25:
        return "choices: Must be 25 or fewer in length."
    for c in choices:
        name, value = c.get("name"), c.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            return "choices.name: Must be between 1 and 100 in length."
        if isinstance(value, str) and len(value) > 100:
            return "choices.value: Must be 100 or fewer in length."
    return None


def _check_commands(body: Any) -> str | None:
    """Discord's rules for registered chat-input commands (names, descriptions, option order)."""
    if not isinstance(body, list) or len(body) > 100:
        return "at most 100 commands"
    names = [c.get("name") for c in body]
    if len(set(names)) != len(names):
        return "command names must be unique"

    def options_ok(options: list[dict[str, Any]], where: str) -> str | None:
        if len(options) > 25:
            return f"{where}: at most 25 options"
        required_done = False
        for o in options:
            if not NAME_RE.match(o.get("name", "")):
                return f"{where}: bad option name {o.get('name')!r}"
            if not 1 <= len(o.get("description", "")) <= 100:
                return f"{where} {o['name']}: description must be 1-100 characters"
            if o.get("type") in (1, 2):
                problem = options_ok(o.get("options") or [], f"{where} {o['name']}")
                if problem:
                    return problem
                continue
            if o.get("required") and required_done:
                return f"{where} {o['name']}: required options must come before optional ones"
            if not o.get("required"):
                required_done = True
            if len(o.get("choices") or []) > 25:
                return f"{where} {o['name']}: at most 25 choices"
            if o.get("choices") and o.get("autocomplete"):
                return f"{where} {o['name']}: choices and autocomplete are exclusive"
        return None

    for c in body:
        if not NAME_RE.match(c.get("name", "")):
            return f"bad command name {c.get('name')!r}"
        if not 1 <= len(c.get("description", "")) <= 100:
            return f"/{c['name']}: description must be 1-100 characters"
        problem = options_ok(c.get("options") or [], "/" + c["name"])
        if problem:
            return problem
    return None
