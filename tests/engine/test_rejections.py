"""Every rejection is typed: each ``GameError`` the engine raises names its code (one of
engine.errors.CODES), so front ends decide on codes and never on a message's words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import errors

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _gameerror_calls() -> list[tuple[str, int, ast.Call]]:
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "GameError":
                out.append((str(path.relative_to(ENGINE.parent)), node.lineno, node))
    return out


def test_every_engine_rejection_names_a_code() -> None:
    calls = _gameerror_calls()
    assert len(calls) > 200
    missing = [f"{p}:{n}" for p, n, c in calls if len(c.args) < 2 and not any(k.arg == "code" for k in c.keywords)]
    assert missing == []
    known = set(dir(errors))
    named = {c.args[1].id for _, _, c in calls if len(c.args) >= 2 and isinstance(c.args[1], ast.Name)
             and c.args[1].id.isupper()}  # a constant of engine.errors (not a variable holding one)
    assert named <= known and {getattr(errors, n) for n in named} <= set(errors.CODES)


def test_an_unknown_code_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(ValueError):
        errors.GameError("whatever", "no_such_code")
