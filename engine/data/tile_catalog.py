"""Tile catalogue: tile name -> (colour, 18xx.games tile DSL) for 1856, 1836Jr56 and 1833NE.

The DSL strings are data copied verbatim from 18xx.games (tobymao/18xx):
standard tiles from ``lib/engine/config/tile.rb``, title-specific tiles from the
``TILES`` constants of ``lib/engine/game/g_1856/map.rb``, ``g_1836_jr56/map.rb`` and
``g_1833_ne/map.rb``.  Edge numbers and node references are exactly theirs, so the
``rotation`` of a ``lay_tile`` action in an 18xx.games export applies unchanged.

Keys: a plain tile name (``"57"``) is the standard definition.  When a title defines a
tile under a name whose definition differs between titles, it is keyed
``"<name>@<title>"`` and there is no bare key, so a lookup without a title fails loudly:

* ``"125@1856"`` -- brown 2-slot city, exits 1..5, ``label=L`` (1856's own '125').
* ``"125@1836Jr56"`` -- the same track without a label (1836Jr56's own '125').  The
  18xx.games standard '125' (exits 0..4) is used by neither title and is omitted.

Tiles used (from the titles' ``TILES``):

* 1856: 1 2 3 4 5 6 7 8 9 14 15 16 17 18 19 20 23 24 25 26 27 28 29 39 40 41 42 43 44 45
  46 47 55 56 57 58 59 63 64 65 66 67 68 69 70 120 121 122 123 124 125@1856 126 127
* 1836Jr56: 2 3 4 5 6 7 8 9 14 15 16 17 18 19 20 23 24 25 26 27 28 29 39 40 41 42 43 44
  45 46 47 56 57 58 59 63 64 65 66 67 68 70 120 121 122 123 124 125@1836Jr56 126 127
* 1833NE: 3 4 5 6 7 8 9 57 58 N10 N11 14 15 16 17 19 20 23 24 25 26 27 28 29 30 31 619
  N21..N28 N40..N43 39 40 41 42 43 44 45 46 47 70 N32..N35 N50..N54 N60..N62
  (the N-tiles are 1833NE's own; their names clash with nothing).

``blank``/``city``/``town`` are the standard white (unlaid) tiles.
"""

from __future__ import annotations

