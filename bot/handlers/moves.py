"""``/moves``: what the caller can do now, as commands ready to type (also read by ``/help NAME``).

Local mode has no autocomplete, so ``/moves`` answers "what can I do here" from the same
choices Discord's autocomplete offers (:mod:`bot.choices`):

- ``/moves``: each entity the caller acts for, what it is asked to do, its commands and the
  first choices of each;
- ``/moves lay`` every hex where track can go, with its tiles and rotations; ``/moves lay hex:F17``
  each tile and rotation for that hex as a ready command, with the hexes the track leads to;
- ``/moves token`` (or any action) the choices of its next option given the options so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.decisions import (
    Choice,
    distinct_rotations,
    lay_cost,
    legal_tile_lays,
    private_tile_lays,
    tile_lay_hexes,
    trains_lost_by_a_sale,
    why_not_now,
)
from engine.errors import GameError
from engine.game import Game
from engine.map.hexgrid import hex_order
from engine.moves import option_choices
from engine.moves.stock import sale_of
from engine.rounds.operating import OperatingRound

from .. import robot
from ..acting import candidates, kind_ok, resolve_entity
from ..choices import action_choices
from ..play import MOVES, Move, build_action, in_trouble
from ..reply import Caller, Reply, UserError
from ..storage.rows import Seat
from ..terminal.textcmd import format_command
from ..texts.lay import tile_name, tile_sort, tiles_text, track_text
from ..texts.summary import why_over
from ..texts.turns import activity, next_line, shortfall_text
from . import offers

if TYPE_CHECKING:
    from ..service import GameService

MAX_LINES = 25
PREVIEW = 4  # choices shown per command in the overview


async def moves(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    row, cached = await service.active(channel_id)
    game = cached.game
    if game.finished:
        raise UserError(f"The game is over ({why_over(game)}); /game status shows the summary")
    seats = await service.store.seats(row.id)
    pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id and not s.conceded}
    if not pids:
        raise UserError("You do not hold a seat in this game")
    what = (params.get("command") or "").strip().lstrip("/").lower()
    if what:
        cmd = MOVES.get(what)
        if cmd is None:
            raise UserError(f"/{what} is not a game action; /help lists the commands")
        entity = resolve_entity(game, cmd, pids, params.get("entity"))
        lines = command_moves(game, entity, cmd, {k: v for k, v in params.items() if k != "command"}, seats)
    else:
        lines = overview(game, pids)
        note = await offers.offer_note(service, row, cached, caller.id)
        if note:
            lines.insert(0, note)
    return Reply(lines=[*fit(lines), next_line(game, seats)], ephemeral=True)


def fit(lines: list[str]) -> list[str]:
    """At most :data:`MAX_LINES` lines: the choices (indented lines) that do not fit are named in
    one line, "...and 15 more: M4, M6, N7", the lines before and after them kept."""
    if len(lines) <= MAX_LINES:
        return lines
    items = [i for i, line in enumerate(lines) if line.startswith("  ")]
    if not items:
        return lines[:MAX_LINES]
    head, tail = lines[:items[0]], lines[items[-1] + 1:]
    room = max(MAX_LINES - len(head) - len(tail) - 1, 1)
    body = lines[items[0]:items[-1] + 1]
    rest = [_short(line) for line in body[room:]]
    return [*head, *body[:room], f"...and {len(rest)} more: {', '.join(rest)}", *tail]


def _short(line: str) -> str:
    """A choice's line by its name: a hex ("  M4 Barrie: 57 ..." -> M4), or a ready command's
    last option ("  /token city:N11-0  (...)" -> N11-0)."""
    text = line.strip()
    if text.startswith("/"):
        last = text.split("  (")[0].split(" ")[-1]
        return last.split(":", 1)[-1]
    return text.split(":")[0].split(" ")[0]


def overview(game: Game, pids: set[str]) -> list[str]:
    def types(e: str) -> list[str]:  # what the entity is asked for (bankruptcy is always open in 1856 ORs:
        # listed only when nothing else can find the money, as the next: line does)
        listed = [t for t in game.action_types(e) if t != "bankrupt" or in_trouble(game, e)]
        return sorted(listed, key=lambda t: t == "bankrupt")  # the last resort last

    mine = [e for e in candidates(game) if game.controller_of(e) in pids]
    if not any(types(e) for e in mine):
        return ["It is not your turn."]
    lines = []
    for e in mine:
        if not types(e):
            continue
        lines.append(f"**{game.name_of(e)}**: {activity(game, e)}")
        for t in types(e):
            cmd = next(
                (c for c in MOVES.values() if c.action_type == t and kind_ok(game, c, e)), None
            )
            if cmd is None:
                continue
            first = next((o for o in cmd.options if o.choices), None)
            choices = action_choices(game, e, cmd, first.name, {}) if first else []
            # a private's ability: typed without entity: the command would act for the corporation
            who = f" entity:{e}" if _names_entity(game, cmd, e) else ""
            text = f"/{cmd.command}{who}"
            if choices and first is not None:  # choices come from the first option
                words = [_sale_words(game, e, cmd, c) for c in choices[:PREVIEW]]
                shown = ", ".join(w or c.value for w, c in zip(words, choices, strict=False)) + (
                    ", ..." if len(choices) > PREVIEW else ""
                )
                named = "" if all(words) else f" {first.name}"  # a sale reads "CGR 10%", no option name
                text += f"{named}: {shown} (/moves {cmd.command}{who})"
                if cmd.action_type == "sell_shares" and trains_lost_by_a_sale(game, e):
                    text += " (after a sale the train must come from the bank)"
            elif first is not None:  # offered by the step, but nothing fits now (no tile, no space)
                why = why_not_now(game, e, t)
                text += f" (no {first.name} to choose now{f': {why}' if why else ''})"
            elif t == "pass" and (said := _pass_words(game, e)):
                text += f": {said[:1].lower()}{said[1:]}"
            lines.append("  " + text)
    return lines


def _pass_words(game: Game, entity: str) -> str | None:
    """What /pass does in the current step when more than giving it up (the national's
    formation: "Repay the loans (Player 3 pays $229)")."""
    rnd = game.round
    step = rnd.active_step() if isinstance(rnd, OperatingRound) else None
    return step.pass_words(entity) if step is not None else None


def command_moves(game: Game, entity: str, cmd: Move, given: dict[str, str], seats: Sequence[Seat] = ()) -> list[str]:
    """The choices for the next option of ``cmd`` not in ``given``, each as a full command; a
    train of a corporation whose seat nobody answers for (``seats``: the computer's, a free
    one) at the price that seat takes."""
    # (a private's hexes are few: they are listed as commands, then its lays on one as a corporation's)
    if cmd.command == "lay" and (entity in game.corporations or (entity in game.companies and given.get("hex"))):
        return lay_moves(game, entity, given.get("hex", "").upper())
    params = {k: v for k, v in given.items() if k != "entity"}
    # every suggestion works as written: it names the entity unless the command picks it anyway
    who = {"entity": entity} if _names_entity(game, cmd, entity) else {}
    for p in cmd.options:
        if p.name in params:
            continue
        choices = action_choices(game, entity, cmd, p.name, params)
        beyond: list[str] = []
        if cmd.action_type == "buy_train" and p.name == "train":
            choices, beyond = robot.absent_sellers_prices(game, entity, choices, list(seats))
        if choices:
            later = next((m for c in choices[:MENU_CHECKED]
                          if (m := _still_missing(game, entity, cmd, {**params, p.name: c.value}))), None)
            then = f" (then /moves {format_command(cmd.command, {**params, **who})[1:]} {p.name}:{p.name.upper()} " \
                f"for its {later})" if later else ""
            head = f"{game.name_of(entity)} can choose {p.name}{then}:"
            ready = [_sale_line(game, entity, cmd, c, who) or _priced_line(game, entity, cmd, params, c, who)
                     or _ready(cmd, params, p.name, c, who) for c in choices]
            return [head, *ready,
                    *_out_of_reach(game, entity, cmd, choices if p.name == "train" else None),
                    *_face_value_note(beyond),
                    *_sale_note(game, entity, cmd)]
        if p.required:
            why = shortfall_text(game, entity) or why_not_now(game, entity, cmd.action_type) or ""
            return [f"There is no {p.name} to choose now" + (f": {why}" if why else ""), *_out_of_reach(game, entity, cmd),
                    *_face_value_note(beyond)]
    missing = _still_needed(game, entity, cmd, params, who)
    return [missing] if missing else [f"Ready: {format_command(cmd.command, {**params, **who})}"]


MENU_CHECKED = 8  # the choices tried for an option still missing after them (a bid's price)


def _still_missing(game: Game, entity: str, cmd: Move, params: dict[str, str]) -> str | None:
    """The required option the command as given still lacks (``price`` for a bid on a private
    that is not sold at once), or None when it is complete."""
    if cmd.action_type == "run_routes" or cmd.action_type == "buy_train":
        return None  # (free text; a train's price is said on its own line)
    try:
        build_action(cmd, game, entity, params)
    except GameError as exc:
        name = str(exc.facts.get("option") or "")
        return name if name and name not in params and cmd.option(name) is not None else None
    return None


def _still_needed(game: Game, entity: str, cmd: Move, params: dict[str, str], who: dict[str, str]) -> str:
    """What the command as given still lacks ("" when it is complete): the refusal typing it
    would get (a train from another corporation needs its price), and the command to finish."""
    if cmd.action_type == "run_routes":
        return ""  # free text, and routes:auto searches the routes: typing it says what is wrong
    try:
        action = build_action(cmd, game, entity, params)
    except GameError as exc:
        name = str(exc.facts.get("option") or "")
        option = cmd.option(name)
        if option is None or name in params:
            return f"That would be refused: {exc}"
        # (a number to type: the refusal says what it is for and its range, as the labels would)
        spanned = option.span is not None and option.span(game, entity, params) is not None
        seen = "" if spanned else ", ".join(_label(game, entity, cmd, params, k) for k in params if k != "entity")
        blank = "N" if option.kind == "number" else name.upper()
        return (f"Not ready: {exc}" + (f" ({seen})" if seen else "")
                + f"; type {format_command(cmd.command, {**params, **who})} {name}:{blank}")
    if not game.accepts(action):  # never "Ready" for what the engine refuses
        why = why_not_now(game, entity, cmd.action_type)
        return "That would be refused now" + (f": {why}" if why else "")
    return ""


def _label(game: Game, entity: str, cmd: Move, params: dict[str, str], name: str) -> str:
    """How the choices of option ``name`` describe its value given (the value itself if none do)."""
    value = params[name]
    before = {k: v for k, v in params.items() if k != name}
    choices = action_choices(game, entity, cmd, name, before) if (o := cmd.option(name)) and o.choices else []
    return next((c.label for c in choices if c.value == value), f"{name} {value}")


def _names_entity(game: Game, cmd: Move, entity: str) -> bool:
    """Whether a command for ``entity`` must say ``entity:`` (its controller would otherwise act
    for another entity, e.g. the corporation instead of its private)."""
    controller = game.controller_of(entity)
    try:
        return resolve_entity(game, cmd, {controller} if controller else set(), None) != entity
    except (UserError, GameError):
        return True


def _out_of_reach(game: Game, entity: str, cmd: Move, offered: list[Choice] | None = None) -> list[str]:
    """Trains the corporation cannot pay for yet (not those ``offered`` now), what is missing
    (counting its president's cash where the president may help pay), and what would pay for them."""
    corp = game.corporations.get(entity)
    if cmd.action_type != "buy_train" or corp is None:
        return []
    kinds = {(game.trains[c.value].name, game.trains[c.value].owner) for c in offered or [] if c.value in game.trains}
    president = game.player_by_id.get(corp.president or "")
    dearer: dict[tuple[int, str, str], int] = {}
    for t in game.buyable_depot_trains(corp):
        if (t.name, t.owner) in kinds or t.price <= corp.cash:
            continue
        helped = president is not None and game.president_may_help_buy(corp, t)
        more = t.price - corp.cash - (president.cash if helped and president is not None else 0)
        if more > 0:
            dearer[(t.price, t.name, t.owner)] = more
    if not dearer:
        return []
    types = game.action_types(entity)
    how = "take a loan first (/loan)" if "take_loan" in types else (
        "issue shares first (/issue)" if "sell_shares" in types else "")
    shown = ", ".join(f"{name}-train{' from the discard pile' if owner == 'discard' else ''} {game.fmt(price)}"
                      f" ({game.fmt(more)} more"
                      + (f" than the {game.fmt(price - more)} {corp.sym} and its president have)"
                         if more < price - corp.cash else ")")
                      for (price, name, owner), more in sorted(dearer.items())[:3])
    return [f"Not yet affordable: {shown}" + (f"; {how}" if how else "")]


def _face_value_note(beyond: list[str]) -> list[str]:
    """Trains whose seller's seat takes no less than face value, more than the treasury holds."""
    if not beyond:
        return []
    return ["Beyond the treasury (their seats sell at face value or more): " + "; ".join(beyond)]


def _sale_note(game: Game, entity: str, cmd: Move) -> list[str]:
    """What a president's sale for the corporation's train gives up: the other corporations'
    trains on offer now (1856: after a sale the train must come from the bank)."""
    lost = {t.id for t in trains_lost_by_a_sale(game, entity)} if cmd.action_type == "sell_shares" else set()
    rnd = game.round
    if not lost or not isinstance(rnd, OperatingRound):
        return []
    corp = rnd.corp.sym
    offers = [c.label for c in option_choices(game, corp, MOVES["train"], "train", {}) if c.value in lost]
    offers = offers or sorted(lost)
    more = f"; and {len(offers) - 3} more (/moves train)" if len(offers) > 3 else ""
    return [f"After a sale the train must come from the bank: {corp} could no longer buy: "
            + "; ".join(offers[:3]) + more]


def _readable_sale(game: Game, entity: str, cmd: Move, choice: Choice) -> dict[str, str] | None:
    """A sale choice (share ids, "CGR_26,CGR_25,CGR_0 15%") as players write it,
    ``corporation:CGR percent:15``, when that sells exactly the same (None otherwise)."""
    if cmd.action_type != "sell_shares":
        return None
    try:
        ids, percent = sale_of(game, choice.value)
        readable = {"corporation": game.shares[ids[0]].corporation, "percent": str(percent)}
        same = build_action(cmd, game, entity, readable).to_dict() == \
            build_action(cmd, game, entity, {"shares": choice.value}).to_dict()
    except (GameError, KeyError, IndexError):
        return None
    return readable if same else None


def _sale_line(game: Game, entity: str, cmd: Move, choice: Choice, who: dict[str, str]) -> str | None:
    """ "  /sell corporation:CGR percent:10  (10% of CGR for $200)" for a sale choice."""
    readable = _readable_sale(game, entity, cmd, choice)
    if readable is None:
        return None
    return f"  {format_command(cmd.command, {**readable, **who})}  ({choice.label})"


def _sale_words(game: Game, entity: str, cmd: Move, choice: Choice) -> str | None:
    """A sale choice in /moves' overview: "CGR 10%"."""
    readable = _readable_sale(game, entity, cmd, choice)
    return f"{readable['corporation']} {readable['percent']}%" if readable else None


def _priced_line(game: Game, entity: str, cmd: Move, params: dict[str, str], choice: Choice,
                 who: dict[str, str]) -> str | None:
    """ "  /train train:4-0 price:N  (4-train from CA, $1-$643: N is the price agreed)" for another
    corporation's train, which is bought at a price typed (without it the command is refused)."""
    option = cmd.option("price")
    if cmd.action_type != "buy_train" or "price" in params or option is None or option.span is None \
            or option.span(game, entity, {**params, "train": choice.value}) is None:
        return None  # (a bank train, or one sold at face value: complete as it is)
    line = format_command(cmd.command, {**params, "train": choice.value, "price": "N", **who})
    return f"  {line}  ({choice.label}: N is the price agreed)"


def _ready(cmd: Move, params: dict[str, str], name: str, choice: Choice, who: dict[str, str]) -> str:
    line = format_command(cmd.command, {**params, name: choice.value, **who})
    return f"  {line}  ({choice.label})" if choice.label != choice.value else f"  {line}"


def lay_moves(game: Game, corp: str, hex_id: str) -> list[str]:
    """``/moves lay`` for a corporation, or for a private laying with its ability (1836Jr56's
    CdH, 1856's privates: its commands name it; what it pays is its ability's, told by the hex)."""
    private = corp in game.companies
    who = f" entity:{corp}" if private else ""

    def lays_now(hexes: set[str] | None = None) -> dict[str, dict[str, list[int]]]:
        if not private:
            return legal_tile_lays(game, corp, hexes)
        return {h: v for h, v in private_tile_lays(game, corp).items() if hexes is None or h in hexes}

    def cost_of(hid: str, tile: str, r: int) -> int:
        return 0 if private else lay_cost(game, corp, hid, tile, r)

    if hex_id:
        if hex_id not in game.board.hexes:
            raise UserError(f"There is no hex {hex_id}")
        here = lays_now({hex_id}).get(hex_id, {})
        if not here:
            where = ", ".join(sorted(lays_now()) if private else tile_lay_hexes(game, corp)) or "nowhere now"
            return [f"{corp} cannot lay a tile on {hex_id}; it can lay on: {where}"]
        lines = [f"{corp} can lay on {hex_id} {game.board.hexes[hex_id].location}".rstrip() + ":"]
        for tile, rots in sorted(here.items(), key=lambda kv: tile_sort(kv[0])):
            for r in distinct_rotations(game, tile, rots):
                cost = cost_of(hex_id, tile, r)
                lines.append(f"  /lay hex:{hex_id} tile:{tile_name(tile)} rotation:{r}{who}  "
                             f"({track_text(game, hex_id, tile, r)}" + (f"; costs {game.fmt(cost)})" if cost else ")"))
        return lines
    lays = lays_now()
    if not lays:
        why = why_not_now(game, corp, "lay_tile")
        return [f"{corp} has no tile to lay now" + (f": {why}" if why else "")]
    lines = [f"{corp} can lay track on (then /moves lay hex:HEX{who} for the exact commands):"]
    for hid in sorted(lays, key=hex_order):
        costs = {cost_of(hid, t, r) for t, rots in lays[hid].items() for r in rots}
        paid = "" if costs == {0} else f" (costs {_cost_range(game, costs)})"
        lines.append(
            f"  {hid} {game.board.hexes[hid].location}".rstrip() + f"{paid}: {tiles_text(game, hid, lays[hid])}"
        )
    return lines


def _cost_range(game: Game, costs: set[int]) -> str:
    """ "$60" or "$20-$80": what the lays on a hex cost."""
    low, high = min(costs), max(costs)
    return game.fmt(low) if low == high else f"{game.fmt(low)}-{game.fmt(high)}"
