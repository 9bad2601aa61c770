"""1833NE round sequence: the operating order (the first OR in ascending price order), starting
a corporation's turn (receivership), the phases and what they remove, the takeover round, and
the game's end (bank, last train, all closed, bankruptcies)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...entities import Corporation, Train
from ...mechanics.phase_text import phase_line
from ...rounds.operating import OperatingRound
from . import companies as C
from . import sherbrooke
from . import train_buying as TB

if TYPE_CHECKING:
    from .game import G1833NE

END_TEXTS = {  # why the game ended, in words (G1833NE.end_reason_text)
    "bank": "the bank ran out of money and the set of operating rounds was played to its end",
    "final_train": "the last train was sold and one more set of operating rounds was played",
    "all_closed": "every corporation and private company had closed",
    "bankrupt": "all players but one went bankrupt",
    "manually_ended": "the host ended it",
    "stalled": "nobody could act any more (no corporation left and no money to start one)",
}


def operating_order(g: G1833NE) -> list[Corporation]:
    corps = [c for c in g.corporations.values() if c.ipoed and not c.closed]
    if g.turn == 1 and g.round_num == 1 and not isinstance(g.round, OperatingRound):
        # summary: the first OR of the game runs in reverse (ascending) price order
        return sorted(
            corps,
            key=lambda c: (
                c.price.price if c.price else 0,
                c.price.corporations.index(c.sym) if c.price else 0,
            ),
        )
    return sorted(corps, key=g.operating_sort_key)


def start_operating(g: G1833NE, rnd: OperatingRound, corp: Corporation) -> bool:
    corp.operated = True
    corp.started = True
    for tid in corp.trains:
        g.trains[tid].operated = False
    if corp.president is None:
        from .steps import operate_in_receivership

        operate_in_receivership(g, rnd, corp)
        return False
    g.log.append(f"{g.name_of(corp.president or '')} operates {corp.sym}")
    return True


def check_end_triggers(g: G1833NE) -> None:
    """Summary "Spielende": the bank running out ends the game after the current sequence
    (stock round and its operating rounds).  18xx.games' GAME_END_CHECK adds: the last
    train sold (one more full set of operating rounds) and every corporation and private
    closed (at once).  All players but one bankrupt ends it at once (bankrupt_player)."""
    if g.finished:
        return
    if g.bank <= g.bank_reserve:
        g.bank_broken()
    if all(c.closed for c in g.corporations.values()) and all(c.closed for c in g.companies.values()):
        g.log.append("-- Every corporation and private company has closed: the game ends --")
        g.end_game("all_closed")


def bank_broken(g: G1833NE) -> None:
    trigger_end(
        g,
        "bank",
        g.turn,
        "-- The bank is empty: the $1,000 notes set aside are added; the game "
        "ends after this set of operating rounds --",
    )


def trigger_end(g: G1833NE, reason: str, after_turn: int, message: str) -> None:
    """The game ends after the last operating round of set ``after_turn``; the earliest
    trigger wins (18xx.games keeps the earliest timing)."""
    if g.end_after_turn is not None and g.end_after_turn <= after_turn:
        return
    g.end_after_turn = after_turn
    g.game_end_triggered = reason
    g.log.append(message)


def next_round(g: G1833NE) -> None:
    from ...rounds.stock import AuctionRound, StockRound
    from .takeover import TakeoverRound

    r = g.round
    if isinstance(r, (AuctionRound, StockRound)) and r.last_to_act is not None:
        ids = [p.id for p in g.players]
        g.priority = (ids.index(r.last_to_act) + 1) % len(ids)
        while g.players[g.priority].bankrupt:
            g.priority = (g.priority + 1) % len(ids)
    if isinstance(r, AuctionRound):
        g.round = g.new_stock_round()
    elif isinstance(r, StockRound):
        g.finish_stock_round()
        g.round_num = 1
        g.round = g.new_operating_round(1)
    elif isinstance(r, TakeoverRound):
        g.turn += 1
        g.round_num = 1
        g.round = g.new_stock_round()
    else:
        if g.check_game_end("operating"):
            return
        if g.round_num < g.operating_rounds_in_set:
            g.round_num += 1
            g.round = g.new_operating_round(g.round_num)
        elif g.takeover_game and g.phase_index >= g.phase_index_of("II"):
            g.round = TakeoverRound(g)
        else:
            g.turn += 1
            g.round_num = 1
            g.round = g.new_stock_round()
    g.log_round_start()
    g.round.start()


def on_train_bought_from_depot(g: G1833NE, train: Train) -> None:
    card = g.card_of[train.id]
    for i, ph in enumerate(g.phases):
        if i > g.phase_index and ph.get("on") == card:
            g.change_phase(i)
            break
    train.events = []
    if not any(t.owner == "depot" for t in g.trains.values()):
        # 18xx.games GAME_END_CHECK final_train: one_more_full_or_set
        trigger_end(
            g,
            "final_train",
            g.turn + 1,
            "-- The last train is sold: the game ends after the next complete set of operating rounds --",
        )


def change_phase(g: G1833NE, index: int) -> None:
    previous = g.phase
    g.phase_index = index
    name = g.phase["name"]
    g.log.append(phase_line(g.phase, previous))
    life = g.data.TRAIN_CARD_LIFE
    rusted: dict[str, list[str]] = {}
    obsolete: dict[str, list[str]] = {}
    for t in g.trains.values():
        obsolete_in, removed_in = life[g.card_of[t.id]]
        if t.owner in g.corporations or t.owner == "discard":
            owner = t.owner if t.owner != "discard" else "open market"
            if removed_in == name:
                rusted.setdefault(t.name, []).append(owner)
                TB.scrap_train(g, t)
            elif obsolete_in == name:
                if t.owner == "discard":
                    rusted.setdefault(t.name, []).append(owner)
                    TB.scrap_train(g, t)
                else:
                    obsolete.setdefault(t.name, []).append(owner)
                    g.obsolete.add(t.id)
    for train, owners in rusted.items():
        held = ", ".join(f"{o} x{owners.count(o)}" for o in dict.fromkeys(owners))
        g.log.append(f"-- Event: {train} trains rust and leave the game ({held}) --")
    for train, owners in obsolete.items():
        held = ", ".join(f"{o} x{owners.count(o)}" for o in dict.fromkeys(owners))
        g.log.append(f"-- Event: {train} trains are obsolete: each runs once more, then is removed ({held}) --")
    if name == "III":
        C.phase_three_privates(g)
    if name == "IV":
        C.phase_four(g)


def check_game_end(g: G1833NE, after: str) -> bool:
    g.check_end_triggers()  # money paid between actions (privates at the start of an OR)
    if g.finished:
        return True
    if (
        after == "operating"
        and g.end_after_turn is not None
        and g.turn >= g.end_after_turn
        and g.round_num >= g.operating_rounds_in_set
        and g.game_end_triggered
    ):
        g.end_game(g.game_end_triggered)
        return True
    return False


def close_corporation(g: G1833NE, corp: Corporation) -> None:
    """A corporation at $0 closes: trains, stations, ferries and privates go; its shares
    are worthless (they return to it)."""
    g.log.append(f"{corp.sym} closes")
    corp.closed = True
    if corp.price and corp.sym in corp.price.corporations:
        corp.price.corporations.remove(corp.sym)
    for tid in list(corp.trains):
        TB.scrap_train(g, g.trains[tid])
    for h in g.board.hexes.values():
        for slots in h.tokens.values():
            for i, holder in enumerate(slots):
                if holder == corp.sym:
                    slots[i] = None
        for res in h.reservations.values():
            while corp.sym in res:
                res.remove(corp.sym)
    g.board.changed()
    sherbrooke.sharer_closed(g, corp)
    for s in g.corp_shares(corp.sym):
        g.move_share(s, corp.sym)
    for c in list(corp.companies):
        g.close_company(g.companies[c])
    for hid, owner in g.ferries.items():
        if owner == corp.sym:
            g.ferries[hid] = None
    g.special_reservations.pop(corp.sym, None)
    if corp.cash:
        g.spend(corp.sym, "bank", corp.cash)  # decision: a closed corporation's treasury returns to the bank
    corp.president = None
    g.pool_overflow.discard(corp.sym)
