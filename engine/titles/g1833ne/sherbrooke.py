"""Sherbrooke's shared marker (summary: A&StL "teilt mit der StL&A einen Marker, der kostenlos in
Sherbrooke gelegt wird, sobald jemand dort das gelbe Plättchen legt").

The marker is one station: it takes one space of Sherbrooke's city however many corporations
share it. In the city's slot list the first sharer holds that space and the other sharers follow
past the city's spaces, so the board counts one station for all of them. A sharer that closes
leaves the marker to the others (the space frees only when nobody shares it any more); a
corporation taking over a sharer inherits its part of the marker ("erbt ... Marker")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...entities import Corporation
    from .game import G1833NE


def _city(g: G1833NE) -> tuple[Any, int] | None:
    h = g.board.hexes.get(g.data.SHARED_TOKEN["hex"])
    if h is None or not h.tile.cities:
        return None
    return h, h.tile.cities[0].index


def place_marker(g: G1833NE) -> None:
    """The yellow tile is laid: the open sharers' marker goes into the city's free space."""
    found = _city(g)
    if found is None:
        return
    g.sherbrooke_sharers = [s for s in g.sherbrooke_sharers if not g.corporations[s].closed]
    g.sherbrooke_token_done = True
    h, ci = found
    slots = h.city_slots(ci)
    h.tokens[ci] = [s for s in slots if s is not None] + g.sherbrooke_sharers
    settle(g)
    if g.sherbrooke_sharers:
        g.log.append(f"{' and '.join(g.sherbrooke_sharers)} place their shared marker in Sherbrooke")


def settle(g: G1833NE) -> None:
    """Keep the shared marker in one space of the city (after a lay, a closing or a takeover)."""
    found = _city(g)
    if found is None or not g.sherbrooke_token_done:
        return
    h, ci = found
    slots = h.tokens.get(ci)
    if slots is None:
        return
    spaces = max(1, h.tile.nodes[ci].slots)
    sharers = [s for s in g.sherbrooke_sharers if s in slots]
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
    g.board.changed()


def sharer_closed(g: G1833NE, corp: Corporation) -> None:
    """A closing sharer leaves the marker to the others."""
    if corp.sym in g.sherbrooke_sharers:
        g.sherbrooke_sharers.remove(corp.sym)
        settle(g)


def sharer_taken_over(g: G1833NE, target: Corporation, acq: Corporation) -> None:
    """The acquirer inherits the target's part of the marker (unless it has its own station
    there, which it keeps)."""
    if target.sym not in g.sherbrooke_sharers or not g.sherbrooke_token_done:
        return
    found = _city(g)
    i = g.sherbrooke_sharers.index(target.sym)
    if found is not None and acq.sym not in found[0].tokens.get(found[1], []):
        g.sherbrooke_sharers[i] = acq.sym
        slots = found[0].tokens[found[1]]
        slots[slots.index(target.sym)] = acq.sym
    else:
        g.sherbrooke_sharers.pop(i)
        if found is not None and target.sym in found[0].tokens.get(found[1], []):
            found[0].tokens[found[1]].remove(target.sym)
    settle(g)
