"""The worker thread for each command's engine work (the move's consequences, buttons, suggested
routes; the search for "auto" routes).

Engine work is pure Python: threads share one interpreter lock, so more of them run no faster
and each hand-over of the lock between them costs. One thread runs these calls one after the
other, in the order they come (measured with 50 games at once, ``bench.bench_load``: fewer
CPU milliseconds per command and a lower p95 than the default pool of worker threads). The
event loop stays free meanwhile; slower, rarer work (pictures, rebuilding a game from its log)
keeps the default pool (``asyncio.to_thread``)."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_ENGINE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")


async def in_engine_thread(fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` in the engine thread, with the caller's context variables (as
    ``asyncio.to_thread``: the command's scope sees the games it advanced)."""
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await loop.run_in_executor(_ENGINE, call)
