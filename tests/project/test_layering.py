"""The package's layers, read from the source: the layer order of docs/architecture.md, no
import circle (between modules or between packages), no import of another module's private
name, games are named only in companion/games/, core/ imports nothing above it, the product
never imports the test aids (companion/testing/), and the tests go through public names (no
``obj._private`` but their own ``self``'s).

Each check is a function of a source tree, run on the checkout and on a tree with a violation
planted, so a check that could never fail is caught too."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

from companion import PROGRAM
from companion.games import _REGISTRY
from tests.paths import REPO

ROOT = REPO


def game_words() -> set[str]:
    """The built-in games' names and their module forms (latent-binaries, latent_binaries)."""
    names = {name for name, module in _REGISTRY.items() if module.startswith("companion.games.")}
    return names | {name.replace("-", "_") for name in names}


def modules(root: Path) -> list[tuple[str, ast.Module]]:
    """(path from root, syntax tree) of every module of the package under ``root``."""
    out = []
    for path in sorted((root / "companion").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        out.append((rel, ast.parse(path.read_text(encoding="utf-8"), rel)))
    return out


def in_games(rel: str) -> bool:
    return rel.startswith("companion/games/")


def is_program_constant(rel: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """``PROGRAM = "binaryon"`` in companion/__init__.py: the program's name, not the game's."""
    parent = parents.get(node)
    return (
        rel == "companion/__init__.py"
        and isinstance(parent, ast.Assign)
        and [getattr(t, "id", None) for t in parent.targets] == ["PROGRAM"]
    )


def strings_naming_a_game(root: Path) -> list[str]:
    words = game_words()
    found = []
    for rel, tree in modules(root):
        if in_games(rel):
            continue
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in words
                and not is_program_constant(rel, node, parents)
            ):
                found.append(f"{rel}:{node.lineno}: {node.value!r}")
    return found


def modules_named_after_a_game(root: Path) -> list[str]:
    words = game_words()
    return [
        rel
        for rel, _ in modules(root)
        if not in_games(rel)
        and any(part.removesuffix(".py") in words for part in rel.split("/")[1:])
    ]


def imported(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import, at the top or inside a function (lazy ones too)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def core_imports_above(root: Path) -> list[str]:
    """core/ may import the standard library, its own modules and the package root (PROGRAM)."""
    found = []
    for rel, tree in modules(root):
        if not rel.startswith("companion/core/"):
            continue
        for line, name in imported(tree):
            top = name.split(".")
            if top[0] == "companion" and len(top) > 1 and top[1] not in ("core", "PROGRAM"):
                found.append(f"{rel}:{line}: {name}")
    return found


# what a view (views/, voice/) may not import: the layers above it and club/ beside service/
ABOVE_VIEWS = ("service", "cli", "club")


def views_importing_above(root: Path) -> list[str]:
    """views/ and voice/ (the voice is a view) import neither the service, the commands nor
    club night: the daemon feeds them."""
    found = []
    for rel, tree in modules(root):
        if not rel.startswith(("companion/views/", "companion/voice/")):
            continue
        for line, name in imported(tree):
            top = name.split(".")
            if top[0] == "companion" and len(top) > 1 and top[1] in ABOVE_VIEWS:
                found.append(f"{rel}:{line}: {name}")
    return found


def product_imports_of_test_aids(root: Path) -> list[str]:
    found = []
    for rel, tree in modules(root):
        if rel.startswith("companion/testing/"):
            continue
        for line, name in imported(tree):
            if name == "companion.testing" or name.startswith("companion.testing."):
                found.append(f"{rel}:{line}: {name}")
    return found


# Private names of the standard library that tests may call: there is no public way to do it.
STDLIB_PRIVATES = {("os", "_exit"), ("sys", "_getframe")}


def is_own(node: ast.expr) -> bool:
    """``self``, ``cls`` or ``super()``: a class's own attributes (a test's subclass of a
    library's class may override its hooks)."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def private_reads_in_tests(root: Path) -> list[str]:
    """``x._name`` in tests/ (not a dunder, x not the class's own): a test reaching past an
    object's public names, which breaks when its insides are rewritten."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), rel)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not is_own(node.value)
                and (getattr(node.value, "id", None), node.attr) not in STDLIB_PRIVATES
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


# ------------------------------------------------------------- the import graph
# The layers of docs/architecture.md, lowest first: a module imports from its own layer and
# the ones below it. The package's root (PROGRAM) and firmware_location.py sit with core/;
# companion/testing/ (test aids) may import anything and nothing in the product imports it.
LAYERS = (
    ("core",),
    ("games", "hardware"),
    ("journal", "records", "timing", "engines", "sensing"),
    ("referee",),
    ("views", "voice"),
    ("service", "club"),
    ("cli",),
)
RANK = {folder: rank for rank, layer in enumerate(LAYERS) for folder in layer}
# beside each other in one layer, but one may not import the other: club/ imports no service
APART = {("club", "service")}

# Known knots still to untie, each with why (empty: none).
ALLOWED = {
    "order": set(),
    "package circles": set(),
    "module circles": set(),
    "private imports": set(),  # path prefixes
}


def is_type_checking(node: ast.If) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``"""
    test = node.test
    return "TYPE_CHECKING" in (getattr(test, "id", ""), getattr(test, "attr", ""))


def every_import(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import, a type checker's too: a circle closed only by a type-checking import is
    still two modules that each need the other to be read."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def run_time_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import that runs (at the top or inside a function), not those under
    ``if TYPE_CHECKING:``, which only type checkers read."""
    out: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and is_type_checking(child):
            for other in child.orelse:
                out += run_time_imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            out.append(child)
        out += run_time_imports(child)
    return out


def module_names(root: Path) -> dict[str, tuple[str, bool]]:
    """Dotted module name -> (path from root, is a package) for every module of the package."""
    out = {}
    for path in sorted((root / "companion").rglob("*.py")):
        rel = path.relative_to(root)
        parts = list(rel.with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (rel.as_posix(), package)
    return out


class Edge(NamedTuple):
    source: str  # dotted module name
    target: str  # the module imported (a package's __init__ when the name is not a module)
    line: int
    name: str  # the name imported from it ('' for a whole module)


def import_edges(root: Path, typing: bool = False) -> list[Edge]:
    """Every run-time import (with ``typing``, a type checker's too) of one of the package's
    modules by another, relative ones resolved: ``from companion.games import base`` is the
    module games.base."""
    names = module_names(root)
    edges = []
    for module, (rel, package) in names.items():
        here = module if package else module.rpartition(".")[0]
        tree = ast.parse((root / rel).read_text(encoding="utf-8"), rel)
        for node in every_import(tree) if typing else run_time_imports(tree):
            if isinstance(node, ast.Import):
                edges += [Edge(module, a.name, node.lineno, "") for a in node.names]
                continue
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in names:
                    edges.append(Edge(module, sub, node.lineno, ""))
                else:
                    edges.append(Edge(module, target, node.lineno, alias.name))
    return [e for e in edges if e.target in names and e.target != e.source]


def layer_of(module: str) -> str:
    """The folder under companion/ (``core`` for the package's root and its own modules)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in RANK) else "core"


def imports_against_the_order(root: Path) -> list[str]:
    names = module_names(root)
    found = []
    for e in import_edges(root):
        a, b = layer_of(e.source), layer_of(e.target)
        if a == "testing" or a not in RANK or b not in RANK:
            continue
        rel = names[e.source][0]
        if (RANK[b] > RANK[a] or (a, b) in APART) and (rel, e.target) not in ALLOWED["order"]:
            found.append(f"{rel}:{e.line}: {e.target} ({a} -> {b})")
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                out.append(sorted([v, *component]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def module_circles(root: Path) -> list[str]:
    names = module_names(root)
    graph: dict[str, set[str]] = {}
    for e in import_edges(root, typing=True):
        graph.setdefault(e.source, set()).add(e.target)
    return [
        " <-> ".join(names[m][0] for m in c)
        for c in circles(graph)
        if frozenset(c) not in ALLOWED["module circles"]
    ]


def package_circles(root: Path) -> list[str]:
    """Circles between folders (an import from a folder's module into another folder's, a
    subfolder's imports of its parent's modules apart)."""
    names = module_names(root)

    def folder(module: str) -> str:
        return module if names[module][1] else module.rpartition(".")[0]

    graph: dict[str, set[str]] = {}
    for e in import_edges(root, typing=True):
        a, b = folder(e.source), folder(e.target)
        if a != b and not a.startswith(b + ".") and not b.startswith(a + "."):
            graph.setdefault(a, set()).add(b)
    return [
        " <-> ".join(c.replace(".", "/") for c in circle)
        for circle in circles(graph)
        if frozenset(circle) not in ALLOWED["package circles"]
    ]


def private_imports(root: Path) -> list[str]:
    """``from module import _name`` of another module's private name (a dunder is public)."""
    names = module_names(root)
    found = []
    for e in import_edges(root):
        rel = names[e.source][0]
        private = e.name.startswith("_") and not e.name.startswith("__")
        if private and not rel.startswith(tuple(ALLOWED["private imports"])):
            found.append(f"{rel}:{e.line}: {e.target}.{e.name}")
    return found


CHECKS = {
    "strings naming a game": strings_naming_a_game,
    "modules named after a game": modules_named_after_a_game,
    "core importing above it": core_imports_above,
    "views importing above them": views_importing_above,
    "product importing test aids": product_imports_of_test_aids,
    "tests reading privates": private_reads_in_tests,
    "imports against the layer order": imports_against_the_order,
    "module import circles": module_circles,
    "package import circles": package_circles,
    "imports of private names": private_imports,
}


@pytest.mark.parametrize("check", CHECKS)
def test_the_checkout_keeps_its_layers(check):
    assert CHECKS[check](ROOT) == []


def test_the_program_is_named_apart_from_the_game():
    from companion.games import DEFAULT_GAME

    assert PROGRAM == "binaryon" and DEFAULT_GAME in _REGISTRY


PLANTED = {
    "strings naming a game": ("companion/views/x.py", 'GAME = "latent_binaries"\n'),
    "modules named after a game": ("companion/views/wythe/__init__.py", ""),
    "core importing above it": ("companion/core/x.py", "def f():\n    import companion.games\n"),
    "views importing above them": (
        "companion/voice/x.py",
        "def f():\n    from companion.service import daemon\n",
    ),
    "product importing test aids": (
        "companion/service/x.py",
        "from companion.testing.fake_gpio import FakeGpio\n",
    ),
    "tests reading privates": ("tests/test_x.py", "def test_x(board):\n    board._thread\n"),
    "imports against the layer order": (
        "companion/games/x.py",
        "def f():\n    from companion.referee import session\n",
    ),
    # closes a circle with companion/core/y.py, which imports squares (a lazy import counts)
    "module import circles": ("companion/core/squares.py", "def f():\n    from . import y\n"),
    # hardware/ imports core/, which would then import hardware/
    "package import circles": (
        "companion/core/squares.py",
        "def f():\n    from companion.hardware import z\n",
        "companion/core <-> companion/hardware",
    ),
    "imports of private names": ("companion/games/x.py", "from companion.core.y import _f\n"),
}


@pytest.mark.parametrize("check", CHECKS)
def test_each_check_finds_a_planted_violation(tmp_path, check):
    rel, text, *said = PLANTED[check]
    (tmp_path / "companion/games/binaryon").mkdir(parents=True)
    (tmp_path / "companion/__init__.py").write_text('PROGRAM = "binaryon"\n')
    # allowed: the game's own folder, the program's name, core importing core
    (tmp_path / "companion/games/binaryon/spec.py").write_text('NAME = "binaryon"\n')
    (tmp_path / "companion/core").mkdir()
    (tmp_path / "companion/core/y.py").write_text("from companion.core import squares\n")
    # a layer importing below it and a type checker's import against the order: allowed
    (tmp_path / "companion/hardware").mkdir()
    (tmp_path / "companion/hardware/z.py").write_text(
        "from typing import TYPE_CHECKING\n\nfrom companion.core import y\n\n"
        "if TYPE_CHECKING:\n    from companion.referee import session\n"
    )
    (tmp_path / "companion/referee").mkdir()
    (tmp_path / "companion/referee/session.py").write_text("from companion.games import x\n")
    (tmp_path / "tests").mkdir()  # a test's own attributes, a library's hook, os._exit
    (tmp_path / "tests/test_y.py").write_text(
        "class Pin(MockPin):\n    def _set(self, v):\n        super()._set(v)\n"
        "        self._v = v\n\n\ndef test_y(board):\n    board.__class__\n    os._exit(0)\n"
    )
    assert CHECKS[check](tmp_path) == []
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_text(text)
    found = CHECKS[check](tmp_path)
    assert found and all((said or [rel])[0] in line for line in found)
