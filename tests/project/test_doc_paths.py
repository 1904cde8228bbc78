"""Every file path README.md and docs/*.md name exists in the checkout, so the docs cannot go
on citing a module that moved or a file that was never there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import REPO

ROOT = REPO
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# The package's own folders: docs/architecture.md names its modules from companion/
# (``service/daemon.py``, ``hardware/serial_board.py``).
PACKAGE_DIRS = sorted(
    p.name for p in (ROOT / "companion").iterdir() if p.is_dir() and p.name[0] != "_"
)
TOP_DIRS = ["companion", "docs", "tests", "benchmarks", "firmware", "hardware", "systemd"]
PATH = re.compile(
    r"(?<![\w/.~-])((?:" + "|".join(sorted({*TOP_DIRS, *PACKAGE_DIRS})) + r")/[\w./<>*-]*[\w*>/])"
)
# Named in the docs but made by the build, not kept in the checkout.
BUILT = {"companion/firmware": "the wheel's copy of firmware/ (setup.py's build step)"}


def missing(text: str, root: Path = ROOT) -> list[str]:
    """The paths in ``text`` that exist neither from the checkout's root nor from companion/.
    ``<game>`` and ``*`` are wildcards (``tests/games/<game>/test_*.py``): one match is enough."""
    out = []
    for match in PATH.finditer(text):
        path = match.group(1).rstrip("/.")
        if path in BUILT or re.fullmatch(r"\w+/\w", path):  # a rate: games/s
            continue
        pattern = re.sub(r"<[^>]+>", "*", path)
        if not any(any(base.glob(pattern)) for base in (root, root / "companion")):
            out.append(path)
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_doc_names_exists(doc):
    assert missing(doc.read_text(encoding="utf-8")) == []


def test_a_doc_naming_a_file_that_is_not_there_is_caught():
    text = (
        "See `companion/games/base.py`, `service/daemon.py`, `tests/games/<game>/test_*.py` and "
        "`hardware/README.md`; but `companion/testing/mock_board.py` and "
        "`docs/rules/<game>.txt` and shared/rules/binary.md are not there (1,000 games/s)."
    )
    assert missing(text) == ["companion/testing/mock_board.py", "docs/rules/<game>.txt"]
