"""Reading what a user gives as input: a file, or standard input for ``-``."""

from __future__ import annotations

import os
import stat
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


def read_text(
    path: str | os.PathLike[str],
    limit: int,
    what: str,
    too_big: str,
    error: type[ValueError] = ValueError,
) -> str:
    """The UTF-8 text (a byte-order mark dropped) of ``path`` (``-``: standard input), at most
    ``limit`` bytes; ``error`` with a one-line reason naming ``what`` it should have been
    (``too_big``: what is said of a longer one)."""
    name = "stdin" if str(path) == "-" else str(path)
    try:
        raw = read_limited(path, limit)
    except IsADirectoryError:
        raise error(f"{name}: is a folder, not {what}") from None
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(f"{name}: {too_big}: not {what}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{name}: not a text file (not UTF-8)") from None


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path``. Anything else (a device such
    as ``/dev/zero``, a FIFO, a socket, a folder) raises OSError before a byte is read: the
    open does not block on a FIFO, so nothing can hang or grow without bound."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise OSError(f"{kind}")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