TILES: dict[str, tuple[str, str]] = {
    # --- white (standard) ---
    "blank": ("white", ""),
    "city": ("white", "city=revenue:0"),
    "town": ("white", "town=revenue:0"),
    # --- yellow (standard) ---
    "1": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:1,b:_0;path=a:_0,b:3;path=a:0,b:_1;path=a:_1,b:4",
    ),
    "2": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:2",
    ),
    "3": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:1"),
    "4": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:3"),
    "5": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:1,b:_0"),
    "6": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:2,b:_0"),
    "7": ("yellow", "path=a:0,b:1"),
    "8": ("yellow", "path=a:0,b:2"),
    "9": ("yellow", "path=a:0,b:3"),
    "55": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:4",
    ),
    "56": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:2;path=a:1,b:_1;path=a:_1,b:3",
    ),
    "57": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"),
    "58": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:2"),
    "69": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:2,b:_1;path=a:_1,b:4",
    ),
    # --- green (standard) ---
    "14": ("green", "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0"),
    "15": ("green", "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0"),
    "16": ("green", "path=a:0,b:2;path=a:1,b:3"),
    "17": ("green", "path=a:1,b:3;path=a:0,b:4"),
    "18": ("green", "path=a:0,b:3;path=a:1,b:2"),
    "19": ("green", "path=a:0,b:3;path=a:2,b:4"),
    "20": ("green", "path=a:0,b:3;path=a:1,b:4"),
    "23": ("green", "path=a:0,b:3;path=a:0,b:4"),
    "24": ("green", "path=a:0,b:3;path=a:0,b:2"),
    "25": ("green", "path=a:0,b:2;path=a:0,b:4"),
    "26": ("green", "path=a:0,b:3;path=a:0,b:5"),
    "27": ("green", "path=a:0,b:3;path=a:0,b:1"),
    "28": ("green", "path=a:0,b:4;path=a:0,b:5"),
    "29": ("green", "path=a:0,b:2;path=a:0,b:1"),
    "30": ("green", "path=a:0,b:4;path=a:0,b:1"),
    "31": ("green", "path=a:0,b:2;path=a:0,b:5"),
    "59": ("green", "city=revenue:40;city=revenue:40;path=a:0,b:_0;path=a:2,b:_1;label=OO"),
    "120": (
        "green",
        "city=revenue:60;city=revenue:60;path=a:0,b:_0;path=a:_0,b:1;path=a:2,b:_1;path=a:_1,b:3;label=T",
    ),
    "121": ("green", "city=revenue:50,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=B-L"),
    "619": ("green", "city=revenue:30,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0"),
    # --- brown (standard) ---
    "39": ("brown", "path=a:0,b:2;path=a:0,b:1;path=a:1,b:2"),
    "40": ("brown", "path=a:0,b:2;path=a:2,b:4;path=a:0,b:4"),
    "41": ("brown", "path=a:0,b:3;path=a:0,b:1;path=a:1,b:3"),
    "42": ("brown", "path=a:0,b:3;path=a:3,b:5;path=a:0,b:5"),
    "43": ("brown", "path=a:0,b:3;path=a:0,b:2;path=a:1,b:3;path=a:1,b:2"),
    "44": ("brown", "path=a:0,b:3;path=a:1,b:4;path=a:0,b:1;path=a:3,b:4"),
    "45": ("brown", "path=a:0,b:3;path=a:2,b:4;path=a:0,b:4;path=a:2,b:3"),
    "46": ("brown", "path=a:0,b:3;path=a:2,b:4;path=a:3,b:4;path=a:0,b:2"),
    "47": ("brown", "path=a:0,b:3;path=a:1,b:4;path=a:1,b:3;path=a:0,b:4"),
    "63": (
        "brown",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;"
        "path=a:5,b:_0",
    ),
    "64": (
        "brown",
        "city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:4;label=OO",
    ),
    "65": (
        "brown",
        "city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:4;path=a:2,b:_1;path=a:_1,b:3;label=OO",
    ),
    "66": (
        "brown",
        "city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:2;label=OO",
    ),
    "67": (
        "brown",
        "city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:3;path=a:2,b:_1;path=a:_1,b:4;label=OO",
    ),
    "68": (
        "brown",
        "city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:4;label=OO",
    ),
    "70": ("brown", "path=a:0,b:1;path=a:0,b:2;path=a:1,b:3;path=a:2,b:3"),
    "122": (
        "brown",
        "city=revenue:80,slots:2;city=revenue:80,slots:2;path=a:0,b:_0;path=a:_0,b:1;path=a:2,b:_1;"
        "path=a:_1,b:3;label=T",
    ),
    "126": (
        "brown",
        "city=revenue:60,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;"
        "path=a:5,b:_0;label=Lon",
    ),
    "127": (
        "brown",
        "city=revenue:60,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;"
        "label=Bar",
    ),
    # --- gray (standard) ---
    "123": (
        "gray",
        "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=H",
    ),
    "124": (
        "gray",
        "city=revenue:100,slots:4;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=T",
    ),
    # --- 1856 (g_1856/map.rb TILES) ---
    "125@1856": (
        "brown",
        "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=L",
    ),
    # --- 1836Jr56 (g_1836_jr56/map.rb TILES) ---
    "125@1836Jr56": (
        "brown",
        "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0",
    ),
    # --- 1833NE (g_1833_ne/map.rb TILES) ---
    "N10": ("yellow", "town=revenue:20;path=a:2,b:_0;path=a:4,b:_0;label=Cape Cod"),
    "N11": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=Sh"),
    "N21": ("green", "city=revenue:30;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=Sh"),
    "N22": ("green", "city=revenue:40,slots:2;path=a:0,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=Pr"),
    "N23": (
        "green",
        "city=revenue:50,slots:2,loc:0.5;city=revenue:50,loc:3.5;offboard=revenue:0;path=a:0,b:_0;path=a:1,b:_0;"
        "path=a:5,b:_0;path=a:3,b:_1;path=a:4,b:_1;path=a:2,b:_2;label=B",
    ),
    "N24": (
        "green",
        "city=revenue:40;city=revenue:40;offboard=revenue:0;path=a:1,b:_0;path=a:2,b:_2;path=a:3,b:_1;label=Po",
    ),
    "N25": (
        "green",
        "city=revenue:50,slots:2,loc:0;city=revenue:50;path=a:0,b:_0;path=a:4,b:_1;path=a:5,b:_0;label=Mo",
    ),
    "N26": ("green", "town=revenue:30;path=a:1,b:_0;path=a:3,b:_0;path=a:3,b:5;label=We"),
    "N27": (
        "green",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=Ma",
    ),
    "N28": (
        "green",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:5,b:_0;label=Ma",
    ),
    "N40": ("green", "town=revenue:20;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0"),
    "N41": ("green", "town=revenue:20;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0"),
    "N42": ("green", "town=revenue:20;path=a:0,b:_0;path=a:4,b:_0;path=a:5,b:_0"),
    "N43": ("green", "town=revenue:20;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0"),
    "N32": (
        "brown",
        "city=revenue:80,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=Pr",
    ),
    "N33": (
        "brown",
        "city=revenue:90,slots:4;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=B",
    ),
    "N34": ("brown", "city=revenue:70,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=Po"),
    "N35": ("brown", "city=revenue:80,slots:3;path=a:0,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=Mo"),
    "N50": (
        "brown",
        "city=revenue:60,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0",
    ),
    "N51": ("brown", "city=revenue:50,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0"),
    "N52": ("brown", "city=revenue:50,slots:2;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0"),
    "N53": ("brown", "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:5,b:_0"),
    "N54": (
        "brown",
        "city=revenue:70,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0",
    ),
    "N60": ("brown", "town=revenue:30;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0"),
    "N61": ("brown", "town=revenue:30;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0"),
    "N62": ("brown", "town=revenue:30;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:5,b:_0"),
}
