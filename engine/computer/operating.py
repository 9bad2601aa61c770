"""The computer player's operating decisions: track that adds revenue, stations that open
routes, the best routes, dividends that do not starve the next train (kept over several runs
for a train it will need soon, and for the trains others could buy before its own are gone:
the train rush), trains bought before they are forced and not ones about to rust, loans only
for a needed train, the president's smallest sale in an emergency, its president's other
corporation's train rather than bankruptcy.

Candidate lays and stations are scored cheaply, then the best few are tried (and undone) and
judged by the revenue the corporation's trains (or the next train it would buy) would earn.
"""

from __future__ import annotations

from typing import Any

from .. import actions as A
from ..choice import Choice
from ..decisions import distinct_rotations, legal_tile_lays, track_exits
from ..entities import Corporation, Train, a_train
from ..errors import GameError
from ..game import Game
from ..moves import choices_for, move_for, option_choices
from ..moves.stock import sale_of
from ..routing.router import best_routes
from .personality import NEUTRAL, Personality
from .policy import (
    Decision,
    base,
    ends_on,
    fresh,
    lasting_trains,
    needs_train_money,
    next_depot,
    next_train_cost,
    price_of,
    rust_imminent,
    rusted_by,
    rusts_soon,
    sales_before_next_phase,
    train_price,
    train_rush,
    trial,
    underpaid_by,
)

TRIED_LAYS = 4
TRIED_TOKENS = 4
ROUTE_BUDGET = 0.4
TRIAL_BUDGET = 0.03
# in a title that extends routes (1833NE), see :class:`RouteWork`
EXTENDED_ROUTE_BUDGET = 0.05
EXTENDED_TRIAL_BUDGET = 0.004
EXTENDED_SEARCH_WORK = 0.065  # what such a search is charged at least
DECISION_WORK = 0.4  # router work (seconds at its WORK_RATE) for one decision's route searches
LISTED_WORK = 2e-5  # what a listed route costs beyond what the router's clock counts
TRIED_WITH_ONE = TRIED_LAYS + 2  # lays tried at most once one is worth making (decision time)
# saving for the next train (:func:`_train_fund`): its trains rust within FUND_SALES bank sales;
# it withholds for at most FUND_RUNS runs, and pays half (or out) once FUND_SHARE_RUNS runs of
# what that keeps buy the train
FUND_SALES = 3
FUND_RUNS = 5
FUND_SHARE_RUNS = 2
# the turns of its own a corporation looks ahead for the trains others could buy before its own
# trains end (:func:`_rush_dividend`)
RUSH_TURNS = 5


def _eval_trains(game: Game, corp: Corporation) -> list[Train]:
    trains = list(game.runnable_trains(corp))
    if trains:
        return trains
    t = next_depot(game)
    return [t] if t is not None else []


def _future_trains(game: Game, corp: Corporation) -> list[Train]:
    """The trains it will run soon: its lasting trains and the next bigger train of the bank."""
    own = [t for t in game.runnable_trains(corp) if not rusts_soon(game, t)]
    longest = max((t.distance for t in own), default=0)
    bigger = next((game.trains[tid] for tid in game.train_order
                   if game.trains[tid].owner == "depot" and game.trains[tid].distance > longest), None)
    return own + ([bigger] if bigger is not None else [])


def trial_budget(game: Game) -> float:
    """The router budget of a search that compares positions (see :class:`RouteWork`)."""
    return EXTENDED_TRIAL_BUDGET if game.extends_routes else TRIAL_BUDGET


