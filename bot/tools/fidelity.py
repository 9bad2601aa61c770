"""``conductor fidelity DIR...``: replay every 18xx.games export in the folders and compare our
state after every action with the reference trace beside it (``NAME.trace.jsonl[.gz]``).

One JSON line per game (``ok``, ``actions``, ``problem``: the first rejected action or the first
differing field), then a summary line per title and overall. Exit 0 when every game agrees.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def export_stem(export: Path) -> str:
    name = export.name
    for suffix in (".json.gz", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def trace_path(export: Path) -> Path | None:
    for suffix in (".trace.jsonl.gz", ".trace.jsonl"):
        p = export.with_name(export_stem(export) + suffix)
        if p.exists():
            return p
    return None


def read_export(path: Path) -> dict[str, Any]:
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt") as fh:
            data: dict[str, Any] = json.load(fh)
            return data
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def find_exports(dirs: Iterable[str]) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        p = Path(d)
        files = [p] if p.is_file() else sorted([*p.rglob("*.json"), *p.rglob("*.json.gz")])
        out.extend(f for f in files if trace_path(f) is not None)
    return out


def check_game(export_path: Path) -> dict[str, Any]:
    """Replay one export against its reference trace; the first problem, if any."""
    from engine.replay import first_divergence, replay

    export = read_export(export_path)
    tp = trace_path(export_path)
    assert tp is not None
    expected = read_jsonl(tp)
    res = replay(export, trace=True)
    problem = first_divergence(res.trace, expected)
    if res.error and (problem is None or "replay stopped" in problem):
        problem = f"action {res.failed_action_id} rejected: {res.error}"
    final = next((e for e in expected if e.get("final")), None)
    if problem is None and final is not None and "result" in final:
        ours = {str(k): v for k, v in res.game.result().items()}
        if ours != {str(k): v for k, v in final["result"].items()}:
            problem = f"result differs: expected {final['result']}, got {ours}"
    return {
        "game": export_stem(export_path),
        "title": export.get("title"),
        "ok": problem is None,
        "actions": res.processed,
        "problem": problem,
    }


def run_fidelity(dirs: list[str], jobs: int = 2) -> int:
    exports = find_exports(dirs)
    if not exports:
        print("no exports with a reference trace found", file=sys.stderr)
        return 2
    from concurrent.futures import ProcessPoolExecutor  # not at the top: replaying one export needs none

    totals: dict[str, list[int]] = {}
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for line in pool.map(check_game, exports):
            print(json.dumps(line), flush=True)
            t = totals.setdefault(str(line["title"]), [0, 0])
            t[0] += int(line["ok"])
            t[1] += 1
    for title, (ok, n) in sorted(totals.items()):
        print(json.dumps({"title": title, "agree": ok, "games": n}))
    ok = sum(v[0] for v in totals.values())
    n = sum(v[1] for v in totals.values())
    print(json.dumps({"summary": f"agree {ok}/{n} games"}))
    return 0 if ok == n else 1
