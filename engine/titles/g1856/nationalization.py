"""1856-family nationalization: at the first 6-train the companies that cannot repay their
loans either have their president pay the rest or merge into the national (CGR / MESS).

Follows the behaviour of 18xx.games (which the real games were played on): loans are
repaid from treasuries first; the remaining companies, in player order starting with the
buyer of the 6-train, choose in turn; the national's price is the average of the merged
prices (lowest dropped when three or more; floored to $5; at least 100; then 110 or a
multiple of 25 on the top row); every 2 shares (20%) held become one national share, odd
shares go to the market; more than 10 shares issued makes 20 shares of 5%; homes become
national stations first, then the other stations, ten at most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import actions as A
from ...entities import POOL, Corporation, Share, Token, a_train
from ...errors import CANNOT_AFFORD, NOT_OWNER, RULE, GameError
from ...map.board import _open_slot
from ...rounds.operating import OperatingRound, Step
from .steps import as_g1856

if TYPE_CHECKING:
    from .game import G1856


class NationalizationPayoffStep(Step):
    """Each company that could not repay: its president pays ("pass") or it merges ("merge")."""

    name = "repay loans or merge into the national"

    def __init__(self, rnd: OperatingRound):
        super().__init__(rnd)
        self.national = self.game.national_sym or "the national"  # (as 18xx.games' log: "merges into CGR")
        self.name = f"repay loans or merge into {self.national}"

    def active_entities(self) -> list[str]:
        n = self.game.nationalizables
        return [n[0]] if n else []

    def blocking(self) -> bool:
        return bool(self.game.nationalizables)

    def actions(self, entity: str) -> list[str]:
        g = as_g1856(self.game)
        n = g.nationalizables
        if not n or n[0] != entity:
            return []
        owed, pres = self._owed(entity)
        can_pay = pres is not None and g.player(pres).cash >= owed
        return ["merge", "pass"] if can_pay else ["merge"]

    def _owed(self, entity: str) -> tuple[int, str | None]:
        g = as_g1856(self.game)
        corp = g.corp(entity)
        return g.loan_value * corp.loans - corp.cash, corp.president

    def describe(self, entity: str) -> str:
        g = self.game
        if entity not in g.corporations:
            return self.name
        owed, pres = self._owed(entity)
        if pres is None:
            return self.name
        who = g.name_of(pres)
        if "pass" in self.actions(entity):
            return (f"{self.name} ({entity}'s loans need {g.fmt(owed)} more than its treasury: "
                    f"/pass repays them, {who} paying {g.fmt(owed)}; /merge merges {entity} into {self.national})")
        return (f"merge into {self.national} ({entity}'s loans need {g.fmt(owed)} more than its treasury; "
                f"{who} cannot pay it)")

    def pass_words(self, entity: str) -> str | None:
        owed, pres = self._owed(entity)
        return f"Repay the loans ({self.game.name_of(pres)} pays {self.game.fmt(owed)})" if pres else None

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        sym = g.nationalizables[0]
        if isinstance(action, A.Merge):
            if action.corporation not in (None, sym):
                raise GameError(f"{action.corporation} is not the company deciding now ({sym})", NOT_OWNER)
            g.export_fill["corporation"] = sym  # (18xx.games needs it named)
            merge_major(g, g.corp(sym))
        else:
            president_payoff(g, g.corp(sym))

    def skip(self) -> None:
        pass


class RemoveTokensStep(Step):
    """The national removes duplicate stations (two in one hex) and those over its limit."""

    name = "remove national stations"

    def active_entities(self) -> list[str]:
        g = self.game
        sym = g.national_sym
        return [sym] if sym is not None and g.token_removals else []

    def blocking(self) -> bool:
        return bool(self.game.token_removals)

    def actions(self, entity: str) -> list[str]:
        return ["remove_token"] if self.blocking() and entity == self.game.national_sym else []

    def describe(self, entity: str) -> str:
        removals = self.game.token_removals
        if not removals:
            return self.name
        pending = removals[0]
        count = int(pending.get("count", 1))
        return (f"{self.name} (remove {count} station{'s' if count != 1 else ''} on "
                f"{', '.join(pending['hexes'])})")

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        hid, city = g.parse_city(action.city if isinstance(action, A.RemoveToken) else "")
        pending = g.token_removals[0]
        if hid not in pending["hexes"]:
            raise GameError(f"Remove a station on {', '.join(pending['hexes'])}", RULE)
        national = g.national_corp
        slots = g.board.hexes[hid].tokens.get(city, [])
        slot = action.slot if isinstance(action, A.RemoveToken) else None
        if slot is None:
            slot = next((i for i, s in enumerate(slots) if s == national.sym), None)
        if slot is None or not 0 <= slot < len(slots) or slots[slot] != national.sym:
            raise GameError(f"{national.sym} has no station there", NOT_OWNER)
        # one station (of two in a city, the one named)
        slots[slot] = None
        g.board.changed()
        token = next(t for t in national.tokens if t.hex == hid and t.city == city)
        national.tokens.remove(token)
        g.log.append(f"{national.sym} removes its station from {g.place_words(hid, city)}")
        g.export_fill["slot"] = slot
        pending["count"] -= 1
        if pending["count"] <= 0:
            g.token_removals.pop(0)

    def skip(self) -> None:
        pass


class NationalDiscardStep(Step):
    """Right after formation the national may scrap rusting trains and must get down to 3."""

    name = "discard trains"  # (the national, after its formation: "waiting for CGR to discard trains")

    def discardable(self) -> list[str]:
        g = as_g1856(self.game)
        if not g.nationalization_train_discard_trigger or g.national_sym not in g.corporations:
            return []
        trains = [g.trains[t] for t in g.corporations[g.national_sym].trains]
        rusting = [t.id for t in trains if not t.permanent]
        permanent = [t.id for t in trains if t.permanent]
        return rusting + (permanent if len(permanent) > 3 else [])

    def active_entities(self) -> list[str]:
        sym = self.game.national_sym
        return [sym] if sym is not None and self.discardable() else []

    def blocking(self) -> bool:
        return bool(self.discardable())

    def actions(self, entity: str) -> list[str]:
        d = self.discardable()
        if not d or entity != self.game.national_sym:
            return []
        # more than three trains in all: one must go (as 18xx.games counts it)
        must = len(self.game.corporations[entity].trains) > 3
        return ["discard_train"] if must else ["discard_train", "pass"]

    def describe(self, entity: str) -> str:
        if entity not in self.game.corporations:
            return self.name
        held = len(self.game.corporations[entity].trains)
        if held > 3:
            return f"{self.name} ({held} trains, keeps 3: discard {held - 3} more)"
        return f"{self.name} (it may scrap its rusting trains)"

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        if isinstance(action, A.Pass):
            self._done()
            return
        assert isinstance(action, A.DiscardTrain)
        if action.train not in self.discardable():
            raise GameError(f"{g.national_sym} cannot scrap {action.train}", RULE)
        g.remove_train(g.trains[action.train], "discard")
        g.log.append(f"{g.national_sym} discards a {g.trains[action.train].name}-train to the open market")
        if not self.discardable():
            self._done()

    def _done(self) -> None:
        as_g1856(self.game).national_discard_done()

    def skip(self) -> None:
        pass


class BorrowTrainStep(Step):
    """A trainless national that never owned a permanent train may borrow an 8/D train for
    this run; it goes back to the bank when the national finishes buying trains."""

    name = "borrow a train"

    def borrowable(self) -> list[str]:
        g = as_g1856(self.game)
        corp = self.corp
        if corp.sym != g.national_sym or g.national_ever_owned_permanent or corp.trains:
            return []
        if self.round.state.get("borrowed"):
            return []
        for t in g.depot_trains():  # the bank's next 8/D train, or one in its pool
            if t.name in ("8", "D"):
                return [t.id]
        return []

    def blocks(self) -> bool:
        return bool(self.borrowable())

    def actions(self, entity: str) -> list[str]:
        return ["borrow_train", "pass"] if entity == self.corp.sym and self.borrowable() else []

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        self.passed = True
        if isinstance(action, A.Pass):
            return
        assert isinstance(action, A.BorrowTrain)
        if action.train not in self.borrowable():
            raise GameError(f"{self.corp.sym} cannot borrow {action.train}", RULE)
        train = g.trains[action.train]
        g.give_train(train, self.corp.sym)
        train.operated = False
        self.round.state["borrowed"] = train.id
        g.log.append(f"{self.corp.sym} borrows {a_train(train.name)}")


def return_borrowed_train(g: G1856, rnd: OperatingRound) -> None:
    tid = rnd.state.pop("borrowed", None)
    if tid and g.trains[tid].owner == rnd.corp.sym:
        g.remove_train(g.trains[tid], "discard")
        g.log.append(f"{rnd.corp.sym} returns the borrowed {g.trains[tid].name}-train")


class CashCrisisStep(Step):
    """A president who had to pay for the company (unpaid interest, forced loan repayment)
    and is left with negative cash must sell shares (or go bankrupt: BankruptStep)."""

    name = "raise money (cash crisis)"

    def crisis_player(self) -> str | None:
        g = as_g1856(self.game)
        pid = g.cash_crisis_player
        if pid and g.player(pid).cash < 0 and (g.finished or g.end_pending or not g.player(pid).bankrupt):
            return pid
        return None

    def active_entities(self) -> list[str]:
        pid = self.crisis_player()
        return [pid] if pid else []

    def describe(self, entity: str) -> str:
        """How much is owed, and whether a sale can raise it ("raise the $54 owed to the bank
        (cash crisis): no share may be sold, only bankruptcy is left")."""
        if entity != self.crisis_player():
            return self.name
        owed = self.game.fmt(-self.game.player(entity).cash)
        if self.game.crisis_sellable(entity):
            return f"raise the {owed} owed to the bank by selling shares (cash crisis)"
        return f"raise the {owed} owed to the bank (cash crisis): no share may be sold, only bankruptcy is left"

    def blocking(self) -> bool:
        return self.crisis_player() is not None

    def offers_current(self) -> bool:
        return self.crisis_player() is not None  # (18xx.games lists the sale even when none is left)

    def actions(self, entity: str) -> list[str]:
        if entity != self.crisis_player():
            return []
        return ["sell_shares"] if self.game.crisis_sellable(entity) else []

    def process(self, action: A.Action) -> None:
        g = as_g1856(self.game)
        pid = action.entity
        assert isinstance(action, A.SellShares)
        shares, sym, pct = g.named_bundle(action)
        if (sym, pct) not in g.crisis_sellable(pid):
            raise GameError(f"{g.name_of(pid)} cannot sell {pct}% of {sym} now", RULE)
        g.sell_shares(pid, shares, pct)
        self.round.recalculate_order()
        if g.player(pid).cash >= 0:
            g.cash_crisis_player = None

    def skip(self) -> None:
        pass


# ---------------------------------------------------------------------- the event


def start_nationalization(g: G1856, train_owner: str) -> None:
    g.nationalization_trigger = g.corporations[train_owner].president
    g.log.append(f"-- Event: {g.national_sym} formation --")
    for corp in g.corporations.values():
        if not corp.started or corp.loans <= 0 or corp.closed:
            continue
        repaid = min(corp.loans, corp.cash // g.loan_value)
        if repaid > 0:
            g.spend(corp.sym, "bank", repaid * g.loan_value)
            corp.loans -= repaid
            g.loan_book.repay_newest(corp.sym, repaid)
            g.loans_available += repaid
            loans = "loan" if repaid == 1 else "loans"
            g.log.append(f"{corp.sym} repays {g.fmt(repaid * g.loan_value)} to redeem {repaid} {loans}")
    g.nationalizables = nationalizable_corporations(g)
    # With nobody to nationalize, 18xx.games never settles the formation: the national stays
    # unformed (not closed) and the game goes on with loans as before.


def _players_from_trigger(g: G1856) -> list[str]:
    ids = [p.id for p in g.players]
    trigger = g.nationalization_trigger
    if trigger not in ids:
        return ids
    i = ids.index(trigger)
    return ids[i:] + ids[:i]


def nationalizable_corporations(g: G1856) -> list[str]:
    order = {pid: i for i, pid in enumerate(_players_from_trigger(g))}
    rnd = g.round
    entities = rnd.entities if isinstance(rnd, OperatingRound) else []
    corps = [c for c in g.corporations.values()
             if c.started and not c.closed and c.sym != g.national_sym and c.loans > 0]
    corps.sort(key=lambda c: (order.get(c.president or "", 99),
                              entities.index(c.sym) if c.sym in entities else 99))
    return [c.sym for c in corps]


def president_payoff(g: G1856, major: Corporation) -> None:
    owed = g.loan_value * major.loans - major.cash
    if major.cash > 0:
        g.spend(major.sym, "bank", major.cash)
    pres = major.president
    assert pres is not None
    if owed > 0:
        if g.player(pres).cash < owed:
            raise GameError(f"{g.name_of(pres)} cannot pay the {g.fmt(owed)} {major.sym} still owes", CANNOT_AFFORD)
        g.spend(pres, "bank", owed)
    g.loans_available += major.loans
    major.loans = 0
    g.loan_book.repay_all(major.sym)
    g.log.append(f"{g.name_of(pres)} pays off {major.sym}'s debt ({g.fmt(max(owed, 0))})")
    g.nationalizables.remove(major.sym)
    post_corp_nationalization(g)


def merge_major(g: G1856, major: Corporation) -> None:
    national = g.national_corp
    g.national_formed = True
    g.log.append(f"-- {major.sym} merges into {national.sym} --")
    for tid in list(major.trains):
        train = g.trains[tid]
        if train.permanent:
            g.national_ever_owned_permanent = True
        g.give_train(train, national.sym)
    if major.cash > 0:
        g.spend(major.sym, national.sym, major.cash)
    g.loans_available += major.loans
    major.loans = 0
    g.loan_book.repay_all(major.sym)
    for right in sorted(g.rights.get(major.sym, set())):
        if right in g.rights.get(national.sym, set()):
            g.right_markers[right] = g.right_markers.get(right, 0) + 1
        else:
            g.rights.setdefault(national.sym, set()).add(right)
    g.rights.pop(major.sym, None)
    # record where the stations were, then take them off the map
    spots = [(h.id, ci) for h in g.board.hexes.values() for ci, slots in h.tokens.items() if major.sym in slots]
    spots.sort(key=lambda spot: spot[0] != major.home)  # the home station first
    g.merged_token_spots[major.sym] = spots
    for hid, ci in spots:  # the national's station takes the very slot (18xx.games replaces it)
        g.merged_token_slots[(major.sym, hid, ci)] = g.board.hexes[hid].tokens[ci].index(major.sym)
    for h in g.board.hexes.values():
        for slots in h.tokens.values():
            for i, s in enumerate(slots):
                if s == major.sym:
                    slots[i] = None
    g.board.remove_reservations(major.sym)
    for pid in [p.id for p in g.players]:
        pct = g.percent_of(pid, major.sym)
        if pct:
            g.pre_national_percent[pid] = g.pre_national_percent.get(pid, 0) + pct
    g.pre_national_market_percent += g.percent_of(POOL, major.sym)
    assert major.price is not None
    g.pre_national_prices[major.sym] = major.price.price
    g.nationalized_corps.append(major.sym)
    g.nationalizables.remove(major.sym)
    post_corp_nationalization(g)


def post_corp_nationalization(g: G1856) -> None:
    if g.nationalizables:
        return
    national = g.national_corp
    if not g.national_formed:
        g.log.append(f"{national.sym} does not form")
        national.closed = True
        return
    cell = national_price_cell(g)
    national.started = True
    national.operated = False
    national.ipoed = True
    national.par = cell
    national.price = cell
    cell.corporations.append(national.sym)
    g.log.append(f"{national.sym} starts at a share price of {g.fmt(cell.price)} (from the merged "
                 "corporations' prices)")
    national_share_swap(g)
    _log_national_holders(g, national)
    national_token_swap(g)
    for sym in g.nationalized_corps:
        waiting = g.round.active_step() if isinstance(g.round, OperatingRound) else None
        if waiting is not None and waiting.active_entities()[:1] == [sym]:
            # 18xx.games closes a corporation its round waits for (the train buyer that may buy
            # more) by passing every step, the national's discard step too: its formation train
            # limit ends here (one above the phase's), though its discard still comes
            g.national_train_limit_extra = 1
        g.close_corporation(g.corp(sym))
    rnd = g.round
    if isinstance(rnd, OperatingRound):
        merged = [rnd.entities.index(s) for s in g.nationalized_corps if s in rnd.entities]
        trigger_corp = g.trains["6-0"].owner if "6-0" in g.trains else None
        current = rnd.entities.index(trigger_corp) if trigger_corp in rnd.entities else None
        if merged and current is not None and current < min(merged):
            rnd.entities.insert(current + 1, national.sym)
    g.nationalization_train_discard_trigger = True
    g.post_nationalization = True
    g.set_post_nationalization_cert_limit()
    g.board.changed()


def _log_national_holders(g: G1856, national: Corporation) -> None:
    """Who got the national's shares for the merged ones, and its president."""
    for p in g.players:
        pct = g.percent_of(p.id, national.sym)
        if pct:
            g.log.append(f"{p.name} receives {pct}% of {national.sym} for the merged shares")
    pool = g.percent_of(POOL, national.sym)
    if pool:
        g.log.append(f"The market receives {pool}% of {national.sym}")
    if national.president is not None:
        g.log.append(f"{g.name_of(national.president)} becomes the president of {national.sym}")
    if g.false_national_president is not None:
        g.log.append(f"{g.name_of(g.false_national_president)} holds only half of the president's certificate "
                     f"of {national.sym}: they must buy its other half in the next stock round, unless another "
                     "player buys it and becomes president")


def national_price_cell(g: G1856) -> Any:
    prices = list(g.pre_national_prices.values())
    if len(prices) > 2:
        prices.remove(min(prices))
    ave = int(0.2 * sum(prices) / len(prices)) * 5
    if ave < 105:
        target = 100
    elif ave <= 115:
        target = 110
    else:
        delta = ave % 25
        target = ave - delta if delta < 12.5 else ave - delta + 25
    cell = next((c for c in g.market.grid[0] if c is not None and c.price == target), None)
    if cell is None:
        raise GameError(f"No top-row market space at {target}", RULE)
    return cell


def _issue_twenty_shares(g: G1856, national: Corporation) -> None:
    if national.total_shares != 10:
        return
    g.log.append(f"{national.sym} issues 10 more shares; all its shares are now 5% shares")
    for s in g.corp_shares(national.sym):
        s.percent = 10 if s.president else 5
        s.cert_size = 1.0 if s.president else 0.5
    for i in range(20, 30):  # numbered after the 20 shares the old ones now count for (as 18xx.games)
        share = Share(f"{national.sym}_{i}", national.sym, i, 5, False, national.sym, cert_size=0.5)
        g.add_share(share)
    national.total_shares = 20


def national_share_swap(g: G1856) -> None:
    national = g.national_corp
    order = _players_from_trigger(g)
    left = 20
    president_shares = 0
    president: str | None = None
    market_pct = g.pre_national_market_percent
    for pid in order:
        pct = g.pre_national_percent.get(pid)
        if not pct:
            continue
        awarded = min(pct // 20, left)
        market_pct += pct % 20
        left -= awarded
        if awarded > president_shares:
            g.false_national_president = pid if awarded == 1 else None
            president_shares = awarded
            president = pid
    market_count = min(market_pct // 20, left)
    left -= market_count
    if left < 10:
        _issue_twenty_shares(g, national)

    def ipo_sorted() -> list[Share]:
        return sorted(g.ipo_shares(national.sym), key=lambda s: s.index)

    index = 1
    for pid in order:
        n = g.pre_national_percent.get(pid, 0) // 20
        if n <= 0:
            continue
        if pid == president:
            pres = next(s for s in g.corp_shares(national.sym) if s.president)
            if g.false_national_president == pid:
                pres.percent //= 2
                n -= 1
            else:
                n -= 2
            g.move_share(pres, pid)
            national.president = pid
        while n > 0:
            if index == 19:
                g.log.append(f"{national.sym} is out of shares to issue")
                break
            remaining = [s for s in ipo_sorted() if not s.president]
            if not remaining:
                break
            g.move_share(remaining[-1], pid)
            n -= 1
            index += 1
    if market_count > 0:
        # the market may be owed more shares than are left: 18xx.games then raises and its game
        # cannot go on; the market gets those left (docs/rules-deviations.md, "Not copied")
        remaining = [s for s in ipo_sorted() if not s.president]
        for s in remaining[-market_count:]:
            g.move_share(s, POOL)


def national_token_swap(g: G1856) -> None:
    national = g.national_corp
    national.tokens = []
    home_hexes: list[str] = []
    # 18xx.games swaps the stations one by one, the merged corporations' other stations still
    # standing: each national station takes the first free space once the merged station left
    for (sym, hid, ci), slot in g.merged_token_slots.items():
        slots = g.board.hexes[hid].city_slots(ci)
        if sym in g.nationalized_corps and slot < len(slots) and slots[slot] is None:
            slots[slot] = sym
    for sym in g.nationalized_corps:
        spots = g.merged_token_spots.get(sym, [])
        if not spots:
            continue
        hid, city = spots[0]
        _national_token_at(g, national, hid, city, sym)
        home_hexes.append(hid)
    for sym in g.nationalized_corps:
        for hid, city in g.merged_token_spots.get(sym, [])[1:]:
            if hid in home_hexes:
                continue
            # two merged corporations in one city: the later one's station replaces the
            # earlier (as 18xx.games resolves it; only two cities of one hex are left to choose)
            for t in [t for t in national.tokens if t.hex == hid and t.city == city]:
                national.tokens.remove(t)
                slots = g.board.hexes[hid].city_slots(city)
                slots[slots.index(national.sym)] = None
            _national_token_at(g, national, hid, city, sym)
    for h in g.board.hexes.values():  # stations not swapped (in a home hex) leave the map
        for slots in h.tokens.values():
            for i, s in enumerate(slots):
                if s in g.nationalized_corps:
                    slots[i] = None
    g.board.changed()
    by_hex: dict[str, list[Token]] = {}
    for t in national.tokens:
        if t.hex:
            by_hex.setdefault(t.hex, []).append(t)
    duplicates = [h for h, toks in by_hex.items() if len(toks) > 1]
    for hx in duplicates:
        g.token_removals.append({"hexes": [hx], "count": len(by_hex[hx]) - 1})
    keep = max(len(home_hexes), g.national_token_limit)
    placed = len(national.tokens) - sum(len(by_hex[hx]) - 1 for hx in duplicates)
    if placed > keep:
        g.token_removals.append({"hexes": [t.hex for t in national.tokens if t.hex not in home_hexes],
                                 "count": placed - keep})
    spare = max(keep - placed, 0)
    national.tokens.extend(Token(price=g.national_token_price) for _ in range(spare))
    g.log.append(f"{national.sym} has {spare} spare station{'' if spare == 1 else 's'} at "
                 f"{g.fmt(g.national_token_price)}")


def _national_token_at(g: G1856, national: Corporation, hid: str, city: int, major: str) -> None:
    """The national's station for ``major``'s on ``hid``: the merged station leaves, the
    national's takes the first free space."""
    h = g.board.hexes[hid]
    slots = h.city_slots(city)
    if major in slots:
        slots[slots.index(major)] = None
    if national.sym not in slots:
        free = _open_slot(slots, h.reservations.get(city, []), national.sym)
        if free is None:
            slots.append(national.sym)
        else:
            slots[free] = national.sym
    national.tokens.append(Token(price=g.national_token_price, hex=hid, city=city, used=True))
    g.log.append(f"{major}'s token in {g.place_words(hid, city)} is replaced with a {national.sym} token")
