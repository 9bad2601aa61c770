"""Moves on the map in an operating turn: ``/lay`` (track), ``/token`` (stations), ``/remove``
(the national's surplus stations) and ``/assign`` (a private's marker, the 1856 port).
"""

from __future__ import annotations

import random
from typing import Any

from .. import actions as A
from ..choice import Choice
from ..decisions import (
    city_id,
    distinct_rotations,
    lay_cost,
    legal_tile_lays,
    private_tile_lays,
    tile_lay_hexes,
    track_exits,
)
from ..entities import listed
from ..errors import BAD_OPTION, UNAVAILABLE, GameError
from ..game import Game
from ..map import hexgrid
from ..map.tiles import Tile
from ..rounds.operating import OperatingRound
from .spec import Move, Option, Params, base, number, pick, text


def _operating(game: Game) -> OperatingRound | None:
    return game.round if isinstance(game.round, OperatingRound) else None


# ---------------------------------------------------------------------- /lay
def _lay_hexes(game: Game, entity: str) -> list[str]:
    if entity in game.companies:
        return sorted(private_tile_lays(game, entity))
    if entity in game.corporations:
        return tile_lay_hexes(game, entity)
    return []


def _lays_on(game: Game, entity: str, hex_id: str) -> dict[str, list[int]]:
    if entity in game.companies:
        return private_tile_lays(game, entity).get(hex_id, {})
    if entity in game.corporations:
        return legal_tile_lays(game, entity, {hex_id}).get(hex_id, {})
    return {}


def tile_label(game: Game, tile_id: str) -> str:
    name = tile_id.rsplit("-", 1)[0]
    t = game.board.tile_for(name)
    parts = []
    if t.cities:
        parts.append(f"{len(t.cities)} cit{'ies' if len(t.cities) > 1 else 'y'}")
    if t.towns:
        parts.append(f"{len(t.towns)} town{'s' if len(t.towns) > 1 else ''}")
    if not parts:
        parts.append("track")
    rev = next((n.revenue for n in t.nodes if isinstance(n.revenue, int) and n.revenue), None)
    label = f"{name} - {t.color} {', '.join(parts)}"
    return label + (f", {rev}" if rev else "")


def _tile_order(tile_id: str) -> int:
    name = tile_id.split("-")[0]
    return int(name) if name.isdigit() else 0


def lay_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """The hexes where the entity may lay track, then the tiles for a hex, then their rotations."""
    if _operating(game) is None:
        return []
    if "hex" not in given:
        ability = game.companies[entity].ability("tile_lay") if entity in game.companies else None
        free = bool(ability and ability.get("free"))  # (1836Jr56's E-SF: its tile costs nothing)
        return [Choice(h, _hex_label(game, h, free)) for h in _lay_hexes(game, entity)]
    tiles = _lays_on(game, entity, given["hex"].upper())
    if "tile" not in given:
        return [Choice(t, tile_label(game, t)) for t in sorted(tiles, key=_tile_order)]
    tile = given["tile"]
    if "-" not in tile:  # a bare tile name: use the id we offered
        tile = next((t for t in tiles if t.rsplit("-", 1)[0] == tile), tile)
    hex_id = given["hex"].upper()

    def paid(r: int) -> str:  # (a corporation's lay; a private's own is its ability's)
        cost = lay_cost(game, entity, hex_id, tile, r) if entity in game.corporations else 0
        return f"; costs {game.fmt(cost)}" if cost else ""

    return [Choice(str(r), f"rotation {r}: {track_text(game, hex_id, tile, r)}{paid(r)}") for r in tiles.get(tile, [])]


def _hex_label(game: Game, hex_id: str, free: bool = False) -> str:
    """ "F17 Toronto, terrain $80": the hex, its place name, what a lay there costs ("free" for
    a private's free lay, whatever its terrain)."""
    h = game.board.hexes[hex_id]
    cost = game.board.terrain_cost(h)
    return f"{hex_id} {h.location}".strip() + (", free" if free else f", terrain {game.fmt(cost)}" if cost else "")


def city_label(game: Game, hex_id: str, node_index: int) -> str:
    """A city as players read it: "L15 Hamilton", and on a hex with several cities which one
    ("city 2, track to K14, L16")."""
    h = game.board.hexes[hex_id]
    label = f"{hex_id} {h.location}".strip()
    cities = [c.index for c in h.tile.cities]
    if len(cities) > 1 and node_index in cities:
        toward = sorted({h.neighbors[e] for e in h.tile.node_exits(node_index) if e in h.neighbors})
        label += f", city {cities.index(node_index) + 1}" + (f" (track to {', '.join(toward)})" if toward else "")
    return label


