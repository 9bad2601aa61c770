"""Export a game in the 18xx.games JSON shape (so it loads there and in our replay)."""

from __future__ import annotations

from typing import Any

from .game import Game


def export_game(game: Game, *, game_id: str | None = None, description: str = "") -> dict[str, Any]:
    players = []
    for p in game.players:
        pid: Any = int(p.id) if p.id.isdigit() else p.id
        players.append({"id": pid, "name": p.name})
    out: dict[str, Any] = {
        "id": game_id or f"conductor-{game.seed or 0}",
        "title": game.title,
        "description": description,
        "players": players,
        "settings": {"seed": game.seed, "optional_rules": list(game.optional_rules)},
        "actions": [_ids(dict(a)) for a in game.action_log],
        "status": "finished" if game.finished else "active",
        "mode": "multi",
    }
    if game.finished:
        out["result"] = {str(k): v for k, v in game.result().items()}
        out["game_end_reason"] = game.end_reason
    return out


def _ids(action: dict[str, Any]) -> dict[str, Any]:
    """Player entities are numbers in 18xx.games when the player ids are numbers."""
    ent = action.get("entity")
    if action.get("entity_type") == "player" and isinstance(ent, str) and ent.isdigit():
        action["entity"] = int(ent)
    if action.get("auto_actions"):
        action["auto_actions"] = [_ids(dict(a)) for a in action["auto_actions"]]
    return action
