"""Sanity checks for the static title data modules (engine/titles/g*_data.py).

These only check that the transcribed 18xx.games data is self-consistent: every hex id once,
homes/destinations/blocked hexes on the map, well-formed market, trains, phases, companies,
cash tables covering the player counts, and so on.
"""

import importlib
import re

import pytest

MODULES = ["g1856.data", "g1836jr56.data", "g1833ne.data"]

REQUIRED_NAMES = [
    "TITLE",
    "LAYOUT",
    "CURRENCY_FORMAT",
    "BANK_CASH",
    "STARTING_CASH",
    "CERT_LIMIT",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MARKET",
    "MARKET_ZONES",
    "PHASES",
    "TRAINS",
    "COMPANIES",
    "CORPORATIONS",
    "HEXES",
    "TILES",
    "LOCATION_NAMES",
    "OPTIONAL_RULES",
    "BASE_DEFAULTS_USED",
]

HEX_ID = re.compile(r"^[A-Z]+\d+$")
MARKET_CELL = re.compile(r"^\d+[a-z]*$")
TILE_COLORS = {"white", "yellow", "green", "brown", "gray", "black", "blue", "red"}


@pytest.fixture(params=MODULES)
def data(request):
    return importlib.import_module(f"engine.titles.{request.param}")


def map_hexes(data):
    return [h for by_code in data.HEXES.values() for coords in by_code for h in coords]


def flatten_hex_refs(value):
    """Hex ids in a destination/coordinates value: 'E5', ['A20', 'F15'] or [['O2', 'N1']]."""
    if isinstance(value, str):
        return [value]
    out = []
    for item in value:
        out.extend(flatten_hex_refs(item))
    return out


def all_train_names(data):
    names = set()
    trains = list(data.TRAINS)
    for variant_trains in getattr(data, "OPTIONAL_RULE_TRAINS", {}).values():
        trains.extend(variant_trains)
    for train in trains:
        names.add(train["name"])
        for variant in train.get("variants", []):
            names.add(variant["name"])
    return names


def test_required_names(data):
    for name in REQUIRED_NAMES:
        assert hasattr(data, name), f"{data.__name__} lacks {name}"
    assert data.LAYOUT in ("flat", "pointy")
    assert "{}" in data.CURRENCY_FORMAT
    assert data.CURRENCY_FORMAT.format(5) != data.CURRENCY_FORMAT


def test_titles_are_distinct():
    titles = [importlib.import_module(f"engine.titles.{m}").TITLE for m in MODULES]
    assert titles == ["1856", "1836Jr56", "1833NE"]


def test_every_hex_once(data):
    hexes = map_hexes(data)
    assert len(hexes) == len(set(hexes)), [h for h in hexes if hexes.count(h) > 1]
    for h in hexes:
        assert HEX_ID.match(h), h
    for color, by_code in data.HEXES.items():
        assert color in TILE_COLORS, color
        for coords, code in by_code.items():
            assert isinstance(coords, tuple) and coords
            assert isinstance(code, str)


def test_homes_and_destinations_on_map(data):
    hexes = set(map_hexes(data))
    for corp in data.CORPORATIONS:
        if "coordinates" in corp:
            for h in flatten_hex_refs(corp["coordinates"]):
                assert h in hexes, (corp["sym"], h)
    syms = {c["sym"] for c in data.CORPORATIONS}
    for table in ("DESTINATIONS", "ALTERNATE_DESTINATIONS"):
        for sym, dest in getattr(data, table, {}).items():
            assert sym in syms, (table, sym)
            for h in flatten_hex_refs(dest):
                assert h in hexes, (table, sym, h)


def test_named_hex_constants_on_map(data):
    hexes = set(map_hexes(data))
    assert set(data.LOCATION_NAMES) <= hexes, set(data.LOCATION_NAMES) - hexes
    for name in dir(data):
        value = getattr(data, name)
        # 1836Jr56's HAMILTON_HEX is the off-map sentinel 'A1' ("Don't use").
        skip = name == "HAMILTON_HEX" and data.TITLE != "1856"
        if name.endswith("_HEX") and not skip:
            assert value in hexes, (name, value)
        if name.endswith("_HEXES") and name != "HEXES":
            for h in value:
                assert h in hexes, (name, h)


def test_ability_hexes_on_map(data):
    hexes = set(map_hexes(data))
    for company in data.COMPANIES:
        for ability in company.get("abilities", []):
            for h in ability.get("hexes", []):
                assert h in hexes, (company["sym"], ability["type"], h)


def test_tiles(data):
    assert data.TILES
    for name, spec in data.TILES.items():
        assert isinstance(name, str) and name
        if isinstance(spec, dict):
            assert set(spec) == {"count", "color", "code"}, name
            count = spec["count"]
            assert spec["color"] in TILE_COLORS
            assert isinstance(spec["code"], str) and spec["code"]
        else:
            count = spec
        if count == "unlimited":
            continue
        assert isinstance(count, int) and not isinstance(count, bool) and count > 0, (name, count)


def test_market(data):
    assert isinstance(data.MARKET, list) and data.MARKET
    letters = set()
    for row in data.MARKET:
        assert isinstance(row, list) and row
        for cell in row:
            assert isinstance(cell, str) and MARKET_CELL.match(cell), cell
            letters.update(re.sub(r"^\d+", "", cell))
    assert letters <= set(data.MARKET_ZONES), letters - set(data.MARKET_ZONES)
    assert any(c.endswith("p") for row in data.MARKET for c in row)


