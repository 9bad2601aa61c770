"""Static data for 1836Jr56 (David G. D. Hecht): the 1856 rules on the 1836Jr Benelux map.

Source of the facts: the 18xx.games reference implementation, GitHub ``tobymao/18xx``,
``lib/engine/game/g_1836_jr56/`` (``game.rb``, ``entities.rb``, ``map.rb``, ``meta.rb``,
``step/train.rb``, ``step/buy_train.rb``).  In 18xx.games the 1836Jr56 game class is a
subclass of the 1856 one, so every rule constant 1856 overrides also applies here: this module
takes those from 1856's data (``g1856.data``) and states only what 1836Jr56 changes.
Only data is transcribed (ids, numbers, names, tile DSL strings); Ruby symbols became
strings, Ruby hashes with symbol keys dicts with string keys.

Which version: the real games were replayed against tobymao/18xx at commit
111f7f698005a057d68877682486da3f1705e551 (2026-08-02).  The stored copies of ``game.rb``
differ; the newest ones (and the exported games in shared/fixtures: train ids ``2-0..2-4``,
``3-0..3-3``, ``4-0..4-2``, ``5-0..5-1``, ``D-0..``, phases 2/3/4/5/6/D) have no prime
trains: five 2s, four 3s, three 4s, two 5s, two 6s, five 8s (or D-trains with the
``diesel_variant`` option), percent-to-operate +10 when the last 2/3/4/5 leaves the bank.
Older stored versions had prime trains (2', 3', 4', 5'), ``CURRENCY_FORMAT_STR '%d F'``,
``TRACK_RESTRICTION = :permissive``, ``TILE_RESERVATION_BLOCKS_OTHERS = true``,
``BARRIE_HEX``/``LONDON_HEX``/``HAMILTON_HEX`` = I3/H6/E5, ``LAKE_HEXES = []``, red offboards
with ``terminal:1`` paths and impassable borders without ``color:blue``; we follow the
newest everywhere.

The rule summaries (shared/rules/1836Jr56.de.txt and .fr.txt) were compared; where they
disagree with 18xx.games, the 18xx.games value is kept and a comment says so.
"""

# The map and the entities live in their own modules; this module is the title's data as a whole.
import copy
from typing import Any

from ..g1856 import data as g1856
from ..g1856.data import (  # noqa: F401  (1856's, unchanged in 1836Jr56)
    ALLOW_REMOVING_TOWNS,
    CAPITALIZATION,
    CERT_LIMIT_TYPES,
    EBUY_FROM_OTHERS,
    END_GAME_LOAN_PENALTY_PER_SHARE,
    EVENTS_TEXT,
    HOME_TOKEN_TIMING,
    INTEREST_RATE,
    LOAN_VALUE,
    MARKET,
    MAX_LOANS,
    MAX_NATIONAL_SHARES,
    MULTIPLE_BUY_TYPES,
    MUST_SELL_IN_BLOCKS,
    NATIONAL_MAX_SHARE_PERCENT_AWARDED,
    NATIONAL_TOKEN_LIMIT,
    NATIONAL_TOKEN_PRICE,
    NETWORK_WALK,
    NUM_LOANS,
    PAR_PRICES,
    PERCENT_TO_OPERATE_MAX,
    PERCENT_TO_OPERATE_START,
    PERCENT_TO_OPERATE_STEP,
    RIGHT_COST,
    SELL_MOVEMENT,
    ULTIMATE_TRAIN_PRICE,
    ULTIMATE_TRAIN_TRADE_IN,
)
from .entities import (  # noqa: F401
    COMPANIES,
    CORPORATIONS,
    DESTINATIONS,
)
from .map import (  # noqa: F401
    BARRIE_HEX,
    BROWN_OO_TILES,
    HAMILTON_HEX,
    HEXES,
    LAKE_HEXES,
    LAYOUT,
    LOCATION_NAMES,
    LONDON_HEX,
    PORT_HEXES,
    PORT_OFFBOARD_HEXES,
    TILES,
)

TITLE = "1836Jr56"

# Ruby: CURRENCY_FORMAT_STR = '%s F'
CURRENCY_FORMAT = "{} F"

BANK_CASH = 6000

STARTING_CASH = {2: 450, 3: 300, 4: 225}

# cert_limit is overridden: "cert limit isn't dynamic in 1836jr56" (no post-nationalization table).
CERT_LIMIT = {2: 20, 3: 13, 4: 10}
CERT_LIMIT_DYNAMIC = False

# meta.rb: PLAYER_RANGE = [2, 4]
MIN_PLAYERS = 2
MAX_PLAYERS = 4

DEV_STAGE = "beta"
DEPENDS_ON = "1856"

