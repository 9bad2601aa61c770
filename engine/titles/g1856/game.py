"""1856 rules (and the 1856 family: 1836Jr56 reuses them on its own map).

Capitalization is fixed at par by the train era (escrow / incremental / full), the float
percentage grows as train types sell out, corporations take loans (one per OR, at most one
per share in players' hands) and pay interest, escrow money is released at the
destination, and the first 6-train nationalises the companies that cannot repay (CGR).
"""

from __future__ import annotations

import math
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
from ...tiles import COLOR_ORDER, Tile, labels_match, paths_preserved
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
from .trains import BankruptStep, G1856BuyTrainStep, ebuy_bundles, min_depot_price


class LoanStep(Step):
    """Loans may be taken any time in the turn; after buying trains the corporation may repay."""

    name = "take or repay loans"

    def blocks(self) -> bool:
        g = self.game
        return not g.post_nationalization and self.round.state.get("bought_trains_done", False)

    def actions(self, entity: str) -> list[str]:
        g = self.game
        corp = self.corp
        if entity != corp.sym:
            return []
        out = []
        done = self.round.state.get("bought_trains_done")
        if done and corp.loans and corp.cash >= g.loan_value:
            out.append("payoff_loan")
        if g.can_take_loan(self.round, corp):
            out.append("take_loan")
        # more loans than shares in players' hands are repaid when the step ends (a pass)
        forced = done and corp.loans > g.maximum_loans(corp)
        if (out or forced) and self.blocks():
            out.append("pass")
        return out

    def process(self, action: A.Action) -> None:
        g = self.game
        corp = self.corp
        if isinstance(action, A.Pass):
            self.passed = True
        elif isinstance(action, A.TakeLoan):
            g.take_loan(self.round, corp, action.loan)
        elif isinstance(action, A.PayoffLoan):
            if not corp.loans:
                raise GameError(f"{corp.sym} has no loan to repay")
            g.export_fill["loan"] = g.loan_book.repay(corp.sym, action.loan)
            g.spend(corp.sym, "bank", g.loan_value)
            corp.loans -= 1
            g.loans_available += 1
            self.round.state["redeemed_loan"] = True
            g.log.append(f"{corp.sym} pays off a loan for {g.fmt(g.loan_value)}")


class AssignStep(Step):
    """A private's one-off marker (1856 GLSC port marker) placed by its owning corporation."""

    name = "assign"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        company = self.game.companies.get(entity)
        if company and not company.closed and company.owner == self.corp.sym and \
                company.ability("assign_hexes"):
            return ["assign"]
        return []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.Assign)
        self.game.assign(self.corp, action)


class SpecialStep(Step):
    """Private abilities used by the owning corporation: extra/special tile lays and tokens."""

    name = "use a private"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        company = self.game.companies.get(entity)
        if not company or company.closed or company.owner != self.corp.sym:
            return []
        out = []
        if company.ability("tile_lay") and self.game.special_tile_lay_ok(self.round, company):
            out.append("lay_tile")
        token = company.ability("token")
        if token and (company.sym, "token") not in self.game.used_abilities \
                and self.game.special_token_time(self.round) \
                and (token.get("extra_action") or not self.round.state.get("tokened")):
            # the private's station is the turn's station: not once one is placed (as 18xx.games)
            out.append("place_token")
        teleport = company.ability("teleport")
        if teleport and (company.sym, "teleport") not in self.game.used_abilities \
                and self.round.state.get("tiles_laid", 0) < self.game.tile_lays_per_turn(self.corp) \
                and "lay_tile" not in out and (teleport.get("when") != "track" or self._track_open()):
            out.append("lay_tile")
        return out

    def _track_open(self) -> bool:
        return not any(isinstance(s, TrackStep) and s.passed for s in self.round.steps)

    def process(self, action: A.Action) -> None:
        self.game.use_private(self.round, self.corp, action)


class TeleportTokenStep(Step):
    """After a teleport lay (1836Jr56 CdH on J8) the private places the corporation's station
    there for free, or passes; it holds the turn until then (as on 18xx.games). The station
    is the turn's token."""

    name = "place the private's station"

    def company(self) -> str | None:
        return self.round.state.get("teleported")

    def active_entities(self) -> list[str]:
        c = self.company()
        return [c] if c else []

    def blocking(self) -> bool:
        return self.company() is not None

    def actions(self, entity: str) -> list[str]:
        return ["place_token", "pass"] if entity == self.company() else []

    def process(self, action: A.Action) -> None:
        g: G1856 = self.game  # type: ignore[assignment]
        if isinstance(action, A.PlaceToken):
            g.teleport_token(self.round, self.corp, action)
        else:
            g.log.append(f"{action.entity} declines to place a station")
        self.round.state.pop("teleported", None)

    def skip(self) -> None:
        pass


class SpecialBuyStep(Step):
    """Buying a tunnel/bridge right for $50."""

    name = "buy a right"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        # any corporation may buy a right during the operating round (as on 18xx.games)
        corp = self.game.corporations.get(entity)
        if corp is None or corp.closed:
            return []
        return ["special_buy"] if self.game.special_buys(corp) else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.SpecialBuy)
        self.game.special_buy(self.game.corporations[action.entity], action)


