"""The game: state, money and share mechanics, phases and trains, and the round sequence.

A :class:`Game` is built from a title (data module + rules hooks) and changes only by
:meth:`Game.process`. Rounds live in :mod:`engine.rounds` and :mod:`engine.operating`;
title specifics (1856 family) override small hooks in :mod:`engine.titles`.
"""

from __future__ import annotations

import copy
import copyreg
import importlib
import io
import pickle
import random
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import actions as A
from .board import Board
from .companies import CompanyRules
from .entities import POOL, Company, Corporation, Player, Share, Token, Train
from .errors import GameError
from .market import StockMarket
from .revenue import RevenueRules
from .round_flow import RoundFlow
from .shares import ShareRules
from .stations import StationRules
from .track import TrackRules
from .train_buying import TrainBuying

if TYPE_CHECKING:
    from .hexgrid import Axes
    from .router_graph import RouteGraph


class Game(ShareRules, TrackRules, StationRules, RevenueRules, TrainBuying, CompanyRules, RoundFlow):
    """Base 18xx game. Titles subclass it and override hooks; see ``engine.titles``."""

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

    def __init__(self, data: ModuleType, players: Iterable[tuple[str, str]],
                 optional_rules: Iterable[str] = (), seed: int | None = None):
        self.data = data
        self.title = data.TITLE
        if hasattr(data, "SELL_BUY_ORDER"):
            self.SELL_BUY_ORDER = data.SELL_BUY_ORDER
        self.optional_rules = list(optional_rules)
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[str] = []
        self.players: list[Player] = []
        for pid, name in players:
            self.players.append(Player(id=str(pid), name=name))
        n = len(self.players)
        if not (data.MIN_PLAYERS <= n <= data.MAX_PLAYERS):
            raise GameError(f"{self.title} needs {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, not {n}")
        self.player_by_id = {p.id: p for p in self.players}
        self.bank = data.BANK_CASH
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
            for i in range(t["num"]):
                train = Train(id=f"{t['name']}-{i}", name=t["name"], distance=t.get("distance", 0),
                              price=t["price"], rusts_on=t.get("rusts_on"),
                              available_on=t.get("available_on"), discount=t.get("discount"),
                              events=[e for e in t.get("events", []) if e.get("when", 1) == i + 1])
                self.trains[train.id] = train
                self.train_order.append(train.id)
        self.phases = self.game_phases()
        self.phase_index = 0
        self.board = Board(self)
        for corp in self.corporations.values():
            if corp.home and corp.home in self.board.hexes:
                self.board.reserve_home(corp.home, corp.home_city, corp.sym)
        self.turn = 1
        self.round_num = 1
        self.finished = False
        self.end_reason: str | None = None
        self.game_end_triggered: str | None = None
        self.priority = 0  # index of the player with priority deal
        self.round: Any = None
        self.action_count = 0
        self.recorded_auto: dict[str, A.Action] = {}
        self.auto_done: list[A.Action] = []  # auto actions generated by the last action
        self.programs: dict[str, A.Action] = {}  # player id -> programmed stock-round move
        self.action_log: list[dict[str, Any]] = []  # processed actions, export shape
        self.live = True  # False while replaying a log: programmed moves come from the record
        self.program_marks: dict[str, tuple[tuple[Any, ...] | None, int]] = {}
        self.used_abilities: set[tuple[str, str]] = set()  # (private, ability type) used once
        self.pending_tokens: list[tuple[str, str, str]] = []  # (corp, hex, placer) tokens to place again
        self.trains_sold: set[str] = set()  # trains the bank has sold (to a corporation)
        self.routes_seen: set[str] = set()  # corporations that have had a route (has_route)
        self.setup()
        self.round = self.initial_round()

    # ------------------------------------------------------------------ data hooks
    def game_market(self) -> list[list[str]]:
        return self.data.MARKET

    def game_corporations(self) -> list[dict[str, Any]]:
        return self.data.CORPORATIONS

    def game_trains(self) -> list[dict[str, Any]]:
        """The title's trains; an optional rule may replace the list (e.g. 1836Jr56 Diesels)."""
        for rule, trains in getattr(self.data, "OPTIONAL_RULE_TRAINS", {}).items():
            if rule in self.optional_rules:
                return trains
        return self.data.TRAINS

    def game_phases(self) -> list[dict[str, Any]]:
        for rule, phases in getattr(self.data, "OPTIONAL_RULE_PHASES", {}).items():
            if rule in self.optional_rules:
                return phases
        return self.data.PHASES

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
        return self.phase["train_limit"]

    def corp(self, sym: str) -> Corporation:
        try:
            return self.corporations[sym]
        except KeyError:
            raise GameError(f"There is no corporation {sym}") from None

    def player(self, pid: str) -> Player:
        try:
            return self.player_by_id[pid]
        except KeyError:
            raise GameError(f"There is no player {pid}") from None

    def company(self, sym: str) -> Company:
        try:
            return self.companies[sym]
        except KeyError:
            raise GameError(f"There is no private company {sym}") from None

    def train(self, tid: str) -> Train:
        try:
            return self.trains[tid]
        except KeyError:
            raise GameError(f"There is no train {tid}") from None

    def share(self, sid: str) -> Share:
        try:
            return self.shares[sid]
        except KeyError:
            raise GameError(f"There is no share {sid}") from None

    def name_of(self, key: str) -> str:
        if key in self.player_by_id:
            return self.player_by_id[key].name
        if key == POOL:
            return "the market"
        return key

    def fmt(self, amount: int | float) -> str:
        fmt = getattr(self.data, "CURRENCY_FORMAT", "${}")
        if isinstance(amount, float) and amount.is_integer():
            amount = int(amount)
        return fmt.format(amount)

    # ------------------------------------------------------------------ money
    def spend(self, payer: str, receiver: str, amount: int, *, allow_negative: bool = False) -> None:
        """Move ``amount`` between holders: a player id, a corporation sym, or "bank"."""
        if amount == 0:
            return
        if amount < 0:
            raise GameError("Cannot spend a negative amount")
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
            raise GameError(f"{self.name_of(holder)} does not have {self.fmt(-amount)}")
        entity.cash += amount

    def cash_of(self, holder: str) -> int:
        if holder == "bank":
            return self.bank
        if holder in self.player_by_id:
            return self.player_by_id[holder].cash
        return self.corporations[holder].cash

    # ------------------------------------------------------------------ shares
    def move_share(self, share: Share, owner: str) -> None:
        self._share_seq = getattr(self, "_share_seq", 0) + 1
        share.owner = owner
        share.seq = self._share_seq

    def add_share(self, share: Share) -> None:
        self.shares[share.id] = share
        self._by_corp.setdefault(share.corporation, []).append(share)

    def shares_of(self, holder: str, sym: str | None = None) -> list[Share]:
        if sym is not None:
            return [s for s in self._by_corp.get(sym, ()) if s.owner == holder]
        return [s for s in self.shares.values() if s.owner == holder]

    def percent_of(self, holder: str, sym: str) -> int:
        return sum(s.percent for s in self._by_corp.get(sym, ()) if s.owner == holder)

    def corp_shares(self, sym: str) -> list[Share]:
        return list(self._by_corp.get(sym, ()))

    def player_percent(self, sym: str) -> int:
        return sum(s.percent for s in self.corp_shares(sym) if s.owner in self.player_by_id)

    def ipo_shares(self, sym: str) -> list[Share]:
        return sorted((s for s in self.corp_shares(sym) if s.owner == sym), key=lambda s: s.index)

    def pool_shares(self, sym: str) -> list[Share]:
        return sorted((s for s in self.corp_shares(sym) if s.owner == POOL), key=lambda s: s.index)

    def num_certs(self, pid: str) -> float:
        total = 0.0
        for s in self.shares.values():
            if s.owner == pid and self.counts_for_limit(s):
                total += s.cert_size
        player = self.player_by_id[pid]
        total += sum(1 for c in player.companies if not self.companies[c].closed)
        return total

    def counts_for_limit(self, share: Share) -> bool:
        corp = self.corporations[share.corporation]
        return not (corp.price and ("no_cert_limit" in corp.price.types or "unlimited" in corp.price.types))

    def cert_limit(self) -> int:
        return self.data.CERT_LIMIT[len(self.players)]

    def holding_ok(self, pid: str, sym: str, extra_percent: int = 0) -> bool:
        corp = self.corporations[sym]
        if corp.price and ("unlimited" in corp.price.types or "multiple_buy" in corp.price.types):
            return True
        return self.percent_of(pid, sym) + extra_percent <= self.HOLDING_LIMIT

    def share_unit(self, sym: str) -> int:
        """The percentage one share stands for: 10, or 5 for a corporation of 20 shares (its
        price is per certificate of that size, as 1856's CGR after a large exchange)."""
        return min((s.percent for s in self._by_corp.get(sym, ()) if not s.president), default=10)

    def shares_worth(self, sym: str, percent: int, price: int | None = None) -> int:
        """What ``percent``% of ``sym`` is worth at ``price`` (default: its market price)."""
        if price is None:
            cell = self.corporations[sym].price
            if cell is None:
                return 0
            price = cell.price
        return price * percent // self.share_unit(sym)

    def share_price_value(self, share: Share) -> float:
        corp = self.corporations[share.corporation]
        if not corp.price:
            return 0
        return self.shares_worth(share.corporation, share.percent)

    def change_president(self, sym: str, preferred: str | None = None) -> None:
        """Give the presidency to the player holding most shares (ties keep the current one;
        among new candidates the first after the current president in seat order wins)."""
        corp = self.corporations[sym]
        current = corp.president
        holdings = {p.id: self.percent_of(p.id, sym) for p in self.players}
        best = max(holdings.values()) if holdings else 0
        if best == 0:
            return
        if current is not None and holdings.get(current, 0) >= best:
            return
        order = self.seat_order_from(current if current is not None else preferred)
        new = next(pid for pid in order if holdings[pid] == best)
        if current is None:
            corp.president = new
            return
        if new == current:
            return
        self._swap_president_cert(sym, current, new)
        corp.president = new
        self.log.append(f"{self.name_of(new)} becomes the president of {sym}")

    def seat_order_from(self, pid: str | None) -> list[str]:
        ids = [p.id for p in self.players]
        if pid is None or pid not in ids:
            return ids
        i = ids.index(pid)
        return ids[i + 1:] + ids[:i + 1]

    def _swap_president_cert(self, sym: str, old: str, new: str) -> None:
        pres = next(s for s in self.corp_shares(sym) if s.president)
        need = pres.percent
        theirs = sorted((s for s in self.shares_of(new, sym) if not s.president), key=lambda s: s.seq)
        given: list[Share] = []
        got = 0
        for s in theirs:
            if got >= need:
                break
            given.append(s)
            got += s.percent
        if pres.owner == old:
            for s in given:
                self.move_share(s, old)
            self.move_share(pres, new)
        else:  # president cert not with the old president (should not happen)
            self.move_share(pres, new)

    def named_bundle(self, action: A.SellShares) -> tuple[list[Share], str, int]:
        """The certificates a sale names, their corporation and the percentage sold (less than
        their sum when the president's certificate is sold in part)."""
        pid = action.entity
        shares = [self.share(sid) for sid in action.shares]
        if not shares or any(s.owner != pid for s in shares) or len({s.corporation for s in shares}) != 1:
            raise GameError(f"{self.name_of(pid)} must name shares of one corporation they own")
        pct = sum(s.percent for s in shares)
        if action.percent is not None and any(s.president for s in shares):
            pct = min(pct, action.percent)
        return shares, shares[0].corporation, pct

    def sell_shares(self, pid: str, shares: list[Share], percent: int | None = None) -> int:
        """Sell ``shares`` of one corporation from ``pid`` to the market (``percent`` of them when
        the president's certificate is only partly sold); returns the proceeds.

        Certificates move as on 18xx.games, which decides later share ids: the bundle goes to
        the market; a new president hands their first certificates for the president's one;
        for a partial sale the market's oldest certificates return to the seller."""
        sym = shares[0].corporation
        corp = self.corporations[sym]
        assert corp.price is not None
        total = sum(s.percent for s in shares)
        percent = total if percent is None else min(percent, total)
        amount = self.shares_worth(sym, percent)
        previous = corp.president
        for s in shares:
            self.move_share(s, POOL)
        self.spend("bank", pid, amount, allow_negative=True)
        self.log.append(f"{self.name_of(pid)} sells {percent}% of {sym} for {self.fmt(amount)}")
        new = self._new_president(sym, previous)
        if new is not None and new != pid and previous is not None:
            pres = next(s for s in self.corp_shares(sym) if s.president)
            swap_to = previous if self.percent_of(previous, sym) >= pres.percent else POOL
            self._hand_over_president_cert(sym, pres, new, swap_to)
            for _ in range((total - percent) // self.share_unit(sym)):
                self.move_share(self.holding(POOL, sym)[0], pid)
        self.price_drop_on_sale(corp, percent)
        return amount

    def holding(self, holder: str, sym: str) -> list[Share]:
        """``holder``'s certificates of ``sym`` in the order they were acquired."""
        return sorted(self.shares_of(holder, sym), key=lambda s: (s.seq, s.index))

    def _new_president(self, sym: str, previous: str | None) -> str | None:
        """After a transfer: the player who becomes president, if the presidency changes (the
        largest holder with at least the president's certificate; a tie keeps the current
        president, otherwise the first such player after them in seat order)."""
        corp = self.corporations[sym]
        holdings = {p.id: self.percent_of(p.id, sym) for p in self.players}
        best = max(holdings.values(), default=0)
        if best == 0 or (previous is not None and holdings.get(previous, 0) >= best):
            return None
        pres_pct = next(s.percent for s in self.corp_shares(sym) if s.president)
        new = next((p for p in self.seat_order_from(previous)
                    if holdings[p] == best and best >= pres_pct), None)
        if new is not None:
            corp.president = new
            self.log.append(f"{self.name_of(new)} becomes the president of {sym}")
        return new

    def _hand_over_president_cert(self, sym: str, pres: Share, new: str, swap_to: str) -> None:
        """The new president gives their first certificates (as many as the president's
        certificate is worth in ordinary shares) to ``swap_to`` and takes the president's."""
        for s in self.holding(new, sym)[:pres.percent // self.share_unit(sym)]:
            self.move_share(s, swap_to)
        self.move_share(pres, new)

    def price_drop_on_sale(self, corp: Corporation, percent: int) -> None:
        steps = percent // 10 if self.SELL_MOVEMENT == "down_per_10" else (1 if percent else 0)
        for _ in range(steps):
            self.move_price(corp, "down")

    # ------------------------------------------------------------------ trains & phases
    def depot_trains(self) -> list[Train]:
        """Trains the bank can sell now: the next unsold one(s) plus the discard pile."""
        out: list[Train] = []
        upcoming = [self.trains[t] for t in self.train_order if self.trains[t].owner == "depot"]
        if upcoming:
            first = upcoming[0]
            out.append(first)
            for t in upcoming[1:]:
                if t.name == first.name:
                    continue
                if t.available_on and self.phase_reached(t.available_on) and \
                        all(o.name != t.name for o in out):
                    out.append(t)
        pool = sorted((self.trains[t] for t in self.train_order if self.trains[t].owner == "discard"),
                      key=lambda t: self.discard_order.index(t.id) if t.id in self.discard_order else -1)
        if self.DISCARD_POOL_ONE_PER_TYPE:
            # 18xx.games sells the pool's first-discarded train of each type
            pool = [t for i, t in enumerate(pool) if all(o.name != t.name for o in pool[:i])]
        return out + pool

    def upcoming_trains(self) -> list[Train]:
        return [self.trains[t] for t in self.train_order if self.trains[t].owner == "depot"]

    def phase_reached(self, name: str) -> bool:
        names = [p["name"] for p in self.phases]
        return name in names and names.index(name) <= self.phase_index

    def corp_trains(self, sym: str) -> list[Train]:
        return [self.trains[t] for t in self.corporations[sym].trains]

    def give_train(self, train: Train, sym: str) -> None:
        if train.owner in self.corporations:
            self.corporations[train.owner].trains.remove(train.id)
        train.owner = sym
        self.corporations[sym].trains.append(train.id)

    DISCARD_POOL_ONE_PER_TYPE = False
    AUCTION_PRIORITY_FROM_TURN = False
    REORDER_AFTER_EMERGENCY_SALE = False  # a price drop can move a corporation in this OR's order

    def remove_train(self, train: Train, to: str = "discard") -> None:
        if train.owner in self.corporations:
            self.corporations[train.owner].trains.remove(train.id)
        train.owner = to
        if to == "discard":
            if train.id in self.discard_order:
                self.discard_order.remove(train.id)
            self.discard_order.append(train.id)

    def on_train_bought_from_depot(self, train: Train) -> None:
        """Phase changes, rusting and train events when a train leaves the depot."""
        for i, ph in enumerate(self.phases):
            if i > self.phase_index and ph.get("on") == train.name:
                self.change_phase(i)
                break
        for event in train.events:
            self.trigger_event(event["type"], train)
        train.events = []

    def change_phase(self, index: int) -> None:
        self.phase_index = index
        self.log.append(f"-- Phase {self.phase['name']} --")
        name = self.phase["name"]
        for t in list(self.trains.values()):
            if t.rusts_on == name and t.owner not in ("rusted",):
                if t.owner in self.corporations or t.owner in ("depot", "discard"):
                    if t.owner in ("depot",):
                        continue
                    self.remove_train(t, "rusted")
        self.after_phase_change(name)

    def after_phase_change(self, name: str) -> None:
        pass

    def trigger_event(self, kind: str, train: Train) -> None:
        handler = getattr(self, f"event_{kind}", None)
        if handler is None:
            raise GameError(f"Unknown train event {kind}")
        handler(train)

    def event_close_companies(self, _train: Train) -> None:
        for c in self.companies.values():
            if not c.closed:
                self.close_company(c)
        self.log.append("-- Event: private companies close --")

    def close_company(self, company: Company) -> None:
        company.closed = True
        if company.owner in self.player_by_id:
            self.player_by_id[company.owner].companies.remove(company.sym)
        elif company.owner in self.corporations:
            self.corporations[company.owner].companies.remove(company.sym)

    def crowded_corps(self) -> list[Corporation]:
        return [c for c in self.corporations.values()
                if not c.closed and len([t for t in c.trains if not self.is_borrowed(t)]) > self.corp_train_limit(c)]

    def corp_train_limit(self, corp: Corporation) -> int:
        return self.train_limit

    def is_borrowed(self, tid: str) -> bool:
        return False

    # ------------------------------------------------------------------ privates
    def route_graph(self, corp_sym: str) -> RouteGraph:
        """The map as the router sees it for ``corp_sym`` (titles may add stations)."""
        from .router_graph import build_graph

        return build_graph(self, corp_sym)

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Any:
        from .rounds import AuctionRound

        return AuctionRound(self)

    def new_stock_round(self) -> Any:
        from .rounds import StockRound

        return StockRound(self)

    def next_round(self) -> None:
        """Called when the current round has finished."""
        from .rounds import AuctionRound, StockRound

        r = self.round
        self.on_round_end(r)
        ids = [p.id for p in self.players]
        if isinstance(r, AuctionRound) and self.AUCTION_PRIORITY_FROM_TURN:
            # 18xx.games: the player whose turn to bid or pass would come next starts the stock
            # round (the turn order does not move while a company is auctioned)
            self.priority = ids.index(r.current)
        elif isinstance(r, (AuctionRound, StockRound)) and r.last_to_act is not None:
            self.priority = (ids.index(r.last_to_act) + 1) % len(ids)
        if isinstance(r, AuctionRound):
            self.round = self.new_stock_round()
        elif isinstance(r, StockRound):
            self.finish_stock_round()
            if self.check_game_end("stock"):
                return
            self.round_num = 1
            self.round = self.new_operating_round(1)
        else:
            if self.check_game_end("operating"):
                return
            if self.round_num < self.operating_rounds_in_set:
                self.round_num += 1
                self.round = self.new_operating_round(self.round_num)
            else:
                self.turn += 1
                self.round_num = 1
                self.round = self.new_stock_round()
        self.round.start()

    # A title that sets this ends the game ("dnf") when a round ends at this turn or later, as
    # 18xx.games does at turn 100 (rounds in which nobody can act pass by themselves until then).
    MAX_TURN: int | None = None

    def advance_rounds(self) -> None:
        """Move on while rounds end without anyone able to act. Without ``MAX_TURN``, a full
        stock round plus its operating rounds in which nobody can do anything twice in a row is
        a stalled game (no money and no corporation able to operate): it ends rather than loop
        forever."""
        from .rounds import StockRound

        empty_srs = 0
        while self.round.finished() and not self.finished:
            if self.MAX_TURN is not None:
                if self.turn >= self.MAX_TURN:
                    self.log.append(f"-- Turn {self.turn}: the game ends --")
                    self.end_game("dnf")
                    return
                self.next_round()
                continue
            was_sr = isinstance(self.round, StockRound)
            acted = getattr(self.round, "last_to_act", None) is not None
            self.next_round()
            if was_sr:
                empty_srs = 0 if acted else empty_srs + 1
                if empty_srs >= 3:
                    self.log.append("-- Nobody can act any more: the game ends --")
                    self.end_game("stalled")
                    return

    @property
    def operating_rounds_in_set(self) -> int:
        return self._or_set_size

    _or_set_size = 1

    def finish_stock_round(self) -> None:
        """Sold-out corporations rise one space; the OR set size is fixed for this set."""
        sold_out = [c for c in self.corporations.values()
                    if c.ipoed and not c.closed and c.price and self.player_percent(c.sym) >= 100]
        for corp in sorted(sold_out, key=self.operating_sort_key):
            self.move_price(corp, "up")
        self._or_set_size = self.phase["operating_rounds"]

    @staticmethod
    def operating_sort_key(c: Corporation) -> tuple[int, int, int]:
        """Higher price first, then further right, then earlier arrival on the space."""
        cell = c.price
        if cell is None:
            return (1, 0, 0)
        pos = cell.corporations.index(c.sym) if c.sym in cell.corporations else 99
        return (-cell.price, -cell.col, pos)

    def move_price(self, corp: Corporation, direction: str) -> None:
        cell = corp.price
        if cell is None:
            return
        m = self.market
        target = {"right": m.right_of, "left": m.left_of, "up": m.up_of, "down": m.down_of}[direction](cell)
        corp.price = m.move(corp.sym, cell, target)

    def check_game_end(self, after: str) -> bool:
        if self.game_end_triggered == "bank" and after == "operating" and \
                self.round_num >= self.operating_rounds_in_set:
            self.end_game("bank")
            return True
        return False

    def bank_broken(self) -> None:
        if self.game_end_triggered is None:
            self.game_end_triggered = "bank"
            self.log.append("-- The bank has broken: the game ends after this set of operating rounds --")

    def end_game(self, reason: str) -> None:
        self.finished = True
        self.end_reason = reason
        self.log.append(f"-- Game over: {reason} --")

    # ------------------------------------------------------------------ values
    def player_value(self, player: Player) -> int:
        value = player.cash
        for s in self.shares.values():
            if s.owner == player.id:
                value += self.share_price_value(s)
        value += sum(self.companies[c].value for c in player.companies if not self.companies[c].closed)
        return int(value)

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

    # ------------------------------------------------------------------ processing
    def process(self, action: A.Action, *, safe: bool = True) -> None:
        """Apply ``action``; on :class:`GameError` the state is left exactly as it was
        (when ``safe``; replay of a trusted log passes ``safe=False`` for speed).

        Rollback: the state is saved (pickled) before the action, and a rejected action restores
        it. A game that changes only through this method (no positions set by hand, like the
        bot's live games) may set ``checkpoint_every`` to N > 1: its state is then saved only
        every N actions, and a rejected action restores the last save and replays the actions
        processed since (``action_log``)."""
        if not safe:
            self._process_with_autos(action)
            return
        mark = len(self.action_log)
        saved = self.__dict__.get("_checkpoint")
        if self.checkpoint_every <= 1 or saved is None or not 0 <= mark - saved[0] < self.checkpoint_every:
            self._checkpoint = (mark, self._snapshot())
        try:
            self._process_with_autos(action)
        except GameError:
            self._rollback(mark)
            raise
        except Exception as exc:  # an engine bug must not corrupt a live game either
            self._rollback(mark)
            raise GameError(f"Internal error while processing {action.type}: {exc}") from exc

    def _process_with_autos(self, action: A.Action) -> None:
        """An action and the automatic actions recorded with it (programmed moves that
        fired); destination checks are applied by the title from the recorded list."""
        self._process(action)
        generated = list(self.auto_done)
        recorded = [a for a in action.auto_actions if a.type != "destination_connection"]
        for auto in recorded:
            self._process(auto)
        if self.live and not recorded:
            generated += self._run_programs()
        self.record(action, generated)
        self.auto_done = generated

    def _run_programs(self) -> list[A.Action]:
        """Carry out programmed stock-round moves for whoever is to act (live play only)."""
        from .programs import programmed_action

        done: list[A.Action] = []
        for _ in range(4 * len(self.players) + 4):
            auto = programmed_action(self)
            if auto is None:
                break
            self._process(auto)
            done.append(auto)
            done.extend(self.auto_done)
        return done

    def record(self, action: A.Action, generated: list[A.Action]) -> None:
        """Keep the processed action for export, with the automatic actions 18xx.games needs
        to replay it (our computed destination checks) when the action did not carry them."""
        data = action.to_dict()
        data["id"] = len(self.action_log) + 1
        if generated and not any(a.type == "destination_connection" for a in action.auto_actions):
            data.setdefault("auto_actions", []).extend(a.to_dict() for a in generated)
        self.action_log.append(data)

    # not pickled: the title data, the save itself, and the log (append-only: cut on restore)
    _STATE_SKIP = ("data", "_checkpoint", "action_log")
    checkpoint_every = 1

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        memo[id(self.data)] = self.data
        for k, v in self.__dict__.items():
            if k != "_checkpoint":  # a copy saves its own state when it first needs to
                clone.__dict__[k] = v if k == "data" else copy.deepcopy(v, memo)
        return clone

    def _snapshot(self) -> bytes:
        # the game itself and its title data stay shared: objects that point back to the game
        # (rounds, steps) must keep pointing at this very game after a restore
        keep = {k: v for k, v in self.__dict__.items() if k not in self._STATE_SKIP}
        buf = io.BytesIO()
        _StatePickler(buf, self).dump(keep)
        return buf.getvalue()

    def _rollback(self, mark: int) -> None:
        """Back to the state before ``action_log[mark]``: the last save, then the actions since."""
        at, saved = self._checkpoint
        log = self.action_log
        state = _StateUnpickler(io.BytesIO(saved), self).load()
        for key in [k for k in self.__dict__ if k not in self._STATE_SKIP]:
            del self.__dict__[key]
        self.__dict__.update(state)
        self.action_log = log[:at]
        live, self.live = self.live, False  # programmed moves come from the record
        try:
            for raw in log[at:mark]:
                self._process_with_autos(A.Action.from_dict(raw))
        finally:
            self.live = live

    def _process(self, action: A.Action) -> None:
        self.recorded_auto = {a.type: a for a in action.auto_actions}
        self.auto_done: list[A.Action] = []
        if isinstance(action, A.Message):
            return
        if isinstance(action, (A.ProgramBuyShares, A.ProgramSharePass, A.ProgramDisable)):
            self.set_program(action)
            return
        if self.finished:
            raise GameError("The game is over")
        if isinstance(action, A.EndGame):
            self.end_game("manually_ended")
            return
        self.round.process(action)
        self.action_count += 1
        self.after_action(action)
        if self.end_pending and not self.finished:
            # an end that takes effect once the action is through (a bankruptcy: the round has
            # already moved on to whoever is next, as on 18xx.games)
            self.end_game(self.end_pending)
            return
        self.advance_rounds()

    def after_action(self, action: A.Action) -> None:
        pass

    def turn_cut_short(self, corp: Corporation) -> None:
        """The operating corporation closed during its own turn (titles react)."""

    def round_key(self) -> tuple[Any, ...]:
        """Identifies the current round (stable across state snapshots)."""
        return (self.turn, self.round.name if self.round else "", self.round_num)

    def set_program(self, action: A.Action) -> None:
        """Record (or cancel) a player's programmed stock-round move; allowed any time."""
        if action.entity not in self.player_by_id:
            raise GameError("Only players can program moves")
        if isinstance(action, A.ProgramDisable):
            self.programs.pop(action.entity, None)
            self.program_marks.pop(action.entity, None)
        else:
            self.programs[action.entity] = action
            rnd = self.round
            self.program_marks[action.entity] = (self.round_key(), getattr(rnd, "sales", 0))

    # stock round hooks (titles override)
    def exempt_from_forced_sale(self, pid: str) -> bool:
        """True when ``pid`` need not sell first although over a limit (a title's own rule
        governs their turn)."""
        return False

    def restrict_stock_actions(self, rnd: Any, pid: str, actions: list[str]) -> list[str]:
        return actions

    def stock_turn_stuck(self, rnd: Any, pid: str) -> bool:
        """True when ``pid`` has no action but may not simply pass (the title ends the game
        or otherwise resolves it); the turn then does not move on."""
        return False

    def buy_share_override(self, rnd: Any, pid: str, share: Share) -> bool:
        return False

    # Read by render: title hooks with neutral defaults
    HAS_LOANS = False  # corporations may take loans (the status shows a Loans column)
    IPO_NAME = "IPO"  # what the title calls a corporation's unsold shares
    AXES: Axes | None = None  # which part of a hex id is x when not 18xx.games' default (no title sets it)

    def destination_goals(self) -> dict[str, list[str]]:
        """``{corp sym: goal hex ids}`` of every corporation the title gives a destination."""
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


class _StatePickler(pickle.Pickler):
    """Pickles a game's state; the game itself and modules (title data) by reference."""

    def __init__(self, file: io.BytesIO, game: Game):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.dispatch_table = {**copyreg.dispatch_table, ModuleType: _module_ref, type(game): _game_ref}


class _StateUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, game: Game):
        super().__init__(file)
        self.game = game

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_this_game":
            return lambda: self.game
        return super().find_class(module, name)


def _this_game() -> Game:
    raise RuntimeError("stands for the game whose state is being restored (_StateUnpickler)")


def _game_ref(game: Game) -> tuple[Any, ...]:
    return _this_game, ()


def _module_ref(module: ModuleType) -> tuple[Any, ...]:
    return importlib.import_module, (module.__name__,)


def _first(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return value[0] if value else None
    return value