class RouteWork:
    """The route searches one decision may make, counted in the router's work (never the wall
    clock, so a seed plays the same game on any machine). A search is charged its budget (all
    of which it may spend) and :data:`LISTED_WORK` for each route it lists (the router's clock
    counts a step of the listing, not the revenue worked out for each route). In a title that
    extends routes (1833NE) the router's clock counts neither the extension gain of each listed
    route nor the extension search at each combination it tries: there a search gets a small
    budget (:data:`EXTENDED_TRIAL_BUDGET`: in the positions measured it found the total a
    budget a hundred times larger finds) and is charged at least :data:`EXTENDED_SEARCH_WORK`.
    A decision stops trying actions once :attr:`spent`; the decision modules share one."""

    def __init__(self, game: Game, allowance: float | None = None):
        self.left = DECISION_WORK if allowance is None else allowance
        self.budget = trial_budget(game)
        self.charge = max(self.budget, EXTENDED_SEARCH_WORK if game.extends_routes else 0.0)

    @property
    def spent(self) -> bool:
        return self.left <= 1e-9

    def revenue(self, game: Game, corp_sym: str, trains: list[Train]) -> int:
        """The revenue ``trains`` would earn for the corporation on the map as it is."""
        if not trains:
            return 0
        try:
            sol = best_routes(game, corp_sym, time_budget=self.budget, trains=trains, deterministic=True)
        except GameError:
            self.left -= self.charge
            return 0
        self.left -= self.charge + sol.candidates * LISTED_WORK
        return sol.total


# ---------------------------------------------------------------------- track


def node_revenue(tile: Any) -> int:
    """What the tile's cities and towns earn (an off-board: its best value)."""
    total = 0
    for n in tile.nodes:
        rev = n.revenue
        if isinstance(rev, int):
            total += rev
        elif isinstance(rev, dict):
            total += max((v for v in rev.values() if isinstance(v, int)), default=0)
    return total


def _lay_quick_score(game: Game, corp: Corporation, hid: str, tile_id: str) -> float:
    h = game.board.hexes[hid]
    new = game.board.tile_for(tile_id.rsplit("-", 1)[0])
    score = float(node_revenue(new) - node_revenue(h.tile))
    if h.tokened_by(corp.sym):
        score += 20
    if new.cities:
        score += 5
    if h.tile.color != "white" or h.tile.paths:
        score += 3  # an upgrade
    return score


def _towards_stops(game: Game, hid: str, tile_id: str, rotation: int) -> float:
    """A little for track that leads to a hex with a city or town (a place to run to)."""
    score = 0.0
    for nid in track_exits(game, hid, tile_id, rotation):
        n = game.board.hexes.get(nid)
        if n is not None and (n.tile.cities or n.tile.towns):
            score += 4 if n.tile.cities else 2
    return score


def lay_decisions(game: Game, corp: Corporation, work: RouteWork | None = None,
                  persona: Personality = NEUTRAL) -> list[Decision]:
    lays = legal_tile_lays(game, corp.sym)
    corp = fresh(game, corp)
    cands: list[tuple[float, str, str, int]] = []
    for hid, tiles in sorted(lays.items()):
        for tile_id, rots in sorted(tiles.items()):
            quick = _lay_quick_score(game, corp, hid, tile_id)
            for r in distinct_rotations(game, tile_id, rots):
                cands.append((quick + _towards_stops(game, hid, tile_id, r) + persona.tie(hid, tile_id, r),
                              hid, tile_id, r))
    if not cands:
        return []
    cands.sort(key=lambda c: (-c[0], c[1], c[2], c[3]))
    trains = _eval_trains(game, corp)
    future = _future_trains(game, corp)
    work = work or RouteWork(game)
    now = work.revenue(game, corp.sym, trains)
    later = work.revenue(game, corp.sym, future)
    best: list[tuple[float, Decision]] = []
    cash = corp.cash

    def measure(g: Game) -> tuple[int, int, int]:
        return (work.revenue(g, corp.sym, trains), work.revenue(g, corp.sym, future),
                g.corporations[corp.sym].cash)

    routed = game.has_route(corp)
    helper = game.player(corp.president).cash if corp.president else 0
    train_cost = next_train_cost(game, corp)
    short_of_train = needs_train_money(game, corp)
    tried = attempts = 0
    for quick, hid, tile_id, rot in cands:
        if tried >= TRIED_LAYS or attempts >= 3 * TRIED_LAYS or (best and attempts >= TRIED_WITH_ONE) or work.spent:
            break
        terrain = game.board.terrain_cost(game.board.hexes[hid])
        if terrain and short_of_train and cash - terrain + (0 if routed else helper) < train_cost:
            continue  # not worth a trial: the terrain alone costs it its next train
        attempts += 1
        action = A.LayTile(**base(game, corp.sym), hex=hid, tile=tile_id, rotation=rot)
        result = trial(game, action, measure)
        if result is None:
            continue
        rev, rev_later, cash_after = result
        cost = cash - cash_after
        gain = rev - now
        score = 3 * gain + (rev_later - later) + quick - cost / 10  # (quick has the tie-break)
        name = tile_id.rsplit("-", 1)[0]
        why = (f"lays {name} on {hid}: routes earn {game.fmt(gain)} more" if gain > 0
               else f"lays {name} on {hid} to build towards better routes")
        if cost and short_of_train and cash_after + (0 if routed else helper) < train_cost \
                and not (trains and gain >= cost):
            # a cost it cannot pay without losing the next train (not counted as tried), unless
            # the track pays for itself in the next run (1833NE charges $20 for every lay: a
            # corporation saving for a train never built); without a route it pays for the track
            # that makes one if its president can help with the train
            continue
        tried += 1
        best.append((score, Decision(action, why)))
    best.sort(key=lambda t: -t[0])
    return [d for s, d in best if s > -10]


