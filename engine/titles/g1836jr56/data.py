"""Static data for 1836Jr56 (David G. D. Hecht): the 1856 rules on the 1836Jr Benelux map.

Source of the facts: the 18xx.games reference implementation, GitHub ``tobymao/18xx``,
``lib/engine/game/g_1836_jr56/`` (``game.rb``, ``entities.rb``, ``map.rb``, ``meta.rb``,
``step/train.rb``, ``step/buy_train.rb``).  In 18xx.games the 1836Jr56 game class is a
subclass of the 1856 one, so every rule constant 1856 overrides also applies here; those
are repeated below (marked "inherited from 1856") so that this module gives effective values.
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

# ---------------------------------------------------------------------------------------
# Stock market (inherited from 1856: game.rb does not override MARKET)
# ---------------------------------------------------------------------------------------

MARKET = [
    ["70", "75", "80", "90", "100p", "110", "125", "150", "175", "200", "225", "250", "275", "300",
     "325", "350", "375", "400", "425", "450"],
    ["65", "70", "75", "80", "90p", "100", "110", "125", "150", "175", "200", "225", "250", "275",
     "300", "325", "350", "375", "400", "425"],
    ["60", "65", "70", "75", "80p", "90", "100", "110", "125", "150", "175", "200", "225", "250",
     "275"],
    ["55", "60", "65", "70", "75p", "80", "90", "100", "110", "125", "150", "175", "200"],
    ["50y", "55", "60", "65", "70p", "75", "80", "90", "100", "110", "125"],
    ["45y", "50y", "55", "60", "65p", "70", "75", "80", "90"],
    ["40o", "45y", "50y", "55", "60", "65", "70"],
    ["35o", "40o", "45y", "50y", "55", "60"],
    ["30o", "35o", "40o", "45y", "50y"],
    ["0c", "30o", "35o", "40o", "45y"],
    ["0c", "0c", "30o", "35o", "40o"],
]

# engine/share_price.rb TYPE_MAP + base.rb CERT_LIMIT_TYPES (both 'y' and 'o' are cert-limit free).
MARKET_ZONES = {
    "p": "par: a par price (base colour red)",
    "y": "no_cert_limit: yellow zone, shares do not count toward the certificate limit",
    "o": "unlimited: orange zone, shares do not count toward the certificate limit and may be held above 60%",
    "c": "close: the corporation closes when its price reaches this cell (not the MESS, which may not close)",
}
# Summaries: par 65-100 F (same as PAR_PRICES).  The .de summary says "no player may hold more
# than 60%, without exception"; 18xx.games keeps 1856's orange 'o' (unlimited) cells.
PAR_PRICES = [100, 90, 80, 75, 70, 65]

CERT_LIMIT_TYPES = ["multiple_buy", "unlimited", "no_cert_limit"]
MULTIPLE_BUY_TYPES = ["multiple_buy"]

# ---------------------------------------------------------------------------------------
# Rule constants: 1836Jr56's own overrides, then those inherited from 1856's game.rb
# ---------------------------------------------------------------------------------------

SELL_BUY_ORDER = "sell_buy_sell"  # own (summary: "verkaufen, ein Zertifikat kaufen und wieder verkaufen")
TILE_RESERVATION_BLOCKS_OTHERS = "always"  # own (older versions: true)

SELL_MOVEMENT = "down_per_10"  # inherited from 1856
CAPITALIZATION = "full"  # inherited from 1856 (per corporation escrow/incremental/full at par)
MUST_SELL_IN_BLOCKS = True  # inherited from 1856 (newest)
HOME_TOKEN_TIMING = "operate"  # inherited from 1856
NATIONAL_TRAIN_LIMIT_INCREASE = 99  # entities.rb: MESS train_limit increase 99 until its discard
NETWORK_WALK = "route_legal"  # inherited from 1856: a network reaches what a walk using no track twice reaches
ALLOW_REMOVING_TOWNS = True  # inherited from 1856
EBUY_FROM_OTHERS = "never"  # inherited from 1856; summary: forced purchase only from the bank
RIGHT_COST = 50  # inherited from 1856 (no tunnel/bridge rights exist in 1836Jr56)
NATIONAL_MAX_SHARE_PERCENT_AWARDED = 200  # inherited from 1856

# ---------------------------------------------------------------------------------------
# Loans, national (MESS), percent to operate (inherited 1856 methods unless noted)
# ---------------------------------------------------------------------------------------

LOAN_VALUE = 100
INTEREST_RATE = 10
NUM_LOANS = 110
MAX_LOANS = "num_player_shares"
END_GAME_LOAN_PENALTY_PER_SHARE = 10

NATIONAL = "MESS"
NATIONAL_TOKEN_PRICE = 100
NATIONAL_TOKEN_LIMIT = 10
MAX_NATIONAL_SHARES = 20
ULTIMATE_TRAIN_PRICE = 1100  # inherited method value (D price), also used with 8-trains
ULTIMATE_TRAIN_TRADE_IN = 750

# step/train.rb (1836Jr56's own LAST_TRAINS): starts at 20%, +10 when the last 2/3/4/5 train
# is bought from the bank, never above 60.
PERCENT_TO_OPERATE_START = 20
PERCENT_TO_OPERATE_STEP = 10
PERCENT_TO_OPERATE_MAX = 60
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
RDP_COMPANY = "RdP"

PORT_OFFBOARD_BONUS = {"green": 20, "brown": 30}
PORT_MIN_STOPS = 3

# ---------------------------------------------------------------------------------------
# Phases and trains
# ---------------------------------------------------------------------------------------

PHASES = [
    {
        "name": "2",
        "train_limit": 4,
        "tiles": ["yellow"],
        "status": ["escrow", "facing_2"],
        "operating_rounds": 1,
    },
    {
        "name": "3",
        "on": "3",
        "train_limit": 4,
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
        "status": ["escrow", "facing_3", "can_buy_companies"],
    },
    {
        "name": "4",
        "on": "4",
        "train_limit": 3,
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
        "status": ["escrow", "facing_4", "can_buy_companies"],
    },
    {
        "name": "5",
        "on": "5",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown"],
        "status": ["incremental", "facing_5"],
        "operating_rounds": 3,
    },
    {
        "name": "6",
        "on": "6",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown", "gray"],
        "status": ["fullcap", "facing_6", "upgradable_towns", "no_loans"],
        "operating_rounds": 3,
    },
    {
        "name": "8",
        "on": "8",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown", "gray", "black"],
        "status": ["fullcap", "facing_6", "upgradable_towns", "no_loans"],
        "operating_rounds": 3,
    },
]

TRAINS = [
    {"name": "2", "distance": 2, "price": 100, "rusts_on": "4", "num": 5},
    {"name": "3", "distance": 3, "price": 225, "rusts_on": "6", "num": 4},
    {
        "name": "4",
        "distance": 4,
        "price": 350,
        "rusts_on": "8",  # 'D' with diesel_variant
        "num": 3,
        "events": [{"type": "no_more_escrow_corps", "when": 3}],
    },
    {
        "name": "5",
        "distance": 5,
        "price": 550,
        "num": 2,
        "events": [
            {"type": "close_companies"},
            {"type": "no_more_incremental_corps", "when": 2},
        ],
    },
    {
        "name": "6",
        "distance": 6,
        "price": 700,
        "num": 2,
        "events": [{"type": "nationalization"}, {"type": "remove_tokens"}],
    },
    {
        "name": "8",
        "distance": 8,
        "price": 1000,
        "num": 5,
        "available_on": "6",
        "discount": {"4": 350, "5": 350, "6": 350},
    },
]

# Optional rule 'diesel_variant': the 8-train and phase 8 are replaced by the D-train
# (1100 F, 22 of them, same 350 F trade-in) and phase D, and 4-trains rust on 'D'.
# meta.rb's description says "$300 trade in discount", but the train data (and both rule
# summaries) use 350: we keep 350.
OPTIONAL_RULE_TRAINS = {
    "diesel_variant": [
        {"name": "2", "distance": 2, "price": 100, "rusts_on": "4", "num": 5},
        {"name": "3", "distance": 3, "price": 225, "rusts_on": "6", "num": 4},
        {
            "name": "4",
            "distance": 4,
            "price": 350,
            "rusts_on": "D",
            "num": 3,
            "events": [{"type": "no_more_escrow_corps", "when": 3}],
        },
        {
            "name": "5",
            "distance": 5,
            "price": 550,
            "num": 2,
            "events": [
                {"type": "close_companies"},
                {"type": "no_more_incremental_corps", "when": 2},
            ],
        },
        {
            "name": "6",
            "distance": 6,
            "price": 700,
            "num": 2,
            "events": [{"type": "nationalization"}, {"type": "remove_tokens"}],
        },
        {
            "name": "D",
            "distance": 999,
            "price": 1100,
            "num": 22,
            "available_on": "6",
            "discount": {"4": 350, "5": 350, "6": 350},
        },
    ],
}
OPTIONAL_RULE_PHASES = {
    "diesel_variant": [
        {
            "name": "2",
            "train_limit": 4,
            "tiles": ["yellow"],
            "status": ["escrow", "facing_2"],
            "operating_rounds": 1,
        },
        {
            "name": "3",
            "on": "3",
            "train_limit": 4,
            "tiles": ["yellow", "green"],
            "operating_rounds": 2,
            "status": ["escrow", "facing_3", "can_buy_companies"],
        },
        {
            "name": "4",
            "on": "4",
            "train_limit": 3,
            "tiles": ["yellow", "green"],
            "operating_rounds": 2,
            "status": ["escrow", "facing_4", "can_buy_companies"],
        },
        {
            "name": "5",
            "on": "5",
            "train_limit": 2,
            "tiles": ["yellow", "green", "brown"],
            "status": ["incremental", "facing_5"],
            "operating_rounds": 3,
        },
        {
            "name": "6",
            "on": "6",
            "train_limit": 2,
            "tiles": ["yellow", "green", "brown", "gray"],
            "status": ["fullcap", "facing_6", "upgradable_towns", "no_loans"],
            "operating_rounds": 3,
        },
        {
            "name": "D",
            "on": "D",
            "train_limit": 2,
            "tiles": ["yellow", "green", "brown", "gray", "black"],
            "status": ["fullcap", "facing_6", "upgradable_towns", "no_loans"],
            "operating_rounds": 3,
        },
    ],
}

# Inherited from 1856 (EVENTS_TEXT / STATUS_TEXT), 'CGR' read as the MESS.
EVENTS_TEXT = {
    "close_companies": ["Companies Close", "All companies unless otherwise noted are discarded from the game"],
    "nationalization": [
        "CGR Formation",
        "Corporations must pay back loans or forcefully be merged into the CGR. Presidents may contribute "
        "personal cash but may not sell shares. CGR does not form if all corporations pay back their loans",
    ],
    "remove_tokens": ["Remove Port Token"],
    "no_more_escrow_corps": [
        "New Corporations are Incremental Cap",
        "Does not affect corporations which have already been parred",
    ],
    "no_more_incremental_corps": [
        "New Corporations are Full Cap",
        "Does not affect corporations which have already been parred",
    ],
}

# ---------------------------------------------------------------------------------------
# Private companies (entities.rb).  All close with the first 5-train (close_companies).
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Corporations (entities.rb).  Colours are given by name for B, GCL, Nord.
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Map (map.rb)
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Options (meta.rb)
# ---------------------------------------------------------------------------------------

OPTIONAL_RULES = [
    {
        "sym": "diesel_variant",
        "short_name": "Diesel variant",
        "desc": "Replaces 8-trains with $1100 Diesels (and $300 trade in discount)",
    },
]

# ---------------------------------------------------------------------------------------
# base.rb defaults that neither 1836Jr56 nor 1856 override (effective values).
# (Older 1836Jr56 versions set TRACK_RESTRICTION = :permissive; the newest does not.)
# ---------------------------------------------------------------------------------------

BASE_DEFAULTS_USED = {
    "GAME_END_CHECK": {"bankrupt": "immediate", "bank": "full_or"},
    "BANKRUPTCY_ALLOWED": True,
    "BANKRUPTCY_ENDS_GAME_AFTER": "one",
    "CERT_LIMIT_CHANGE_ON_BANKRUPTCY": False,
    "CERT_LIMIT_INCLUDES_PRIVATES": True,
    "PRESIDENT_SALES_TO_MARKET": False,
    "MULTIPLE_BUY_ONLY_FROM_MARKET": False,
    "MIN_BID_INCREMENT": 5,
    "MUST_BID_INCREMENT_MULTIPLE": False,
    "ONLY_HIGHEST_BID_COMMITTED": False,
    "TURN_SELL_LIMIT": None,
    "SELL_AFTER": "first",
    "POOL_SHARE_DROP": "none",
    "SOLD_OUT_INCREASE": True,
    "SOLD_OUT_TOP_ROW_MOVEMENT": "none",
    "NEXT_SR_PLAYER_ORDER": "after_last_to_act",
    "TRACK_RESTRICTION": "semi_restrictive",
    "EBUY_PRES_SWAP": True,
    "EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST": True,
    "MUST_EMERGENCY_ISSUE_BEFORE_EBUY": False,
    "EBUY_SELL_MORE_THAN_NEEDED": False,
    "EBUY_CAN_SELL_SHARES": True,
    "EBUY_OWNER_MUST_HELP": False,
    "EBUY_SELL_MORE_THAN_NEEDED_SETS_PURCHASE_MIN": False,
    "EBUY_CORP_LOANS_RECEIVERSHIP": False,
    "EBUY_CAN_TAKE_PLAYER_LOAN": False,
    "SOLD_SHARES_DESTINATION": "bank",
    "TOKEN_PLACEMENT_ON_TILE_LAY_ENTITY": "current_operator",
    "DISCARDED_TRAINS": "discard",
    "DISCARDED_TRAIN_DISCOUNT": 0,
    "CLOSED_CORP_TRAINS_REMOVED": True,
    "CLOSED_CORP_TOKENS_REMOVED": True,
    "CLOSED_CORP_RESERVATIONS_REMOVED": True,
    "MUST_BUY_TRAIN": "route",
    "ALLOW_TRAIN_BUY_FROM_OTHERS": True,
    "ALLOW_TRAIN_BUY_FROM_OTHER_PLAYERS": True,
    "ALLOW_OBSOLETE_TRAIN_BUY": False,
    "ALWAYS_BUY_TRAINS_AT_FACE_VALUE": False,
    "TILE_LAYS": [{"lay": True, "upgrade": True, "cost": 0}],
    "TILE_TYPE": "normal",
    "TILE_UPGRADES_MUST_USE_MAX_EXITS": [],
    "TILE_COST": 0,
    "IMPASSABLE_HEX_COLORS": ["blue", "gray", "red"],
    "MARKET_SHARE_LIMIT": 50,
    "ALL_COMPANIES_ASSIGNABLE": False,
    "OBSOLETE_TRAINS_COUNT_FOR_LIMIT": False,
    "CORPORATE_BUY_SHARE_SINGLE_CORP_ONLY": False,
    "CORPORATE_BUY_SHARE_ALLOW_BUY_FROM_PRESIDENT": False,
    "BUY_SHARE_FROM_OTHER_PLAYER": False,
    "VARIABLE_FLOAT_PERCENTAGES": False,
    "ALLOW_MULTIPLE_PROGRAMS": False,
    "GAME_END_LOCK_FIRST_REASON": False,
}
