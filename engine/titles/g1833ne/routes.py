"""1833NE routes: stop values by phase, train-side scoring, connection bonuses, ferries,
the P4/P6 off-board "stations" and route checking.

The shared exact router (:mod:`engine.routing.router`) scores routes per train through
``G1833NE.route_revenue_for_train`` (:meth:`stops_revenue` with the train), on
:func:`station_graph`; ``G1833NE.best_routes`` uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import actions as A
from ...errors import ILLEGAL_ROUTE, GameError
from ...routing.graph import RouteGraph, build_graph, mark_reachable
from ...routing.router import RouteSolution, _route_order, _side_keys
from ...routing.router import best_routes as shared_best_routes
from .base import count_revenue
from .trains import G1833NETrains

if TYPE_CHECKING:
    from ...entities import Corporation, Train

NodeRef = tuple[str, int]


class G1833NERoutes(G1833NETrains):
    """Route revenue with bonuses, ferries and off-board stations."""

    def stop_value(self, ref: NodeRef) -> int:
        """A stop's revenue now: printed revenue, or an off-board's value for the phase name
        (keys like ``"I/II"``)."""
        rev = self.board.node(ref).revenue
        if isinstance(rev, int):
            return rev
        name = self.phase["name"]
        for key, value in rev.items():
            if name in key.split("/"):
                return value
        return 0

    def virtual_station_hexes(self, corp: Corporation) -> list[str]:
        """Off-boards the corporation uses "as if it had a marker there" (P4: A6, P6: A12)."""
        out = []
        d = self.data
        if self.owns_company(corp, "P4") and self.company_ability_live("P4"):
            out.append(d.A6_HEX)
        if self.owns_company(corp, "P6"):
            out.append(d.A12_HEX)
        return out

    def is_station(self, corp: Corporation, ref: NodeRef) -> bool:
        h = self.board.hexes[ref[0]]
        if corp.sym in (h.tokens.get(ref[1]) or []):
            return True
        return ref[0] in self.virtual_station_hexes(corp) and self.board.node(ref).kind == "offboard"

    def bonuses(self, corp: Corporation, stops: list[NodeRef], reached: str | None = None) -> int:
        """Connection bonuses and ferries a route with these counted stops earns; ``reached``: the
        hex its extension ends in, which counts for cross-connection bonuses only.  The bonus
        table and ferry values are the game's provisional values (provisional.py)."""
        d = self.data
        hexes = {s[0] for s in stops}
        phase = self.phase["name"]
        total = 0
        for b in self.provisional.bonuses:
            places = hexes | {reached} if reached and b.kind == "cross" else hexes
            if b.a in places and b.b in places:
                value = b.value_in(phase)
                if (
                    {b.a, b.b} == set(d.P4_DOUBLES_BONUS)
                    and phase in d.P4_DOUBLES_IN_PHASES
                    and self.owns_company(corp, "P4")
                ):
                    value *= 2  # P4 doubles the bonus for a route from A6 to Boston in phases I-III
                total += value
        for hid, owner in self.ferries.items():
            if owner == corp.sym and hid in hexes:
                total += self.ferry_value(corp, hid)
        return total

    def bonus_items(self, corp: Corporation, stops: list[NodeRef], reached: str | None = None
    ) -> list[tuple[str, int, bool]]:
        """What :func:`bonuses` adds up, item by item: ``(what, amount, provisional)``, provisional
        when no source states the amount (the run's story tells each, issue #25)."""
        from .provisional import bonus_label, place_name

        d = self.data
        table = self.provisional
        hexes = {s[0] for s in stops}
        phase = self.phase["name"]
        out = []
        for b in table.bonuses:
            places = hexes | {reached} if reached and b.kind == "cross" else hexes
            if b.a in places and b.b in places and b.value_in(phase):
                value = b.value_in(phase)
                what = f"{bonus_label(b, d)} bonus"
                if {b.a, b.b} == set(d.P4_DOUBLES_BONUS) and phase in d.P4_DOUBLES_IN_PHASES and self.owns_company(corp, "P4"):
                    value *= 2
                    what += " doubled by P4"
                out.append((what, value, not table.host_set(b.key()) and phase not in b.facts))
        for hid, owner in self.ferries.items():
            if owner == corp.sym and hid in hexes:
                badge = self.ferry_badge(hid)
                what = f"{place_name(hid, d)} ferry" + (f' with "{badge}"' if badge else "")
                if self.p5_ferry == hid and self.owns_company(corp, "P5"):
                    what += " doubled by P5"
                keys = ["ferry"] + ([badge.lower()] if badge else [])
                out.append((what, self.ferry_value(corp, hid), not all(table.host_set(k) for k in keys)))
        return out

    def extension_gains(self, corp: Corporation, stops: list[NodeRef]) -> dict[str, int]:
        """Hex -> what extending a route with these counted stops to that hex would add (the
        cross-connection bonuses it would complete)."""
        hexes = {s[0] for s in stops}
        base = self.bonuses(corp, stops)
        out = {}
        for b in self.provisional.bonuses:
            if b.kind != "cross" or not hexes & {b.a, b.b}:
                continue
            for hid in b.between:
                if hid not in hexes and hid not in out:
                    gain = self.bonuses(corp, stops, hid) - base
                    if gain > 0:
                        out[hid] = gain
        return out

    def stops_revenue(self, corp: Corporation, train: Train | None, stops: list[NodeRef]) -> int:
        """Revenue of one route; GameError when it is illegal for this train or corporation."""
        d = self.data
        hexes = [s[0] for s in stops]
        values = [self.stop_value(s) for s in stops]
        if d.A12_HEX in hexes:
            if not self.owns_company(corp, "P6"):
                raise GameError(f"only the owner of P6 may run to {d.A12_HEX}", ILLEGAL_ROUTE)
            if d.A12_NEEDS_HEX not in hexes:
                values[hexes.index(d.A12_HEX)] = 0  # A12 pays only on a route through Montreal
        if not any(self.is_station(corp, s) for s in stops):
            raise GameError(f"the route does not include a {corp.sym} station", ILLEGAL_ROUTE)
        if train is None:
            return sum(values) + self.bonuses(corp, stops)
        side = self.train_side(train)
        kinds = [self.board.node(s).kind for s in stops]
        tokened = [self.is_station(corp, s) for s in stops]
        return count_revenue(side, values, kinds, tokened) + self.bonuses(corp, stops)

    def check_routes(self, corp: Corporation, routes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Validate submitted routes (18xx.games RunRoutes shape); returns the scored routes."""
        board = self.board
        seen: set[str] = set()
        paths_used: set[tuple[str, int]] = set()
        sides_used: set[tuple[str, int]] = set()
        out = []
        runnable = {t.id for t in self.runnable_trains(corp)}
        for route in routes:
            train = self.train(str(route.get("train")))
            if train.id not in runnable:
                why = "does not own" if train.owner != corp.sym else "cannot run"
                raise GameError(f"{corp.sym} {why} train {train.id}", ILLEGAL_ROUTE)
            if train.id in seen:
                raise GameError(f"train {train.id} runs twice", ILLEGAL_ROUTE)
            seen.add(train.id)
            stops, paths = _route_order(self, route)
            counted = [s for s in stops if board.node(s).kind != "junction"]
            if not counted:
                continue
            if len(counted) < 2:
                raise GameError("a route needs at least 2 stops", ILLEGAL_ROUTE)
            reached, joint, ext_paths = self._extension(corp, route, stops, counted)
            tips = [s for s in (counted[0], counted[-1]) if s != joint]
            for hid, pi in paths:
                path = board.hexes[hid].tile.paths[pi]
                if path.terminal and not all((hid, n) in tips for n in path.node_indexes):
                    raise GameError(f"the route runs on past the terminal track in {hid}", ILLEGAL_ROUTE)
            paths = paths + ext_paths
            sides = _side_keys(self, paths)
            if len(set(paths)) != len(paths) or len(set(sides)) != len(sides):
                raise GameError(f"{train.id}'s route uses the same track twice", ILLEGAL_ROUTE)
            if paths_used & set(paths) or sides_used & set(sides):
                raise GameError(f"{train.id}'s route shares track with another route", ILLEGAL_ROUTE)
            paths_used |= set(paths)
            sides_used |= set(sides)
            for s in counted[1:-1]:
                node = board.node(s)
                if node.kind == "offboard":
                    raise GameError(f"the route passes through the off-board {s[0]}", ILLEGAL_ROUTE)
                if node.kind == "city" and board.city_blocks(board.hexes[s[0]], s[1], corp.sym):
                    raise GameError(f"the route passes through {s[0]}, full of other stations", ILLEGAL_ROUTE)
            revenue = self.stops_revenue(corp, train, counted)
            if reached is not None:
                revenue += self.extension_gains(corp, counted)[reached[0]]
            claimed = route.get("revenue")
            if claimed is not None and claimed != revenue:
                raise GameError(f"{train.id}'s route is worth {self.fmt(revenue)}, not {self.fmt(claimed)}", ILLEGAL_ROUTE)
            out.append({"train": train.id, "revenue": revenue, "stops": counted, "hexes": route.get("hexes", []),
                        "reached": reached[0] if reached is not None else None})
        return out

    def _extension(self, corp: Corporation, route: dict[str, Any], stops: list[NodeRef], counted: list[NodeRef]
    ) -> tuple[NodeRef | None, NodeRef | None, list[tuple[str, int]]]:
        """Check a route's extension (``route["extension"]``: connections outwards from one end):
        it continues the route from an end that is not an off-board, passes through cities
        (blocked ones too) and towns only, and ends at a place completing a cross-connection
        bonus.  Returns (the place reached, the end it continues from, its paths); Nones and no
        paths without an extension."""
        chains = route.get("extension") or []
        if not chains:
            return None, None, []
        board = self.board
        line, ext_paths = _route_order(self, {"connections": chains})
        if line[0] in (stops[0], stops[-1]):
            ext = line
        elif line[-1] in (stops[0], stops[-1]):
            ext = line[::-1]
        else:
            raise GameError("the extension does not continue the route from one of its ends", ILLEGAL_ROUTE)
        if set(ext[1:]) & set(stops):
            raise GameError("the extension visits a stop of its route again", ILLEGAL_ROUTE)
        joint, reached = ext[0], ext[-1]
        if board.node(joint).kind == "offboard":
            raise GameError(f"a route cannot be extended past the off-board {joint[0]}", ILLEGAL_ROUTE)
        for s in ext[1:-1]:
            if board.node(s).kind == "offboard":
                raise GameError(f"the extension passes through the off-board {s[0]}", ILLEGAL_ROUTE)
        gains = self.extension_gains(corp, counted)
        if board.node(reached).kind == "junction" or reached[0] not in gains:
            raise GameError(f"the extension to {reached[0]} completes no cross-connection bonus", ILLEGAL_ROUTE)
        for hid, pi in ext_paths:
            path = board.hexes[hid].tile.paths[pi]
            if path.terminal and not all((hid, n) == reached for n in path.node_indexes):
                raise GameError(f"the extension runs on past the terminal track in {hid}", ILLEGAL_ROUTE)
        return reached, joint, ext_paths

    # ---------------------------------------------------------------------------- search
    def station_graph(self, corp: Corporation) -> RouteGraph:
        """The shared route graph with the P4/P6 off-boards counted as the corporation's stations."""
        g = build_graph(self, corp.sym)
        virtual = set(self.virtual_station_hexes(corp))
        if virtual:
            for i, ref in enumerate(g.stops):
                if ref[0] in virtual and self.board.node(ref).kind == "offboard":
                    g.tokened[i] = True
            mark_reachable(g)
        return g

    def tell_bonuses(self, corp: Corporation, routes: list[dict[str, Any]]) -> None:
        """The run's story: each bonus and ferry amount inside each route's revenue, marked
        provisional where no source states it."""
        for r in routes:
            items = self.bonus_items(corp, r["stops"], r.get("reached"))
            if items:
                parts = [f"{what} +{self.fmt(amount)}" + (" (provisional)" if guess else "") for what, amount, guess in items]
                self.log.append(f"{corp.sym}'s {self.trains[r['train']].name} train earns " + ", ".join(parts))

    def run_routes(self, corp: Corporation, action: A.RunRoutes) -> list[dict[str, Any]]:
        return self.check_routes(corp, list(action.route_dicts()))

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        return self.stops_revenue(corp, None, stops)

    def route_revenue_for_train(self, corp: Corporation, stops: list[tuple[str, int]], train: Train) -> int:
        """What ``train`` (its side: plain, N/M or N+s) earns on a route with these stops;
        GameError when it cannot run it.  The shared router scores routes per train with it."""
        return self.stops_revenue(corp, train, stops)

    def best_routes(self, corp_sym: str, time_budget: float = 0.5,
                    deterministic: bool = False) -> list[dict[str, Any]]:
        """The best routes (the shared exact router, scoring each route per train side)."""
        return self.best_route_solution(corp_sym, time_budget, deterministic).routes

    def best_route_solution(self, corp_sym: str, time_budget: float = 0.5,
                            deterministic: bool = False) -> RouteSolution:
        return shared_best_routes(self, corp_sym, time_budget=time_budget, deterministic=deterministic)

    def route_graph(self, corp_sym: str) -> RouteGraph:
        """The shared graph with the P4/P6 off-boards counted as stations."""
        return self.station_graph(self.corp(corp_sym))

    def ferry_badge(self, hid: str) -> str | None:
        """ "New" is on the most recently bought ferry; once none is left for sale it carries
        "Last" instead (decision, notes: provisional values)."""
        if not self.ferry_order or self.ferry_order[-1] != hid or self.ferries.get(hid) is None:
            return None
        return "Last" if all(self.ferries.values()) else "New"

    def ferry_value(self, corp: Corporation, hid: str) -> int:
        table = self.provisional
        value = table.ferry_value
        badge = self.ferry_badge(hid)
        if badge:
            value += table.ferry_new if badge == "New" else table.ferry_last
        if self.p5_ferry == hid and self.owns_company(corp, "P5"):
            value *= 2  # P5 doubles one ferry including its "New" or "Last" bonus
        return value