# ---------------------------------------------------------------------- stations


def token_decisions(game: Game, corp: Corporation, work: RouteWork | None = None,
                    persona: Personality = NEUTRAL) -> list[Decision]:
    move = move_for("place_token", "corporation")
    if move is None:
        return []
    cities = option_choices(game, corp.sym, move, "city", {})
    if not cities:
        return []
    corp = fresh(game, corp)
    reserve = next_train_cost(game, corp) if needs_train_money(game, corp) else 0
    trains = _eval_trains(game, corp)
    work = work or RouteWork(game)
    now = work.revenue(game, corp.sym, trains)
    cash = corp.cash  # read before any trial: a trial leaves ``corp`` a stale copy
    scored: list[tuple[float, Decision]] = []
    for c in cities[:TRIED_TOKENS * 2]:
        if len(scored) >= TRIED_TOKENS or work.spent:
            break
        try:
            action = move.build(game, corp.sym, {"city": c.value})
        except GameError:
            continue
        result = trial(game, action, lambda g: (work.revenue(g, corp.sym, trains), g.corporations[corp.sym].cash))
        if result is None:
            continue
        rev, cash_after = result
        forced = bool(game.pending_tokens) or bool(getattr(game.round, "state", {}).get("home_pending"))
        gain = rev - now
        if cash_after < reserve and not forced and gain < cash - cash_after:
            continue  # (unless the station pays for itself in the next run, as a lay does)
        if gain <= 0 and not forced and (cash - cash_after) > 0:
            # a station that earns nothing now still blocks and opens a city later: only when
            # its trains last and the money is spare
            if needs_train_money(game, corp) or cash_after < reserve + next_train_cost(game, corp) // 2:
                continue
        scored.append((gain - (cash - cash_after) / 20 + persona.tie(c.value),
                       Decision(action, f"places a station in {c.label.split(' (')[0]}"
                                + (f": routes earn {game.fmt(gain)} more" if gain > 0 else ""))))
        if len(scored) >= TRIED_TOKENS:
            break
    scored.sort(key=lambda t: -t[0])
    return [d for _, d in scored]


# ---------------------------------------------------------------------- routes, dividends


def route_decision(game: Game, corp: Corporation) -> Decision:
    try:
        budget = EXTENDED_ROUTE_BUDGET if game.extends_routes else ROUTE_BUDGET
        sol = best_routes(game, corp.sym, time_budget=budget, deterministic=True)
        routes, total = list(sol.routes), sol.total
    except GameError:
        routes, total = [], 0
    why = f"runs for {game.fmt(total)}: the best routes" if routes else "has no route to run"
    return Decision(A.RunRoutes(**base(game, corp.sym), routes=tuple(routes)), why)


