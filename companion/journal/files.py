"""The journal's files and who holds them: its identity, its lock, and the checks of its
files before SQLite opens them.

A journal is one file, not one path: a symlink or a hard link is another name for it. SQLite
keeps a journal's ``-wal`` and ``-shm`` beside the name it was opened by (after following
symlinks), so two names of one file are two journals to SQLite, and a lock or an output check
by path alone is bypassed through a link. Everything that must know "is this the journal"
(the lock, ``import --resume``, every output path, files that belong to one journal such as
the web pages' state) goes through ``journal_identity``: the real path (symlinks resolved)
and the file's device and inode. A repair or a restore puts a new file in the journal's
place: its inode changes, its real path does not.

One writer per journal: an OS lock (``flock``) on ``<journal>.lock`` beside its real path,
which names the process holding it. The OS drops the lock when that process ends however it
ends, so a lock file left by a dead process is simply taken over; one that cannot be opened
for writing (left by a run with sudo) is refused with one line, never skipped.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shlex
import sqlite3
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from companion.journal.api import JournalError
from companion.journal.db import DB_MAGIC, NotAJournal, check_identity, warn

SIDECARS = ("-wal", "-shm", "-journal")  # SQLite's files beside the journal


def sidecar(path: Path, suffix: str) -> Path:
    """The file named ``path`` plus ``suffix`` (``-wal``, ``-shm``, ``-journal``, ``.lock``)."""
    return path.with_name(path.name + suffix)


def _filled(path: Path) -> bool:
    """The file exists and holds something."""
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` with every symlink resolved (a missing file's folder resolved), absolute."""
    return Path(os.path.realpath(os.fspath(path)))


@dataclass(frozen=True)
class JournalIdentity:
    """The journal's real path and, when it exists, its device, inode and number of names."""

    path: Path
    device: int | None = None
    inode: int | None = None
    links: int = 0

    def own_files(self) -> list[Path]:
        """The journal and the files that belong to it: J, J-wal, J-shm, J-journal, J.lock."""
        return [self.path, *(sidecar(self.path, s) for s in SIDECARS), lock_path(self.path)]

    def own_file(self, target: str | os.PathLike[str]) -> Path | None:
        """Which of ``own_files`` ``target`` is (by any name), or None."""
        real = real_path(target)
        own = self.own_files()
        if real in own:
            return real
        try:
            info = os.stat(target)  # follows every link, /proc's too
        except OSError:
            return None
        return next((p for p in own if (info.st_dev, info.st_ino) == file_id(p)), None)


def journal_file(journal: str | os.PathLike[str], suffix: str) -> Path:
    """A file that belongs to this journal alone (the web pages' tokens and address), named
    after its real file: ``<real journal path>.<suffix>``. Two journals in one folder get
    two files; a symlink to the journal gets the same one."""
    real = real_path(journal)
    return real.with_name(f"{real.name}.{suffix}")


def journal_identity(path: str | os.PathLike[str]) -> JournalIdentity:
    """The journal named by ``path`` (symlinks followed): its real path and, if it exists,
    device, inode and hard-link count."""
    real = real_path(path)
    try:
        info = os.stat(real)
    except OSError:
        return JournalIdentity(real)
    return JournalIdentity(real, info.st_dev, info.st_ino, info.st_nlink)


def check_one_name(identity: JournalIdentity, given: str | os.PathLike[str]) -> None:
    """JournalError when the journal file has more than one hard link: SQLite keeps the WAL
    by name, so each name would be a journal of its own and moves made through one vanish
    from the other (and a lock by name cannot hold both)."""
    if identity.links > 1:
        raise JournalError(
            f"journal {os.fspath(given)} has {identity.links} hard links (another name for the "
            "same file): each name would get its own WAL and moves would be lost; remove the "
            f"extra names (find / -xdev -samefile {identity.path}) and use one"
        )


def lock_error(lock: Path, e: OSError) -> JournalError:
    """The one line for a lock file that cannot be opened for writing."""
    if e.errno in (errno.EACCES, errno.EPERM) and not os.path.lexists(lock):
        return JournalError(
            f"cannot take the journal's lock {lock}: no permission to create files in "
            f"{lock.parent}; give the folder to the user running binaryon"
        )
    if e.errno in (errno.EACCES, errno.EPERM):
        owner = ""
        try:
            import pwd

            owner = pwd.getpwuid(os.stat(lock).st_uid).pw_name
        except (OSError, KeyError, ImportError):
            pass
        whose = f" (it belongs to {owner}: a run with sudo?)" if owner else ""
        return JournalError(
            f"cannot take the journal's lock {lock}: permission denied{whose}; "
            f"give it to the user running binaryon (sudo chown USER {lock}) or remove it"
        )
    return JournalError(f"cannot take the journal's lock {lock}: {e.strerror or e}")


