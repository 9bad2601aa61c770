"""Who acts next and what they do, in words: the ``next:`` line every game reply ends with,
the round banner when a round begins, and which game-log line the acting player is credited on.

Rounds are named as 18xx.games names them (:func:`engine.decisions.round_title`), the same
text the status picture shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.choice import per_position
from engine.decisions import acting_entities, action_types, bid_obstacle, round_title
from engine.entities import listed
from engine.game import Game
from engine.moves import command_for
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import AuctionRound, StockRound

from ..play import allowed_commands, choosable, in_trouble, offered_commands, train_shortfall
from ..storage.rows import Seat
from .summary import why_over

_DONE_WORDS = {"bankrupt": "declares bankruptcy", "end_game": "ends the game"}
ALWAYS_OPEN = ("/bankrupt",)  # left out of the next: line (/moves and /help list it)
_STOCK_WORDS = {"buy_shares": "buy a share", "par": "start a corporation", "sell_shares": "sell shares"}


def activity(game: Game, entity: str, *, first: bool = True) -> str:
    """What ``entity`` is asked to do now, as a verb phrase: "lay track", "bid on GLSC (at least
    $95) or pass", "buy a share, sell shares or pass"; worked out once per position (a reply's
    turn line, its next: line and its fallback ask). ``first``: with what the step waits for
    ("lay track (first issue shares) or pass"; not in the line that reports a pass)."""
    return per_position(game, ("activity", entity, first), lambda: _activity(game, entity, first))


def _activity(game: Game, entity: str, first: bool) -> str:
    rnd = game.round
    if isinstance(rnd, AuctionRound):
        if rnd.companies and (held := bid_obstacle(game, entity)):
            return f"pass ({held})"
        if rnd.auctioning:
            return f"bid on {rnd.auctioning} (at least {game.fmt(rnd.min_bid(rnd.auctioning))}) or pass"
        if rnd.companies:
            cheapest = rnd.companies[0].sym
            others = ", bid on another private," if len(rnd.companies) > 1 else ""
            return f"buy {cheapest} for {game.fmt(rnd.min_bid(cheapest))}{others} or pass"
        return "pass"
    if isinstance(rnd, StockRound):
        if entity == rnd.waiting_on:  # (a closing left them nothing to do: 18xx.games stops here)
            return "pass (nothing is left to do after the closing)"
        types = action_types(game, entity)
        offered = set(offered_commands(game, entity))  # (no "sell shares" when none may be sold)
        words = [_STOCK_WORDS[t] for t in types if t in _STOCK_WORDS and f"/{command_for(game, entity, t)}" in offered]
        done = "end the turn" if rnd.turn_actions else "pass"
        if "pass" not in types and "discard_train" in types and entity in game.corporations:
            # (1833NE: a takeover took the acquirer over its train limit)
            return f"discard a train (it may keep {game.corp_train_limit(game.corporations[entity])})"
        return listed([*words, done], "or") if "pass" in types else listed(words, "or") or "wait"
    if isinstance(rnd, OperatingRound):
        if entity in game.companies:  # a private of the operating corporation (its ability)
            return "use its ability"
        step = rnd.active_step()
        what = step.describe(entity) if step is not None else "operate"
        corp = game.corporations.get(entity)
        if corp is not None and what == "buy trains" and game.must_buy_train(corp):
            short = shortfall_text(game, entity)
            what += f" (it must own a train{'; ' + short if short else ''})"
        if corp is not None and corp is rnd.corp:
            what += excess_loans_text(game, corp.sym)
        before = step.waits_for(entity) if step is not None and first else []
        before = [b for b in before if b not in what]  # (not what the shortfall already says)
        if step is not None and before:  # the step waits on something to do first (1833NE: money for a lay)
            return f"{what} (first {listed(before, 'or')})" + (" or pass" if "pass" in step.actions(entity) else "")
        return what
    pending = rnd.pending if rnd is not None else None  # an offer awaits an answer
    if pending and entity == pending[1]:
        return f"accept the takeover offered by {pending[0]}, or pass to refuse it"
    if "takeover" in action_types(game, entity):  # (1833NE's takeover round)
        return "offer to take over a corporation its track reaches, or pass"
    return f"act in the {round_title(game)}" if rnd is not None else "wait"


def excess_loans_text(game: Game, sym: str) -> str:
    """ "; GW has 3 loans, 2 allowed: it repays 1 ($100) as its turn ends, Player 1 paying what
    its treasury lacks" (1856: more loans than 10% shares in players' hands are repaid when the
    turn ends; what a train bought leaves in the treasury may not cover it); "" otherwise."""
    corp = game.corporations[sym]
    allowed = game.maximum_loans(corp)
    if not game.loan_value or corp.loans <= allowed:
        return ""
    excess = corp.loans - allowed
    president = f", {game.name_of(corp.president)} paying what its treasury lacks" if corp.president else ""
    return (f"; {sym} has {corp.loans} loans, {allowed} allowed: it repays {excess} "
            f"({game.fmt(excess * game.loan_value)}) as its turn ends{president}")


def shortfall_text(game: Game, entity: str) -> str:
    """How the train the corporation must buy can be paid for, when neither it nor its president
    has the money: "Player 2 must first sell shares to raise the $397 missing for a 6-train
    ($700)", or that nothing can raise it (then only bankruptcy is left); "" otherwise."""
    short = train_shortfall(game, entity)
    if short is None:
        return ""
    lacking = f"the {game.fmt(short.missing)} missing for a {short.train}-train ({game.fmt(short.price)})"
    if not short.raise_with:
        return f"nothing can raise {lacking}"
    president = game.name_of(game.corporations[entity].president or "")
    ways = [{"/sell": f"{president} must first sell shares", "/loan": "take a loan",
             "/issue": "issue shares"}.get(c, c) for c in short.raise_with]
    return f"{listed(ways, 'or')} to raise {lacking}"


