"""The house rules a maintainer relies on (issue 14's "Done when"), checked on every run.

No import circles among the project's modules; the cogs import neither the store nor the client;
no ``get_cog`` and no discord.py private attribute; no production module over 600 lines and
``cogs/rummy.py`` under 400; drivers only in ``bot/store``; no phase or status compared as a string
outside the engine. The third floor (issue 35): ``Move.parse`` only where a player's typed move is
read; no legal move looked up by its text outside the engine; no seat, version or place check in
the wing; the words import no service; the renderers never load, start, hold or play a game.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` anywhere in
a module counts, at module level, inside a function, or under ``if TYPE_CHECKING:``, since a
late import hides a circle without removing it. An edge goes to the module named (``from .encode
import quantize``: ``renderers.encode``; ``from . import encode`` or ``from renderers import
encode``: ``renderers.encode`` when that is a module, else the package). Importing a submodule
is not counted as importing its package's ``__init__``, so ``renderers.hand`` importing
``bot.engine.views`` is an edge to ``bot.engine.views`` only. Imports of anything outside the
project are left out. Nothing of the project is excluded.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "renderers", "activity")

Graph = dict[str, set[str]]


def modules_of(root: Path, packages: Iterable[str]) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package ``__init__``) for every ``.py`` file of ``packages``."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_init = parts[-1] == "__init__"
            if is_init:
                parts.pop()
            found[".".join(parts)] = (path, is_init)
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_init: bool, known: Mapping[str, object]) -> set[str]:
    """The project modules one import statement of ``module`` names."""
    out: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            parts = alias.name.split(".")
            while parts and ".".join(parts) not in known:  # the longest project module named
                parts.pop()
            if parts:
                out.add(".".join(parts))
        return out
    if node.level:
        base = module.split(".") if is_init else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in known:
            out.add(sub)
        elif target in known:
            out.add(target)
    return out


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> Graph:
    """Module -> the project modules it imports, from every import statement in its source."""
    known = modules_of(root, packages)
    graph: Graph = {name: set() for name in known}
    for name, (path, is_init) in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                graph[name] |= _imported(node, name, is_init, known)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components that hold a circle (Tarjan), each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1 or node in graph.get(node, ()):
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found, key=lambda part: (-len(part), part))


def describe(parts: list[list[str]], graph: Graph) -> str:
    """Each circle with the edges inside it, for a failure message."""
    lines = []
    for part in parts:
        inside = set(part)
        lines.append(" <-> ".join(part))
        lines += [f"    {a} -> {b}" for a in part for b in sorted(graph[a] & inside)]
    return "\n".join(lines)


def test_renderers_are_in_no_import_circle():
    graph = import_graph()
    bad = [part for part in cycles(graph) if any(m == "renderers" or m.startswith("renderers.") for m in part)]
    assert not bad, "import circles through renderers/:\n" + describe(bad, graph)


def test_the_whole_project_has_no_import_circle():
    graph = import_graph()
    bad = cycles(graph)
    assert not bad, "import circles:\n" + describe(bad, graph)


def test_late_and_type_checking_imports_count(tmp_path):
    """The reader sees circles hidden in functions and under TYPE_CHECKING, through relative,
    absolute and package-level imports alike."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("def f():\n    from .sub import helper\n    return helper\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n")
    (pkg / "c.py").write_text("import os\nimport pkg.a\nfrom pkg import sub\n")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.a", "pkg.sub"},
    }
    assert cycles(graph) == []
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n    return b\n")
    assert cycles(import_graph(tmp_path, ["pkg"])) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def _sources(*packages: str) -> list[Path]:
    return [p for package in packages for p in sorted((ROOT / package).rglob("*.py"))]


def test_the_cogs_import_neither_the_store_nor_the_client():
    graph = import_graph()
    bad = {m: sorted(t for t in targets if t.startswith(("bot.store", "bot.client")))
           for m, targets in graph.items() if m.startswith("cogs")}
    assert not {m: t for m, t in bad.items() if t}


