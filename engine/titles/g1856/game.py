"""1856 rules (and the 1856 family: 1836Jr56 reuses them on its own map).

Capitalization is fixed at par by the train era (escrow / incremental / full), the float
percentage grows as train types sell out, corporations take loans (one per OR, at most one
per share in players' hands) and pay interest, escrow money is released at the
destination, and the first 6-train nationalises the companies that cannot repay (CGR).
"""

from __future__ import annotations

from typing import Any

from ... import actions as A
from ...entities import POOL, Company, Corporation, Train
from ...errors import GameError
from ...game import Game
from ...market import Cell
from ...operating import (
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
from ...special_steps import HomeTokenStep, SpecialBuyStep, SpecialStep
from ...tiles import Tile
from . import data as g1856_data
from .loans import LoanBook
from .nationalization import (
    BorrowTrainStep,
    CashCrisisStep,
    NationalDiscardStep,
    NationalizationPayoffStep,
    RemoveTokensStep,
    return_borrowed_train,
    start_nationalization,
)
from .steps import AssignStep, LoanStep, TeleportTokenStep
from .trains import BankruptStep, G1856BuyTrainStep, ebuy_bundles

__all__ = ["G1856", "SpecialBuyStep"]  # SpecialBuyStep: engine.special_steps (imported from here by 1833NE)


class G1856(Game):
    MAX_TURN = 100
    DISCARD_POOL_ONE_PER_TYPE = True
    AUCTION_PRIORITY_FROM_TURN = True
    TITLE = "1856"
    SELL_AFTER = "first"
    SELL_MOVEMENT = "down_per_10"
    MUST_SELL_IN_BLOCKS = True  # 18xx.games (newest): one sale of a corporation per turn
    REORDER_AFTER_EMERGENCY_SALE = True  # a price drop can move a corporation in this OR's order
    HAS_LOANS = True

    def __init__(self, data: Any = g1856_data, *args: Any, **kwargs: Any):
        super().__init__(data, *args, **kwargs)

    def destination_goals(self) -> dict[str, list[str]]:
        return {sym: list(goals) for sym, (_start, goals) in self.destinations.items()}

    # ------------------------------------------------------------------ set-up
    def setup(self) -> None:
        d = self.data
        self.loan_value = getattr(d, "LOAN_VALUE", 100)
        self.interest_rate = getattr(d, "INTEREST_RATE", 10)
        self.loans_available = getattr(d, "NUM_LOANS", 110)
        self.loan_book = LoanBook.new(self.loans_available)
        # what the action being processed leaves to the engine but 18xx.games' actions name
        # (the loan taken or repaid, the slot of a removed station): filled in when recorded
        self.export_fill: dict[str, Any] = {}
        self.percent_to_operate = getattr(d, "PERCENT_TO_OPERATE_START", 20)
        self.last_trains = set(getattr(d, "PERCENT_TO_OPERATE_LAST_TRAINS", []))
        self.capitalization_mode = "escrow"
        self.post_nationalization = False
        self.cert_limit_set: int | None = None  # the limit fixed after nationalization
        self.national_train_limit_extra = getattr(d, "NATIONAL_TRAIN_LIMIT_INCREASE", 1)
        self.national_sym = getattr(d, "NATIONAL", None)
        self.national_ever_owned_permanent = False
        self.nationalization_trigger: str | None = None
        self.nationalizables: list[str] = []
        self.national_formed = False
        self.pre_national_percent: dict[str, int] = {}
        self.pre_national_market_percent = 0
        self.pre_national_prices: dict[str, int] = {}
        self.nationalized_corps: list[str] = []
        self.merged_token_spots: dict[str, list[tuple[str | None, int | None]]] = {}
        self.merged_token_slots: dict[tuple[str, str, int], int] = {}  # (corp, hex, city) -> slot
        self.false_national_president: str | None = None
        self.nationalization_train_discard_trigger = False
        self.token_removals: list[dict[str, Any]] = []
        self.national_token_limit = getattr(d, "NATIONAL_TOKEN_LIMIT", 10)
        self.cash_crisis_player: str | None = None
        self.cash_crisis_corp: str | None = None
        self.national_token_price = getattr(d, "NATIONAL_TOKEN_PRICE", 100)
        self.right_cost = getattr(d, "RIGHT_COST", 50)
        dests = d.DESTINATIONS
        if "alternate_destinations" in self.optional_rules:
            dests = getattr(d, "ALTERNATE_DESTINATIONS", dests)
        self.destinations: dict[str, tuple[str, list[str]]] = {}
        for sym, dest in dests.items():
            corp = self.corporations[sym]
            if isinstance(dest, (list, tuple)) and len(dest) > 1 and isinstance(dest[0], str) \
                    and not isinstance(dest[1], list):
                # [goal, start]: connect start to goal
                goal, start = dest[0], dest[-1]
                self.destinations[sym] = (start, [goal])
            elif isinstance(dest, (list, tuple)):
                goals = dest[0] if isinstance(dest[0], (list, tuple)) else [dest[0]]
                self.destinations[sym] = (corp.home or "", list(goals))
            else:
                self.destinations[sym] = (corp.home or "", [dest])
        # Bonus rights (tunnel/bridge): corp -> set of rights
        self.rights: dict[str, set[str]] = {}
        # rights for sale besides the privates: the map carries two tunnel and two bridge markers
        self.right_markers = {"tunnel": 2, "bridge": 2}
        self.port_assignment: dict[str, str] = {}  # corp -> hex
        self.pending_tokens: list[tuple[str, str, str]] = []  # (corp, hex, placer) tokens to place again
        self.used_abilities: set[tuple[str, str]] = set()
        self.trains_sold: set[str] = set()  # trains the bank has sold (to a corporation)
        self.routes_seen: set[str] = set()  # corporations that have had a route (has_route)
        if self.national_sym and self.national_sym in self.corporations:
            national = self.corporations[self.national_sym]
            national.tokens = []
            national.destinated = True  # the national has no destination


    # ------------------------------------------------------------------ stock round hooks
    def can_par(self, pid: str, corp: Corporation) -> bool:
        return super().can_par(pid, corp) and corp.sym != self.national_sym

    def capitalization_type(self, corp: Corporation) -> str:
        if self.capitalization_mode == "escrow":
            return "incremental" if corp.destinated else "escrow"
        return self.capitalization_mode

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        super().par_corporation(corp, cell, pid)
        corp.escrow = 0 if corp.capitalization == "escrow" else None

    def pay_for_ipo_share(self, pid: str, corp: Corporation, price: int) -> None:
        """An escrow corporation receives the first half of its shares' price; the rest waits
        in escrow (at the bank) until it reaches its destination."""
        if corp.capitalization != "escrow":
            super().pay_for_ipo_share(pid, corp, price)
        elif 100 - self.percent_of(corp.sym, corp.sym) < 50:
            self.spend(pid, corp.sym, price)
        else:
            self.spend(pid, "bank", price)
            corp.escrow = (corp.escrow or 0) + price

    def can_buy_share_hook(self, pid: str, share: Any) -> str | None:
        corp = self.corporations[share.corporation]
        if self.false_national_president == pid and corp.sym != self.national_sym:
            return f"you must first buy up to the {self.national_sym} presidency"
        if share.owner == corp.sym and self.percent_of(POOL, corp.sym) + 10 > 60:
            return f"the market holds more than 50% of {corp.sym}"
        if corp.sym == self.national_sym and not corp.started:
            return f"{corp.sym} has not formed"
        return None

    def national_falls_off_market(self, sym: str, percent: int) -> bool:
        """True when selling ``percent``% of the national would move its price down onto no
        space of the market (its column ends in the row below). 18xx.games fails on such a
        sale (it looks up the missing space to keep the national from closing), so no player
        there can make it; we refuse it too, so that our games can be played there.  The sale
        still counts as possible for whose turn it is (18xx.games lists it)."""
        corp = self.corporations[sym]
        cell = corp.price
        if sym != self.national_sym or not self.national_ever_owned_permanent or cell is None \
                or self.market.one_d or percent < 10:
            return False
        row = cell.row
        for _ in range(percent // 10):  # one row down per full 10% sold
            if row + 1 >= len(self.market.grid):
                break
            target = self.market.cell(row + 1, cell.col)
            if target is None:
                return True
            if "close" not in target.types:  # the national never closes: it stays
                row += 1
        return False

    def can_sell_hook(self, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
        corp = self.corporations[sym]
        if sym == self.national_sym and not corp.started:
            return f"{sym} has not formed"
        if sym in rnd.bought_this_turn:
            # at least one share must stay (a 5% one for a national with 20 shares)
            held = self.percent_of(pid, sym)
            if held - percent < self.share_unit(sym):
                return f"you cannot sell the {sym} share you just bought"
        return None

    # A "false" national president (one share after the exchange) must buy up to the full
    # president's certificate in the next stock round, selling shares if needed; failing
    # that, the game ends (as 18xx.games plays it).
    def restrict_stock_actions(self, rnd: Any, pid: str, actions: list[str]) -> list[str]:
        if pid != self.false_national_president:
            return actions
        out = []
        if "sell_shares" in actions:
            out.append("sell_shares")
        if "buy_shares" in actions and any(s.corporation == self.national_sym for s in rnd.buyable_shares(pid)):
            out.append("buy_shares")
        return out

    def sell_shares(self, pid: str, shares: list, percent: int | None = None) -> int:
        if shares:
            pct = sum(s.percent for s in shares) if percent is None else min(percent, sum(s.percent for s in shares))
            sym = shares[0].corporation
            if self.national_falls_off_market(sym, pct):
                raise GameError(f"{sym}'s price cannot fall below {self.fmt(self.corporations[sym].price.price)} "  # type: ignore[union-attr]
                                "here: 18xx.games refuses this sale")
        self._selling = True
        try:
            return super().sell_shares(pid, shares, percent)
        finally:
            self._selling = False

    def exempt_from_forced_sale(self, pid: str) -> bool:
        return pid == self.false_national_president

    def stock_turn_stuck(self, rnd: Any, pid: str) -> bool:
        if pid != self.false_national_president or rnd.action_types(pid):
            return False
        self.log.append(f"-- {self.name_of(pid)} cannot raise the money for the {self.national_sym} "
                        "presidency and is bankrupt --")
        self.end_game("bankrupt")
        return True

    def buy_share_override(self, rnd: Any, pid: str, share: Any) -> bool:
        """While the national has a "false" president (half a president's certificate), buying
        one of its shares pays for the other half instead (the share stays where it is): the
        false president's own purchase, or (as 18xx.games plays it) one by another player who
        already holds national shares, who then swaps shares for the certificate and becomes
        president."""
        fp = self.false_national_president
        if fp is None or share.corporation != self.national_sym:
            return False
        corp = self.corporations[share.corporation]
        if pid != fp and not self.shares_of(pid, corp.sym):
            return False
        cell = corp.par if share.owner == corp.sym else corp.price
        assert cell is not None
        price = self.shares_worth(corp.sym, share.percent, cell.price)
        self.spend(pid, "bank", price)
        pres = next(s for s in self.corp_shares(corp.sym) if s.president)
        if pid != fp:
            self._hand_over_president_cert(corp.sym, pres, pid, fp)
            corp.president = pid
        pres.percent *= 2
        self.false_national_president = None
        self.log.append(f"{self.name_of(pid)} pays {self.fmt(price)} for the full {corp.sym} presidency")
        return True

    def national_discard_done(self) -> None:
        """The national's post-formation discard is over: its train limit is one above the
        phase's from now on. 18xx.games also ends it (before or after the formation) whenever
        a turn is cut short: a corporation failing to float or closing in its own turn."""
        self.nationalization_train_discard_trigger = False
        self.national_train_limit_extra = 1

    def turn_cut_short(self, corp: Corporation) -> None:
        """The operating corporation closed in its turn. One that merged into the national
        closes before the formation sets the discard going, so only the limit changes."""
        if not getattr(self, "national_sym", None):
            return
        if corp.sym in self.nationalized_corps:
            self.national_train_limit_extra = 1
        else:
            self.national_discard_done()

    def record(self, action: A.Action, generated: list[A.Action]) -> None:
        """An action is exported with what 18xx.games needs to read it: the id of the loan it
        took or repaid, the slot of the station it removed."""
        super().record(action, generated)
        for key, value in getattr(self, "export_fill", {}).items():
            self.action_log[-1].setdefault(key, value)
        self.export_fill = {}

    # ------------------------------------------------------------------ floating
    def floatable(self, corp: Corporation) -> bool:
        return 100 - self.percent_of(corp.sym, corp.sym) >= self.percent_to_operate

    # ------------------------------------------------------------------ rounds
    def new_operating_round(self, num: int) -> OperatingRound:
        steps: list[type[Step]] = [
            BankruptStep, CashCrisisStep, AssignStep, LoanStep, SpecialStep, TeleportTokenStep, BuyCompanyStep,
            HomeTokenStep,
            NationalizationPayoffStep, RemoveTokensStep, NationalDiscardStep, SpecialBuyStep,
            TrackStep, TokenStep, BorrowTrainStep, RouteStep, DividendStep, DiscardTrainStep, G1856BuyTrainStep,
            FinalBuyCompanyStep,
        ]
        return OperatingRound(self, num, steps)

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

    # ------------------------------------------------------------------ loans
    def maximum_loans(self, corp: Corporation) -> int:
        return self.player_percent(corp.sym) // 10

    def can_take_loan(self, rnd: OperatingRound, corp: Corporation) -> bool:
        return (corp.loans < self.maximum_loans(corp) and not rnd.state.get("took_loan")
                and not rnd.state.get("redeemed_loan") and self.loans_available > 0
                and not self.phase_status("no_loans") and not self.post_nationalization)

    def take_loan(self, rnd: OperatingRound, corp: Corporation, loan: int | None = None) -> None:
        if not self.can_take_loan(rnd, corp):
            raise GameError(f"{corp.sym} cannot take a loan now")
        self.export_fill["loan"] = self.loan_book.take(corp.sym, loan)
        amount = self.loan_value - (self.interest_rate if rnd.state.get("paid_interest") else 0)
        self.bank_pays(corp.sym, amount)
        corp.loans += 1
        self.loans_available -= 1
        rnd.state["took_loan"] = True
        self.log.append(f"{corp.sym} takes a loan and receives {self.fmt(amount)}")

    def interest_owed(self, corp: Corporation) -> int:
        return 0 if self.post_nationalization else self.interest_rate * corp.loans

    def pay_interest(self, rnd: OperatingRound, corp: Corporation) -> None:
        rnd.state["paid_interest"] = True
        owed = self.interest_owed(corp)
        if not corp.loans or owed <= 0:
            return
        payment = min(owed, corp.cash - corp.cash % 10)
        if payment > 0:
            self.spend(corp.sym, "bank", payment)
            owed -= payment
        if owed <= 0:
            return
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        deduction = min(owed, revenue)
        if deduction > 0:
            owed -= deduction
            rnd.state["interest_penalty"] = deduction
        if owed > 0:
            president = corp.president
            assert president is not None
            self.spend(president, "bank", owed, allow_negative=True)
            rnd.state["player_interest_penalty"] = owed
            self._maybe_cash_crisis(president, corp)

    def force_repay_loans(self, rnd: OperatingRound, corp: Corporation) -> None:
        excess = corp.loans - self.maximum_loans(corp)
        if excess <= 0:
            return
        owed = self.loan_value * excess
        corp.loans -= excess
        self.loan_book.repay_newest(corp.sym, excess)
        self.loans_available += excess
        rnd.state["redeemed_loan"] = True
        payment = min(owed, corp.cash)
        if payment:
            self.spend(corp.sym, "bank", payment)
        owed -= payment
        if owed > 0 and corp.president:
            self.spend(corp.president, "bank", owed, allow_negative=True)
            self._maybe_cash_crisis(corp.president, corp)

    # ------------------------------------------------------------------ cash crisis
    def _maybe_cash_crisis(self, pid: str, corp: Corporation) -> None:
        if self.player(pid).cash < 0:
            self.cash_crisis_player = pid
            self.cash_crisis_corp = corp.sym
            self.log.append(f"{self.name_of(pid)} owes the bank {self.fmt(-self.player(pid).cash)} "
                            "and must raise money")

    def crisis_sellable(self, pid: str, need_limit: bool) -> list[tuple[str, int]]:
        """Bundles a president in a cash crisis may sell: not the presidency of the company
        that caused the debt, and no more than needed."""
        need = -self.player(pid).cash
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            for pct in range(self.share_unit(sym), held + 1, self.share_unit(sym)):
                if self.percent_of(POOL, sym) + pct > self.MARKET_SHARE_LIMIT:
                    break
                if c.president == pid:
                    others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
                    pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
                    left = held - pct
                    if sym == self.cash_crisis_corp:
                        # keep the presidency of the company in trouble (18xx.games checks this
                        # only right after the debt arose: see after_step_action)
                        if left < pres_pct or left < others:
                            break
                    elif left < pres_pct and others < pres_pct:
                        break
                value = self.shares_worth(sym, pct)
                if need_limit and value >= need + c.price.price:
                    break
                out.append((sym, pct))
        return out

    def crisis_liquidity(self, pid: str) -> int:
        best: dict[str, int] = {}
        for sym, pct in self.crisis_sellable(pid, need_limit=False):
            best[sym] = max(best.get(sym, 0), pct)
        value = sum(self.shares_worth(sym, pct) for sym, pct in best.items())
        return self.player(pid).cash + value

    def declare_player_bankrupt(self, rnd: OperatingRound, pid: str) -> None:
        """18xx.games' "Declare Bankruptcy": the player's shares are sold as the open step allows
        (largest bundle first, corporations in operating order), their cash, even a debt, is
        settled with the bank, and the game ends."""
        player = self.player(pid)
        self.log.append(f"-- {player.name} goes bankrupt --")
        step = rnd.active_step()
        if isinstance(step, CashCrisisStep) and self.cash_crisis_player == pid:
            def sellable() -> list[tuple[str, int]]:
                return self.crisis_sellable(pid, need_limit=False)
        elif isinstance(step, G1856BuyTrainStep):
            def sellable() -> list[tuple[str, int]]:
                return ebuy_bundles(self, rnd, pid)
        else:
            def sellable() -> list[tuple[str, int]]:
                return []
        held = {s.corporation for s in self.shares_of(pid)}
        for corp in sorted((self.corporations[s] for s in held), key=self.operating_sort_key):
            while True:
                options = [pct for s2, pct in sellable() if s2 == corp.sym]
                if not options:
                    break
                pct = max(options)
                self.sell_shares(pid, self.pick_bundle(pid, corp.sym, pct), pct)
                if isinstance(step, G1856BuyTrainStep):
                    rnd.state.setdefault("ebuy_sold", set()).add(corp.sym)
        rnd.recalculate_order()
        self.bank += player.cash
        player.cash = 0
        player.bankrupt = True
        self.log.append(f"-- {player.name} is bankrupt: the game ends --")
        self.end_pending = "bankrupt"

    def pick_bundle(self, pid: str, sym: str, percent: int) -> list:
        """Certificates making up ``percent``% of ``sym``: ordinary shares first, then the
        president's certificate (sold in part when ``percent`` ends inside it)."""
        held = sorted(self.shares_of(pid, sym), key=lambda s: (s.president, s.seq))
        picked, total = [], 0
        for s in held:
            if total >= percent:
                break
            picked.append(s)
            total += s.percent
        return picked

    def gray_phase(self) -> bool:
        return "gray" in self.phase["tiles"]

    def old_paths_preserved(self, old: Tile, new: Tile) -> bool:
        if self.gray_phase() and old.towns and old.paths:
            return old.exits <= new.exits
        return super().old_paths_preserved(old, new)

    def upgrades_to(self, h: Any, old: Tile, new: Tile) -> bool:
        d = self.data
        gray = self.gray_phase()
        special = {("55", "14"), ("1", "14"), ("56", "15"), ("2", "15"), ("3", "5"), ("4", "57"),
                   ("58", "6"), ("3", "7"), ("4", "9"), ("58", "8")}
        if (old.name, new.name) in special and h.laid:
            return gray
        lake = set(getattr(d, "LAKE_HEXES", []))
        barrie, london = getattr(d, "BARRIE_HEX", None), getattr(d, "LONDON_HEX", None)
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
        if old.color == "brown" and h.id == getattr(d, "HAMILTON_HEX", None):
            return new.name == "123"
        return self.basic_upgrade(old, new)

    def after_track(self, rnd: OperatingRound, corp: Corporation) -> None:
        """The Escrow step: any corporation whose home now connects to its destination destinates.

        A replayed 18xx.games action carries the result its client computed
        (``destination_connection``); 18xx.games applies that list as given, and so do we.
        """
        recorded = self.recorded_auto.get("destination_connection")
        if recorded is not None:
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
        self.log.append(f"-- {corp.sym} has destinated --")
        if corp.escrow is not None:
            if corp.escrow > 0:
                self.bank_pays(corp.sym, corp.escrow)
        corp.escrow = None
        if corp.capitalization == "escrow":
            corp.capitalization = "incremental"
        corp.destinated = True

    def buying_power_for_token(self, corp: Corporation) -> int:
        rnd = self.round
        extra = 0
        if isinstance(rnd, OperatingRound) and self.can_take_loan(rnd, corp):
            extra = self.loan_value - (self.interest_rate if rnd.state.get("paid_interest") else 0)
        return corp.cash + extra

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        revenue = super().route_revenue(corp, stops)
        colors = self.phase_colors()
        hexes = {s[0] for s in stops}
        port_hex = self.port_assignment.get(corp.sym)
        if port_hex and port_hex in hexes:
            revenue += getattr(self.data, "PORT_BONUS", getattr(self.data, "RDP_BONUS", 20))
        ports = set(getattr(self.data, "PORT_OFFBOARD_HEXES", []))
        port_stop = next((st for st in stops if st[0] in ports), None)
        if port_stop is not None:
            # 1836Jr56 ports: no value of their own; the port value for every city on the
            # route holding this corporation's station (the route needs 2 other stops)
            if len(stops) < getattr(self.data, "PORT_MIN_STOPS", 3):
                raise GameError(f"A route to {self.board.hexes[port_stop[0]].location} needs 2 other stops")
            per_token = self.board.stop_revenue(port_stop, colors)
            revenue -= per_token
            revenue += per_token * sum(
                1 for st in stops if self.board.node(st).kind == "city"
                and corp.sym in (self.board.hexes[st[0]].tokens.get(st[1]) or []))
        for right in self.rights.get(corp.sym, set()):
            bonus_hexes = (self.data.TUNNEL_BONUS_HEXES if right == "tunnel" else self.data.BRIDGE_BONUS_HEXES)
            revenue += sum(getattr(self.data, "RIGHT_BONUS", 10) for h in hexes if h in bonus_hexes)
        return revenue

    def revenue_deduction(self, rnd: OperatingRound, corp: Corporation) -> int:
        return int(rnd.state.get("interest_penalty", 0))

    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            return False
        return super().can_choose_dividend(rnd, corp)

    def move_price(self, corp: Corporation, direction: str) -> None:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            return
        cell = corp.price
        if cell is None:
            return
        m = self.market
        target = {"right": m.right_of, "left": m.left_of, "up": m.up_of, "down": m.down_of}[direction](cell)
        if target is cell:
            return
        if "close" in target.types and corp.sym == self.national_sym:
            return
        corp.price = m.move(corp.sym, cell, target)
        if "close" in target.types:
            self.settle_before_closing(corp)
            self.close_corporation(corp)

    def settle_before_closing(self, corp: Corporation) -> None:
        """The operating corporation closed by a share sale after its run (its president's sale
        for a train) still owes this round's interest first: 18xx.games settles it after the
        action and closes the corporation only then (the president covers what the treasury
        cannot). A closing while steps are skipped (a withheld non-run) owes none."""
        rnd = self.round
        if not getattr(self, "_selling", False) or not isinstance(rnd, OperatingRound) or rnd.corp is not corp \
                or rnd.state.get("paid_interest"):
            return
        if any(isinstance(s, RouteStep) and s.passed for s in rnd.steps):
            self.pay_interest(rnd, corp)

    def close_corporation(self, corp: Corporation) -> None:
        """A corporation whose price reaches the closing cell closes (as 18xx.games does): its
        treasury goes to the bank, its trains leave play, its stations and reservations are
        removed, its privates close and its shares are worthless."""
        self.log.append(f"{corp.sym} closes")
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
        for s in self.corp_shares(corp.sym):
            self.move_share(s, corp.sym)
        for c in list(corp.companies):
            self.close_company(self.companies[c])
        corp.loans = 0
        self.loan_book.drop(corp.sym)

    # ------------------------------------------------------------------ trains
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
            return corp.cash > getattr(self.data, "ULTIMATE_TRAIN_PRICE", 1100) or (
                rusting and corp.cash > getattr(self.data, "ULTIMATE_TRAIN_TRADE_IN", 750))
        return super().must_buy_train(corp)

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        """The national buys only permanent trains; once it owns one it buys like the others."""
        train = self.train(action.train)
        if corp.sym == self.national_sym and not train.permanent and train.owner != corp.sym \
                and train.owner in ("depot", "discard") and train in self.depot_trains() \
                and train not in self.buyable_depot_trains(corp):
            raise GameError(f"{corp.sym} buys only permanent trains")
        super().buy_train(rnd, corp, action)
        if corp.sym == self.national_sym and train.permanent:
            self.national_ever_owned_permanent = True

    def on_train_bought_from_depot(self, train: Train) -> None:
        """The last trains of a type raise the percentage needed to operate (to 60% at most)."""
        super().on_train_bought_from_depot(train)
        if train.id in self.last_trains:
            self.percent_to_operate = min(60, self.percent_to_operate + 10)

    def buy_train_from_corporation(self, corp: Corporation, train: Train, price: int, *,
                                   check_room: bool = True) -> None:
        if self.face_value_only(corp, train) and price != train.price:
            raise GameError(f"{corp.sym} must pay the face value of {train.id} ({self.fmt(train.price)}): "
                            f"{self.national_sym} trades trains at face value only")
        super().buy_train_from_corporation(corp, train, price, check_room=check_room)

    def event_no_more_escrow_corps(self, _train: Train) -> None:
        self.capitalization_mode = "incremental"
        self.log.append("-- New corporations will be started as incremental cap corporations --")

    def event_no_more_incremental_corps(self, _train: Train) -> None:
        self.capitalization_mode = "full"
        self.log.append("-- New corporations will be started as full cap corporations --")

    def event_nationalization(self, train: Train) -> None:
        start_nationalization(self, train.owner)

    def corp_train_limit(self, corp: Corporation) -> int:
        if corp.sym == self.national_sym:
            # 18xx.games: the national's own limit ability (1856 +1, 1836Jr56 +99) until its
            # post-formation discard is done, then one above the phase's
            return self.train_limit + self.national_train_limit_extra
        return self.train_limit

    def cert_limit(self) -> int:
        if self.cert_limit_set is not None:
            return self.cert_limit_set
        return self.data.CERT_LIMIT[len(self.players)]

    def set_post_nationalization_cert_limit(self) -> None:
        """Once the national has formed, the limit follows the number of corporations left
        (fixed then; as on 18xx.games a later closing resets it to the starting limit)."""
        table = getattr(self.data, "POST_NATIONALIZATION_CERT_LIMIT", None)
        if not table:
            return
        corps = sum(1 for c in self.corporations.values() if not c.closed)
        corps = max(min(corps, max(table)), min(table))
        self.cert_limit_set = table[corps][len(self.players)]

    def event_close_companies(self, train: Train) -> None:
        for right, (sym, _) in self.RIGHTS.items():
            company = self.companies.get(sym)
            if company and not company.closed and company.owner in self.player_by_id:
                self.right_markers[right] = self.right_markers.get(right, 0) + 1
        super().event_close_companies(train)

    def event_remove_tokens(self, _train: Train) -> None:
        self.port_assignment.clear()

    def after_buy_train_step(self, rnd: OperatingRound, corp: Corporation) -> None:
        rnd.state["bought_trains_done"] = True
        return_borrowed_train(self, rnd)

    def assign(self, corp: Corporation, action: A.Assign) -> None:
        company = self.company(action.entity)
        ab = company.ability("assign_hexes")
        if not ab or action.target not in ab.get("hexes", []):
            raise GameError(f"{company.sym} cannot be assigned to {action.target}")
        self.port_assignment[corp.sym] = action.target
        self.board.hexes[action.target].assignments.add(company.sym)
        self.close_company(company)
        self.log.append(f"{corp.sym} places the port marker on {action.target}")

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        """The bridge and tunnel privates bring their right with them."""
        super().buy_company(corp, action)
        if action.company == "NFSBC":
            self.rights.setdefault(corp.sym, set()).add("bridge")
        if action.company == "SCFTC":
            self.rights.setdefault(corp.sym, set()).add("tunnel")

    def use_private(self, rnd: OperatingRound, corp: Corporation, action: A.Action) -> None:
        """1836Jr56 CdH lays its tile without a connection (a teleport)."""
        company = self.company(action.entity)
        if isinstance(action, A.LayTile) and company.ability("teleport") and not company.ability("tile_lay"):
            self.close_after_use(rnd, company)
            self._teleport_lay(rnd, corp, company, action)
            return
        super().use_private(rnd, corp, action)

    def special_token_time(self, rnd: OperatingRound) -> bool:
        """18xx.games: a private's station (WSRC) is placed at token time: after the track
        step and before the interest is paid."""
        return super().special_token_time(rnd) and not rnd.state.get("paid_interest")

    def on_round_end(self, rnd: Any) -> None:
        if isinstance(rnd, OperatingRound):
            # stations the national still had to remove are forgotten with the round (18xx.games
            # keeps them in the round; it ends when all its corporations merged into the national)
            self.token_removals = []
        super().on_round_end(rnd)

    RIGHTS = {"tunnel": ("SCFTC", "Tunnel Token"), "bridge": ("NFSBC", "Bridge Token")}

    def _teleport_lay(self, rnd: OperatingRound, corp: Corporation, company: Company, action: A.LayTile) -> None:
        """1836Jr56 CdH: a tile on J8 without a connection, paying only the terrain cost, as the
        turn's track lay; then a free station there (rule summary: "nur die Gebirgskosten ...
        ohne dass eine Verbindung zum bestehenden Netz nötig ist")."""
        ab = company.ability("teleport") or {}
        if action.hex not in ab.get("hexes", []) or action.tile.rsplit("-", 1)[0] not in ab.get("tiles", []):
            raise GameError(f"{company.sym} may lay {', '.join(ab.get('tiles', []))} on "
                            f"{', '.join(ab.get('hexes', []))} only")
        if rnd.state.get("tiles_laid", 0) >= self.tile_lays_per_turn(corp):
            raise GameError(f"{corp.sym} has already laid its tile this turn")
        self.lay_tile(corp, action, company=company, connected=False)
        rnd.state["tiles_laid"] = rnd.state.get("tiles_laid", 0) + 1
        self.used_abilities.add((company.sym, "teleport"))
        if corp.next_token() is not None:
            rnd.state["teleported"] = company.sym

    def teleport_token(self, rnd: OperatingRound, corp: Corporation, action: A.PlaceToken) -> None:
        """The free station on the teleport hex, with no connection needed."""
        company = self.company(action.entity)
        hid, city = self.parse_city(action.city)
        if hid not in (company.ability("teleport") or {}).get("hexes", []):
            raise GameError(f"{company.sym} places its station on "
                            f"{', '.join((company.ability('teleport') or {}).get('hexes', []))} only")
        h = self.board.hexes[hid]
        if h.tokened_by(corp.sym) or self.board.free_slots(h, city, corp.sym) <= 0:
            raise GameError(f"{corp.sym} cannot place a station on {hid}: no free space")
        tok = corp.next_token()
        if tok is None:
            raise GameError(f"{corp.sym} has no station left")
        self.board.place_token(hid, city, corp.sym, action.slot)
        tok.used, tok.hex, tok.city = True, hid, city
        rnd.state["tokened"] = True
        self.log.append(f"{corp.sym} ({company.sym}) places a station on {hid}")

    def special_buys(self, corp: Corporation) -> list[str]:
        """Rights (tunnel to Sarnia, bridge to Buffalo) this corporation may buy for $50: while
        the private is not owned by a player, a marker remains, and it has no such right yet."""
        out = []
        for right, (sym, label) in self.RIGHTS.items():
            company = self.companies.get(sym)
            if company is None or (company.owner in self.player_by_id and not company.closed):
                continue
            unlimited = "unlimited_bonus_tokens" in self.optional_rules
            if (self.right_markers.get(right, 0) <= 0 and not unlimited) or right in self.rights.get(corp.sym, set()):
                continue
            if corp.cash >= self.right_cost:
                out.append(label)
        return out

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        right = next((r for r, (_, label) in self.RIGHTS.items() if label == action.description), None)
        if right is None or action.description not in self.special_buys(corp):  # noqa: SIM102
            raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now")
        company = self.companies[self.RIGHTS[right][0]]
        seller = "bank" if company.closed or company.owner is None else company.owner
        self.spend(corp.sym, seller, self.right_cost)
        if "unlimited_bonus_tokens" not in self.optional_rules:
            self.right_markers[right] -= 1
        self.rights.setdefault(corp.sym, set()).add(right)
        self.log.append(f"{corp.sym} buys a {right} right from {self.name_of(seller)} for {self.fmt(self.right_cost)}")

    # ------------------------------------------------------------------ values
    def player_value(self, player: Any) -> int:
        value = super().player_value(player)
        for s in self.shares.values():
            if s.owner == player.id:
                value -= s.percent * self.corporations[s.corporation].loans
        return value
