"""The story of a game: what one action did, in the game's own words and currency, and who acts
next. The Discord reply, the terminal and ``conductor replay --story`` all tell it with
:func:`tell` (or its two halves, :func:`action_lines` and :func:`closing_lines`), so a player
reads the same facts everywhere: the engine's log lines for the action (dividends with the
amount per share, price moves, tiles and tokens with their hex, trains, phases, rusting,
presidencies, loans, interest, private income, rounds...) plus the runs, which the engine keeps
in the round's state rather than its log.

Use: ``mark = story.mark(game, action)`` before ``game.process(action)``, then
``story.tell(game, action, mark, who)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine import actions as A
from engine.entities import a_train
from engine.game import Game
from engine.moves import command_for
from engine.rounds.operating import OperatingRound

from .turns import credited, fallback_line, new_turn, next_line, round_banner, turn_key


@dataclass(frozen=True)
class Mark:
    """What the story needs from before the action: where the log stood, the round and turn,
    and how to name the move if the engine logs nothing for it."""

    log_len: int
    round_key: tuple[Any, ...] | None
    turn_key: tuple[Any, ...]
    fallback: str
    loans_ended: bool = False  # no loans were given any more (the national had formed)


def mark(game: Game, action: A.Action) -> Mark:
    """Taken just before ``action`` is processed."""
    return Mark(
        log_len=len(game.log),
        round_key=game.round_key() if game.round is not None else None,
        turn_key=turn_key(game),
        fallback=fallback_line(game, action.entity, action.type, command_for(game, action.entity, action.type)),
        loans_ended=game.loans_ended() is not None,
    )


def run_lines(game: Game, action: A.Action) -> list[str]:
    """ "GW runs a 2-train for $70: C14-B13", one line per train, and the total when several
    trains ran; "GW runs no train" for an empty run."""
    if action.type != "run_routes":
        return []
    runs = game.round.state.get("routes") if isinstance(game.round, OperatingRound) else None
    if runs is None:
        return []
    name = game.name_of(action.entity)
    out = []
    for r in runs:
        tid = str(r.get("train", ""))
        train = game.trains.get(tid)
        label = train.name if train is not None else tid.split("-")[0]
        stops = "-".join(dict.fromkeys(str(s[0]) for s in r.get("stops", []) if s))
        out.append(f"{name} runs {a_train(label)} for {game.fmt(int(r.get('revenue', 0)))}"
                   + (f": {stops}" if stops else ""))
    total = sum(int(r.get("revenue", 0)) for r in runs)
    if not runs:
        out.append(f"{name} runs no train")
    elif len(runs) > 1:
        out.append(f"{name} runs for {game.fmt(total)} in all")
    return out


_ROUND = re.compile(r"^-- ((?:Stock|Operating|Auction|Takeover) Round.*) --$")


def wording(line: str) -> str:
    """A log line as the channel shows it: "-- Stock Round 2 --" reads "Stock Round 2 begins"."""
    m = _ROUND.match(line)
    return f"{m[1]} begins" if m else line


_NO_MOVE = " has no valid actions and passes"


_PRICE = re.compile(r"^(.+)'s share price moves (\w+) from (.+) to (.+)$")


def compact(lines: list[str]) -> list[str]:
    """Players passed in a row for lack of any move are told in one line: "Player 3, Player 4
    and Player 1 have no valid actions and pass"; a price moving several steps the same way in a
    row too: "GT's share price moves down from $125 to $110, then to $100"."""
    out: list[str] = []
    run: list[str] = []
    last_move: tuple[str, str, str] | None = None  # corporation, direction, price reached
    for line in lines:
        m = _PRICE.match(line)
        if m and out and last_move == (m[1], m[2], m[3]):
            out[-1] += f", then to {m[4]}"
            last_move = (m[1], m[2], m[4])
            continue
        last_move = (m[1], m[2], m[4]) if m else None
        out.append(line)
    lines, out = out, []

    def flush() -> None:
        if len(run) == 1:
            out.append(run[0] + _NO_MOVE)
        elif run:
            out.append(", ".join(run[:-1]) + f" and {run[-1]} have no valid actions and pass")
        run.clear()

    for line in lines:
        if line.endswith(_NO_MOVE):
            run.append(line[: -len(_NO_MOVE)])
            continue
        flush()
        out.append(line)
    flush()
    return out


def action_lines(game: Game, action: A.Action, before: Mark, who: str) -> list[str]:
    """What ``action`` did (it has been processed), with ``who`` (the person who typed it)
    named on the line that reports the move."""
    if isinstance(action, A.Message):  # chat kept in an 18xx.games export
        return [f'{game.name_of(action.entity)} says: "{action.message}"']
    logged = compact([wording(line) for line in game.log[before.log_len:]])
    company = game.companies.get(action.entity)
    # a private's move is told as its corporation's: "CPR (WSRC) places a token on I12"
    entity = company.owner if company is not None and company.owner in game.corporations else action.entity
    lines = [*run_lines(game, action), *logged]
    ended = game.loans_ended()
    if ended and not before.loans_ended:  # the national's formation: told once, when it happens
        lines.append(f"Loans end: {ended} (/loan is refused from now on)")
    return credited(lines, game, entity or action.entity, who, before.fallback, action.type)


def skipped_lines(game: Game, action: A.Action, before: Mark, reason: str) -> list[str]:
    """A move the bot made for an entity that had nothing to choose (a pass where nothing can be
    done, a discard among alike trains): ``reason`` in place of the line reporting the move,
    then what followed from it (the next turn, a new round...)."""
    marker = MOVER  # nobody typed the move
    out = [reason]
    for line in action_lines(game, action, before, marker):
        if marker not in line:
            out.append(line)
        elif line.startswith("-- "):  # a banner that also reports the pass: kept, unmarked
            out.append(line.replace(f" ({marker})", ""))
    return out


MOVER = "\x00"  # stands for who made a move in its story (an automatic seat's: the computer player)


def move_words(game: Game, action: A.Action) -> str | None:
    """The line that reported ``action`` when it was made ("Player 1 buys FT (Flos Tramway) for
    $20", "CA lays tile #58 with rotation 1 on D19"), without who typed it; ``game`` is the game
    just before it, left as it is. None when the game refuses it there."""
    before = mark(game, action)
    told = game.preview(action, lambda after: action_lines(after, action, before, MOVER))
    line = next((line for line in told or () if MOVER in line), None)
    if line is None:
        return None
    if action.type == "run_routes":  # several trains: their total, not the first train's run
        line = next((line for line in told or () if line.endswith(" in all")), line)
    line = line.replace(f" ({MOVER})", "").replace(MOVER, "")
    return line[3:-3] if line.startswith("-- ") and line.endswith(" --") else line


def robot_lines(told: list[str], name: str, reason: str) -> list[str]:
    """The story of an automatic seat's move (``told``, with :data:`MOVER` for the mover), every
    fact kept: the line reporting the move says why ("RR buys a 3+3-train for $230 from the
    depot: it must own one to run"); ``reason`` alone when no line reports it."""
    why = reason.split(": ", 1)[1] if ": " in reason else ""
    if not why and reason.endswith(")") and " (" in reason:
        why = reason[reason.rindex(" (") + 2:-1]
    out: list[str] = []
    reported = False
    for line in told:
        if MOVER in line:
            line = line.replace(f" ({MOVER})", "").replace(MOVER, "computer player")
            if not reported and why:
                line += f": {why}"
            reported = True
        out.append(f"🤖 {line}")
    if not reported:
        out.insert(0, f"🤖 {name} {reason}")
    return out


def closing_lines(
    game: Game, before: Mark | None, told: Iterable[str] = (), seats: Iterable[Any] = (), actor: str | None = None
) -> list[str]:
    """The end of a reply: the new round when the lines ``told`` did not announce it, and who
    acts next and with which commands."""
    out = []
    told = list(told)
    if not any(" Round " in line and line.endswith(" begins") for line in told):
        banner = round_banner(before.round_key if before else None, game)
        if banner:
            out.append(banner)
    out.append(next_line(game, seats, actor, fresh_turn=new_turn(game, before.turn_key if before else None)))
    return out


def tell(
    game: Game, action: A.Action, before: Mark, who: str, seats: Iterable[Any] = (), actor: str | None = None
) -> list[str]:
    """The whole story of one action: what it did, then who acts next."""
    lines = action_lines(game, action, before, who)
    return [*lines, *closing_lines(game, before, lines, seats, actor)]


def opening(game: Game) -> list[str]:
    """Before the first action: the optional rules in play and the starting phase."""
    rules = [f"* {r.get('short_name', r['sym'])}: {r.get('desc', '')}".rstrip(": ")
             for r in game.rules.optional_rules if r.get("sym") in game.optional_rules]
    return [*rules, *(wording(line) for line in game.log)]


def setup_lines(game: Game) -> list[str]:
    """The story of the set-up: :func:`opening`, and who starts."""
    return [*opening(game), next_line(game)]


def export_story(export: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    """Replay an 18xx.games export and tell its story: ``{"id": 0, "lines": set-up}`` and then
    ``{"id": action id, "lines": [...]}`` per processed action, the lines the bot posts for it
    (the player who controls the acting entity is named as the one who typed it). Stops at the
    first rejected action; its reason is returned."""
    from engine.errors import GameError
    from engine.replay import filter_actions, game_from_export

    game = game_from_export(export)
    game.live = False
    out: list[dict[str, Any]] = [{"id": 0, "lines": setup_lines(game)}]
    for raw in filter_actions(export.get("actions", [])):
        try:
            action = A.Action.from_dict(raw)
            before = mark(game, action)
            who = game.name_of(game.controller_of(action.entity) or action.entity)
            actor = game.controller_of(action.entity)
            game.process(action, safe=False)
        except (GameError, ValueError, KeyError, AssertionError) as exc:
            return out, f"action {raw.get('id')} rejected: {exc}"
        out.append({"id": raw.get("id"), "lines": tell(game, action, before, who, actor=actor)})
    return out, None


def fit(lines: list[str], limit: int = 1900) -> list[str]:
    """``lines`` within ``limit`` characters (a Discord message holds 2000): when too long, the
    lines in the middle give way to "... (N more lines)" so that who acts next, the last line,
    is always shown."""
    if sum(len(line) + 1 for line in lines) <= limit or len(lines) < 3:
        return lines
    tail = lines[-1]
    head: list[str] = []
    used = len(tail) + 40
    for line in lines[:-1]:
        if used + len(line) + 1 > limit:
            break
        head.append(line)
        used += len(line) + 1
    return [*head, f"... ({len(lines) - 1 - len(head)} more lines)", tail]
