"""Replay speed against the 18xx.games engine (run on demand: ``python -m bench.bench_replay``).

For the densest games of tests/fixtures (most tiles laid; ``--games N``, default 6) or the
exports given, each game is replayed as a whole process by both engines, alternated, ``--runs``
times (default 3): ``python -m bot.cli replay F`` and ``ruby load.rb F`` (the reference's loader,
``--reference``, default /work/shared/reference/load.rb). The CPU time (user + system) of each
child process is measured; the figure per game is the ratio of the medians (reference / ours;
the target of issue #24 is at least 3). Our modules are byte-compiled first (as installed;
``--no-compile`` leaves them as they are).
Without Ruby or the loader only our times are printed.

``--profile`` instead replays in this process and prints our median time per game (no reference).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
REFERENCE = Path("/work/shared/reference/load.rb")


def read_export(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def tiles_laid(export: dict[str, Any]) -> int:
    return sum(1 for a in export.get("actions", []) if a.get("type") == "lay_tile")


def densest(n: int) -> list[Path]:
    """The ``n`` exports of tests/fixtures with the most tiles laid."""
    found = [p for p in FIXTURES.rglob("*.json*")
             if p.name.endswith((".json", ".json.gz")) and ".trace." not in p.name]
    ranked = sorted(found, key=lambda p: (-tiles_laid(read_export(p)), p.name))
    return ranked[:n]


def child_cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of running ``cmd`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_ours() -> None:
    """Compile our modules once, as an installed program has them: where Python is told not to
    write bytecode (PYTHONDONTWRITEBYTECODE) every run would otherwise compile them again."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "bot"], check=False,
                   stdout=subprocess.DEVNULL, cwd=ROOT)


def compare(paths: list[Path], runs: int, reference: Path, compiled: bool = True) -> None:
    ruby = shutil.which("ruby")
    have_ref = ruby is not None and reference.exists()
    if compiled:
        compile_ours()
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            export = read_export(path)
            plain = Path(tmp) / (path.name.removesuffix(".gz"))
            plain.write_text(json.dumps(export))
            ours: list[float] = []
            ref: list[float] = []
            for _ in range(runs):
                ours.append(child_cpu([sys.executable, "-m", "bot.cli", "replay", str(plain)]))
                if have_ref:
                    assert ruby is not None
                    ref.append(child_cpu([ruby, str(reference), str(plain)]))
            line = (f"{path.name.split('.json')[0]:55s} {len(export.get('actions', [])):5d} actions "
                    f"{tiles_laid(export):4d} tiles  ours {statistics.median(ours):6.2f} s")
            if ref:
                ratio = statistics.median(ref) / statistics.median(ours)
                line += f"  18xx.games {statistics.median(ref):6.2f} s  ratio {ratio:4.1f}x"
            print(line, flush=True)


def profile(paths: list[Path], runs: int) -> None:
    sys.path.insert(0, str(ROOT))
    from engine.replay import replay

    for path in paths:
        export = read_export(path)
        times = []
        for _ in range(runs):
            t0 = time.process_time()
            res = replay(export)
            times.append(time.process_time() - t0)
        status = "ok" if res.error is None else f"stops at {res.failed_action_id}"
        print(f"{path.name.split('.json')[0]:55s} {res.processed:5d} actions "
              f"median {statistics.median(times) * 1000:7.1f} ms  {status}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, help="exports (default: the densest fixtures)")
    ap.add_argument("--games", type=int, default=6, help="how many of the densest fixtures")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--reference", type=Path, default=Path(os.environ.get("REF18XX_LOAD", REFERENCE)))
    ap.add_argument("--profile", action="store_true", help="in-process replay times only")
    ap.add_argument("--no-compile", action="store_true",
                    help="do not byte-compile our modules first (each run may compile them again)")
    args = ap.parse_args(argv)
    paths = args.files or densest(args.games)
    if args.profile:
        profile(paths, args.runs)
    else:
        compare(paths, args.runs, args.reference, compiled=not args.no_compile)


if __name__ == "__main__":
    main()