def city_value(game: Game, hex_id: str, node_index: int) -> str:
    """The value a player types for a city: the hex (one city) or "HEX/N" (its N-th city)."""
    cities = [c.index for c in game.board.hexes[hex_id].tile.cities]
    return hex_id if len(cities) == 1 else f"{hex_id}/{cities.index(node_index) + 1}"


def read_city(game: Game, raw: str, option: str = "city") -> str:
    """A city as typed (a hex with one city, "HEX/N", or an 18xx.games city id) -> the city id."""
    hex_part, slash, pos = raw.partition("/")
    if hex_part.upper() in game.board.hexes:
        h = game.board.hexes[hex_part.upper()]
        cities = h.tile.cities
        if slash:
            if not (pos.isascii() and pos.isdigit()) or not 1 <= int(pos) <= len(cities):
                raise GameError(f"{h.id} has {len(cities)} cit{'y' if len(cities) == 1 else 'ies'}; "
                                f"write {h.id}/1" + (f" to {h.id}/{len(cities)}" if len(cities) > 1 else ""),
                                BAD_OPTION, option=option, value=raw)
            return city_id(game, h.id, cities[int(pos) - 1].index)
        if len(cities) != 1:
            raise GameError(f"{h.id} has {len(cities)} cities; write {h.id}/1 to {h.id}/{len(cities)} "
                            f"(or pick one from the {option}: list)", BAD_OPTION, option=option, hex=h.id)
        return city_id(game, h.id, cities[0].index)
    return raw


def tile_name(tile_id: str) -> str:
    return tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id


def track_text(g: Game, hex_id: str, tile_id: str, rotation: int) -> str:
    """ "track to D15, E18": where the tile's track leads at that rotation; a tile of separate
    tracks says which hexes each joins ("track D17-F17 and D19-E16"), and a neighbour whose tile
    has track but none on the side facing this hex is named: the track ends there for now
    ("track to D17, F15 (London has no track on that side yet)")."""
    groups = track_groups(g, hex_id, tile_id, rotation)
    if len(groups) > 1:
        said = "track " + " and ".join("-".join(group) for group in groups)
    else:
        said = "track to " + ", ".join(track_exits(g, hex_id, tile_id, rotation))
    ends = [g.board.hexes[n].location or n for n in dead_ends(g, hex_id, tile_id, rotation)]
    if ends:
        said += f" ({listed(ends)} {'has' if len(ends) == 1 else 'have'} no track on that side yet)"
    return said


def _rotated(g: Game, tile_id: str, rotation: int) -> Tile:
    return g.board.tile_for(tile_id.rsplit("-", 1)[0]).with_rotation(rotation)


