"""Sherbrooke's shared marker (summary: A&StL "teilt mit der StL&A einen Marker, der kostenlos in
Sherbrooke gelegt wird, sobald jemand dort das gelbe Plättchen legt").

The marker is one station: it takes one space of Sherbrooke's city however many corporations
share it. In the city's slot list the first sharer holds that space and the other sharers follow
past the city's spaces, so the board counts one station for all of them. A sharer that closes
leaves the marker to the others (the space frees only when nobody shares it any more); a
corporation taking over a sharer inherits its part of the marker ("erbt ... Marker")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .stations import G1833NEStations

if TYPE_CHECKING:
    from ...entities import Corporation


class G1833NESherbrooke(G1833NEStations):
    """The shared Sherbrooke marker."""

    def _city(self) -> tuple[Any, int] | None:
        h = self.board.hexes.get(self.data.SHARED_TOKEN["hex"])
        if h is None or not h.tile.cities:
            return None
        return h, h.tile.cities[0].index

    def place_marker(self) -> None:
        """The yellow tile is laid: the open sharers' marker goes into the city's free space."""
        found = self._city()
        if found is None:
            return
        self.sherbrooke_sharers = [s for s in self.sherbrooke_sharers if not self.corporations[s].closed]
        self.sherbrooke_token_done = True
        h, ci = found
        slots = h.city_slots(ci)
        h.tokens[ci] = [s for s in slots if s is not None] + self.sherbrooke_sharers
        self.settle()
        if self.sherbrooke_sharers:
            self.log.append(f"{' and '.join(self.sherbrooke_sharers)} place their shared marker in Sherbrooke")

    def settle(self) -> None:
        """Keep the shared marker in one space of the city (after a lay, a closing or a takeover)."""
        found = self._city()
        if found is None or not self.sherbrooke_token_done:
            return
        h, ci = found
        slots = h.tokens.get(ci)
        if slots is None:
            return
        spaces = max(1, h.tile.nodes[ci].slots)
        sharers = [s for s in self.sherbrooke_sharers if s in slots]
        first = next((i for i, s in enumerate(slots) if s in sharers), None)
        base = [None if s in sharers else s for s in slots]
        while len(base) > spaces and None in base:
            del base[len(base) - 1 - base[::-1].index(None)]  # the last free entry
        base += [None] * (spaces - len(base))
        if sharers and None not in base:
            base += sharers  # decision: a city already full (a takeover-game home) takes it past its spaces
        elif sharers:
            at = first if first is not None and first < len(base) and base[first] is None else base.index(None)
            base[at] = sharers[0]
            base += sharers[1:]
        slots[:] = base
        self.board.changed()

    def sharer_closed(self, corp: Corporation) -> None:
        """A closing sharer leaves the marker to the others."""
        if corp.sym in self.sherbrooke_sharers:
            self.sherbrooke_sharers.remove(corp.sym)
            self.settle()

    def sharer_taken_over(self, target: Corporation, acq: Corporation) -> None:
        """The acquirer inherits the target's part of the marker (unless it has its own station
        there, which it keeps)."""
        if target.sym not in self.sherbrooke_sharers or not self.sherbrooke_token_done:
            return
        found = self._city()
        i = self.sherbrooke_sharers.index(target.sym)
        if found is not None and acq.sym not in found[0].tokens.get(found[1], []):
            self.sherbrooke_sharers[i] = acq.sym
            slots = found[0].tokens[found[1]]
            slots[slots.index(target.sym)] = acq.sym
        else:
            self.sherbrooke_sharers.pop(i)
            if found is not None and target.sym in found[0].tokens.get(found[1], []):
                found[0].tokens[found[1]].remove(target.sym)
        self.settle()
