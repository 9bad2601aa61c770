"""The 1856 map: layout, hexes (the tile DSL strings), the tile supply and named hexes.

Transcribed from the same sources as ``data.py`` (see its docstring)."""

# map.rb: LAYOUT = :flat (AXES not overridden, so the engine default for flat maps applies).
LAYOUT = "flat"

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
