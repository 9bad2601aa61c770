"""Tile model parsed from the 18xx.games tile DSL (upgrade legality: :mod:`engine.map.upgrades`).

DSL: parts separated by ``;``, each ``kind=key:val,key:val`` (``label=T`` keeps its raw
text).  Nodes are the ``city``/``town``/``halt``/``offboard``/``junction`` parts, numbered
in order of appearance: ``_N`` in a path refers to node N.

A path endpoint is an :class:`End` named tuple ``(kind, num)``: ``("edge", 0..5)`` or
``("node", node index)``; plain tuples compare equal to it.

Rotation follows 18xx.games: a tile laid at rotation r has every edge e at ``(e + r) % 6``
(exits, paths, borders, stubs, numeric node ``loc``).  :meth:`Tile.rotate` is relative,
:meth:`Tile.with_rotation` absolute; :attr:`Tile.rotation` is the absolute rotation.

Tiles are immutable and shared; they are not hashable (revenue dicts).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple, cast

from engine.data.tile_catalog import TILES

NodeKind = Literal["city", "town", "halt", "offboard", "junction"]
NODE_KINDS: tuple[str, ...] = ("city", "town", "halt", "offboard", "junction")
Revenue = int | dict[str, int]
Params = tuple[tuple[str, str], ...]

COLOR_ORDER: tuple[str, ...] = ("white", "yellow", "green", "brown", "gray", "black")
"""Colour progression; an upgrade goes exactly one step along it."""


class End(NamedTuple):
    """A path endpoint: ``("edge", 0..5)`` or ``("node", index into Tile.nodes)``."""

    kind: Literal["edge", "node"]
    num: int

    def rotate(self, ticks: int) -> End:
        return End("edge", (self.num + ticks) % 6) if self.kind == "edge" else self


def _get(params: Params, key: str, default: str | None = None) -> str | None:
    for k, v in params:
        if k == key:
            return v
    return default


def _flag(params: Params, key: str) -> bool:
    return _get(params, key) not in (None, "", "0", "false")


@dataclass(frozen=True)
class Node:
    """A city, town, halt, offboard or junction; ``index`` is what ``_N`` refers to."""

    kind: NodeKind
    index: int
    revenue: Revenue = 0
    slots: int = 0
    groups: tuple[str, ...] = ()
    hidden: bool = False
    loc: float | str | None = None
    params: Params = ()

    def param(self, key: str, default: str | None = None) -> str | None:
        return _get(self.params, key, default)

    def rotate(self, ticks: int) -> Node:
        if isinstance(self.loc, float):
            return replace(self, loc=(self.loc + ticks) % 6)
        return self


@dataclass(frozen=True)
class Path:
    """Track between two endpoints; ``track`` is broad/narrow/dual; unknown flags in ``params``."""

    a: End
    b: End
    terminal: bool = False
    track: str = "broad"
    params: Params = ()

    # the views below are worked out once (paths are immutable; read very often by the walks)
    @functools.cached_property
    def ends(self) -> tuple[End, End]:
        return (self.a, self.b)

    @functools.cached_property
    def edges(self) -> tuple[int, ...]:
        return tuple(e.num for e in self.ends if e.kind == "edge")

    @functools.cached_property
    def node_indexes(self) -> tuple[int, ...]:
        return tuple(e.num for e in self.ends if e.kind == "node")

    def rotate(self, ticks: int) -> Path:
        return replace(self, a=self.a.rotate(ticks), b=self.b.rotate(ticks))

    def params_flag(self, key: str) -> bool:
        return _flag(self.params, key)


@dataclass(frozen=True)
class Upgrade:
    """Terrain cost printed on the hex/tile."""

    cost: int
    terrains: tuple[str, ...] = ()


@dataclass(frozen=True)
class Border:
    """A hex side feature: ``type`` None = plain (invisible) border, else impassable/water/..."""

    edge: int
    type: str | None = None
    cost: int = 0
    color: str | None = None

    def rotate(self, ticks: int) -> Border:
        return replace(self, edge=(self.edge + ticks) % 6)


@dataclass(frozen=True)
class Icon:
    image: str
    name: str
    sticky: bool = False
    blocks_lay: bool = False
    params: Params = ()


@dataclass(frozen=True)
class FutureLabel:
    """The label the hex takes when upgraded to ``color`` (e.g. 1856 B-L -> Lon in brown)."""

    label: str | None
    color: str | None


@dataclass(frozen=True)
class RawPart:
    """Any other part (frame, partition, stripes, unknown kinds), kept verbatim."""

    kind: str
    params: Params
    raw: str


@dataclass(frozen=True)
class Tile:
    name: str
    color: str
    nodes: tuple[Node, ...] = ()
    paths: tuple[Path, ...] = ()
    labels: tuple[str, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    borders: tuple[Border, ...] = ()
    icons: tuple[Icon, ...] = ()
    future_label: FutureLabel | None = None
    stubs: tuple[int, ...] = ()
    others: tuple[RawPart, ...] = ()
    raw: str = ""
    rotation: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self  # immutable: a copied game shares its tiles (as a restored one does)

    # --- node views ---
    def _of_kind(self, *kinds: str) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes if n.kind in kinds)

    @property
    def cities(self) -> tuple[Node, ...]:
        return self._of_kind("city")

    @property
    def towns(self) -> tuple[Node, ...]:
        """Towns (halts included, as in 18xx.games where a halt is a town)."""
        return self._of_kind("town", "halt")

    @property
    def offboards(self) -> tuple[Node, ...]:
        return self._of_kind("offboard")

    @property
    def junctions(self) -> tuple[Node, ...]:
        return self._of_kind("junction")

    @property
    def city_towns(self) -> tuple[Node, ...]:
        return self._of_kind("city", "town", "halt")

    @property
    def revenue_stops(self) -> tuple[Node, ...]:
        return self._of_kind("city", "town", "halt", "offboard")

    @property
    def label(self) -> str | None:
        """The tile's label (the last one, as 18xx.games keeps), or None."""
        return self.labels[-1] if self.labels else None

    # --- track views ---
    @functools.cached_property
    def exits(self) -> frozenset[int]:
        """Edges used by any path (kept: tiles are immutable)."""
        return frozenset(e for p in self.paths for e in p.edges)

    def node_exits(self, index: int) -> frozenset[int]:
        """Edges joined to node ``index`` by a single path."""
        return frozenset(e for p in self.paths if index in p.node_indexes for e in p.edges)

    def city_town_edges(self) -> dict[int, frozenset[int]]:
        """``{node index: edges}`` for each city/town that has a path to some edge."""
        out: dict[int, set[int]] = {}
        for p in self.paths:
            kinds = {self.nodes[i].kind: i for i in p.node_indexes}
            ct = kinds.get("city", kinds.get("town", kinds.get("halt")))
            if ct is None or not p.edges:
                continue
            out.setdefault(ct, set()).update(p.edges)
        return {i: frozenset(edges) for i, edges in out.items()}

    # --- rotation ---
    def rotate(self, ticks: int) -> Tile:
        """This tile turned ``ticks`` further (clockwise on screen)."""
        ticks %= 6
        if ticks == 0:
            return self
        return replace(
            self,
            nodes=tuple(n.rotate(ticks) for n in self.nodes),
            paths=tuple(p.rotate(ticks) for p in self.paths),
            borders=tuple(b.rotate(ticks) for b in self.borders),
            stubs=tuple((s + ticks) % 6 for s in self.stubs),
            rotation=(self.rotation + ticks) % 6,
        )

    def with_rotation(self, rotation: int) -> Tile:
        """This tile at absolute ``rotation`` (as in an 18xx.games ``lay_tile`` action).

        Tiles are immutable, so rotated copies are cached (keyed by the tile object itself,
        which the cache keeps alive)."""
        key = (id(self), rotation % 6)
        hit = _ROTATED.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        rotated = self.rotate((rotation - self.rotation) % 6)
        if len(_ROTATED) > 20000:
            _ROTATED.clear()
        _ROTATED[key] = (self, rotated)
        return rotated


