"""1833NE Takeover game (optional rule ``takeover_game``): five extra corporations started
on a free city from phase II, and the takeover round after the second OR of each set.

Rules summary: a corporation with at least one non-obsolete train, connected by track to a
station of another, may take it over by buying all its outstanding shares; the target may
refuse unless it has no trains or only obsolete ones; the acquirer inherits trains, cash,
ferries, privates and stations and gets one more train of limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .. import actions as A
from ..entities import POOL, Corporation, Token
from ..errors import GameError
from ..rounds import Round

if TYPE_CHECKING:
    from .g1833ne import G1833NE
    from .g1833ne_steps import NEStockRound


@dataclass(frozen=True)
class Takeover(A.Action):
    type: ClassVar[str] = "takeover"
    corporation: str = ""

    def describe(self) -> str:
        return f"{self.entity} takes over {self.corporation}"


@dataclass(frozen=True)
class AcceptTakeover(A.Action):
    type: ClassVar[str] = "accept_takeover"

    def describe(self) -> str:
        return f"{self.entity} accepts the takeover"


# ---------------------------------------------------------------------------- variable starts
def variable_homes(g: G1833NE, corp: Corporation) -> list[tuple[str, int, int]]:
    """(hex, city, home station price) where a takeover corporation may start: any free city
    place that is not reserved and not the home of another corporation still to start;
    $80 on a gray or trackless hex, else $120 (summary)."""
    homes_waiting = {c.home for c in g.corporations.values() if c.home and not c.ipoed and not c.closed}
    prices = g.data.TAKEOVER_HOME_TOKEN_PRICE
    out = []
    for h in g.board.hexes.values():
        if h.id in homes_waiting:
            continue
        for c in h.tile.cities:
            if g.board.free_slots(h, c.index, corp.sym) <= 0 or h.reservations.get(c.index):
                continue
            cost = prices["gray_or_no_track"] if (h.color == "gray" or not h.tile.paths) else prices["other"]
            out.append((h.id, c.index, cost))
    return sorted(out)


def start_variable_corporation(g: G1833NE, rnd: NEStockRound, pid: str, action: A.Par) -> None:
    """Par a takeover corporation; its home is ``action.extra['home']`` (a hex id, optional
    ``city``), else the first allowed city.  The corporation pays for its home station."""
    corp = g.corp(action.corporation)
    if not g.can_par(pid, corp):
        raise GameError(f"{corp.sym} cannot be started now")
    try:
        cell = g.market.cell_from_id(action.share_price)
    except ValueError:
        raw = str(action.share_price).split(",")[0]
        cell = g.market.par_cell(int(raw)) if raw.isdigit() else None  # type: ignore[assignment]
    if cell is None or not cell.can_par:
        raise GameError(f"{action.share_price} is not a start price")
    options = [o for o in variable_homes(g, corp)
               if o[2] < g.data.TAKEOVER_HOME_TOKEN_PRICE["other"] or cell.price >= g.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN]
    want = action.extra.get("home")
    if want:
        options = [o for o in options if o[0] == want and o[1] == int(action.extra.get("city", o[1]))]
    if not options:
        raise GameError(f"{corp.sym} has no allowed home" + (f" on {want}" if want else "")
                        + f" at a start price of {g.fmt(cell.price)}")
    hid, city, cost = options[0]
    if g.num_certs(pid) + 1 > g.cert_limit():
        raise GameError(f"{g.name_of(pid)} would exceed the certificate limit")
    if g.player(pid).cash < cell.price * 2:
        raise GameError(f"Starting {corp.sym} at {g.fmt(cell.price)} costs {g.fmt(cell.price * 2)}")
    pres = next(s for s in g.corp_shares(corp.sym) if s.president)
    g.par_corporation(corp, cell, pid)
    g.transfer_share_from_ipo(pid, pres, cell.price)
    corp.home = hid
    g.spend(corp.sym, "bank", cost)
    g.place_home(corp, hid, city)
    g.log.append(f"{g.name_of(pid)} starts {corp.sym} at {g.fmt(cell.price)} in {hid} "
                 f"(home station {g.fmt(cost)})")
    rnd.bought_this_turn.append(corp.sym)


# ---------------------------------------------------------------------------- takeovers
def has_running_train(g: G1833NE, corp: Corporation) -> bool:
    return any(t not in g.obsolete for t in corp.trains)


def takeover_cost(g: G1833NE, target: Corporation) -> int:
    assert target.price is not None
    outstanding = sum(s.percent for s in g.corp_shares(target.sym) if s.owner != target.sym) // 10
    return outstanding * target.price.price


def takeover_targets(g: G1833NE, acq: Corporation) -> list[Corporation]:
    if acq.closed or acq.president is None or not has_running_train(g, acq):
        return []
    _, nodes = g.board.connectivity(acq.sym)
    out = []
    for c in g.corporations.values():
        if c is acq or c.closed or not c.ipoed:
            continue
        stations = {(t.hex, t.city) for t in c.tokens if t.used}
        if stations & nodes and takeover_cost(g, c) <= acq.cash:
            out.append(c)
    return out


def can_refuse(g: G1833NE, target: Corporation) -> bool:
    return target.president is not None and has_running_train(g, target)


def take_over(g: G1833NE, acq: Corporation, target: Corporation) -> None:
    """Buy out the target's outstanding shares at its price and absorb it."""
    assert target.price is not None
    price = target.price.price
    cost = takeover_cost(g, target)
    if cost > acq.cash:
        raise GameError(f"{acq.sym} cannot pay {g.fmt(cost)} for {target.sym}'s shares")
    for s in g.corp_shares(target.sym):
        if s.owner == target.sym:
            continue
        amount = price * s.percent // 10
        g.spend(acq.sym, "bank" if s.owner == POOL else s.owner, amount)
        g.move_share(s, target.sym)
    g.log.append(f"{acq.sym} takes over {target.sym} for {g.fmt(cost)}")
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
        for i, s in enumerate(slots):
            if s == target.sym:
                slots[i] = None if acq.sym in slots else acq.sym
        if acq.sym in slots and not any(t.used and t.hex == tok.hex and t.city == tok.city for t in acq.tokens):
            acq.tokens.append(Token(price=0, hex=tok.hex, city=tok.city, used=True))
    g.board.changed()
    g.takeovers[acq.sym] = g.takeovers.get(acq.sym, 0) + 1 + g.takeovers.get(target.sym, 0)
    g.close_corporation(target)


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
        self.pending: tuple[str, str] | None = None  # (acquirer, target) awaiting an answer
        self.last_to_act: str | None = None

    def start(self) -> None:
        self.game.log.append("-- Takeover Round --")
        self._advance()

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
            acq, target = (g.corporations[s] for s in self.pending)
            self.pending = None
            if isinstance(action, AcceptTakeover):
                take_over(g, acq, target)
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
        if target not in takeover_targets(g, acq):
            raise GameError(f"{acq.sym} cannot take over {target.sym}: it needs a running train, a track "
                            f"connection to a {target.sym} station and the money for its shares")
        if can_refuse(g, target):
            self.pending = (acq.sym, target.sym)
            g.log.append(f"{acq.sym} offers to take over {target.sym}")
            return
        take_over(g, acq, target)
        self._next()

    def _next(self) -> None:
        self.index += 1
        self._advance()
