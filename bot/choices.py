"""Choices for command options: what Discord's autocomplete offers and what ``/moves`` lists.

Game-action options come from :func:`engine.decisions.choices_for`, the one source of legality.
The options the engine does not list (the entity to act for, a bid's price, a token's slot,
suggested routes, the port target, shares to issue or redeem, the company to merge, standing
orders) are derived here from the same game state. Seats, a title's options and command names
are the choices of the ``/game`` and ``/help`` options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.decisions import Choice, choices_for, suggest_routes
from engine.entities import POOL
from engine.errors import GameError
from engine.game import Game
from engine.rounds import AuctionRound
from engine.titles.registry import title_info

from .acting import candidates, kind_ok
from .action_params import pick
from .play import ActionCommand
from .reply import UserError
from .textcmd import format_routes
from .turns import activity

MAX_CHOICES = 25
BID_STEPS = (0, 5, 10, 20, 50)


def action_choices(
    game: Game, entity: str, cmd: ActionCommand, param: str, params: dict[str, str]
) -> list[Choice]:
    """Legal values of option ``param`` of ``cmd`` for ``entity`` now, given the options typed so far."""
    spec = next((p for p in cmd.params if p.name == param), None)
    if spec is None or spec.choice_key is None:
        return []
    if not cmd.any_time and cmd.action_type not in game.action_types(entity):
        return []
    source = BOT_SOURCES.get(spec.choice_key)
    if source is not None:
        return source(game, entity, params)
    partial: dict[str, str] = {}
    for p in cmd.params:
        if p.name == param:
            break
        if p.choice_key and params.get(p.name):
            partial[p.choice_key] = params[p.name]
    return choices_for(game, entity, cmd.action_type, partial)


def entity_choices(game: Game, cmd: ActionCommand, pids: set[str]) -> list[Choice]:
    """The entities the caller (holding seats ``pids``) may use ``cmd`` for now."""
    out = []
    for e in candidates(game):
        if (
            game.controller_of(e) in pids
            and cmd.action_type in game.action_types(e)
            and kind_ok(game, cmd, e)
        ):
            out.append(Choice(e, f"{game.name_of(e)}: {activity(game, e)}"))
    return out


# ---------------------------------------------------------------------- options the engine does not list
def _bid_price(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return []
    syms = [c.sym for c in rnd.companies if not rnd.auctioning or c.sym == rnd.auctioning]
    if params.get("company"):
        try:
            syms = [pick(params["company"], syms, "private company")]
        except UserError:
            return []
    out = []
    for sym in syms:
        low, high = rnd.min_bid(sym), rnd.max_bid(entity, sym)
        for step in BID_STEPS if len(syms) == 1 else (0,):
            if low + step <= high:
                what = "the minimum" if step == 0 else f"minimum + {game.fmt(step)}"
                out.append(Choice(str(low + step), f"{game.fmt(low + step)} for {sym} ({what})"))
    return out


def _city_slots(game: Game, city: str) -> tuple[Any, int] | None:
    """(hex, city node index) of an 18xx.games city id "<tile or hex id>-<city position>"."""
    base, _, pos = city.rpartition("-")
    if not pos.isdigit():
        return None
    for h in game.board.hexes.values():
        if (h.tile_id or h.id) == base and int(pos) < len(h.tile.cities):
            return h, h.tile.cities[int(pos)].index
    return None


def _slot(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    city = (params.get("city") or "").strip()
    if city.upper() in game.board.hexes:
        city = f"{game.board.hexes[city.upper()].tile_id or city.upper()}-0"
    found = _city_slots(game, city)
    if found is None:
        return []
    h, ci = found
    return [Choice(str(i), f"slot {i} (free)") for i, holder in enumerate(h.city_slots(ci)) if holder is None]


def _routes(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    out = []
    try:
        routes = suggest_routes(game, entity, time_budget=0.5)
    except Exception:  # the router is a helper: without it, auto and none remain
        routes = []
    if routes:
        total = game.fmt(sum(r["revenue"] for r in routes))
        text = format_routes(routes)
        out.append(Choice("auto", f"auto: the best routes, {total} ({text})"))
        if len(text) <= 100:
            out.append(Choice(text, f"{text} = {total}"))
    else:
        out.append(Choice("auto", "auto: the best routes"))
    out.append(Choice("none", "none: do not run"))
    return out


def _assign_target(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    company = game.companies.get(entity)
    ability = company.ability("assign_hexes") if company is not None else None
    hexes = (ability or {}).get("hexes", [])
    return [Choice(h, f"{h} {game.board.hexes[h].location}".strip()) for h in hexes if h in game.board.hexes]


def _issue(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    # the engine's own bundles: a normal issue, or the emergency bundles at the train step
    return [
        Choice(",".join(ids), f"issue {len(ids)} share{'s' if len(ids) > 1 else ''}: {label}")
        for ids, label in game.issue_choices(corp) or []
    ]


def _redeem(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    market = [s.id for s in game.shares_of(POOL, corp.sym)]
    return [
        Choice(",".join(market[:n]), f"redeem {n} share{'s' if n > 1 else ''} for {game.fmt(money)}")
        for n, money in game.redeem_options(corp)
        if n <= len(market)
    ]


def _merge(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    return [Choice(sym, f"{sym} merges into the national") for sym in game.nationalizables[:1]]


def _autobuy_corporation(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    return [
        Choice(c.sym, f"{c.sym} - {c.name}") for c in game.corporations.values() if c.ipoed and not c.closed
    ]


def _until(game: Game, entity: str, params: dict[str, str]) -> list[Choice]:
    limit = game.HOLDING_LIMIT
    return [
        Choice("float", "until it floats"),
        *(Choice(str(p), f"until holding {p}%") for p in range(20, limit + 1, 10)),
    ]


BOT_SOURCES: dict[str, Callable[[Game, str, dict[str, str]], list[Choice]]] = {
    "bid_price": _bid_price,
    "slot": _slot,
    "routes": _routes,
    "target": _assign_target,
    "issue": _issue,
    "redeem": _redeem,
    "merge": _merge,
    "autobuy": _autobuy_corporation,
    "until": _until,
}


# ---------------------------------------------------------------------- /game and /help options
def title_options(title: str) -> list[Choice]:
    """A title's optional rules (``/game new options:``)."""
    try:
        rules = title_info(title).optional_rules
    except GameError:
        return []
    return [Choice(r["sym"], f"{r['sym']}: {r.get('short_name', '')}".strip(": ")) for r in rules]


def filter_choices(choices: list[Choice], typed: str) -> list[tuple[str, str]]:
    """(value, label) pairs matching what the user typed so far, at most 25."""
    typed = typed.lower()
    out = [
        (c.value, c.label)
        for c in choices
        if not typed or typed in c.value.lower() or typed in c.label.lower()
    ]
    return out[:MAX_CHOICES]


def example_for(game: Game, example: str) -> str:
    """A command's example (written with 1856's names) in the names of ``game``'s title: a
    corporation or company the title does not have becomes one of its own."""
    corps = [c.sym for c in game.corporations.values() if not c.closed] or list(game.corporations)
    companies = list(game.companies)
    words = []
    for word in example.split(" "):
        key, _, value = word.partition(":")
        sym, sep, rest = value.partition("_")
        if key in ("corporation", "share", "shares") and corps and sym not in game.corporations:
            word = f"{key}:{corps[0]}{sep}{rest}"
        elif key == "company" and companies and value not in game.companies:
            word = f"{key}:{companies[0]}"
        words.append(word)
    return " ".join(words)
