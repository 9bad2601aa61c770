"""The 1833NE private companies and corporations (with their homes and destinations).

Transcribed from the same sources as ``data.py`` (see its docstring)."""

COMPANIES = [
    {
        "name": "Granite Railway",
        "value": 15,
        "revenue": 5,
        "desc": "Blocks hex H23 until bought by a corporation.",
        "abilities": [
            {"type": "blocks_hexes", "owner_type": "player", "hexes": ["H23"]},
        ],
        "sym": "P1",
    },
    {
        "name": "Lowell Merchants",
        "value": 40,
        "revenue": 10,
        "desc": "Owning corporation may lay a tile in G20 for free, but only on the round this is purchased in.",
        "abilities": [
            {"type": "blocks_hexes", "owner_type": "player", "hexes": ["G20"]},
            {
                "type": "tile_discount",
                "when": "owning_corp_or_turn",
                "owner_type": "corporation",
                "discount": 20,
                "hexes": ["G20"],
                "count": 1,
            },
        ],
        "sym": "P2",
    },
    {
        "name": "Champlain & St. Lawrence",
        "value": 50,
        "revenue": 10,
        "desc": "Owning corporation may lay up to two extra free yellow tiles in reserved hexes C4 and C6. "
        "If both tiles are laid, they must connect to each other. Tile in C4 must connect to Montreal (B3). "
        "Owning corporation does not need to be connected to either hex to use this ability.",
        "abilities": [
            {"type": "blocks_hexes", "owner_type": "player", "hexes": ["C4", "C6"]},
            {
                "type": "tile_lay",
                "when": "owning_corp_or_turn",
                "owner_type": "corporation",
                "free": True,
                "must_lay_together": True,
                "hexes": ["C4", "C6"],
                "tiles": ["3", "4", "7", "8", "9", "58"],
                "count": 2,
            },
        ],
        "sym": "P3",
    },
    {
        "name": "Ogdensburg Railroad",
        "value": 60,
        "revenue": 15,
        "desc": "May use Ogdensburg RR (hex A6) as a token to lay track and run a route (only). Doubles bonus for "
        "a route from hex A6 along track that (inter)connects to Boston (G22).",
        "abilities": [],  # todo in 18xx.games
        "sym": "P4",
    },
    {
        "name": "Luxury Ferry Service",
        "value": 70,
        "revenue": 15,
        "desc": "Doubles the value of one ferry (and any bonuses). Cannot be reassigned.",
        "abilities": [],  # todo in 18xx.games
        "sym": "P5",
    },
    {
        "name": "Delaware & Hudson Railroad",
        "value": 80,
        "revenue": 30,
        "desc": "May use D&H RR (hex A12) as a token to lay track and run a route (only). "
        "The corporation buying it pays an additional $40 to the bank.",
        "abilities": [{"type": "close", "on_phase": "never", "owner_type": "corporation"}],  # still more todo
        "sym": "P6",
    },
]

# P3: which tiles it lays where (18xx.games step/special_track.rb P3_TILES: C4 is a town hex,
# C6 plain track); the tile in C4 must connect to Montreal (entities.rb desc; summary).
P3_TILES = {"C4": ["3", "4", "58"], "C6": ["7", "8", "9"]}

P3_MUST_CONNECT = {"C4": "B3"}

# P6: the buying corporation pays $40 extra to the bank (entities.rb desc, not yet coded there).
P6_PURCHASE_SURCHARGE = 40

# from rules summary: what happens to privates by phase.  18xx.games so far only closes all
# privates with the first 4/7 card (close_companies), except P6 when corporation-owned
# (close on_phase never).  Summary: in phase III player-owned privates and P1-P2 are removed,
# P3-P6 are flipped (no more revenue, ability kept); in phase IV P3-P5 (and all ferries) are
# removed; P6's ability is permanent.  Privates held by players count at list price at game
# end only if the game ends before phase III.
PRIVATES_BY_PHASE = {  # from rules summary
    "III": {"remove": ["P1", "P2", "player_owned"], "flip_no_revenue": ["P3", "P4", "P5", "P6"]},
    "IV": {"remove": ["P3", "P4", "P5"]},
}