class HomeTokenStep(Step):
    """Placing a home token whose city must be chosen: a home hex with several cities and
    track, or a token lifted by an upgrade of a multi-city hex without track."""

    name = "place the home token"

    def pending(self) -> list[tuple[str, str, str]]:
        """(token owner, hex, who places it): a lifted token is placed again by the corporation
        that laid the tile (18xx.games: the current operator)."""
        g = self.game
        out = list(g.pending_tokens)
        if self.round.state.get("home_pending"):
            out.append((self.corp.sym, self.corp.home or "", self.corp.sym))
        return out

    def active_entities(self) -> list[str]:
        p = self.pending()
        return [p[0][2]] if p else [self.corp.sym]

    def actions(self, entity: str) -> list[str]:
        p = self.pending()
        return ["place_token"] if p and p[0][2] == entity else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.PlaceToken)
        g = self.game
        sym, hid_expected, _ = self.pending()[0]
        corp = g.corp(sym)
        hid, city = g.parse_city(action.city)
        if hid != hid_expected:
            raise GameError(f"{sym} must place its token on {hid_expected}")
        if g.board.free_slots(g.board.hex(hid), city, sym) <= 0:
            raise GameError(f"No free space for {sym} in that city of {hid}")
        g.board.place_token(hid, city, sym, action.slot)
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        if g.pending_tokens:
            g.pending_tokens.pop(0)
        else:
            self.round.state["home_pending"] = False

    def skip(self) -> None:
        pass


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
        return not corp.ipoed and not corp.closed and corp.sym != self.national_sym

    def capitalization_type(self, corp: Corporation) -> str:
        if self.capitalization_mode == "escrow":
            return "incremental" if corp.destinated else "escrow"
        return self.capitalization_mode

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        corp.capitalization = self.capitalization_type(corp)
        corp.escrow = 0 if corp.capitalization == "escrow" else None
        corp.ipoed = True
        corp.par = cell
        corp.price = cell
        cell.corporations.append(corp.sym)
        corp.president = pid

    def transfer_share_from_ipo(self, pid: str, share: Any, par_price: int) -> None:
        corp = self.corporations[share.corporation]
        price = self.shares_worth(corp.sym, share.percent, par_price)
        sold_before = 100 - self.percent_of(corp.sym, corp.sym)
        if corp.capitalization == "incremental":
            self.spend(pid, corp.sym, price)
        elif corp.capitalization == "escrow":
            if sold_before < 50:
                self.spend(pid, corp.sym, price)
            else:
                self.spend(pid, "bank", price)
                corp.escrow = (corp.escrow or 0) + price
        else:
            self.spend(pid, "bank", price)
        self.move_share(share, pid)
        self.log.append(f"{self.name_of(pid)} buys {share.id} from the IPO for {self.fmt(price)}")

    def after_share_bought(self, sym: str) -> None:
        corp = self.corporations[sym]
        self.change_president(sym)
        if corp.capitalization == "full" and not corp.started and self.floatable(corp):
            self.bank_pays(corp.sym, corp.par.price * corp.total_shares if corp.par else 0)
            corp.started = True
            self.log.append(f"{sym} floats and receives {self.fmt(corp.par.price * corp.total_shares)}")

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

    def after_buy_company(self, pid: str, company: Company, price: int) -> None:
        pass

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

    def bank_pays(self, receiver: str, amount: int) -> None:
        self.spend("bank", receiver, amount, allow_negative=True)

    # ------------------------------------------------------------------ floating
    def floatable(self, corp: Corporation) -> bool:
        return 100 - self.percent_of(corp.sym, corp.sym) >= self.percent_to_operate

    def floated(self, corp: Corporation) -> bool:
        return corp.started or (corp.capitalization == "full" and self.floatable(corp))

    def operating_order(self) -> list[Corporation]:
        corps = [c for c in self.corporations.values()
                 if not c.closed and c.ipoed and (self.floated(c) or self.floatable(c))]
        return sorted(corps, key=self.operating_sort_key)

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

    def on_operating_round_start(self, rnd: OperatingRound) -> None:
        pass

    def start_operating(self, rnd: OperatingRound, corp: Corporation) -> bool:
        if not corp.started and self.floatable(corp):
            corp.started = True
            self.log.append(f"{corp.sym} floats")
        if not corp.started:
            self.log.append(f"{corp.sym} failed to float and is skipped")
            self.national_discard_done()  # 18xx.games ends every step here, that one too
            return False
        corp.operated = True
        for tid in corp.trains:
            self.trains[tid].operated = False
        self.log.append(f"{self.name_of(corp.president or '')} operates {corp.sym}")
        self.place_home_token(rnd, corp)
        self.note_route(corp)
        return True

    def place_home_token(self, rnd: OperatingRound, corp: Corporation) -> None:
        if not corp.home or any(t.used for t in corp.tokens) or not corp.tokens:
            return
        h = self.board.hex(corp.home)
        cities = h.tile.cities
        if not cities:
            return
        if corp.home_city is not None:
            city = cities[corp.home_city].index if corp.home_city < len(cities) else cities[0].index
        elif corp.sym in h.tile_reservations and h.tile.paths:
            # the reservation is for the hex (its tile has several cities): the corporation
            # chooses the city, even when only one is free (as on 18xx.games)
            rnd.state["home_pending"] = True
            return
        else:
            city = next((c.index for c in cities if corp.sym in h.reservations.get(c.index, [])),
                        cities[0].index)
        if self.board.free_slots(h, city, corp.sym) <= 0 and corp.sym not in h.reservations.get(city, []):
            # home full: the token waits (very rare); nothing is placed
            return
        self.board.place_token(corp.home, city, corp.sym)
        tok = corp.tokens[0]
        tok.used, tok.hex, tok.city = True, corp.home, city

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

    # ------------------------------------------------------------------ track
    def tile_lays_per_turn(self, corp: Corporation) -> int:
        return 1

    def owns_track_time_tile_lay(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """An owned private's extra tile lay (not replacing the normal one) keeps the track
        step open until it is used or the step is passed."""
        for sym in corp.companies:
            c = self.companies[sym]
            ab = c.ability("tile_lay")
            if ab and not c.closed and ab.get("when") == "track" and not ab.get("consume_tile_lay") \
                    and (c.sym, "tile_lay") not in self.used_abilities:
                return True
        return False

    def can_buy_tile_laying_company(self, corp: Corporation) -> bool:
        """While a private with a track-time tile lay could still be bought, the track step stays open."""
        if not self.phase_status("can_buy_companies"):
            return False
        return any(self.company_min_price(c) <= corp.cash and any(
            a.get("type") == "tile_lay" and a.get("when") in (None, "track") for a in c.abilities)
            for c in self.purchasable_companies())

    def gray_phase(self) -> bool:
        return "gray" in self.phase["tiles"]

    def lay_tile(self, corp: Corporation, action: A.LayTile, *, company: Company | None = None,
                 free: bool = False, connected: bool = True) -> None:
        b = self.board
        h = b.hex(action.hex)
        name = action.tile.rsplit("-", 1)[0]
        tile, cost = self.check_lay_tile(corp, action.hex, action.tile, action.rotation,
                                         free=free, connected=connected)
        old = h.tile
        if cost:
            self.spend(corp.sym, "bank", cost)
        pending = self._lift_ambiguous_tokens(h, old, tile)
        b.lay(h.id, action.tile, action.rotation)
        self._resync_token_cities(h)
        for sym in pending:
            self.pending_tokens.append((sym, h.id, corp.sym))
        for sym, hid in getattr(self.data, "CLOSE_AFTER_USE_AT_OR_END", {}).items():
            if hid == h.id and company is None:  # the private's own tile is no longer needed
                self.used_abilities.add((sym, "tile_lay"))
        self.log.append(f"{corp.sym} lays tile {name} on {h.id}"
                        + (f" for {self.fmt(cost)}" if cost else ""))

    def check_lay_tile(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int, *,
                       free: bool = False, connected: bool = True) -> tuple[Tile, int]:
        """Why ``corp`` may not lay ``tile_id`` on ``hex_id`` at ``rotation`` (GameError), else
        the rotated tile and what it costs. Changes nothing."""
        if not 0 <= rotation <= 5:
            raise GameError(f"Rotation must be 0 to 5, not {rotation}")
        base = self.check_lay_static(corp, hex_id, tile_id, free=free)
        tile = base.with_rotation(rotation)
        self.check_lay_rotation(corp, hex_id, tile, connected=connected)
        return tile, (0 if free else self.board.terrain_cost(self.board.hexes[hex_id]))

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False) -> Tile:
        """The checks that do not depend on the rotation; returns the unrotated tile."""
        b = self.board
        h = b.hex(hex_id)
        name = tile_id.rsplit("-", 1)[0]
        if name not in b.supply:
            raise GameError(f"{corp.sym} cannot lay tile {name}: {self.title} has no tile {name}")
        tile = b.tile_for(name)
        old = h.tile
        blocker = self.hex_blocked_by(h.id)
        if blocker:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: blocked by {blocker}")
        if tile.color not in self.phase["tiles"]:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: {tile.color} tiles are not "
                            f"available in phase {self.phase['name']}")
        if tile_id not in b.supply.get(name, []):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: no {name} tile left")
        if not self.upgrades_to(h, old, tile):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: it is not an upgrade of "
                            f"{old.name if h.laid else 'the printed hex'}")
        cost = 0 if free else b.terrain_cost(h)
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: it costs {self.fmt(cost)}")
        return tile

    def check_lay_rotation(self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True) -> None:
        """The checks for one rotation of the new tile (already rotated)."""
        b = self.board
        h = b.hexes[hex_id]
        old = h.tile
        name, rotation = tile.name, tile.rotation
        if any(e not in h.neighbors for e in tile.exits):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id} with rotation "
                            f"{rotation}: track would run off the map or into a barrier")
        if not self.old_paths_preserved(old, tile):
            raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id} with rotation "
                            f"{rotation}: existing track must be kept")
        if connected:
            edges, _ = b.connectivity(corp.sym)
            touched = edges.get(h.id, set())
            if not (tile.exits & touched):
                raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: no route to {h.id}")
            if old.paths and not (self._upgrade_useful(corp, old, tile, touched)
                                  and (self._upgrade_useful(corp, old, tile, touched, h)
                                       or self._upgrade_useful(corp, old, tile, touched, h, exact=True))):
                raise GameError(f"{corp.sym} cannot lay tile {name} on {h.id}: an upgrade must add track "
                                f"{corp.sym} can use or raise a city's value")

    def _upgrade_useful(self, corp: Corporation, old: Tile, new: Tile, touched: set[int],
                        h: Any = None, exact: bool = False) -> bool:
        """1856's track restriction (18xx.games "semi-restrictive"): among the new tile's paths
        that the corporation reaches, one must be new track or lead to a city whose value changed.
        18xx.games counts the paths its network walk takes once the tile is laid (a branch of a
        switch entered from its other branch is not reached). Without ``h`` a path counts when it
        touches an edge the network touches now (quick, a superset); with ``h`` when the network
        enters it from a neighbour now or through the tile's stops (quick, nearly exact); with
        ``exact`` the walk is made on the tile laid."""
        from ...tiles import _path_within

        reached = None
        if h is not None:
            reached = self._new_paths_walked(corp, h, new) if exact else self._new_paths_entered(corp, h, new)
        for pi, np in enumerate(new.paths):
            if reached is not None:
                if pi not in reached:
                    continue
            elif not (set(np.edges) & touched):
                continue
            op = next((p for p in old.paths if _path_within(new, np, old, p)), None)
            if op is None:
                return True
            old_rev = sorted(_max_rev(old.nodes[i].revenue) for i in op.node_indexes)
            new_rev = sorted(_max_rev(new.nodes[i].revenue) for i in np.node_indexes)
            if old_rev != new_rev:
                return True
        return False

    def _new_paths_walked(self, corp: Corporation, h: Any, new: Tile) -> set[int] | None:
        """Indexes of ``new``'s paths the corporation's network walks once ``new`` lies on hex
        ``h`` (None when the hex holds stations, whose cities the new tile may number
        differently: then every touched path counts)."""
        from ...board import route_legal_walk

        b = self.board
        if not b.route_legal_network or any(s for slots in h.tokens.values() for s in slots):
            return None
        starts = [(x.id, ci) for x in b.hexes.values() for ci, slots in x.tokens.items() if corp.sym in slots]
        arrivals: set[tuple[str, int]] = set()
        old_tile = h.tile
        h.tile = new
        try:
            for st in starts:
                route_legal_walk(b, st, corp.sym, set(starts) - {st}, {}, arrivals=arrivals)
        finally:
            h.tile = old_tile
        return self._paths_from(new, {e for hid, e in arrivals if hid == h.id})

    @staticmethod
    def _paths_from(new: Tile, entries: set[int]) -> set[int]:
        """The paths of ``new`` a walk entering at ``entries`` takes: those at an entry edge and
        what they reach through the tile's own stops."""
        reached = {pi for pi, p in enumerate(new.paths) if set(p.edges) & entries}
        stops = {ni for pi in reached for ni in new.paths[pi].node_indexes}
        grew = True
        while grew:
            grew = False
            for pi, p in enumerate(new.paths):
                if pi not in reached and set(p.node_indexes) & stops:
                    reached.add(pi)
                    stops |= set(p.node_indexes)
                    grew = True
        return reached

    def _new_paths_entered(self, corp: Corporation, h: Any, new: Tile) -> set[int] | None:
        """:meth:`_new_paths_walked` from where the network enters the hex now (no walk)."""
        b = self.board
        if not b.route_legal_network or any(s for slots in h.tokens.values() for s in slots):
            return None
        return self._paths_from(new, b.entry_edges(corp.sym, h.id))

    def _resync_token_cities(self, h: Any) -> None:
        """After an upgrade the board says which city each station is in now."""
        for ci, slots in h.tokens.items():
            for sym in slots:
                if sym is None or sym not in self.corporations:
                    continue
                toks = [t for t in self.corporations[sym].tokens if t.used and t.hex == h.id]
                if toks:
                    toks[0].city = ci

    def _lift_ambiguous_tokens(self, h: Any, old: Tile, new: Tile) -> list[str]:
        """Tokens on a multi-city hex without track cannot follow a particular city of the new
        tile: they come off and their owners place them again (as 18xx.games does)."""
        if len(old.cities) < 2 or len(new.cities) < 2 or any(old.node_exits(c.index) for c in old.cities):
            return []
        lifted = []
        for ci, slots in h.tokens.items():
            for i, sym in enumerate(slots):
                if sym is None:
                    continue
                slots[i] = None
                corp = self.corporations[sym]
                for tok in corp.tokens:
                    if tok.used and tok.hex == h.id and tok.city == ci:
                        tok.used, tok.hex, tok.city = False, None, None
                        break
                lifted.append(sym)
        return lifted

    def hex_blocked_by(self, hid: str) -> str | None:
        for c in self.companies.values():
            if c.closed or c.owner not in self.player_by_id:
                continue
            ab = c.ability("blocks_hexes")
            if ab and hid in ab.get("hexes", []):
                return c.sym
        return None

    def old_paths_preserved(self, old: Tile, new: Tile) -> bool:
        if self.gray_phase() and old.towns and old.paths:
            return old.exits <= new.exits
        return paths_preserved(old, new)

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

    def basic_upgrade(self, old: Tile, new: Tile) -> bool:
        if old.color not in COLOR_ORDER or new.color not in COLOR_ORDER:
            return False
        if COLOR_ORDER.index(new.color) != COLOR_ORDER.index(old.color) + 1:
            return False
        if not labels_match(old, new):
            return False
        if len(old.towns) != len(new.towns):
            return False
        if len(old.cities) != len(new.cities) and not (old.label and old.cities):
            return False
        if old.color == "white" and not old.cities and not old.towns and (new.cities or new.towns):
            return False
        return True

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

    # ------------------------------------------------------------------ tokens
    def parse_city(self, city_id: str) -> tuple[str, int]:
        """18xx.games city ids are "<tile id>-<city index>"; a laid tile's id is like "57-0",
        a pre-printed tile's is "<hex>-0" (plain "<hex>" is accepted too)."""
        tile_id, _, idx = city_id.rpartition("-")
        for h in self.board.hexes.values():
            if h.tile_id == tile_id or (h.tile_id is None and tile_id in (h.id, f"{h.id}-0")):
                cities = h.tile.cities
                i = int(idx)
                if i >= len(cities):
                    break
                return h.id, cities[i].index
        raise GameError(f"There is no city {city_id} on the map")

    def token_cost(self, corp: Corporation, hex_id: str | None = None) -> int | None:
        tok = corp.next_token()
        if tok is None:
            return None
        if hex_id is not None and self.token_ability_for(corp, hex_id) is not None:
            return 0
        return tok.price

    def token_ability_for(self, corp: Corporation, hex_id: str) -> Company | None:
        """A private of ``corp`` whose unused station ability covers ``hex_id`` (WSRC on
        Kitchener): 18xx.games applies it to the corporation's own station there (free)."""
        for sym in corp.companies:
            company = self.companies[sym]
            ab = company.ability("token")
            if ab and not company.closed and hex_id in ab.get("hexes", []) and \
                    (sym, "token") not in self.used_abilities:
                return company
        return None

    def can_place_token(self, corp: Corporation) -> bool:
        cost = self.token_cost(corp)
        if cost is None:
            return False
        # A private with a free token ability (WSRC) makes 18xx.games count the cheapest
        # token as free when it decides whether to offer the token step (seen in real games).
        if any(self.companies[c].ability("token") and not self.companies[c].closed for c in corp.companies):
            cost = 0
        if cost > self.buying_power_for_token(corp):
            return False
        return bool(self.tokenable_cities(corp))

    def buying_power_for_token(self, corp: Corporation) -> int:
        rnd = self.round
        extra = 0
        if isinstance(rnd, OperatingRound) and self.can_take_loan(rnd, corp):
            extra = self.loan_value - (self.interest_rate if rnd.state.get("paid_interest") else 0)
        return corp.cash + extra

    def tokenable_cities(self, corp: Corporation) -> list[tuple[str, int]]:
        _, nodes = self.board.connectivity(corp.sym)
        nodes = set(nodes)
        out = []
        for hid, ni in sorted(nodes):
            h = self.board.hexes[hid]
            node = h.tile.nodes[ni]
            if node.kind != "city" or h.tokened_by(corp.sym):
                continue
            if self.board.free_slots(h, ni, corp.sym) > 0:
                out.append((hid, ni))
        return out

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        hid, city = self.parse_city(action.city)
        if (hid, city) not in self.tokenable_cities(corp):
            raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space")
        cost = self.token_cost(corp, hid)
        assert cost is not None
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot afford a token ({self.fmt(cost)})")
        company = self.token_ability_for(corp, hid)
        self.board.place_token(hid, city, corp.sym, action.slot)
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        if cost:
            self.spend(corp.sym, "bank", cost)
        if company is not None:
            self.used_abilities.add((company.sym, "token"))
            if isinstance(self.round, OperatingRound):
                self.close_after_use(self.round, company)
        by = f" ({company.sym})" if company is not None else ""
        self.log.append(f"{corp.sym}{by} places a token on {hid}" + (f" for {self.fmt(cost)}" if cost else ""))

    # ------------------------------------------------------------------ routes & dividends
    def runnable_trains(self, corp: Corporation) -> list[Train]:
        return [self.trains[t] for t in corp.trains]

    def can_run_routes(self, corp: Corporation) -> bool:
        return bool(self.runnable_trains(corp)) and self.has_route(corp)

    def phase_colors(self) -> list[str]:
        return list(self.phase["tiles"])

    def run_routes(self, corp: Corporation, action: A.RunRoutes) -> list[dict[str, Any]]:
        from ...router import check_routes

        # every route rule (chain of track, stops, terminals, blocked cities, shared track,
        # a station on the route, the claimed revenue) is checked in one place, the router's
        routes = action.route_dicts()
        if routes:
            why = check_routes(self, corp.sym, routes)
            if why:
                raise GameError(f"{corp.sym} cannot run that: {why}")
        b = self.board
        out = []
        used_paths: set[tuple[str, int]] = set()
        seen_trains: set[str] = set()
        _, reach = b.connectivity(corp.sym)
        for route in action.route_dicts():
            train = self.train(route["train"])
            if train.owner != corp.sym:
                raise GameError(f"{corp.sym} does not own train {train.id}")
            if train.id in seen_trains:
                raise GameError(f"Train {train.id} cannot run twice")
            seen_trains.add(train.id)
            stops, paths = b.route_stops(route.get("connections", []))
            if not stops:
                continue
            dup = used_paths & set(paths)
            if dup or len(set(paths)) != len(paths):
                raise GameError(f"{train.id}'s route reuses track")
            used_paths |= set(paths)
            counted = [s for s in stops if b.node(s).kind != "junction"]
            if len(counted) > train.distance:
                raise GameError(f"A {train.name}-train visits at most {train.distance} stops")
            if not any(b.node(s).kind == "city" and corp.sym in (b.hexes[s[0]].tokens.get(s[1]) or [])
                       for s in counted):
                if not all(s in reach for s in counted):
                    raise GameError(f"{train.id}'s route does not reach a {corp.sym} station")
            revenue = self.route_revenue(corp, counted)
            claimed = route.get("revenue")
            if claimed is not None and claimed != revenue:
                raise GameError(f"{train.id}'s route {route.get('revenue_str', '')} is worth "
                                f"{self.fmt(revenue)}, not {self.fmt(claimed)}")
            out.append({"train": train.id, "revenue": revenue, "stops": counted,
                        "hexes": route.get("hexes", [])})
        return out

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        colors = self.phase_colors()
        revenue = sum(self.board.stop_revenue(s, colors) for s in stops)
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

    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            return False
        return bool(rnd.state.get("routes"))

    def dividend_kinds(self, corp: Corporation) -> list[str]:
        return ["payout", "withhold"]

    def pay_dividend(self, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        revenue -= rnd.state.get("interest_penalty", 0)
        if kind == "payout" and revenue > 0:
            per_share = revenue / corp.total_shares
            for p in self.players:
                n = self.percent_of(p.id, corp.sym) * corp.total_shares // 100
                if n:  # 18xx.games rounds each holder's dividend up (20-share CGR: $35.5 a share)
                    self.bank_pays(p.id, math.ceil(per_share * n))
            pool_n = self.percent_of(POOL, corp.sym) * corp.total_shares // 100
            if pool_n:
                self.bank_pays(corp.sym, math.ceil(per_share * pool_n))
            self.log.append(f"{corp.sym} pays out {self.fmt(revenue)}")
            self.move_price(corp, "right")
        else:
            if revenue > 0:
                self.bank_pays(corp.sym, revenue)
                self.log.append(f"{corp.sym} withholds {self.fmt(revenue)}")
            else:
                self.log.append(f"{corp.sym} does not run")
            self.move_price(corp, "left")
        rnd.state["dividend_done"] = True

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
        trains = [self.trains[t] for c in self.corporations.values() if c is not corp and not c.closed
                  for t in c.trains]
        if corp.sym == self.national_sym:
            trains = [t for t in trains if t.permanent]
        return trains

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.corp_train_limit(corp)

    def face_value_only(self, buyer: Corporation, train: Train) -> bool:
        """The national buys and sells trains between corporations at face value only."""
        return self.national_sym is not None and self.national_sym in (buyer.sym, train.owner)

    def one_depot_train_per_type(self) -> bool:
        return bool(getattr(self.data, "ONE_DEPOT_TRAIN_PER_TYPE_PER_TURN", False))

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        """Depot trains this corporation may buy now (1836Jr56: one of each type per turn; the
        national only permanent trains)."""
        trains = self.depot_trains()
        if corp.sym == self.national_sym:
            trains = [t for t in trains if t.permanent]
        if getattr(self.data, "ONE_DEPOT_TRAIN_PER_TYPE_PER_TURN", False) and isinstance(self.round, OperatingRound):
            bought = self.round.state.get("depot_types_bought", set())
            trains = [t for t in trains if t.name not in bought]
        return trains

    def min_train_price(self, corp: Corporation) -> int | None:
        # whether the train step stays open counts every train the bank sells, also a type
        # 1836Jr56 already bought from the bank this turn and, for the national, trains it may
        # not buy (as 18xx.games decides it)
        prices = [t.price for t in self.depot_trains()]
        if any(c is not corp and not c.closed and c.trains for c in self.corporations.values()):
            prices.append(1)
        return min(prices) if prices else None

    def can_buy_train(self, corp: Corporation) -> bool:
        if corp.sym == self.national_sym:
            pass
        price = self.min_train_price(corp)
        if price is None:
            return False
        if self.room(corp) and corp.cash >= price:
            return True
        return any(corp.cash >= price for _, price in self.exchange_options(corp))

    def exchange_options(self, corp: Corporation) -> list[tuple[Train, int]]:
        out = []
        for t in self.depot_trains():
            if not t.discount:
                continue
            for own in self.corp_trains(corp.sym):
                if own.name in t.discount:
                    out.append((t, t.price - t.discount[own.name]))
        return out

    def note_route(self, corp: Corporation) -> None:
        """Remember that the operating corporation has a route now (see :meth:`has_route`)."""
        if corp.sym not in self.routes_seen and self._has_route_now(corp):
            self.routes_seen.add(corp.sym)

    def has_route(self, corp: Corporation) -> bool:
        """18xx.games' route test: from one of its stations the corporation's track reaches a
        second stop (junctions and nodes marked ``route:never``, like 1836Jr56's port
        off-boards, do not count).  18xx.games remembers a route once its operating turn has
        seen one: a corporation whose network later shrinks (a city on its way filled by other
        stations) still runs (an empty run) and still must buy a train."""
        if corp.closed:
            return False
        return corp.sym in self.routes_seen or self._has_route_now(corp)

    def _has_route_now(self, corp: Corporation) -> bool:
        b = self.board
        key = ("has_route", corp.sym)
        if key in b._cache:
            return bool(b._cache[key])
        starts = [(h.id, ci) for h in b.hexes.values() for ci, slots in h.tokens.items() if corp.sym in slots]
        found = False
        for start in starts:
            nodes = b._walk([start], corp.sym)
            stops = [n for n in nodes
                     if b.node(n).kind != "junction" and b.node(n).param("route") != "never"]
            if len(stops) >= 2:
                found = True
                break
        b._cache[key] = found
        return found

    def must_buy_train(self, corp: Corporation) -> bool:
        if corp.sym == self.national_sym and not self.national_ever_owned_permanent:
            # until it has owned a permanent train the national buys only when rich enough
            rusting = any(not self.trains[t].permanent for t in corp.trains)
            return corp.cash > getattr(self.data, "ULTIMATE_TRAIN_PRICE", 1100) or (
                rusting and corp.cash > getattr(self.data, "ULTIMATE_TRAIN_TRADE_IN", 750))
        return not corp.trains and self.has_route(corp)

    def cheapest_depot_train(self, corp: Corporation | None = None) -> Train | None:
        trains = self.buyable_depot_trains(corp) if corp is not None else self.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def needs_emergency_money(self, corp: Corporation) -> bool:
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < t.price

    def president_can_sell_for_train(self, corp: Corporation) -> bool:
        return bool(self.emergency_sellable(corp))

    def emergency_shortfall(self, corp: Corporation) -> int:
        t = self.cheapest_depot_train(corp)
        pres = self.player(corp.president) if corp.president else None
        return (t.price if t else 0) - corp.cash - (pres.cash if pres else 0)

    def emergency_sellable(self, corp: Corporation) -> list[tuple[str, int]]:
        """(corporation, percent) bundles the president may sell to pay for the train: only as
        much as needed, and never giving away the presidency of the operating corporation."""
        pid = corp.president
        if pid is None:
            return []
        need = self.emergency_shortfall(corp)
        if need <= 0:
            return []
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            step = 10
            pct = step
            while pct <= held:
                if self._emergency_sale_ok(pid, corp, sym, pct, need):
                    out.append((sym, pct))
                pct += step
        return out

    def _emergency_sale_ok(self, pid: str, corp: Corporation, sym: str, pct: int, need: int) -> bool:
        c = self.corporations[sym]
        assert c.price is not None
        value = self.shares_worth(sym, pct)
        if value - c.price.price >= need:  # would sell more than needed
            return False
        if self.percent_of(POOL, sym) + pct > self.MARKET_SHARE_LIMIT:
            return False
        held = self.percent_of(pid, sym)
        if c.president == pid:
            pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
            if held - pct < pres_pct:
                if sym == corp.sym:
                    return False
                others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
                if others < pres_pct:
                    return False
            if held - pct < 0:
                return False
        return True

    def president_can_fund_train(self, corp: Corporation) -> bool:
        return self.emergency_shortfall(corp) <= 0

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        if corp.president is None:
            return False
        liquidity = sum(self.shares_worth(sym, pct) for sym, pct in self._max_sellable(corp.president, corp))
        return self.emergency_shortfall(corp) - liquidity > 0

    def _max_sellable(self, pid: str, corp: Corporation) -> list[tuple[str, int]]:
        best: dict[str, int] = {}
        for sym in {s.corporation for s in self.shares_of(pid)}:
            c = self.corporations[sym]
            if c.price is None or c.closed:
                continue
            held = self.percent_of(pid, sym)
            limit = self.MARKET_SHARE_LIMIT - self.percent_of(POOL, sym)
            pct = min(held, limit)
            if c.president == pid:
                pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
                others = max((self.percent_of(p.id, sym) for p in self.players if p.id != pid), default=0)
                if sym == corp.sym or others < pres_pct:
                    pct = min(pct, held - pres_pct)
            if pct > 0:
                best[sym] = pct - pct % 10
        return [(k, v) for k, v in best.items() if v > 0]

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        train = self.train(action.train)
        exchange = self.train(action.exchange) if action.exchange else None
        if train.owner == corp.sym:
            raise GameError(f"{corp.sym} already owns {train.id}")
        if train.owner in ("depot", "discard"):
            if train not in self.depot_trains():
                raise GameError(f"Train {train.id} is not available yet")
            if train not in self.buyable_depot_trains(corp):
                if corp.sym == self.national_sym and not train.permanent:
                    raise GameError(f"{corp.sym} buys only permanent trains")
                raise GameError(f"{corp.sym} may buy only one {train.name}-train from the bank per turn")
            price = train.price
            if exchange:
                if exchange.owner != corp.sym or not train.discount or exchange.name not in train.discount:
                    raise GameError(f"{corp.sym} cannot trade in {exchange.id} for {train.id}")
                price = train.price - train.discount[exchange.name]
            # no train limit check: 18xx.games lets a corporation whose train step is open buy
            # past its limit and then discard down to it
            if action.price != price:
                raise GameError(f"Train {train.id} costs {self.fmt(price)}")
            if price > corp.cash:
                if not (self.must_buy_train(corp) and train is self.cheapest_depot_train(corp)):
                    raise GameError(f"{corp.sym} cannot afford {train.id} ({self.fmt(price)})")
                shortfall = price - corp.cash
                pres = corp.president
                assert pres is not None
                if self.player(pres).cash < shortfall:
                    raise GameError(f"{self.name_of(pres)} cannot cover the {self.fmt(shortfall)} shortfall")
                self.spend(pres, corp.sym, shortfall)
                self.log.append(f"{self.name_of(pres)} contributes {self.fmt(shortfall)}")
            # a train first sold from the discard pile (one the national borrowed and gave back)
            # still starts its phase and its events, as when bought new (as 18xx.games)
            from_depot = train.id not in self.trains_sold
            self.trains_sold.add(train.id)
            rnd.state.setdefault("depot_types_bought", set()).add(train.name)
            if exchange:
                self.remove_train(exchange, "discard")  # back to the bank, for sale again
            self.spend(corp.sym, "bank", price)
            self.give_train(train, corp.sym)
            self.log.append(f"{corp.sym} buys a {train.name}-train for {self.fmt(price)}")
            if from_depot:
                self.on_train_bought_from_depot(train)
                if train.id in self.last_trains:
                    self.percent_to_operate = min(60, self.percent_to_operate + 10)
        elif train.owner in self.corporations:
            if rnd.state.get("ebuy_sold") and corp.cash < min_depot_price(self):
                raise GameError(f"{corp.sym} must buy from the bank now that its president sold shares for it")
            self.buy_train_from_corporation(corp, train, action.price, check_room=False)
        else:
            raise GameError(f"Train {train.id} is not for sale")
        if corp.sym == self.national_sym and train.permanent:
            self.national_ever_owned_permanent = True


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

    def discard_train(self, train: Train) -> None:
        self.remove_train(train, "discard")
        self.log.append(f"{train.id} is discarded")

    def buy_train_from_corporation(self, corp: Corporation, train: Train, price: int, *,
                                   check_room: bool = True) -> None:
        """Another corporation's train, for any price from $1 to all the buyer's cash."""
        seller = self.corporations[train.owner]
        if self.face_value_only(corp, train) and price != train.price:
            raise GameError(f"{corp.sym} must pay the face value of {train.id} ({self.fmt(train.price)}): "
                            f"{self.national_sym} trades trains at face value only")
        if check_room and not self.room(corp):
            raise GameError(f"{corp.sym} is at its train limit")
        if price < 1 or price > corp.cash:
            raise GameError(f"{corp.sym} may pay between {self.fmt(1)} and {self.fmt(corp.cash)}")
        self.spend(corp.sym, seller.sym, price)
        self.give_train(train, corp.sym)
        self.log.append(f"{corp.sym} buys {train.id} from {seller.sym} for {self.fmt(price)}")

    def after_buy_train_step(self, rnd: OperatingRound, corp: Corporation) -> None:
        rnd.state["bought_trains_done"] = True
        return_borrowed_train(self, rnd)

    def emergency_sell(self, rnd: OperatingRound, corp: Corporation, action: A.SellShares) -> None:
        pid = action.entity
        shares, sym, _ = self.named_bundle(action)
        pct = sum(s.percent for s in shares)
        if (sym, pct) not in self.emergency_sellable(corp):
            raise GameError(f"{self.name_of(pid)} cannot sell {pct}% of {sym} to pay for {corp.sym}'s train")
        self.sell_shares(pid, shares)
        if self.REORDER_AFTER_EMERGENCY_SALE:
            rnd.recalculate_order()

    def declare_bankrupt(self, rnd: OperatingRound, corp: Corporation) -> None:
        """The president cannot raise enough for the train: they are bankrupt and the game ends."""
        if not self.can_go_bankrupt(corp):
            raise GameError(f"{self.name_of(corp.president or '')} can still raise the money for a train")
        player = self.player(corp.president or "")
        if player.cash > 0:
            self.spend(player.id, "bank", player.cash)
        player.bankrupt = True
        self.log.append(f"-- {player.name} goes bankrupt --")
        self.end_game("bankrupt")

    # ------------------------------------------------------------------ privates
    def can_buy_companies(self, corp: Corporation) -> bool:
        if not self.phase_status("can_buy_companies"):
            return False
        # buying power counts the loan the corporation could still take (as 18xx.games does)
        power = self.buying_power_for_token(corp)
        return any(self.company_min_price(c) <= power for c in self.purchasable_companies())

    def has_any_time_ability(self, corp: Corporation) -> bool:
        """The corporation owns a private whose ability it may use at any time in its turn
        (e.g. 1836Jr56 E-SF's extra tile, RdP's marker): the turn then ends with a pass."""
        for sym in corp.companies:
            c = self.companies[sym]
            if c.closed:
                continue
            for ab in c.abilities:
                if ab.get("when") == "owning_corp_or_turn" and (c.sym, ab.get("type")) not in self.used_abilities:
                    return True
        return False

    def purchasable_companies(self) -> list[Company]:
        return [c for c in self.companies.values() if not c.closed and c.owner in self.player_by_id]

    def company_min_price(self, c: Company) -> int:
        return math.ceil(c.value / 2)

    def company_max_price(self, c: Company) -> int:
        return c.value * 2

    def company_surcharge(self, company: Company) -> int:
        """What a corporation pays the bank on top of the price when buying ``company``."""
        return 0

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        company = self.company(action.company)
        if company.closed or company.owner not in self.player_by_id:
            raise GameError(f"{company.sym} cannot be bought")
        lo, hi = self.company_min_price(company), self.company_max_price(company)
        if not lo <= action.price <= hi:
            raise GameError(f"{company.sym} costs between {self.fmt(lo)} and {self.fmt(hi)}")
        extra = self.company_surcharge(company)
        if action.price + extra > corp.cash:
            raise GameError(f"{corp.sym} cannot pay {self.fmt(action.price + extra)}")
        seller = company.owner
        assert seller is not None
        self.spend(corp.sym, seller, action.price)
        if extra:
            self.spend(corp.sym, "bank", extra)
        self.player(seller).companies.remove(company.sym)
        company.owner = corp.sym
        corp.companies.append(company.sym)
        self.log.append(f"{corp.sym} buys {company.sym} from {self.name_of(seller)} for {self.fmt(action.price)}"
                        + (f" (+{self.fmt(extra)} to the bank)" if extra else ""))
        if company.sym == "NFSBC":
            self.rights.setdefault(corp.sym, set()).add("bridge")
        if company.sym == "SCFTC":
            self.rights.setdefault(corp.sym, set()).add("tunnel")

    def assign(self, corp: Corporation, action: A.Assign) -> None:
        company = self.company(action.entity)
        ab = company.ability("assign_hexes")
        if not ab or action.target not in ab.get("hexes", []):
            raise GameError(f"{company.sym} cannot be assigned to {action.target}")
        self.port_assignment[corp.sym] = action.target
        self.board.hexes[action.target].assignments.add(company.sym)
        self.close_company(company)
        self.log.append(f"{corp.sym} places the port marker on {action.target}")

    def special_tile_lay_ok(self, rnd: OperatingRound, company: Company) -> bool:
        if (company.sym, "tile_lay") in self.used_abilities:
            return False
        ab = company.ability("tile_lay") or {}
        if ab.get("consume_tile_lay") and rnd.state.get("tiles_laid", 0) >= self.tile_lays_per_turn(rnd.corp):
            return False  # the lay is the turn's tile lay (WSRC): not once that is used
        if ab.get("when") == "track":
            return not any(isinstance(s, TrackStep) and s.passed for s in rnd.steps)
        return True

    def special_token_time(self, rnd: OperatingRound) -> bool:
        """18xx.games: a private's station (WSRC) is placed at token time: after the track
        step and before the interest is paid."""
        track_done = any(isinstance(s, TrackStep) and s.passed for s in rnd.steps)
        return track_done and not rnd.state.get("paid_interest")

    def close_after_use(self, rnd: OperatingRound, company: Company) -> None:
        if company.sym in getattr(self.data, "CLOSE_AFTER_USE_AT_OR_END", {}):
            rnd.state_round.setdefault("close_at_end", []).append(company.sym)
            self.log.append(f"{company.sym} is used and will close at the end of the operating round")

    def on_round_end(self, rnd: Any) -> None:
        if isinstance(rnd, OperatingRound):
            # stations the national still had to remove are forgotten with the round (18xx.games
            # keeps them in the round; it ends when all its corporations merged into the national)
            self.token_removals = []
            for sym in rnd.state_round.get("close_at_end", []):
                company = self.companies[sym]
                if not company.closed:
                    self.close_company(company)
                    self.log.append(f"{sym} closes")

    def use_private(self, rnd: OperatingRound, corp: Corporation, action: A.Action) -> None:
        company = self.company(action.entity)
        self.close_after_use(rnd, company)
        if isinstance(action, A.LayTile) and company.ability("teleport") and not company.ability("tile_lay"):
            self._teleport_lay(rnd, corp, company, action)
            return
        if isinstance(action, A.LayTile):
            ab = company.ability("tile_lay")
            assert ab is not None
            if action.hex not in ab.get("hexes", []) or action.tile.rsplit("-", 1)[0] not in ab.get("tiles", []):
                raise GameError(f"{company.sym} may lay {', '.join(ab.get('tiles', []))} on "
                                f"{', '.join(ab.get('hexes', []))} only")
            self.lay_tile(corp, action, company=company, free=bool(ab.get("free")), connected=False)
            self.used_abilities.add((company.sym, "tile_lay"))
            if ab.get("consume_tile_lay"):
                rnd.state["tiles_laid"] = rnd.state.get("tiles_laid", 0) + 1
        elif isinstance(action, A.PlaceToken):
            hid, city = self.parse_city(action.city)
            ab = company.ability("token")
            assert ab is not None
            if hid not in ab.get("hexes", []):
                raise GameError(f"{company.sym} may place a token on {', '.join(ab.get('hexes', []))} only")
            self.board.place_token(hid, city, corp.sym, action.slot)
            tok = corp.next_token()
            if tok is None:
                raise GameError(f"{corp.sym} has no token left")
            tok.used, tok.hex, tok.city = True, hid, city
            self.used_abilities.add((company.sym, "token"))
            if not ab.get("extra_action"):
                rnd.state["tokened"] = True  # the turn's token (18xx.games: "Token already placed")
        else:
            raise GameError(f"{company.sym} cannot {action.type}")

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


def _max_rev(revenue: Any) -> int:
    return max(revenue.values()) if isinstance(revenue, dict) else int(revenue)
