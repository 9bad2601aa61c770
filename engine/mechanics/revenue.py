"""Running trains and paying dividends.

:class:`RevenueRules` is a part of :class:`engine.game.Game`: which trains run, whether a
corporation has a route, checking the routes it claims, what a route earns, and the dividend.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from .. import actions as A
from ..entities import POOL, Corporation, Train
from ..errors import ILLEGAL_ROUTE, NOT_OWNER, GameError
from ..hooks import TitleHooks
from ..market import Cell
from ..rounds.operating import OperatingRound


class DividendEffect(NamedTuple):
    """What a dividend choice leaves the corporation with."""

    price: Cell | None  # its share price's space
    cash: int  # its treasury
    paid: int = 0  # what goes to the shares in all (0: nothing paid out)
    per_share: float = 0.0  # what each share gets


class RevenueRules(TitleHooks):
    """Routes, their revenue and the dividend."""

    # ------------------------------------------------------------------ routes & dividends
    def runnable_trains(self, corp: Corporation) -> list[Train]:
        return [self.trains[t] for t in corp.trains]

    def can_run_routes(self, corp: Corporation) -> bool:
        return bool(self.runnable_trains(corp)) and self.has_route(corp)

    def phase_colors(self) -> list[str]:
        return list(self.phase["tiles"])

    def run_routes(self, corp: Corporation, action: A.RunRoutes) -> list[dict[str, Any]]:
        from ..routing.check import check_routes

        # every route rule (chain of track, stops, terminals, blocked cities, shared track,
        # a station on the route, the claimed revenue) is checked in one place, the router's
        routes = action.route_dicts()
        if routes:
            why = check_routes(self.as_game(), corp.sym, routes)
            if why:
                raise GameError(f"{corp.sym} cannot run that: {why}", ILLEGAL_ROUTE, corporation=corp.sym, reason=why)
        b = self.board
        out = []
        used_paths: set[tuple[str, int]] = set()
        seen_trains: set[str] = set()
        for route in action.route_dicts():
            train = self.train(route["train"])
            if train.owner != corp.sym:
                raise GameError(f"{corp.sym} does not own train {train.id}", NOT_OWNER, corporation=corp.sym, train=train.id)
            if train.id in seen_trains:
                raise GameError(f"Train {train.id} cannot run twice", ILLEGAL_ROUTE, train=train.id)
            seen_trains.add(train.id)
            stops, paths = b.route_stops(route.get("connections", []))
            if not stops:
                continue
            dup = used_paths & set(paths)
            if dup or len(set(paths)) != len(paths):
                raise GameError(f"{train.id}'s route reuses track", ILLEGAL_ROUTE, train=train.id)
            used_paths |= set(paths)
            counted = [s for s in stops if b.node(s).kind != "junction"]
            if len(counted) > train.distance:
                raise GameError(f"A {train.name}-train visits at most {train.distance} stops", ILLEGAL_ROUTE, train=train.id, distance=train.distance)
            if not any(b.node(s).kind == "city" and corp.sym in (b.hexes[s[0]].tokens.get(s[1]) or [])
                       for s in counted):
                # (check_routes requires a station on every route: this is a second guard)
                _, reach = b.connectivity(corp.sym)
                if not all(s in reach for s in counted):
                    raise GameError(f"{train.id}'s route does not reach a {corp.sym} station", ILLEGAL_ROUTE, train=train.id, corporation=corp.sym)
            revenue = self.route_revenue(corp, counted)
            claimed = route.get("revenue")
            if claimed is not None and claimed != revenue:
                raise GameError(f"{train.id}'s route {route.get('revenue_str', '')} is worth "
                                f"{self.fmt(revenue)}, not {self.fmt(claimed)}", ILLEGAL_ROUTE, train=train.id, revenue=revenue, claimed=claimed)
            out.append({"train": train.id, "revenue": revenue, "stops": counted,
                        "hexes": route.get("hexes", [])})
        return out

    def dividend_kinds(self, corp: Corporation) -> list[str]:
        return ["payout", "withhold"]

    def revenue_deduction(self, rnd: OperatingRound, corp: Corporation) -> int:
        """What is taken from ``corp``'s revenue before the dividend (1856: unpaid interest)."""
        return 0

    def dividend_effect(self, corp: Corporation, revenue: int, kind: str) -> DividendEffect:
        """What paying ``kind`` of ``revenue`` (the run less any deduction) leaves ``corp`` with,
        as :meth:`pay_dividend` would: its share price and treasury, and what the shares get.
        Changes nothing (the dividend choices tell it before one is made)."""
        if kind == "payout" and revenue > 0:
            cash = corp.cash + self._holder_dividend(POOL, corp, revenue)
            return DividendEffect(self.price_target(corp, "right") or corp.price, cash, revenue,
                                  revenue / corp.total_shares)
        return DividendEffect(self.price_target(corp, "left") or corp.price, corp.cash + max(revenue, 0))

    def _holder_dividend(self, holder: str, corp: Corporation, revenue: int) -> int:
        """What ``holder``'s shares of ``corp`` earn of ``revenue`` paid out (the market's go to
        the corporation); 18xx.games rounds each holder's part up (20-share CGR: $35.5 a share)."""
        n = self.percent_of(holder, corp.sym) * corp.total_shares // 100
        return math.ceil(revenue / corp.total_shares * n)

    def pay_dividend(self, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        revenue = sum(r["revenue"] for r in rnd.state.get("routes", []))
        deduction = self.revenue_deduction(rnd, corp)
        if deduction:
            self.log.append(f"{corp.sym} deducts {self.fmt(deduction)} from its {self.fmt(revenue)} run "
                            f"for unpaid interest")
        revenue -= deduction
        if kind == "payout" and revenue > 0:
            per_share = revenue / corp.total_shares
            paid: list[tuple[int, str]] = []
            for p in self.players:
                if amount := self._holder_dividend(p.id, corp, revenue):
                    self.bank_pays(p.id, amount)
                    paid.append((amount, p.name))
            if amount := self._holder_dividend(POOL, corp, revenue):
                self.bank_pays(corp.sym, amount)
                paid.append((amount, corp.sym))
            to = ", ".join(f"{self.fmt(amount)} to {who}" for amount, who in sorted(paid, key=lambda x: -x[0]))
            self.log.append(f"{corp.sym} pays out {self.fmt(revenue)} = {self.fmt(per_share)} per share"
                            + (f" ({to})" if to else ""))
            self.move_price(corp, "right")
        else:
            if revenue > 0:
                self.bank_pays(corp.sym, revenue)
                why = self.withhold_reason(corp)
                self.log.append(f"{corp.sym} withholds {self.fmt(revenue)} (kept in its treasury{': ' + why if why else ''})")
            else:
                # why, where nothing else says it (a tile laid into a hex without track on that side)
                why = ("it has no train" if not corp.trains
                       else "its track reaches no second stop" if not self._has_route_now(corp) else "")
                self.log.append(f"{corp.sym} does not run (no revenue{': ' + why if why else ''})")
            self.move_price(corp, "left")
        rnd.state["dividend_done"] = True

    def note_route(self, corp: Corporation) -> None:
        """Remember that the operating corporation has a route now (see :meth:`has_route`)."""
        if corp.sym not in self.routes_seen and self._has_route_now(corp):
            self.routes_seen.add(corp.sym)

    def has_route(self, corp: Corporation) -> bool:
        """18xx.games' route test: from one of its stations the corporation's track reaches a
        second stop (junctions and nodes marked ``route:never``, like 1836Jr56's port
        off-boards, do not count).  18xx.games remembers a route once its operating turn has
        seen one: a corporation whose network later shrinks (a city on its way filled by other
        stations) still runs (an empty run) and still must buy a train."""
        if corp.closed:
            return False
        return corp.sym in self.routes_seen or self._has_route_now(corp)

    def _has_route_now(self, corp: Corporation) -> bool:
        b = self.board
        key = ("has_route", corp.sym)
        if key in b._cache:
            return bool(b._cache[key])
        starts = b.stations(corp.sym)
        found = False
        for start in starts:
            nodes = b._walk([start], corp.sym)
            stops = [n for n in nodes
                     if b.node(n).kind != "junction" and b.node(n).param("route") != "never"]
            if len(stops) >= 2:
                found = True
                break
        b._cache[key] = found
        return found

    def route_revenue(self, corp: Corporation, stops: list[tuple[str, int]]) -> int:
        """What a route visiting ``stops`` earns ``corp`` (titles add bonuses)."""
        values = self.board.stop_values(self.phase_colors())
        return sum(values[s] for s in stops)

    def can_choose_dividend(self, rnd: OperatingRound, corp: Corporation) -> bool:
        """Whether ``corp`` chooses its dividend (it ran routes this turn)."""
        return bool(rnd.state.get("routes"))