def dividend_decision(game: Game, corp: Corporation) -> Decision | None:
    """The dividend its policy prefers (:func:`_preferred_dividend`), unless that closes the
    corporation (1833NE closes one whose price falls to 0): then the first that does not."""
    preferred = _preferred_dividend(game, corp)
    if preferred is None:
        return None
    sym = corp.sym

    def closes(action: A.Action) -> bool:
        return bool(trial(game, action, lambda g: g.corporations[sym].closed))

    if not closes(preferred.action):
        return preferred
    kinds = [c.value for c in choices_for(game, sym, "dividend")]
    for kind in ("payout", "half", "withhold"):
        if kind in kinds and kind != getattr(preferred.action, "kind", None):
            action = A.Dividend(**base(game, sym), kind=kind)
            if not closes(action):
                return Decision(action, f"{'pays out' if kind == 'payout' else 'pays half' if kind == 'half' else 'withholds'}"
                                        f": anything else would drop its price to nothing and close it")
    return preferred


_PAID = {"withhold": 0, "half": 1, "payout": 2}


def _preferred_dividend(game: Game, corp: Corporation) -> Decision | None:
    """Its dividend (:func:`_policy_dividend`), paying less when the trains others could buy
    before its next turn would leave it without the money for the train it then needs."""
    chosen = _policy_dividend(game, corp)
    if chosen is None:
        return None
    kinds = [c.value for c in choices_for(game, corp.sym, "dividend")]
    revenue = _revenue(game)
    rush = _rush_dividend(game, fresh(game, corp), revenue, kinds)
    kind = str(getattr(chosen.action, "kind", ""))
    if rush is not None and _PAID[str(getattr(rush.action, "kind", ""))] < _PAID.get(kind, 0):
        return rush
    return chosen


def _revenue(game: Game) -> int:
    """The revenue of the run just made."""
    state = getattr(game.round, "state", {}) or {}
    revenue = int(state.get("revenue", 0) or 0)
    routes = state.get("routes") or []
    if not revenue and routes:
        revenue = sum(int(r.get("revenue", 0)) for r in routes if isinstance(r, dict))
    return revenue


def _policy_dividend(game: Game, corp: Corporation) -> Decision | None:
    kinds = [c.value for c in choices_for(game, corp.sym, "dividend")]
    if not kinds:
        return None
    corp = fresh(game, corp)
    revenue = _revenue(game)
    cost = next_train_cost(game, corp)
    keep = "withhold" if "withhold" in kinds else None
    short = corp.cash < cost <= corp.cash + revenue
    steady = corp.par is not None and 4 * price_of(corp) >= 3 * corp.par.price
    # saving for the train its trains' rusting forces; with its price already well below its
    # start only when two runs' revenue reaches it (another fall costs its holders more)
    saving = corp.cash < cost and rust_imminent(game, corp) and (steady or cost <= corp.cash + 2 * revenue)
    growing = short and len(lasting_trains(game, corp)) < min(2, game.corp_train_limit(corp))
    if keep and (needs_train_money(game, corp) or growing) and (short or saving) and game.room(corp):
        # withholding buys the train it needs this turn; paying out would leave it short
        if growing and not needs_train_money(game, corp):
            why = f"withholds {game.fmt(revenue)} to buy a second train ({game.fmt(cost)})"
        elif game.corp_trains(corp.sym):
            why = f"withholds {game.fmt(revenue)}: its trains rust soon and a new one costs {game.fmt(cost)}"
        else:
            why = f"withholds {game.fmt(revenue)} for a train ({game.fmt(cost)})"
        return Decision(A.Dividend(**base(game, corp.sym), kind=keep), why)
    pid = corp.president
    # without loans (1833NE) its president's cash is all that can pay for a train it lacks
    helpless = not game.HAS_LOANS and pid is not None and game.player(pid).cash < cost - corp.cash
    if keep and (steady or helpless) and corp.cash < cost and pid and underpaid_by(game, pid):
        # others have bought its president's trains for next to nothing: it keeps the price of
        # a train in its treasury rather than have its president pay for the next one (unless
        # its price is already well below its start: another fall costs its holders more; but
        # not when its president could not pay for that train and it may not borrow: 1833NE
        # self-play seed 103, where the robot went bankrupt when its corporation's trains were
        # bought away for $1)
        return Decision(A.Dividend(**base(game, corp.sym), kind=keep),
                        f"withholds {game.fmt(revenue)}: others buy its trains below value, and a new one "
                        f"costs {game.fmt(cost)}" + (" (more than its president has)" if helpless else ""))
    fund = _train_fund(game, corp, revenue, kinds)
    if fund is not None:
        return fund
    if "payout" in kinds:
        return Decision(A.Dividend(**base(game, corp.sym), kind="payout"), f"pays out {game.fmt(revenue)}")
    if "half" in kinds:
        return Decision(A.Dividend(**base(game, corp.sym), kind="half"), f"pays half of {game.fmt(revenue)}")
    return Decision(A.Dividend(**base(game, corp.sym), kind=kinds[0]), f"{kinds[0]}s {game.fmt(revenue)}")


