"""Phases and the bank's trains: which trains are for sale, phase changes, rusting, train
events, closing privates, and train limits.

:class:`PhaseRules` is a part of :class:`engine.game.Game`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..entities import Company, Corporation, Train, listed
from ..errors import UNKNOWN, GameError
from ..hooks import TitleHooks
from .phase_text import phase_line

if TYPE_CHECKING:
    from ..routing.graph import RouteGraph


class PhaseRules(TitleHooks):
    """The train depot and the phases it drives."""

    # ------------------------------------------------------------------ trains & phases
    def depot_trains(self) -> list[Train]:
        """Trains the bank can sell now: the next unsold one(s) plus the discard pile."""
        out: list[Train] = []
        trains = self.trains
        in_order = [trains[t] for t in self.train_order]
        upcoming = [t for t in in_order if t.owner == "depot"]
        if upcoming:
            first = upcoming[0]
            out.append(first)
            reached = {p["name"] for p in self.phases[:self.phase_index + 1]}
            for t in upcoming[1:]:
                if t.name == first.name:
                    continue
                if t.available_on and t.available_on in reached and \
                        all(o.name != t.name for o in out):
                    out.append(t)
        pool = [t for t in in_order if t.owner == "discard"]
        if pool:
            pool.sort(key=lambda t: self.discard_order.index(t.id) if t.id in self.discard_order else -1)
        if self.DISCARD_POOL_ONE_PER_TYPE:
            # 18xx.games sells the pool's first-discarded train of each type
            pool = [t for i, t in enumerate(pool) if all(o.name != t.name for o in pool[:i])]
        return out + pool

    def upcoming_trains(self) -> list[Train]:
        return [self.trains[t] for t in self.train_order if self.trains[t].owner == "depot"]

    def phase_reached(self, name: str) -> bool:
        for i, p in enumerate(self.phases):
            if p["name"] == name:
                return i <= self.phase_index
        return False

    def corp_trains(self, sym: str) -> list[Train]:
        return [self.trains[t] for t in self.corporations[sym].trains]

    def give_train(self, train: Train, sym: str) -> None:
        self._leaves_depot(train)
        if train.owner in self.corporations:
            self.corporations[train.owner].trains.remove(train.id)
        train.owner = sym
        self.corporations[sym].trains.append(train.id)

    def remove_train(self, train: Train, to: str = "discard") -> None:
        self._leaves_depot(train)
        if train.owner in self.corporations:
            self.corporations[train.owner].trains.remove(train.id)
        train.owner = to
        if to == "discard":
            if train.id in self.discard_order:
                self.discard_order.remove(train.id)
            self.discard_order.append(train.id)

    def _leaves_depot(self, train: Train) -> None:
        """The last unsold train of an unlimited kind leaves the bank: the next one takes its
        place in the depot, numbered on ("D-0" sold: "D-1"; 18xx.games' Depot clones it)."""
        if train.owner != "depot" or not train.unlimited:
            return
        at = self.train_order.index(train.id)
        after = next((self.trains[t] for t in self.train_order[at + 1:] if self.trains[t].owner == "depot"), None)
        if after is not None and after.name == train.name:
            return
        number = int(train.id.rsplit("-", 1)[1]) + 1
        clone = dataclasses.replace(train, id=f"{train.name}-{number}", events=[], owner="depot", operated=False)
        self.trains[clone.id] = clone
        self.train_order.insert(at + 1, clone.id)

    def on_train_bought_from_depot(self, train: Train) -> None:
        """Phase changes, rusting and train events when a train leaves the depot."""
        for i, ph in enumerate(self.phases):
            if i > self.phase_index and ph.get("on") == train.name:
                self.change_phase(i)
                break
        for event in train.events:
            self.trigger_event(event["type"], train)
        train.events = []

    def change_phase(self, index: int) -> None:
        previous = self.phase
        self.phase_index = index
        self.log.append(phase_line(self.phase, previous))
        name = self.phase["name"]
        rusted: dict[str, list[str]] = {}
        for t in list(self.trains.values()):
            if t.rusts_on == name:
                rusted.setdefault(t.name, [])
            if t.rusts_on == name and t.owner not in ("rusted",):
                if t.owner in self.corporations or t.owner in ("depot", "discard"):
                    if t.owner in ("depot",):
                        continue
                    rusted.setdefault(t.name, []).append(t.owner if t.owner != "discard" else "open market")
                    self.remove_train(t, "rusted")
        for train, owners in rusted.items():
            held = ", ".join(f"{o} x{owners.count(o)}" for o in dict.fromkeys(owners)) or "none in play"
            self.log.append(f"-- Event: {train}-trains rust ({held}) --")
        self.after_phase_change(name)

    def trigger_event(self, kind: str, train: Train) -> None:
        """A train's event ``kind`` (named in the title's data) is handled by the method
        ``event_<kind>`` (``event_close_companies`` here; titles add theirs)."""
        handler = getattr(self, f"event_{kind}", None)
        if handler is None:
            raise GameError(f"Unknown train event {kind}", UNKNOWN, what="train event", id=kind)
        handler(train)

    def event_close_companies(self, _train: Train) -> None:
        closing = [c for c in self.companies.values() if not c.closed]
        held = [f"{c.sym} of {self.name_of(c.owner)}" for c in closing if c.owner]  # (a play-test asked which)
        for c in closing:
            self.close_company(c)
        self.log.append(f"-- Event: private companies close{f' ({listed(held)})' if held else ''} --")

    def close_company(self, company: Company) -> None:
        company.closed = True
        if company.owner in self.player_by_id:
            self.player_by_id[company.owner].companies.remove(company.sym)
        elif company.owner in self.corporations:
            self.corporations[company.owner].companies.remove(company.sym)

    def crowded_corps(self) -> list[Corporation]:
        out = []
        for c in self.corporations.values():
            if c.closed or not c.trains:
                continue
            limit = self.corp_train_limit(c)
            # borrowed trains only make fewer count
            if len(c.trains) > limit and len([t for t in c.trains if not self.is_borrowed(t)]) > limit:
                out.append(c)
        return out

    # ------------------------------------------------------------------ privates
    def route_graph(self, corp_sym: str) -> RouteGraph:
        """The map as the router sees it for ``corp_sym`` (titles may add stations)."""
        from ..routing.graph import build_graph

        return build_graph(self.as_game(), corp_sym)

