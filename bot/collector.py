"""The cyclic garbage collector's settings for a process that serves games (issue #24).

Python's default starts a young-generation collection every 700 net allocations. A command
makes and drops far more objects than that (route graphs, listings, replies), so its own
short-lived objects were promoted to the older generations, and every few hundred commands a
full collection walked every object of every loaded game with the whole process stopped.
Measured with ``bench.bench_load``'s commands (100 games at once, 10,000 commands): 28 full
collections took 4.0 s (up to 369 ms each; all collections 6.0 s, 18% of the CPU), and every
command waiting meanwhile was late by that much (p95 646 ms, 288 commands/s). With a young
generation of 10,000 objects, what a command drops is collected young: 2 full collections
(0.2 s; all collections 1.9 s), p95 346 ms, 362 commands/s, the same memory (RSS 197 and
199 MB). Cycles are still collected as before, only less often.
"""

from __future__ import annotations

import gc

YOUNG = 10_000  # net allocations between young-generation collections (Python's default: 700)
THRESHOLDS = (YOUNG, 10, 10)  # the older generations keep Python's defaults


def tune_collector() -> None:
    """Set :data:`THRESHOLDS` for this process (the bot, local mode, their benchmarks)."""
    gc.set_threshold(*THRESHOLDS)
