"""Static data for 1833NE: Railroading in New England (Thomas Lehmann, GMT Games).

Sources, in this order:

1. The 18xx.games reference implementation, GitHub ``tobymao/18xx``,
   ``lib/engine/game/g_1833_ne/`` (``game.rb``, ``entities.rb``, ``map.rb``, ``meta.rb``,
   ``step/*.rb``) and ``lib/engine/game/base.rb`` for the defaults.  The title is
   ``prealpha`` there ("DO NOT GO LIVE BEFORE DECEMBER 1, 2026"): the map and entities
   exist, but many mechanisms are still ``# todo`` (P4/P5 abilities, ferries, connection
   bonuses, the takeover round's data).  Only data is transcribed; Ruby symbols became
   strings, Ruby hashes with symbol keys dicts with string keys.  Newest stored versions
   used: game.rb and entities.rb at 0276fb0a (game.rb adds ``TILE_COST = 20`` and the P2
   "Lowell Merchants" handling over the f2943c2a version; entities.rb adds ``count: 1`` to
   P2's tile_discount); a still newer step/track_and_token.rb refers to game methods not in
   any stored game.rb, so game.rb may have moved on since.
2. Facts missing from 18xx.games come from the project's 1833NE rule summary (1833NE.de.txt,
   German) and are marked ``# from rules summary``.  No real
   games exist to check them against.

Where 18xx.games and the summary disagree, the summary (the primary source) decides unless
the notes (``notes.md``) say why not; the 18xx.games value is named in a comment.
Values neither source gives are per-game provisional values (``provisional.py``).
Note: in 18xx.games the 1833NE game class derives from the base game (not from 1846), only
borrowing 1846's steps (issue shares, dividend, buy/sell/par, bankrupt).
"""

# The map and the entities live in their own modules; this module is the title's data as a whole.
from .entities import (  # noqa: F401
    COMPANIES,
    CORPORATIONS,
    P3_MUST_CONNECT,
    P3_TILES,
    P6_PURCHASE_SURCHARGE,
    PRIVATES_BY_PHASE,
    RESERVATIONS,
    SHARED_TOKEN,
    STATIONS_PER_CORPORATION,
    TAKEOVER_CORPORATIONS,
    TAKEOVER_EXTRA_CORPORATIONS,
)
from .map import (  # noqa: F401
    A6_HEX,
    A12_HEX,
    A12_NEEDS_HEX,
    HEXES,
    LAYOUT,
    LOCATION_NAMES,
    PORT_HEXES,
    TILES,
)

TITLE = "1833NE"
SUBTITLE = "Railroading in New England"

# Not overridden: base.rb CURRENCY_FORMAT_STR = '$%s'
CURRENCY_FORMAT = "${}"

BANK_CASH = 10_000
# from rules summary: the $1,000 notes are set aside and only added when the bank is empty,
# so that the game can be finished.

STARTING_CASH = {3: 600, 4: 450, 5: 400}

# 18xx.games: {players: {number of corporations in the game: limit}}.  The standard game has
# 9 corporations (3p 24, 4p 18, 5p 14, as the summary says); the limit drops when a
# corporation closes and, in the takeover game (up to 14 corporations), with every takeover.
# Privates count, except those owned by corporations (from rules summary).
CERT_LIMIT = {
    3: {14: 35, 13: 33, 12: 30, 11: 28, 10: 26, 9: 24, 8: 22, 7: 19, 6: 16, 5: 14},
    4: {14: 26, 13: 25, 12: 23, 11: 21, 10: 20, 9: 18, 8: 16, 7: 14, 6: 12, 5: 10},
    5: {14: 21, 13: 20, 12: 18, 11: 17, 10: 16, 9: 14, 8: 13, 7: 11, 6: 10, 5: 8},
}

# meta.rb: PLAYER_RANGE = [3, 5]
MIN_PLAYERS = 3
MAX_PLAYERS = 5

DEV_STAGE = "prealpha"
DEPENDS_ON = "1846"
GAME_PUBLISHER = "gmt_games"

# game.rb: the IPO is called the treasury.
IPO_NAME = "Treasury"

# ---------------------------------------------------------------------------------------
# Stock market: one linear row from $0 (closes) to $730; par 40-150.
# ---------------------------------------------------------------------------------------

MARKET = [
    [
        "0c",
        "10",
        "20",
        "30",
        "40p",
        "50p",
        "60p",
        "70p",
        "80p",
        "90p",
        "100p",
        "112p",
        "124p",
        "137p",
        "150p",
        "165",
        "180",
        "195",
        "212",
        "230",
        "250",
        "270",
        "295",
        "320",
        "345",
        "375",
        "405",
        "440",
        "475",
        "510",
        "550",
        "590",
        "630",
        "680",
        "730",
    ],
]