_ROTATED: dict[tuple[int, int], tuple[Tile, Tile]] = {}


# ---------------------------------------------------------------------------
# Parsing


def parse_revenue(text: str | None) -> Revenue:
    """``"20"`` -> 20; ``"yellow_30|brown_50"`` -> ``{"yellow": 30, "brown": 50}``."""
    if text is None or text == "":
        return 0
    if "_" in text or "|" in text:
        out: dict[str, int] = {}
        for item in text.split("|"):
            key, _, value = item.rpartition("_")
            out[key] = int(value)
        return out
    if "/" in text:
        return {str(i): int(v) for i, v in enumerate(text.split("/"))}
    return int(text)


def _split_params(text: str) -> Params:
    pairs = []
    for item in text.split(","):
        key, _, value = item.partition(":")
        pairs.append((key.strip(), value.strip()))
    return tuple(pairs)


def _parse_end(text: str | None, n_nodes: int, code: str) -> End:
    if text is None:
        raise ValueError(f"path without both endpoints in {code!r}")
    if text.startswith("_"):
        index = int(text[1:])
        if not 0 <= index < n_nodes:
            raise ValueError(f"path refers to missing node {text} in {code!r}")
        return End("node", index)
    return End("edge", int(text) % 6)


def _int(text: str | None, default: int = 0) -> int:
    return int(text) if text not in (None, "") else default


