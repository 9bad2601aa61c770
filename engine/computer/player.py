"""The computer player's turn: whose decision it is, which module decides it, and the
fallbacks that keep a game moving.

Each decision module returns candidate decisions best first; the first one the game accepts
(tried and undone) is taken. When none is, the player passes if it may, and otherwise makes
the random legal player's move with a seeded generator, so it never stalls a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

from .. import actions as A
from ..decisions import deciders
from ..entities import Corporation
from ..game import Game
from ..moves import choices_for, move_for, option_choices, sample_action
from ..moves.stock import sale_of
from ..rounds.operating import OperatingRound
from ..rounds.stock import AuctionRound, StockRound
from . import capital as C
from . import operating as O
from .personality import NEUTRAL, Personality
from .policy import Decision, base, first_accepted
from .stock import auction_decisions, stock_decisions


def _types(game: Game, entity: str) -> list[str]:
    return game.action_types(entity)


def corporation_decisions(game: Game, corp_sym: str, persona: Personality = NEUTRAL) -> Iterator[Decision]:
    """The operating corporation's decisions (and its president's sales for a train), best
    first; each kind is worked out only once all before it were refused (a ferry's route
    searches only when no tile, station, route, dividend or train of its step is taken)."""
    types = _types(game, corp_sym)

    def corp() -> Corporation:
        # each decision module tries actions and undoes them, which leaves older references
        # to the game's objects stale: read the corporation afresh for each
        return game.corporations[corp_sym]

    if "discard_train" in types:
        yield from O.discard_decision(game, corp())
        return
    work = O.RouteWork(game)  # the route searches of the whole decision
    if "takeover" in types:
        yield from C.takeover_decisions(game, corp(), work)
    if "accept_takeover" in types:
        accept = C.accept_decision(game, corp())
        if accept is not None:
            yield accept
    if not isinstance(game.round, OperatingRound):
        if "pass" in types:
            yield Decision(A.Pass(**base(game, corp_sym)), "passes")
        return
    must = game.must_buy_train(corp())
    emergency = must and game.needs_emergency_money(corp())
    if "sell_shares" in types:
        yield from C.issue_decisions(game, corp(), emergency=emergency)
    if "take_loan" in types or "payoff_loan" in types:
        yield from (d for d in O.loan_decisions(game, corp(), types) if isinstance(d.action, A.TakeLoan))
    if "lay_tile" in types:
        yield from O.lay_decisions(game, corp(), work, persona)
    elif "place_token" in types:
        yield from O.token_decisions(game, corp(), work, persona)
    elif "run_routes" in types:
        yield O.route_decision(game, corp())
    elif "dividend" in types:
        d = O.dividend_decision(game, corp())
        if d is not None:
            yield d
    elif "buy_train" in types:
        yield from O.train_decisions(game, corp(), types)
        president = corp().president
        if emergency and president:
            # a train its president's other corporation needs, rather than bankruptcy (1856
            # seed 1011: it went bankrupt, ending the game): before the president's sales when
            # no sale could pay for a bank train (in 1856 after a sale the train must come from
            # the bank), after them otherwise
            hopeless = game.can_go_bankrupt(corp())
            if hopeless:
                yield from O.sister_trains(game, corp(), only=True)
            yield from O.emergency_sale(game, president, corp())
            if not hopeless:
                yield from O.sister_trains(game, corp(), only=True)
    if "buy_shares" in types:
        yield from C.redeem_decisions(game, corp())
    if "special_buy" in types:
        yield from O.special_buy_decisions(game, corp(), work)
    if "buy_company" in types:
        yield from O.private_buy_decisions(game, corp())
    if "payoff_loan" in types:
        yield from (d for d in O.loan_decisions(game, corp(), types) if isinstance(d.action, A.PayoffLoan))
    president = corp().president
    if emergency and president and "buy_train" not in types:
        yield from O.emergency_sale(game, president, corp())
    for kind in ("remove_token", "borrow_train", "merge"):
        if kind in types:
            action = _first_choice(game, corp_sym, kind)
            if action is not None:
                yield Decision(action, _REASONS[kind])
    if "pass" in types:
        yield Decision(A.Pass(**base(game, corp_sym)), _pass_reason(types))


_REASONS = {"remove_token": "removes the station it is told to", "borrow_train": "borrows a train to run",
            "merge": "merges into the national", "assign": "places its marker"}


def _pass_reason(types: list[str]) -> str:
    if "lay_tile" in types:
        return "lays no track: nothing helps its routes"
    if "place_token" in types:
        return "places no station: none is worth the money now"
    if "buy_train" in types:
        return "buys no train: it keeps its cash"
    return "passes"


def _first_choice(game: Game, entity: str, kind: str) -> A.Action | None:
    """The action of ``kind`` with the first legal value of each required option."""
    from ..moves.spec import entity_type

    move = move_for(kind, entity_type(game, entity))
    if move is None:
        return None
    given: dict[str, str] = {}
    for o in move.options:
        if o.choices is None:
            continue
        offered = option_choices(game, entity, move, o.name, given)
        if not offered:
            if o.required:
                return None
            continue
        given[o.name] = offered[0].value  # an optional one too: the export names it (a merge's corporation)
    try:
        return move.build(game, entity, given)
    except Exception:
        return None


def player_decisions(game: Game, pid: str, persona: Personality = NEUTRAL) -> list[Decision]:
    rnd = game.round
    types = _types(game, pid)
    if isinstance(rnd, AuctionRound):
        return auction_decisions(game, pid)
    if isinstance(rnd, StockRound):
        return stock_decisions(game, pid, persona)
    out: list[Decision] = []
    if "merge" in types:
        action = _first_choice(game, pid, "merge")
        if action is not None:
            out.append(Decision(action, "merges its company into the national rather than pay"))
    if "sell_shares" in types:
        # a cash crisis (or a train for its corporation): the smallest sale first
        corp = rnd.corp if isinstance(rnd, OperatingRound) else None
        if corp is not None and corp.president == pid:
            out += O.emergency_sale(game, pid, corp)
        else:
            for c in choices_for(game, pid, "sell_shares"):
                ids, percent = sale_of(game, c.value)
                out.append(Decision(A.SellShares(**base(game, pid), shares=ids, percent=percent),
                                    f"sells {percent}% to raise the money it owes"))
    if "pass" in types:
        out.append(Decision(A.Pass(**base(game, pid)), "passes"))
    return out


def company_decisions(game: Game, sym: str) -> list[Decision]:
    types = _types(game, sym)
    out: list[Decision] = []
    for kind in ("place_token", "assign"):
        if kind in types:
            action = _first_choice(game, sym, kind)
            if action is not None:
                out.append(Decision(action, _REASONS.get(kind, "uses its ability")))
    if "pass" in types:
        out.append(Decision(A.Pass(**base(game, sym)), "passes"))
    return out


def decisions_for(game: Game, entity: str, persona: Personality = NEUTRAL) -> Iterable[Decision]:
    if entity in game.player_by_id:
        return player_decisions(game, entity, persona)
    if entity in game.corporations:
        return corporation_decisions(game, entity, persona)
    if entity in game.companies:
        return company_decisions(game, entity)
    return []


def decide(game: Game, entity: str | None = None, seed: int = 0,
           avoid: Callable[[A.Action], bool] | None = None,
           personality: Personality = NEUTRAL) -> Decision | None:
    """The computer player's decision for ``entity`` (default: the first entity to act now), or
    None when it has nothing to do. Deterministic for a given game, seed and personality.
    ``avoid``: moves it must not make although the rules allow them (the bot's: taking what a
    person owns unasked). ``personality``: the leanings of the seat it plays (self-play draws
    them per seat from the game's seed; the bot's seats play :data:`NEUTRAL`); ``seed`` only
    seeds the fallback's sample."""
    if game.finished:
        return None
    if entity is None:
        acting = game.acting()
        if not acting:
            return None
        entity = acting[0]
    considered = decisions_for(game, entity, personality)
    chosen = first_accepted(game, (d for d in considered if avoid is None or not avoid(d.action)))
    if chosen is not None:
        return chosen
    return _fallback(game, entity, seed, avoid)


def _fallback(game: Game, entity: str, seed: int, avoid: Callable[[A.Action], bool] | None = None,
              ) -> Decision | None:
    """A legal move when no considered decision fits: a seeded sample of the move table's
    choices (never money spent on a whim), bankruptcy only when nothing else is left."""
    rng = random.Random(seed)
    for e in deciders(game, entity):
        for kind in game.action_types(e):
            if kind in ("bankrupt", "special_buy", "buy_company"):
                continue
            sampled = sample_action(game, rng, e, kind)
            if sampled is not None and (avoid is None or not avoid(sampled)) and game.accepts(sampled):
                return Decision(sampled, "makes a legal move")
    for e in deciders(game, entity):
        types = game.action_types(e)
        if "bankrupt" in types:
            action = A.Bankrupt(**base(game, e))
            if game.accepts(action):
                return Decision(action, "goes bankrupt: it has no other move")
        for kind in types:  # what is left: a right or a private, rather than no move at all
            sampled = sample_action(game, rng, e, kind)
            if sampled is not None and (avoid is None or not avoid(sampled)) and game.accepts(sampled):
                return Decision(sampled, "has no better move")
    return None
