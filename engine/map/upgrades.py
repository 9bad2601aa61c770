"""Pure upgrade legality of tiles (:mod:`engine.map.tiles`): colours, paths kept, rotations, labels,
city and town counts, which old city becomes which new one.

The checks mirror 18xx.games (``Tile#paths_are_subset_of?``, ``Path#<=``,
``Step::Tracker#legal_tile_rotation?``, ``Game::Base#upgrades_to?``).  Checks that need
game state (connectivity, map edges, blocked borders, costs, phase colours, counts) are
the engine's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .tiles import COLOR_ORDER, Path, Tile


def color_upgrades(old_color: str, new_color: str) -> bool:
    """True when ``new_color`` is exactly one step after ``old_color`` in COLOR_ORDER."""
    if old_color not in COLOR_ORDER or new_color not in COLOR_ORDER:
        return False
    return COLOR_ORDER.index(new_color) == COLOR_ORDER.index(old_color) + 1


_TRACK_MATCHES = {"broad": {"broad", "dual"}, "narrow": {"narrow", "dual"}, "dual": {"dual"}}

# An end key is ("edge", n) or (node kind, 0): nodes match by kind, as 18xx.games does.
_EndKey = tuple[str, int]


def _end_keys(tile: Tile, path: Path) -> list[_EndKey]:
    keys: list[_EndKey] = []
    for end in path.ends:
        if end.kind == "edge":
            keys.append(("edge", end.num))
            continue
        node = tile.nodes[end.num]
        if node.kind != "junction":
            keys.append((node.kind, 0))
            continue
        # a junction stands for the far ends of the other paths meeting at it
        for other in tile.paths:
            if other is path or end not in other.ends:
                continue
            for far in other.ends:
                if far.kind == "edge":
                    keys.append(("edge", far.num))
                elif tile.nodes[far.num].kind != "junction":
                    keys.append((tile.nodes[far.num].kind, 0))
    return keys


def _path_within(old: Tile, path: Path, new: Tile, other: Path) -> bool:
    """18xx.games ``Path#<=``: every end of ``path`` matches an end of ``other``; tracks match."""
    other_keys = _end_keys(new, other)
    if not all(k in other_keys for k in _end_keys(old, path)):
        return False
    return other.track in _TRACK_MATCHES.get(path.track, {path.track})


def _paths_subset(old: Tile, new: Tile) -> bool:
    return all(any(_path_within(old, p, new, q) for q in new.paths) for p in old.paths)


def _distinct_assignment(old_ct: list[frozenset[int]], new_ct: list[frozenset[int]]) -> bool:
    for chosen in itertools.permutations(range(len(new_ct)), len(old_ct)):
        if all(o <= new_ct[j] for o, j in zip(old_ct, chosen, strict=True)):
            return True
    return False


def paths_preserved(old: Tile, new: Tile, *, distinct_cities: bool = False) -> bool:
    """Does ``new`` (already rotated) keep all track of ``old`` (already rotated)?

    As 18xx.games ``legal_tile_rotation?`` (its pure part): every old path is within a new
    path (edges by number, nodes by kind, broad/narrow/dual compatible); no more new
    cities/towns are unconnected to old ones than the number of cities/towns added; and
    when both tiles have several cities, each old city/town's exits lie on exactly one new
    city/town.  ``distinct_cities=True`` also demands that different old cities/towns map
    to different new ones (18xx.games does not check this).
    """
    key = (id(old), id(new), distinct_cities)
    hit = _PRESERVED.get(key)
    if hit is not None and hit[0] is old and hit[1] is new:
        return hit[2]
    got = _preserved(old, new, distinct_cities)
    if len(_PRESERVED) > 20000:
        _PRESERVED.clear()
    _PRESERVED[key] = (old, new, got)  # (the tiles kept alive: their ids stay theirs)
    return got


# (id(old), id(new), distinct_cities) -> (old, new, the answer): tiles are immutable, and the
# same pairs are asked again at every tile-lay listing (rotated tiles are shared: Tile.with_rotation)
_PRESERVED: dict[tuple[int, int, bool], tuple[Tile, Tile, bool]] = {}


def _preserved(old: Tile, new: Tile, distinct_cities: bool) -> bool:
    if not _paths_subset(old, new):
        return False
    old_ct = list(old.city_town_edges().values())
    new_ct = list(new.city_town_edges().values())
    extra = max(0, len(new_ct) - len(old_ct))
    unconnected = sum(1 for n in new_ct if all(not (n & o) for o in old_ct))
    if unconnected > extra:
        return False
    if len(new.cities) > 1 and len(old.cities) > 1:
        if not all(sum(1 for n in new_ct if o <= n) == 1 for o in old_ct):
            return False
    if distinct_cities and not _distinct_assignment(old_ct, new_ct):
        return False
    return True


