"""Titles are built one way (issue #22): a title's game class is a stack of layer classes
whose methods hold the rules; no method only forwards to a module function taking the game."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.titles.g1833ne.game import G1833NE
from engine.titles.g1856.game import G1856

TITLES = Path(__file__).resolve().parents[2] / "engine" / "titles"


def _forwarders(path: Path) -> list[str]:
    """Methods whose whole body calls ``module.function(self, ...)``."""
    found = []
    for cls in (n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.ClassDef)):
        for f in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            body = [b for b in f.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
            if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)):
                continue
            call = body[0].value
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name)
                and call.func.value.id != "self"
                and call.args
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == "self"
            ):
                found.append(f"{path.relative_to(TITLES)}: {cls.name}.{f.name}")
    return found


def test_no_title_method_only_forwards_the_game_to_a_rule_module() -> None:
    forwarders = [f for path in sorted(TITLES.rglob("*.py")) for f in _forwarders(path)]
    assert forwarders == []


def test_1833ne_is_a_stack_of_rule_layers_like_1856() -> None:
    layers = [c.__name__ for c in G1833NE.__mro__ if c.__module__.startswith("engine.titles.g1833ne")]
    assert layers == [
        "G1833NE", "G1833NESequence", "G1833NECompanies", "G1833NETrack",
        "G1833NEStations", "G1833NERoutes", "G1833NETrains", "G1833NEEmergency", "G1833NEFinance",
        "G1833NEBase",
    ]
    assert [c.__name__ for c in G1856.__mro__ if c.__module__.startswith("engine.titles.g1856")] == [
        "G1856", "G1856Privates", "G1856Stock", "G1856Finance", "G1856Base",
    ]
    for cls in (G1833NE, G1856):
        # every layer but the title's own class is exactly one step over the one before
        chain = [c for c in cls.__mro__ if c.__module__.startswith("engine.titles.")]
        assert all(len(c.__bases__) == 1 for c in chain)