MARKET_ZONES = {
    "p": "par: a par (starting) price, chosen between $40 and $150",
    "c": "close: a corporation whose price reaches $0 closes",
}

PAR_PRICES = [40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150]

# from rules summary: price movement after the dividend - paying less than half the price:
# left 1; half to below the price: no move; at least the price: right 1; at least twice: right
# 2; at least three times and price already >= $165: right 3.  Half dividends are allowed.
# End of SR: down (left) if shares in the market, up (right) if 100% held by players.
DIVIDEND_PRICE_MOVEMENT = [
    {"payout_at_least": 0.0, "move": -1},
    {"payout_at_least": 0.5, "move": 0},
    {"payout_at_least": 1.0, "move": 1},
    {"payout_at_least": 2.0, "move": 2},
    {"payout_at_least": 3.0, "move": 3, "min_price": 165},
]

# ---------------------------------------------------------------------------------------
# Rule constants overridden by 1833NE's game.rb
# ---------------------------------------------------------------------------------------

CAPITALIZATION = "incremental"
HOME_TOKEN_TIMING = "float"
MUST_SELL_IN_BLOCKS = True
POOL_SHARE_DROP = "left_block"
SELL_AFTER = "p_any_operate"  # summary: before its first OR only the president may sell
SELL_BUY_ORDER = "sell_buy"
SELL_MOVEMENT = "left_block_pres"  # summary: only president's sales move the price, one column

EBUY_FROM_OTHERS = "never"
EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST = False  # either side of the cheapest card may be bought
MUST_EMERGENCY_ISSUE_BEFORE_EBUY = True
MUST_BUY_TRAIN = "always"
TILE_COST = 20  # every lay/upgrade costs at least $20 (newest game.rb; summary agrees)

BANKRUPTCY_ENDS_GAME_AFTER = "all_but_one"
GAME_END_CHECK = {
    "bankrupt": "immediate",
    "bank": "full_or",
    "all_closed": "immediate",
    "final_train": "one_more_full_or_set",
}

TILE_LAYS = [{"lay": True, "upgrade": True}, {"lay": True, "upgrade": "not_if_upgraded"}]

# game.rb: in the first OR of the game corporations run in ascending price order
# (summary: "in umgekehrter Kursreihenfolge"); afterwards the normal order.
FIRST_OR_ASCENDING_PRICE_ORDER = True

# game.rb includes CompanyPriceUpToFace: corporations buy privates for $1 up to face value
# (summary: in phases I and II, which carry 'can_buy_companies').
COMPANY_PRICE_MIN = 1
COMPANY_PRICE_MAX = "face_value"

# step/waterfall_auction.rb: privates are sold in a waterfall auction; if everyone passes,
# pending bids are resolved and two special ORs pay the private revenues.
PRIVATE_AUCTION = "waterfall"
SPECIAL_ORS_WHEN_ALL_PASS = 2

# game.rb issue/redeem: issuing gets the price one column left, redeeming pays the price one
# column right; at most (player shares - market shares) may be issued.  Emergency issue
# (when trainless): price moves left (1 + shares issued) columns; bundles worth $0 cannot be
# issued (summary: cannot issue if the price would fall below $20).
ISSUE_PRICE_COLUMNS = -1
REDEEM_PRICE_COLUMNS = 1

# ---------------------------------------------------------------------------------------
# Phases and trains (two-sided train cards: the second side is the 'variants' entry)
# ---------------------------------------------------------------------------------------

PHASES = [
    {
        "name": "I",
        "train_limit": 3,
        "tiles": ["yellow"],
        "operating_rounds": 2,
        "status": ["can_buy_companies"],
    },
    {
        "name": "II",
        "train_limit": 3,
        "on": "3/5",
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
        "status": ["can_buy_companies"],
    },
    {
        "name": "III",
        "on": "4/7",
        "train_limit": 3,
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
    },
    {
        "name": "IV",
        "on": "6/9",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown"],
        "operating_rounds": 2,
    },
    {
        "name": "V",
        "on": "7+3",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown"],
        "operating_rounds": 2,
    },
]
# Phase names in 18xx.games are roman numerals; 'on' names the first train of the card that
# starts the phase (either side starts it).

