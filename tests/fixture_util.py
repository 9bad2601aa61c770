"""Load the real-game fixtures kept under tests/fixtures (exports + gzipped reference traces)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


def load_export(title: str, name: str) -> dict[str, Any]:
    """``title`` is a folder under tests/fixtures ("1856", "generated/1836jr56", ...)."""
    plain = FIXTURES / title / f"{name}.json"
    if plain.exists():
        return json.loads(plain.read_text())
    with gzip.open(FIXTURES / title / f"{name}.json.gz", "rt") as fh:
        return json.load(fh)


def load_trace(title: str, name: str) -> list[dict[str, Any]]:
    with gzip.open(FIXTURES / title / f"{name}.trace.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]
