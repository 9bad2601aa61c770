"""A real game as the commands its players type: an 18xx.games export split into a position to
import and the command lines that follow it, each with the player who sends it.

Used by the load-and-fault tests and by ``bench/bench_load.py``: many channels play the same
real game concurrently, so every command is legal and has one right sender.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.terminal.textcmd import action_to_command, parse
from engine import actions as A
from engine.moves import only_pass
from engine.replay import filter_actions, replay


@dataclass(frozen=True)
class Step:
    pid: str  # the player who must send it
    line: str  # "/lay hex:J15 tile:57-0 rotation:0"


def script(export: dict[str, Any], start: int, count: int | None = None) -> tuple[dict[str, Any], list[Step]]:
    """The export cut after ``start`` actions (to import), and the next ``count`` actions as
    commands (chat messages, the final ``end_game`` and the passes the bot makes itself for steps
    where nothing can be done left out)."""
    acts = [a for a in filter_actions(export["actions"]) if a.get("type") != "end_game"]
    head = {**export, "actions": acts[:start]}
    game = replay(head).game
    steps: list[Step] = []
    for raw in acts[start:None if count is None else start + count]:
        line = action_to_command(raw)
        entity = str(raw.get("entity"))
        if steps and raw["type"] == "pass" and only_pass(game) == entity:
            line = None  # after a move made in the bot, the bot passes where nothing can be done
        if line is not None:
            steps.append(Step(str(game.controller_of(entity) or entity), line))
        game.process(A.Action.from_dict(raw), safe=False)
    return head, steps


def user_of(pid: str) -> str:
    """The user who holds player ``pid``'s seat in these scripts."""
    return "u-" + pid.replace(" ", "").lower()


async def send(layer: CommandLayer, channel: str, user: str, line: str, guild: str | None = None,
               name: str | None = None) -> Reply:
    """``line`` sent by ``user``; a purchase from another player is an offer, which its seller
    accepts at once (the recorded game's players agreed): the seller's reply is returned then. A
    move asked first (it ends the game by a bankruptcy) is confirmed: the recorded game made it."""
    cmd = parse(line)
    reply = await layer.handle(channel, Caller(user, name or user, guild=guild), cmd.name, cmd.params)
    confirm = next((b.command for b in reply.buttons if " confirm:yes state:" in b.command), None)
    if confirm is not None and reply.ephemeral and cmd.params.get("confirm") != "yes":
        return await send(layer, channel, user, confirm, guild, name)
    offer = offer_of(reply)
    if offer is not None:
        reply = await send(layer, channel, offer[0], offer[1], guild)
    return reply


def offer_of(reply: Reply) -> tuple[str, str] | None:
    """The seller's user and the command accepting, when ``reply`` is an offer to buy from another
    player (:mod:`bot.handlers.offers`); else None."""
    accept = next((b.command for b in reply.buttons
                   if b.command.startswith("/game offer ") and b.command.endswith(" vote:yes")), None)
    return (reply.heads_up[0][0], accept) if accept is not None and reply.heads_up else None


def offer_in(printed: list[str]) -> tuple[str, str] | None:
    """:func:`offer_of` read off a local session's printed reply ("@user ..." lines, "[button ...] command")."""
    accept = next((ln.split("] ", 1)[1] for ln in printed
                   if ln.startswith("[button ") and "] /game offer " in ln and ln.endswith(" vote:yes")), None)
    seller = next((ln[1:].split(" ", 1)[0] for ln in printed if ln.startswith("@") and " offers " in ln), None)
    return (seller, accept) if accept is not None and seller is not None else None


async def set_up(layer: CommandLayer, channel: str, head: dict[str, Any], guild: str | None = None) -> None:
    """Import ``head`` in ``channel`` (by the first player's user) and let every user claim a seat."""
    pids = [str(p.get("id", p["name"])) for p in head["players"]]
    host = Caller(user_of(pids[0]), "Host", guild=guild)
    reply = await layer.handle(channel, host, "game import", {"file": json.dumps(head)})
    assert reply.ok, reply.error
    for pid in pids:
        reply = await send(layer, channel, user_of(pid), f'/game claim seat:"{pid}"', guild)
        assert reply.ok, reply.error