# --------------------------------------------------------------------------- the lock


MAX_ARGS = 200  # characters of the holder's command line kept (its line is read up to 300)
_HELD: set[Path] = set()  # lock files this process holds: its own journal is not "in use"


def lock_path(journal: str | os.PathLike[str]) -> Path:
    """The lock file of the journal named by ``journal`` (any name of it: symlinks resolved)."""
    real = real_path(journal)
    return sidecar(real, ".lock")


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
            _HELD.discard(real_path(self.path))
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
    _HELD.add(real_path(path))
    return JournalLock(path, fd)


def holder(journal: str | os.PathLike[str]) -> str | None:
    """Who holds the journal's lock (one line), or None when nobody does or this process
    does (the daemon opening its own journal). Never writes."""
    path = lock_path(journal)
    if real_path(path) in _HELD:
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


# --------------------------------------------------------------------------- the files


def file_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path`` now, or None when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def check_journal_path(path: str | os.PathLike[str]) -> Path:
    """The path as a Path; JournalError (one line) for one that cannot name a journal file:
    empty, '.', '/', a folder."""
    text = os.fspath(path)
    p = Path(text)
    if not text.strip() or p.name in ("", ".", ".."):
        raise JournalError(f"{text!r} is not a journal file name")
    if p.is_dir():
        raise JournalError(f"{text} is a folder, not a journal file")
    try:
        mode = p.stat().st_mode
    except OSError:
        return p  # missing (or not to be looked at): the open says so
    if not stat.S_ISREG(mode):  # a FIFO would hang the open, a device is no journal
        raise JournalError(f"{text} is not a regular file, so not a journal")
    return p


def refuse_foreign(path: Path) -> None:
    """NotAJournal for a non-empty file without the SQLite header (a text file given as the
    journal): it is left exactly as it is."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(DB_MAGIC))
    except FileNotFoundError:
        return
    except OSError as e:
        raise JournalError(f"cannot read journal {path}: {e.strerror or e}") from None
    if head and head != DB_MAGIC:
        raise NotAJournal(f"{path} is not an SQLite journal (no SQLite header); left untouched")


def roll_back_hot_journal(path: Path) -> None:
    """A stop in the middle of a rollback-mode write (the switch back to WAL mode at open,
    the clean-stop mark at close) leaves a hot ``-journal``: SQLite's own recovery undoes
    that write; let it, before the file is judged."""
    if not _filled(sidecar(path, "-journal")):
        return
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            db.close()


def open_immutable(path: Path) -> sqlite3.Connection:
    """The main file alone, read as it is (no WAL, no locks, nothing written)."""

    uri = f"file:{quote(str(path.absolute()))}?immutable=1"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


def closed_cleanly(path: Path) -> bool:
    """The last writer stopped cleanly: no WAL left, the main file whole (its header's page
    count fits the file) and marked clean. O(1) in the journal's size."""
    if _filled(sidecar(path, "-wal")) or _filled(sidecar(path, "-journal")):
        return False  # a WAL, or a write in rollback mode that did not finish
    try:
        size = path.stat().st_size
    except OSError:
        return False
    head = _head(path)
    if size == 0 or head is None:
        return size == 0
    if head[24:28] == head[92:96] and pages_missing(head, size):
        return False  # cut short (the header's page count is valid: its version matches)
    return clean_mark(path, identify=True) == "1"


def sidecars_as_found(path: Path) -> tuple[bool, bool, bytes | None]:
    """(WAL exists, -shm exists, the -shm index header), read before SQLite opens anything
    (a connection rebuilds the index and may create an empty WAL)."""
    try:
        with open(sidecar(path, "-shm"), "rb") as f:
            head: bytes | None = f.read(136)
    except OSError:
        head = None
    return sidecar(path, "-wal").exists(), sidecar(path, "-shm").exists(), head


def _head(path: Path) -> bytes | None:
    """The main file's SQLite header (100 bytes), or None: unreadable, short or not SQLite."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return None
    return head if len(head) == 100 and head.startswith(DB_MAGIC) else None


def db_page_size(head: bytes) -> int:
    """The page size a database image's header gives; 0 without a header."""
    if len(head) < 100 or not head.startswith(DB_MAGIC):
        return 0
    size = int.from_bytes(head[16:18], "big")
    return 65536 if size == 1 else size


