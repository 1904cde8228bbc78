"""The package's layers, read from the source: games are named only in companion/games/,
core/ imports nothing above it, the product never imports the test aids (companion/testing/),
and the tests go through public names (no ``obj._private`` but their own ``self``'s); in
companion/club/ no modules import each other and none imports another's private name.

Each check is a function of a source tree, run on the checkout and on a tree with a violation
planted, so a check that could never fail is caught too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion import PROGRAM
from companion.games import _REGISTRY

ROOT = Path(__file__).resolve().parent.parent


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


def club_imports(root: Path) -> dict[str, set[str]]:
    """Each module of companion/club/ -> the modules of companion/club/ it imports (at any
    depth of its code, type-checking imports too), by dotted name."""
    found = [(rel, tree) for rel, tree in modules(root) if rel.startswith("companion/club/")]
    names = {rel.removesuffix(".py").removesuffix("/__init__").replace("/", "."): tree
             for rel, tree in found}  # fmt: skip
    graph: dict[str, set[str]] = {name: set() for name in names}
    for name, tree in names.items():
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            graph[name] |= {t for t in targets if t in names}
    return graph


def club_import_circles(root: Path) -> list[str]:
    """Modules of companion/club/ that import each other, through any number of others."""
    graph = club_imports(root)

    def reach(start: str) -> set[str]:
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])
        return seen

    path = {name: name.replace(".", "/") + ".py" for name in graph}
    for rel, _tree in modules(root):
        if rel.endswith("/__init__.py"):
            path[rel.removesuffix("/__init__.py").replace("/", ".")] = rel
    return sorted(f"{path[name]}: imports itself through {sorted(reach(name) & set(graph))}"
                  for name in graph if name in reach(name))  # fmt: skip


def club_private_imports(root: Path) -> list[str]:
    """``from companion.X import _name`` in companion/club/: another module's insides."""
    found = []
    for rel, tree in modules(root):
        if not rel.startswith("companion/club/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("companion"):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{rel}:{node.lineno}: {node.module}.{alias.name}")
    return found


CHECKS = {
    "strings naming a game": strings_naming_a_game,
    "modules named after a game": modules_named_after_a_game,
    "core importing above it": core_imports_above,
    "views importing above them": views_importing_above,
    "product importing test aids": product_imports_of_test_aids,
    "tests reading privates": private_reads_in_tests,
    "import circles in club": club_import_circles,
    "club importing privates": club_private_imports,
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
    "import circles in club": (  # a module that needs itself: a circle of one
        "companion/club/x.py",
        "import typing\n\nif typing.TYPE_CHECKING:\n    from companion.club.x import X\n",
    ),
    "club importing privates": ("companion/club/x.py", "from companion.club.topics import _x\n"),
}


@pytest.mark.parametrize("check", CHECKS)
def test_each_check_finds_a_planted_violation(tmp_path, check):
    rel, text = PLANTED[check]
    (tmp_path / "companion/games/binaryon").mkdir(parents=True)
    (tmp_path / "companion/__init__.py").write_text('PROGRAM = "binaryon"\n')
    # allowed: the game's own folder, the program's name, core importing core
    (tmp_path / "companion/games/binaryon/spec.py").write_text('NAME = "binaryon"\n')
    (tmp_path / "companion/core").mkdir()
    (tmp_path / "companion/core/y.py").write_text("from companion.core import squares\n")
    (tmp_path / "tests").mkdir()  # a test's own attributes, a library's hook, os._exit
    (tmp_path / "tests/test_y.py").write_text(
        "class Pin(MockPin):\n    def _set(self, v):\n        super()._set(v)\n"
        "        self._v = v\n\n\ndef test_y(board):\n    board.__class__\n    os._exit(0)\n"
    )
    assert CHECKS[check](tmp_path) == []
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_text(text)
    found = CHECKS[check](tmp_path)
    assert found and all(line.startswith(rel) for line in found)
