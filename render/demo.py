"""Games to draw when no real one is at hand: previews, tests and benchmarks.

``make_game`` builds a fresh game of a title; ``apply_snapshot`` puts a recorded
mid/late-game state on it (tiles, tokens, share prices, holdings, trains), as stored in
``tests/render_ref/*.json``.  Those snapshots were cut from the 18xx.games reference traces
in ``shared/fixtures/18xx.games`` (the tiles of every trace line up to the chosen one, plus
that line's players and corporations); see :func:`snapshot_from_trace`.

Nothing here enforces rules: a snapshot is laid on the board as it was recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.entities import POOL
from engine.game import Game
from engine.titles.registry import new_game


def make_game(data: ModuleType, players: int = 3, seed: int = 1) -> Game:
    """A fresh game of the title ``data`` with ``players`` players named Player 1..n."""
    seats = [(f"Player {i}", f"Player {i}") for i in range(1, players + 1)]
    return new_game(data.TITLE, seats, seed=seed)


def load_snapshot(path: str | Path) -> dict[str, Any]:
    snap: dict[str, Any] = json.loads(Path(path).read_text())
    return snap


def snapshot_from_trace(trace_path: str | Path, action_id: int | None = None) -> dict[str, Any]:
    """Cut a snapshot from an 18xx.games reference trace (``*.trace.jsonl``): the state
    after ``action_id`` (default: the last line with a state)."""
    tiles: dict[str, dict[str, Any]] = {}
    state: dict[str, Any] | None = None
    with open(trace_path) as fh:
        for line in fh:
            row = json.loads(line)
            if "corporations" not in row:
                continue
            for t in row.get("tiles", []):
                tiles[t["hex"]] = t
            state = row
            if action_id is not None and row.get("id") == action_id:
                break
    if state is None:
        raise ValueError(f"no state in {trace_path}")
    return {
        "phase": state["phase"],
        "bank": state["bank"],
        "tiles": list(tiles.values()),
        "players": state["players"],
        "corporations": state["corporations"],
    }


def _find_cell(game: Game, price: int, near_row: int | None) -> Any:
    cells = [c for row in game.market.grid for c in row if c is not None and c.price == price]
    if not cells:
        return None
    if near_row is None:
        return cells[0]
    return min(cells, key=lambda c: (abs(c.row - near_row), c.col))


def apply_snapshot(game: Game, snap: dict[str, Any]) -> Game:
    """Put a recorded state on ``game`` (which should be fresh); returns ``game``."""
    board = game.board
    for t in snap.get("tiles", []):
        name = str(t["tile"])
        ids = board.supply.get(name)
        if not ids or t["hex"] not in board.hexes:
            continue
        board.lay(t["hex"], ids[0], int(t.get("rotation", 0)))
    names = [p["name"] for p in game.phases]
    if snap.get("phase") in names:
        game.phase_index = names.index(snap["phase"])
    if "bank" in snap:
        game.bank = snap["bank"]
    by_name = {p.name: p for p in game.players}
    for name, pdata in snap.get("players", {}).items():
        player = by_name.get(name)
        if player is None:
            continue
        player.cash = pdata.get("cash", player.cash)
        player.bankrupt = pdata.get("bankrupt", False)
        player.companies = [c for c in pdata.get("companies", []) if c in game.companies]
        for c in player.companies:
            game.companies[c].owner = player.id
    _apply_corporations(game, snap.get("corporations", {}), by_name)
    if any(c.get("ipoed") for c in snap.get("corporations", {}).values()):
        owned = {c for p in snap.get("players", {}).values() for c in p.get("companies", [])}
        owned |= {c for corp in snap.get("corporations", {}).values() for c in corp.get("companies", [])}
        for sym, company in game.companies.items():
            if sym not in owned:
                company.closed = True  # bought in and closed, or closed by a phase change
    _retire_old_trains(game)
    board.changed()
    return game


def _apply_corporations(game: Game, corps: dict[str, Any], by_name: dict[str, Any]) -> None:
    for sym, cdata in corps.items():
        corp = game.corporations.get(sym)
        if corp is None:
            continue
        corp.cash = cdata.get("cash", 0)
        corp.loans = cdata.get("loans", 0)
        corp.ipoed = bool(cdata.get("ipoed"))
        corp.closed = bool(cdata.get("closed"))
        corp.started = bool(cdata.get("floated"))
        corp.capitalization = cdata.get("capitalization")
        corp.escrow = cdata.get("escrow")
        corp.destinated = bool(cdata.get("destinated"))
        pres = cdata.get("president")
        corp.president = by_name[pres].id if pres in by_name else None
        if cdata.get("par") is not None:
            corp.par = game.market.par_cell(cdata["par"]) or _find_cell(game, cdata["par"], None)
        if cdata.get("price") is not None and not corp.closed:
            corp.price = _find_cell(game, cdata["price"], corp.par.row if corp.par else None)
            if corp.price is not None:
                corp.price.corporations.append(sym)
        for train_name in cdata.get("trains", []):
            train = next((t for tid in game.train_order if (t := game.trains[tid]).name == str(train_name)
                          and t.owner == "depot"), None)
            if train is not None:
                game.give_train(train, sym)
        for token, hid in zip(corp.tokens, cdata.get("tokens", []), strict=False):
            h = game.board.hexes.get(hid)
            if h is None or not h.tile.cities:
                continue
            city = corp.home_city if (hid == corp.home and corp.home_city is not None) else None
            if city is None:
                city = next((c.index for c in h.tile.cities if None in h.city_slots(c.index)), h.tile.cities[0].index)
            try:
                game.board.place_token(hid, city, sym)
            except Exception:  # noqa: BLE001 - a full city in an approximate snapshot
                continue
            token.used, token.hex, token.city = True, hid, city
        _apply_shares(game, sym, cdata, by_name)


def _apply_shares(game: Game, sym: str, cdata: dict[str, Any], by_name: dict[str, Any]) -> None:
    shares = sorted(game.corp_shares(sym), key=lambda s: (not s.president, s.index))
    for s in shares:
        s.owner = sym
    wanted: list[tuple[str, int]] = []
    pres = cdata.get("president")
    holders = {n: pct for n, pct in (cdata.get("_player_shares") or {}).items() if n in by_name and pct}
    if pres is not None and pres in holders:  # president first, so the president's certificate goes to them
        wanted.append((by_name[pres].id, holders.pop(pres)))
    wanted += [(by_name[n].id, pct) for n, pct in holders.items()]
    wanted.append((POOL, int(cdata.get("market_percent") or 0)))
    free = list(shares)
    for owner, pct in wanted:
        for s in list(free):
            if pct <= 0:
                break
            if s.percent <= pct and (owner != POOL or not s.president):
                s.owner = owner
                pct -= s.percent
                free.remove(s)


def _retire_old_trains(game: Game) -> None:
    """Trains of the types before the current phase's train left the depot long ago."""
    on = game.phase.get("on")
    if not on:
        return
    first = next((i for i, tid in enumerate(game.train_order) if game.trains[tid].name == str(on)), None)
    if first is None:
        return
    for tid in game.train_order[:first]:
        if game.trains[tid].owner == "depot":
            game.trains[tid].owner = "rusted"


def late_game(data: ModuleType, snapshot: str | Path, players: int | None = None) -> Game:
    """A game of ``data`` with the snapshot at ``snapshot`` applied (player shares included)."""
    snap = load_snapshot(snapshot)
    n = players or len(snap.get("players", {})) or 3
    game = make_game(data, n)
    # share holdings are per player in the snapshot; hand them to the corporations' records
    for name, pdata in snap.get("players", {}).items():
        for sym, pct in (pdata.get("shares") or {}).items():
            snap["corporations"].setdefault(sym, {}).setdefault("_player_shares", {})[name] = pct
    return apply_snapshot(game, snap)
