"""Checks of a submitted route (18xx.games' RunRoutes shape) against the board: one simple
chain of connections, a train the corporation may run, a station of its own, no blocked city
passed through, no track used twice by its routes (:mod:`engine.routing.router` finds the best ones)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..entities import a_train
from ..errors import ILLEGAL_ROUTE, GameError

if TYPE_CHECKING:
    from ..game import Game

NodeRef = tuple[str, int]


def side_keys(game: Game, paths: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(hex, edge) for every end of every path that lies on a hex side (18xx.games track keys)."""
    hexes = game.board.hexes
    return [(hid, e.num) for hid, pi in paths for e in hexes[hid].tile.paths[pi].ends if e.kind == "edge"]


def route_order(game: Game, route: dict[str, Any]) -> tuple[list[NodeRef], list[tuple[str, int]]]:
    """Stops in running order and all paths of a submitted route; GameError when it is not one
    simple chain of connections."""
    board = game.board
    ends: list[tuple[NodeRef, NodeRef]] = []
    paths: list[tuple[str, int]] = []
    for chain in route.get("connections") or []:
        refs, used = board.route_stops([[str(h) for h in chain]])
        if len(refs) != 2:
            raise GameError(f"connection {'-'.join(chain)} does not join two stops", ILLEGAL_ROUTE, hexes=list(chain))
        ends.append((refs[0], refs[1]))
        paths.extend(used)
    if not ends:
        return [], []
    degree: dict[NodeRef, list[NodeRef]] = {}
    for a, b in ends:
        degree.setdefault(a, []).append(b)
        degree.setdefault(b, []).append(a)
    if len(degree) != len(ends) + 1 or any(len(v) > 2 for v in degree.values()):
        raise GameError("the route visits a stop twice", ILLEGAL_ROUTE)
    tips = [n for n, v in degree.items() if len(v) == 1]
    if len(tips) != 2:
        raise GameError("the route's connections do not form one line", ILLEGAL_ROUTE)
    order = [tips[0]]
    prev: NodeRef | None = None
    while len(order) < len(degree):
        nxt = [n for n in degree[order[-1]] if n != prev]
        if not nxt:
            raise GameError("the route's connections do not form one line", ILLEGAL_ROUTE)
        prev = order[-1]
        order.append(nxt[0])
    return order, paths


def check_route(game: Game, corp_sym: str, route: dict[str, Any]) -> str | None:
    """Why ``route`` (18xx.games RunRoutes shape) is illegal for ``corp_sym``, or None when legal."""
    return _check_route(game, corp_sym, route, {})


def _check_route(game: Game, corp_sym: str, route: dict[str, Any],
                 orders: dict[int, tuple[list[NodeRef], list[tuple[str, int]]]]) -> str | None:
    """:func:`check_route`; ``orders`` keeps each route's :func:`route_order` (by id)."""
    board = game.board
    try:
        corp = game.corp(corp_sym)
        train = game.train(str(route.get("train")))
    except GameError as exc:
        return str(exc)
    if train.owner != corp_sym:
        return f"{corp_sym} does not own train {train.id}"
    if train.id not in {t.id for t in game.runnable_trains(corp)}:
        return f"train {train.id} cannot run now"
    if route.get("extension"):
        return "routes cannot be extended past their stops in this game"
    try:
        stops, paths = orders[id(route)] = route_order(game, route)
    except GameError as exc:
        return str(exc)
    counted = [s for s in stops if board.node(s).kind != "junction"]
    if len(counted) < 2:
        return "a route needs at least 2 stops"
    if len(counted) > train.distance:
        return f"{a_train(train.name)} visits at most {train.distance} stops, this route has {len(counted)}"
    port_hexes = set(game.rules.port_offboard_hexes)
    port_min = game.rules.port_min_stops
    if port_min and any(s[0] in port_hexes for s in counted) and len(counted) < port_min:
        return f"a route to a port needs {port_min - 1} other stops"
    if len(set(paths)) != len(paths):
        return "the route uses the same track twice"
    sides = side_keys(game, paths)
    if len(set(sides)) != len(sides):
        dup = next(s for s in sides if sides.count(s) > 1)
        return f"the route uses the track at side {dup[1]} of {dup[0]} twice"
    for s in counted[1:-1]:
        node = board.node(s)
        h = board.hexes[s[0]]
        if node.kind == "offboard":
            return f"the route passes through the off-board {s[0]} (it may only end there)"
        if node.kind == "city" and board.city_blocks(h, s[1], corp_sym):
            return f"the route passes through {s[0]}, full of other corporations' stations"
    for hid, pi in paths:
        path = board.hexes[hid].tile.paths[pi]
        if path.terminal and not all((hid, n) in (counted[0], counted[-1]) for n in path.node_indexes):
            return f"the route runs on past the terminal track in {hid}"
    if not any(board.node(s).kind == "city" and corp_sym in (board.hexes[s[0]].tokens.get(s[1]) or [])
               for s in counted):
        return f"the route does not include a {corp_sym} station"
    seen_groups: set[str] = set()
    for s in counted:
        for name in board.node(s).groups:
            if name in seen_groups:
                return f"the route visits {name} twice"
            seen_groups.add(name)
    try:
        revenue = game.route_revenue(corp, counted)
    except GameError as exc:
        return str(exc)
    claimed = route.get("revenue")
    if claimed is not None and claimed != revenue:
        return f"the route is worth {game.fmt(revenue)}, not {game.fmt(claimed)}"
    return None


def check_routes(game: Game, corp_sym: str, routes: list[dict[str, Any]]) -> str | None:
    """:func:`check_route` for each route, plus: no train twice, no track shared between routes."""
    seen: set[str] = set()
    paths_used: set[tuple[str, int]] = set()
    sides_used: set[tuple[str, int]] = set()
    orders: dict[int, tuple[list[NodeRef], list[tuple[str, int]]]] = {}
    for route in routes:
        why = _check_route(game, corp_sym, route, orders)
        if why:
            return f"{route.get('train')}: {why}"
        tid = str(route.get("train"))
        if tid in seen:
            return f"train {tid} runs twice"
        seen.add(tid)
        _, paths = orders[id(route)]
        sides = set(side_keys(game, paths))
        if paths_used & set(paths) or sides_used & sides:
            return f"{tid}: the route shares track with another route"
        paths_used |= set(paths)
        sides_used |= sides
    return None
