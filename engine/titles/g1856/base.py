"""The 1856 family's game state: its constants and what set-up adds to a game (loans, the
national, destinations, rights, the port marker).

1856's rules build on it in layers, one module per mechanic: :mod:`.finance` (loans, interest,
cash crises), :mod:`.stock` (the stock round, the national's shares and presidency),
:mod:`.privates` (rights, the port, 1836Jr56's teleport), then :class:`.game.G1856` (rounds,
track and destinations, revenue, trains). Each layer derives from the one before.
"""

from __future__ import annotations

from typing import Any

from ...entities import Corporation
from ...errors import UNAVAILABLE, GameError
from ...game import Game
from . import data as g1856_data
from .loans import LoanBook


class G1856Base(Game):
    """1856 (and 1836Jr56): the constants and the state set-up adds."""

    MAX_TURN: int | None = 100
    DISCARD_POOL_ONE_PER_TYPE = True
    AUCTION_PRIORITY_FROM_TURN = True
    TITLE = "1856"
    SELL_AFTER = "first"
    SELL_MOVEMENT = "down_per_10"
    MUST_SELL_IN_BLOCKS = True  # 18xx.games (newest): one sale of a corporation per turn
    REORDER_AFTER_EMERGENCY_SALE = True  # a price drop can move a corporation in this OR's order
    TOKEN_VIEW_KEPT = True
    HAS_LOANS = True
    _selling = False  # a share sale is under way (a corporation it closes settles its interest first)
    deferred_closings: list[Corporation] | None = None  # reached the closing space, closed after the turn moved on
    deferring_only: str | None = None  # the one corporation whose closing is deferred (None: all)

    def __init__(self, data: Any = g1856_data, *args: Any, **kwargs: Any):
        super().__init__(data, *args, **kwargs)

    def destination_goals(self) -> dict[str, list[str]]:
        return {sym: list(goals) for sym, (_start, goals) in self.destinations.items()}

    def setup(self) -> None:
        d, r = self.data, self.rules
        self.loan_value = r.loan_value
        self.interest_rate = r.interest_rate
        self.loans_available = r.num_loans
        self.loan_book = LoanBook.new(self.loans_available)
        self.percent_to_operate = r.percent_to_operate_start
        self.last_trains = set(r.percent_to_operate_last_trains)
        self.capitalization_mode = "escrow"
        self.post_nationalization = False
        # the loans a closed corporation could still take: 18xx.games keeps counting its loans
        # and the shares players held when it closed (G1856.waits_for_closed_last)
        self.closed_counts: dict[str, tuple[int, int]] = {}  # sym -> (loans, shares players held)
        self.cert_limit_set: int | None = None  # the limit fixed after nationalization
        self.national_train_limit_extra = r.national_train_limit_increase
        self.national_sym = r.national
        self.national_ever_owned_permanent = False
        self.nationalization_trigger: str | None = None
        self.nationalizables: list[str] = []
        self.national_formed = False
        self.pre_national_percent: dict[str, int] = {}
        self.pre_national_market_percent = 0
        self.pre_national_prices: dict[str, int] = {}
        self.nationalized_corps: list[str] = []
        self.merged_token_spots: dict[str, list[tuple[str, int]]] = {}
        self.merged_token_slots: dict[tuple[str, str, int], int] = {}  # (corp, hex, city) -> slot
        self.false_national_president: str | None = None
        # per player, what 18xx.games' share-holder table counts of the national beyond (or short
        # of) their certificates (see G1856Stock.buy_share_override)
        self.national_table_adjust: dict[str, int] = {}
        self.nationalization_train_discard_trigger = False
        self.token_removals: list[dict[str, Any]] = []
        self.national_token_limit = r.national_token_limit
        self.cash_crisis_player: str | None = None
        self.cash_crisis_corp: str | None = None
        self.national_token_price = r.national_token_price
        self.right_cost = r.right_cost
        dests = d.DESTINATIONS
        if "alternate_destinations" in self.optional_rules and r.alternate_destinations is not None:
            dests = r.alternate_destinations
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

    @property
    def national_corp(self) -> Corporation:
        """The national corporation (CGR, MESS)."""
        if self.national_sym is None:
            raise GameError(f"{self.title} has no national corporation", UNAVAILABLE)
        return self.corp(self.national_sym)

    def national_discard_done(self) -> None:
        """The national's post-formation discard is over: its train limit is one above the
        phase's from now on. 18xx.games also ends it (before or after the formation) whenever
        a turn is cut short: a corporation failing to float or closing in its own turn."""
        self.nationalization_train_discard_trigger = False
        self.national_train_limit_extra = 1