CORPORATIONS = [
    {
        "float_percent": 20,
        "sym": "CV",
        "name": "Central Vermont Railroad",
        "logo": "1833_ne/CV",
        "simple_logo": "1833_ne/CV.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "C8",
        "color": "#0095DA",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "FRR",
        "name": "Fitchburg Railroad",
        "logo": "1833_ne/PRR",
        "simple_logo": "1833_ne/PRR.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "E20",
        "color": "#D1E088",
        "text_color": "black",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "StL&A",
        "name": "St. Lawrence & Atlantic",
        "logo": "1833_ne/StLA",
        "simple_logo": "1833_ne/StLA.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "B3",
        "city": 1,
        "color": "#F38221",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "A&StL",
        "name": "Atlantic & St. Lawrence",
        "logo": "1833_ne/AStL",
        "simple_logo": "1833_ne/AStL.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "I14",
        "color": "#8D807D",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "B&L",
        "name": "Boston & Lowell Railroad",
        "logo": "1833_ne/BL",
        "simple_logo": "1833_ne/BL.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "G22",
        "city": 1,
        "color": "#F5ABAD",
        "text_color": "black",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "RR",
        "name": "Rutland Railroad",
        "logo": "1833_ne/RR",
        "simple_logo": "1833_ne/RR.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "C12",
        "color": "#2F7146",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "HR",
        "name": "Hartford Railroad Co.",
        "logo": "1833_ne/HR",
        "simple_logo": "1833_ne/HR.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "C24",
        "color": "#C4E9FB",
        "text_color": "black",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "B&P",
        "name": "Boston & Providence",
        "logo": "1833_ne/BP",
        "simple_logo": "1833_ne/BP.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "F25",
        "color": "#EACD93",
        "text_color": "black",
        "always_market_price": True,
    },
    {
        "float_percent": 20,
        "sym": "BW",
        "name": "Boston & Worcester",
        "logo": "1833_ne/BW",
        "simple_logo": "1833_ne/BW.alt",
        "tokens": [0, 80, 80, 80],
        "coordinates": "G22",
        "city": 0,
        "color": "white",
        "text_color": "black",
        "always_market_price": True,
    },
]

# Summary disagreement: "each corporation uses 4 markers, but two mark price and earnings: it
# has only 2 stations, the home and one more for $80" - 18xx.games gives tokens [0, 80, 80, 80].
STATIONS_PER_CORPORATION = 2  # from rules summary (disagrees with the 4 tokens above)

# from rules summary: reservations and shared tokens (18xx.games: only the 6/9 event
# 'remove_reservations' exists so far).
RESERVATIONS = {  # from rules summary
    "BW": {"hex": "E22", "until_phase": "IV", "token_price": 40},  # reserved slot in Worcester, always $40
    "B&P": {"hex": "G22", "until_phase": "IV"},  # reserved slot in Boston once the green tile is there
}

# from rules summary: A&StL and StL&A share a marker placed free in Sherbrooke (F5) as soon
# as someone lays the yellow tile there.
SHARED_TOKEN = {"hex": "F5", "corporations": ["A&StL", "StL&A"], "price": 0}  # from rules summary

# Takeover game (optional rule 'takeover_game').  18xx.games has the option, NUM_TRAINS_TAKEOVER
# and the takeover round's step names, but not these facts:
TAKEOVER_EXTRA_CORPORATIONS = 5  # from rules summary (names/colours not given there either)

# decision: the five takeover-game corporations (the summary gives neither names nor colours;
# these are historical New England railroads).  No home: started on a free city from phase II.
TAKEOVER_CORPORATIONS = [
    {"float_percent": 20, "sym": "B&M", "name": "Boston & Maine", "tokens": [0, 80], "color": "#1D3F8F"},
    {
        "float_percent": 20,
        "sym": "NH",
        "name": "New York, New Haven & Hartford",
        "tokens": [0, 80],
        "color": "#C8102E",
    },
    {"float_percent": 20, "sym": "MEC", "name": "Maine Central", "tokens": [0, 80], "color": "#006847"},
    {
        "float_percent": 20,
        "sym": "CR",
        "name": "Connecticut River",
        "tokens": [0, 80],
        "color": "#8B5A2B",
        "text_color": "white",
    },
    {"float_percent": 20, "sym": "GT", "name": "Grand Trunk", "tokens": [0, 80], "color": "#4B0082"},
]
