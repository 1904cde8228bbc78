"""Binaryon companion: referee, scorer and journal for games played on an 8x8 sensor board.

Importing this package must stay cheap and must never touch Pi-only modules (RPi.GPIO, lgpio):
hardware drivers are imported lazily by the code that chooses them.
"""

# The program's name: its command, its logger, its service, user and folders. Binaryon is also
# the name of a game (``companion.games.DEFAULT_GAME``); this names the program, not the game.
PROGRAM = "binaryon"


def package_version() -> str:
    """The installed version, from the package metadata (it is written once, in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("binaryon-companion")
    except PackageNotFoundError:  # a checkout run without being installed
        return "unknown (not installed)"


def __getattr__(name: str) -> str:
    """``companion.__version__`` on first use: reading the metadata costs more than the import."""
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