def acting_parts(
    game: Game, seats: Iterable[Seat] = (), actor: str | None = None, fresh_turn: bool = False
) -> list[str]:
    """ "carol for GW, lay track (/loan, /lay, /pass)" for each acting entity. ``actor`` (the
    player who just acted) gets "again" when a new turn of theirs begins (``fresh_turn``)."""
    notes = {s.player_id: _seat_note(s) for s in seats}
    parts = []
    for e in acting_entities(game):
        ctrl = game.controller_of(e)
        who = game.name_of(ctrl or e) + notes.get(ctrl, "")
        if fresh_turn and ctrl is not None and ctrl == actor:
            who += " again"
        if ctrl and ctrl != e:
            who += f" for {game.name_of(e)}"
        cmds = offered_commands(game, e)
        if len(cmds) > 1 and not in_trouble(game, e):  # always open in 1856's operating rounds:
            # not what the step asks for, unless nothing else can find the money
            cmds = [c for c in cmds if c not in ALWAYS_OPEN]
        # the step's own command with nothing to choose now is named as such ("no /token possible
        # now": no city has room), so the activity does not read as an order that cannot be followed
        step_commands = _step_commands(game, e)
        idle = [c for c in allowed_commands(game, e) if c not in cmds and c in step_commands]
        listed = ", ".join(cmds) + "".join(f"; no {c} possible now" for c in idle) + _abilities_text(game, e)
        parts.append(f"{who}, {activity(game, e)}" + (f" ({listed})" if cmds else ""))
    return parts


def _abilities_text(game: Game, entity: str) -> str:
    """ "; WSRC: /lay entity:WSRC; GLSC: /assign entity:GLSC": what the privates the corporation
    owns may do now (their abilities are easily forgotten: they were named by /moves only)."""
    corp = game.corporations.get(entity)
    if corp is None or not isinstance(game.round, OperatingRound):
        return ""
    out = ""
    for sym in corp.companies:
        uses = [f"{c} entity:{sym}" for c in allowed_commands(game, sym)
                if c != "/pass" and c not in ALWAYS_OPEN and choosable(game, sym, c)]
        out += f"; {sym}: {', '.join(uses)}" if uses else ""
    return out


