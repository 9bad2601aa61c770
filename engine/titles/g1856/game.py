"""1856 rules (and the 1856 family: 1836Jr56 reuses them on its own map).

Capitalization is fixed at par by the train era (escrow / incremental / full), the float
percentage grows as train types sell out, corporations take loans (one per OR, at most one
per share in players' hands) and pay interest, escrow money is released at the
destination, and the first 6-train nationalises the companies that cannot repay (CGR).

:class:`G1856` is the last of the layers :mod:`.base` (state and set-up), :mod:`.finance`
(loans, cash crises), :mod:`.stock` (stock round, the national's shares) and :mod:`.privates`
(rights, port, teleport); it adds the rounds, track and destinations, revenue, share prices
and closing, and trains. 1856's own steps are in :mod:`.steps`, :mod:`.trains` and
:mod:`.nationalization`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...entities import Corporation, Train
from ...errors import ILLEGAL_ROUTE, LIMIT, PRICE, GameError
from ...map.tiles import Tile
from ...market import Cell
from ...mechanics.revenue import DividendEffect
from ...rounds.operating import (
    BuyCompanyStep,
    BuyTrainStep,
    DiscardTrainStep,
    DividendStep,
    FinalBuyCompanyStep,
    OperatingRound,
    RouteStep,
    Step,
    TokenStep,
    TrackStep,
)
from ...rounds.special_steps import HomeTokenStep, SpecialBuyStep, SpecialStep
from .nationalization import (
    BorrowTrainStep,
    CashCrisisStep,
    NationalDiscardStep,
    NationalizationPayoffStep,
    RemoveTokensStep,
    return_borrowed_train,
    start_nationalization,
)
from .privates import G1856Privates
from .steps import AssignStep, LoanStep, TeleportTokenStep
from .trains import BankruptStep, G1856BuyTrainStep

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

    from ...map.board import HexState
    from ...rounds.stock import Round

__all__ = ["G1856", "SpecialBuyStep"]  # SpecialBuyStep: engine.rounds.special_steps (imported from here by 1833NE)


class G1856(G1856Privates):
    """1856: rounds, track and destinations, revenue, share prices and closing, trains."""

    def new_operating_round(self, num: int) -> OperatingRound:
        steps: list[type[Step]] = [
            BankruptStep, CashCrisisStep, AssignStep, LoanStep, SpecialStep, TeleportTokenStep, BuyCompanyStep,
            HomeTokenStep,
            NationalizationPayoffStep, RemoveTokensStep, NationalDiscardStep, SpecialBuyStep,
            TrackStep, TokenStep, BorrowTrainStep, RouteStep, DividendStep, DiscardTrainStep, G1856BuyTrainStep,
            FinalBuyCompanyStep,
        ]
        return OperatingRound(self, num, steps)

    def stations_leaving(self) -> dict[tuple[str, int, int], str]:
        if not self.nationalizables:  # the national formed (its stations replaced them) or none is forming
            return {}
        return {(hid, city, slot): sym for (sym, hid, city), slot in self.merged_token_slots.items()
                if sym in self.nationalized_corps}

    def failed_to_float(self, corp: Corporation) -> None:
        self.national_discard_done()  # 18xx.games ends every step here, that one too

    def end_of_turn(self, rnd: OperatingRound, corp: Corporation) -> None:
        # Interest is settled after an action once the run is over (after_step_action). As on
        # 18xx.games, a turn whose run, dividend and later steps were all skipped right after
        # its last action owes none that round (docs/rules-deviations.md).
        pass

    def after_step_action(self, rnd: OperatingRound, action: A.Action) -> None:
        corp = rnd.corp
        self.note_route(corp)
        # which company caused a cash crisis is known for the next action only (18xx.games
        # forgets it when it settles interest and loans again after every action)
        self.cash_crisis_corp = None
        route_passed = any(isinstance(s, RouteStep) and s.passed for s in rnd.steps)
        if route_passed and not rnd.state.get("paid_interest"):
            self.pay_interest(rnd, corp)
        buy_passed = any(isinstance(s, BuyTrainStep) and s.passed for s in rnd.steps)
        if buy_passed:
            self.force_repay_loans(rnd, corp)
        if self.bank < 0:
            self.bank_broken()

    def closing_ends_idle_turn(self) -> bool:
        return True

    def after_operating_action(self, rnd: OperatingRound, president: str | None) -> None:
        """18xx.games takes the player in a cash crisis to be the operating corporation's
        president, afresh after every action, in a crisis while their cash is negative: once
        that corporation has closed (its president's sale dropped it to 0) the next action
        leaves nobody in crisis, even a president still owing money (the round moves on, the
        debt stays); a president with such a debt is in crisis again after the first action
        of a corporation of theirs."""
        pid = president
        if pid == self.cash_crisis_player:
            return
        self.cash_crisis_player = None
        if pid is not None and not self.player(pid).bankrupt:
            self._maybe_cash_crisis(pid, None)

    def waits_for_closed_last(self, rnd: OperatingRound) -> bool:
        """18xx.games leaves the round's last corporation current when it is closed, with the
        steps the one before left (its loans taken and interest paid are the other's); once
        that one bought trains, the loan step still offers the closed corporation its loan
        rule (with the loans and shareholders it had), so the round waits for it. Not when
        nobody of the round is left open."""
        if all(self.corporations[e].closed for e in rnd.entities):
            return False
        corp = rnd.corp
        state, loans = rnd.state, corp.loans
        rnd.state = {"bought_trains_done": state.get("bought_trains_done", False)}
        corp.loans = self.closed_counts.get(corp.sym, (0, 0))[0]
        if rnd.active_step() is not None:
            return True
        rnd.state, corp.loans = state, loans  # not waited for: nothing changes
        return False

    def maximum_loans(self, corp: Corporation) -> int:
        rnd = self.round
        if corp.closed and isinstance(rnd, OperatingRound) and rnd.closed_current and rnd.corp is corp:
            return self.closed_counts.get(corp.sym, (0, 0))[1]  # left current at the round's end (above)
        return super().maximum_loans(corp)

    def gray_phase(self) -> bool:
        return "gray" in self.phase["tiles"]

    def old_paths_preserved(self, old: Tile, new: Tile) -> bool:
        if self.gray_phase() and old.towns and old.paths:
            return old.exits <= new.exits
        return super().old_paths_preserved(old, new)

    def upgrades_to(self, h: HexState, old: Tile, new: Tile) -> bool:
        r = self.rules
        gray = self.gray_phase()
        special = {("55", "14"), ("1", "14"), ("56", "15"), ("2", "15"), ("3", "5"), ("4", "57"),
                   ("58", "6"), ("3", "7"), ("4", "9"), ("58", "8")}
        if (old.name, new.name) in special and h.laid:
            return gray
        lake = set(r.lake_hexes)
        barrie, london = r.barrie_hex, r.london_hex
        if old.color == "green" and h.id == barrie:
            return new.name == "127"
        if old.color == "green" and h.id == london:
            return new.name == "126"
        if old.color == "green" and h.id in lake:
            return new.name == "125"
        if h.id in lake and old.color == "white":
            return new.name in ("5", "6", "57")
        if old.color == "yellow" and h.id in (barrie, london):
            return new.name == "121"
        if old.color == "brown" and h.id == r.hamilton_hex:
            return new.name == "123"
        return self.basic_upgrade(old, new)

    def after_track(self, rnd: OperatingRound, corp: Corporation) -> None:
        """The Escrow step: any corporation whose home now connects to its destination destinates.

        A replayed 18xx.games action carries the result its client computed
        (``destination_connection``); 18xx.games applies that list as given, and so do we.
        """
        recorded = self.recorded_auto.get("destination_connection")
        if isinstance(recorded, A.DestinationConnection):
            syms = list(recorded.corporations)
        else:
            syms = [c.sym for c in self.corporations.values() if self.destination_connected(c)]
        self.auto_done.append(A.DestinationConnection(entity=corp.sym, entity_type="corporation",
                                                      corporations=tuple(syms)))
        for sym in syms:
            self.destinated(self.corp(sym))

    def destination_connected(self, corp: Corporation) -> bool:
        if corp.sym not in self.destinations or corp.closed:
            return False
        if (corp.capitalization or self.capitalization_type(corp)) != "escrow":
            return False
        start, goals = self.destinations[corp.sym]
        return self.board.hexes_connected(start, goals)

    def destinated(self, corp: Corporation) -> None:
        start, goals = self.destinations.get(corp.sym, (corp.home or "", []))
        where = " or ".join(self.place_words(g) for g in goals) or "its destination"
        self.log.append(f"-- {corp.sym} has destinated: its home {self.place_words(start)} is connected to "
                        f"its destination {where} --")
        if corp.escrow:
            self.log.append(f"Releasing {self.fmt(corp.escrow)} from escrow for {corp.sym} (money from its "
                            "IPO share sales, held back until it reached its destination)")
            if corp.escrow > 0:
                self.bank_pays(corp.sym, corp.escrow)
        corp.escrow = None
        if corp.capitalization == "escrow":
            corp.capitalization = "incremental"
            self.log.append(f"{corp.sym} now receives the price of each share sold from its IPO")
        corp.destinated = True

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        return self._pricer(corp)(stops)

    def route_pricer(self, corp: Corporation) -> Callable[[list[tuple[str, int]]], int]:
        if type(self).route_revenue is not G1856.route_revenue:  # a title pricing its own way
            return super().route_pricer(corp)
        return self._pricer(corp)

    def route_price_key(self, corp: Corporation) -> Hashable | None:
        if type(self).route_revenue is not G1856.route_revenue:
            return None
        # what _pricer reads besides the stops' values and stations: the phase's colours (port
        # off-boards' values), the corporation's port and its rights
        return (tuple(self.phase_colors()), self.port_assignment.get(corp.sym),
                tuple(sorted(self.rights.get(corp.sym, ()))))

    def _pricer(self, corp: Corporation) -> Callable[[list[tuple[str, int]]], int]:
        """What a route earns ``corp`` now, with what every route of this position reads worked
        out once (the stops' values, the corporation's port, 1836Jr56's port off-boards, its
        rights' bonus hexes): the stops' values; the port bonus when the route reaches the
        corporation's port hex; each right's bonus per bonus hex on the route; a 1836Jr56 port
        off-board (the route needs 2 other stops) has no value of its own but its value for
        every city on the route holding this corporation's station."""
        colors = self.phase_colors()
        board = self.board
        values = board.stop_values(colors)
        port_hex = self.port_assignment.get(corp.sym)
        port_bonus = self.rules.port_bonus
        ports = set(self.rules.port_offboard_hexes)
        bonus_sets = [set(self.data.TUNNEL_BONUS_HEXES if right == "tunnel" else self.data.BRIDGE_BONUS_HEXES)
                      for right in self.rights.get(corp.sym, set())]
        right_bonus = self.rules.right_bonus
        stations: dict[tuple[str, int], bool] = {}

        def station(st: tuple[str, int]) -> bool:
            got = stations.get(st)
            if got is None:
                got = stations[st] = board.node(st).kind == "city" and \
                    corp.sym in (board.hexes[st[0]].tokens.get(st[1]) or [])
            return got

        def price(stops: list[tuple[str, int]]) -> int:
            revenue = sum(values[s] for s in stops)
            if port_hex or bonus_sets:
                hexes = {s[0] for s in stops}
                if port_hex and port_hex in hexes:
                    revenue += port_bonus
                for bonus_hexes in bonus_sets:
                    revenue += right_bonus * len(hexes & bonus_hexes)
            if ports:
                port_stop = next((st for st in stops if st[0] in ports), None)
                if port_stop is not None:
                    if len(stops) < self.rules.port_min_stops:
                        raise GameError(f"A route to {board.hexes[port_stop[0]].location} needs 2 other stops",
                                        ILLEGAL_ROUTE)
                    per_token = board.stop_revenue(port_stop, colors)
                    revenue += per_token * (sum(1 for st in stops if station(st)) - 1)
            return revenue

        return price

    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            return False
        return super().can_choose_dividend(rnd, corp)

    def withhold_reason(self, corp: Corporation) -> str:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            return "the national pays no dividend until it has owned a permanent train"  # (nobody was asked)
        return super().withhold_reason(corp)

    def price_target(self, corp: Corporation, direction: str, cell: Cell | None = None) -> Cell | None:
        """The national's price stays until it has owned a permanent train, and never reaches
        the closing space; another corporation's price at the edge of the market stays, and a
        closed one's (a sale of several shares closes it once)."""
        if corp.closed or (corp.sym == self.national_sym and not self.national_ever_owned_permanent):
            return None
        cell = corp.price if cell is None else cell
        target = super().price_target(corp, direction, cell)
        if target is None or target is cell or ("close" in target.types and corp.sym == self.national_sym):
            return None
        return target

    def move_price(self, corp: Corporation, direction: str) -> None:
        cell = corp.price
        super().move_price(corp, direction)
        if corp.price is not cell and corp.price is not None and "close" in corp.price.types:
            if self.deferred_closings is not None and self.deferring_only in (None, corp.sym):
                if corp not in self.deferred_closings:
                    self.deferred_closings.append(corp)
                return
            self.settle_before_closing(corp)
            self.close_corporation(corp)

    def defer_closings(self, only: str | None = None) -> None:
        self.deferred_closings, self.deferring_only = [], only

    def close_deferred(self) -> list[str]:
        corps, self.deferred_closings, self.deferring_only = self.deferred_closings or [], None, None
        for corp in corps:
            self.settle_before_closing(corp)
            self.close_corporation(corp)
        return [c.sym for c in corps]

    def dividend_effect(self, corp: Corporation, revenue: int, kind: str) -> DividendEffect:
        """A price moved to the closing space closes the corporation: its treasury goes to the bank."""
        effect = super().dividend_effect(corp, revenue, kind)
        if effect.price is not corp.price and effect.price is not None and "close" in effect.price.types:
            return effect._replace(cash=0)
        return effect

    def settle_before_closing(self, corp: Corporation) -> None:
        """The operating corporation closed by a share sale (its president's sale for a train or
        in a cash crisis) still settles the end of this action first, as 18xx.games does (it
        closes corporations only after the action): this round's interest once its run is over,
        then, once it has passed buying trains, its loans above its maximum (counted after the
        sale); the president covers what the treasury cannot and may be left in a cash crisis.
        A closing while steps are skipped (a withheld non-run) owes none."""
        rnd = self.round
        if not self._selling or not isinstance(rnd, OperatingRound) or rnd.corp is not corp:
            return
        if not rnd.state.get("paid_interest") and any(isinstance(s, RouteStep) and s.passed for s in rnd.steps):
            self.pay_interest(rnd, corp)
        if any(isinstance(s, BuyTrainStep) and s.passed for s in rnd.steps):
            self.force_repay_loans(rnd, corp)

    def close_corporation(self, corp: Corporation) -> None:
        """A corporation whose price reaches the closing cell closes (as 18xx.games does): its
        treasury goes to the bank, its trains leave play, its stations and reservations are
        removed, its privates close and its shares are worthless."""
        self.log.append(f"{corp.sym} closes")
        self.closed_counts.setdefault(corp.sym, (corp.loans, self.player_percent(corp.sym) // 10))
        corp.closed = True
        self.cert_limit_set = None
        if corp.price and corp.sym in corp.price.corporations:
            corp.price.corporations.remove(corp.sym)
        if corp.cash:
            self.spend(corp.sym, "bank", corp.cash)
        for tid in list(corp.trains):
            self.remove_train(self.trains[tid], "removed")
        for h in self.board.hexes.values():
            for slots in h.tokens.values():
                for i, s in enumerate(slots):
                    if s == corp.sym:
                        slots[i] = None
            for res in h.reservations.values():
                while corp.sym in res:
                    res.remove(corp.sym)
            while corp.sym in h.tile_reservations:
                h.tile_reservations.remove(corp.sym)
        self.board.changed()
        for share in self.corp_shares(corp.sym):
            self.move_share(share, corp.sym)
        if corp.companies:
            self.log.append(f"{corp.sym}'s private companies close: {', '.join(corp.companies)}")
        for c in list(corp.companies):
            self.close_company(self.companies[c])
        corp.loans = 0
        self.loan_book.drop(corp.sym)

    def other_corp_trains(self, corp: Corporation) -> list[Train]:
        trains = super().other_corp_trains(corp)
        if corp.sym == self.national_sym:
            trains = [t for t in trains if t.permanent]
        return trains

    def face_value_only(self, buyer: Corporation, train: Train) -> bool:
        """The national buys and sells trains between corporations at face value only."""
        return self.national_sym is not None and self.national_sym in (buyer.sym, train.owner)

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        """The national buys only permanent trains."""
        trains = super().buyable_depot_trains(corp)
        if corp.sym == self.national_sym:
            trains = [t for t in trains if t.permanent]
        return trains

    def must_buy_train(self, corp: Corporation) -> bool:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            # until it has owned a permanent train the national buys only when rich enough
            rusting = any(not self.trains[t].permanent for t in corp.trains)
            return corp.cash > self.rules.ultimate_train_price or (
                rusting and corp.cash > self.rules.ultimate_train_trade_in)
        return super().must_buy_train(corp)

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        """The national buys only permanent trains; once it owns one it buys like the others."""
        train = self.train(action.train)
        if corp.sym == self.national_sym and not train.permanent and train.owner != corp.sym \
                and train.owner in ("depot", "discard") and train in self.depot_trains() \
                and train not in self.buyable_depot_trains(corp):
            raise GameError(f"{corp.sym} buys only permanent trains", LIMIT)
        super().buy_train(rnd, corp, action)
        if corp.sym == self.national_sym and train.permanent:
            self.national_ever_owned_permanent = True

    def on_train_bought_from_depot(self, train: Train) -> None:
        """The last trains of a type raise the percentage needed to operate (to 60% at most)."""
        super().on_train_bought_from_depot(train)
        if train.id in self.last_trains:
            before = self.percent_to_operate
            self.percent_to_operate = min(self.rules.percent_to_operate_max,
                                          self.percent_to_operate + self.rules.percent_to_operate_step)
            if self.percent_to_operate != before:
                nxt = next((t.name for t in self.depot_trains() if t.name != train.name), None)
                now = f" ({nxt}-trains are available now)" if nxt else ""
                self.log.append(f"-- Event: the last {train.name}-train is sold{now}. Corporations that have "
                                f"not operated yet need {self.percent_to_operate}% sold from the IPO to operate --")

    def buy_train_from_corporation(self, corp: Corporation, train: Train, price: int, *,
                                   check_room: bool = True) -> None:
        if self.face_value_only(corp, train) and price != train.price:
            raise GameError(f"{corp.sym} must pay the face value of {train.id} ({self.fmt(train.price)}): "
                            f"{self.national_sym} trades trains at face value only", PRICE)
        super().buy_train_from_corporation(corp, train, price, check_room=check_room)

    def event_no_more_escrow_corps(self, _train: Train) -> None:
        self.capitalization_mode = "incremental"
        self.log.append("-- New corporations will be started as incremental cap corporations --")

    def event_no_more_incremental_corps(self, _train: Train) -> None:
        self.capitalization_mode = "full"
        self.log.append("-- New corporations will be started as full cap corporations --")

    def event_nationalization(self, train: Train) -> None:
        start_nationalization(self, train.owner)

    def train_event_words(self, kind: str) -> str | None:
        # (short: a choice's label is cut at 100 characters on Discord)
        if kind == "nationalization" and self.national_sym:
            return f"{self.national_sym} forms"
        if kind == "close_companies" and any(not c.closed for c in self.companies.values()):
            return "private companies close"
        return super().train_event_words(kind)

    def corp_train_limit(self, corp: Corporation) -> int:
        if corp.sym == self.national_sym:
            # 18xx.games: the national's own limit ability (1856 +1, 1836Jr56 +99) until its
            # post-formation discard is done, then one above the phase's
            return self.train_limit + self.national_train_limit_extra
        return self.train_limit

    def cert_limit(self) -> int:
        if self.cert_limit_set is not None:
            return self.cert_limit_set
        limit: int = self.data.CERT_LIMIT[len(self.players)]
        return limit

    def set_post_nationalization_cert_limit(self) -> None:
        """Once the national has formed, the limit follows the number of corporations left
        (fixed then; as on 18xx.games a later closing resets it to the starting limit)."""
        table = self.rules.post_nationalization_cert_limit
        if not table:
            return
        corps = sum(1 for c in self.corporations.values() if not c.closed)
        corps = max(min(corps, max(table)), min(table))
        self.cert_limit_set = table[corps][len(self.players)]

    def after_buy_train_step(self, rnd: OperatingRound, corp: Corporation) -> None:
        rnd.state["bought_trains_done"] = True
        return_borrowed_train(self, rnd)

    def end_game(self, reason: str) -> None:
        super().end_game(reason)
        if isinstance(self.round, OperatingRound):
            # 18xx.games still finishes the operating round a bankruptcy ends the game in: a
            # private used in it that closes at its end (WSRC) closes
            self.on_round_end(self.round)

    def on_round_end(self, rnd: Round) -> None:
        if isinstance(rnd, OperatingRound):
            # stations the national still had to remove are forgotten with the round (18xx.games
            # keeps them in the round; it ends when all its corporations merged into the national)
            self.token_removals = []
        super().on_round_end(rnd)