def _rush_dividend(game: Game, corp: Corporation, revenue: int, kinds: list[str]) -> Decision | None:
    """Half or nothing paid when the trains the others could buy within its next
    :data:`RUSH_TURNS` turns (:func:`.policy.train_rush`) would end all its trains, or take
    the last bank trains that would outlive them, before what it keeps buys the train it then
    needs: the most it pays that still keeps enough in time (for a train that outlives its
    own, before they are gone; for the train it must own once its trains are gone, before
    then); when nothing does and its trains may be gone before its next turn, it withholds
    everything (its president then pays less of that train). 1833NE self-play: RR paid out
    with a single 3+3, others bought the three 6/9 and a 7+3 before its next turn, and its
    president went bankrupt buying the train it then had to own; StL&A paid out with a single
    2+2 while the others bought the 4/7 cards, the 6/9 made its 2+2 obsolete, and it never had
    the $230 of a 3+3."""
    if "withhold" not in kinds or revenue <= 0:
        return None
    rush = train_rush(game, corp, RUSH_TURNS)
    targets: list[tuple[int, int, str]] = []  # (runs before it needs it, money, what for)
    if rush.ends_in is not None and rush.cost_then > corp.cash:
        when = "before its next turn" if rush.ends_in == 1 else f"within {rush.ends_in} of its turns"
        targets.append((rush.ends_in, rush.cost_then, f"its trains may be gone {when} (others can buy up to the "
                                                      f"{rush.trains[-1].name if rush.trains else 'next'} train), "
                                                      f"and a train then costs {game.fmt(rush.cost_then)}"))
    if rush.lasting_gone_in is not None and rush.lasting_price > corp.cash:
        when = "before its next turn" if rush.lasting_gone_in == 1 else f"within {rush.lasting_gone_in} of its turns"
        targets.append((rush.lasting_gone_in, rush.lasting_price,
                        f"the others may buy the last trains that outlive its own {when}, and one costs "
                        f"{game.fmt(rush.lasting_price)}"))
    if not targets:
        return None
    for kind in ("payout", "half", "withhold"):
        if kind not in kinds:
            continue
        kept = game.dividend_effect(corp, revenue, kind).cash - corp.cash
        met = next((why for runs, need, why in targets if corp.cash + runs * kept >= need), None)
        if met is None:
            continue
        if kind == "payout":
            return None
        return Decision(A.Dividend(**base(game, corp.sym), kind=kind),
                        f"{'pays half of' if kind == 'half' else 'withholds'} {game.fmt(revenue)}: {met}")
    if rush.ends_in == 1 and rush.cost_then > corp.cash:
        return Decision(A.Dividend(**base(game, corp.sym), kind="withhold"),
                        f"withholds {game.fmt(revenue)}: {targets[0][2]}")
    return None


