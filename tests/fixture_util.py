"""Load the real-game fixtures kept under tests/fixtures (exports + gzipped reference traces)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


def load_export(title: str, name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / title / f"{name}.json").read_text())


def load_trace(title: str, name: str) -> list[dict[str, Any]]:
    with gzip.open(FIXTURES / title / f"{name}.trace.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]
