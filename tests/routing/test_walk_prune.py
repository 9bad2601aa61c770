"""The network walk's pruning (engine.map.walk.route_legal_walk, ``prune``) changes no result:
on dense real games, every walk made while replaying them finds the same nodes, touches the
same (hex, edge) pairs in the same order, enters hexes at the same edges and looks at the same
hexes with and without it. Nor do the walks a tile lay's check stops early (``WalkWatch``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import actions as A
from engine.decisions import _fitting_rotations, _tile_lays
from engine.errors import GameError
from engine.map import walk as walk_mod
from engine.mechanics import track as track_mod
from engine.mechanics.track import HexReach
from engine.replay import filter_actions, game_from_export, replay
from tests.fixture_util import load_export

GAMES = ["1836jr56/1836jr56_p3_s205_diesel_variant", "1836jr56/1836jr56_p2_s905",
         "1856/1856_p3_s801_unlimited_bonus_tokens"]


@pytest.mark.parametrize("name", GAMES)
def test_pruned_walk_finds_what_the_whole_walk_finds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    export = load_export("generated", name)
    walk = walk_mod.route_legal_walk
    compared = []

    def both(board: Any, start: Any, sym: str, others: Any, touched: dict[Any, None],
             arrivals: set[Any] | None = None, looked: set[str] | None = None,
             paths: set[int] | None = None, **_: Any) -> Any:
        got = []
        for prune in (False, True):
            t, a, lk, ps = dict(touched), set(arrivals or ()), set(looked or ()), set(paths or ())
            reached = walk(board, start, sym, others, t, arrivals=a, looked=lk, prune=prune, paths=ps)
            got.append((reached, list(t), a, lk, ps))
        assert got[0] == got[1], (name, sym, start)
        compared.append(sym)
        reached, t_list, a, lk, ps = got[1]
        touched.update(dict.fromkeys(t_list))
        if arrivals is not None:
            arrivals |= a
        if looked is not None:
            looked |= lk
        if paths is not None:
            paths |= ps
        return reached

    monkeypatch.setattr(walk_mod, "route_legal_walk", both)
    res = replay(export)
    assert res.error is None
    assert len(compared) > 100


@pytest.mark.parametrize("name", GAMES)
def test_watched_walk_stops_within_the_whole_walk(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tile lay's check walks a station only until the check passes (WalkWatch): what such a
    walk found of the hex by then is a part of what the whole walk from there finds."""
    export = load_export("generated", name)
    walk = walk_mod.route_legal_walk
    stopped = []

    def also_whole(board: Any, start: Any, sym: str, others: Any, touched: dict[Any, None],
                   arrivals: set[Any] | None = None, looked: set[str] | None = None, **kw: Any) -> Any:
        watch = kw.get("watch")
        # (a watch gathers what the walks of several stations found: compare this one's part)
        edges0, entries0 = (set(watch.edges), set(watch.entries)) if watch is not None else (set(), set())
        got = walk(board, start, sym, others, touched, arrivals=arrivals, looked=looked, **kw)
        if watch is not None and watch.stopped:
            whole_touched: dict[Any, None] = {}
            whole_arrivals: set[Any] = set()
            walk(board, start, sym, others, whole_touched, arrivals=whole_arrivals)
            assert watch.edges - edges0 <= {e for h, e in whole_touched if h == watch.hid}, (name, sym, start)
            assert watch.entries - entries0 <= {e for h, e in whole_arrivals if h == watch.hid}, (name, sym, start)
            stopped.append(sym)
        return got

    monkeypatch.setattr(walk_mod, "route_legal_walk", also_whole)
    res = replay(export)
    assert res.error is None
    assert len(stopped) > 20


