"""1833NE: Railroading in New England (issue #4).

A plain :class:`engine.game.Game` (not of the 1856 family: no loans, national or
destinations) with 1833NE's own finances: incremental capitalization from a 20% start at a free price, issuing and
redeeming shares, a linear market moved by dividends relative to the price, two-sided
trains that become obsolete, connection bonuses and ferries, emergency issuing before the
president pays, bankruptcy that only eliminates the player, and the optional Takeover game.

Rules come from the project's 1833NE rule summary (1833NE.de.txt, German); where it is silent or unclear the
decision taken is listed in ``engine/titles/g1833ne/notes.md`` (and marked "# decision" in
the data).
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any

from ... import actions as A
from ...entities import POOL, Company, Corporation, Share, Train
from ...game import Game
from ...map.tiles import Tile
from ...market import Cell
from ...rounds.operating import OperatingRound
from ...routing.graph import RouteGraph
from ...routing.router import RouteSolution
from ...routing.router import best_routes as shared_best_routes
from . import choices as choice_refinements
from . import companies as company_rules
from . import data as g1833ne_data
from . import emergency as emergency_rules
from . import finance as finance_rules
from . import provisional as provisional_rules
from . import provisional_play
from . import routes as route_rules
from . import sequence as sequence_rules
from . import stations as station_rules
from . import takeover as _takeover  # registers the takeover actions
from . import track as track_rules
from . import train_buying as train_rules
from .stations import NEBoard
from .trains import Side

UNLIMITED_TILES = 30  # "unlimited" tiles (7, 8, 9): more than the map can hold


def runtime_data(data: Any) -> Any:
    """The data module with "unlimited" tile counts made numbers (the shared board counts
    tiles); cached so every game shares one object."""
    cached = _RUNTIME.get(id(data))
    if cached is None:
        cached = types.ModuleType(data.__name__ + "_runtime")
        cached.__dict__.update({k: v for k, v in vars(data).items() if not k.startswith("__")})
        vars(cached)["TILES"] = {
            k: (UNLIMITED_TILES if v == "unlimited" else v) for k, v in data.TILES.items()
        }
        _RUNTIME[id(data)] = cached
    return cached


_RUNTIME: dict[int, Any] = {}
_ACTIONS = (_takeover.Takeover, _takeover.AcceptTakeover)


class G1833NE(Game):
    # No MAX_TURN (Game's None): a game nobody can move in ends as "stalled".
    TITLE = "1833NE"
    SELL_AFTER = "any"  # checked in can_sell_hook: before it operated only its president sells
    SELL_BUY_ORDER = "sell_buy"
    SELL_MOVEMENT = "left_block_pres"
    MUST_SELL_IN_BLOCKS = True
    HOLDING_LIMIT = 60
    MARKET_SHARE_LIMIT = 50
    CAPITALIZATION = "incremental"
    FLOAT_PERCENT = 20
    # no loans (Game's HAS_LOANS False): the 1846 finance system issues shares instead
    IPO_NAME = g1833ne_data.IPO_NAME  # shares not yet sold lie in the corporation's treasury
    choice_overrides = choice_refinements.HANDLERS  # homes to start on, takeovers

    def __init__(
        self,
        data: Any,
        players: Iterable[tuple[str, str]],
        optional_rules: Iterable[str] = (),
        seed: int | None = None,
    ):
        super().__init__(runtime_data(data), players, optional_rules, seed)

    # ------------------------------------------------------------------ set-up
    @property
    def takeover_game(self) -> bool:
        return "takeover_game" in self.optional_rules

    def game_corporations(self) -> list[dict[str, Any]]:
        corps = [dict(c) for c in self.data.CORPORATIONS]
        if "takeover_game" in self.optional_rules:
            corps += [dict(c) for c in self.data.TAKEOVER_CORPORATIONS]
        for c in corps:
            # rules summary: two stations only, the home and one more for $80
            c["tokens"] = list(c.get("tokens", [0, 80]))[: self.data.STATIONS_PER_CORPORATION]
        return corps

    def game_trains(self) -> list[dict[str, Any]]:
        trains = [dict(t) for t in self.data.TRAINS]
        if "takeover_game" in self.optional_rules:
            for t in trains:
                t["num"] = self.data.NUM_TRAINS_TAKEOVER.get(t["name"], t["num"])
        return trains

    def setup(self) -> None:
        d = self.data
        self.right_cost = d.FERRY_PRICE  # the special buy is a ferry
        # what no source gives (bonuses, ferries, the bank's reserve): the game's own table
        self.provisional_entries = [o for o in self.optional_rules if provisional_rules.is_entry(o)]
        self.provisional = provisional_rules.table_from_options(self.provisional_entries, d)
        # the 1833NE board (P4/P6 off-board stations) with the home reservations again
        self.board = NEBoard(self)
        for corp in self.corporations.values():
            if corp.home and corp.home in self.board.hexes:
                self.board.reserve_home(corp.home, corp.home_city, corp.sym)
        self.special_reservations: dict[str, str] = {}
        for sym, res in d.RESERVATIONS.items():
            if res["hex"] == "E22":
                self.board.reserve_home("E22", None, sym)
                self.special_reservations[sym] = "E22"
        # trains: every card has two sides; the side is fixed when it is bought
        self.card_of: dict[str, str] = {}
        self.sides: dict[str, list[Side]] = {}
        self.chosen: dict[str, Side] = {}
        train_rules.set_up_cards(self)
        self.obsolete: set[str] = set()
        self.ferries: dict[str, str | None] = {h: None for h in self.provisional.ferry_ports}
        self.ferry_order: list[str] = []
        self.ferries_removed = False
        self.p5_ferry: str | None = None
        self.flipped: set[str] = set()
        self.removed_companies: set[str] = set()
        self.p2_bought_key: tuple[Any, ...] | None = None
        self.p3_hexes_laid: list[str] = []
        self.paid_borders: set[tuple[str, int]] = set()
        self.pool_overflow: set[str] = set()  # corporations over 50% in the market after a bankruptcy
        self.takeovers: dict[str, int] = {}
        self.bank_reserve = self.provisional.bank_reserve
        self.end_after_turn: int | None = None  # the set of operating rounds after which the game ends
        self.sherbrooke_token_done = False
        self.sherbrooke_sharers: list[str] = list(self.data.SHARED_TOKEN["corporations"])
        self._free_lay = False  # True while check_lay_tile checks a free lay (for check_lay_rotation)

    # ------------------------------------------------------------------ helpers
    def owns_company(self, corp: Corporation, sym: str) -> bool:
        c = self.companies.get(sym)
        return bool(c and not c.closed and c.owner == corp.sym)

    def company_ability_live(self, sym: str) -> bool:
        return not self.companies[sym].closed

    def phase_index_of(self, name: str) -> int:
        return [p["name"] for p in self.phases].index(name)

    # ------------------------------------------------------------------ certificate limit
    def cert_limit(self) -> int:
        return finance_rules.cert_limit(self)

    # ------------------------------------------------------------------ stock round
    def initial_round(self) -> Any:
        from .steps import NEAuctionRound

        return NEAuctionRound(self)

    def new_stock_round(self) -> Any:
        from .steps import NEStockRound

        return NEStockRound(self)

    def can_par(self, pid: str, corp: Corporation) -> bool:
        return finance_rules.can_par(self, pid, corp)

    def par_prices(self, corp: Corporation) -> list[Cell]:
        return finance_rules.par_prices(self, corp)

    def capitalization_type(self, corp: Corporation) -> str:
        return "incremental"  # always (the 1846 finance system); no escrow, no full capitalization

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        super().par_corporation(corp, cell, pid)
        corp.started = True

    def transfer_share_from_ipo(self, pid: str, share: Share, par_price: int) -> None:
        finance_rules.transfer_share_from_ipo(self, pid, share, par_price)

    def after_share_bought(self, sym: str) -> None:
        self.change_president(sym)

    def change_president(self, sym: str, preferred: str | None = None) -> None:
        """The holder of the president's certificate is the president; while it lies in the
        market (after a bankruptcy) the corporation has none (decision)."""
        pres = next(s for s in self.corp_shares(sym) if s.president)
        corp = self.corporations[sym]
        if pres.owner == POOL:
            corp.president = None
            return
        if pres.owner in self.player_by_id and corp.president != pres.owner:
            corp.president = pres.owner
        super().change_president(sym, preferred)

    def can_sell_hook(self, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
        return finance_rules.can_sell_hook(self, rnd, pid, sym, percent)

    def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int:
        corp = self.corporations[shares[0].corporation]
        was_president = corp.president == pid
        amount = super().sell_shares(pid, shares, percent)
        finance_rules.price_drop_after_sale(self, corp, shares, percent, was_president)
        return amount

    def price_drop_on_sale(self, corp: Corporation, percent: int) -> None:
        """None here: :meth:`sell_shares` moves the price once the sale is through, as only
        the president's sales move it."""

    def finish_stock_round(self) -> None:
        finance_rules.finish_stock_round(self)

    def move_price(self, corp: Corporation, direction: str) -> None:
        finance_rules.move_price(self, corp, direction)

    # ------------------------------------------------------------------ operating order
    def floatable(self, corp: Corporation) -> bool:
        return corp.ipoed

    def float_percent(self) -> int | None:
        return None  # a corporation floats when it is started

    def floated(self, corp: Corporation) -> bool:
        return corp.ipoed and not corp.closed

    def operating_order(self) -> list[Corporation]:
        return sequence_rules.operating_order(self)

    def new_operating_round(self, num: int) -> OperatingRound:
        from .steps import operating_steps

        return OperatingRound(self, num, operating_steps())

    def payout_companies(self) -> None:
        company_rules.payout_companies(self)

    def start_operating(self, rnd: OperatingRound, corp: Corporation) -> bool:
        return sequence_rules.start_operating(self, rnd, corp)

    def after_step_action(self, rnd: OperatingRound, action: A.Action) -> None:
        self.check_end_triggers()

    def after_action(self, action: A.Action) -> None:
        self.check_end_triggers()
        company_rules.refresh_p5(self)  # ferries and P5 move with takeovers, close, go in phase IV

    def check_bank(self) -> None:
        """Whether the bank is down to its reserve (the game-end triggers, checked now)."""
        self.check_end_triggers()

    def check_end_triggers(self) -> None:
        sequence_rules.check_end_triggers(self)

    def bank_broken(self) -> None:
        sequence_rules.bank_broken(self)

    @property
    def end_reason_text(self) -> str | None:
        """Why the game ended, in words (the end-of-game summary shows it)."""
        return sequence_rules.END_TEXTS.get(self.end_reason or "", self.end_reason)

    def next_round(self) -> None:
        sequence_rules.next_round(self)

    # ------------------------------------------------------------------ phases & events
    def on_train_bought_from_depot(self, train: Train) -> None:
        sequence_rules.on_train_bought_from_depot(self, train)

    def change_phase(self, index: int) -> None:
        sequence_rules.change_phase(self, index)

    def close_company(self, company: Company) -> None:
        super().close_company(company)
        if company.sym == "P5":
            self.p5_ferry = None

    # ------------------------------------------------------------------ trains
    def train_side(self, train: Train) -> Side:
        return train_rules.train_side(self, train)

    def corp_train_limit(self, corp: Corporation) -> int:
        return train_rules.corp_train_limit(self, corp)

    def room(self, corp: Corporation) -> bool:
        return train_rules.room(self, corp)

    def crowded_corps(self) -> list[Corporation]:
        return train_rules.crowded_corps(self)

    def discard_train(self, train: Train) -> None:
        train_rules.discard_train(self, train)

    def runnable_trains(self, corp: Corporation) -> list[Train]:
        return train_rules.runnable_trains(self, corp)

    def depot_trains(self) -> list[Train]:
        return train_rules.depot_trains(self)

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        return train_rules.buyable_depot_trains(self, corp)

    def other_corp_trains(self, corp: Corporation) -> list[Train]:
        return train_rules.other_corp_trains(self, corp)

    def exchange_options(self, corp: Corporation) -> list[tuple[Train, int]]:
        return []

    def side_prices(self, train: Train) -> list[int]:
        return train_rules.side_prices(self, train)

    def min_train_price(self, corp: Corporation) -> int | None:
        return train_rules.min_train_price(self, corp)

    def can_buy_train(self, corp: Corporation) -> bool:
        return train_rules.can_buy_train(self, corp)

    def must_buy_train(self, corp: Corporation) -> bool:
        # summary: a corporation without a train after running must buy one
        return train_rules.must_buy_train(self, corp)

    def cheapest_depot_train(self, corp: Corporation | None = None) -> Train | None:
        return train_rules.cheapest_depot_train(self, corp)

    def needs_emergency_money(self, corp: Corporation) -> bool:
        return emergency_rules.needs_emergency_money(self, corp)

    def emergency_shortfall(self, corp: Corporation) -> int:
        return emergency_rules.emergency_shortfall(self, corp)

    def obsolete_trains(self) -> set[str]:
        return self.obsolete

    def train_variants(self, train: Train) -> list[tuple[str, int]]:
        return train_rules.train_variants(self, train)

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        train_rules.buy_train(self, rnd, corp, action)

    def scrap_obsolete(self, corp: Corporation) -> None:
        train_rules.scrap_obsolete(self, corp)

    # ------------------------------------------------------------------ emergency money
    def emergency_issue_bundles(self, rnd: OperatingRound, corp: Corporation) -> list[tuple[int, int]]:
        return emergency_rules.emergency_issue_bundles(self, rnd, corp)

    def issue_in_emergency(self, rnd: OperatingRound, corp: Corporation, num: int) -> None:
        emergency_rules.issue_in_emergency(self, rnd, corp, num)

    def side_floor(self, corp: Corporation, train: Train) -> int:
        return emergency_rules.side_floor(self, corp, train)

    def issue_choices(self, corp: Corporation) -> list[tuple[list[str], str]]:
        return emergency_rules.issue_choices(self, corp)

    def emergency_issue(self, corp: Corporation, num: int) -> None:
        emergency_rules.emergency_issue(self, corp, num)

    def _emergency_sale_ok(self, pid: str, corp: Corporation, sym: str, pct: int, need: int) -> bool:
        return (
            emergency_rules.may_sell_in_emergency(self, pid, sym)
            and super()._emergency_sale_ok(pid, corp, sym, pct, need)
            and not emergency_rules.sale_closes_operating(self, pid, corp, sym)
            and not emergency_rules.sale_changes_director(self, pid, corp, sym, pct)
        )

    def _max_sellable(self, pid: str, corp: Corporation) -> list[tuple[str, int]]:
        return emergency_rules._max_sellable(self, pid, corp)

    def declare_bankrupt(self, rnd: OperatingRound, corp: Corporation) -> None:
        emergency_rules.declare_bankrupt(self, rnd, corp)

    # ------------------------------------------------------------------ track
    def tile_lays_per_turn(self, corp: Corporation) -> int:
        return track_rules.tile_lays_per_turn(self, corp)

    def check_lay_tile(
        self,
        corp: Corporation,
        hex_id: str,
        tile_id: str,
        rotation: int,
        *,
        free: bool = False,
        connected: bool = True,
    ) -> tuple[Tile, int]:
        self._free_lay = free
        try:
            tile, _ = super().check_lay_tile(corp, hex_id, tile_id, rotation, free=free, connected=connected)
        finally:
            self._free_lay = False
        h = self.board.hex(hex_id)
        return tile, (0 if free else track_rules.tile_cost(self, corp, h, h.tile, tile))

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False) -> Tile:
        tile = super().check_lay_static(corp, hex_id, tile_id, free=True)  # 1833NE's costs, not terrain's
        track_rules.check_lay_limits(self, corp, self.board.hex(hex_id), free)
        return tile

    def check_lay_rotation(
        self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True
    ) -> None:
        super().check_lay_rotation(corp, hex_id, tile, connected=connected)
        if not self._free_lay:
            track_rules.check_border_cost(self, corp, self.board.hexes[hex_id], tile)

    def completed_borders(self, h: Any, old: Tile, new: Tile) -> list[tuple[tuple[str, int], int]]:
        return track_rules.completed_borders(self, h, old, new)

    def lay_tile(
        self,
        corp: Corporation,
        action: A.LayTile,
        *,
        company: Company | None = None,
        free: bool = False,
        connected: bool = True,
    ) -> None:
        h = self.board.hex(action.hex)
        upgrade, old = track_rules.is_upgrade(h), h.tile
        tile, cost = self.check_lay_tile(
            corp, action.hex, action.tile, action.rotation, free=free, connected=connected
        )
        borders = [] if free else self.completed_borders(h, old, tile)
        super().lay_tile(corp, action, company=company, free=True, connected=connected)  # paid below
        track_rules.pay_for_lay(self, corp, h, cost, borders, upgrade=upgrade and company is None)

    # ------------------------------------------------------------------ tokens
    def token_cost_at(self, corp: Corporation, hid: str) -> int | None:
        return station_rules.token_cost_at(self, corp, hid)

    def can_place_token(self, corp: Corporation) -> bool:
        return station_rules.can_place_token(self, corp)

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        station_rules.place_token(self, corp, action)

    def place_home(self, corp: Corporation, hid: str | None = None, city: int | None = None) -> None:
        station_rules.place_home(self, corp, hid, city)

    # ------------------------------------------------------------------ routes
    def can_run_routes(self, corp: Corporation) -> bool:
        if not corp.trains:
            return False
        if corp.sym == "B&L" and track_rules.bl_restricted(self) and self.board.hexes["G22"].tile.color == "yellow":
            return False  # P2: no B&L routes while Boston is not upgraded, unless a corporation bought P2
        return True

    def run_routes(self, corp: Corporation, action: A.RunRoutes) -> list[dict[str, Any]]:
        return route_rules.check_routes(self, corp, list(action.route_dicts()))

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        return route_rules.route_revenue(self, corp, None, stops)

    def route_revenue_for_train(self, corp: Corporation, stops: list[tuple[str, int]], train: Train) -> int:
        """What ``train`` (its side: plain, N/M or N+s) earns on a route with these stops;
        GameError when it cannot run it.  The shared router scores routes per train with it."""
        return route_rules.route_revenue(self, corp, train, stops)

    def extension_gains(self, corp: Corporation, stops: list[tuple[str, int]]) -> dict[str, int]:
        """Hex -> what extending a route past these stops to it adds (cross-connection
        bonuses); the shared router extends routes with it (engine.routing.extension)."""
        return route_rules.extension_gains(self, corp, stops)

    def best_routes(self, corp_sym: str, time_budget: float = 0.5) -> list[dict[str, Any]]:
        """The best routes (the shared exact router, scoring each route per train side)."""
        return self.best_route_solution(corp_sym, time_budget).routes

    def best_route_solution(self, corp_sym: str, time_budget: float = 0.5) -> RouteSolution:
        return shared_best_routes(self, corp_sym, time_budget=time_budget)

    def route_graph(self, corp_sym: str) -> RouteGraph:
        """The shared graph with the P4/P6 off-boards counted as stations."""
        return route_rules.station_graph(self, self.corp(corp_sym))

    def status_notes(self) -> list[str]:
        return company_rules.status_notes(self)

    def ferry_badge(self, hid: str) -> str | None:
        return company_rules.ferry_badge(self, hid)

    def ferry_value(self, corp: Corporation, hid: str) -> int:
        return company_rules.ferry_value(self, corp, hid)

    def provisional_rows(self) -> list[list[str]]:
        """The game's provisional values as rows [what, I, II, III, IV, V, source]."""
        return provisional_rules.table_rows(self.provisional, self.data)

    def provisional_lines(self) -> list[str]:
        """The game's provisional values as message lines (``/game new``, ``/game rules``)."""
        return provisional_rules.summary_lines(self.provisional, self.data, self.fmt)

    def _process(self, action: A.Action) -> None:
        if isinstance(action, provisional_play.SetProvisional):  # any time, by the players' agreement
            self.recorded_auto, self.auto_done = {}, []
            provisional_play.apply(self, action)
            return
        super()._process(action)

    def provisional_open(self) -> bool:
        """The host may change the provisional values until the first operating round."""
        return self.turn == 1 and not isinstance(self.round, OperatingRound) and not self.finished

    # ------------------------------------------------------------------ dividends
    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        return finance_rules.can_choose_dividend(self, rnd, corp)

    def dividend_kinds(self, corp: Corporation) -> list[str]:
        return ["payout", "half", "withhold"]

    def pay_dividend(self, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        finance_rules.pay_dividend(self, rnd, corp, kind)

    # ------------------------------------------------------------------ issue / redeem
    def issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        return finance_rules.issue_options(self, corp)

    def redeem_options(self, corp: Corporation) -> list[tuple[int, int]]:
        return finance_rules.redeem_options(self, corp)

    # ------------------------------------------------------------------ privates & ferries
    def can_buy_companies(self, corp: Corporation) -> bool:
        return company_rules.can_buy_companies(self, corp)

    def company_min_price(self, c: Company) -> int:
        return 1

    def company_max_price(self, c: Company) -> int:
        return company_rules.company_max_price(self, c)

    def purchasable_companies(self) -> list[Company]:
        out = super().purchasable_companies()
        rnd = self.round
        if isinstance(rnd, OperatingRound):
            out = [c for c in out if company_rules.company_price_floor(self, c) <= rnd.corp.cash]
        return out

    def company_surcharge(self, company: Company) -> int:
        return company_rules.company_surcharge(self, company)

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        super().buy_company(corp, action)
        company = self.company(action.company)
        if company.sym == "P2":
            self.p2_bought_key = self.round_key()
        if company.sym == "P5":
            company_rules.refresh_p5(self)  # its owner now chooses the ferry it doubles

    def has_any_time_ability(self, corp: Corporation) -> bool:
        return False

    def special_buys(self, corp: Corporation) -> list[str]:
        return company_rules.special_buys(self, corp)

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        company_rules.special_buy(self, corp, action)

    # ------------------------------------------------------------------ takeover game
    def variable_homes(self, corp: Corporation) -> list[tuple[str, int, int]]:
        from .takeover import variable_homes

        return variable_homes(self, corp)

    # ------------------------------------------------------------------ end & values
    def check_game_end(self, after: str) -> bool:
        return sequence_rules.check_game_end(self, after)

    def player_value(self, player: Any) -> int:
        return finance_rules.player_value(self, player)

    def close_corporation(self, corp: Corporation) -> None:
        sequence_rules.close_corporation(self, corp)
