"""A running game in words and buttons: the status text (the pinned message), the result, a
programmed move, what the caller can do now, the one-click decision buttons, and finding a seat by
name. Pure: no store, no Discord.
"""

from __future__ import annotations

from engine import actions as A
from engine.decisions import round_title
from engine.game import Game

from .acting import waiting_for
from .play import allowed_commands
from .reply import Button, Caller, UserError
from .store_rows import GameRow, Seat


def find_seat(seats: list[Seat], key: str) -> Seat:
    key = key.strip()
    if not key:
        raise UserError("Give seat: a seat name (" + ", ".join(s.name for s in seats) + ")")
    for s in seats:
        if key.lower() in (s.name.lower(), str(s.player_id).lower(), str(s.position + 1)):
            return s
    raise UserError(f"There is no seat {key!r}; seats: " + ", ".join(s.name for s in seats))


def decision_buttons(game: Game, state: int) -> list[Button]:
    """One-click decisions for the acting entity: pass, payout/withhold, suggested routes."""
    out: list[Button] = []
    for e in game.acting()[:1]:
        types = game.action_types(e)
        if "dividend" in types:
            kinds = game.dividend_kinds(game.corporations[e])
            for kind in kinds:
                out.append(Button(kind.capitalize(), f"/dividend kind:{kind} state:{state}", "primary"))
        if "run_routes" in types:
            out.append(Button("Run suggested routes", f"/routes routes:auto state:{state}", "success"))
        if "pass" in types:
            out.append(Button("Pass", f"/pass state:{state}"))
    return out


def you_can(game: Game, seats: list[Seat], caller: Caller) -> list[str]:
    mine = {s.player_id for s in seats if s.user_id == caller.id}
    if not mine:
        return ["You hold no seat here."]
    out = []
    for e in game.acting():
        if game.controller_of(e) in mine:
            cmds = allowed_commands(game, e)
            out.append(f"You act for {game.name_of(e)}: " + (", ".join(cmds) or "nothing now"))
    return out or ["It is not your turn."]


def status_text(row: GameRow, game: Game, seats: list[Seat], state: int) -> str:
    head = (
        f"**{row.title}** game {row.id} · {round_title(game)} · phase {game.phase['name']}"
        f" · bank {game.fmt(game.bank)} · move {state}"
    )
    holders = {s.player_id: s for s in seats}
    players = " · ".join(f"{p.name} {game.fmt(p.cash)}" + _seat_note(holders.get(p.id)) for p in game.players)
    now = "Game over: " + ", ".join(result_lines(game)) if game.finished else "Now " + waiting_for(game)
    lines = [head, players, now]
    if game.programs and not game.finished:
        lines.append(
            "Programmed moves: "
            + "; ".join(
                f"{game.name_of(pid)}: {describe_program(game, prog)}"
                for pid, prog in sorted(game.programs.items())
            )
        )
    return "\n".join(lines)


def _seat_note(seat: Seat | None) -> str:
    if seat is not None and seat.conceded:
        return " (conceded: automatic)"
    return "" if seat is not None and seat.user_id else " (free seat)"


def describe_program(game: Game, prog: A.Action) -> str:
    """A programmed stock-round move in words (``game.programs`` values)."""
    if isinstance(prog, A.ProgramSharePass):
        text = "auto-pass in stock rounds"
        if prog.unconditional:
            text += ", even after others sell"
        text += " (this and later stock rounds)" if prog.indefinite else " (this stock round)"
        return text
    if isinstance(prog, A.ProgramBuyShares):
        until = prog.until_condition
        goal = "until it floats" if until == "float" else f"until holding {until}%"
        market = " (IPO or market)" if prog.from_market else " (from the IPO)"
        return f"auto-buy {prog.corporation} {goal}{market}"
    return prog.type


def result_lines(game: Game) -> list[str]:
    ranked = sorted(game.result().items(), key=lambda kv: -kv[1])
    return [
        f"Result ({game.end_reason}): " + ", ".join(f"{game.name_of(pid)} {game.fmt(v)}" for pid, v in ranked)
    ]
