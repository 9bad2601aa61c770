"""Game actions as the bot types them: the engine's move table (:mod:`engine.moves`, one
definition per action type) seen from the commands: building an action from typed options
(a missing option is refused with the command's example; options as players type them: a
two-sided train's side, a corporation's name for shares to sell), the commands an entity may use
now, and a move's help and options in the words of the game's title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import actions as A
from engine.choice import Choice, per_position
from engine.decisions import action_types, why_not_now
from engine.entities import listed
from engine.errors import BAD_OPTION, RULE, UNKNOWN, GameError
from engine.game import Game
from engine.moves import MOVES, Move, Option, command_for, option_choices
from engine.moves.operating import train_id
from engine.moves.stock import sale_of, shares_typed
from engine.moves.track import tile_name
from engine.rounds.operating import BuyTrainStep, OperatingRound

from .terminal.textcmd import format_command

__all__ = ["MOVES", "Move", "allowed_commands", "build_action", "choosable", "for_title", "help_summary", "in_trouble",
           "move_help", "offered_commands", "option_text", "title_example", "train_shortfall", "Shortfall"]

# the entity option every game action has (act for a corporation or private you control)
ENTITY_OPTION = ("entity", "act for this corporation or private (only if you control several)")


def build_action(move: Move, game: Game, entity: str, params: dict[str, str]) -> A.Action:
    """The action ``move`` makes from ``params``; a missing option is refused with its format."""
    for o in move.options:
        if o.required and not (params.get(o.name) or "").strip():
            value = o.default(game, entity, params) if o.default is not None else None
            if value is not None:
                params = {**params, o.name: value}
                continue
            hint = f"; /help {move.command} shows what you can choose now" if o.choices else ""
            what = option_text(game, move, o, entity) or o.description
            example = example_now(game, move, entity, params, o)
            if example is None and o.choices and (why := why_not_now(game, entity, move.action_type)):
                # nothing to give now, and the rules say why ("no tile of this phase fits A9, ...")
                raise GameError(f"There is no {o.name} to choose now: {why}", RULE, option=o.name)
            example = example or title_example(game, move)
            raise GameError(f"Give {o.name}: ({what}), for example {example}" + hint, BAD_OPTION, option=o.name)
    if move.action_type == "buy_train":
        _check_side(move, game, entity, params)
    if move.command == "sell":
        params = _sale(move, game, entity, params)
    return move.build(game, entity, params)


def example_now(game: Game, move: Move, entity: str, params: dict[str, str], missing: Option) -> str | None:
    """The command as typed, completed from the legal choices now: ``missing`` and each option
    after it that has choices take their first legal value (``/bid company:TCC price:70`` for a
    bid on TCC without a price, ``/lay hex:I12 tile:59 rotation:0 entity:WSRC``); None when
    ``missing`` has no legal value now (the command's own example is given instead)."""
    typed = {k: v for k, v in params.items() if k != "state" and (v or "").strip()}
    filled = dict(typed)
    after = False
    for o in move.options:
        after = after or o.name == missing.name
        if not after or o.name in filled or o.choices is None:
            continue
        choices = option_choices(game, entity, move, o.name, filled)
        if not choices:
            if o.name == missing.name:
                return None
            continue
        filled[o.name] = tile_name(choices[0].value) if o.name == "tile" else choices[0].value
    # the options in the command's order, then the others typed (entity:)
    ordered = {o.name: filled[o.name] for o in move.options if o.name in filled}
    ordered.update({k: v for k, v in filled.items() if k not in ordered})
    return format_command(move.command, ordered)


def _check_side(move: Move, game: Game, entity: str, params: dict[str, str]) -> None:
    """1833NE's two-sided cards: a card the corporation could buy as either side is bought as the
    side named (``variant:``) or the one whose price is given; naming neither is refused, listing
    the sides, rather than buying the card's first side."""
    if (params.get("variant") or "").strip() or (params.get("exchange") or "").strip():
        return
    tid = train_id(game, (params.get("train") or "").strip(), entity)
    train = game.trains[tid]
    sides = game.train_variants(train)
    if len(sides) < 2:
        return
    buyable = {c.value for c in option_choices(game, entity, move, "variant", {"train": tid})}
    offered = [(name, price) for name, price in sides if name in buyable]
    if len(offered) < 2:
        return  # at most one side it can pay for: the engine buys it or says why not
    raw = (params.get("price") or "").strip().replace("$", "")
    if raw.isdigit() and sum(price == int(raw) for _, price in sides) == 1:
        return  # the price names the side
    named = " or ".join(f"variant:{name} ({game.fmt(price)})" for name, price in offered)
    count = {2: "two", 3: "three"}.get(len(offered), str(len(offered)))
    raise GameError(f"{tid} has {count} sides: {named}; say which, for example /train train:{tid} "
                    f"variant:{offered[0][0]}. Nothing was bought.", BAD_OPTION, option="variant")


def allowed_commands(game: Game, entity: str) -> list[str]:
    """The commands ``entity`` may use now. Bankruptcy (open all through an 1856 operating
    round) is named only in trouble, last: when money must be found and nothing can raise it,
    or nothing else is left. Worked out once per position (:func:`engine.choice.per_position`:
    a reply's buttons, its next: line and the status ask for the same)."""
    return list(per_position(game, ("allowed_commands", entity), lambda: _allowed_commands(game, entity)))


def _allowed_commands(game: Game, entity: str) -> list[str]:
    types = sorted(action_types(game, entity), key=lambda t: t == "bankrupt")
    if "bankrupt" in types and len(types) > 1 and not in_trouble(game, entity):
        types.remove("bankrupt")
    return [f"/{command_for(game, entity, t)}" for t in types]


def offered_commands(game: Game, entity: str) -> list[str]:
    """:func:`allowed_commands` as the game's replies name them: less a command with nothing to
    choose now (its first option with legal choices has none: no share that may be sold, no
    city for a station, no private the corporation can pay for), which would only be refused.
    Typed anyway, such a command is refused with the game's reason (see :func:`allowed_commands`).
    A corporation that must buy a train nobody can pay for yet is offered what raises the money
    (its president's /sell, its /loan: :func:`train_shortfall`). Once per position."""
    return list(per_position(game, ("offered_commands", entity), lambda: _offered_commands(game, entity)))


def _offered_commands(game: Game, entity: str) -> list[str]:
    short = train_shortfall(game, entity)
    if short is not None and short.raise_with:
        return list(short.raise_with)
    allowed = allowed_commands(game, entity)
    return [command for command in allowed if choosable(game, entity, command)] or allowed


def choosable(game: Game, entity: str, command: str) -> bool:
    """Whether ``command`` (allowed to ``entity`` now) has something to choose: its first option
    with legal choices has some, or it has none to choose."""
    move = MOVES.get(command.lstrip("/"))
    first = next((o for o in move.options if o.choices is not None), None) if move is not None else None
    # (the routes' choices are the route search's answer: "none" is always a legal run)
    return move is None or first is None or move.action_type == "run_routes" \
        or bool(option_choices(game, entity, move, first.name, {}))


def in_trouble(game: Game, entity: str) -> bool:
    """A player in a cash crisis, or a corporation that must buy a train when neither it nor its
    president can pay for one, nor raise the money (:func:`train_shortfall`)."""
    if entity in game.corporations:
        short = train_shortfall(game, entity)
        return short is not None and not short.raise_with
    return game.cash_crisis_player == entity


@dataclass(frozen=True)
class Shortfall:
    """A corporation at its train step that must buy a train and can buy none now, not even
    with its president's cash: the cheapest bank train it must reach, the money missing, and
    the commands that can raise it now (none: only bankruptcy is left)."""

    train: str  # the train's name ("6")
    price: int
    missing: int
    raise_with: tuple[str, ...]  # "/sell" (the president's shares), "/loan", "/issue"


# a corporation's own ways to raise money at its train step (1856's loans, 1833NE's issue)
_RAISING = ("take_loan", "sell_shares")


def train_shortfall(game: Game, entity: str) -> Shortfall | None:
    """What corporation ``entity`` lacks for the train it must buy (None unless it is at its
    train step, must own a train and /train offers none now), from the engine's legal moves.
    Once per position."""
    return per_position(game, ("train_shortfall", entity), lambda: _train_shortfall(game, entity))


def _train_shortfall(game: Game, entity: str) -> Shortfall | None:
    corp = game.corporations.get(entity)
    rnd = game.round
    if corp is None or not isinstance(rnd, OperatingRound) or rnd.corp is not corp:
        return None
    if not isinstance(rnd.active_step(), BuyTrainStep) or not game.must_buy_train(corp):
        return None
    train = MOVES["train"]
    if option_choices(game, entity, train, "train", {}):
        return None
    cheapest = game.cheapest_depot_train(corp)
    missing = game.emergency_shortfall(corp)
    if cheapest is None or missing <= 0:
        return None
    president = game.player_by_id.get(corp.president or "")
    price = missing + corp.cash + (president.cash if president is not None else 0)
    raising = [f"/{command_for(game, entity, t)}" for t in action_types(game, entity) if t in _RAISING]
    if president is not None and "sell_shares" in action_types(game, president.id) \
            and option_choices(game, president.id, MOVES["sell"], "shares", {}):
        raising.insert(0, "/sell")
    return Shortfall(cheapest.name, price, missing, tuple(raising))


_PERCENT = re.compile(r"^(\d+)%")


def _bundle_percent(game: Game, choice: Choice) -> int:
    """The percent a sale choice sells ("10% of BW for $50"; a president's certificate may be
    sold in part), else what its certificates add up to."""
    match = _PERCENT.match(choice.label)
    return int(match.group(1)) if match else sale_of(game, choice.value)[1]


def _sale(move: Move, game: Game, entity: str, params: dict[str, str]) -> dict[str, str]:
    """``/sell shares:`` as players type it: share ids, or a corporation as ``/buy share:`` takes
    one: ``shares:BW`` sells one share of BW that may be sold now (``percent:`` more of it); a
    name that is neither is refused listing the seller's shares, less a president's certificate
    that cannot be sold now."""
    raw = (params.get("shares") or "").strip()
    if not raw:
        return params
    raw, typed = shares_typed(raw)  # "CV_0 10%": part of a president's certificate, as offered
    if typed is not None:
        if (params.get("percent") or "").strip() not in ("", str(typed)):
            return params  # two percents: the engine's sale refuses them (engine.moves.stock.build_sell)
        params = {**params, "shares": raw, "percent": str(typed)}
    words = [w.strip() for w in raw.split(",") if w.strip()]
    corps = {c.lower(): c for c in game.corporations}
    ids = {s.lower() for s in game.shares}
    offered = option_choices(game, entity, move, "shares", {})
    unknown = next((w for w in words if w.lower() not in corps and w.lower() not in ids), None)
    if unknown is not None:
        sellable = {i for c in offered for i in sale_of(game, c.value)[0]}
        mine = [s.id for s in game.shares.values()
                if s.owner == entity and (not s.president or s.id in sellable)]
        example = next((game.shares[i].corporation for i in mine), next(iter(game.corporations)))
        shown = ", ".join(mine[:12]) + (", ..." if len(mine) > 12 else "")
        raise GameError(f"There is no share {unknown!r} (name shares or a corporation, for example "
                        f"shares:{example})" + (f"; choose from: {shown}" if shown else "; you hold no share"),
                        UNKNOWN, what="share", id=unknown)
    named = {corps[w.lower()] for w in words if w.lower() in corps}
    if not named:
        return params
    sym = sorted(named)[0]
    if len(named) > 1 or len(words) > 1:
        raise GameError(f"Sell one corporation's shares at a time: name it (shares:{sym}, with percent: "
                        f"for more than one share) or its share ids", BAD_OPTION, option="shares")
    percent = (params.get("percent") or "").strip()
    bundles = sorted((_bundle_percent(game, c), c.value) for c in offered
                     if all(game.shares[i].corporation == sym for i in sale_of(game, c.value)[0]))
    chosen = next((b for b in bundles if not percent or str(b[0]) == percent), None)
    if chosen is not None:
        return {**params, "shares": chosen[1], "percent": str(chosen[0])}
    held = [s for s in game.shares.values() if s.owner == entity and s.corporation == sym]
    if not held:
        raise GameError(f"You hold no share of {sym}", BAD_OPTION, option="shares", corporation=sym)
    # none of it may be sold now as asked: the engine says why (sold this round, the presidency...)
    one = min((s.percent for s in game.shares.values() if s.corporation == sym and not s.president), default=10)
    rest = {k: v for k, v in params.items() if k != "shares"}
    return {**rest, "corporation": sym, "percent": percent or str(one)}


# ---------------------------------------------------------------------- a command in the game's words
# "(1856 tunnel/bridge)", "(1833NE)": the part of a move's text that is for one title
_TAG = re.compile(r"\s*\((18\d\d\w*)(?: ([^)]*))?\)")


def for_title(game: Game, text: str) -> str | None:
    """``text`` (a move's help or an option's description, which may say which title a part is
    for) as a game of ``game``'s rules reads it: parts for other titles left out, the title's own
    tag dropped ("buy a right (1856 tunnel/bridge) or a ferry (1833NE)" is "buy a ferry" in
    1833NE, "buy a right (tunnel/bridge)" in 1856); None when all of it is for other titles."""
    title = game.TITLE

    def one(part: str) -> str | None:
        tags = [t for t, _ in _TAG.findall(part)]
        if tags and title not in tags:
            return None
        return _TAG.sub(lambda m: f" ({m.group(2)})" if m.group(2) else "", part)

    parts = text.split(" or ")
    if len(parts) == 1 or not all(_TAG.search(p) for p in parts):
        return one(text)
    kept = [one(p) for p in parts]
    words = [k for k in kept if k is not None]
    if not words:
        return None
    if kept[0] is None:  # "buy a right (...) or a ferry (...)": the verb goes with what is kept
        words[0] = parts[0].split(" ", 1)[0] + " " + words[0]
    return " or ".join(words)


def move_help(game: Game, move: Move, entity: str | None = None) -> str:
    """The move's one line of help in ``game``'s words (:func:`for_title`; as written when the
    move is for other titles only); a dividend names the title's kinds ("pay out, pay half or
    withhold" in 1833NE)."""
    kinds = _dividend_kinds(game, entity) if move.action_type == "dividend" else []
    if kinds:
        return listed([DIVIDEND_WORDS.get(k, k) for k in kinds], "or")
    said = for_title(game, move.help) or move.help
    if move.action_type == "assign" and game.rules.port_marker != "port marker":
        said = said.replace("(port)", f"({game.rules.port_marker})")  # 1836Jr56's RdP marks no port
    return said


def help_summary(game: Game, move: Move, entity: str | None = None) -> str:
    """What ``/help`` says a move does: :func:`move_help` (a button's label) and, for a loan, the
    title's loan rule, or that loans have ended ("take a loan: not any more (no loans are given
    once the national has formed)")."""
    if move.action_type == "take_loan":
        ended, terms = game.loans_ended(), game.loan_terms()
        if ended:
            return f"{move_help(game, move, entity)}: not any more ({ended})"
        if terms:
            return f"{move_help(game, move, entity)} ({terms})"
    return move_help(game, move, entity)


DIVIDEND_WORDS = {"payout": "pay out", "half": "pay half", "withhold": "withhold"}


def _dividend_kinds(game: Game, entity: str | None) -> list[str]:
    if not game.corporations:
        return []
    corp = game.corporations.get(entity or "") or next(iter(game.corporations.values()))
    return list(game.dividend_kinds(corp))


def option_text(game: Game, move: Move, option: Option, entity: str | None = None) -> str | None:
    """What ``option`` of ``move`` is, in ``game``'s words; None when it is for other titles only.
    A dividend's kinds are the title's ("payout, half or withhold" in 1833NE); a right is what
    the title sells ("which ferry" in 1833NE)."""
    kinds = _dividend_kinds(game, entity) if move.action_type == "dividend" and option.name == "kind" else []
    if kinds:
        return listed(kinds, "or")
    said = move_help(game, move, entity)
    if move.action_type == "special_buy" and option.name == "right" and said.startswith("buy a ") and " or " not in said:
        return "which " + said.removeprefix("buy a ")  # "which ferry" (1833NE), "which right (tunnel/bridge)"
    text = for_title(game, option.description)
    return title_hexes(game, text) if text and move.action_type in _ON_MAP else text


_ON_MAP = {"lay_tile", "place_token", "assign", "run_routes"}  # moves whose examples name hexes
_CHAIN = re.compile(r"\b[A-Z]{1,2}\d{1,2}(?:-[A-Z]{1,2}\d{1,2})*\b")


def title_hexes(game: Game, text: str) -> str:
    """``text`` (an example written on 1856's map) with each hex, or chain of adjacent hexes
    ("M4-M6-N7"), the title's map does not have replaced by one of its own: a city hex (an empty
    one first, where a tile can go), or a chain of as many adjacent hexes from one, a different
    city for each (1836Jr56 has no F17)."""
    hexes = game.board.hexes
    cities = sorted((h for h, state in hexes.items() if any(n.kind == "city" for n in state.printed.nodes)),
                    key=lambda h: (hexes[h].printed.color != "white", h[0], int(h[1:]) if h[1:].isdigit() else 0))
    if not cities:
        return text
    used: list[str] = []

    def chain(match: re.Match[str]) -> str:
        old = match.group(0).split("-")
        if all(h in hexes for h in old):
            return match.group(0)
        start = next((c for c in cities if c not in used), cities[0])
        path = [start]
        while len(path) < len(old):
            step = next((n for n in hexes[path[-1]].neighbors.values() if n in hexes and n not in path), None)
            if step is None:
                break
            path.append(step)
        used.extend(path)
        return "-".join(path)

    return _CHAIN.sub(chain, text)


def title_example(game: Game, move: Move) -> str:
    """The move's own example (written with 1856's names) in ``game``'s names: a corporation,
    company or train name the title does not have becomes one of its own, and what a special buy
    buys the title's first (``right:"Ferry G22"`` in 1833NE)."""
    names = list(dict.fromkeys(game.trains[t].name for t in game.train_order))
    sold = game.special_buy_names() if move.action_type == "special_buy" else []
    words = []
    for word in example_for(game, move.example).split(" "):
        key, _, value = word.partition(":")
        if key == "train" and names and value not in game.trains and value not in names:
            word = f"{key}:{names[0]}"
        elif sold and key == move.options[0].name and value not in sold:
            word = f'{key}:"{sold[0]}"' if " " in sold[0] else f"{key}:{sold[0]}"
        words.append(word)
    said = " ".join(words)
    return title_hexes(game, said) if move.action_type in _ON_MAP else said


def example_for(game: Game, example: str) -> str:
    """A command's example (written with 1856's names) in the names of ``game``'s title: a
    corporation or company the title does not have becomes one of its own."""
    corps = [c.sym for c in game.corporations.values() if not c.closed] or list(game.corporations)
    companies = list(game.companies)
    words = []
    for word in example.split(" "):
        key, _, value = word.partition(":")
        sym, sep, rest = value.partition("_")
        if key in ("corporation", "share", "shares") and corps and sym not in game.corporations \
                and not value.isdigit():  # (a number of shares: 1833NE's /takeover shares:1)
            word = f"{key}:{corps[0]}{sep}{rest}"
        elif key == "company" and companies and value not in game.companies:
            word = f"{key}:{companies[0]}"
        words.append(word)
    return " ".join(words)
