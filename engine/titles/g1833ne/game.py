"""1833NE: Railroading in New England (issue #4).

Built on the 1856 title's map mechanics (tile legality, token bookkeeping), with 1833NE's
own finances: incremental capitalization from a 20% start at a free price, issuing and
redeeming shares, a linear market moved by dividends relative to the price, two-sided
trains that become obsolete, connection bonuses and ferries, emergency issuing before the
president pays, bankruptcy that only eliminates the player, and the optional Takeover game.

Rules come from ``/work/shared/rules/1833NE.de.txt``; where it is silent or unclear the
decision taken is listed in ``engine/titles/g1833ne/notes.md`` (and marked "# decision" in
the data).
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any

from ... import actions as A
from ...board import Board
from ...entities import POOL, Company, Corporation, Share, Train
from ...errors import GameError
from ...game import Game
from ...market import Cell
from ...operating import OperatingRound
from ...router import RouteSolution
from ...router import best_routes as shared_best_routes
from ...router_graph import RouteGraph
from ...tiles import Tile
from ..g1856.game import G1856
from . import data as g1833ne_data
from . import market as M
from . import provisional as P
from . import routes as R
from . import takeover as _takeover  # registers the takeover actions
from .trains import Side, card_sides

UNLIMITED_TILES = 30  # "unlimited" tiles (7, 8, 9): more than the map can hold


def runtime_data(data: Any) -> Any:
    """The data module with "unlimited" tile counts made numbers (the shared board counts
    tiles); cached so every game shares one object."""
    cached = _RUNTIME.get(id(data))
    if cached is None:
        cached = types.ModuleType(data.__name__ + "_runtime")
        cached.__dict__.update({k: v for k, v in vars(data).items() if not k.startswith("__")})
        cached.TILES = {k: (UNLIMITED_TILES if v == "unlimited" else v) for k, v in data.TILES.items()}
        _RUNTIME[id(data)] = cached
    return cached


_RUNTIME: dict[int, Any] = {}
_ACTIONS = (_takeover.Takeover, _takeover.AcceptTakeover)


class NEBoard(Board):
    """The 1833NE board: P4/P6 let their owner build and run from an off-board "as if it had
    a marker there", so those off-boards start the owner's track network too."""

    def connectivity(self, sym: str) -> tuple[dict[str, set[int]], set[tuple[str, int]]]:
        game = self.game
        extra = game.virtual_stations(sym) if isinstance(game, G1833NE) else []
        if not extra:
            return super().connectivity(sym)
        key = ("conn", sym)
        if key in self._cache:
            return self._cache[key]
        starts = [(h.id, ci) for h in self.hexes.values() for ci, slots in h.tokens.items() if sym in slots]
        starts += extra
        hex_edges: dict[str, set[int]] = {}
        for hid, _ in starts:
            hex_edges.setdefault(hid, set()).update(self.hexes[hid].neighbors.keys())
        nodes = self._walk(starts, sym, hex_edges)
        self._cache[key] = (hex_edges, nodes)
        return hex_edges, nodes


