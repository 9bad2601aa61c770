"""Static data for 1856 (Ontario, Canada; Bill Dixon, Mayfair 1995).

Source of the facts: the 18xx.games reference implementation, GitHub ``tobymao/18xx``,
``lib/engine/game/g_1856/`` (``game.rb``, ``entities.rb``, ``map.rb``, ``meta.rb``,
``step/train.rb``) and ``lib/engine/game/base.rb`` for the defaults.  Only data is
transcribed here (ids, numbers, names, the tile DSL strings); Ruby symbols became strings
and Ruby hashes with symbol keys became dicts with string keys.

Which version: the real games we replay were replayed against tobymao/18xx at commit
111f7f698005a057d68877682486da3f1705e551 (2026-08-02).  The stored copies of ``game.rb``
differ; the newest ones (and the exported games in shared/fixtures, whose train ids run
``2-0..2-5``, ``3-0..3-4``, ``4-0..4-3``, ``5-0..5-2`` and whose phases are only
2/3/4/5/6/D) have **no prime trains** (no 2', 3', 4', 5'): six 2s, five 3s, four 4s,
three 5s, and the capitalization switches are events tied to the *last* 4 / 5 train
(``'when'``), the percent-to-operate rising by 10 when the last 2/3/4/5 train leaves the
bank.  Older stored versions had prime trains/phases, ``MUST_SELL_IN_BLOCKS = false``, no
``EBUY_FROM_OTHERS`` override, a phase D without black tiles, ``CURRENCY_FORMAT_STR
'$%d'``, ``LAKE_HEXES``/``BARRIE_HEX``/``LONDON_HEX`` constants and plain ``label=L``
lake hexes; we follow the newest version everywhere and keep the old constants below
where they still describe the map (marked).

The German rule summary (shared/rules/1856.de.txt, 18xx/PC, original rules) was compared;
where it disagrees with 18xx.games the 18xx.games value is kept and a comment says so.
"""

import copy
from typing import Any

# The map and the entities live in their own modules; this module is the title's data as a whole.
from .entities import (  # noqa: F401
    ALTERNATE_DESTINATIONS,
    COMPANIES,
    CORPORATIONS,
    DESTINATIONS,
)
from .map import (  # noqa: F401
    BARRIE_HEX,
    BRIDGE_TOKEN_HEX,
    BROWN_OO_TILES,
    HAMILTON_HEX,
    HEXES,
    LAKE_HEXES,
    LAYOUT,
    LOCATION_NAMES,
    LONDON_HEX,
    PORT_HEXES,
    TILES,
    TOWN_UPGRADES_IN_GRAY_PHASE,
    TUNNEL_TOKEN_HEX,
)

TITLE = "1856"

# Ruby: CURRENCY_FORMAT_STR = '$%s'  -> Python str.format template
CURRENCY_FORMAT = "${}"

BANK_CASH = 12_000

STARTING_CASH = {3: 500, 4: 375, 5: 300, 6: 250}

CERT_LIMIT = {3: 20, 4: 16, 5: 13, 6: 11}

# After the CGR forms (or fails to form, when the 6-train event finishes) the cert limit is
# looked up by the number of corporations still in the game (the CGR counts once it has
# formed; before that it does not), then by the number of players.
POST_NATIONALIZATION_CERT_LIMIT = {
    11: {3: 28, 4: 22, 5: 18, 6: 15},
    10: {3: 25, 4: 20, 5: 16, 6: 14},
    9: {3: 22, 4: 18, 5: 15, 6: 12},
    8: {3: 20, 4: 16, 5: 13, 6: 11},
    7: {3: 18, 4: 14, 5: 11, 6: 10},
    6: {3: 15, 4: 12, 5: 10, 6: 8},
    5: {3: 13, 4: 10, 5: 8, 6: 7},
    4: {3: 10, 4: 8, 5: 7, 6: 6},
    3: {3: 10, 4: 8, 5: 7, 6: 6},
    2: {3: 10, 4: 8, 5: 7, 6: 6},
    1: {3: 10, 4: 8, 5: 7, 6: 6},
}
# Older game.rb versions also named the pre-nationalization table (same values as CERT_LIMIT).
PRE_NATIONALIZATION_CERT_LIMIT = {3: 20, 4: 16, 5: 13, 6: 11}

# meta.rb: PLAYER_RANGE = [3, 6]
MIN_PLAYERS = 3
MAX_PLAYERS = 6

DEV_STAGE = "production"

# ---------------------------------------------------------------------------------------
# Stock market
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

# Letter suffixes used in MARKET (engine/share_price.rb TYPE_MAP, base.rb STOCKMARKET_COLORS /
# MARKET_TEXT / CERT_LIMIT_TYPES).  In 18xx.games both 'y' (no_cert_limit) and 'o'
# (unlimited) are in CERT_LIMIT_TYPES, so shares in either zone do not count toward the
# cert limit; 'o' additionally lets a player hold more than 60%.
MARKET_ZONES = {
    "p": "par: a par price (base colour red)",
    "y": "no_cert_limit: yellow zone, shares do not count toward the certificate limit",
    "o": "unlimited: orange zone, shares do not count toward the certificate limit and may be held above 60%",
    "c": "close: the corporation closes when its price reaches this cell (not the CGR, which may not close)",
}
# Summary (1856.de.txt) calls the >60% zone "braun" (brown); 18xx.games marks it 'o' (orange).

