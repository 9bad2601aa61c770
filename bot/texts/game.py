"""A running game in words and buttons: the status text (the pinned message), the result, a
programmed move, what the caller can do now, the one-click decision buttons, and finding a seat by
name. Pure: no store, no Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import islice

from engine import actions as A
from engine.choice import Choice
from engine.decisions import acting_entities, action_types, round_title, standing_bids
from engine.errors import BAD_OPTION, GameError
from engine.game import Game
from engine.map import hexgrid
from engine.programs import in_force
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import StockRound

from ..acting import resolve_entity, waiting_for
from ..choices import action_choices
from ..play import MOVES, Move, allowed_commands, build_action, move_help, offered_commands
from ..reply import Button, Caller, UserError, fitted, pick
from ..robot import ROBOT_USER, absent_sellers_prices
from ..storage.rows import GameRow, Seat
from ..terminal.textcmd import format_command
from .summary import why_over


def find_seat(seats: list[Seat], key: str) -> Seat:
    key = key.strip()
    if not key:
        raise UserError("Give seat: a seat name (" + ", ".join(s.name for s in seats) + ")")
    for s in seats:
        if key.lower() in (s.name.lower(), str(s.player_id).lower(), str(s.position + 1)):
            return s
    raise UserError(f"There is no seat {key!r}; seats: " + ", ".join(s.name for s in seats))


BUTTON_LABEL = 80  # Discord's longest button label


def decision_buttons(game: Game, state: int, seats: Sequence[Seat] = ()) -> list[Button]:
    """One tap for each decision of the acting entity's current step, built from the move table's
    legal choices (the ones autocomplete offers): a button per decision without options (take a
    loan, a dividend kind, the suggested routes, a pass that says what is passed) and a select menu
    per option with choices (a tile's hex, a token's city, a train, a share, a par price...). Every
    one submits a command line as typed, stamped with ``state:N`` so a stale one is refused.
    ``seats``: a train of a corporation whose seat nobody answers for is priced as that seat
    sells it (:func:`bot.robot.absent_sellers_prices`)."""
    out: list[Button] = []
    for e in acting_entities(game)[:1]:
        for command in allowed_commands(game, e):
            move = MOVES.get(command.lstrip("/"))
            if move is not None and move.action_type != "bankrupt":  # bankruptcy is typed, never tapped
                out += _move_components(game, e, move, state, _names_entity(game, move, e), seats)
        out += _abilities(game, e, state)
    return sorted(out, key=lambda b: bool(b.picks))  # buttons first, then the menus


def _abilities(game: Game, entity: str, state: int) -> list[Button]:
    """The abilities of the privates the acting corporation owns that may be used now (WSRC's
    tile and station, GLSC's port, TCC's extra tile), named by the private: they were only typed
    (``/lay entity:WSRC``), and a player playing by taps never saw them offered."""
    corp = game.corporations.get(entity)
    out: list[Button] = []
    for sym in corp.companies if corp is not None else []:
        for command in allowed_commands(game, sym):
            move = MOVES.get(command.lstrip("/"))
            if move is None or move.action_type in ("pass", "bankrupt"):
                continue
            out += [replace(b, label=fitted(f"{sym}: {b.label}", BUTTON_LABEL if not b.picks else 150))
                    for b in _move_components(game, sym, move, state, _names_entity(game, move, sym))]
    return out


def _names_entity(game: Game, move: Move, entity: str) -> dict[str, str]:
    """``entity:`` when the command would otherwise act for another entity of the same player (a
    private's owner for the private, a president of several corporations)."""
    controller = game.controller_of(entity)
    try:
        same = resolve_entity(game, move, {controller} if controller else set(), None) == entity
    except (UserError, GameError):
        same = False
    return {} if same else {"entity": entity}


def _move_components(game: Game, entity: str, move: Move, state: int, who: dict[str, str],
                     seats: Sequence[Seat] = ()) -> list[Button]:
    stamp = {**who, "state": str(state)}
    if move.action_type == "pass":
        out = [Button(pass_label(game, entity), format_command("pass", stamp))]
        rnd = game.round
        step = rnd.active_step() if isinstance(rnd, OperatingRound) else None
        if isinstance(rnd, OperatingRound) and not (step is not None and step.pass_words(entity)):
            # /done: every step that may be passed, at once (not where a pass costs something)
            out.append(Button("Done (pass the rest)", format_command("done", stamp)))
        return out
    if move.action_type == "run_routes":
        return [Button("Run suggested routes", format_command("routes", {"routes": "auto", **stamp}), "success")]
    first = next((o for o in move.options if o.choices is not None), None)
    if first is None:
        if any(o.required for o in move.options):
            return []
        return [Button(_capital(move_help(game, move, entity)), format_command(move.command, stamp), "primary")]
    choices = action_choices(game, entity, move, first.name, {})
    if move.action_type == "buy_train" and first.name == "train":
        choices, _ = absent_sellers_prices(game, entity, choices, list(seats))
    if not choices:
        return []
    if first.name == "hex" and len(choices) > MENU_SIZE:
        choices = nearest_first(game, entity, choices)
    if move.action_type == "dividend":
        return [
            Button(fitted(_capital(c.label), BUTTON_LABEL), format_command(move.command, {first.name: c.value, **stamp}),
                   "primary")
            for c in choices
        ]
    picks = tuple(islice((
        pick(c.label, line)
        for c in choices
        if len(line := format_command(move.command, {first.name: c.value, **stamp})) <= 100
        and tappable(game, entity, move, {first.name: c.value})
    ), MENU_SIZE))  # the first ones a menu holds: the others are not tried
    more = f" ({len(choices) - len(picks)} more: type /{move.command})" if len(choices) > len(picks) else ""
    if len(picks) == 1 and not more and _makes_the_move(game, entity, move, {first.name: choices[0].value}):
        # one choice, and it makes the move as it is: a button, not a menu of one ("Buy a train:
        # 2-train from the bank, $100, leaves $140"; "TGB merges into the national" as it is)
        said, label = move_help(game, move, entity), choices[0].label  # (whole: a menu option may be split)
        if said.split()[0].lower() not in label.lower() and len(f"{said}: {label}") <= BUTTON_LABEL:
            label = f"{said}: {label}"  # (not when it would cut the choice's price off)
        return [Button(fitted(_capital(label), BUTTON_LABEL), picks[0].command, "primary")]
    if len(picks) == 1 and not more and (menu := _second_menu(game, entity, move, first.name, choices[0], stamp)):
        return [menu]
    placeholder = f"{_capital(move_help(game, move, entity))}: choose {first.name}{more}"
    return [Button(placeholder[:150], format_command(move.command, stamp), picks=picks)] if picks else []


def _second_menu(game: Game, entity: str, move: Move, name: str, only: Choice, stamp: dict[str, str]) -> Button | None:
    """The menu of the next option when the first has one legal value and each of the next one's
    choices then makes the move: the bids on the one private auctioned ("Bid for (or buy) a private
    company: TCC - The Canada Company, min $70: choose price"), not a menu of one first; None otherwise."""
    given = {name: only.value}
    later = next((o for o in move.options if o.choices is not None and o.name not in given), None)
    if later is None:
        return None
    choices = action_choices(game, entity, move, later.name, given)
    if not choices or len(choices) > MENU_SIZE:
        return None
    lines = [format_command(move.command, {**given, later.name: c.value, **stamp}) for c in choices]
    if any(len(line) > 100 for line in lines) or not all(
            _makes_the_move(game, entity, move, {**given, later.name: c.value}) for c in choices):
        return None
    if len(choices) == 1:  # (WSRC's tile: one hex, one tile) a button
        return Button(fitted(_capital(f"{move_help(game, move, entity)}: {only.label}, {choices[0].label}"), BUTTON_LABEL),
                      lines[0], "primary")
    placeholder = f"{_capital(move_help(game, move, entity))}: {only.label}: choose {later.name}"
    return Button(placeholder[:150], format_command(move.command, {**given, **stamp}),
                  picks=tuple(pick(c.label, line) for c, line in zip(choices, lines, strict=True)))


def _makes_the_move(game: Game, entity: str, move: Move, params: dict[str, str]) -> bool:
    """Whether ``params`` alone make a move the game accepts (nothing else to choose or type)."""
    try:
        return game.accepts(build_action(move, game, entity, params))
    except GameError:
        return False


def nearest_first(game: Game, entity: str, choices: list[Choice]) -> list[Choice]:
    """Hexes ordered by their distance to the entity's stations (a menu shows the first 25: the
    ones next to its network rather than the first letters of the map)."""
    board = game.board
    homes = [hid for hid, h in board.hexes.items() if any(entity in slots for slots in h.tokens.values())]
    if not homes:
        return choices

    def distance(c: Choice) -> int:
        if c.value not in board.hexes:
            return 1 << 20
        return min(hexgrid.distance(c.value, h, board.layout, game.AXES) for h in homes)

    return sorted(choices, key=distance)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def tappable(game: Game, entity: str, move: Move, params: dict[str, str]) -> bool:
    """Whether the command can be finished by taps: it builds, or what it lacks is an option
    with choices (the next menu) or a number the move asks to be typed now, with its range (a
    train's price from another corporation: a box to type it in, :mod:`bot.discord.menus`)."""
    if any(o.required and o.choices is not None and o.name not in params for o in move.options):
        return True  # the next menu asks for it (building would only say that, slowly: a lay's tile)
    try:
        move.build(game, entity, params)
    except GameError as exc:
        option = move.option(str(exc.facts.get("option", "")))
        return exc.code != BAD_OPTION or (option is not None and (
            option.choices is not None or (option.span is not None and option.span(game, entity, params) is not None)))
    return True


def pass_label(game: Game, entity: str) -> str:
    """What a pass gives up, in the words of the step ("No token", "No train", "End turn")."""
    rnd = game.round
    if isinstance(rnd, OperatingRound):
        step = rnd.active_step()
        name = step.name if step is not None else ""
        said = step.pass_words(entity) if step is not None else None
        if said:
            return said
        for words, label in PASS_LABELS:
            if words in name:
                return label
        return "Pass: " + name if name else "Pass"
    if isinstance(rnd, StockRound) and rnd.turn_actions:
        return "End turn"
    if rnd is not None and rnd.pending and entity == rnd.pending[1]:
        return "Refuse the takeover"  # (1833NE: the target's answer)
    if "takeover" in action_types(game, entity):
        return "No takeover"
    return "Pass"


# the step's name (engine.rounds.operating and the titles' steps) -> what passing it means
PASS_LABELS = (
    ("lay track", "No track"),
    ("token", "No token"),
    ("station", "No station"),
    ("loan", "No loan"),
    ("buy trains", "No train"),
    ("ferry", "No ferry"),
    ("private", "No private"),
    ("right", "No right"),
    ("issue or redeem", "No shares issued"),
    ("run routes", "Do not run"),
    ("marker", "No marker"),
    ("discard trains", "Keep the trains"),
    ("merge", "Do not merge"),
)
MENU_SIZE = 25  # Discord's limit of options in a select menu


def you_can(game: Game, seats: list[Seat], caller: Caller) -> list[str]:
    if game.finished:  # nobody's turn: "It is not your turn" read as if someone else still played
        return ["The game is over: there is nothing left to play; /game export saves it."]
    mine = {s.player_id for s in seats if s.user_id == caller.id}
    if not mine:
        return ["You hold no seat here."]
    out = []
    for e in acting_entities(game):
        if game.controller_of(e) in mine:
            cmds = offered_commands(game, e)
            out.append(f"You act for {game.name_of(e)}: " + (", ".join(cmds) or "nothing now"))
    return out or ["It is not your turn."]


def status_text(row: GameRow, game: Game, seats: list[Seat]) -> str:
    """The status message; "move N": the N-th action in effect (undone ones do not count)."""
    head = (
        f"**{row.title}** game {row.id} · {round_title(game)} · phase {game.phase['name']}"
        f" · {bank_words(game)} · move {len(game.action_log)}"
    )
    holders = {s.player_id: s for s in seats}
    players = " · ".join(
        f"{p.name} " + ("(bankrupt)" if game.went_bankrupt(p.id) else game.fmt(p.cash)) + _seat_note(holders.get(p.id))
        for p in game.players)
    now = f"Game over ({why_over(game)}): {ranking(game)}" if game.finished else "Now " + waiting_for(game)
    lines = [head, players]
    corps = corporations_line(game)
    if corps:
        lines.append(corps)
    lines.append(now)
    bids = standing_bids(game)
    if bids:
        lines.append("Standing bids: " + ", ".join(
            f"{sym} {game.fmt(amount)} ({game.name_of(pid)})" for sym, (pid, amount) in sorted(bids.items())))
    programs = sorted((pid, prog) for pid, prog in game.programs.items() if in_force(game, pid))
    if programs and not game.finished:  # (one for a stock round that is over no longer applies)
        lines.append(
            "Programmed moves: "
            + "; ".join(f"{game.name_of(pid)}: {describe_program(game, prog)}" for pid, prog in programs)
        )
    return "\n".join(lines)


def bank_words(game: Game) -> str:
    """"bank $401", or "bank broken" once it paid more than it held (18xx.games shows the
    overdraft, "$-2013", which players read as a debt; nothing more is counted on it)."""
    return "bank broken" if game.bank < 0 else f"bank {game.fmt(game.bank)}"


def corporations_line(game: Game) -> str:
    """Each started corporation's cash, trains and loans: "GW $240 (trains 2, 3; 1 loan) · CV $60 (no
    train)" (the bare "(2, 3; 1 loan)" did not say what the numbers were)."""
    parts = []
    for corp in game.corporations.values():
        if corp.closed or not corp.ipoed:
            continue
        names = [game.train(t).name for t in corp.trains]
        trains = f"train{'s' if len(names) > 1 else ''} {', '.join(names)}" if names else "no train"
        loans = f"; {corp.loans} loan{'s' if corp.loans != 1 else ''}" if corp.loans else ""
        parts.append(f"{corp.sym} {game.fmt(corp.cash)} ({trains}{loans})")
    return " · ".join(parts)


def _seat_note(seat: Seat | None) -> str:
    if seat is not None and seat.conceded:
        return " (the computer player)" if seat.user_id == ROBOT_USER else " (played by the computer for now)"
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


def ranking(game: Game) -> str:
    """The players by final value ("Alice $1,230, Bob (bankrupt) $0"), as 18xx.games ranks them:
    by what they kept, bankrupt or not."""
    ranked = sorted(game.result().items(), key=lambda kv: -kv[1])
    broke = {p.id for p in game.players if game.went_bankrupt(p.id)}
    return ", ".join(f"{game.name_of(pid)}{' (bankrupt)' if pid in broke else ''} {game.fmt(v)}" for pid, v in ranked)


def result_lines(game: Game) -> list[str]:
    return [f"Result ({why_over(game)}): {ranking(game)}"]