# The market is 1856's; its closing cells spare the national, here the MESS.  Summaries: par
# 65-100 F (same as PAR_PRICES).  The .de summary says "no player may hold more than 60%, without
# exception"; 18xx.games keeps 1856's orange 'o' (unlimited) cells.
MARKET_ZONES = {zone: text.replace("CGR", "MESS") for zone, text in g1856.MARKET_ZONES.items()}

# ---------------------------------------------------------------------------------------
# Rule constants 1836Jr56 changes
# ---------------------------------------------------------------------------------------

SELL_BUY_ORDER = "sell_buy_sell"  # own (summary: "verkaufen, ein Zertifikat kaufen und wieder verkaufen")
TILE_RESERVATION_BLOCKS_OTHERS = "always"  # own (older versions: true)
NATIONAL_TRAIN_LIMIT_INCREASE = 99  # entities.rb: MESS train_limit increase 99 until its discard
NATIONAL = "MESS"

# step/train.rb (1836Jr56's own LAST_TRAINS): starts at 20%, +10 when the last 2/3/4/5 train
# is bought from the bank, never above 60.
PERCENT_TO_OPERATE_LAST_TRAINS = ["2-4", "3-3", "4-2", "5-1"]

# step/buy_train.rb: a corporation may buy only one train of each type from the bank per turn
# (also in shared/rules/README.md).
ONE_DEPOT_TRAIN_PER_TYPE_PER_TURN = True

# RdP (Régie des Postes) marker: +20 F to every revenue location in the assigned hex for the
# owning corporation (1856's port mechanism, game.rb revenue_for).  Like 1856's port marker
# it is removed by the 'remove_tokens' event of the first 6-train (summaries: "für immer" /
# "pour toujours" in the private's text, but also "entfernt Marker vom Plan" at the 6-train).
RDP_BONUS = 20
PORT_BONUS = RDP_BONUS  # the port marker's bonus as the engine reads it (engine.rules.Rules.port_bonus)
PORT_MARKER = "+20 token"  # RdP's own words ('the +"20" token'); it marks no port
RDP_COMPANY = "RdP"

PORT_OFFBOARD_BONUS = {"green": 20, "brown": 30}
PORT_MIN_STOPS = 3

# ---------------------------------------------------------------------------------------
# Phases and trains: 1856's with one train fewer of each of the first four kinds (five 2s,
# four 3s, three 4s, two 5s); the events of a kind's last train move with it.  The base game
# is 1856's eight_train_variant with five 8-trains (phase 8); the 'diesel_variant' option is
# 1856's base game (phase D, 22 D-trains at 1100 F, 350 F trade-in; 4-trains rust on D).
# meta.rb's description says "$300 trade in discount", but the train data (and both rule
# summaries) use 350: we keep 350.
# ---------------------------------------------------------------------------------------

_FEWER = {"2": 5, "3": 4, "4": 3, "5": 2, "8": 5, "D": 22}  # (1856's 8s and Ds are unlimited)


def _fewer(trains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = copy.deepcopy(trains)
    for train in out:
        if train["name"] in _FEWER:
            train["num"] = _FEWER[train["name"]]
            for event in train.get("events", []):
                if "when" in event:  # on the kind's last train
                    event["when"] = train["num"]
    return out


PHASES = copy.deepcopy(g1856.OPTIONAL_RULE_PHASES["eight_train_variant"])
TRAINS = _fewer(g1856.OPTIONAL_RULE_TRAINS["eight_train_variant"])
OPTIONAL_RULE_PHASES = {"diesel_variant": copy.deepcopy(g1856.PHASES)}
OPTIONAL_RULE_TRAINS = {"diesel_variant": _fewer(g1856.TRAINS)}

# ---------------------------------------------------------------------------------------
# Options (meta.rb)
# ---------------------------------------------------------------------------------------

OPTIONAL_RULES = [
    {
        "sym": "diesel_variant",
        "short_name": "Diesel variant",
        # meta.rb: "$1100 Diesels (and $300 trade in discount)": in this game's florins, and the
        # trade-in its trains give (350, above)
        "desc": "Replaces 8-trains with 1100 F Diesels (and 350 F trade in discount)",
    },
]

# base.rb defaults that neither 1836Jr56 nor 1856 override (effective values): 1856's, less the
# two constants 1836Jr56 sets itself.  (Older 1836Jr56 versions set TRACK_RESTRICTION =
# :permissive; the newest does not.)
BASE_DEFAULTS_USED = {k: v for k, v in g1856.BASE_DEFAULTS_USED.items()
                      if k not in ("SELL_BUY_ORDER", "TILE_RESERVATION_BLOCKS_OTHERS")}