def test_database_drivers_only_in_the_store():
    drivers = ("sqlite3", "aiosqlite", "asyncpg")
    for path in _sources("bot", "cogs", "renderers", "activity"):
        if path.is_relative_to(ROOT / "bot" / "store"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not names & set(drivers), path


def test_no_get_cog_and_no_private_discord_attributes():
    for path in _sources("bot", "cogs", "renderers", "activity"):
        text = path.read_text(encoding="utf-8")
        assert "get_cog(" not in text, path
        for private in ("._connection", "._view_store", "._modals", "._state"):
            assert private not in text, (path, private)


def test_production_modules_are_small():
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines())
             for p in _sources("bot", "cogs", "renderers", "activity")}
    assert not {p: n for p, n in sizes.items() if n > 600}
    assert sizes[ROOT / "cogs" / "rummy.py"] < 400


def test_no_phase_or_status_compared_as_a_string_outside_the_engine():
    """``game.phase == "window"`` or ``row.status != "playing"`` hide a rules question or a stored
    word behind a literal; outside the engine they are compared with ``Phase`` and ``GameStatus``."""
    for path in _sources("bot", "cogs", "renderers", "activity"):
        if path.is_relative_to(ROOT / "bot" / "engine"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            named = any(isinstance(s, ast.Attribute) and s.attr in ("phase", "status") for s in sides)
            literal = any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides) or any(
                isinstance(s, (ast.Tuple, ast.List, ast.Set))
                and any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in s.elts)
                for s in sides
            )
            assert not (named and literal), f"{path}:{node.lineno}"


# ------------------------------------------------------------------ the Discord wing (issue 20)
WING = "cogs"  # every module that imports discord: commands, items, messages, announcer, delivery
WIRING = ("bot.client", "bot.__main__")  # the only modules outside the wing that know both sides


def _in_wing(module: str) -> bool:
    return module == WING or module.startswith(WING + ".")


