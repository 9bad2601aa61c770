"""1833NE Takeover game (optional rule ``takeover_game``): five extra corporations started
on a free city from phase II, and the takeover round after the second OR of each set.

Rules summary: a corporation with at least one non-obsolete train, connected by track to a
station of another, may take it over by buying all its outstanding shares; the target may
refuse unless it has no trains or only obsolete ones; the acquirer inherits trains, cash,
ferries, privates and stations and gets one more train of limit.

Payment (decision, notes rows 29 and 32): the acquirer pays each outstanding target share at
the target's price, in cash or with shares from its own treasury valued at its own price;
market shares are paid in cash to the bank.  Each of the first two takeovers removes one
unsold 6/9 card (notes row 33).

At the end, the title's own choices for autocomplete, buttons and the random player: the
home city of a corporation without one, and the takeover's target and payment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

from ... import actions as A
from ...choice import Choice, ChoiceHandler, TitleChoiceHandler
from ...entities import POOL, Corporation, Share, Token
from ...errors import CANNOT_AFFORD, LIMIT, PRICE, RULE, GameError
from ...rounds.stock import Round

if TYPE_CHECKING:
    from ...game import Game
    from ...market import Cell
    from .game import G1833NE
    from .steps import NEStockRound


@dataclass(frozen=True)
class Takeover(A.Action):
    type: ClassVar[str] = "takeover"
    corporation: str = ""
    shares: int = 0  # how many of the acquirer's treasury shares it pays with (the rest in cash)

    def describe(self, money: Callable[[int], str] = str) -> str:
        paid = f", paying with {self.shares} of its shares" if self.shares else ""
        return f"{self.entity} takes over {self.corporation}{paid}"


@dataclass(frozen=True)
class AcceptTakeover(A.Action):
    type: ClassVar[str] = "accept_takeover"

    def describe(self, money: Callable[[int], str] = str) -> str:
        return f"{self.entity} accepts the takeover"


# ---------------------------------------------------------------------------- variable starts
def variable_homes(g: G1833NE, corp: Corporation) -> list[tuple[str, int, int]]:
    """(hex, city, home station price) where a takeover corporation may start: any free city
    place that is not reserved and not the home of another corporation still to start;
    $80 on a gray or trackless hex, else $120 (summary).  A place is reserved, not its city:
    "auf jedem freien Stadtplatz ..., der nicht reserviert ... ist", so a city with a free
    place beside one reserved (BW's in Worcester, B&P's in Boston) counts
    (``free_slots`` leaves the reserved places out)."""
    homes_waiting = {c.home for c in g.corporations.values() if c.home and not c.ipoed and not c.closed}
    prices = g.data.TAKEOVER_HOME_TOKEN_PRICE
    out = []
    for h in g.board.hexes.values():
        if h.id in homes_waiting:
            continue
        for c in h.tile.cities:
            if g.board.free_slots(h, c.index, corp.sym) <= 0:
                continue
            cost = prices["gray_or_no_track"] if (h.color == "gray" or not h.tile.paths) else prices["other"]
            out.append((h.id, c.index, cost))
    return sorted(out)


def start_variable_corporation(g: G1833NE, rnd: NEStockRound, pid: str, action: A.Par) -> None:
    """Par a takeover corporation; its home is ``action.extra['home']`` (a hex id, optional
    ``city``), else the first allowed city.  The corporation pays for its home station."""
    corp = g.corp(action.corporation)
    if not g.can_par(pid, corp):
        raise GameError(f"{corp.sym} cannot be started now", RULE)
    cell: Cell | None
    try:
        cell = g.market.cell_from_id(action.share_price)
    except ValueError:
        raw = str(action.share_price).split(",")[0]
        cell = g.market.par_cell(int(raw)) if raw.isdigit() else None
    if cell is None or not cell.can_par:
        raise GameError(f"{action.share_price} is not a start price", PRICE)
    options = [
        o
        for o in variable_homes(g, corp)
        if o[2] < g.data.TAKEOVER_HOME_TOKEN_PRICE["other"]
        or cell.price >= g.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN
    ]
    want = action.extra.get("home")
    if want:
        options = [o for o in options if o[0] == want and o[1] == int(action.extra.get("city", o[1]))]
    if not options:
        raise GameError(
            f"{corp.sym} has no allowed home"
            + (f" on {want}" if want else "")
            + f" at a start price of {g.fmt(cell.price)}"
        , RULE)
    hid, city, cost = options[0]
    if g.num_certs(pid) + 1 > g.cert_limit():
        raise GameError(f"{g.name_of(pid)} would exceed the certificate limit", LIMIT)
    if g.player(pid).cash < cell.price * 2:
        raise GameError(f"Starting {corp.sym} at {g.fmt(cell.price)} costs {g.fmt(cell.price * 2)}", PRICE)
    pres = next(s for s in g.corp_shares(corp.sym) if s.president)
    g.par_corporation(corp, cell, pid)
    g.transfer_share_from_ipo(pid, pres, cell.price)
    corp.home = hid
    g.spend(corp.sym, "bank", cost)
    g.place_home(corp, hid, city)
    where = g.board.hexes[hid].location or hid
    g.log.append(
        f"{g.name_of(pid)} starts {corp.sym} at {g.fmt(cell.price)} in {where} ({hid}); {corp.sym} pays "
        f"{g.fmt(cost)} for its home station; {g.name_of(pid)} is its president"
    )
    rnd.bought_this_turn.append(corp.sym)


# ---------------------------------------------------------------------------- takeovers
SIX_NINE = "6/9"
REMOVED = "removed"  # owner of a 6/9 card a takeover took out of the game


@dataclass
class Payment:
    """How a takeover is paid: the acquirer's shares each player receives and the cash each
    holder ("bank" for the market's shares) receives."""

    shares: dict[str, int] = field(default_factory=dict)
    cash: dict[str, int] = field(default_factory=dict)

    @property
    def total_cash(self) -> int:
        return sum(self.cash.values())


def has_running_train(g: G1833NE, corp: Corporation) -> bool:
    return any(t not in g.obsolete for t in corp.trains)


def takeover_cost(g: G1833NE, target: Corporation) -> int:
    """The value of the target's outstanding shares (all but its treasury's) at its price."""
    assert target.price is not None
    outstanding = sum(s.percent for s in g.corp_shares(target.sym) if s.owner != target.sym) // 10
    return outstanding * target.price.price


def treasury_shares(g: G1833NE, corp: Corporation) -> list[Share]:
    return [s for s in g.ipo_shares(corp.sym) if not s.president]


def payment_plan(g: G1833NE, acq: Corporation, target: Corporation, shares: int) -> Payment:
    """Split the price of the target's outstanding shares into ``shares`` of the acquirer's
    treasury shares and cash.  Decision (notes row 32): the shares go one at a time to the
    player still owed the most (ties: the target's president, then seat order after him), only
    to a player owed at least the share's value (the acquirer's price) who stays within 60% of
    the acquirer; the market's shares and everything not paid in shares are paid in cash.
    GameError if the shares do not fit; the acquirer's cash is not checked here."""
    assert target.price is not None and acq.price is not None
    if shares < 0:
        raise GameError("The number of shares to pay with cannot be negative", RULE)
    own = len(treasury_shares(g, acq))
    if shares > own:
        raise GameError(f"{acq.sym} cannot pay with {shares} of its shares: only {own} in its treasury", CANNOT_AFFORD)
    owed: dict[str, int] = {}
    for s in g.corp_shares(target.sym):
        if s.owner != target.sym:
            holder = "bank" if s.owner == POOL else s.owner
            owed[holder] = owed.get(holder, 0) + target.price.price * s.percent // 10
    order = [pid for pid in g.seat_order_from(target.president) if pid in owed]
    if target.president in owed:
        order = [target.president, *order[:-1]]  # the president first, then seat order
    value = acq.price.price
    plan = Payment()
    for n in range(shares):
        got = {pid: plan.shares.get(pid, 0) for pid in order}
        fits = [
            pid for pid in order if owed[pid] >= value and g.holding_ok(pid, acq.sym, 10 * (got[pid] + 1))
        ]
        if not fits:
            raise GameError(
                f"{acq.sym} cannot pay with {shares} of its shares: only {n} can go to "
                f"{target.sym}'s shareholders (a share worth {g.fmt(value)} goes only to a "
                f"player owed at least that much, and nobody may hold more than "
                f"{g.HOLDING_LIMIT}% of {acq.sym})"
            , RULE)
        pid = max(fits, key=lambda p: owed[p])  # the first of equals in ``order``
        owed[pid] -= value
        plan.shares[pid] = got[pid] + 1
    plan.cash = {h: v for h, v in owed.items() if v}
    return plan


def check_payment(g: G1833NE, acq: Corporation, target: Corporation, shares: int) -> Payment:
    """The payment plan, or GameError if the shares do not fit or the cash part is too much."""
    plan = payment_plan(g, acq, target, shares)
    if plan.total_cash > acq.cash:
        paid = f" besides {shares} of its shares" if shares else ""
        raise GameError(
            f"{acq.sym} cannot pay {g.fmt(plan.total_cash)} in cash for {target.sym}'s shares"
            f"{paid}: it has {g.fmt(acq.cash)}"
        , RULE)
    return plan


def takeover_share_options(g: G1833NE, acq: Corporation, target: Corporation) -> list[int]:
    """The numbers of its own shares ``acq`` may pay with for ``target`` (empty: unaffordable)."""
    out = []
    for n in range(len(treasury_shares(g, acq)) + 1):
        try:
            check_payment(g, acq, target, n)
        except GameError:
            continue
        out.append(n)
    return out


def connected_targets(g: G1833NE, acq: Corporation) -> list[Corporation]:
    """Corporations ``acq`` may try to take over, money aside."""
    if acq.closed or acq.president is None or not has_running_train(g, acq):
        return []
    _, nodes = g.board.connectivity(acq.sym)
    out = []
    for c in g.corporations.values():
        if c is acq or c.closed or not c.ipoed:
            continue
        if {(t.hex, t.city) for t in c.tokens if t.used} & nodes:
            out.append(c)
    return out


def takeover_targets(g: G1833NE, acq: Corporation) -> list[Corporation]:
    return [c for c in connected_targets(g, acq) if takeover_share_options(g, acq, c)]


def can_refuse(g: G1833NE, target: Corporation) -> bool:
    return target.president is not None and has_running_train(g, target)


def describe_payment(g: G1833NE, acq: Corporation, shares: int, cash: int) -> str:
    """ "2 BW shares and $40", "2 BW shares" or "$40"."""
    parts = [f"{shares} {acq.sym} share{'s' if shares != 1 else ''}"] if shares else []
    return " and ".join(parts + ([g.fmt(cash)] if cash or not shares else []))


def take_over(g: G1833NE, acq: Corporation, target: Corporation, shares: int = 0) -> None:
    """Buy out the target's outstanding shares (``shares`` of them paid with the acquirer's
    treasury shares, the rest in cash) and absorb it."""
    plan = check_payment(g, acq, target, shares)
    assert target.price is not None
    percent: dict[str, int] = {}  # holder -> percent of the target handed in
    for s in g.corp_shares(target.sym):
        if s.owner != target.sym:
            holder = "bank" if s.owner == POOL else s.owner
            percent[holder] = percent.get(holder, 0) + s.percent
            g.move_share(s, target.sym)
    own = treasury_shares(g, acq)
    g.log.append(
        f"{acq.sym} takes over {target.sym} for "
        f"{describe_payment(g, acq, sum(plan.shares.values()), plan.total_cash)}"
    )
    for holder in percent:
        n, cash = plan.shares.get(holder, 0), plan.cash.get(holder, 0)
        g.spend(acq.sym, holder, cash)
        for _ in range(n):
            g.move_share(own.pop(0), holder)
        who = "The bank" if holder == "bank" else g.name_of(holder)
        g.log.append(
            f"{who} receives {describe_payment(g, acq, n, cash)} for {percent[holder]}% of {target.sym}"
        )
    if plan.shares:
        g.change_president(acq.sym)  # a player may now hold more of the acquirer than its president
    if target.cash:
        g.spend(target.sym, acq.sym, target.cash)
    for tid in list(target.trains):
        g.give_train(g.trains[tid], acq.sym)
    for csym in list(target.companies):
        target.companies.remove(csym)
        acq.companies.append(csym)
        g.companies[csym].owner = acq.sym
    for hid, owner in g.ferries.items():
        if owner == target.sym:
            g.ferries[hid] = acq.sym
    for tok in target.tokens:
        if not tok.used or tok.hex is None or tok.city is None:
            continue
        slots = g.board.hexes[tok.hex].tokens.get(tok.city, [])
        for i, slot in enumerate(slots):
            if slot == target.sym:
                slots[i] = None if acq.sym in slots else acq.sym
        if acq.sym in slots and not any(
            t.used and t.hex == tok.hex and t.city == tok.city for t in acq.tokens
        ):
            acq.tokens.append(Token(price=0, hex=tok.hex, city=tok.city, used=True))
    g.sherbrooke_sharer_taken_over(target, acq)
    g.board.changed()
    g.takeovers[acq.sym] = g.takeovers.get(acq.sym, 0) + 1 + g.takeovers.get(target.sym, 0)
    g.close_corporation(target)
    remove_six_nine_card(g)


def remove_six_nine_card(g: G1833NE) -> None:
    """Decision: each of the first two takeovers of the game removes the last unsold 6/9 card
    (the discard pile does not count).  The unsold cards only ever decrease, so counting the
    cards removed so far is the same as counting takeovers."""
    cards = [g.trains[t] for t in g.train_order if g.card_of[t] == SIX_NINE]
    if sum(1 for t in cards if t.owner == REMOVED) >= g.data.TAKEOVERS_REMOVING_A_6_9:
        return
    unsold = [t for t in cards if t.owner == "depot"]
    if not unsold:
        return
    g.remove_train(unsold[-1], REMOVED)
    g.log.append(f"The takeover removes a {SIX_NINE} card from the bank ({len(unsold) - 1} left)")


class TakeoverRound(Round):
    """After the second OR of each set from phase II: in operating order each corporation
    that can may attempt one takeover; the target's president may refuse (if it has a
    running train)."""

    name = "Takeover Round"

    def __init__(self, game: G1833NE):
        super().__init__(game)
        self.game: G1833NE = game
        self.order = [c.sym for c in game.operating_order()]
        self.index = 0
        # (acquirer, target, own shares offered) awaiting the target's answer
        self.pending: tuple[str, str, int] | None = None
        self.last_to_act: str | None = None

    def start(self) -> None:
        g = self.game
        g.log.append("-- Takeover Round --")
        self._advance()
        if self.finished() and not g.finished:  # (the round ends at once: say why)
            reach = any(connected_targets(g, g.corporations[sym]) for sym in self.order)
            g.log.append("No takeover is possible: " + (
                "the corporations that reach another's station cannot pay for it" if reach else
                "no corporation with a running train reaches another corporation's station"))

    def _advance(self) -> None:
        g = self.game
        while self.index < len(self.order):
            c = g.corporations[self.order[self.index]]
            if takeover_targets(g, c):
                return
            self.index += 1

    def finished(self) -> bool:
        return self.index >= len(self.order) or self.game.finished

    def acting(self) -> list[str]:
        if self.finished():
            return []
        if self.pending:
            return [self.pending[1]]
        return [self.order[self.index]]

    def action_types(self, entity: str) -> list[str]:
        if entity not in self.acting():
            return []
        return ["accept_takeover", "pass"] if self.pending else ["takeover", "pass"]

    def targets(self) -> list[Corporation]:
        if self.finished() or self.pending:
            return []
        return takeover_targets(self.game, self.game.corporations[self.order[self.index]])

    def process(self, action: A.Action) -> None:
        self.check_actor(action)
        g = self.game
        if self.pending:
            acq, target = (g.corporations[s] for s in self.pending[:2])
            shares = self.pending[2]
            self.pending = None
            if isinstance(action, AcceptTakeover):
                g.log.append(f"{target.sym} accepts the takeover by {acq.sym}")
                take_over(g, acq, target, shares)
            else:
                g.log.append(f"{target.sym} refuses the takeover by {acq.sym}")
            self._next()
            return
        acq = g.corporations[self.order[self.index]]
        if isinstance(action, A.Pass):
            g.log.append(f"{acq.sym} passes")
            self._next()
            return
        assert isinstance(action, Takeover)
        target = g.corp(action.corporation)
        if target not in connected_targets(g, acq):
            raise GameError(
                f"{acq.sym} cannot take over {target.sym}: it needs a running train and a track "
                f"connection to a {target.sym} station"
            , RULE)
        plan = check_payment(g, acq, target, action.shares)
        if can_refuse(g, target):
            self.pending = (acq.sym, target.sym, action.shares)
            g.log.append(
                f"{acq.sym} offers to take over {target.sym} for "
                f"{describe_payment(g, acq, sum(plan.shares.values()), plan.total_cash)}"
            )
            return
        take_over(g, acq, target, action.shares)
        self._next()

    def _next(self) -> None:
        self.index += 1
        self._advance()


def par(game: Game, entity: str, partial: dict[str, str], general: ChoiceHandler) -> list[Choice]:
    """After the start price: the free cities a corporation without a home may start on at this
    price (a $120 home needs a start price of at least $60)."""
    if "price" not in partial or "corporation" not in partial:
        return general(game, entity, partial)
    game = cast("G1833NE", game)
    corp = game.corporations.get(partial["corporation"])
    if corp is None or corp.home is not None:
        return []
    raw = partial["price"].split(",")[0]
    value = int(raw) if raw.isdigit() else 0
    prices = game.data.TAKEOVER_HOME_TOKEN_PRICE
    out: dict[str, Choice] = {}
    for hid, _city, cost in game.variable_homes(corp):
        if hid not in out and (cost < prices["other"] or value >= game.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN):
            out[hid] = Choice(
                hid, f"{game.board.hexes[hid].location or hid} ({hid}), home station {game.fmt(cost)}"
            )
    return list(out.values())


def takeover(game: Game, entity: str, partial: dict[str, str], general: ChoiceHandler) -> list[Choice]:
    """The target, then how many of its own shares the acquirer pays with."""
    game = cast("G1833NE", game)
    rnd = game.round
    if not isinstance(rnd, TakeoverRound):
        return []
    acq = game.corporations[entity]
    if "corporation" not in partial:
        return [
            Choice(
                c.sym, f"{c.sym} - {c.name}, outstanding shares worth {game.fmt(takeover_cost(game, c))}"
            )
            for c in rnd.targets()
        ]
    target = game.corporations.get(partial["corporation"])
    if target is None or target not in rnd.targets():
        return []
    out = []
    for n in takeover_share_options(game, acq, target):
        cash = check_payment(game, acq, target, n).total_cash
        out.append(Choice(str(n), f"pay {describe_payment(game, acq, n, cash)}"))
    return out


def ferry(game: Game, entity: str, partial: dict[str, str], general: ChoiceHandler) -> list[Choice]:
    """The ferries for sale by their places: "Boston ferry (G22) for $40, leaves $140" (the
    value stays "Ferry G22"; a play-test found "Ferry I14" alone hard to place)."""
    from .provisional import place_name

    out = []
    for c in general(game, entity, partial):
        hid = c.value.split()[-1]
        head = f"{place_name(hid, game.data)} ferry ({hid})"
        out.append(Choice(c.value, c.label.replace(c.value, head, 1) if c.label.startswith(c.value) else c.label))
    return out


HANDLERS: dict[str, TitleChoiceHandler] = {"par": par, "takeover": takeover, "special_buy": ferry}
