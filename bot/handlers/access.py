"""Who may do what (the README's authorization table), decided from the caller alone.

The host is the user who opened or imported the game; a server admin is a member with Manage
Server or Administrator (``Caller.admin``). Server admins may restrict opening games (``/game
new``, ``/game import``) to members of one role with ``/creators``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reminders import DAY, ReminderSettings
from ..reply import Caller, Reply, UserError
from ..storage.rows import GameRow, Seat

if TYPE_CHECKING:
    from ..service import GameService

EVERYONE = ("everyone", "anyone", "all", "off", "none")


def require_host(row: GameRow, caller: Caller, what: str) -> None:
    if caller.id != row.host_id and not caller.admin:
        raise UserError(f"Only the host or a server admin can {what}")


def may_hand_over(
    row: GameRow, seat: Seat, caller: Caller, silent: float, settings: ReminderSettings
) -> bool:
    """Whether ``caller`` may give ``seat`` to someone else at once: its holder always, a server
    admin always, the host only when nobody plays it (free or conceded) or its holder has been
    silent for the game's ``sub_days``. Anyone else needs a vote (``/game sub``)."""
    if seat.user_id == caller.id or caller.admin:
        return True
    if caller.id != row.host_id:
        return False
    return seat.user_id is None or seat.conceded or silent >= settings.sub_days * DAY


def seat_silence(service: GameService, row: GameRow, seat: Seat) -> float:
    """Seconds since the seat's holder last acted (or since the game started)."""
    return service.now() - (seat.last_action_at or row.started_at or row.created_at)


async def may_create(service: GameService, caller: Caller) -> None:
    """``/game new`` and ``/game import``: refused when the server restricts them to a role the
    caller does not have (admins always may)."""
    if caller.admin or caller.guild is None:
        return
    role = await service.store.creator_role(caller.guild)
    if role is not None and role not in caller.roles:
        raise UserError(
            f"On this server only members with the role {_role(role)} (and server admins) open games"
        )


def _role(role: str) -> str:
    return f"<@&{role}>" if role.isdigit() else role


async def creators(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """``/creators [role:ROLE|everyone]``: who may open games on this server (admins set it)."""
    if caller.guild is None:
        raise UserError("This is a server setting; use it in a server channel")
    role = (params.get("role") or "").strip()
    current = await service.store.creator_role(caller.guild)
    if not role:
        who = f"members with the role {_role(current)} and server admins" if current else "everyone"
        return Reply(
            lines=[f"On this server {who} may open games (/game new, /game import)."], ephemeral=True
        )
    if not caller.admin:
        raise UserError("Only a server admin can choose who may open games")
    new = None if role.lower() in EVERYONE else role
    await service.store.set_creator_role(caller.guild, new)
    shown = (params.get("role_name") or "").strip() or _role(role)
    if new is None:
        return Reply(lines=[f"{caller.name}: everyone on this server may open games again"])
    return Reply(
        lines=[
            f"{caller.name}: from now on only members with the role {shown} (and server admins) "
            "may open games on this server"
        ]
    )