# The par prices are the 'p' cells of the 'p' column (100, 90, 80, 75, 70, 65).
PAR_PRICES = [100, 90, 80, 75, 70, 65]

# game.rb: SELL_MOVEMENT = :down_per_10  (one row down per full 10% sold)
SELL_MOVEMENT = "down_per_10"

# base.rb default types that don't count toward the cert limit / allow multiple buys.
CERT_LIMIT_TYPES = ["multiple_buy", "unlimited", "no_cert_limit"]
MULTIPLE_BUY_TYPES = ["multiple_buy"]

# ---------------------------------------------------------------------------------------
# Rule constants overridden by 1856's game.rb
# ---------------------------------------------------------------------------------------

CAPITALIZATION = "full"  # per-corporation escrow/incremental/full is decided at par (see PHASES status)
MUST_SELL_IN_BLOCKS = True  # newest game.rb; older stored versions had False
HOME_TOKEN_TIMING = "operate"
NETWORK_WALK = "route_legal"  # a network reaches what a walk using no track twice reaches
ALLOW_REMOVING_TOWNS = True
# newest game.rb: EBUY_FROM_OTHERS = :never (a forced train purchase must be from the bank);
# philcampeau's intermediate version spelled it EBUY_OTHER_VALUE = false (same meaning).
EBUY_FROM_OTHERS = "never"

# Tunnel / bridge rights: a corporation may buy the right for $50 (RIGHT_COST).
RIGHT_COST = 50
# privates that close at the end of the operating round in which their ability is used
# (WSRC: "This action closes the private company"); a normal tile on their hex ends the tile lay
CLOSE_AFTER_USE_AT_OR_END = {"WSRC": "I12"}
# "They're also 5% shares if there are more than 20 shares."
NATIONAL_MAX_SHARE_PERCENT_AWARDED = 200

# ---------------------------------------------------------------------------------------
# Loans, national (CGR), percent to operate
# ---------------------------------------------------------------------------------------

LOAN_VALUE = 100
INTEREST_RATE = 10  # per loan per OR; none after nationalization
NUM_LOANS = 110  # bank's loan supply
MAX_LOANS = "num_player_shares"  # a corporation may hold as many loans as shares held by players
# Loans cannot be taken once phase status contains 'no_loans' (phase 6+), nor after nationalization.
# End of game: each share loses $10 per loan its corporation still has (player_value).
END_GAME_LOAN_PENALTY_PER_SHARE = 10

NATIONAL = "CGR"
NATIONAL_TOKEN_PRICE = 100
NATIONAL_TOKEN_LIMIT = 10
NATIONAL_TRAIN_LIMIT_INCREASE = 1  # the national may hold one train more than the phase allows
MAX_NATIONAL_SHARES = 20  # the CGR issues 10 more shares (all 5%) if more than 10 are exchanged
ULTIMATE_TRAIN_PRICE = 1100  # used for the CGR's must-buy check
ULTIMATE_TRAIN_TRADE_IN = 750  # 1100 - 350

# step/train.rb + game.rb (newest): percent of the IPO that must be sold before an
# unstarted corporation may operate for the first time.  Starts at 20; +10 each time the
# last 2-, 3-, 4- or 5-train is bought from the bank; never above 60.
PERCENT_TO_OPERATE_START = 20
PERCENT_TO_OPERATE_STEP = 10
PERCENT_TO_OPERATE_MAX = 60
PERCENT_TO_OPERATE_LAST_TRAINS = ["2-5", "3-4", "4-3", "5-2"]

# GLSC port marker: +$20 to every revenue location in the hex for the owning corporation.
PORT_BONUS = 20
# Tunnel (SCFTC) / bridge (NFSBC) right: +$10 hex bonus.
TUNNEL_BONUS_HEXES = ["B13"]
BRIDGE_BONUS_HEXES = ["P17", "P19"]
RIGHT_BONUS = 10
# meta.rb: "Unlimited Bridge & Tunnel Tokens (As opposed to normal limit of 3 each)".  The map
# carries two tunnel icons (A14) and two bridge icons (P19); the third right is the private.
BONUS_TOKENS_PER_RIGHT = 3

# ---------------------------------------------------------------------------------------
# Phases and trains
# ---------------------------------------------------------------------------------------

# status strings: escrow / incremental / fullcap = capitalization for corporations parred
# now; facing_N = display of the percent to operate; can_buy_companies; upgradable_towns
# (towns may be upgraded/downgraded in gray phase); no_loans.
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
        "name": "D",
        "on": "D",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown", "gray", "black"],
        "status": ["fullcap", "facing_6", "upgradable_towns", "no_loans"],
        "operating_rounds": 3,
    },
]
# Summary disagreement: 1856.de.txt's train table reads limit 3 from the 3-train; 18xx.games
# keeps 4 in phase 3 (3 from phase 4, 2 from phase 5).

