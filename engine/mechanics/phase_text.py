"""A phase in words, as the game log tells it: its number, operating rounds, train limit and
tiles, and what it changes against the phase before."""

from __future__ import annotations

from typing import Any


def phase_line(phase: dict[str, Any], previous: dict[str, Any] | None = None) -> str:
    """ "-- Phase 3 (Operating Rounds: 2 | Train Limit: 4 | Available Tiles: Yellow, Green):
    green tiles may be laid, 2 operating rounds after each stock round --": the phase and what
    it changes against ``previous``."""
    tiles = [str(t) for t in phase.get("tiles", [])]
    parts = [f"Operating Rounds: {phase.get('operating_rounds', 1)}"]
    if phase.get("train_limit") is not None:
        parts.append(f"Train Limit: {_limit(phase['train_limit'])}")
    parts.append("Available Tiles: " + ", ".join(t.capitalize() for t in tiles))
    head = f"-- Phase {phase['name']} ({' | '.join(parts)})"
    if previous is None:
        return head + " --"
    changes = []
    new_tiles = [t for t in tiles if t not in previous.get("tiles", [])]
    if new_tiles:
        changes.append(" and ".join(new_tiles) + " tiles may be laid now")
    if previous.get("train_limit") != phase.get("train_limit") and phase.get("train_limit") is not None:
        was = previous.get("train_limit")
        changes.append(f"the train limit is {_limit(phase['train_limit'])}"
                       + (f" (was {_limit(was)}; extra trains are discarded)" if was is not None else ""))
    if previous.get("operating_rounds") != phase.get("operating_rounds"):
        changes.append(f"{phase.get('operating_rounds')} operating rounds after each stock round"
                       f" (was {previous.get('operating_rounds')})")
    return head + (": " + "; ".join(changes) if changes else "") + " --"


def _limit(value: Any) -> str:
    if isinstance(value, dict):  # per corporation type (1833NE: major/minor)
        return ", ".join(f"{v} ({k})" for k, v in value.items())
    return str(value)
