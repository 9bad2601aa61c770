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

TITLE = "1856"

# map.rb: LAYOUT = :flat (AXES not overridden, so the engine default for flat maps applies).
LAYOUT = "flat"

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
        "num": 22,
        "available_on": "6",
        "discount": {"4": 350, "5": 350, "6": 350},
    },
]

# Optional rule 'eight_train_variant': the D train and phase D are replaced by the 8 train
# and phase 8, and 4-trains rust on '8'.
OPTIONAL_RULE_TRAINS = {
    "eight_train_variant": [
        {"name": "2", "distance": 2, "price": 100, "rusts_on": "4", "num": 6},
        {"name": "3", "distance": 3, "price": 225, "rusts_on": "6", "num": 5},
        {
            "name": "4",
            "distance": 4,
            "price": 350,
            "rusts_on": "8",
            "num": 4,
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
            "name": "8",
            "distance": 8,
            "price": 1000,
            "num": 22,
            "available_on": "6",
            "discount": {"4": 350, "5": 350, "6": 350},
        },
    ],
}
OPTIONAL_RULE_PHASES = {
    "eight_train_variant": [
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
    ],
}

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

COMPANIES = [
    {
        "name": "Flos Tramway",
        "sym": "FT",
        "value": 20,
        "revenue": 5,
        "desc": "No special abilities.",
        "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["L3"]}],
        "color": None,
    },
    {
        "name": "Waterloo & Saugeen Railway Co.",
        "sym": "WSRC",
        "value": 40,
        "revenue": 10,
        "desc": "The public company that owns this private company may place a free station marker and/or "
        "green #59 tile on the Kitchener hex (I12). This action closes the private company.",
        "abilities": [
            {"type": "blocks_hexes", "owner_type": "player", "hexes": ["I12"]},
            {
                "type": "tile_lay",
                "owner_type": "corporation",
                "when": "track",
                "consume_tile_lay": True,
                "count": 1,
                "hexes": ["I12"],
                "tiles": ["59"],
            },
            {
                "type": "token",
                "description": "Token in Waterloo & Saugeen for free",
                "hexes": ["I12"],
                "count": 1,
                "price": 0,
                "teleport_price": 0,
                "from_owner": True,
            },
        ],
        "color": None,
    },
    {
        "name": "The Canada Company",
        "sym": "TCC",
        "value": 50,
        "revenue": 10,  # 1856.de.txt says 15; 18xx.games has 10
        "desc": "During its operating turn, the public company owning this private company may place a "
        "track tile in the hex occupied by this private company (H11). This track lay is in addition to "
        "the public company's normal track lay. This action does not close the private company.",
        "abilities": [
            {"type": "blocks_hexes", "owner_type": "player", "hexes": ["H11"]},
            {
                "type": "tile_lay",
                "owner_type": "corporation",
                "free": True,
                "hexes": ["H11"],
                "tiles": ["3", "4", "58"],
                "when": "track",
                "count": 1,
            },
        ],
        "color": None,
    },
    {
        "name": "Great Lakes Shipping Company",
        "sym": "GLSC",
        "value": 70,
        "revenue": 15,
        "desc": "At any time during its operating turn, the owning public company may place the port marker in "
        "any one hex with the port symbol. The port marker raises the value of all revenue locations in that hex "
        "by $20 for that corporation. This marker may not be moved and will be removed when the first "
        "6 train is purchased. Placement of this marker closes the Great Lakes Shipping Company.",
        "abilities": [
            {
                "type": "assign_hexes",
                "when": "owning_corp_or_turn",
                "hexes": ["C14", "D19", "E18", "F17", "F9", "H17", "H7", "H5", "J17", "J5", "K2", "M18", "O18"],
                "count": 1,
                "owner_type": "corporation",
            },
            {
                "type": "assign_corporation",
                "when": "sold",
                "count": 1,
                "owner_type": "corporation",
            },
        ],
        "color": None,
    },
    {
        "name": "Niagara Falls Suspension Bridge Company",
        "sym": "NFSBC",
        "value": 100,
        "revenue": 20,
        "desc": "The public company that owns this private company may add a $10 bonus when running "
        "to Buffalo (P17/P19). Other public companies may purchase the right for $50.",
        "color": None,
    },
    {
        "name": "St. Clair Frontier Tunnel Company",
        "sym": "SCFTC",
        "value": 100,
        "revenue": 20,
        "desc": "The public company that owns this private company may add a $10 Port Huron bonus when running "
        "to Sarnia (B13). Other public companies may purchase the right for $50.",
        "color": None,
    },
]