def track_groups(g: Game, hex_id: str, tile_id: str, rotation: int) -> list[list[str]]:
    """The neighbouring hexes the tile's track leads to, one list per separate track (a city or
    town joins the tracks that meet in it), each sorted, in the order of their first hex."""
    h = g.board.hexes[hex_id]
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(end: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(end, end) != end:
            end = parent[end]
        return end

    tile = _rotated(g, tile_id, rotation)
    for path in tile.paths:
        parent[root((path.a.kind, path.a.num))] = root((path.b.kind, path.b.num))
    groups: dict[tuple[str, int], set[str]] = {}
    for edge in tile.exits:
        if edge in h.neighbors:
            groups.setdefault(root(("edge", edge)), set()).add(h.neighbors[edge])
    return sorted((sorted(group) for group in groups.values()), key=lambda group: group[0])


def dead_ends(g: Game, hex_id: str, tile_id: str, rotation: int) -> list[str]:
    """The neighbours the tile's track leads to whose tile has track, but none on the side facing
    ``hex_id``: the track ends at their border until that tile is upgraded."""
    h = g.board.hexes[hex_id]
    out = []
    for edge in sorted(_rotated(g, tile_id, rotation).exits):
        other = h.neighbors.get(edge)
        if other is None:
            continue
        there = g.board.hexes[other].tile
        if there.paths and hexgrid.opposite(edge) not in there.exits:
            out.append(other)
    return sorted(out)


def rotations_text(g: Game, hex_id: str, tile_id: str, rotations: list[int]) -> str:
    """ "3 (track to D15, E18) or 5 (track to D17, F17)"."""
    return " or ".join(f"{r} ({track_text(g, hex_id, tile_id, r)})" for r in distinct_rotations(g, tile_id, rotations))


def only_rotation(g: Game, e: str, hex_id: str, tile: str) -> int:
    """No rotation given: the only legal one (rotations laying the same track count once), else
    the choice is the player's."""
    rots = None
    for tid, r in _lays_on(g, e, hex_id).items():  # (a corporation's lays, or a private's)
        if tile_name(tid) == tile_name(tile):
            rots = r
    if not rots:
        return 0  # not a normal lay here: the engine says why (or a private's lay takes it)
    rots = distinct_rotations(g, tile, rots)
    if len(rots) == 1:
        return rots[0]
    if e not in g.corporations:  # a private's lay: as its /moves lines are typed, a rotation that fits
        return 0 if 0 in rots else rots[0]
    raise GameError(
        f"Tile {tile_name(tile)} fits {hex_id} in rotation {rotations_text(g, hex_id, tile, rots)}; "
        f"add rotation:, for example /lay hex:{hex_id} tile:{tile_name(tile)} rotation:{rots[0]}",
        BAD_OPTION, option="rotation", rotations=rots)


def build_lay(g: Game, e: str, p: Params) -> A.Action:
    hex_id = pick(text(p, "hex").upper(), list(g.board.hexes), "hex", lambda: _lay_hexes(g, e))
    tile = text(p, "tile")
    name = tile.rsplit("-", 1)[0] if tile.count("-") else tile
    if "-" not in tile:
        supply = g.board.supply.get(tile, [])
        tile = sorted(supply)[0] if supply else tile
    elif tile not in g.board.supply.get(name, []) and not g.board.supply.get(name, []):
        raise GameError(f"There is no tile {name} left", UNAVAILABLE, tile=name)
    rotation = number(p, "rotation", hi=5) if p.get("rotation") else only_rotation(g, e, hex_id, tile)
    return A.LayTile(**base(g, e), hex=hex_id, tile=tile, rotation=rotation)


def sample_lay(game: Game, rng: random.Random, e: str) -> A.Action | None:
    if e in game.companies:
        lays = private_tile_lays(game, e)
    else:
        # hex by hex in random order until one takes a tile (cheaper than listing all)
        lays = {}
        hexes = sorted(game.board.connectivity(e)[0])
        rng.shuffle(hexes)
        for hid in hexes:
            lays = legal_tile_lays(game, e, hexes={hid})
            if lays:
                break
    if not lays:
        return None
    hid = rng.choice(sorted(lays))
    tile = rng.choice(sorted(lays[hid]))
    return A.LayTile(**base(game, e), hex=hid, tile=tile, rotation=rng.choice(lays[hid][tile]))


# ---------------------------------------------------------------------- /token
def _private_token(game: Game, company_sym: str) -> list[Choice]:
    """The cities where a private places its owning corporation's station (1856 WSRC, the
    1836Jr56 teleport station): a free space on the ability's hexes."""
    company = game.companies[company_sym]
    corp = game.corporations.get(company.owner or "")
    ab = company.ability("token") or company.ability("teleport")
    if corp is None or ab is None or corp.next_token() is None:
        return []
    candidates = []
    for hid in ab.get("hexes", []):
        h = game.board.hexes[hid]
        if h.tokened_by(corp.sym):
            continue
        candidates += [(c.index, hid) for c in h.tile.cities if game.board.free_slots(h, c.index, corp.sym) > 0]
    return [Choice(city_value(game, hid, ni), city_label(game, hid, ni)) for ni, hid in candidates
            if game.accepts(A.PlaceToken(entity=company_sym, entity_type="company", city=city_id(game, hid, ni)))]


def token_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    rnd = _operating(game)
    if rnd is not None and entity in game.companies:
        return _private_token(game, entity)
    if rnd is None or entity not in game.corporations:
        return []
    corp = game.corporations[entity]
    pending = [p for p in game.pending_tokens if p[-1] == entity]
    if pending or rnd.state.get("home_pending"):
        hid: str | None = pending[0][1] if pending else corp.home
        owner = pending[0][0] if pending else entity
        if hid is None:
            return []
        h = game.board.hexes[hid]
        return [Choice(city_value(game, hid, c.index), city_label(game, hid, c.index))
                for c in h.tile.cities if game.board.free_slots(h, c.index, owner) > 0]
    out = []
    for hid, ni in sorted(game.tokenable_cities(corp)):
        cost = game.token_cost(corp, hid) or 0  # a private may make one station free
        if cost <= corp.cash:  # else take a loan first, then the station becomes affordable
            out.append(Choice(city_value(game, hid, ni),
                              f"{city_label(game, hid, ni)}, {game.fmt(cost)}, leaves {game.fmt(corp.cash - cost)}"))
    return out


def _city_slots(game: Game, city: str) -> tuple[Any, int] | None:
    """(hex, city node index) of an 18xx.games city id "<tile or hex id>-<city position>"."""
    base_id, _, pos = city.rpartition("-")
    if not pos.isdigit() or not pos.isascii():
        return None
    for h in game.board.hexes.values():
        if (h.tile_id or h.id) == base_id and int(pos) < len(h.tile.cities):
            return h, h.tile.cities[int(pos)].index
    return None


def slot_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    try:
        city = read_city(game, (given.get("city") or "").strip())
    except GameError:
        return []
    found = _city_slots(game, city)
    if found is None:
        return []
    h, ci = found
    return [Choice(str(i), f"slot {i} (free)") for i, holder in enumerate(h.city_slots(ci)) if holder is None]


def build_token(g: Game, e: str, p: Params) -> A.Action:
    city = read_city(g, text(p, "city"))
    slot = number(p, "slot", hi=10) if p.get("slot") else None
    return A.PlaceToken(**base(g, e), city=city, slot=slot)


# ---------------------------------------------------------------------- /remove, /assign
def remove_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    pending = game.token_removals
    if not pending:
        return []
    out = []
    for hid in pending[0]["hexes"]:
        h = game.board.hexes[hid]
        for ci, slots in h.tokens.items():
            if entity in slots:
                out.append(Choice(city_value(game, hid, ci), f"remove the {entity} station on {city_label(game, hid, ci)}"))
    return out


def assign_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    company = game.companies.get(entity)
    ab = company.ability("assign_hexes") if company else None
    if ab is None:
        return []
    owner = company.owner if company is not None else None
    reached = {hid for hid, _ in game.board.connectivity(owner)[1]} if owner in game.corporations else set()
    hexes = [h for h in ab.get("hexes", []) if h in game.board.hexes]
    # the stops the owner's network reaches first: there the marker counts in its next run
    return [Choice(h, f"{h} {game.board.hexes[h].location}".strip() + (f" ({owner} reaches it)" if h in reached else ""))
            for h in sorted(hexes, key=lambda h: h not in reached)]


def build_assign(g: Game, e: str, p: Params) -> A.Action:
    target = pick(text(p, "target").upper(), list(g.board.hexes), "hex")
    return A.Assign(**base(g, e), target=target, target_type="hex")


MOVES = (
    Move("lay", "lay_tile", "lay or upgrade a tile", "/lay hex:F17 tile:57 rotation:2",
         (Option("hex", "hex", choices=lay_choices), Option("tile", "tile", choices=lay_choices),
          Option("rotation", "rotation 0-5", required=False, kind="number", choices=lay_choices)),
         build_lay,
         lambda a: {"hex": a["hex"], "tile": a["tile"], "rotation": a["rotation"]},
         sample=sample_lay, ask_entity=True),
    Move("token", "place_token", "place a station token", "/token city:F17",
         (Option("city", "city (or hex)", choices=token_choices),
          Option("slot", "slot", required=False, kind="number", choices=slot_choices)),
         build_token, lambda a: {"city": a["city"], "slot": a.get("slot")}, ask_entity=True),
    Move("remove", "remove_token", "the national removes one of its stations", "/remove city:57-0-0",
         (Option("city", "station to remove", choices=remove_choices),),
         lambda g, e, p: A.RemoveToken(**base(g, e), city=read_city(g, text(p, "city"))),
         lambda a: {"city": a["city"]}),
    Move("assign", "assign", "place a private's marker (port)", "/assign target:H17",
         (Option("target", "hex", choices=assign_choices),),
         build_assign, lambda a: {"target": a["target"]}, ask_entity=True),
)