# distance: an int (plain n-train) or a list of {'nodes', 'pay', 'visit'} dicts (N/M visits M
# stops and counts N; N+s counts N stops plus up to s towns).
TRAINS = [
    {
        "name": "2",
        "distance": 2,
        "price": 75,
        "num": 8,
        "obsolete_on": "3+3",
        "rusts_on": "5+3",
        "variants": [
            {
                "name": "2+1",
                "distance": [
                    {"nodes": ["town"], "pay": 1, "visit": 1},
                    {"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2},
                ],
                "price": 100,
            },
        ],
    },
    {
        "name": "3/5",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 5}],
        "price": 180,
        "num": 5,
        "obsolete_on": "6/9",
        "rusts_on": "7+3",
        "variants": [
            {
                "name": "2+2",
                "distance": [
                    {"nodes": ["town"], "pay": 2, "visit": 2},
                    {"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2},
                ],
                "price": 140,
            },
        ],
    },
    {
        "name": "4/7",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 4, "visit": 7}],
        "price": 320,
        "num": 6,
        "obsolete_on": "7+3",
        "variants": [
            {
                "name": "3+3",
                "distance": [
                    {"nodes": ["town"], "pay": 3, "visit": 3},
                    {"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 3},
                ],
                "price": 230,
            },
        ],
        "events": [{"type": "close_companies"}],
    },
    {
        "name": "6/9",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 6, "visit": 9}],
        "price": 750,
        "num": 3,  # 5 in the takeover game (NUM_TRAINS_TAKEOVER)
        "variants": [
            {
                "name": "5+3",
                "distance": [
                    {"nodes": ["town"], "pay": 3, "visit": 3},
                    {"nodes": ["city", "offboard", "town"], "pay": 5, "visit": 5},
                ],
                "price": 640,
            },
        ],
        "events": [
            {"type": "remove_bonuses"},
            {"type": "remove_reservations"},
        ],
    },
    {
        "name": "7+3",
        "distance": [
            {"nodes": ["town"], "pay": 3, "visit": 3},
            {"nodes": ["city", "offboard", "town"], "pay": 7, "visit": 7},
        ],
        "price": 1000,  # rules summary ("7+3-Zug ($1.000)"); 18xx.games has 950 (notes row 31)
        "num": 15,  # summary: "praktisch unbegrenzt"
    },
]
# Summary on obsolescence: phase-I cards become obsolete in III and are removed in IV, phase-II
# cards obsolete in IV / removed in V, phase-III cards obsolete in V (18xx.games expresses
# this with obsolete_on/rusts_on above).  An obsolete train does not count toward the train
# limit, cannot be sold to another corporation, and is removed right after its owner next
# runs routes (from rules summary).

# game.rb num_trains: 6/9 cards are 5 in the takeover game, else 3.
NUM_TRAINS_TAKEOVER = {"6/9": 5}
# decision (notes row 33): the first two takeovers each remove an unsold 6/9 card, so a game
# with two takeovers has the standard game's three ("some takeovers remove one of them").
TAKEOVERS_REMOVING_A_6_9 = 2

# ---------------------------------------------------------------------------------------
# Private companies (entities.rb)
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Corporations (entities.rb).  float_percent 20: a corporation starts with its 20% president's
# certificate; tokens as in 18xx.games.
# ---------------------------------------------------------------------------------------

# Summary: the president's certificate is 20%, the other eight 10% shares stay in the
# treasury; treasury shares receive dividends; no player may hold more than 60%.

# ---------------------------------------------------------------------------------------
# Things 18xx.games does not have yet (all from rules summary)
# ---------------------------------------------------------------------------------------

# Ferries: five, $40 each, add value to routes reaching their city; a "New" bonus always goes
# to the most recently bought ferry (P5 doubles one ferry incl. "New"/"Last" bonuses); all
# ferries are removed in phase IV.  The summary does not say which hexes/values.
FERRIES = {"count": 5, "price": 40, "removed_in_phase": "IV"}  # from rules summary

# Direct-connection / cross-connection bonuses between Boston, Montreal, Portland and the
# offboards, changing by phase; a route may be extended past the train's length over track
# no other route of the corporation uses, even through blocked cities, to collect one.  The
# summary gives only this example (the full table is in the rulebook).
# 18xx.games: the 6/9 train carries a 'remove_bonuses' event.
CONNECTION_BONUSES = [  # from rules summary (incomplete)
    {"between": ["G22", "B3"], "by_phase": {"I": 150, "II": 150, "III": 200, "IV": 200}},
]
# P4 doubles the bonus for a route from A6 to Boston in phases I-III; A12 (D&H, only for P6's
# owner) is worth 40/70/80 by phase only if the route runs through Montreal, else 0.

TAKEOVER_TRAIN_LIMITS = {"I": 3, "II": 3, "III": 2, "IV": 1, "V": 1}  # from rules summary
TAKEOVER_TRAIN_LIMIT_BONUS_PER_TAKEOVER = 1  # from rules summary
# Extra corporations can be started from phase II on any open city slot that is neither
# reserved nor the home of another available corporation, paying for the home token: $80 on
# a gray or trackless hex, else $120 and then the par must be at least $60.
TAKEOVER_HOME_TOKEN_PRICE = {"gray_or_no_track": 80, "other": 120}  # from rules summary
TAKEOVER_MIN_PAR_WITH_120_TOKEN = 60  # from rules summary
# Takeovers: from phase II, after the 2nd OR of each set (18xx.games: a Takeover round after
# the OR set when phase != I); the acquirer needs a non-obsolete train and a track connection
# to a token of the target; the target may refuse unless it has no (or only obsolete) trains.

