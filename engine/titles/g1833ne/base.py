"""1833NE's base: the title's constants, board and set-up and its two-sided train cards, on
which its rule layers stack (finance, emergency, trains, routes, stations, track, companies,
sequence; :class:`engine.titles.g1833ne.game.G1833NE` on top)."""

from __future__ import annotations

import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ...entities import Corporation, Train
from ...errors import ILLEGAL_ROUTE, GameError
from ...game import Game
from ...map.board import Board
from . import data as g1833ne_data
from . import provisional as provisional_rules
from . import takeover as choice_refinements

if TYPE_CHECKING:
    from .game import G1833NE


class NEBoard(Board):
    """The 1833NE board: P4/P6 let their owner build and run from an off-board "as if it had
    a marker there", so those off-boards start the owner's track network too."""

    def connectivity(self, sym: str) -> tuple[dict[str, set[int]], set[tuple[str, int]]]:
        extra = cast("G1833NE", self.game).virtual_stations(sym)  # only G1833NE builds this board
        if not extra:
            return super().connectivity(sym)
        key = ("conn", sym)
        if key in self._cache:
            cached: tuple[dict[str, set[int]], set[tuple[str, int]]] = self._cache[key]
            return cached
        starts = [(h.id, ci) for h in self.hexes.values() for ci, slots in h.tokens.items() if sym in slots]
        starts += extra
        hex_edges: dict[str, set[int]] = {}
        for hid, _ in starts:
            hex_edges.setdefault(hid, set()).update(self.hexes[hid].neighbors.keys())
        nodes = self._walk(starts, sym, hex_edges)
        self._cache[key] = (hex_edges, nodes)
        return hex_edges, nodes


# The two-sided train cards: the sides a card offers, what a side counts on a route.
#
# A card is bought as one side (``2`` or ``2+1``, ``3/5`` or ``2+2``, ...) and keeps it.  Sides:
#
# * plain ``n``: visits at most n stops, all counted;
# * ``N/M``: visits at most M stops and counts the best N, at least one of them a station of
#   the corporation (rules summary: "besucht bis zu M Orte und zählt N davon (mindestens einen
#   mit eigenem Marker)");
# * ``N+s``: counts N stops plus up to s towns (18xx.games: a town group of s and a group of
#   N of any kind; every stop visited is counted).


@dataclass(frozen=True)
class Side:
    """One side of a card."""

    name: str
    price: int
    kind: str  # "plain", "n_of_m" or "n_plus_s"
    n: int  # stops counted (plain: stops visited)
    m: int  # stops visited at most (N+s: N + s)
    towns: int = 0  # s of an N+s side

    @property
    def max_stops(self) -> int:
        return self.m


def side_from_spec(name: str, price: int, distance: Any) -> Side:
    """Build a side from the 18xx.games ``distance`` (an int or a list of node groups)."""
    if isinstance(distance, int):
        return Side(name, price, "plain", distance, distance)
    groups = list(distance)
    if len(groups) == 1:
        g = groups[0]
        return Side(name, price, "n_of_m", int(g["pay"]), int(g["visit"]))
    town = next(g for g in groups if g["nodes"] == ["town"])
    other = next(g for g in groups if g["nodes"] != ["town"])
    return Side(
        name, price, "n_plus_s", int(other["pay"]), int(other["pay"]) + int(town["pay"]), int(town["pay"])
    )


def card_sides(spec: dict[str, Any]) -> list[Side]:
    """Both sides of a card (the primary side first)."""
    out = [side_from_spec(spec["name"], spec["price"], spec["distance"])]
    for v in spec.get("variants", []):
        out.append(side_from_spec(v["name"], v["price"], v["distance"]))
    return out


def count_revenue(side: Side, values: list[int], kinds: Sequence[str], tokened: list[bool]) -> int:
    """Revenue of the stops of one route for ``side`` (bonuses not included).

    ``values``/``kinds``/``tokened`` describe the visited stops.  Raises GameError when the
    side cannot run the route."""
    k = len(values)
    if k > side.m:
        raise GameError(f"a {side.name} train visits at most {side.m} stops, not {k}", ILLEGAL_ROUTE)
    if side.kind == "plain":
        return sum(values)
    if side.kind == "n_plus_s":
        big = sum(1 for kind in kinds if kind != "town")
        if big > side.n:
            raise GameError(f"a {side.name} train visits at most {side.n} cities and off-boards", ILLEGAL_ROUTE)
        return sum(values)
    # N/M: the best N, one of which must be a station (the route has one: it is legal)
    if k <= side.n:
        return sum(values)
    order = sorted(range(k), key=lambda i: -values[i])
    best = order[: side.n]
    if any(tokened[i] for i in best) or not any(tokened):
        return sum(values[i] for i in best)
    station = max((i for i in range(k) if tokened[i]), key=lambda i: values[i])
    return sum(values[i] for i in order[: side.n - 1]) + values[station]


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


class G1833NEBase(Game):
    """1833NE's constants and set-up."""

    # No MAX_TURN (Game's None): a game nobody can move in ends as "stalled".
    TITLE = "1833NE"
    BANKRUPTCY_MEANS = "you leave the game; it goes on while two players are left"
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

    def game_phases(self) -> list[dict[str, Any]]:
        """The phases; in the takeover game with its train limits (summary: "im Takeover-Spiel:
        3 in I, 3 in II, 2 in III und 1 in IV-V"), so the phase's log line and the status picture
        give the limit the game applies."""
        phases = super().game_phases()
        if "takeover_game" in self.optional_rules:
            limits = self.data.TAKEOVER_TRAIN_LIMITS
            phases = [{**p, "train_limit": limits[p["name"]]} for p in phases]
        return phases

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
        self.set_up_cards()
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

    def set_up_cards(self) -> None:
        """Each train is a card with two sides: it shows the first side and the cheaper price
        until it is bought as one of them; no train rusts (cards become obsolete instead)."""
        specs = {t["name"]: t for t in self.game_trains()}
        for t in self.trains.values():
            card = t.id.rsplit("-", 1)[0]
            self.card_of[t.id] = card
            self.sides[t.id] = card_sides(specs[card])
            t.distance = self.sides[t.id][0].max_stops
            t.price = min(s.price for s in self.sides[t.id])
            t.rusts_on = None
            t.events = [e for e in t.events]

    def train_side(self, train: Train) -> Side:
        return self.chosen.get(train.id) or self.sides[train.id][0]

    def side_prices(self, train: Train) -> list[int]:
        return sorted(s.price for s in self.sides[train.id])

    def variable_homes(self, corp: Corporation) -> list[tuple[str, int, int]]:
        from .takeover import variable_homes

        return variable_homes(cast("G1833NE", self), corp)

    def close_corporation(self, corp: Corporation) -> None:
        """A corporation closes (its price reached $0, a takeover, a bankruptcy): the sequence
        layer's (:meth:`G1833NESequence.close_corporation`); declared here for the layers
        below it that close corporations."""
        raise NotImplementedError