def _train_fund(game: Game, corp: Corporation, revenue: int, kinds: list[str]) -> Decision | None:
    """The run kept, over several runs, towards the next bank train when the corporation will
    need it soon: all its trains rust within :data:`FUND_SALES` bank sales, or none lasts past
    the next two kinds of train while it has room and the next bank train starts a phase (the
    train someone must buy for the game to go on). It pays out or pays half when
    :data:`FUND_SHARE_RUNS` runs of what that keeps buy the train, and withholds when
    :data:`FUND_RUNS` runs do; None when nothing does (then its president's cash, loans or
    issues must help). Without it, an all-computer 1833NE game broke the bank in phase III: the
    corporations paid out every run and none could ever pay $640 for the next train."""
    cost = next_train_cost(game, corp)
    short = cost - corp.cash
    if cost <= 0 or short <= 0 or revenue <= 0:
        return None
    if rust_imminent(game, corp, FUND_SALES):
        why = "its trains rust soon" if game.corp_trains(corp.sym) else "it has no train"
    elif not lasting_trains(game, corp) and game.room(corp) and sales_before_next_phase(game) == 0:
        why = "the next train starts a phase and its trains rust soon after"
    else:
        return None
    for kind, runs in (("payout", FUND_SHARE_RUNS), ("half", FUND_SHARE_RUNS), ("withhold", FUND_RUNS)):
        if kind not in kinds:
            continue
        kept = game.dividend_effect(corp, revenue, kind).cash - corp.cash
        if kept * runs < short:
            continue
        if kind == "payout":
            return None
        if kind == "half":
            return Decision(A.Dividend(**base(game, corp.sym), kind=kind),
                            f"pays half of {game.fmt(revenue)}, keeping {game.fmt(kept)} towards a train "
                            f"({game.fmt(cost)}): {why}")
        return Decision(A.Dividend(**base(game, corp.sym), kind=kind),
                        f"withholds {game.fmt(revenue)} towards a train ({game.fmt(cost)}): {why}")
    return None


# ---------------------------------------------------------------------- trains


def _bank_train_action(game: Game, corp: Corporation, t: Train, *, cheapest_side: bool) -> A.Action | None:
    move = move_for("buy_train", "corporation")
    if move is None:
        return None
    given = {"train": t.id}
    sides = option_choices(game, corp.sym, move, "variant", given)
    corp = fresh(game, corp)
    prices = dict(game.train_variants(t))
    if not sides and prices and cheapest_side:
        # a forced purchase with the president's help: the sides beyond the treasury are not
        # listed; the cheapest side is the one the president may help with
        floor = game.side_floor(corp, t)
        sides = [Choice(name, name) for name, price in game.train_variants(t) if price >= floor]
    if sides:
        pick = min(sides, key=lambda c: prices.get(c.value, 0)) if cheapest_side else \
            max(sides, key=lambda c: prices.get(c.value, 0))
        given["variant"] = pick.value
        given["price"] = str(prices.get(pick.value, t.price))
    try:
        return move.build(game, corp.sym, given)
    except GameError:
        return None


def train_decisions(game: Game, corp: Corporation, types: list[str]) -> list[Decision]:
    offered = choices_for(game, corp.sym, "buy_train")
    corp = fresh(game, corp)
    # (a bank train only affordable by trading a train in is offered too; bought without a
    # trade-in its price is refused, so the computer never trades in)
    bank = [c for c in offered if game.trains[c.value].owner in ("depot", "discard")]
    must = game.must_buy_train(corp)
    out: list[Decision] = reciprocal_buys(game, corp, offered, must)
    if must:
        for c in sorted(bank, key=lambda c: (train_price(game, game.trains[c.value]), c.value)):
            t = game.trains[c.value]
            action = _bank_train_action(game, corp, t, cheapest_side=True)
            corp = fresh(game, corp)
            if action is not None:
                out.append(Decision(action, f"buys {a_train(t.name)}: it must own one to run"))
        # a train from another of its president's corporations, at what the treasury can pay
        out += sister_trains(game, corp, offered, only=False)
        return out
    trains = game.corp_trains(corp.sym)
    lasting = lasting_trains(game, corp)
    limit = game.corp_train_limit(corp)
    if len(trains) >= limit:
        return out
    if trains and not game.can_run_routes(corp) and not game.tile_lays_per_turn(corp):
        # its trains may not run and it may lay no track (1833NE's B&L in phase I while nobody
        # has bought P2): another train would earn nothing, and it keeps the money for track
        return out
    for c in sorted(bank, key=lambda c: (-game.trains[c.value].distance, -game.trains[c.value].price)):
        t = game.trains[c.value]
        if rusts_soon(game, t) and lasting:
            continue  # it would rust before it paid for itself
        action = _bank_train_action(game, corp, t, cheapest_side=False)
        corp = fresh(game, corp)
        if action is None:
            continue
        rusting = rusted_by(game, t.name)
        if not lasting and trains:
            why = f"buys {a_train(t.name)}: its {'/'.join(sorted({x.name for x in trains}))} trains rust soon"
        elif rusting and any(x.name in rusting for x in game.trains.values() if x.owner not in ("depot", "rusted")):
            why = f"buys {a_train(t.name)}: it rusts the {'/'.join(rusting)} trains"
        else:
            why = f"buys {a_train(t.name)} to earn more"
        out.append(Decision(action, why))
    return out