def legal_rotations(old: Tile, new: Tile, *, distinct_cities: bool = False) -> list[int]:
    """Absolute rotations r of ``new`` with ``paths_preserved(old, new.with_rotation(r))``.

    Symmetric tiles may list several equivalent rotations; callers decide.
    """
    return [
        r for r in range(6) if paths_preserved(old, new.with_rotation(r), distinct_cities=distinct_cities)
    ]


def paths_subset_any_rotation(old: Tile, new: Tile) -> bool:
    """18xx.games ``Tile#paths_are_subset_of?``: old track fits new track at some rotation."""
    if old.junctions and new.junctions:
        # Lawson to Lawson: only exits must be kept
        return any(old.exits <= {(e + r) % 6 for e in new.exits} for r in range(6))
    return any(_paths_subset(old, new.rotate(r)) for r in range(6))


def labels_match(old: Tile, new: Tile) -> bool:
    """Same label, or the old hex's future label when ``new`` is that label's colour."""
    fl = old.future_label
    if fl is not None and fl.color == new.color:
        return fl.label == new.label
    return old.label == new.label


def _ct_edges_subset_any_rotation(old: Tile, new: Tile) -> bool:
    old_ct = list(old.city_town_edges().values())
    new_ct = list(new.city_town_edges().values())
    return any(all(any({(e + r) % 6 for e in o} <= n for n in new_ct) for o in old_ct) for r in range(6))


def city_town_counts_ok(old: Tile, new: Tile) -> bool:
    """18xx.games ``upgrades_to_correct_city_town?`` (titles may override)."""
    if len(old.towns) != len(new.towns):
        return False
    if old.label is None and len(old.cities) != len(new.cities):
        return False
    if len(old.cities) > 1 and len(new.cities) > 1 and not _ct_edges_subset_any_rotation(old, new):
        return False
    if old.label is not None and old.cities and not new.cities:
        return False
    if old.color == "white" and old.label == "OO" and len(old.cities) != len(new.cities):
        return False
    return True


def upgrade_candidates_basic(old: Tile, new: Tile) -> bool:
    """Could ``new`` replace ``old`` in some rotation, ignoring game state?

    Colour step, different tile, old track kept at some rotation, label rule (with future
    labels), city/town counts.  Titles override what differs (e.g. 1856 Hamilton, towns).
    """
    if old.name == new.name and old.color == new.color:
        return False
    if not color_upgrades(old.color, new.color):
        return False
    if not paths_subset_any_rotation(old, new):
        return False
    if not labels_match(old, new):
        return False
    return city_town_counts_ok(old, new)


def city_correspondence(old: Tile, new: Tile) -> dict[int, int | None]:
    """Which new city each old city becomes (node indexes), as 18xx.games ``Hex#lay`` maps
    tokens and reservations: by order when the old cities have no track, else the first new
    city whose exits include the old city's, then leftovers by position / first unused."""
    old_cities = old.cities
    new_cities = new.cities
    out: dict[int, int | None] = {}
    if all(not old.node_exits(c.index) for c in old_cities) and len(old_cities) == len(new_cities):
        return {o.index: n.index for o, n in zip(old_cities, new_cities, strict=True)}
    for c in old_cities:
        exits = old.node_exits(c.index)
        match = next((n.index for n in new_cities if exits and exits <= new.node_exits(n.index)), None)
        if match is not None:
            out[c.index] = match
    used = set(out.values())
    for position, c in enumerate(old_cities):
        if c.index in out:
            continue
        candidate = new_cities[position].index if position < len(new_cities) else None
        if candidate is None or candidate in used:
            candidate = next((n.index for n in new_cities if n.index not in used), None)
        out[c.index] = candidate
        if candidate is not None:
            used.add(candidate)
    return out


def upgrade_options(old: Tile, candidates: Iterable[Tile]) -> dict[str, list[int]]:
    """``{tile name: legal rotations}`` for candidates passing :func:`upgrade_candidates_basic`."""
    out: dict[str, list[int]] = {}
    for tile in candidates:
        if tile.name in out or not upgrade_candidates_basic(old, tile):
            continue
        rotations = legal_rotations(old, tile)
        if rotations:
            out[tile.name] = rotations
    return out