def pages_missing(head: bytes, size: int) -> int:
    """The pages the header promises that a file of ``size`` bytes lacks (0: no header)."""
    page = db_page_size(head)
    return max(0, int.from_bytes(head[28:32], "big") - size // page) if page else 0


def header_mode(path: Path) -> int | None:
    """The journal mode the main file's header records: 1 rollback, 2 WAL; None unknown."""
    head = _head(path)
    return head[18] if head and head[18] == head[19] and head[18] in (1, 2) else None


def stale_wal(path: Path) -> bool:
    """A ``-wal`` beside a main file in rollback mode: it cannot belong to that file. SQLite
    writes the WAL-mode mark into the header before the first WAL frame and removes the WAL
    before it writes the rollback mark back, so such a WAL comes from another file (a
    backup restored over a crashed journal whose WAL was left beside it). SQLite would
    still apply it over the restored file; the journal never lets it."""
    return _filled(sidecar(path, "-wal")) and header_mode(path) == 1


def stale_line(path: Path) -> str:
    return (
        f"journal {path}: its WAL ({path.name}-wal) does not belong to it (a backup restored "
        "over a journal that had crashed?); it is not applied"
    )


def clean_mark(path: Path, identify: bool = False) -> str | None:
    """The journal's clean mark ("1": closed cleanly, "0": open), None when it cannot be read;
    ``identify`` first refuses another program's database (NotAJournal), seen without
    touching it (a damaged file is left to the deep check)."""
    try:
        db = open_immutable(path)
        try:
            if identify:
                check_identity(db, path)
            row = db.execute("SELECT value FROM meta WHERE key = 'clean'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return None if row is None else row[0]


def read_only_place(path: Path) -> str | None:
    """Why the journal cannot be written (a read-only file system, no write permission on
    it or its folder), or None."""
    for p in (path.parent, path):
        try:
            if os.statvfs(p).f_flag & os.ST_RDONLY:
                return "read-only file system"
        except OSError:
            continue
        if os.access(p, os.F_OK) and not os.access(p, os.W_OK):
            return f"no write permission on {p}"
    return None


def has_data(path: Path) -> bool:
    return _filled(path) or _filled(sidecar(path, "-wal"))


def snapshot(path: Path) -> dict[str, bytes]:
    """The journal's bytes as found (main file and WAL), before sqlite touches them, so a
    damaged file can be kept exactly as it was."""
    found = {key: _bytes(sidecar(path, key)) for key in ("", "-wal")}
    return {key: data for key, data in found.items() if data is not None}


def wal_bytes(path: Path) -> bytes | None:
    return _bytes(sidecar(path, "-wal"))


def header(path: Path) -> bytes:
    return _bytes(path, 100) or b""


def _bytes(path: Path, size: int = -1) -> bytes | None:
    """The file's bytes (the first ``size``), None when it is missing; JournalError (one line)
    when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise JournalError(f"cannot read journal {path}: {e.strerror or e}") from None


def write_durably(path: Path, data: bytes) -> None:
    """Write a new file and sync it; on failure (a full disk) nothing is left behind."""
    try:
        with open(path, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            if path.exists():
                path.unlink()
        raise


def copy_name(
    path: Path, label: str, clock: Callable[[], float], suffixes: tuple[str, ...] = ("",)
) -> Path:
    """``<name>.<label>-<UTC time>`` beside the journal (``-2``, ``-3``... when taken), so
    that no file with one of ``suffixes`` added exists yet."""
    stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
    base, n = path.with_name(f"{path.name}.{label}-{stamp}"), 1
    while any(sidecar(base, k).exists() for k in suffixes):
        n += 1
        base = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    return base


def keep_copies(
    path: Path, files: dict[str, Path], clock: Callable[[], float], label: str = "corrupt"
) -> list[Path]:
    """Copy ``files`` (suffix -> file; missing ones skipped) to ``<name>.<label>-<time>`` +
    suffix, durably, streaming; the copies made (a failure is logged, not raised)."""
    base = copy_name(path, label, clock, ("", *files))
    copies = []
    for key, src in files.items():
        target = sidecar(base, key)
        try:
            import shutil

            with open(src, "rb") as f, open(target, "xb") as out:
                shutil.copyfileobj(f, out, 1 << 20)
                out.flush()
                os.fsync(out.fileno())
            copies.append(target)
        except FileNotFoundError:
            continue
        except OSError as e:
            with contextlib.suppress(OSError):
                target.unlink()
            warn("journal %s: no copy of %s kept: %s", path, src, e.strerror or e)
    fsync_dir(path.parent)
    return copies


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
