"""Hooks a title may override, with the neutral behaviour of a plain 18xx game.

:class:`TitleHooks` is the base of every mechanic of :class:`engine.game.Game`. It declares
what a title may change that the general mechanics do not implement themselves: loans (none),
a national corporation (none), cash crises, and what the status picture shows. A title
(``engine.titles``) overrides only what it changes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from . import actions as A
from .entities import Company, Corporation, Share, Train
from .errors import RULE, GameError
from .mechanics.state import GameState

END_REASONS = {  # why a game ended, in words (Hooks.end_reason_text)
    "bank": "the bank broke",
    "bankrupt": "a player went bankrupt",
    "manually_ended": "the host ended it",
    "stalled": "nobody could move any more",
    "dnf": "it reached turn 100, where 18xx.games ends a game",
}

if TYPE_CHECKING:
    from .map.hexgrid import Axes
    from .map.tiles import Tile
    from .market import Cell
    from .rounds.operating import OperatingRound
    from .rounds.stock import Round, StockRound


class TitleHooks(GameState):
    """Neutral defaults of every title hook."""

    # Read by render
    HAS_LOANS = False  # corporations may take loans (the status shows a Loans column)
    IPO_NAME = "IPO"  # what the title calls a corporation's unsold shares
    AXES: Axes | None = None  # which part of a hex id is x when not 18xx.games' default (no title sets it)

    # ------------------------------------------------------------------ loans (none)
    loan_value = 0  # what a loan brings
    loans_available = 0  # loans the bank still gives

    def can_take_loan(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """Whether ``corp`` may take a loan now."""
        return self.loan_blocker(rnd, corp) is None

    def loan_blocker(self, rnd: OperatingRound, corp: Corporation) -> str | None:
        """Why ``corp`` may not take a loan now, in a player's words (None: it may)."""
        return "there are no loans in this game"

    def maximum_loans(self, corp: Corporation) -> int:
        """How many loans ``corp`` may have."""
        return 0

    def loan_terms(self) -> str:
        """The loan rule in a few words, for /help loan ("" : none to tell)."""
        return ""

    def loans_ended(self) -> str | None:
        """Why no corporation may take a loan from now on for the rest of the game, in a
        player's words (None: loans are still given, or there are none in this game)."""
        return None

    def take_loan(self, rnd: OperatingRound, corp: Corporation, loan: int | None = None) -> None:
        """``corp`` takes a loan (``loan``: the id 18xx.games gives it)."""
        raise GameError(f"{corp.sym} cannot take a loan", RULE, corporation=corp.sym)

    # ------------------------------------------------------------------ a national (none), cash crises
    national_sym: str | None = None  # the national corporation (1856's CGR)
    national_formed = False  # whether the national has formed
    false_national_president: str | None = None  # a player who must buy up to the national's presidency
    cash_crisis_player: str | None = None  # a player who owes the bank and must raise money
    # players who entered a cash crisis: 18xx.games keeps what one still owes as negative cash
    # when the crisis passes to a new president before it is paid (1856)
    crisis_debtors: tuple[str, ...] = ()
    # a title with a national sets its own lists (never changed here)
    nationalizables: Sequence[str] = ()  # corporations whose presidents decide to nationalize or not
    token_removals: Sequence[dict[str, Any]] = ()  # stations the national must remove ({"hexes": [...]})

    def national_falls_off_market(self, sym: str, percent: int) -> bool:
        """Whether a sale of ``percent``% of ``sym`` is refused as it would leave the market."""
        return False

    def crisis_sellable(self, pid: str) -> list[tuple[str, int]]:
        """``(corporation, percent)`` bundles the player in a cash crisis may sell."""
        return []

    # ------------------------------------------------------------------ special buys
    right_cost = 0  # the price of a special buy (1856: a tunnel or bridge right; special_buys: companies.py)

    def special_buy_names(self) -> list[str]:
        """Everything the title sells besides trains and privates, as ``special_buys`` names it,
        for sale now or not (1856: its rights, 1833NE: its ferries): examples and help."""
        return []

    def special_buy_effect(self, name: str) -> str:
        """What the special buy ``name`` brings the corporation, in words ("" when its name says it)."""
        return ""

    # ------------------------------------------------------------------ shares issued by corporations (none)
    def issue_choices(self, corp: Corporation) -> list[tuple[list[str], str]] | None:
        """``(share ids, label)`` bundles ``corp`` may issue now; None: the title has no issues."""
        return None

    def issue_options(self, corp: Corporation) -> list[tuple[int, int]]:
        """``(shares, money)`` ``corp`` may issue now (normal issue)."""
        return []

    def redeem_options(self, corp: Corporation) -> list[tuple[int, int]]:
        """``(shares, money)`` ``corp`` may redeem now."""
        return []

    def side_floor(self, corp: Corporation, train: Train) -> int:
        """The least a side of the bank's ``train`` may cost ``corp`` now."""
        return 0

    def lay_cost(self, corp: Corporation, hex_id: str, tile: Tile) -> int:
        """What ``corp`` pays to lay ``tile`` (rotated as laid) on ``hex_id`` now: the hex's
        terrain."""
        return self.board.terrain_cost(self.board.hexes[hex_id])

    # ------------------------------------------------------------------ phases and trains
    def after_phase_change(self, name: str) -> None:
        """Called when phase ``name`` has started (after rusting)."""

    def corp_train_limit(self, corp: Corporation) -> int:
        """How many trains ``corp`` may own."""
        return self.train_limit

    def stated_train_limit(self, corp: Corporation) -> int:
        """``corp``'s train limit as the rules state it (the status picture's): what it may own,
        less the trains that do not count toward it (1833NE's obsolete ones)."""
        return self.corp_train_limit(corp)

    def train_kind(self, train: Train) -> tuple[object, ...]:
        """What tells a corporation's trains apart: two trains of one kind are alike (which of
        them it discards changes nothing)."""
        return (train.name, train.distance, train.rusts_on)

    def train_life(self, train: Train) -> tuple[str | None, str | None]:
        """The phases in which ``train`` becomes obsolete (1833NE's cards: it runs once more)
        and leaves the game (it rusts); None: never."""
        return None, train.rusts_on

    def withhold_reason(self, corp: Corporation) -> str:
        """Why ``corp`` withholds when its president is not asked (1856's national before its
        first permanent train), told with the withholding; "" for none."""
        return ""

    def train_event_words(self, kind: str) -> str | None:
        """What a train's event ``kind`` does, told before the train is bought (1856: "private
        companies close", "CGR forms"); None when nothing is told."""
        return None

    def phase_train_effects(self, phase: str) -> list[tuple[Train, str]]:
        """What entering ``phase`` does to the trains corporations hold and the open market's
        (:meth:`train_life`): ``"rust"`` (they leave the game; an obsolete train in the open
        market runs for nobody and leaves too) or ``"obsolete"``; what a title's
        ``change_phase`` does, told before a train that starts the phase is bought."""
        out = []
        for t in self.trains.values():
            if t.owner in self.corporations or t.owner == "discard":
                obsolete_in, removed_in = self.train_life(t)
                if removed_in == phase or (obsolete_in == phase and t.owner == "discard"):
                    out.append((t, "rust"))
                elif obsolete_in == phase:
                    out.append((t, "obsolete"))
        return out

    def is_borrowed(self, tid: str) -> bool:
        """Whether train ``tid`` is borrowed (it does not count for the limit)."""
        return False

    # ------------------------------------------------------------------ actions and turns
    def after_action(self, action: A.Action) -> None:
        """Called after each processed action (before rounds move on)."""

    def turn_cut_short(self, corp: Corporation) -> None:
        """The operating corporation closed during its own turn (titles react)."""

    def after_operating_action(self, rnd: OperatingRound, president: str | None) -> None:
        """An action of the operating round was processed (by the operating corporation or
        anyone else), before the round looks for what comes next. ``president``: the operating
        corporation's, as the action left it (None if it was closed before the action)."""

    def closing_ends_idle_turn(self) -> bool:
        """Whether another corporation closing during an action ends the operating
        corporation's turn when the step it was in has nothing left for it (18xx.games closes
        corporations after each action and then moves on; titles it referees say True)."""
        return False

    def waits_for_closed_last(self, rnd: OperatingRound) -> bool:
        """Whether the operating round, reaching its last corporation closed, still waits for it
        with the steps the previous one left (18xx.games does not set up a closed
        corporation's steps; a title whose step still offers it something says True, having
        given the corporation what it acts with)."""
        return False

    # ------------------------------------------------------------------ stock round
    def exempt_from_forced_sale(self, pid: str) -> bool:
        """True when ``pid`` need not sell first although over a limit (a title's own rule
        governs their turn)."""
        return False

    def restrict_stock_actions(self, rnd: StockRound, pid: str, actions: list[str]) -> list[str]:
        """The stock-round actions ``pid`` may take, from those the round allows."""
        return actions

    def company_income(self, company: Company) -> int:
        """What the private pays its owner each operating round now (1833NE: nothing once
        flipped in phase III)."""
        return company.revenue

    def went_bankrupt(self, pid: str) -> bool:
        """Whether ``pid`` is out of the game by a bankruptcy: the player's flag, as 18xx.games
        sets it; a title may end the game by a bankruptcy it does not flag."""
        return self.player(pid).bankrupt

    def stock_turn_stuck(self, rnd: StockRound, pid: str) -> bool:
        """True when ``pid`` has no action but may not simply pass (the title ends the game
        or otherwise resolves it); the turn then does not move on."""
        return False

    def defer_closings(self, only: str | None = None) -> None:
        """From now on a corporation whose price reaches the closing space (only ``only`` when
        given) stays open until :meth:`close_deferred` (titles that close corporations by
        price, as 18xx.games does: after the action)."""

    def close_deferred(self) -> list[str]:
        """Closes the corporations :meth:`defer_closings` kept open; their symbols."""
        return []

    def buy_share_override(self, rnd: StockRound, pid: str, share: Share) -> bool:
        """True when the title carried out ``pid``'s purchase of ``share`` itself."""
        return False

    def par_prices(self, corp: Corporation) -> list[Cell]:
        """The market cells ``corp`` may start at."""
        return self.market.par_prices

    # ------------------------------------------------------------------ routes
    def route_pricer(self, corp: Corporation) -> Callable[[list[tuple[str, int]]], int]:
        """``route_revenue(corp, stops)`` as one function for many routes of this position (the
        router prices thousands): a title may work out once what every route reads (the same
        answers, the same refusals)."""
        return functools.partial(self.route_revenue, corp)

    def route_price_key(self, corp: Corporation) -> Hashable | None:
        """What :meth:`route_pricer` reads besides the stops' values and the corporation's
        stations (both in its route graph), as a hashable value: two positions with the same
        network, trains and key have the same best routes (:func:`engine.routing.cache.cached_best_routes`
        reuses them). None (the default) when a title does not say: every position is searched."""
        return None

    def route_revenue_for_train(self, corp: Corporation, stops: list[tuple[str, int]], train: Train) -> int:
        """What ``train`` earns on a route with these stops, when it depends on the train
        (:attr:`scores_routes_per_train`); GameError when it cannot run it."""
        return self.route_revenue(corp, stops)

    @property
    def scores_routes_per_train(self) -> bool:
        """Whether the title overrides :meth:`route_revenue_for_train` (1833NE's train sides)."""
        return type(self).route_revenue_for_train is not TitleHooks.route_revenue_for_train

    def extension_gains(self, corp: Corporation, stops: list[tuple[str, int]]) -> dict[str, int]:
        """``{hex: gain}``: what extending a route past these stops to ``hex`` adds."""
        return {}

    @property
    def extends_routes(self) -> bool:
        """Whether the title overrides :meth:`extension_gains` (1833NE's cross-connections)."""
        return type(self).extension_gains is not TitleHooks.extension_gains

    # ------------------------------------------------------------------ the status picture
    def destination_goals(self) -> dict[str, list[str]]:
        """``{corp sym: goal hex ids}`` of every corporation the title gives a destination."""
        return {}

    def port_marks(self) -> dict[str, list[str]]:
        """``{hex: tags}`` of ports the title keeps beside the map's tiles (1833NE's ferries): the
        map draws a port there, tagged with its owner and the private assigned to it."""
        return {}

    def stations_leaving(self) -> dict[tuple[str, int, int], str]:
        """``{(hex, city, slot): corporation}``: stations off the board that still stand on the map
        (1856: those of a corporation merged into the national, until the national's replace them
        at its formation, as 18xx.games keeps them on its map)."""
        return {}

    def obsolete_trains(self) -> set[str]:
        """Ids of trains that run once more, then leave (1833NE)."""
        return set()

    def train_variants(self, train: Train) -> list[tuple[str, int]]:
        """The sides ``(name, price)`` a bank train may be bought as; empty: only as itself."""
        return []

    def status_notes(self) -> list[str]:
        """Extra lines for the status picture."""
        return []

    def provisional_rows(self) -> list[list[str]]:
        """``[what, value per phase..., source]`` of values a host may set (1833NE)."""
        return []

    def provisional_open(self) -> bool:
        """Whether a host may still change the provisional values."""
        return False

    @property
    def end_reason_text(self) -> str | None:
        """Why the game ended, in words (None while it goes on); a title may say it better."""
        if not self.end_reason:
            return None
        return END_REASONS.get(self.end_reason, self.end_reason.replace("_", " "))

    if TYPE_CHECKING:
        # Implemented by the mechanic modules that make up engine.game.Game; declared here so
        # that each of them may call the others.
        # engine/mechanics/shares.py
        def floatable(self, corp: Corporation) -> bool: ...
        def floated(self, corp: Corporation) -> bool: ...
        def bank_pays(self, receiver: str, amount: int) -> None: ...
        def shares_of(self, holder: str, sym: str | None = None) -> list[Share]: ...
        def percent_of(self, holder: str, sym: str) -> int: ...
        def corp_shares(self, sym: str) -> list[Share]: ...
        def player_percent(self, sym: str) -> int: ...
        def presidency_holdings(self, sym: str) -> dict[str, int]: ...
        def shares_worth(self, sym: str, percent: int, price: int | None = None) -> int: ...
        def named_bundle(self, action: A.SellShares) -> tuple[list[Share], str, int]: ...
        def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int: ...
        def move_price(self, corp: Corporation, direction: str) -> None: ...
        def price_target(self, corp: Corporation, direction: str, cell: Cell | None = None) -> Cell | None: ...
        def price_after_sale(self, corp: Corporation, pid: str, percent: int) -> Cell | None: ...
        # engine/mechanics/phases.py
        def depot_trains(self) -> list[Train]: ...
        def corp_trains(self, sym: str) -> list[Train]: ...
        def give_train(self, train: Train, sym: str) -> None: ...
        def remove_train(self, train: Train, to: str = "discard") -> None: ...
        def on_train_bought_from_depot(self, train: Train) -> None: ...
        def close_company(self, company: Company) -> None: ...
        # engine/mechanics/track.py
        def tile_lays_per_turn(self, corp: Corporation) -> int: ...
        def lay_tile(self, corp: Corporation, action: A.LayTile, *, company: Company | None = None,
                     free: bool = False, connected: bool = True) -> None: ...
        # engine/mechanics/stations.py
        def parse_city(self, city_id: str) -> tuple[str, int]: ...
        def place_home_token(self, rnd: OperatingRound, corp: Corporation) -> None: ...
        def buying_power_for_token(self, corp: Corporation) -> int: ...
        def map_cache_cleared(self) -> None: ...
        # engine/mechanics/revenue.py
        def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int: ...
        def note_route(self, corp: Corporation) -> None: ...
        def has_route(self, corp: Corporation) -> bool: ...
        # engine/mechanics/companies.py
        def purchasable_companies(self) -> list[Company]: ...
        def company_min_price(self, c: Company) -> int: ...
        def close_after_use(self, rnd: OperatingRound, company: Company) -> None: ...
        def on_round_end(self, rnd: Round) -> None: ...
        # engine/rounds/flow.py
        def advance_rounds(self) -> None: ...
        def end_game(self, reason: str) -> None: ...