def sister_trains(game: Game, corp: Corporation, offered: list[Choice] | None = None, *,
                  only: bool) -> list[Decision]:
    """Trains of another of its president's corporations for a corporation that must own one,
    at what its treasury can pay: those it can spare (``only`` False: a corporation keeps its
    only train), or (``only`` True) a corporation's only train, taken rather than have the
    president go bankrupt."""
    if offered is None:
        offered = choices_for(game, corp.sym, "buy_train")
    corp = fresh(game, corp)
    out = []
    for c in offered:
        t = game.trains[c.value]
        seller = game.corporations.get(t.owner)
        if seller is None or seller.president != corp.president or corp.cash < 1:
            continue
        spare = len(game.corp_trains(seller.sym)) >= 2 or game.face_value_only(corp, t)
        if spare == only:
            continue
        price = t.price if game.face_value_only(corp, t) else max(1, min(t.price, corp.cash))
        if price > corp.cash:
            continue
        why = (f"buys {seller.sym}'s {t.name} train for {game.fmt(price)}: it must own one" if spare else
               f"buys {seller.sym}'s only {t.name} train for {game.fmt(price)}: its president cannot pay for a"
               f" train from the bank")
        out.append(Decision(A.BuyTrain(**base(game, corp.sym), train=t.id, price=price), why))
    return out


def reciprocal_buys(game: Game, corp: Corporation, offered: list[Choice], must: bool) -> list[Decision]:
    """Trains of corporations that bought trains below value from its president's corporations,
    at $1 in turn (the rules let the buyer name any price): the biggest first, only trains that
    last unless it must own one."""
    pid = corp.president
    owing = underpaid_by(game, pid) if pid is not None else frozenset()
    if not owing or corp.cash < 1 or not (must or game.room(corp)):
        return []
    picks = []
    for c in offered:
        t = game.trains[c.value]
        seller = game.corporations.get(t.owner)
        if seller is None or seller.sym not in owing or seller.president == pid or game.face_value_only(corp, t):
            continue
        if not must and rusts_soon(game, t):
            continue
        picks.append(t)
    picks.sort(key=lambda t: (-t.distance, -t.price, t.id))
    return [Decision(A.BuyTrain(**base(game, corp.sym), train=t.id, price=1),
                     f"buys {t.owner}'s {t.name} train for {game.fmt(1)}, as {t.owner} bought its trains below value")
            for t in picks]


def emergency_sale(game: Game, pid: str, corp: Corporation) -> list[Decision]:
    """The president's sales for the corporation's train, smallest first."""
    move = move_for("sell_shares", "player")
    if move is None:
        return []
    options = option_choices(game, pid, move, "shares", {})
    scored = []
    for c in options:
        ids, percent = sale_of(game, c.value)
        sym = game.shares[ids[0]].corporation
        own = 1 if sym == corp.sym else 0
        scored.append(((own, percent, sym), Decision(A.SellShares(**base(game, pid), shares=ids, percent=percent),
                                                     f"sells {percent}% of {sym} to pay for {corp.sym}'s train")))
    scored.sort(key=lambda t: t[0])
    return [d for _, d in scored]


