"""The state of a game: its pieces (players, privates, corporations, shares, trains, the
board, the market) built from a title's data, look-ups, and moving money.

:class:`GameState` is the base of :class:`engine.game.Game`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from .. import actions as A
from ..entities import POOL, Company, Corporation, Player, Share, Token, Train
from ..errors import CANNOT_AFFORD, LIMIT, PRICE, UNKNOWN, GameError
from ..map.board import Board
from ..market import StockMarket
from ..rules import Rules
from .phase_text import phase_line

if TYPE_CHECKING:
    from ..choice import TitleChoiceHandler
    from ..game import Game
    from ..rounds.stock import Round


class GameState:
    """The pieces of a game and their owners: players, corporations, shares, trains, the bank."""

    round: Round  # the current round (set once the pieces exist)

    TITLE = ""
    SELL_AFTER = "first"  # "first": no selling in the first stock round; "operate": after it operated
    SELL_BUY_ORDER = "sell_buy_or_buy_sell"
    SELL_MOVEMENT = "down_share"
    POOL_SHARE_DROP = "none"
    MARKET_SHARE_LIMIT = 50
    HOLDING_LIMIT = 60
    HOME_TOKEN_TIMING = "operate"
    MUST_SELL_IN_BLOCKS = False
    CAPITALIZATION = "full"
    FLOAT_PERCENT = 60
    MIN_BID_INCREMENT = 5
    DISCARD_POOL_ONE_PER_TYPE = False
    AUCTION_PRIORITY_FROM_TURN = False
    REORDER_AFTER_EMERGENCY_SALE = False  # a price drop can move a corporation in this OR's order
    # 18xx.games keeps what a corporation's token step found about its reachable free city spaces
    # (Graph#can_token?) until a tile lay, a station placed by a step or a bridge/tunnel right
    # clears its map cache: a home station placed at a first run or stations removed by a closing
    # leave it as it was. A title that sets this copies that (the 1856 family, rules-deviations).
    TOKEN_VIEW_KEPT = False
    BANKRUPTCY_MEANS = "it ends the game"  # what declaring bankruptcy does, in a player's words

    # A title that sets this ends the game ("dnf") when a round ends at this turn or later, as
    # 18xx.games does at turn 100 (rounds in which nobody can act pass by themselves until then).
    MAX_TURN: int | None = None

    # A title's refinements of the legal choices, by action type (engine.moves: 1833NE's homes
    # and takeovers), so the engine never looks the title up itself.
    choice_overrides: dict[str, TitleChoiceHandler] = {}

    _or_set_size = 1  # operating rounds in the current set

    def __init__(self, data: ModuleType, players: Iterable[tuple[str, str]],
                 optional_rules: Iterable[str] = (), seed: int | None = None):
        self.data = data
        self.rules = Rules.from_data(data)
        self.title = data.TITLE
        if self.rules.sell_buy_order is not None:
            self.SELL_BUY_ORDER = self.rules.sell_buy_order
        self.optional_rules = list(optional_rules)
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[str] = []
        self.players: list[Player] = []
        for pid, name in players:
            self.players.append(Player(id=str(pid), name=name))
        n = len(self.players)
        if not (data.MIN_PLAYERS <= n <= data.MAX_PLAYERS):
            raise GameError(f"{self.title} needs {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, not {n}", LIMIT, players=n)
        self.player_by_id = {p.id: p for p in self.players}
        self.bank: int = data.BANK_CASH
        for p in self.players:
            p.cash = data.STARTING_CASH[n]
            self.bank -= p.cash
        self.market = StockMarket(self.game_market())
        self.companies: dict[str, Company] = {}
        for c in data.COMPANIES:
            self.companies[c["sym"]] = Company(
                sym=c["sym"], name=c["name"], value=c["value"], revenue=c["revenue"],
                desc=c.get("desc", ""), abilities=[dict(a) for a in c.get("abilities", [])])
        self.corporations: dict[str, Corporation] = {}
        self.shares: dict[str, Share] = {}
        self._by_corp: dict[str, list[Share]] = {}  # index of self.shares by corporation
        for c in self.game_corporations():
            corp = Corporation(
                sym=c["sym"], name=c["name"], token_prices=list(c.get("tokens", [])),
                home=_first(c.get("coordinates")), home_city=c.get("city"),
                color=c.get("color", "#888888"), text_color=c.get("text_color", "white"))
            corp.tokens = [Token(price=p) for p in corp.token_prices]
            self.corporations[corp.sym] = corp
            self._create_shares(corp)
        self.trains: dict[str, Train] = {}
        self.train_order: list[str] = []
        self.discard_order: list[str] = []  # the bank's pool, in the order trains reached it
        self.end_pending: str | None = None
        for t in self.game_trains():
            unlimited = t["num"] == "unlimited"
            # an unlimited kind starts with as many as its events need (18xx.games' num_trains)
            num = max((e["when"] for e in t.get("events", []) if "when" in e), default=1) if unlimited else t["num"]
            for i in range(num):
                train = Train(id=f"{t['name']}-{i}", name=t["name"], distance=t.get("distance", 0),
                              price=t["price"], rusts_on=t.get("rusts_on"),
                              available_on=t.get("available_on"), discount=t.get("discount"),
                              events=[e for e in t.get("events", []) if e.get("when", 1) == i + 1],
                              unlimited=unlimited)
                self.trains[train.id] = train
                self.train_order.append(train.id)
        self.phases = self.game_phases()
        self.phase_index = 0
        self.board = Board(self.as_game())
        for corp in self.corporations.values():
            if corp.home and corp.home in self.board.hexes:
                self.board.reserve_home(corp.home, corp.home_city, corp.sym)
        self.turn = 1
        self.round_num = 1
        self.finished = False
        self.end_reason: str | None = None
        self.game_end_triggered: str | None = None
        self.priority = 0  # index of the player with priority deal
        self.action_count = 0
        self.recorded_auto: dict[str, A.Action] = {}
        self.auto_done: list[A.Action] = []  # auto actions generated by the last action
        self.programs: dict[str, A.Action] = {}  # player id -> programmed stock-round move
        self.action_log: list[dict[str, Any]] = []  # processed actions, export shape
        # what the action being processed leaves to the engine but 18xx.games' actions name (the
        # loan taken or repaid, the slot of a removed station): added to it when it is recorded
        self.export_fill: dict[str, Any] = {}
        self.live = True  # False while replaying a log: programmed moves come from the record
        self.program_marks: dict[str, tuple[tuple[Any, ...] | None, int]] = {}
        self.used_abilities: set[tuple[str, str]] = set()  # (private, ability type) used once
        self.token_view: dict[str, bool] = {}  # corporation -> a space to reach (TOKEN_VIEW_KEPT)
        self.pending_tokens: list[tuple[str, str, str]] = []  # (corp, hex, placer) tokens to place again
        self.trains_sold: set[str] = set()  # trains the bank has sold (to a corporation)
        self.routes_seen: set[str] = set()  # corporations that have had a route (has_route)
        self.setup()
        self.log.append(phase_line(self.phase))
        self.round = self.initial_round()

    # ------------------------------------------------------------------ data hooks
    def game_market(self) -> list[list[str]]:
        """The title's stock market (rows of cells)."""
        market: list[list[str]] = self.data.MARKET
        return market

    def game_corporations(self) -> list[dict[str, Any]]:
        """The title's corporations."""
        corps: list[dict[str, Any]] = self.data.CORPORATIONS
        return corps

    def game_trains(self) -> list[dict[str, Any]]:
        """The title's trains; an optional rule may replace the list (e.g. 1836Jr56 Diesels)."""
        for rule, trains in self.rules.optional_rule_trains.items():
            if rule in self.optional_rules:
                chosen: list[dict[str, Any]] = trains
                return chosen
        default: list[dict[str, Any]] = self.data.TRAINS
        return default

    def game_phases(self) -> list[dict[str, Any]]:
        """The title's phases; an optional rule may replace the list."""
        for rule, phases in self.rules.optional_rule_phases.items():
            if rule in self.optional_rules:
                chosen_phases: list[dict[str, Any]] = phases
                return chosen_phases
        default: list[dict[str, Any]] = self.data.PHASES
        return default

    def as_game(self) -> Game:
        """This game as the whole :class:`engine.game.Game` (which every part of it is)."""
        return cast("Game", self)

    if TYPE_CHECKING:
        # implemented by other parts of engine.game.Game
        def initial_round(self) -> Round: ...  # engine/rounds/flow.py
        def bank_broken(self) -> None: ...  # engine/rounds/flow.py
        def share_price_value(self, share: Share) -> float: ...  # engine/mechanics/shares.py

    def setup(self) -> None:
        """Title-specific set-up after the pieces exist."""

    def _create_shares(self, corp: Corporation) -> None:
        for share in self.make_shares(corp):
            self.add_share(share)

    def make_shares(self, corp: Corporation) -> list[Share]:
        shares = [Share(f"{corp.sym}_0", corp.sym, 0, 20, True, corp.sym)]
        shares += [Share(f"{corp.sym}_{i}", corp.sym, i, 10, False, corp.sym) for i in range(1, 9)]
        return shares

    # ------------------------------------------------------------------ lookups
    @property
    def phase(self) -> dict[str, Any]:
        return self.phases[self.phase_index]

    def phase_status(self, status: str) -> bool:
        return status in self.phase.get("status", [])

    @property
    def train_limit(self) -> int:
        limit: int = self.phase["train_limit"]
        return limit

    def corp(self, sym: str) -> Corporation:
        try:
            return self.corporations[sym]
        except KeyError:
            raise GameError(f"There is no corporation {sym}", UNKNOWN, what="corporation", id=sym) from None

    def player(self, pid: str) -> Player:
        try:
            return self.player_by_id[pid]
        except KeyError:
            raise GameError(f"There is no player {pid}", UNKNOWN, what="player", id=pid) from None

    def company(self, sym: str) -> Company:
        try:
            return self.companies[sym]
        except KeyError:
            raise GameError(f"There is no private company {sym}", UNKNOWN, what="private company", id=sym) from None

    def train(self, tid: str) -> Train:
        try:
            return self.trains[tid]
        except KeyError:
            raise GameError(f"There is no train {tid}", UNKNOWN, what="train", id=tid) from None

    def share(self, sid: str) -> Share:
        try:
            return self.shares[sid]
        except KeyError:
            raise GameError(f"There is no share {sid}", UNKNOWN, what="share", id=sid) from None

    def name_of(self, key: str) -> str:
        if key in self.player_by_id:
            return self.player_by_id[key].name
        if key == POOL:
            return "the market"
        return key

    def place_words(self, hid: str, city: int | None = None) -> str:
        """A hex as players read it: "L15 (Hamilton)"; on a hex with several cities, which one
        ("L15 (Hamilton, city 2 of 2)")."""
        h = self.board.hexes.get(hid)
        if h is None:
            return hid
        notes = [h.location] if h.location else []
        cities = [c.index for c in h.tile.cities]
        if city is not None and len(cities) > 1 and city in cities:
            notes.append(f"city {cities.index(city) + 1} of {len(cities)}")
        return f"{hid} ({', '.join(notes)})" if notes else hid

    def place_first(self, hid: str) -> str:
        """A hex by its place first, as a menu reads it: "Brantford J15" (the hex id alone where
        it names no place)."""
        h = self.board.hexes.get(hid)
        return f"{h.location} {hid}" if h is not None and h.location else hid

    def fmt(self, amount: int | float) -> str:
        fmt = self.rules.currency_format
        if isinstance(amount, float) and amount.is_integer():
            amount = int(amount)
        if amount < 0:  # a debt: "-$100", not "$-100"
            return "-" + fmt.format(-amount)
        return fmt.format(amount)

    # ------------------------------------------------------------------ money
    def spend(self, payer: str, receiver: str, amount: int, *, allow_negative: bool = False) -> None:
        """Move ``amount`` between holders: a player id, a corporation sym, or "bank"."""
        if amount == 0:
            return
        if amount < 0:
            raise GameError("Cannot spend a negative amount", PRICE, amount=amount)
        self._add_cash(payer, -amount, allow_negative)
        self._add_cash(receiver, amount, True)

    def _add_cash(self, holder: str, amount: int, allow_negative: bool) -> None:
        if holder == "bank":
            self.bank += amount
            if self.bank < 0:  # the bank breaks the moment it cannot pay (as 18xx.games)
                self.bank_broken()
            return
        entity: Player | Corporation
        entity = self.player_by_id[holder] if holder in self.player_by_id else self.corporations[holder]
        if entity.cash + amount < 0 and not allow_negative:
            raise GameError(f"{self.name_of(holder)} does not have {self.fmt(-amount)}", CANNOT_AFFORD, entity=holder, cost=-amount)
        entity.cash += amount

    def cash_of(self, holder: str) -> int:
        if holder == "bank":
            return self.bank
        if holder in self.player_by_id:
            return self.player_by_id[holder].cash
        return self.corporations[holder].cash

    def add_share(self, share: Share) -> None:
        self.shares[share.id] = share
        self._by_corp.setdefault(share.corporation, []).append(share)


    # ------------------------------------------------------------------ values
    def player_value(self, player: Player) -> int:
        value: float = player.cash
        for s in self.shares.values():
            if s.owner == player.id:
                value += self.share_price_value(s)
        value += sum(self.companies[c].value for c in player.companies if not self.companies[c].closed)
        return int(value) - self.loan_charge(player)

    def loan_charge(self, player: Player) -> int:
        """What ``player``'s value loses for the loans of the corporations whose shares they hold
        (1856: $10 a share per loan); none by default."""
        return 0

    def result(self) -> dict[str, int]:
        return {p.id: self.player_value(p) for p in self.players}

    # ------------------------------------------------------------------ the decision
    def acting(self) -> list[str]:
        """Entities expected to act now (player ids or corporation/company syms)."""
        # as 18xx.games reports it: the entity that was to act when the game ended stays listed
        return self.round.acting()

    def acting_players(self) -> list[str]:
        out = []
        for e in self.acting():
            pid = self.controller_of(e)
            if pid and pid not in out:
                out.append(pid)
        return out

    def controller_of(self, entity: str) -> str | None:
        """The player who decides for ``entity``."""
        if entity in self.player_by_id:
            return entity
        if entity in self.corporations:
            return self.corporations[entity].president
        if entity in self.companies:
            owner = self.companies[entity].owner
            return self.controller_of(owner) if owner else None
        return None

    def action_types(self, entity: str) -> list[str]:
        if self.finished:
            return []
        return self.round.action_types(entity)




def _first(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return value[0] if value else None
    return value