TRAINS = [
    {"name": "2", "distance": 2, "price": 100, "rusts_on": "4", "num": 6},
    {"name": "3", "distance": 3, "price": 225, "rusts_on": "6", "num": 5},
    {
        "name": "4",
        "distance": 4,
        "price": 350,
        "rusts_on": "D",  # '8' with the eight_train_variant option
        "num": 4,
        # 'when': the event fires when the 4th (last) 4-train is bought
        "events": [{"type": "no_more_escrow_corps", "when": 4}],
    },
    {
        "name": "5",
        "distance": 5,
        "price": 550,
        "num": 3,
        "events": [
            {"type": "close_companies"},
            {"type": "no_more_incremental_corps", "when": 3},
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
        "num": "unlimited",  # one in the bank at a time, the next appears when it is sold (18xx.games)
        "available_on": "6",
        "discount": {"4": 350, "5": 350, "6": 350},
    },
]


def _eight(item: dict[str, Any]) -> dict[str, Any]:
    """A train or phase of the optional rule 'eight_train_variant': the D train and phase D are
    replaced by the 8 train (distance 8, price 1000) and phase 8, and 4-trains rust on '8';
    everything else is as above."""
    item = copy.deepcopy(item)
    if item.get("rusts_on") == "D":
        item["rusts_on"] = "8"
    if item["name"] == "D":
        item["name"] = "8"
        if "on" in item:
            item["on"] = "8"
        if "distance" in item:
            item.update(distance=8, price=1000)
    return item


OPTIONAL_RULE_TRAINS = {"eight_train_variant": [_eight(t) for t in TRAINS]}
OPTIONAL_RULE_PHASES = {"eight_train_variant": [_eight(p) for p in PHASES]}

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

STATUS_TEXT = {
    "escrow": [
        "Escrow Cap",
        "New corporations will be capitalized for the first 5 shares sold. The money for the last 5 shares "
        "is held in escrow until the corporation has destinated",
    ],
    "incremental": [
        "Incremental Cap",
        "New corporations will be capitalized for all 10 shares as they are sold regardless of if a "
        "corporation has destinated",
    ],
    "fullcap": [
        "Full Cap",
        "New corporations will be capitalized for 10 x par price when 60% of the IPO is sold",
    ],
    "facing_2": [
        "20% to start (30% to start once the last 2-train is purchased)",
        "An unstarted corporation needs 20% sold from the IPO to start for the first time (30% if the "
        "last 2-train has been purchased)",
    ],
    "facing_3": [
        "30% to start (40% to start once the last 3-train is purchased)",
        "An unstarted corporation needs 30% sold from the IPO to start for the first time (40% if the "
        "last 3-train has been purchased)",
    ],
    "facing_4": [
        "40% to start (Incremental Cap and 50% to start once the last 4-train is purchased)",
        "An unstarted corporation needs 40% sold from the IPO to start for the first time (50% if the "
        "last 4-train has been purchased)",
    ],
    "facing_5": [
        "50% to start (Full Cap and 60% to start once the last 5-train is purchased)",
        "An unstarted corporation needs 50% sold from the IPO to start for the first time (60% if the "
        "last 5-train has been purchased)",
    ],
    "facing_6": [
        "60% to start",
        "An unstarted corporation needs 60% sold from the IPO to start for the first time",
    ],
    "upgradable_towns": [
        "Towns can be upgraded",
        "Single town tiles can be upgraded to plain track or yellow cities. Double town tiles can be "
        "upgraded to green cities",
    ],
    "no_loans": [
        "Loans may not be taken",
        "Outstanding loans must be repaid and no more loans may be taken",
    ],
    "can_buy_companies": ["Can Buy Companies", "All corporations can buy companies from players"],
}

# ---------------------------------------------------------------------------------------
# Private companies
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Corporations
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Map
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Options (meta.rb)
# ---------------------------------------------------------------------------------------

OPTIONAL_RULES = [
    {
        "sym": "alternate_destinations",
        "short_name": "Alternate Destinations",
        "desc": "Use alternate destinations for corporations; see rules for more details",
    },
    {
        "sym": "unlimited_bonus_tokens",
        "short_name": "Unlimited +10 bonus tokens",
        "desc": "Unlimited Bridge & Tunnel Tokens (As opposed to normal limit of 3 each)",
    },
    {
        "sym": "eight_train_variant",
        "short_name": "8-train variant",
        "desc": "Replaces diesel trains with $1000 8-trains (and $350 trade in discount)",
    },
]

# ---------------------------------------------------------------------------------------
# base.rb defaults that 1856 does NOT override (effective values for the engine author).
# From lib/engine/game/base.rb (newest stored version).
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
    "SELL_BUY_ORDER": "sell_buy_or_buy_sell",
    "POOL_SHARE_DROP": "none",
    "SOLD_OUT_INCREASE": True,
    "SOLD_OUT_TOP_ROW_MOVEMENT": "none",
    "NEXT_SR_PLAYER_ORDER": "after_last_to_act",
    "TILE_RESERVATION_BLOCKS_OTHERS": "never",
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
