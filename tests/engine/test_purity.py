"""bot.engine is pure: standard library imports only, and no use of Python's ``random``.

notation.md "Shuffling": the engine shuffles with its own documented generator (``rng.py``) so a
record replays identically on every Python version; ``random`` must not appear at all.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))


def foreign_imports(source: str, depth: int = 0) -> list[str]:
    """Imports that are neither standard library nor inside bot.engine (``depth``: how many
    folders below bot/engine the module sits, for relative imports)."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level > depth + 1:
                    bad.append(f"line {node.lineno}: relative import leaves bot.engine")
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name == "bot.engine" or name.startswith("bot.engine."):
                continue
            top = name.split(".")[0]
            if top == "__future__" or top in sys.stdlib_module_names:
                continue
            bad.append(f"line {node.lineno}: import {name}")
    return bad


def random_uses(source: str) -> list[str]:
    """``import random``, ``from random import ...``, the name ``random`` or any ``.random``."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            bad += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] == "random"]
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "random":
            bad.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Name) and node.id == "random":
            bad.append(f"line {node.lineno}: the name random")
        elif isinstance(node, ast.Attribute) and node.attr == "random":
            bad.append(f"line {node.lineno}: .random")
    return bad


def test_engine_modules_found() -> None:
    assert {"__init__.py", "game.py", "rng.py", "cards.py"} <= {p.name for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_imports_are_stdlib_or_within_engine(path: Path) -> None:
    depth = len(path.relative_to(ENGINE).parts) - 1
    bad = foreign_imports(path.read_text(encoding="utf-8"), depth)
    assert not bad, f"{path.name} imports outside the standard library and bot.engine: {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_python_random(path: Path) -> None:
    bad = random_uses(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.name} uses Python's random (notation.md: the engine's own shuffle only): {bad}"


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("import os, json\nfrom collections import Counter\nfrom . import cards\nfrom .game import Game", False),
        ("from __future__ import annotations\nimport bot.engine.cards\nfrom bot.engine import rng", False),
        ("import numpy", True),
        ("from discord import Embed", True),
        ("import bot.db", True),
        ("from .. import cogs", True),
        ("def f():\n    import aiosqlite", True),
    ],
)
def test_import_checker(source: str, flagged: bool) -> None:
    assert bool(foreign_imports(source)) is flagged


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("import secrets, hashlib\nx = 'random.shuffle'  # random.choice", False),
        ("import random", True),
        ("import random as r", True),
        ("from random import shuffle", True),
        ("x = random.Random(1)", True),
        ("x = rng.random()", True),
    ],
)
def test_random_checker(source: str, flagged: bool) -> None:
    assert bool(random_uses(source)) is flagged
