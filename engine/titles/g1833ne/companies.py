"""1833NE private companies and ferries: buying privates from players (P6 with a surcharge),
their income, the ferries for sale until phase IV and their values, and the privates flipped
in phase III and removed in phases III and IV."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...entities import Company, Corporation
from ...errors import RULE, GameError
from ...rounds.operating import OperatingRound
from . import provisional as P

if TYPE_CHECKING:
    from .game import G1833NE


def can_buy_companies(g: G1833NE, corp: Corporation) -> bool:
    if not g.phase_status("can_buy_companies") or corp.president is None:
        return False
    rnd = g.round
    if (
        isinstance(rnd, OperatingRound)
        and rnd.state.get("emergency_issued")
        and not any(t not in g.obsolete for t in corp.trains)
    ):
        return False  # 18xx.games (1846 BuyCompany): after an emergency issue only with a train
    return any(company_price_floor(g, c) <= corp.cash for c in g.purchasable_companies())


def company_price_floor(g: G1833NE, c: Company) -> int:
    surcharge: int = g.data.P6_PURCHASE_SURCHARGE if c.sym == "P6" else 0
    return g.company_min_price(c) + surcharge


def company_max_price(g: G1833NE, c: Company) -> int:
    if c.sym == "P6" and isinstance(g.round, OperatingRound):
        # the $40 surcharge comes on top: the price offered leaves room for it
        cash: int = g.round.corp.cash
        surcharge: int = g.data.P6_PURCHASE_SURCHARGE
        return max(1, min(c.value, cash - surcharge))
    return c.value


def company_surcharge(g: G1833NE, company: Company) -> int:
    return g.data.P6_PURCHASE_SURCHARGE if company.sym == "P6" else 0  # P6: $40 more to the bank


def special_buys(g: G1833NE, corp: Corporation) -> list[str]:
    """Ferries for sale ($40 each) until phase IV."""
    if g.ferries_removed or corp.cash < g.data.FERRY_PRICE or corp.president is None:
        return []
    return [f"Ferry {hid}" for hid, owner in g.ferries.items() if owner is None]


def special_buy(g: G1833NE, corp: Corporation, action: A.SpecialBuy) -> None:
    if action.description not in g.special_buys(corp):
        raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now", RULE)
    hid = action.description.split()[-1]
    g.spend(corp.sym, "bank", g.data.FERRY_PRICE)
    g.ferries[hid] = corp.sym
    g.ferry_order.append(hid)
    g.log.append(f"{corp.sym} buys the {P.place_name(hid, g.data)} ferry for {g.fmt(g.data.FERRY_PRICE)}")
    refresh_p5(g)


def p5_choices(g: G1833NE) -> list[str]:
    """The ferries P5 may double: its corporation's, until the player has chosen one (summary:
    "verdoppelt den Wert einer der Fähren der Gesellschaft ...; kann nicht neu zugewiesen
    werden"; which one, and when, is the player's choice: /assign by P5)."""
    p5 = g.companies.get("P5")
    if p5 is None or p5.closed or g.p5_ferry is not None or p5.owner not in g.corporations or g.ferries_removed:
        return []
    return [h for h, owner in g.ferries.items() if owner == p5.owner]


def refresh_p5(g: G1833NE) -> None:
    """P5 offers its choice (an ``assign_hexes`` ability, as 1856's port marker) while it has one."""
    p5 = g.companies.get("P5")
    if p5 is None:
        return
    hexes = p5_choices(g)
    p5.abilities = [{"type": "assign_hexes", "hexes": hexes}] if hexes else []


def assign_p5(g: G1833NE, corp: Corporation, target: str) -> None:
    if target not in p5_choices(g):
        raise GameError(f"P5 may double one of {corp.sym}'s ferries: {', '.join(p5_choices(g)) or 'none'}", RULE)
    g.p5_ferry = target
    g.log.append(f"P5 doubles {corp.sym}'s {P.place_name(target, g.data)} ferry (for good)")
    refresh_p5(g)


def ferry_badge(g: G1833NE, hid: str) -> str | None:
    """ "New" is on the most recently bought ferry; once none is left for sale it carries
    "Last" instead (decision, notes: provisional values)."""
    if not g.ferry_order or g.ferry_order[-1] != hid or g.ferries.get(hid) is None:
        return None
    return "Last" if all(g.ferries.values()) else "New"


def ferry_value(g: G1833NE, corp: Corporation, hid: str) -> int:
    table = g.provisional
    value = table.ferry_value
    badge = g.ferry_badge(hid)
    if badge:
        value += table.ferry_new if badge == "New" else table.ferry_last
    if g.p5_ferry == hid and g.owns_company(corp, "P5"):
        value *= 2  # P5 doubles one ferry including its "New" or "Last" bonus
    return value


def status_notes(g: G1833NE) -> list[str]:
    """Lines the status picture shows under the depot: the ferries while there are any,
    and when the bank counts as empty (both provisional unless the host set them)."""
    table = g.provisional
    bank = f"{P.bank_line(table)} ({P.source_of(table, 'notes')})"
    if g.ferries_removed:
        return [bank]
    parts = []
    for hid, owner in g.ferries.items():
        badge = g.ferry_badge(hid)
        who = owner if owner else f"for sale {g.fmt(g.data.FERRY_PRICE)}"
        parts.append(f"{P.place_name(hid, g.data)} {who}" + (f" ({badge})" if badge else ""))
    return [f"Ferries (ports {P.source_of(table, 'ports')}): " + "  ·  ".join(parts), bank]


def payout_companies(g: G1833NE) -> None:
    income: dict[str, list[str]] = {}
    for c in g.companies.values():
        if c.closed or c.owner is None or c.sym in g.flipped:
            continue  # flipped privates (phase III) earn nothing
        g.bank_pays(c.owner, c.revenue)
        if c.revenue:
            income.setdefault(c.owner, []).append(f"{g.fmt(c.revenue)} from {c.name}")
    for owner, parts in income.items():
        g.log.append(f"{g.name_of(owner)} collects {' and '.join(parts)}")


def phase_three_privates(g: G1833NE) -> None:
    """Summary, phase III: privates in players' hands and P1-P2 are removed; P3-P6 are
    flipped (no more revenue, ability kept)."""
    for c in g.companies.values():
        if c.closed:
            continue
        if c.owner in g.player_by_id or c.sym in ("P1", "P2"):
            g.close_company(c)
            g.removed_companies.add(c.sym)
        else:
            g.flipped.add(c.sym)
    g.log.append("-- Phase III: privates in players' hands and P1-P2 are removed; P3-P6 flip --")


def phase_four(g: G1833NE) -> None:
    """Summary, phase IV: P3-P5 and all ferries are removed; reservations end."""
    for sym in ("P3", "P4", "P5"):
        c = g.companies.get(sym)
        if c and not c.closed:
            g.close_company(c)
            g.removed_companies.add(sym)
    for hid in g.ferries:
        g.ferries[hid] = None
    g.ferries_removed = True
    for sym in list(g.special_reservations):
        g.special_reservations.pop(sym)
        _drop_reservation(g, sym)
    g.log.append("-- Phase IV: P3-P5 and the ferries are removed; reservations end --")


def _drop_reservation(g: G1833NE, sym: str) -> None:
    corp = g.corporations[sym]
    for h in g.board.hexes.values():
        if h.id == corp.home:
            continue
        for res in h.reservations.values():
            while sym in res:
                res.remove(sym)
    g.board.changed()