# ---------------------------------------------------------------------------------------
# Corporations
# ---------------------------------------------------------------------------------------

CORPORATIONS = [
    {
        "sym": "BBG",
        "logo": "1856/BBG",
        "simple_logo": "1856/BBG.alt",
        "name": "Buffalo, Brantford & Goderich Railway",
        "tokens": [0, 40, 100],
        "coordinates": "J15",
        "color": "#ffd9eb",
        "text_color": "black",
        "reservation_color": None,
    },
    {
        "sym": "CA",
        "logo": "1856/CA",
        "simple_logo": "1856/CA.alt",
        "name": "Canada Air Line Railway",
        "tokens": [0, 40, 100],
        "coordinates": "D17",
        "color": "#f72d2d",
        "reservation_color": None,
    },
    {
        "sym": "CPR",
        "logo": "1856/CPR",
        "simple_logo": "1856/CPR.alt",
        "name": "Canadian Pacific Railroad",
        "tokens": [0, 40, 100, 100],
        "coordinates": "M4",
        "color": "#c474bc",
        "reservation_color": None,
    },
    {
        "sym": "CV",
        "logo": "1856/CV",
        "simple_logo": "1856/CV.alt",
        "name": "Credit Valley Railway",
        "tokens": [0, 40, 100],
        "coordinates": "N11",
        "city": 0,
        "color": "#2d0047",
        "reservation_color": None,
    },
    {
        "sym": "GT",
        "logo": "1856/GT",
        "simple_logo": "1856/GT.alt",
        "name": "Grand Trunk Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": "P9",
        "color": "#78c292",
        "reservation_color": None,
    },
    {
        "sym": "GW",
        "logo": "1856/GW",
        "simple_logo": "1856/GW.alt",
        "name": "Great Western Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": "F15",
        "color": "#6e6966",
        "reservation_color": None,
    },
    {
        "sym": "LPS",
        "logo": "1856/LPS",
        "simple_logo": "1856/LPS.alt",
        "name": "London & Port Sarnia Railway",
        "tokens": [0, 40],
        "coordinates": "C14",
        "color": "#c3deeb",
        "text_color": "black",
        "reservation_color": None,
    },
    {
        "sym": "TGB",
        "logo": "1856/TGB",
        "simple_logo": "1856/TGB.alt",
        "name": "Toronto, Grey & Bruce Railway",
        "tokens": [0, 40],
        "coordinates": "K8",
        "color": "#c94d00",
        "reservation_color": None,
    },
    {
        "sym": "THB",
        "logo": "1856/THB",
        "simple_logo": "1856/THB.alt",
        "name": "Toronto, Hamilton and Buffalo Railway",
        "tokens": [0, 40],
        "coordinates": "L15",
        "color": "#ebff45",
        "text_color": "black",
        "reservation_color": None,
    },
    {
        "sym": "WR",
        "logo": "1856/WR",
        "simple_logo": "1856/WR.alt",
        "name": "Welland Railway",
        "tokens": [0, 40, 100],
        "coordinates": "O16",
        "color": "#54230e",
        "reservation_color": None,
    },
    {
        "sym": "WGB",
        "logo": "1856/WGB",
        "simple_logo": "1856/WGB.alt",
        "name": "Wellington, Grey & Bruce Railway",
        "tokens": [0, 40],
        "coordinates": "J11",
        "color": "#494d99",
        "reservation_color": None,
    },
    {
        # The national: no home, never parred, floats when it forms in phase 6.
        "sym": "CGR",
        "logo": "1856/CGR",
        "simple_logo": "1856/CGR.alt",
        "name": "Canadian Government Railway",
        "tokens": [],
        "color": "#000",
        "abilities": [
            {
                "type": "train_buy",
                "description": "Inter train buy/sell at face value",
                "face_value": True,
            },
            {
                "type": "train_limit",
                "increase": 99,
                "description": "3 train limit",
            },
            {
                "type": "borrow_train",
                "train_types": ["8", "D"],
                "description": "May borrow a train when trainless*",
            },
        ],
        "reservation_color": None,
    },
]

# Home -> destination hex.  With the 'alternate_destinations' option ALTERNATE_DESTINATIONS is
# used instead.  A value that is a list of two hex ids [goal, start] means "connect start to
# goal" (CA: London F15 to Detroit A20); a value [[a, b]] is one goal made of two hexes (TGB:
# Canadian West, the two-hex offboard O2/N1).
DESTINATIONS = {
    "BBG": "N17",
    "CA": "H15",
    "CPR": "N11",
    "CV": "I14",
    "GT": "K8",
    "GW": "A20",
    "LPS": "F17",
    "TGB": "H5",
    "THB": "J11",
    "WGB": "F9",
    "WR": "L15",
}

