"""One writer per journal: an OS lock (``flock``) on ``<journal>.lock`` beside it, which
names the process holding it. The OS drops the lock when that process ends however it
ends, so a lock file left by a dead process is simply taken over.

The lock belongs to the journal's real file (companion.journal.identity): it sits beside the
path with every symlink resolved, so a symlink to the journal finds the same lock (a hard
link is refused where the journal is opened). A lock file that cannot be opened for writing
(left by a run with sudo) is refused with one line, never skipped."""

from __future__ import annotations

import errno
import fcntl
import os
import shlex
import sys
import time
from pathlib import Path

from companion.journal.api import JournalError
from companion.journal.identity import lock_error, lock_file, real_path

MAX_ARGS = 200  # characters of the holder's command line kept (its line is read up to 300)
_HELD: set[Path] = set()  # lock files this process holds: its own journal is not "in use"


def lock_path(journal: str | os.PathLike[str]) -> Path:
    """The lock file of the journal named by ``journal`` (any name of it: symlinks resolved)."""
    return lock_file(real_path(journal))


def _key(path: Path) -> Path:
    return real_path(path)


class JournalLock:
    """Held until ``release`` (or the process ends)."""

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            _HELD.discard(_key(self.path))
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> JournalLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _describe_self() -> str:
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    args = shlex.join(sys.argv[1:])  # the whole command line: which companion holds it
    if len(args) > MAX_ARGS:
        args = args[: MAX_ARGS - 3] + "..."
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    return f"process {os.getpid()} ({name} {args}".rstrip() + f") since {stamp} UTC"


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 300, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text.splitlines()[0] if text else "another process"


def acquire_lock(journal: str | os.PathLike[str]) -> JournalLock:
    """Take the journal's lock for this process (the daemon calls this at start). JournalError
    with one line naming the holder when another process has it, or when the lock file cannot
    be opened for writing (no permission: left by a run with sudo). Only on a read-only file
    system, where the journal cannot be written either, a lock that holds nothing is
    returned."""
    path = lock_path(journal)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o664)
    except OSError as e:
        if e.errno == errno.EROFS:
            return JournalLock(path, None)
        raise lock_error(path, e) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        who = _read_holder(fd)
        os.close(fd)
        raise JournalError(f"journal {Path(journal)} is in use by {who}") from None
    except OSError:  # a file system without locks: go on unlocked
        os.close(fd)
        return JournalLock(path, None)
    try:
        data = (_describe_self() + "\n").encode()
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
    except OSError:
        pass  # the lock holds; only the name of its holder is missing
    _HELD.add(_key(path))
    return JournalLock(path, fd)


def holder(journal: str | os.PathLike[str]) -> str | None:
    """Who holds the journal's lock (one line), or None when nobody does or this process
    does (the daemon opening its own journal). Never writes."""
    path = lock_path(journal)
    if _key(path) in _HELD:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd)
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