def test_trains(data):
    names = all_train_names(data)
    trains = list(data.TRAINS)
    for variant_trains in getattr(data, "OPTIONAL_RULE_TRAINS", {}).values():
        trains.extend(variant_trains)
    for train in trains:
        for key in ("name", "distance", "price", "num"):
            assert key in train, (train.get("name"), key)
        assert isinstance(train["price"], int) and train["price"] > 0
        assert train["num"] == "unlimited" or isinstance(train["num"], int) and train["num"] > 0
        assert isinstance(train["distance"], (int, list))
        for key in ("rusts_on", "obsolete_on", "available_on"):
            if key in train:
                assert train[key] in names, (train["name"], key, train[key])
        for event in train.get("events", []):
            assert isinstance(event, dict) and "type" in event
        for name in train.get("discount", {}):
            assert name in names
        for variant in train.get("variants", []):
            assert {"name", "distance", "price"} <= set(variant)
    top = [t["name"] for t in data.TRAINS]
    assert len(top) == len(set(top))


def test_phases(data):
    phase_lists = [data.PHASES, *getattr(data, "OPTIONAL_RULE_PHASES", {}).values()]
    names = all_train_names(data)
    for phases in phase_lists:
        phase_names = [p["name"] for p in phases]
        assert len(phase_names) == len(set(phase_names)), phase_names
        assert "on" not in phases[0]
        for phase in phases:
            assert {"name", "train_limit", "tiles", "operating_rounds"} <= set(phase), phase
            assert isinstance(phase["train_limit"], int) and phase["train_limit"] > 0
            assert isinstance(phase["operating_rounds"], int) and phase["operating_rounds"] > 0
            assert set(phase["tiles"]) <= TILE_COLORS
            assert isinstance(phase.get("status", []), list)
            if "on" in phase:
                assert phase["on"] in names, phase


def test_companies(data):
    syms = [c["sym"] for c in data.COMPANIES]
    assert len(syms) == len(set(syms))
    for company in data.COMPANIES:
        assert isinstance(company["sym"], str) and company["sym"]
        assert isinstance(company["value"], int) and company["value"] > 0
        assert isinstance(company["revenue"], int) and company["revenue"] >= 0
        assert isinstance(company["name"], str) and isinstance(company["desc"], str)
        for ability in company.get("abilities", []):
            assert "type" in ability


def test_corporations(data):
    syms = [c["sym"] for c in data.CORPORATIONS]
    assert len(syms) == len(set(syms))
    for corp in data.CORPORATIONS:
        assert {"sym", "name", "tokens", "color"} <= set(corp), corp["sym"]
        assert all(isinstance(t, int) and t >= 0 for t in corp["tokens"])
        for ability in corp.get("abilities", []):
            assert "type" in ability


def test_cash_tables_cover_player_counts(data):
    players = range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
    for n in players:
        assert isinstance(data.STARTING_CASH[n], int) and data.STARTING_CASH[n] > 0
        limit = data.CERT_LIMIT[n]
        if isinstance(limit, dict):  # 1833NE: {players: {num_corporations: limit}}
            assert limit and all(isinstance(v, int) and v > 0 for v in limit.values())
        else:
            assert isinstance(limit, int) and limit > 0
    for table in getattr(data, "POST_NATIONALIZATION_CERT_LIMIT", {}).values():
        for n in players:
            assert table[n] > 0
    assert isinstance(data.BANK_CASH, int) and data.BANK_CASH > 0


def test_optional_rules(data):
    for rule in data.OPTIONAL_RULES:
        assert {"sym", "short_name", "desc"} <= set(rule)
    syms = {r["sym"] for r in data.OPTIONAL_RULES}
    for table in ("OPTIONAL_RULE_TRAINS", "OPTIONAL_RULE_PHASES"):
        assert set(getattr(data, table, {})) <= syms


def test_base_defaults_not_overridden(data):
    for name in data.BASE_DEFAULTS_USED:
        assert not hasattr(data, name), f"{name} is both overridden and listed as a base default"


def test_1856_train_ids_match_real_games():
    # The exported 18xx.games games (commit 111f7f6) use train ids 2-0..2-5, 3-0..3-4, 4-0..4-3,
    # 5-0..5-2 and no prime trains; D-trains (and the variant's 8s) are unlimited, D-0, D-1, ...
    data = importlib.import_module("engine.titles.g1856.data")
    nums = {t["name"]: t["num"] for t in data.TRAINS}
    assert nums == {"2": 6, "3": 5, "4": 4, "5": 3, "6": 2, "D": "unlimited"}
    assert data.PERCENT_TO_OPERATE_LAST_TRAINS == [f"{n}-{nums[n] - 1}" for n in ("2", "3", "4", "5")]


def test_1836jr56_train_ids_match_real_games():
    data = importlib.import_module("engine.titles.g1836jr56.data")
    nums = {t["name"]: t["num"] for t in data.TRAINS}
    assert nums == {"2": 5, "3": 4, "4": 3, "5": 2, "6": 2, "8": 5}
    diesel = {t["name"]: t["num"] for t in data.OPTIONAL_RULE_TRAINS["diesel_variant"]}
    assert diesel == {"2": 5, "3": 4, "4": 3, "5": 2, "6": 2, "D": 22}
    assert data.PERCENT_TO_OPERATE_LAST_TRAINS == [f"{n}-{nums[n] - 1}" for n in ("2", "3", "4", "5")]