ALTERNATE_DESTINATIONS = {
    "BBG": "N11",
    "CA": ["A20", "F15"],  # Connect London to Detroit
    "CPR": "P9",
    "CV": "M4",
    "GT": "L13",
    "GW": "J15",
    "LPS": "F15",
    "TGB": [["O2", "N1"]],  # Canadian West, but it's a 2 hex offboard
    "THB": "H15",
    "WGB": "H5",
    "WR": "L15",
}

# ---------------------------------------------------------------------------------------
# Map
# ---------------------------------------------------------------------------------------

HEXES = {
    "red": {
        ("A20",): "offboard=revenue:yellow_30|brown_50|black_60;path=a:4,b:_0,terminal:1;path=a:5,b:_0,terminal:1",
        ("A14",): "border=edge:4;icon=image:1856/tunnel;icon=image:1856/tunnel",
        ("B13",): "offboard=revenue:yellow_30|brown_50;path=a:0,b:_0;path=a:5,b:_0,terminal:1;border=edge:1",
        ("H5",): "offboard=revenue:yellow_30|brown_50|black_40;path=a:0,b:_0,terminal:1;path=a:5,b:_0,terminal:1;"
        "icon=image:port,sticky:1",
        ("K2",): "offboard=revenue:yellow_20|brown_30;path=a:0,b:_0,terminal:1;path=a:5,b:_0,terminal:1;"
        "icon=image:port,sticky:1",
        ("N1",): "offboard=revenue:yellow_20|brown_30|black_50,hide:1,groups:Canadian West;"
        "path=a:0,b:_0,terminal:1;path=a:1,b:_0,terminal:1;border=edge:5",
        ("O2",): "offboard=revenue:yellow_20|brown_30|black_50,groups:Canadian West;"
        "path=a:0,b:_0,terminal:1;path=a:1,b:_0,terminal:1;path=a:5,b:_0,terminal:1;border=edge:2",
        ("Q8",): "offboard=revenue:yellow_20|brown_30|black_50,groups:Lower Canada;"
        "path=a:1,b:_0,terminal:1;path=a:2,b:_0,terminal:1;border=edge:0",
        ("Q10",): "offboard=revenue:yellow_20|brown_30|black_50,hide:1,groups:Lower Canada;"
        "path=a:2,b:_0,terminal:1;border=edge:3",
        ("P19",): "offboard=revenue:yellow_30|brown_40,hide:1,groups:Buffalo;path=a:2,b:_0,terminal:1;border=edge:3"
        ";icon=image:1856/bridge;icon=image:1856/bridge",
        ("P17",): "offboard=revenue:yellow_30|brown_40,groups:Buffalo;"
        "path=a:1,b:_0,terminal:1;path=a:2,b:_0,terminal:1;border=edge:0",
    },
    "yellow": {
        ("M4",): "city=revenue:30;path=a:0,b:_0;path=a:4,b:_0;label=B-L;future_label=label:Bar,color:brown",
        ("F15",): "city=revenue:30;path=a:0,b:_0;path=a:4,b:_0;label=B-L;future_label=label:Lon,color:brown",
        ("N11",): "city=revenue:30;city=revenue:30;label=T;path=a:1,b:_0;path=a:4,b:_1",
        ("I12", "N17"): "city=revenue:0;city=revenue:0;label=OO",
        ("L15",): "city=revenue:0;city=revenue:0;label=OO;upgrade=cost:40,terrain:mountain",
    },
    "blue": {("N5",): ""},
    "gray": {
        ("F9",): "town=revenue:yellow_30|brown_50|black_40;path=a:0,b:_0;path=a:4,b:_0;path=a:5,b:_0;"
        "icon=image:port,sticky:1",
    },
    "white": {
        ("H15", "G12", "I8", "J13", "D17", "J11", "J15", "K8", "O16"): "city=revenue:0",
        ("B19", "L13", "P9"): "city=revenue:0;future_label=label:L,color:brown",
        ("C14", "F17", "O18"): "city=revenue:0;future_label=label:L,color:brown;icon=image:port,sticky:1",
        ("N3",): "city=revenue:0;future_label=label:L,color:brown;upgrade=cost:40,terrain:water",
        ("J9", "K16", "L9", "M6", "N9", "H11"): "town=revenue:0",
        ("D19", "H17", "J5", "M18"): "town=revenue:0;icon=image:port,sticky:1",
        ("I14", "F13", "M10"): "town=revenue:0;town=revenue:0",
        ("E18", "H7", "J17"): "town=revenue:0;town=revenue:0;icon=image:port,sticky:1",
        ("K10", "K12", "K14", "M16", "N15"): "upgrade=cost:40,terrain:mountain",
        ("N19", "P7"): "upgrade=cost:40,terrain:water",
        (
            "L3", "B15", "B17", "B21", "C16", "C18", "C20", "D13", "D15", "E12", "E14", "E16", "F11",
            "G8", "G10", "G14", "G16", "G18", "H9", "H13", "I6", "I10", "I16", "I18", "J7", "K4", "K6",
            "K18", "L5", "L7", "L11", "L17", "M2", "M8", "M12", "N7", "O4", "O6", "O8", "O10", "P3", "P5",
        ): "blank",
    },
}