class G1833NE(G1856):
    MAX_TURN = None  # no turn limit: a game nobody can move in ends as "stalled"
    DISCARD_POOL_ONE_PER_TYPE = False
    AUCTION_PRIORITY_FROM_TURN = False
    TITLE = "1833NE"
    SELL_AFTER = "any"  # checked in can_sell_hook: before it operated only its president sells
    SELL_BUY_ORDER = "sell_buy"
    SELL_MOVEMENT = "left_block_pres"
    MUST_SELL_IN_BLOCKS = True
    HOLDING_LIMIT = 60
    MARKET_SHARE_LIMIT = 50
    CAPITALIZATION = "incremental"
    FLOAT_PERCENT = 20
    REORDER_AFTER_EMERGENCY_SALE = False
    HAS_LOANS = False  # the 1846 finance system: shares are issued instead
    IPO_NAME = g1833ne_data.IPO_NAME  # shares not yet sold lie in the corporation's treasury

    def __init__(self, data: Any, players: Iterable[tuple[str, str]], optional_rules: Iterable[str] = (),
                 seed: int | None = None):
        Game.__init__(self, runtime_data(data), players, optional_rules, seed)

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
            c["tokens"] = list(c.get("tokens", [0, 80]))[:self.data.STATIONS_PER_CORPORATION]
        return corps

    def game_trains(self) -> list[dict[str, Any]]:
        trains = [dict(t) for t in self.data.TRAINS]
        if "takeover_game" in self.optional_rules:
            for t in trains:
                t["num"] = self.data.NUM_TRAINS_TAKEOVER.get(t["name"], t["num"])
        return trains

    def setup(self) -> None:
        d = self.data
        # attributes the inherited 1856 helpers read
        self.national_sym = None
        self.post_nationalization = False
        self.used_abilities: set[tuple[str, str]] = set()
        self.pending_tokens: list[tuple[str, str, str]] = []
        self.port_assignment: dict[str, str] = {}
        self.rights: dict[str, set[str]] = {}
        self.right_markers: dict[str, int] = {}
        self.cash_crisis_player: str | None = None
        self.false_national_president: str | None = None
        self.national_formed = False
        self.loan_value = 0
        self.right_cost = d.FERRY_PRICE
        # what no source gives (bonuses, ferries, the bank's reserve): the game's own table
        self.provisional = P.table_from_options(self.optional_rules, d)
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
        specs = {t["name"]: t for t in self.game_trains()}
        for t in self.trains.values():
            card = t.id.rsplit("-", 1)[0]
            self.card_of[t.id] = card
            self.sides[t.id] = card_sides(specs[card])
            t.distance = self.sides[t.id][0].max_stops
            t.price = min(s.price for s in self.sides[t.id])
            t.rusts_on = None
            t.events = [e for e in t.events]
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

    # ------------------------------------------------------------------ helpers
    def owns_company(self, corp: Corporation, sym: str) -> bool:
        c = self.companies.get(sym)
        return bool(c and not c.closed and c.owner == corp.sym)

    def company_ability_live(self, sym: str) -> bool:
        return not self.companies[sym].closed

    def virtual_stations(self, sym: str) -> list[tuple[str, int]]:
        corp = self.corporations.get(sym)
        if corp is None or corp.closed:
            return []
        out = []
        for hid in R.virtual_station_hexes(self, corp):
            h = self.board.hexes[hid]
            out += [(hid, n.index) for n in h.tile.offboards]
        return out

    def phase_index_of(self, name: str) -> int:
        return [p["name"] for p in self.phases].index(name)

    # ------------------------------------------------------------------ certificate limit
    def corporations_in_play(self) -> int:
        return sum(1 for c in self.corporations.values() if not c.closed)

    def cert_limit(self) -> int:
        table = self.data.CERT_LIMIT[len(self.players)]
        n = max(min(self.corporations_in_play(), max(table)), min(table))
        return table[n]

    # ------------------------------------------------------------------ stock round
    def initial_round(self) -> Any:
        from .steps import NEAuctionRound

        return NEAuctionRound(self)

    def new_stock_round(self) -> Any:
        from .steps import NEStockRound

        return NEStockRound(self)

    def can_par(self, pid: str, corp: Corporation) -> bool:
        if corp.ipoed or corp.closed:
            return False
        if corp.home is None:  # a takeover-game corporation: from phase II, where a city is free
            return self.phase_index >= self.phase_index_of(self.data.TAKEOVER_START_PHASE) and \
                bool(self.variable_homes(corp))
        return True

    def par_prices(self, corp: Corporation) -> list[Cell]:
        """Start prices allowed for ``corp``: a takeover corporation whose only homes cost
        $120 must start at $60 or more."""
        cells = list(self.market.par_prices)
        if corp.home is None and not any(h[2] < self.data.TAKEOVER_HOME_TOKEN_PRICE["other"]
                                         for h in self.variable_homes(corp)):
            cells = [c for c in cells if c.price >= self.data.TAKEOVER_MIN_PAR_WITH_120_TOKEN]
        return cells

    def capitalization_type(self, corp: Corporation) -> str:
        return "incremental"  # always (the 1846 finance system); no escrow, no full capitalization

    def par_corporation(self, corp: Corporation, cell: Cell, pid: str) -> None:
        super().par_corporation(corp, cell, pid)
        corp.started = True

    def transfer_share_from_ipo(self, pid: str, share: Share, par_price: int) -> None:
        """Incremental capitalization: every treasury share pays the current price (the
        president's 20% twice the start price) to the corporation."""
        corp = self.corporations[share.corporation]
        assert corp.price is not None
        price = corp.price.price * share.percent // 10
        self.spend(pid, corp.sym, price)
        self.move_share(share, pid)
        self.log.append(f"{self.name_of(pid)} buys {share.percent}% of {corp.sym} from the treasury "
                        f"for {self.fmt(price)}")

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

    def can_buy_share_hook(self, pid: str, share: Any) -> str | None:
        return None

    def can_sell_hook(self, rnd: Any, pid: str, sym: str, percent: int) -> str | None:
        corp = self.corporations[sym]
        if not corp.operated and corp.president != pid:
            return f"before {sym} has operated only its president may sell"
        return None

    def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int:
        sym = shares[0].corporation
        self._seller_was_president = self.corporations[sym].president == pid
        return super().sell_shares(pid, shares, percent)

    def price_drop_on_sale(self, corp: Corporation, percent: int) -> None:
        # summary: only the president's sales move the price, one column however many
        if percent and getattr(self, "_seller_was_president", False):
            self.move_price(corp, "left")

    def finish_stock_round(self) -> None:
        """Summary: at the end of the stock round corporations with shares in the market
        fall one column; those 100% in players' hands rise one."""
        for corp in sorted((c for c in self.corporations.values() if c.ipoed and not c.closed),
                           key=self.operating_sort_key):
            if self.percent_of(POOL, corp.sym) > 0:
                self.move_price(corp, "left")
            elif self.player_percent(corp.sym) >= 100:
                self.move_price(corp, "right")
        self._or_set_size = self.phase["operating_rounds"]

    def move_price(self, corp: Corporation, direction: str) -> None:
        step = {"right": 1, "up": 1, "left": -1, "down": -1}[direction]
        self.shift_price(corp, step)

    def shift_price(self, corp: Corporation, columns: int) -> None:
        cell = corp.price
        if cell is None or columns == 0 or corp.closed:
            return
        target = M.shifted(self.market, cell, columns)
        corp.price = self.market.move(corp.sym, cell, target)
        if "close" in target.types:
            self.close_corporation(corp)

    # ------------------------------------------------------------------ operating order
    def floatable(self, corp: Corporation) -> bool:
        return corp.ipoed

    def floated(self, corp: Corporation) -> bool:
        return corp.ipoed and not corp.closed

    def operating_order(self) -> list[Corporation]:
        corps = [c for c in self.corporations.values() if c.ipoed and not c.closed]
        if self.turn == 1 and self.round_num == 1 and not isinstance(self.round, OperatingRound):
            # summary: the first OR of the game runs in reverse (ascending) price order
            return sorted(corps, key=lambda c: (c.price.price if c.price else 0,
                                                c.price.corporations.index(c.sym) if c.price else 0))
        return sorted(corps, key=self.operating_sort_key)

    def new_operating_round(self, num: int) -> OperatingRound:
        from .steps import operating_steps

        return OperatingRound(self, num, operating_steps())

    def on_operating_round_start(self, rnd: OperatingRound) -> None:
        pass

    def payout_companies(self) -> None:
        for c in self.companies.values():
            if c.closed or c.owner is None or c.sym in self.flipped:
                continue  # flipped privates (phase III) earn nothing
            self.bank_pays(c.owner, c.revenue)

    def start_operating(self, rnd: OperatingRound, corp: Corporation) -> bool:
        corp.operated = True
        corp.started = True
        for tid in corp.trains:
            self.trains[tid].operated = False
        if corp.president is None:
            from .steps import operate_in_receivership

            operate_in_receivership(self, rnd, corp)
            return False
        self.log.append(f"{self.name_of(corp.president or '')} operates {corp.sym}")
        return True

    def end_of_turn(self, rnd: OperatingRound, corp: Corporation) -> None:
        pass

    def after_step_action(self, rnd: OperatingRound, action: A.Action) -> None:
        self.check_end_triggers()

    def after_action(self, action: A.Action) -> None:
        self.check_end_triggers()

    def check_bank(self) -> None:
        self.check_end_triggers()

    def check_end_triggers(self) -> None:
        """Summary "Spielende": the bank running out ends the game after the current sequence
        (stock round and its operating rounds).  18xx.games' GAME_END_CHECK adds: the last
        train sold (one more full set of operating rounds) and every corporation and private
        closed (at once).  All players but one bankrupt ends it at once (bankrupt_player)."""
        if self.finished:
            return
        if self.bank <= self.bank_reserve:
            self.bank_broken()
        if all(c.closed for c in self.corporations.values()) and all(c.closed for c in self.companies.values()):
            self.log.append("-- Every corporation and private company has closed: the game ends --")
            self.end_game("all_closed")

    def bank_broken(self) -> None:
        self.trigger_end("bank", self.turn, "-- The bank is empty: the $1,000 notes set aside are added; the game "
                                            "ends after this set of operating rounds --")

    def trigger_end(self, reason: str, after_turn: int, message: str) -> None:
        """The game ends after the last operating round of set ``after_turn``; the earliest
        trigger wins (18xx.games keeps the earliest timing)."""
        if self.end_after_turn is not None and self.end_after_turn <= after_turn:
            return
        self.end_after_turn = after_turn
        self.game_end_triggered = reason
        self.log.append(message)

    END_TEXTS = {
        "bank": "the bank ran out of money and the set of operating rounds was played to its end",
        "final_train": "the last train was sold and one more set of operating rounds was played",
        "all_closed": "every corporation and private company had closed",
        "bankrupt": "all players but one went bankrupt",
        "manually_ended": "the host ended it",
        "stalled": "nobody could act any more (no corporation left and no money to start one)",
    }

    @property
    def end_reason_text(self) -> str | None:
        """Why the game ended, in words (the end-of-game summary shows it)."""
        return self.END_TEXTS.get(self.end_reason or "", self.end_reason)

    def next_round(self) -> None:
        from ...rounds import AuctionRound, StockRound
        from .takeover import TakeoverRound

        r = self.round
        if isinstance(r, (AuctionRound, StockRound)) and r.last_to_act is not None:
            ids = [p.id for p in self.players]
            self.priority = (ids.index(r.last_to_act) + 1) % len(ids)
            while self.players[self.priority].bankrupt:
                self.priority = (self.priority + 1) % len(ids)
        if isinstance(r, AuctionRound):
            self.round = self.new_stock_round()
        elif isinstance(r, StockRound):
            self.finish_stock_round()
            self.round_num = 1
            self.round = self.new_operating_round(1)
        elif isinstance(r, TakeoverRound):
            self.turn += 1
            self.round_num = 1
            self.round = self.new_stock_round()
        else:
            if self.check_game_end("operating"):
                return
            if self.round_num < self.operating_rounds_in_set:
                self.round_num += 1
                self.round = self.new_operating_round(self.round_num)
            elif self.takeover_game and self.phase_index >= self.phase_index_of("II"):
                self.round = TakeoverRound(self)
            else:
                self.turn += 1
                self.round_num = 1
                self.round = self.new_stock_round()
        self.round.start()

    # ------------------------------------------------------------------ phases & events
    def on_train_bought_from_depot(self, train: Train) -> None:
        card = self.card_of[train.id]
        for i, ph in enumerate(self.phases):
            if i > self.phase_index and ph.get("on") == card:
                self.change_phase(i)
                break
        train.events = []
        if not any(t.owner == "depot" for t in self.trains.values()):
            # 18xx.games GAME_END_CHECK final_train: one_more_full_or_set
            self.trigger_end("final_train", self.turn + 1, "-- The last train is sold: the game ends after the "
                                                           "next complete set of operating rounds --")

    def change_phase(self, index: int) -> None:
        self.phase_index = index
        name = self.phase["name"]
        self.log.append(f"-- Phase {name} --")
        life = self.data.TRAIN_CARD_LIFE
        for t in self.trains.values():
            obsolete_in, removed_in = life[self.card_of[t.id]]
            if t.owner in self.corporations or t.owner == "discard":
                if removed_in == name:
                    self.scrap_train(t)
                elif obsolete_in == name:
                    if t.owner == "discard":
                        self.scrap_train(t)
                    else:
                        self.obsolete.add(t.id)
        if name == "III":
            self.phase_three_privates()
        if name == "IV":
            self.phase_four()

    def scrap_train(self, t: Train) -> None:
        self.obsolete.discard(t.id)
        self.remove_train(t, "rusted")

    def phase_three_privates(self) -> None:
        """Summary, phase III: privates in players' hands and P1-P2 are removed; P3-P6 are
        flipped (no more revenue, ability kept)."""
        for c in self.companies.values():
            if c.closed:
                continue
            if c.owner in self.player_by_id or c.sym in ("P1", "P2"):
                self.close_company(c)
                self.removed_companies.add(c.sym)
            else:
                self.flipped.add(c.sym)
        self.log.append("-- Phase III: privates in players' hands and P1-P2 are removed; P3-P6 flip --")

    def phase_four(self) -> None:
        """Summary, phase IV: P3-P5 and all ferries are removed; reservations end."""
        for sym in ("P3", "P4", "P5"):
            c = self.companies.get(sym)
            if c and not c.closed:
                self.close_company(c)
                self.removed_companies.add(sym)
        for hid in self.ferries:
            self.ferries[hid] = None
        self.ferries_removed = True
        for sym in list(self.special_reservations):
            self.special_reservations.pop(sym)
            self._drop_reservation(sym)
        self.log.append("-- Phase IV: P3-P5 and the ferries are removed; reservations end --")

    def _drop_reservation(self, sym: str) -> None:
        corp = self.corporations[sym]
        for h in self.board.hexes.values():
            if h.id == corp.home:
                continue
            for res in h.reservations.values():
                while sym in res:
                    res.remove(sym)
        self.board.changed()

    def close_company(self, company: Company) -> None:
        super().close_company(company)
        if company.sym == "P5":
            self.p5_ferry = None

    # ------------------------------------------------------------------ trains
    def train_side(self, train: Train) -> Side:
        return self.chosen.get(train.id) or self.sides[train.id][0]

    def corp_train_limit(self, corp: Corporation) -> int:
        limit = self.train_limit
        if self.takeover_game:
            limit = self.data.TAKEOVER_TRAIN_LIMITS[self.phase["name"]]
            limit += self.takeovers.get(corp.sym, 0) * self.data.TAKEOVER_TRAIN_LIMIT_BONUS_PER_TAKEOVER
        # obsolete trains do not count toward the limit
        return limit + sum(1 for t in corp.trains if t in self.obsolete)

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.corp_train_limit(corp)

    def crowded_corps(self) -> list[Corporation]:
        return [c for c in self.corporations.values()
                if not c.closed and len(c.trains) > self.corp_train_limit(c)]

    def discard_train(self, train: Train) -> None:
        if train.id in self.obsolete:
            raise GameError("an obsolete train does not count toward the limit")
        self.remove_train(train, "discard")
        self.chosen.pop(train.id, None)
        self.log.append(f"{train.id} is discarded")

    def runnable_trains(self, corp: Corporation) -> list[Train]:
        return [self.trains[t] for t in corp.trains]

    def depot_trains(self) -> list[Train]:
        upcoming = [self.trains[t] for t in self.train_order if self.trains[t].owner == "depot"]
        out = upcoming[:1]
        out += [self.trains[t] for t in self.train_order if self.trains[t].owner == "discard"]
        return out

    def buyable_depot_trains(self, corp: Corporation) -> list[Train]:
        return self.depot_trains()

    def other_corp_trains(self, corp: Corporation) -> list[Train]:
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.corp is corp and rnd.state.get("emergency_issued"):
            return []  # having issued in an emergency, it buys from the bank
        # obsolete trains cannot be sold to another corporation
        return [self.trains[t] for c in self.corporations.values() if c is not corp and not c.closed
                and c.president is not None for t in c.trains if t not in self.obsolete]

    def exchange_options(self, corp: Corporation) -> list[tuple[Train, int]]:
        return []

    def side_prices(self, train: Train) -> list[int]:
        return sorted(s.price for s in self.sides[train.id])

    def min_train_price(self, corp: Corporation) -> int | None:
        prices = [self.side_prices(t)[0] for t in self.buyable_depot_trains(corp)]
        if self.other_corp_trains(corp):
            prices.append(1)
        return min(prices) if prices else None

    def can_buy_train(self, corp: Corporation) -> bool:
        price = self.min_train_price(corp)
        return price is not None and self.room(corp) and corp.cash >= price and corp.president is not None

    def must_buy_train(self, corp: Corporation) -> bool:
        # summary: a corporation without a train after running must buy one
        return not corp.trains and corp.president is not None and bool(self.depot_trains())

    def cheapest_depot_train(self, corp: Corporation | None = None) -> Train | None:
        trains = self.depot_trains()
        return min(trains, key=lambda t: self.side_prices(t)[0]) if trains else None

    def needs_emergency_money(self, corp: Corporation) -> bool:
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < self.side_prices(t)[0]

    def emergency_shortfall(self, corp: Corporation) -> int:
        t = self.cheapest_depot_train(corp)
        pres = self.player(corp.president) if corp.president else None
        return (self.side_prices(t)[0] if t else 0) - corp.cash - (pres.cash if pres else 0)

    def obsolete_trains(self) -> set[str]:
        return self.obsolete

    def destination_goals(self) -> dict[str, list[str]]:
        return {}  # no destinations (overrides G1856's)

    def train_variants(self, train: Train) -> list[tuple[str, int]]:
        """(side, price) a buyer may choose for ``train``: both sides of a card from the bank;
        none for a corporation's train (it keeps its side)."""
        if train.owner not in ("depot", "discard"):
            return []
        return [(s.name, s.price) for s in self.sides[train.id]]

    def side_for(self, train: Train, action: A.BuyTrain) -> Side:
        sides = self.sides[train.id]
        if train.owner in self.corporations:
            return self.train_side(train)
        if action.variant:
            side = next((s for s in sides if s.name == action.variant), None)
            if side is None:
                raise GameError(f"{train.id} has no side {action.variant}; choose "
                                f"{' or '.join(s.name for s in sides)}")
            return side
        by_price = [s for s in sides if s.price == action.price]
        return by_price[0] if by_price else sides[0]

    def buy_train(self, rnd: OperatingRound, corp: Corporation, action: A.BuyTrain) -> None:
        train = self.train(action.train)
        if train.owner == corp.sym:
            raise GameError(f"{corp.sym} already owns {train.id}")
        emergency = self.must_buy_train(corp) and self.needs_emergency_money(corp)
        issued = bool(rnd.state.get("emergency_issued"))
        if train.owner in ("depot", "discard"):
            if train not in self.depot_trains():
                raise GameError(f"Train {train.id} is not available yet")
            side = self.side_for(train, action)
            if not self.room(corp):
                raise GameError(f"{corp.sym} is at its train limit")
            if action.price != side.price:
                raise GameError(f"A {side.name} train costs {self.fmt(side.price)}")
            if side.price > corp.cash and self.emergency_issue_bundles(rnd, corp):
                raise GameError(f"{corp.sym} must first issue shares (/issue) before its president pays")
            floor = self.emergency_side_floor(rnd, corp, train)
            if side.price < floor:
                raise GameError(f"{corp.sym} issued shares for a train: it must buy one that needed the last "
                                f"share issued (at least {self.fmt(floor)})")
            if side.price > corp.cash:
                if not emergency:
                    raise GameError(f"{corp.sym} cannot afford a {side.name} train ({self.fmt(side.price)})")
                pres = corp.president
                assert pres is not None
                shortfall = side.price - corp.cash
                if self.player(pres).cash < shortfall:
                    raise GameError(f"{self.name_of(pres)} cannot cover the {self.fmt(shortfall)} shortfall")
                self.spend(pres, corp.sym, shortfall)
                self.log.append(f"{self.name_of(pres)} contributes {self.fmt(shortfall)}")
            from_depot = train.owner == "depot"
            self.spend(corp.sym, "bank", side.price)
            self.give_train(train, corp.sym)
            self.chosen[train.id] = side
            train.name = side.name
            train.price = side.price
            train.distance = side.max_stops
            self.log.append(f"{corp.sym} buys a {side.name} train for {self.fmt(side.price)}")
            if from_depot:
                self.on_train_bought_from_depot(train)
        elif train.owner in self.corporations:
            if emergency or issued:
                raise GameError("in an emergency the train must come from the bank")
            if train.id in self.obsolete:
                raise GameError("an obsolete train cannot be sold to another corporation")
            self.buy_train_from_corporation(corp, train, action.price)
        else:
            raise GameError(f"Train {train.id} is not for sale")

    def after_buy_train_step(self, rnd: OperatingRound, corp: Corporation) -> None:
        pass

    def scrap_obsolete(self, corp: Corporation) -> None:
        """Summary: an obsolete train is removed right after its owner next runs."""
        for tid in list(corp.trains):
            if tid in self.obsolete:
                self.scrap_train(self.trains[tid])
                self.log.append(f"{corp.sym}'s obsolete {self.trains[tid].name} train is removed")

    # ------------------------------------------------------------------ emergency money
    def emergency_issue_bundles(self, rnd: OperatingRound, corp: Corporation) -> list[tuple[int, int]]:
        """(shares, money) the president may choose to issue for a trainless corporation
        (summary "Notverkauf": the price falls one column per share, each share brings the
        price one column left of the new price, never below $20).  As 18xx.games
        (``emergency_issuable_bundles``): offered while the treasury is below the dearer side
        of the cheapest card, once per turn; the bundles that reach the cheaper side, up to
        the first that reaches the dearer one; when none reaches the cheaper side, only the
        largest ("bis zum üblichen Limit")."""
        if not self.must_buy_train(corp) or rnd.state.get("emergency_issued"):
            return []
        t = self.cheapest_depot_train(corp)
        if t is None:
            return []
        low, high = self.side_prices(t)[0], self.side_prices(t)[-1]
        if corp.cash >= high:
            return []
        bundles = sorted(self.emergency_issue_options(corp), key=lambda b: (b[1], b[0]))
        reaching = [b for b in bundles if corp.cash + b[1] >= low]
        if not reaching:
            return [max(bundles)] if bundles else []
        upto = next((i for i, b in enumerate(reaching) if corp.cash + b[1] >= high), len(reaching) - 1)
        return reaching[:upto + 1]

    def must_issue_first(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """A trainless corporation that cannot pay the cheaper side must issue before its
        president pays anything (summary: treasury, then shares, then the president)."""
        t = self.cheapest_depot_train(corp)
        return t is not None and corp.cash < self.side_prices(t)[0] and bool(self.emergency_issue_bundles(rnd, corp))

    def issue_in_emergency(self, rnd: OperatingRound, corp: Corporation, num: int) -> None:
        bundles = self.emergency_issue_bundles(rnd, corp)
        offered = [n for n, _ in bundles]
        if num not in offered:
            what = ", ".join(f"{n} for {self.fmt(m)}" for n, m in bundles) or "none"
            raise GameError(f"{corp.sym} cannot issue {num} share(s) in an emergency now (may: {what})")
        cash_before = corp.cash
        self.emergency_issue(corp, num)
        rnd.state["emergency_issued"] = True
        # 18xx.games: having issued, the train bought must need the last share issued
        i = offered.index(num)
        last_share = bundles[i][1] - (bundles[i - 1][1] if i else 0)
        rnd.state["emergency_min_side"] = max(cash_before, corp.cash - last_share) + 1

    def emergency_side_floor(self, rnd: OperatingRound, corp: Corporation, train: Train) -> int:
        """After an emergency issue the side bought must cost more than the treasury held
        without the last share issued, when it can pay either side (18xx.games
        ``buyable_train_variants``); 0 when any side may be bought."""
        floor = rnd.state.get("emergency_min_side", 0) if rnd.state.get("emergency_issued") else 0
        if not floor:
            return 0
        budget = corp.cash
        if self.must_buy_train(corp) and self.needs_emergency_money(corp) and corp.president:
            budget += self.player(corp.president).cash
        return floor if budget >= self.side_prices(train)[-1] else 0

    def side_floor(self, corp: Corporation, train: Train) -> int:
        """The least a side of ``train`` may cost for ``corp`` now (after an emergency issue)."""
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.corp is corp:
            return self.emergency_side_floor(rnd, corp, train)
        return 0

    def issue_choices(self, corp: Corporation) -> list[tuple[list[str], str]]:
        """(share ids, label) the corporation may issue now: an emergency bundle at its train
        step, else a normal issue before its dividend.  Labels start with the percent."""
        rnd = self.round
        if not isinstance(rnd, OperatingRound) or rnd.corp is not corp:
            return []
        emergency = rnd.state.get("dividend_done")
        options = self.emergency_issue_bundles(rnd, corp) if emergency else \
            (self.issue_options(corp) if not rnd.state.get("issued_or_redeemed") else [])
        treasury = [s.id for s in self.ipo_shares(corp.sym) if not s.president]
        kind = " in an emergency" if emergency else ""
        return [(treasury[:n], f"{10 * n}% of {corp.sym} issued{kind} for {self.fmt(money)}") for n, money in options]

    def issuable_count(self, corp: Corporation) -> int:
        """Summary: as many shares as players hold, less those already in the market."""
        players = self.player_percent(corp.sym) // 10
        market = self.percent_of(POOL, corp.sym) // 10
        treasury = len([s for s in self.ipo_shares(corp.sym) if not s.president])
        room = (self.MARKET_SHARE_LIMIT - self.percent_of(POOL, corp.sym)) // 10
        return max(0, min(players - market, treasury, room))

    def emergency_issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        assert corp.price is not None
        out = []
        for n in range(1, self.issuable_count(corp) + 1):
            new, each = M.emergency_issue(self.market, corp.price, n)
            if new.price < M.MIN_EMERGENCY_PRICE or each <= 0:
                break
            out.append((n, n * each))
        return out

    def emergency_issue(self, corp: Corporation, num: int) -> None:
        assert corp.price is not None
        new, each = M.emergency_issue(self.market, corp.price, num)
        shares = [s for s in self.ipo_shares(corp.sym) if not s.president][:num]
        for s in shares:
            self.move_share(s, POOL)
        self.bank_pays(corp.sym, each * num)
        corp.price = self.market.move(corp.sym, corp.price, new)
        self.log.append(f"{corp.sym} issues {num} share(s) in an emergency for {self.fmt(each * num)}; "
                        f"its price falls to {self.fmt(new.price)}")

    def _emergency_sale_ok(self, pid: str, corp: Corporation, sym: str, pct: int, need: int) -> bool:
        c = self.corporations[sym]
        if c.price is None or c.closed:
            return False
        if not c.operated and c.president != pid:
            return False
        if not super()._emergency_sale_ok(pid, corp, sym, pct, need):
            return False
        # no sale that would close the operating corporation
        return not (sym == corp.sym and c.president == pid and M.shifted(self.market, c.price, -1).price == 0)

    def _max_sellable(self, pid: str, corp: Corporation) -> list[tuple[str, int]]:
        need = 10 ** 9
        best: dict[str, int] = {}
        for sym, pct in self.emergency_sellable_unbounded(pid, corp, need):
            best[sym] = max(best.get(sym, 0), pct)
        return list(best.items())

    def emergency_sellable_unbounded(self, pid: str, corp: Corporation, need: int) -> list[tuple[str, int]]:
        out = []
        for sym in sorted({s.corporation for s in self.shares_of(pid)}):
            held = self.percent_of(pid, sym)
            for pct in range(10, held + 1, 10):
                if self._emergency_sale_ok(pid, corp, sym, pct, need):
                    out.append((sym, pct))
        return out

    def declare_bankrupt(self, rnd: OperatingRound, corp: Corporation) -> None:
        """Summary: the bankrupt player leaves the game, which goes on.  The money raised goes
        to the corporation; the player's shares go to the market without moving prices (even
        past 50% or with a president's certificate); a new president must buy the train."""
        from .steps import bankrupt_player

        if not self.can_go_bankrupt(corp):
            raise GameError(f"{self.name_of(corp.president or '')} can still raise the money for a train")
        bankrupt_player(self, corp.president or "", corp)
        rnd.recalculate_order()

    # ------------------------------------------------------------------ track
    def tile_lays_per_turn(self, corp: Corporation) -> int:
        if corp.sym == "B&L" and self.bl_restricted() and self.phase["name"] == "I":
            return 0  # P2: no B&L track in phase I until a corporation buys Lowell Merchants
        return 2

    def bl_restricted(self) -> bool:
        """Summary, P2: "Solange keine Gesellschaft sie gekauft hat, kann die Boston & Lowell in
        Phase I keine Gleise legen und weder in Phase I noch später Strecken fahren, solange
        Boston nicht aufgewertet ist" - so the route restriction outlives P2 (removed in phase
        III) when no corporation ever bought it."""
        return self.p2_bought_key is None

    def check_lay_tile(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int, *,
                       free: bool = False, connected: bool = True) -> tuple[Tile, int]:
        self._free_lay = free
        try:
            tile, _ = super().check_lay_tile(corp, hex_id, tile_id, rotation, free=free, connected=connected)
        finally:
            self._free_lay = False
        h = self.board.hex(hex_id)
        return tile, (0 if free else self.tile_cost(corp, h, h.tile, tile))

    def check_lay_static(self, corp: Corporation, hex_id: str, tile_id: str, *, free: bool = False) -> Tile:
        free = free or getattr(self, "_free_lay", False)
        tile = super().check_lay_static(corp, hex_id, tile_id, free=True)
        h = self.board.hex(hex_id)
        rnd = self.round
        if isinstance(rnd, OperatingRound) and h.id in rnd.state.get("laid_hexes", ()):
            raise GameError(f"{corp.sym} cannot lay on {h.id} twice in one turn")
        if self.is_upgrade(h) and isinstance(rnd, OperatingRound) and rnd.state.get("upgraded") and not free:
            raise GameError(f"{corp.sym} has already upgraded a tile this turn; the second lay must be yellow")
        if not free and self.base_tile_cost(corp, h) > corp.cash:
            raise GameError(f"{corp.sym} cannot lay a tile on {h.id}: it costs at least "
                            f"{self.fmt(self.base_tile_cost(corp, h))}")
        return tile

    def check_lay_rotation(self, corp: Corporation, hex_id: str, tile: Tile, *, connected: bool = True) -> None:
        super().check_lay_rotation(corp, hex_id, tile, connected=connected)
        if getattr(self, "_free_lay", False):
            return
        h = self.board.hexes[hex_id]
        cost = self.tile_cost(corp, h, h.tile, tile)
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot lay tile {tile.name} on {h.id} with rotation {tile.rotation}: "
                            f"with the borders it crosses it costs {self.fmt(cost)}")

    @staticmethod
    def is_upgrade(h: Any) -> bool:
        return bool(h.tile.paths) or h.tile.color != "white"

    def base_tile_cost(self, corp: Corporation, h: Any) -> int:
        if h.id == "G20" and self.owns_company(corp, "P2") and self.p2_bought_key == self.round_key() \
                and not h.laid:
            return 0  # P2: free tile in Lowell in the round it was bought
        return max(self.data.TILE_COST, self.board.terrain_cost(h))

    def tile_cost(self, corp: Corporation, h: Any, old: Tile, new: Tile) -> int:
        """Every lay or upgrade costs at least $20 (18xx.games: max(TILE_COST, terrain)), plus
        the bridges/tunnels/passes (costed borders) the new track completes."""
        cost = self.base_tile_cost(corp, h)
        if cost == 0:
            return 0
        return cost + sum(c for _, c in self.completed_borders(h, old, new))

    def completed_borders(self, h: Any, old: Tile, new: Tile) -> list[tuple[tuple[str, int], int]]:
        out = []
        for edge in new.exits - old.exits:
            other = h.neighbors.get(edge)
            if other is None:
                continue
            back = (edge + 3) % 6
            key = min((h.id, edge), (other, back))
            if key in self.paid_borders:
                continue
            oh = self.board.hexes[other]
            cost = next((b.cost for b in h.printed.borders if b.edge == edge and b.cost), 0) or \
                next((b.cost for b in oh.printed.borders if b.edge == back and b.cost), 0)
            if cost and back in oh.tile.exits:
                out.append((key, cost))
        return out

    def lay_tile(self, corp: Corporation, action: A.LayTile, *, company: Company | None = None,
                 free: bool = False, connected: bool = True) -> None:
        h = self.board.hex(action.hex)
        upgrade = self.is_upgrade(h)
        old = h.tile
        tile, cost = self.check_lay_tile(corp, action.hex, action.tile, action.rotation, free=free,
                                         connected=connected)
        borders = [] if free else self.completed_borders(h, old, tile)
        super().lay_tile(corp, action, company=company, free=True, connected=connected)
        if cost:
            self.spend(corp.sym, "bank", cost)
            self.log.append(f"{corp.sym} pays {self.fmt(cost)} for the tile on {h.id}")
        for key, _ in borders:
            self.paid_borders.add(key)
        if isinstance(self.round, OperatingRound):
            self.round.state.setdefault("laid_hexes", []).append(h.id)
            if upgrade and company is None:
                self.round.state["upgraded"] = True
        self.after_tile_laid(h)

    def after_tile_laid(self, h: Any) -> None:
        # summary: A&StL and StL&A share a marker placed free in Sherbrooke with its yellow tile
        d = self.data
        if h.id == d.SHARED_TOKEN["hex"] and not self.sherbrooke_token_done and h.tile.cities:
            ci = h.tile.cities[0].index
            h.tokens[ci] = [s for s in h.tokens.get(ci, []) if s is not None] + list(d.SHARED_TOKEN["corporations"])
            self.sherbrooke_token_done = True
            self.board.changed()
            self.log.append("A&StL and StL&A place their shared marker in Sherbrooke")
        # summary: B&P has a reserved place in Boston once the green tile is there (until IV)
        if h.id == "G22" and h.tile.color == "green" and "B&P" not in self.special_reservations \
                and self.phase_index < self.phase_index_of("IV"):
            corp = self.corporations["B&P"]
            if not h.tokened_by("B&P") and not corp.closed:
                for c in h.tile.cities:
                    if self.board.free_slots(h, c.index, "B&P") > 0:
                        h.reservations.setdefault(c.index, []).append("B&P")
                        self.special_reservations["B&P"] = "G22"
                        break

    # ------------------------------------------------------------------ tokens
    def token_cost_at(self, corp: Corporation, hid: str) -> int | None:
        tok = corp.next_token()
        if tok is None:
            return None
        if corp.sym == "BW" and hid == "E22":
            return 40  # summary: B&W's marker in Worcester always costs $40
        return tok.price

    def can_place_token(self, corp: Corporation) -> bool:
        if corp.next_token() is None:
            return False
        return any((self.token_cost_at(corp, hid) or 0) <= corp.cash for hid, _ in self.tokenable_cities(corp))

    def place_token(self, corp: Corporation, action: A.PlaceToken) -> None:
        hid, city = self.parse_city(action.city)
        if (hid, city) not in self.tokenable_cities(corp):
            raise GameError(f"{corp.sym} cannot place a token on {hid}: not reachable or no free space")
        cost = self.token_cost_at(corp, hid)
        if cost is None:
            raise GameError(f"{corp.sym} has no station left")
        if cost > corp.cash:
            raise GameError(f"{corp.sym} cannot afford a station ({self.fmt(cost)})")
        self.board.place_token(hid, city, corp.sym, action.slot)
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        self.spend(corp.sym, "bank", cost)
        if self.special_reservations.get(corp.sym) == hid:
            self.special_reservations.pop(corp.sym)
        self.log.append(f"{corp.sym} places a station on {hid} for {self.fmt(cost)}")

    def place_home(self, corp: Corporation, hid: str | None = None, city: int | None = None) -> None:
        """Home stations are placed when the corporation starts (HOME_TOKEN_TIMING float)."""
        hid = hid or corp.home
        if not hid or not corp.tokens or corp.tokens[0].used:
            return
        h = self.board.hex(hid)
        if city is None:
            cities = h.tile.cities
            reserved = [ci for ci, res in h.reservations.items() if corp.sym in res]
            if reserved:
                city = reserved[0]  # the reservation follows its city through upgrades
            elif corp.home_city is not None and corp.home_city < len(cities):
                city = cities[corp.home_city].index
            else:
                city = next((c.index for c in cities if self.board.free_slots(h, c.index, corp.sym) > 0),
                            cities[0].index)
        self.board.place_token(hid, city, corp.sym)
        tok = corp.tokens[0]
        tok.used, tok.hex, tok.city = True, hid, city

    # ------------------------------------------------------------------ routes
    def can_run_routes(self, corp: Corporation) -> bool:
        if not corp.trains:
            return False
        if corp.sym == "B&L" and self.bl_restricted() and self.board.hexes["G22"].tile.color == "yellow":
            return False  # P2: no B&L routes while Boston is not upgraded, unless a corporation bought P2
        return True

    def run_routes(self, corp: Corporation, action: A.RunRoutes) -> list[dict[str, Any]]:
        return R.check_routes(self, corp, list(action.route_dicts()))

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        return R.route_revenue(self, corp, None, stops)

    def route_revenue_for_train(self, corp: Corporation, stops: list[tuple[str, int]], train: Train) -> int:
        """What ``train`` (its side: plain, N/M or N+s) earns on a route with these stops;
        GameError when it cannot run it.  The shared router scores routes per train with it."""
        return R.route_revenue(self, corp, train, stops)

    def extension_gains(self, corp: Corporation, stops: list[tuple[str, int]]) -> dict[str, int]:
        """Hex -> what extending a route past these stops to it adds (cross-connection
        bonuses); the shared router extends routes with it (engine.router_extension)."""
        return R.extension_gains(self, corp, stops)

    def best_routes(self, corp_sym: str, time_budget: float = 0.5) -> list[dict[str, Any]]:
        """The best routes (the shared exact router, scoring each route per train side)."""
        return self.best_route_solution(corp_sym, time_budget).routes

    def best_route_solution(self, corp_sym: str, time_budget: float = 0.5) -> RouteSolution:
        return shared_best_routes(self, corp_sym, time_budget=time_budget)

    def route_graph(self, corp_sym: str) -> RouteGraph:
        """The shared graph with the P4/P6 off-boards counted as stations."""
        return R.station_graph(self, self.corp(corp_sym))

    def status_notes(self) -> list[str]:
        """Lines the status picture shows under the depot: the ferries while there are any,
        and when the bank counts as empty (both provisional unless the host set them)."""
        table = self.provisional
        bank = f"{P.bank_line(table)} ({P.source_of(table, 'notes')})"
        if self.ferries_removed:
            return [bank]
        parts = []
        for hid, owner in self.ferries.items():
            badge = self.ferry_badge(hid)
            who = owner if owner else f"for sale {self.fmt(self.data.FERRY_PRICE)}"
            parts.append(f"{P.place_name(hid, self.data)} {who}" + (f" ({badge})" if badge else ""))
        return [f"Ferries (ports {P.source_of(table, 'ports')}): " + "  ·  ".join(parts), bank]

    def ferry_badge(self, hid: str) -> str | None:
        """"New" is on the most recently bought ferry; once none is left for sale it carries
        "Last" instead (decision, notes: provisional values)."""
        if not self.ferry_order or self.ferry_order[-1] != hid or self.ferries.get(hid) is None:
            return None
        return "Last" if all(self.ferries.values()) else "New"

    def ferry_value(self, corp: Corporation, hid: str) -> int:
        table = self.provisional
        value = table.ferry_value
        badge = self.ferry_badge(hid)
        if badge:
            value += table.ferry_new if badge == "New" else table.ferry_last
        if self.p5_ferry == hid and self.owns_company(corp, "P5"):
            value *= 2  # P5 doubles one ferry including its "New" or "Last" bonus
        return value

    def provisional_rows(self) -> list[list[str]]:
        """The game's provisional values as rows [what, I, II, III, IV, V, source]."""
        return P.table_rows(self.provisional, self.data)

    def provisional_lines(self) -> list[str]:
        """The game's provisional values as message lines (``/game new``, ``/game rules``)."""
        return P.summary_lines(self.provisional, self.data, self.fmt)

    def provisional_open(self) -> bool:
        """The host may change the provisional values until the first operating round."""
        return self.turn == 1 and not isinstance(self.round, OperatingRound) and not self.finished

    # ------------------------------------------------------------------ dividends
    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        return sum(r["revenue"] for r in rnd.state.get("routes", [])) > 0

    def dividend_kinds(self, corp: Corporation) -> list[str]:
        return ["payout", "half", "withhold"]

    def pay_dividend(self, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        """Full, half or no payout; treasury shares earn for the corporation, market shares
        for nobody (decision).  The price moves by the payout per share against the price;
        withholding moves it one column left."""
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        assert corp.price is not None
        price = corp.price.price
        if kind == "withhold" or revenue <= 0:
            if revenue > 0:
                self.bank_pays(corp.sym, revenue)
                self.log.append(f"{corp.sym} withholds {self.fmt(revenue)}")
            else:
                self.log.append(f"{corp.sym} earns nothing")
            self.shift_price(corp, -1)
        else:
            paid = revenue if kind == "payout" else revenue // 2
            per_share = paid // 10
            kept = revenue - per_share * 10
            for p in self.players:
                n = self.percent_of(p.id, corp.sym) // 10
                if n:
                    self.bank_pays(p.id, per_share * n)
            treasury = self.percent_of(corp.sym, corp.sym) // 10
            self.bank_pays(corp.sym, per_share * treasury + kept)
            self.log.append(f"{corp.sym} pays {self.fmt(per_share)} per share"
                            + (f" and keeps {self.fmt(kept)}" if kept else ""))
            self.shift_price(corp, M.dividend_move(per_share, price))
        rnd.state["dividend_done"] = True

    def bank_pays(self, receiver: str, amount: int) -> None:
        self.spend("bank", receiver, amount, allow_negative=True)

    # ------------------------------------------------------------------ issue / redeem
    def issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        """(shares, money) the corporation may issue now (normal issue)."""
        if corp.price is None:
            return []
        each = M.issue_price(self.market, corp.price)
        if each <= 0:
            return []
        return [(n, n * each) for n in range(1, self.issuable_count(corp) + 1)]

    def redeem_options(self, corp: Corporation) -> list[tuple[int, int]]:
        if corp.price is None:
            return []
        each = M.redeem_price(self.market, corp.price)
        pool = self.percent_of(POOL, corp.sym) // 10
        return [(n, n * each) for n in range(1, pool + 1) if n * each <= corp.cash]

    def issue_shares(self, corp: Corporation, num: int) -> None:
        opts = dict(self.issue_options(corp))
        if num not in opts:
            raise GameError(f"{corp.sym} cannot issue {num} share(s) now")
        shares = [s for s in self.ipo_shares(corp.sym) if not s.president][:num]
        for s in shares:
            self.move_share(s, POOL)
        self.bank_pays(corp.sym, opts[num])
        self.log.append(f"{corp.sym} issues {num} share(s) for {self.fmt(opts[num])}")

    def redeem_shares(self, corp: Corporation, num: int) -> None:
        opts = dict(self.redeem_options(corp))
        if num not in opts:
            raise GameError(f"{corp.sym} cannot redeem {num} share(s) now")
        shares = self.pool_shares(corp.sym)[:num]
        for s in shares:
            self.move_share(s, corp.sym)
        self.spend(corp.sym, "bank", opts[num])
        if self.percent_of(POOL, corp.sym) <= self.MARKET_SHARE_LIMIT:
            self.pool_overflow.discard(corp.sym)
        self.log.append(f"{corp.sym} redeems {num} share(s) for {self.fmt(opts[num])}")

    # ------------------------------------------------------------------ privates & ferries
    def can_buy_companies(self, corp: Corporation) -> bool:
        if not self.phase_status("can_buy_companies") or corp.president is None:
            return False
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.state.get("emergency_issued") and \
                not any(t not in self.obsolete for t in corp.trains):
            return False  # 18xx.games (1846 BuyCompany): after an emergency issue only with a train
        return any(self.company_price_floor(c) <= corp.cash for c in self.purchasable_companies())

    def company_price_floor(self, c: Company) -> int:
        return self.company_min_price(c) + (self.data.P6_PURCHASE_SURCHARGE if c.sym == "P6" else 0)

    def company_min_price(self, c: Company) -> int:
        return 1

    def company_max_price(self, c: Company) -> int:
        if c.sym == "P6" and isinstance(self.round, OperatingRound):
            # the $40 surcharge comes on top: the price offered leaves room for it
            return max(1, min(c.value, self.round.corp.cash - self.data.P6_PURCHASE_SURCHARGE))
        return c.value

    def purchasable_companies(self) -> list[Company]:
        out = super().purchasable_companies()
        rnd = self.round
        if isinstance(rnd, OperatingRound):
            out = [c for c in out if self.company_price_floor(c) <= rnd.corp.cash]
        return out

    def company_surcharge(self, company: Company) -> int:
        return self.data.P6_PURCHASE_SURCHARGE if company.sym == "P6" else 0  # P6: $40 more to the bank

    def buy_company(self, corp: Corporation, action: A.BuyCompany) -> None:
        super().buy_company(corp, action)
        company = self.company(action.company)
        if company.sym == "P2":
            self.p2_bought_key = self.round_key()
        if company.sym == "P5" and self.p5_ferry is None:
            self.p5_ferry = next((h for h in self.ferry_order if self.ferries.get(h) == corp.sym), None)

    def has_any_time_ability(self, corp: Corporation) -> bool:
        return False

    def special_buys(self, corp: Corporation) -> list[str]:
        """Ferries for sale ($40 each) until phase IV."""
        if self.ferries_removed or corp.cash < self.data.FERRY_PRICE or corp.president is None:
            return []
        return [f"Ferry {hid}" for hid, owner in self.ferries.items() if owner is None]

    def special_buy(self, corp: Corporation, action: A.SpecialBuy) -> None:
        if action.description not in self.special_buys(corp):
            raise GameError(f"{corp.sym} cannot buy {action.description or 'that'} now")
        hid = action.description.split()[-1]
        self.spend(corp.sym, "bank", self.data.FERRY_PRICE)
        self.ferries[hid] = corp.sym
        self.ferry_order.append(hid)
        if self.p5_ferry is None and self.owns_company(corp, "P5"):
            self.p5_ferry = hid  # P5 doubles one ferry; it cannot be reassigned
        self.log.append(f"{corp.sym} buys the {P.place_name(hid, self.data)} ferry for "
                        f"{self.fmt(self.data.FERRY_PRICE)}")

    # ------------------------------------------------------------------ takeover game
    def variable_homes(self, corp: Corporation) -> list[tuple[str, int, int]]:
        from .takeover import variable_homes

        return variable_homes(self, corp)

    # ------------------------------------------------------------------ end & values
    def check_game_end(self, after: str) -> bool:
        self.check_end_triggers()  # money paid between actions (privates at the start of an OR)
        if self.finished:
            return True
        if after == "operating" and self.end_after_turn is not None and self.turn >= self.end_after_turn \
                and self.round_num >= self.operating_rounds_in_set and self.game_end_triggered:
            self.end_game(self.game_end_triggered)
            return True
        return False

    def player_value(self, player: Any) -> int:
        value = player.cash
        for s in self.shares.values():
            if s.owner == player.id:
                value += self.share_price_value(s)
        if self.phase_index < self.phase_index_of("III"):
            value += sum(self.companies[c].value for c in player.companies if not self.companies[c].closed)
        return int(value)

    def close_corporation(self, corp: Corporation) -> None:
        """A corporation at $0 closes: trains, stations, ferries and privates go; its shares
        are worthless (they return to it)."""
        self.log.append(f"{corp.sym} closes")
        corp.closed = True
        if corp.price and corp.sym in corp.price.corporations:
            corp.price.corporations.remove(corp.sym)
        for tid in list(corp.trains):
            self.scrap_train(self.trains[tid])
        for h in self.board.hexes.values():
            for slots in h.tokens.values():
                for i, s in enumerate(slots):
                    if s == corp.sym:
                        slots[i] = None
            for res in h.reservations.values():
                while corp.sym in res:
                    res.remove(corp.sym)
        self.board.changed()
        for s in self.corp_shares(corp.sym):
            self.move_share(s, corp.sym)
        for c in list(corp.companies):
            self.close_company(self.companies[c])
        for hid, owner in self.ferries.items():
            if owner == corp.sym:
                self.ferries[hid] = None
        self.special_reservations.pop(corp.sym, None)
        if corp.cash:
            self.spend(corp.sym, "bank", corp.cash)  # decision: a closed corporation's treasury returns to the bank
        corp.president = None
        self.pool_overflow.discard(corp.sym)
