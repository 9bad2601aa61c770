"""Load 18xx.games exports (undo/redo filtered as 18xx.games does), replay them, and write
our state after each action in the trace schema of the shared fixtures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .entities import POOL
from .errors import GameError
from .game import Game
from .titles.registry import new_game


class ReplayBudgetError(ValueError):
    """A log whose undo and redo records would take more work to filter than its budget allows."""


def _key(value: Any) -> Any:
    """An action id as a dict key (ids from a file may be lists or dicts: compared by value)."""
    try:
        hash(value)
    except TypeError:
        return ("unhashable", repr(value))
    return value


def filter_actions(
    raw: list[dict[str, Any]], *, budget: int | None = None, steps: list[int] | None = None
) -> list[dict[str, Any]]:
    """Drop undone actions; the result is what 18xx.games processes (undo/redo removed).

    An undo naming an ``action_id`` cuts the log after the last action with that id; one without
    cuts the last action that is not a message (and the messages after it); a redo puts back
    what the last undo cut, until an action other than a message is played. Linear in the log
    (each action's last position is kept by id), except a redo, which costs what it restores:
    ``budget`` bounds that work (:class:`ReplayBudgetError`); ``steps`` receives the work done."""
    active: list[dict[str, Any]] = []
    where: dict[Any, list[int]] = {}  # id -> its positions in ``active``, in order
    undone: list[list[dict[str, Any]]] = []
    work = 0

    def push(a: dict[str, Any]) -> None:
        where.setdefault(_key(a.get("id")), []).append(len(active))
        active.append(a)

    def cut_at(cut: int) -> list[dict[str, Any]]:
        gone = active[cut:]
        for a in gone:
            key = _key(a.get("id"))
            spots = where[key]
            spots.pop()
            if not spots:
                del where[key]
        del active[cut:]
        return gone

    for n, a in enumerate(raw, start=1):
        work += 1
        kind = a.get("type")
        if kind == "undo":
            target = a.get("action_id")
            if target is not None:
                spots = where.get(_key(target))
                cut = spots[-1] + 1 if spots else 0
            else:
                cut = len(active) - 1
                while cut > 0 and active[cut].get("type") == "message":
                    cut -= 1
                cut = max(cut, 0)
            work += len(active) - cut
            undone.append(cut_at(cut))
        elif kind == "redo":
            if undone:
                chunk = undone.pop()
                work += len(chunk)
                for b in chunk:
                    push(b)
        else:
            if kind != "message":
                undone.clear()
            push(a)
        if budget is not None and work > budget:
            raise ReplayBudgetError(
                f"its undo and redo records take more than {budget} steps to sort out "
                f"(stopped at record {n} of {len(raw)})"
            )
    if steps is not None:
        steps.append(work)
    return active


def players_of(export: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for p in export["players"]:
        pid = p.get("id", p["name"])
        out.append((str(pid), p["name"]))
    return out


def game_from_export(export: dict[str, Any]) -> Game:
    settings = export.get("settings") or {}
    return new_game(export["title"], players_of(export), settings.get("optional_rules") or [],
                    settings.get("seed"))


@dataclass
class ReplayResult:
    game: Game
    processed: int = 0
    error: str | None = None
    failed_action_id: Any = None
    trace: list[dict[str, Any]] = field(default_factory=list)


def replay(export: dict[str, Any], *, trace: bool = False, upto: int | None = None) -> ReplayResult:
    """Replay ``export``; stop at the first rejected action (its id and reason are reported)."""
    game = game_from_export(export)
    # programmed moves are applied from the record, not decided again, and the track restriction
    # of upgrades is not checked: as 18xx.games loads a game; what is played on from here is live
    game.live = False
    res = ReplayResult(game)
    try:
        for raw in filter_actions(export.get("actions", [])):
            try:
                action = A.Action.from_dict(raw)
                game.process(action, safe=False)
            except (GameError, ValueError, KeyError, AssertionError) as exc:
                res.error = f"{type(exc).__name__}: {exc}" if not isinstance(exc, GameError) else str(exc)
                res.failed_action_id = raw.get("id")
                return res
            res.processed += 1
            if trace:
                res.trace.append(snapshot(game, raw))
            if upto is not None and raw.get("id") == upto:
                break
    finally:
        game.live = True
    return res


def snapshot(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """Our state in the shared trace schema."""
    players = {}
    for p in game.players:
        shares: dict[str, int] = {}
        for s in game.shares.values():
            if s.owner == p.id:
                shares[s.corporation] = shares.get(s.corporation, 0) + s.percent
        players[p.name] = {"cash": p.cash, "shares": shares, "companies": list(p.companies),
                           "value": game.player_value(p), "bankrupt": p.bankrupt}
    corps = {}
    for c in game.corporations.values():
        pres = c.president
        corps[c.sym] = {
            "cash": c.cash, "price": c.price.price if c.price else None,
            "par": c.par.price if c.par else None,
            "floated": game.floated(c),
            "ipoed": c.ipoed, "closed": c.closed,
            "trains": [game.trains[t].name for t in c.trains], "loans": c.loans,
            "tokens": [t.hex for t in c.tokens if t.used],
            "president": game.name_of(pres) if pres else None,
            "ipo_percent": game.percent_of(c.sym, c.sym), "market_percent": game.percent_of(POOL, c.sym),
            "companies": list(c.companies), "capitalization": c.capitalization, "escrow": c.escrow,
            "destinated": c.destinated,
        }
    rnd = game.round
    acting = [game.name_of(e) for e in game.acting()]
    return {
        "id": raw.get("id"), "type": raw.get("type"), "entity": raw.get("entity"),
        "round": rnd.name if rnd else None, "turn": game.turn,
        "round_num": game.round_num, "phase": game.phase["name"], "acting": acting,
        "bank": game.bank, "players": players, "corporations": corps,
        "tiles": [{"hex": h.id, "tile": h.tile.name, "rotation": h.tile.rotation}
                  for h in game.board.hexes.values() if h.laid],
    }


PLAYER_FIELDS = ("cash", "shares", "companies")
CORP_FIELDS = ("cash", "price", "par", "trains", "loans", "tokens", "escrow", "president", "floated",
               "ipoed", "closed", "ipo_percent", "market_percent", "companies", "capitalization",
               "destinated")
TOP_FIELDS = ("round", "acting", "bank", "phase", "turn", "round_num")


def first_divergence(ours: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str | None:
    """Compare our trace with a reference trace line by line; describe the first difference."""
    exp_tiles: dict[str, tuple[str, int]] = {}
    exp_lines = [e for e in expected if not e.get("final")]
    for i, exp in enumerate(exp_lines):
        for t in exp.get("tiles", []):
            exp_tiles[t["hex"]] = (t["tile"], t["rotation"])
        if i >= len(ours):
            return f"action {exp.get('id')}: our replay stopped before this action"
        got = ours[i]
        where = f"action {exp.get('id')} ({exp.get('type')} by {exp.get('entity')})"
        for f in TOP_FIELDS:
            if f in exp and exp[f] != got.get(f):
                return f"{where}: {f}: expected {exp[f]!r}, got {got.get(f)!r}"
        for name, ep in exp["players"].items():
            gp = got["players"].get(name, {})
            for f in PLAYER_FIELDS:
                ev, gv = ep.get(f), gp.get(f)
                if f == "companies":
                    ev, gv = sorted(ev or []), sorted(gv or [])
                if ev != gv:
                    return f"{where}: player {name} {f}: expected {ev!r}, got {gv!r}"
        for sym, ec in exp["corporations"].items():
            gc = got["corporations"].get(sym, {})
            for f in CORP_FIELDS:
                ev, gv = ec.get(f), gc.get(f)
                if f in ("trains", "tokens", "companies"):
                    ev, gv = sorted(x or "" for x in (ev or [])), sorted(x or "" for x in (gv or []))
                if ev != gv:
                    return f"{where}: corporation {sym} {f}: expected {ev!r}, got {gv!r}"
        got_tiles = {t["hex"]: (t["tile"], t["rotation"]) for t in got.get("tiles", [])}
        if got_tiles != exp_tiles:
            diff = sorted(set(got_tiles.items()) ^ set(exp_tiles.items()))
            return f"{where}: tiles differ: {diff[:4]}"
    return None
