"""Export a game in the 18xx.games JSON shape (so it loads there and in our replay)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .game import Game


def export_game(game: Game, *, game_id: str | None = None, description: str = "") -> dict[str, Any]:
    """``game`` as an 18xx.games export (its own players, settings and action log)."""
    return export_record(game.title, [(p.id, p.name) for p in game.players], game.seed, game.optional_rules,
                         game.action_log, game=game, game_id=game_id or f"conductor-{game.seed or 0}",
                         description=description)


def export_record(title: str, players: Iterable[tuple[str | None, str]], seed: int | None,
                  optional_rules: Iterable[str], actions: Iterable[dict[str, Any]], *, game: Game | None,
                  game_id: Any, description: str = "") -> dict[str, Any]:
    """An 18xx.games export of a game's record: ``game`` is the state the actions replay to (None:
    a game not started, or one that does not replay; no status "finished" and no result then)."""
    finished = game is not None and game.finished
    out: dict[str, Any] = {
        "id": game_id,
        "title": title,
        "description": description,
        "players": [{"id": _player_id(pid), "name": name} for pid, name in players],
        "settings": {"seed": seed, "optional_rules": list(optional_rules)},
        "actions": [_ids(dict(a)) for a in actions],
        "status": "finished" if finished else "active",
        "mode": "multi",
    }
    if game is not None and finished:
        out["result"] = {str(k): v for k, v in game.result().items()}
        out["game_end_reason"] = game.end_reason
    return out


def _player_id(pid: str | None) -> Any:
    """Player ids are numbers in 18xx.games when ours are digits."""
    return int(pid) if pid is not None and pid.isdigit() else pid


def _ids(action: dict[str, Any]) -> dict[str, Any]:
    """Player entities are numbers in 18xx.games when the player ids are numbers."""
    ent = action.get("entity")
    if action.get("entity_type") == "player" and isinstance(ent, str) and ent.isdigit():
        action["entity"] = int(ent)
    if action.get("auto_actions"):
        action["auto_actions"] = [_ids(dict(a)) for a in action["auto_actions"]]
    return action
