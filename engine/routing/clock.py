"""The route search's time budget: on the wall clock, or on a clock of work done (the computer
player's searches stop at the same point on any machine)."""

from __future__ import annotations

import time

WORK_RATE = 300_000.0  # steps of search per second of CPU in dense positions on this machine (measured)


class Clock:
    """The search's budget: ``deadline`` for the whole search; ``out`` once it has passed. On
    the wall clock, or, with ``work_rate``, on a clock of work done: each step of the search
    counts ``1 / work_rate`` seconds, so that a search
    stops at the same point on a busy machine as on an idle one (the computer player's
    decisions are the same for the same game)."""

    def __init__(self, budget: float, work_rate: float | None = None):
        self.rate = work_rate
        self.looks = 0
        self.began = time.perf_counter()
        self.start = 0.0 if work_rate else self.began
        self.deadline = self.start + budget
        self.out = False

    def now(self, work: int = 1) -> float:
        if self.rate:
            self.looks += work
            return self.looks / self.rate
        return time.perf_counter()

    def expired(self, deadline: float | None = None, work: int = 1) -> bool:
        """``work``: the steps done since the caller last looked."""
        if self.now(work) > (self.deadline if deadline is None else deadline):
            self.out = True
        return self.out

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.began) * 1000.0