# ---------------------------------------------------------------------------------------
# Map (map.rb).  Plain white hexes have the empty code '' (not 'blank') in 18xx.games.
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Options (meta.rb)
# ---------------------------------------------------------------------------------------

OPTIONAL_RULES = [
    {
        "sym": "takeover_game",
        "short_name": "Takeover Game",
        "desc": " Adds corporate takeovers and 5 more railroads which can be launched in any open city.",
        "players": [3, 4, 5],
    },
]

# ---------------------------------------------------------------------------------------
# base.rb defaults that 1833NE does NOT override (effective values).
# ---------------------------------------------------------------------------------------

BASE_DEFAULTS_USED = {
    "BANKRUPTCY_ALLOWED": True,
    "CERT_LIMIT_TYPES": ["multiple_buy", "unlimited", "no_cert_limit"],
    "CERT_LIMIT_CHANGE_ON_BANKRUPTCY": False,
    "CERT_LIMIT_INCLUDES_PRIVATES": True,
    "PRESIDENT_SALES_TO_MARKET": False,
    "MULTIPLE_BUY_TYPES": ["multiple_buy"],
    "MULTIPLE_BUY_ONLY_FROM_MARKET": False,
    "MIN_BID_INCREMENT": 5,
    "MUST_BID_INCREMENT_MULTIPLE": False,
    "ONLY_HIGHEST_BID_COMMITTED": False,
    "TURN_SELL_LIMIT": None,
    "SOLD_OUT_INCREASE": True,
    "SOLD_OUT_TOP_ROW_MOVEMENT": "none",
    "NEXT_SR_PLAYER_ORDER": "after_last_to_act",
    "TILE_RESERVATION_BLOCKS_OTHERS": "never",
    "TRACK_RESTRICTION": "semi_restrictive",
    "EBUY_PRES_SWAP": True,
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
    "ALLOW_TRAIN_BUY_FROM_OTHERS": True,
    "ALLOW_TRAIN_BUY_FROM_OTHER_PLAYERS": True,
    "ALLOW_OBSOLETE_TRAIN_BUY": False,
    "ALWAYS_BUY_TRAINS_AT_FACE_VALUE": False,
    "TILE_TYPE": "normal",
    "TILE_UPGRADES_MUST_USE_MAX_EXITS": [],
    "IMPASSABLE_HEX_COLORS": ["blue", "gray", "red"],
    "MARKET_SHARE_LIMIT": 50,
    "ALL_COMPANIES_ASSIGNABLE": False,
    "OBSOLETE_TRAINS_COUNT_FOR_LIMIT": False,
    "CORPORATE_BUY_SHARE_SINGLE_CORP_ONLY": False,
    "CORPORATE_BUY_SHARE_ALLOW_BUY_FROM_PRESIDENT": False,
    "BUY_SHARE_FROM_OTHER_PLAYER": False,
    "VARIABLE_FLOAT_PERCENTAGES": False,
    "ALLOW_REMOVING_TOWNS": False,
    "ALLOW_MULTIPLE_PROGRAMS": False,
    "GAME_END_LOCK_FIRST_REASON": False,
}

# ---------------------------------------------------------------------------------------
# Decisions for the engine where neither source gives the facts (engine/titles/
# notes.md).  Everything below is marked "# decision".
# ---------------------------------------------------------------------------------------

# The number of $1,000 notes set aside (when the bank counts as empty) is a provisional,
# per-game value: provisional.py.

# decision: which train card becomes obsolete / is removed in which phase (summary:
# phase-I cards obsolete in III, removed in IV; phase-II cards obsolete in IV, removed in V;
# phase-III cards obsolete in V; phase-IV and V cards are permanent).
TRAIN_CARD_LIFE = {  # card name -> (obsolete in phase, removed in phase)
    "2": ("III", "IV"),
    "3/5": ("IV", "V"),
    "4/7": ("V", None),
    "6/9": (None, None),
    "7+3": (None, None),
}

# The connection bonuses beyond Boston-Montreal I-IV (CONNECTION_BONUSES above), the ferry
# ports and the ferry values are provisional, per-game values: provisional.py.
P4_DOUBLES_IN_PHASES = ["I", "II", "III"]  # from rules summary: A6-Boston bonus doubled in I-III
P4_DOUBLES_BONUS = ("A6", "G22")  # from rules summary: "Strecken von A6 nach Boston"

FERRY_PRICE = 40  # from rules summary
FERRIES_REMOVED_IN = "IV"  # from rules summary

TAKEOVER_START_PHASE = "II"  # from rules summary