def _external_imports(path: Path) -> set[str]:
    """The top-level names of every absolute import anywhere in ``path`` (``from discord.ext
    import commands``: ``discord``), in functions and under ``TYPE_CHECKING`` too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_nothing_outside_the_discord_wing_imports_discord():
    """Discord is known in one place: ``cogs/`` (the cogs, the announcer, the message layouts, the
    guard, the render pool, the delivery), and the client that runs it. The engine, the service,
    the store, the words and the renderers stay testable and reusable without discord.py."""
    outside = {name: path for name, (path, _) in modules_of(ROOT, PACKAGES).items()
               if not _in_wing(name) and name not in WIRING}
    bad = sorted(name for name, path in outside.items() if "discord" in _external_imports(path))
    assert not bad, f"modules outside the Discord wing that import discord: {bad}"


def test_outside_the_wing_only_the_client_and_main_import_cogs():
    graph = import_graph()
    bad = {m: sorted(t for t in targets if _in_wing(t)) for m, targets in graph.items()
           if not _in_wing(m) and m not in WIRING}
    assert not {m: t for m, t in bad.items() if t}, "modules outside the wing that import it"


def test_the_wing_imports_nothing_of_the_wiring():
    """The wing's imports point only down (service, engine, words, renderers): what it needs of
    the client reaches it through ``cogs.base.RummyClient``, never by importing the wiring."""
    graph = import_graph()
    bad = {m: sorted(t for t in targets if t in (*WIRING, "bot.config")) for m, targets in graph.items()
           if _in_wing(m)}
    assert not {m: t for m, t in bad.items() if t}


MOVE_NAMES = ("move", "line", "entry", "rest", "args", "last", "chosen", "knocks", "give")
SEPARATORS = (None, " ", " to ", ":", "|")  # how an RGN move's words, target and melds are separated


def _splits_a_move(node: ast.AST) -> bool:
    """``m.split()[0]``, ``move.split()``, ``line.partition(" ")``, ``args.rpartition(" to ")``: a
    move or record line taken apart by hand (the engine's ``Move.parse`` / ``parse_line`` do it)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr not in ("split", "partition", "rpartition"):
        return False
    separator = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
    if separator not in SEPARATORS:
        return False
    receiver = ast.unparse(node.func.value).lower()
    return any(name in receiver for name in MOVE_NAMES) or receiver in ("m", "mv")


def test_nothing_outside_the_engine_splits_a_move():
    """One vocabulary of moves: outside ``bot/engine`` a move is a ``Move`` (``Move.parse``,
    ``parse_line``, ``log_moves``), never words split apart by hand."""
    found = []
    for path in _sources("bot", "cogs", "renderers"):
        if path.is_relative_to(ROOT / "bot" / "engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _splits_a_move(node):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)


def test_the_reader_finds_split_moves():
    code = ("a = m.split()[0]\nb = move.partition(' ')\nc = args.rpartition(' to ')\nd = name.split(',')\n"
            "e = line.partition('=')\n")
    hits = [n for n in ast.walk(ast.parse(code)) if _splits_a_move(n)]
    assert sorted(ast.unparse(n) for n in hits) == ["args.rpartition(' to ')", "m.split()", "move.partition(' ')"]


def test_renderers_never_play_a_move():
    """Renderers draw the views they are given: they start no game and play no move (``play``,
    ``new_game``, ``next_deal``, ``deal_steps``); a replay's steps come from the engine through the
    service, and games played for pictures are ``scripts/played.py``'s."""
    for path in _sources("renderers"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                assert name not in ("play", "new_game", "deal_steps", "next_deal", "timeout"), (
                    f"{path.relative_to(ROOT)}:{node.lineno}")


def test_storage_imports_no_domain_module():
    """Issue 20: the store returns rows and keeps what it is given; standings, ratings and seasons
    are worked out above it. No module of ``bot/store`` imports the service, the engine, the
    robots, the words, the cogs or the renderers (``bot.store.rows`` holds the shapes it stores)."""
    domain = ("bot.service", "bot.engine", "bot.robot", "bot.words", "cogs", "renderers")
    graph = import_graph()
    bad = {m: sorted(t for t in targets if any(t == d or t.startswith(d + ".") for d in domain))
           for m, targets in graph.items() if m == "bot.store" or m.startswith("bot.store.")}
    assert not {m: t for m, t in bad.items() if t}, bad


def test_ops_imports_no_floor():
    """Issue 21: ``bot/ops`` (metrics, logs, the health server) is called by every floor like
    logging, so it imports none of them: no Discord, no store, no service, no engine."""
    graph = import_graph()
    bad = {m: sorted(t for t in targets if not (t == "bot.ops" or t.startswith("bot.ops.")))
           for m, targets in graph.items() if m == "bot.ops" or m.startswith("bot.ops.")}
    assert not {m: t for m, t in bad.items() if t}, bad
    assert not [m for m in graph if m.startswith("bot.ops") and "discord" in _external_imports(
        modules_of(ROOT, PACKAGES)[m][0])]


# ------------------------------------------------------------------ the third floor (issue 35)
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {ast.unparse(node)}"


def _names_of(node: ast.AST) -> str:
    """The last name of ``Move``, ``engine.Move`` or ``bot.engine.Move``; "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


# Where a player's typed ``/rummy play`` text is read: the one place outside the engine (which
# reads records) that may turn RGN text into a ``Move``; everything below it is handed a Move.
TYPED_EDGE = ("cogs/rummy.py", "activity/sockets.py")  # /rummy play; the Activity's move frames


def _parses_a_move(node: ast.AST) -> bool:
    """``Move.parse(text)``, or ``Move.parse`` kept aside to call later."""
    return isinstance(node, ast.Attribute) and node.attr == "parse" and _names_of(node.value) == "Move"


def test_moves_are_parsed_only_where_a_player_types_them():
    """Issue 35: a move travels as a ``Move`` from the edge where it was typed (or built from a
    button) down to the engine; the service, the robots, the renderers and the rest of the wing
    never read RGN text back into a move (a legal move is already a ``Move``)."""
    found = [_where(path, node) for path in _sources("cogs", "bot/service", "bot/robot", "renderers", "activity")
             if path.relative_to(ROOT).as_posix() not in TYPED_EDGE
             for node in ast.walk(_tree(path)) if _parses_a_move(node)]
    assert not found, "Move.parse outside the typed edge and the engine:\n" + "\n".join(found)


def _verbs() -> frozenset[str]:
    """Every RGN verb, read from ``bot/engine/move.py``'s ``Verb`` (its members' string values)."""
    tree = _tree(ROOT / "bot" / "engine" / "move.py")
    [verb] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Verb"]
    return frozenset(n.value.value for n in verb.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))


def _verb_text(node: ast.AST, verbs: frozenset[str]) -> bool:
    """``"pass"``, ``"meld 3H 4H 5H"``, ``f"knock {card}"``: a verb's name, or a move's text that
    begins with one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text, whole = node.value, True
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        text, whole = str(node.values[0].value), len(node.values) == 1
    else:
        return False
    return any((whole and text == v) or text.startswith(v + " ") for v in verbs)


def _tests_move_text(node: ast.AST, verbs: frozenset[str]) -> bool:
    """``"pass" in game.legal_moves(seat)``, ``f"knock {c}" not in legal``, ``m.startswith("meld")``,
    ``m.startswith(("layoff", "swap"))``: a rules question asked of moves' text."""
    if isinstance(node, ast.Compare):
        return any(isinstance(op, ast.In | ast.NotIn) for op in node.ops) and _verb_text(node.left, verbs)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        if node.func.attr not in ("startswith", "endswith", "removeprefix"):
            return False
        first = node.args[0]
        items = first.elts if isinstance(first, ast.Tuple | ast.List | ast.Set) else [first]
        return any(_verb_text(item, verbs) for item in items)
    return False


def test_nothing_outside_the_engine_tests_legal_moves_by_their_text():
    """Issue 35: whether a seat may pass, knock with a card or meld is the engine's answer (a
    ``Move``'s ``verb`` or an ``answers`` question), never a string looked up in the legal moves."""
    verbs = _verbs()
    found = [_where(path, node) for path in _sources("bot/service", "bot/robot", "cogs", "renderers", "activity")
             for node in ast.walk(_tree(path)) if _tests_move_text(node, verbs)]
    assert not found, "moves' text tested outside the engine:\n" + "\n".join(found)


def _checks_seat_or_version(node: ast.AST) -> bool:
    """``row.seat_of(user)``, ``state.version != row.version``, ``row.guild_id != place_key(i)``:
    whose seat it is, whether a button is out of date and whether the game is of this place are
    the service's checks, made under the game's lock."""
    if isinstance(node, ast.Attribute) and node.attr == "seat_of":
        return True
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    if any(isinstance(s, ast.Attribute) and s.attr == "version" for s in sides):
        return True
    place = any(isinstance(s, ast.Call) and _names_of(s.func) == "place_key" for s in sides)
    return place and any(isinstance(s, ast.Attribute) and s.attr == "guild_id" for s in sides)


def test_the_wing_checks_no_seat_and_no_version():
    """Issue 35: a cog hands the service who clicked, on what and at which version; the service
    says whether that seat may act, the button is current and the game belongs here."""
    found = [_where(path, node) for path in _sources("cogs")
             for node in ast.walk(_tree(path)) if _checks_seat_or_version(node)]
    assert not found, "seat or version checks in the wing:\n" + "\n".join(found)


def test_the_readers_find_verb_tests_and_the_wings_checks():
    verbs = _verbs()
    assert {"draw", "pass", "meld", "knock", "timeout"} <= verbs
    code = ("a = 'pass' in game.legal_moves(seat)\nb = f'knock {c}' not in legal\nc = m.startswith('meld')\n"
            "d = m.startswith(('layoff', 'swap'))\ne = 'x' in legal\nf = 'passed' in text\n"
            "g = f'{verb} 3H' in legal\nh = name.startswith('table_')\ni = 'meld' == kind\n")
    hits = [n for n in ast.walk(ast.parse(code)) if _tests_move_text(n, verbs)]
    assert sorted(ast.unparse(n) for n in hits) == [
        "'pass' in game.legal_moves(seat)", "f'knock {c}' not in legal", "m.startswith('meld')",
        "m.startswith(('layoff', 'swap'))"]
    code = ("a = row.seat_of(uid)\nb = state.version != row.version\nc = row.guild_id != place_key(i)\n"
            "d = interaction.guild_id is None\ne = int(v) != row.version\nf = row.version + 1\n"
            "g = Move.parse(text)\nh = engine.Move.parse\ni = parse_line(entry)\n")
    tree = ast.parse(code)
    assert sorted(ast.unparse(n) for n in ast.walk(tree) if _checks_seat_or_version(n)) == [
        "int(v) != row.version", "row.guild_id != place_key(i)", "row.seat_of", "state.version != row.version"]
    assert sorted(ast.unparse(n) for n in ast.walk(tree) if _parses_a_move(n)) == ["Move.parse", "engine.Move.parse"]


def test_the_words_import_no_service():
    """Issue 35: ``bot/words`` sits beside the service, not above it: what both need (the bot's
    own options' bounds) lives below them, in the engine's option metadata."""
    graph = import_graph()
    bad = {m: sorted(t for t in targets if t == "bot.service" or t.startswith("bot.service."))
           for m, targets in graph.items() if m == "bot.words" or m.startswith("bot.words.")}
    assert not {m: t for m, t in bad.items() if t}, bad


ENGINE_PLAYERS = ("load_game", "new_game", "Game")  # what loads, starts or holds a playable game


def _reaches_for_a_game(node: ast.AST) -> bool:
    """``from bot.engine import load_game``, ``engine.new_game(...)``, ``Game(...)`` or a ``Game``
    annotation, ``game.play(...)``: loading, starting, holding or playing a game."""
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("bot.engine") and any(a.name in ENGINE_PLAYERS for a in node.names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "play"
    return isinstance(node, ast.Name | ast.Attribute) and _names_of(node) in ENGINE_PLAYERS


def test_the_reader_finds_renderers_reaching_for_a_game():
    code = ("from bot.engine import load_game, Meld\nfrom bot.engine.views import SeatView\nimport bot.engine\n"
            "a = bot.engine.new_game('gin', seats)\nb = game.play('ana', move)\ndef f(g: Game): ...\n"
            "c = group_hand(view.hand)\nd = card_code(c)\n")
    hits = sorted({ast.unparse(n) for n in ast.walk(ast.parse(code)) if _reaches_for_a_game(n)})
    assert hits == ["Game", "bot.engine.new_game", "from bot.engine import load_game, Meld", "game.play('ana', move)"]


def test_renderers_take_their_views_from_sample_data_never_from_the_engine():
    """Issue 35: a renderer draws a view it is given. Its samples (the palette's sheet, the
    gallery's positions) are frozen views written as data in ``renderers/samples.py``; it may
    import the engine's view types and pure helpers (card codes, ``group_hand``), but never loads,
    starts, holds or plays a game."""
    found = [_where(path, node) for path in _sources("renderers")
             for node in ast.walk(_tree(path)) if _reaches_for_a_game(node)]
    assert not found, "renderers that reach for a game:\n" + "\n".join(found)


# ------------------------------------------------------------------ the Activity's wing (docs/activity.md)
ACTIVITY = "activity"  # the table as a web page: a peer of the chat's wing over the same service
ACTIVITY_MAY_IMPORT = ("activity", "bot.service", "bot.engine", "bot.words", "bot.ops")
ACTIVITY_EXTERNAL = frozenset({"aiohttp"})  # and the standard library


def _of(module: str, packages: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_activity_wing_imports_only_the_floors_below_it():
    """``activity/`` reaches the game through the service (and the engine's views and moves, the
    words, the ops' logs and metrics), never through the store, the chat's wing or the wiring; and
    Discord only over HTTP: no ``discord`` import, nothing outside the standard library but aiohttp."""
    graph = import_graph()
    bad = {m: sorted(t for t in targets if not _of(t, ACTIVITY_MAY_IMPORT)) for m, targets in graph.items()
           if _of(m, (ACTIVITY,))}
    assert not {m: t for m, t in bad.items() if t}, bad
    assert any(_of(m, (ACTIVITY,)) for m in graph), "the reader found no activity module"
    stdlib = set(sys.stdlib_module_names)
    for name, (path, _) in modules_of(ROOT, (ACTIVITY,)).items():
        outside = {n for n in _external_imports(path) if n not in stdlib and n not in PACKAGES}
        assert outside <= ACTIVITY_EXTERNAL, (name, sorted(outside - ACTIVITY_EXTERNAL))


def test_nothing_but_the_wiring_imports_the_activity():
    """Like the chat's wing, the Activity is started by the client alone."""
    graph = import_graph()
    bad = {m: sorted(t for t in targets if _of(t, (ACTIVITY,))) for m, targets in graph.items()
           if not _of(m, (ACTIVITY,)) and m not in WIRING}
    assert not {m: t for m, t in bad.items() if t}, bad


def test_every_activity_module_says_what_it_is_and_is_not():
    for path in _sources(ACTIVITY):
        doc = ast.get_docstring(_tree(path)) or ""
        assert "What it is" in doc and "What it is not" in doc, path.relative_to(ROOT)
