"""Time to replay each real-game fixture (run on demand: python bench/bench_replay.py)."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from engine.replay import replay

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def main(runs: int = 5) -> None:
    for path in sorted(FIXTURES.glob("*/*.json")):
        export = json.loads(path.read_text())
        times = []
        processed = 0
        error = None
        for _ in range(runs):
            t0 = time.perf_counter()
            res = replay(export)
            times.append(time.perf_counter() - t0)
            processed, error = res.processed, res.error
        status = "ok" if error is None else f"stops at {res.failed_action_id}"
        print(f"{path.parent.name}/{path.stem:28s} {processed:4d}/{len(export['actions']):4d} actions "
              f"median {statistics.median(times) * 1000:7.1f} ms  min {min(times) * 1000:7.1f} ms  {status}")


if __name__ == "__main__":
    main()