@pytest.mark.parametrize("name", GAMES[:2])
def test_lay_verdicts_do_not_depend_on_watched_walks(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before each tile lay of a dense game, with every station's walk stale (as after a lay
    elsewhere), every tile and rotation that fits the hex gets the same verdict (accepted, or
    refused with the same message) whether the check's walks stop early or go to their end."""
    export = load_export("generated", name)
    game = game_from_export(export)
    whole_walks = HexReach.walk_one_more

    def verdicts(watched: bool, corp: Any, hid: str) -> list[tuple[str, int, str]]:
        if watched:
            monkeypatch.setattr(HexReach, "walk_one_more", whole_walks)
        else:
            monkeypatch.setattr(HexReach, "walk_one_more", lambda self, passes=None: whole_walks(self, None))
        b = game.board
        fits = _fitting_rotations(game, b.hexes[hid])
        out = []
        for tile_name, ids in sorted(b.supply.items()):
            base = b.tile_for(tile_name)
            if not ids or base.color not in game.phase["tiles"]:
                continue
            for r in fits(base):
                b._cache.clear()  # every walk stale
                try:
                    game.check_lay_rotation(corp, hid, base.with_rotation(r))
                    out.append((tile_name, r, "ok"))
                except GameError as err:
                    out.append((tile_name, r, str(err)))
        return out

    compared = refused = 0
    for i, raw in enumerate(filter_actions(export["actions"])):
        if raw.get("type") == "lay_tile" and i % 3 == 0:
            corp = game.corporations.get(str(raw.get("entity")))
            if corp is not None:
                watched = verdicts(True, corp, str(raw["hex"]))
                assert watched == verdicts(False, corp, str(raw["hex"])), (name, raw["id"])
                compared += len(watched)
                refused += sum(1 for v in watched if v[2] != "ok")
        game.process(A.Action.from_dict(raw), safe=False)
    assert compared > 50 and refused > 5, (compared, refused)


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: each quick check is worked out again."""

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return {}


@pytest.mark.parametrize("name", [GAMES[0], GAMES[2]])
def test_kept_quick_lay_checks_answer_as_fresh_ones(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick checks of a lay (the edges the network touches and enters a hex by, against the
    old and new tile) are kept for every game of a title: before every other tile lay of a dense
    game of each title, the whole listing of legal lays is the same with the kept answers as
    with every answer worked out afresh, and kept answers were used."""
    export = load_export("generated", name)
    game = game_from_export(export)
    kept: dict[Any, Any] = {}
    compared = used = 0
    for i, raw in enumerate(filter_actions(export["actions"])):
        corp = str(raw.get("entity"))
        if raw.get("type") == "lay_tile" and i % 2 == 0 and corp in game.corporations:
            monkeypatch.setattr(track_mod, "_QUICK", kept)
            before = sum(len(v) for v in kept.values())
            with_kept = _tile_lays(game, corp, None)
            used += sum(len(v) for v in kept.values()) == before and bool(with_kept)
            monkeypatch.setattr(track_mod, "_QUICK", _Forgetful())
            assert with_kept == _tile_lays(game, corp, None), (name, raw["id"])
            compared += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert compared > 40 and used > 5, (compared, used)



# a game where a lay is legal only by the walk with the new tile on the hex (2 such lays)
WALKED_LAYS = "1836jr56/1836jr56_p2_s1007_diesel_variant"


@pytest.mark.parametrize("name", [GAMES[0], GAMES[2], WALKED_LAYS])
def test_first_lay_listing_finds_the_hexes_of_the_whole_listing(name: str) -> None:
    """The hex listing (each hex until its first legal lay, the lays needing the network walked
    with the new tile tried last) names the same hexes as the listing of every lay, before every
    tile lay of dense games and of one where the walk makes a lay legal."""
    export = load_export("generated", name)
    game = game_from_export(export)
    compared = 0
    for raw in filter_actions(export["actions"]):
        corp = str(raw.get("entity"))
        if raw.get("type") == "lay_tile" and corp in game.corporations:
            first = _tile_lays(game, corp, None, first=True)
            whole = _tile_lays(game, corp, None)
            assert sorted(first) == sorted(whole), (name, raw["id"])
            assert all(r in whole[h][t] for h, lays in first.items() for t, rs in lays.items() for r in rs)
            compared += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert compared > 30, compared
