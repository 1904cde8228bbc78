"""Binaryon companion: referee, scorer and journal for games played on an 8x8 sensor board.

Importing this package must stay cheap and must never touch Pi-only modules (RPi.GPIO, lgpio):
hardware drivers are imported lazily by the code that chooses them.
"""

# The program's name: its command, its logger, its service, user and folders. Binaryon is also
# the name of a game (``companion.games.DEFAULT_GAME``); this names the program, not the game.
PROGRAM = "binaryon"


# The version, written here only: pyproject.toml reads it (``[tool.setuptools.dynamic]``), so the
# commands print it without asking the package metadata (importlib.metadata costs more than the
# whole of ``binaryon --version`` should).
VERSION = "0.1.0"


def package_version() -> str:
    """The program's version (``VERSION``)."""
    return VERSION


def __getattr__(name: str) -> str:
    """``companion.__version__``, the usual spelling, for tools that look for it."""
    if name == "__version__":
        return VERSION
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