TILES = {
    "1": 1,
    "2": 1,
    "3": 3,
    "4": 3,
    "5": 2,
    "6": 2,
    "7": 7,
    "8": 13,
    "9": 13,
    "14": 4,
    "15": 4,
    "16": 1,
    "17": 1,
    "18": 1,
    "19": 1,
    "20": 1,
    "23": 4,
    "24": 4,
    "25": 1,
    "26": 1,
    "27": 1,
    "28": 1,
    "29": 1,
    "39": 1,
    "40": 1,
    "41": 3,
    "42": 3,
    "43": 2,
    "44": 1,
    "45": 2,
    "46": 2,
    "47": 2,
    "55": 1,
    "56": 1,
    "57": 4,
    "58": 3,
    "59": 2,
    "63": 4,
    "64": 1,
    "65": 1,
    "66": 1,
    "67": 1,
    "68": 1,
    "69": 1,
    "70": 1,
    "120": 1,
    "121": 2,
    "122": 1,
    "123": 1,
    "124": 1,
    "125": {
        "count": 4,
        "color": "brown",
        "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;"
        "path=a:5,b:_0;label=L",
    },
    "126": 1,
    "127": 1,
}

LOCATION_NAMES = {
    "A20": "Detroit - Windsor",
    "A14": "Port Huron",
    "B13": "Sarnia",
    "F9": "Goderich",
    "H5": "Lake Huron",
    "K2": "Georgian Bay",
    "O2": "Canadian West",
    "Q8": "Lower Canada",
    "P17": "Buffalo",
    "F15": "London",
    "M4": "Barrie",
    "N11": "Toronto",
    "I12": "Kitchener",
    "I14": "Drumbo",
    "L15": "Hamilton",
    "N17": "Welland",
    "H15": "Woodstock",
    "J13": "Galt",
    "B19": "Chatham",
    "L13": "Burlington",
    "P9": "Oshawa",
    "F17": "St. Thomas",
    "O18": "Fort Erie",
    "C14": "Maudaumin",
    "D17": "Glencoe",
    "J11": "Guelph",
    "J15": "Brantford",
    "K8": "Orangeville",
    "O16": "Niagara Falls",
}

# Brown OO tiles that upgrade to gray Hamilton (123) in L15.
BROWN_OO_TILES = ["64", "65", "66", "67", "68"]
# Hexes with the port symbol (GLSC may assign; icons removed at the first 6-train).
PORT_HEXES = ["C14", "D19", "E18", "F17", "F9", "H17", "H7", "H5", "J17", "J5", "K2", "M18", "O18"]
# Plain city hexes that upgrade to brown L (125) tiles.  Named LAKE_HEXES in older game.rb;
# the newest map marks the same hexes with future_label=label:L,color:brown.
LAKE_HEXES = ["B19", "C14", "F17", "O18", "P9", "N3", "L13"]
# Barrie and London share the green B-L tile (121) but upgrade to their own brown tiles
# (127 Barrie, 126 London).  Constants from older game.rb; newest map: label=B-L plus
# future_label Bar / Lon.
BARRIE_HEX = "M4"
LONDON_HEX = "F15"
HAMILTON_HEX = "L15"
TUNNEL_TOKEN_HEX = "A14"
BRIDGE_TOKEN_HEX = "P19"

# Tile ids the game looks up for special upgrades (game.rb setup): in the gray phase ('6'+)
# single-town tiles 3/4/58 may become cities 5/57/6 or plain track 7/9/8, double-town tiles
# 1/55 -> 14 and 2/56 -> 15; 121 -> 126 (London) / 127 (Barrie); brown OO -> 123 (Hamilton).
TOWN_UPGRADES_IN_GRAY_PHASE = {
    "3": ["5", "7"],
    "4": ["57", "9"],
    "58": ["6", "8"],
    "1": ["14"],
    "55": ["14"],
    "2": ["15"],
    "56": ["15"],
}

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
