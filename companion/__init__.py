"""Binaryon companion: referee, scorer and journal for games played on an 8x8 sensor board.

Importing this package must stay cheap and must never touch Pi-only modules (RPi.GPIO, lgpio):
hardware drivers are imported lazily by the code that chooses them.
"""


def __getattr__(name: str) -> str:
    """``companion.__version__``, read from the installed package's metadata on first use (the
    version is written once, in pyproject.toml; reading it costs more than the import)."""
    if name == "__version__":
        from companion.cli.main import package_version

        return package_version()
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