def discard_decision(game: Game, corp: Corporation) -> list[Decision]:
    options = choices_for(game, corp.sym, "discard_train")
    ranked = sorted(options, key=lambda c: (ends_on(game, game.trains[c.value]) is None, game.trains[c.value].distance,
                                            game.trains[c.value].price, c.value))
    return [Decision(A.DiscardTrain(**base(game, corp.sym), train=c.value),
                     f"discards its {game.trains[c.value].name} train: the weakest over the limit") for c in ranked]


# ---------------------------------------------------------------------- money


def loan_decisions(game: Game, corp: Corporation, types: list[str]) -> list[Decision]:
    out: list[Decision] = []
    if "take_loan" in types and not corp.trains and corp.cash < next_train_cost(game, corp):
        out.append(Decision(A.TakeLoan(**base(game, corp.sym)), "takes a loan: it needs money for a train"))
    if "payoff_loan" in types and corp.loans:
        loan = int(getattr(game, "loan_value", 100))
        if corp.cash - loan >= (next_train_cost(game, corp) if needs_train_money(game, corp) else loan):
            out.append(Decision(A.PayoffLoan(**base(game, corp.sym)), "repays a loan: its interest costs more than cash"))
    return out


def private_buy_decisions(game: Game, corp: Corporation) -> list[Decision]:
    """Buy the president's own private at the highest price the treasury can spare."""
    move = move_for("buy_company", "corporation")
    if move is None or corp.president is None:
        return []
    reserve = next_train_cost(game, corp) if needs_train_money(game, corp) else 0
    out: list[Decision] = []
    companies = option_choices(game, corp.sym, move, "company", {})
    corp = fresh(game, corp)
    for c in companies:
        comp = game.companies[c.value]
        if comp.owner != corp.president:
            continue
        high = min(game.company_max_price(comp), corp.cash - reserve)
        if high < game.company_min_price(comp) or high < comp.value:
            continue
        try:
            action = move.build(game, corp.sym, {"company": comp.sym, "price": str(high)})
        except GameError:
            continue
        out.append(Decision(action, f"buys {comp.sym} from its president for {game.fmt(high)}"))
    return out


def special_buy_decisions(game: Game, corp: Corporation, work: RouteWork | None = None) -> list[Decision]:
    """A right or ferry (1856 tunnel/bridge, 1833NE ferries) when it adds revenue worth its cost."""
    move = move_for("special_buy", "corporation")
    if move is None:
        return []
    reserve = next_train_cost(game, corp) if needs_train_money(game, corp) else 0
    trains = list(game.runnable_trains(corp))
    if not trains:
        return []
    work = work or RouteWork(game)
    now = work.revenue(game, corp.sym, trains)
    cash = corp.cash
    out: list[tuple[int, Decision]] = []
    for c in option_choices(game, corp.sym, move, "right", {}):
        if work.spent:
            break
        action = sample_special(game, corp, c.value)
        if action is None:
            continue
        result = trial(game, action, lambda g: (work.revenue(g, corp.sym, trains), g.corporations[corp.sym].cash))
        if result is None:
            continue
        rev, cash_after = result
        cost = cash - cash_after
        if rev - now <= 0 or 3 * (rev - now) < cost or cash_after < reserve:
            continue
        out.append((rev - now, Decision(action, f"buys the {c.value} for {game.fmt(cost)}: "
                                                f"routes earn {game.fmt(rev - now)} more")))
    out.sort(key=lambda t: -t[0])
    return [d for _, d in out]


def sample_special(game: Game, corp: Corporation, description: str) -> A.Action | None:
    move = move_for("special_buy", "corporation")
    if move is None:
        return None
    cost = int(getattr(game, "right_cost", 0) or 0)
    try:
        return move.build(game, corp.sym, {"right": description, "cost": str(cost)})
    except GameError:
        return None
