"""Reading what a user gives as input: a file, or standard input for ``-``."""

from __future__ import annotations

import os
import sys


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (``-``: standard input), so a caller can tell a
    file over its limit, and ``/dev/zero`` ends. Raises OSError (IsADirectoryError too)."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            return stream.read(limit + 1)
        return sys.stdin.read(limit + 1).encode("utf-8", "surrogatepass")  # a text stand-in
    with open(path, "rb") as fh:
        return fh.read(limit + 1)