def _loc(text: str | None) -> float | str | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _icon_name(image: str) -> str:
    return image.rsplit("/", 1)[-1].rsplit(".", 1)[0]


_NODE_KEYS = {"revenue", "slots", "groups", "hide", "loc"}
_PATH_KEYS = {"a", "b", "terminal", "track"}


def parse_tile(name: str, code: str, color: str) -> Tile:
    """Parse a tile DSL string (memoized: equal arguments give the same Tile object)."""
    return _parse_cached(name, code, color)


@functools.lru_cache(maxsize=4096)
def _parse_cached(name: str, code: str, color: str) -> Tile:
    nodes: list[Node] = []
    raw_paths: list[Params] = []
    labels: list[str] = []
    upgrades: list[Upgrade] = []
    borders: list[Border] = []
    icons: list[Icon] = []
    stubs: list[int] = []
    others: list[RawPart] = []
    future_label: FutureLabel | None = None

    for part in (p.strip() for p in code.split(";")):
        if not part:
            continue
        kind, _, body = part.partition("=")
        kind = kind.strip()
        if kind == "label":
            labels.append(body)
            continue
        params = _split_params(body) if ":" in body else ()
        if kind in NODE_KINDS:
            groups = _get(params, "groups")
            nodes.append(
                Node(
                    kind=cast("NodeKind", kind),
                    index=len(nodes),
                    revenue=parse_revenue(_get(params, "revenue")),
                    slots=_int(_get(params, "slots"), 1) if kind == "city" else 0,
                    groups=tuple(g for g in (groups or "").split("|") if g),
                    hidden=_flag(params, "hide"),
                    loc=_loc(_get(params, "loc")),
                    params=tuple(kv for kv in params if kv[0] not in _NODE_KEYS),
                )
            )
        elif kind == "path":
            raw_paths.append(params)
        elif kind == "upgrade":
            terrain = (_get(params, "terrain") or "").replace("+", "|")
            upgrades.append(Upgrade(_int(_get(params, "cost")), tuple(t for t in terrain.split("|") if t)))
        elif kind == "border":
            borders.append(
                Border(
                    edge=_int(_get(params, "edge")) % 6,
                    type=_get(params, "type"),
                    cost=_int(_get(params, "cost")),
                    color=_get(params, "color"),
                )
            )
        elif kind == "icon":
            image = _get(params, "image") or ""
            icons.append(
                Icon(
                    image=image,
                    name=_get(params, "name") or _icon_name(image),
                    sticky=_flag(params, "sticky"),
                    blocks_lay=_flag(params, "blocks_lay"),
                    params=tuple(
                        kv for kv in params if kv[0] not in {"image", "name", "sticky", "blocks_lay"}
                    ),
                )
            )
        elif kind == "future_label":
            future_label = FutureLabel(_get(params, "label"), _get(params, "color"))
        elif kind == "stub":
            stubs.append(_int(_get(params, "edge")) % 6)
        else:
            others.append(RawPart(kind, params, part))

    paths = tuple(
        Path(
            a=_parse_end(_get(p, "a"), len(nodes), code),
            b=_parse_end(_get(p, "b"), len(nodes), code),
            terminal=_flag(p, "terminal"),
            track=_get(p, "track") or "broad",
            params=tuple(kv for kv in p if kv[0] not in _PATH_KEYS),
        )
        for p in raw_paths
    )
    return Tile(
        name=name,
        color=color,
        nodes=tuple(nodes),
        paths=paths,
        labels=tuple(labels),
        upgrades=tuple(upgrades),
        borders=tuple(borders),
        icons=tuple(icons),
        future_label=future_label,
        stubs=tuple(stubs),
        others=tuple(others),
        raw=code,
    )


# ---------------------------------------------------------------------------
# Catalogue


def tile_def(name: str, title: str | None = None) -> tuple[str, str]:
    """(colour, DSL) of catalogue tile ``name``; ``title`` selects a title-specific one."""
    if title is not None and f"{name}@{title}" in TILES:
        return TILES[f"{name}@{title}"]
    if name in TILES:
        return TILES[name]
    variants = sorted(k for k in TILES if k.startswith(f"{name}@"))
    if variants:
        raise KeyError(f"tile {name!r} is title-specific ({', '.join(variants)}): pass title=")
    raise KeyError(f"unknown tile {name!r}")


@functools.lru_cache(maxsize=1024)
def make_tile(name: str, title: str | None = None) -> Tile:
    """Catalogue tile ``name`` at rotation 0 (parsed once); ``name`` may be ``"125@1856"``."""
    color, code = tile_def(name, title)
    return parse_tile(name.split("@", 1)[0], code, color)