def _step_commands(game: Game, entity: str) -> set[str]:
    """The commands of what the operating round's current step asks ``entity`` for (its
    activity), not those open all through the round (a private bought, a loan)."""
    rnd = game.round
    step = rnd.active_step() if isinstance(rnd, OperatingRound) else None
    if step is None:
        return set()
    return {f"/{command_for(game, entity, t)}" for t in step.actions(entity) if t != "pass"}


def _seat_note(seat: Seat) -> str:
    if seat.conceded:
        return " (automatic seat)"
    if seat.user_id is None:
        return " (free seat: /game claim)"
    return ""


def next_line(
    game: Game, seats: Iterable[Seat] = (), actor: str | None = None, fresh_turn: bool = False
) -> str:
    """The line a game reply ends with: ``next: who, doing what (commands)``."""
    if game.finished:
        return f"next: nobody, the game is over ({why_over(game)}); /game status shows the summary"
    parts = acting_parts(game, seats, actor, fresh_turn)
    return "next: " + ("; ".join(parts) if parts else "nobody can act")


def round_banner(before: tuple[Any, ...] | None, game: Game) -> str | None:
    """ "Operating Round 1.1 (of 1) begins" when the round changed since ``before`` (a
    ``Game.round_key()``)."""
    if before is None or game.finished or game.round is None or game.round_key() == before:
        return None
    return f"{round_title(game)} begins"


def turn_key(game: Game) -> tuple[Any, ...]:
    """Identifies whose turn it is: the round and the acting entities."""
    return (*game.round_key(), tuple(acting_entities(game))) if game.round is not None else ()


def credited(
    lines: list[str], game: Game, entity: str, who: str, fallback: str, action_type: str = ""
) -> list[str]:
    """The action's lines with ``who`` (the user who typed it) named once, on the line that
    reports the acting entity's move; when the engine wrote no such line, ``fallback`` (for
    example "GW passes (buy trains)") comes first. A pass is only reported by a line that says
    so: "GW does not run" after a pass is what follows from it, not the pass."""
    name = game.name_of(entity)
    # (a pass may be told as what it does: "FRR refuses the takeover by BW", 1833NE)
    starts = (f"{name} pass", f"{name} ends the turn", f"{name} refuses") if action_type == "pass" else (name + " ",)
    out = list(lines)
    for i, line in enumerate(out):
        if line.startswith(starts) or line.startswith(tuple("-- " + start for start in starts)):
            if not line.startswith(who + " ") and not line.endswith(f"({who})"):
                out[i] = f"{line[:-3]} ({who}) --" if line.endswith(" --") else f"{line} ({who})"
            return out
    return [fallback if who in fallback else f"{fallback} ({who})", *out]


def fallback_line(game: Game, entity: str, action_type: str, command: str) -> str:
    """How to report a move the engine logs nothing for (seen before it is processed)."""
    name = game.name_of(entity)
    if action_type == "pass":
        rnd = game.round
        step = rnd.active_step() if isinstance(rnd, OperatingRound) else None
        said = step.pass_words(entity) if step is not None else None
        if said:  # what this pass does ("LPS passes: repay the loans (Player 3 pays $229)")
            return f"{name} passes: {said[:1].lower()}{said[1:]}"
        # the step's own words, without what it explains: "MESS passes (discard trains)", not
        # "(discard trains (it may scrap its rusting trains))"
        doing = activity(game, entity, first=False)
        if step is not None and doing.endswith(")") and " (" in doing:
            doing = doing.split(" (", 1)[0]
        return f"{name} passes ({doing})"
    if action_type in _DONE_WORDS:
        return f"{name} {_DONE_WORDS[action_type]}"
    return f"{name}: /{command}"


def new_turn(game: Game, before: tuple[Any, ...] | None) -> bool:
    """Whether a new turn began since ``before`` (a :func:`turn_key`): another round or acting
    entity, every auction move, and a stock-round turn that started afresh (the others passed)."""
    if before is None or turn_key(game) != before:
        return True
    if isinstance(game.round, AuctionRound):
        return True
    if isinstance(game.round, StockRound):
        return not game.round.turn_actions
    return False
