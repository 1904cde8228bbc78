"""A journal is one file, not one path: a symlink or a hard link is another name for it.

SQLite keeps a journal's ``-wal`` and ``-shm`` beside the name it was opened by (after
following symlinks), so two names of one file are two journals to SQLite, and a lock or an
output check by path alone is bypassed through a link. Everything that must know "is this the
journal" (the lock, ``import --resume``, every output path, files that belong to one journal
such as the web pages' state) goes through ``journal_identity``: the real path (symlinks
resolved) and the file's device and inode.

A repair or a restore puts a new file in the journal's place: its inode changes, its real
path does not. So ``JournalIdentity.path`` names the journal for files kept beside it, and
``same_file`` tells whether two names are one file now.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from companion.journal.api import JournalError

SIDECARS = ("-wal", "-shm", "-journal")  # SQLite's files beside the journal
LOCK_SUFFIX = ".lock"


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

    @property
    def exists(self) -> bool:
        return self.inode is not None

    @property
    def key(self) -> str:
        """A short stable name for this journal among others on the machine: its real path
        (unchanged by a repair or restore, unlike the inode)."""
        return str(self.path)

    def own_files(self) -> list[Path]:
        """The journal and the files that belong to it: J, J-wal, J-shm, J-journal, J.lock."""
        p = self.path
        return [p, *(p.with_name(p.name + s) for s in SIDECARS), lock_file(p)]

    def is_own_file(self, target: str | os.PathLike[str]) -> bool:
        """Whether ``target`` (any name: a symlink, a hard link) is one of ``own_files``."""
        return self.own_file(target) is not None

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
        return next((p for p in own if same_file_stat(info, p)), None)


def journal_file(journal: str | os.PathLike[str], suffix: str) -> Path:
    """A file that belongs to this journal alone (the web pages' tokens and address), named
    after its real file: ``<real journal path>.<suffix>``. Two journals in one folder get
    two files; a symlink to the journal gets the same one."""
    real = real_path(journal)
    return real.with_name(f"{real.name}.{suffix}")


def lock_file(real: Path) -> Path:
    return real.with_name(real.name + LOCK_SUFFIX)


def same_file_stat(info: os.stat_result, other: Path) -> bool:
    try:
        o = os.stat(other)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == (o.st_dev, o.st_ino)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two names are one file now (False when either is missing)."""
    try:
        return same_file_stat(os.stat(a), Path(b))
    except OSError:
        return False


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


def check_output(
    target: str | os.PathLike[str], journal: JournalIdentity, *, streams: bool = False
) -> Path:
    """Where to write an output file named ``target`` (``-o``, ``backup``): its real path
    (a symlink is followed, never replaced). JournalError (one line) when it is one of the
    journal's own files by any name, or an existing file that is not a regular file (a
    device, a FIFO, a socket; with ``streams`` a character device or FIFO is allowed: the
    caller writes into it, never replaces it)."""
    given = os.fspath(target)
    own = journal.own_file(target)
    if own == journal.path:
        return _refuse(f"{given} is the journal itself: give another file")
    if own is not None:
        what = _OWN[own.name[len(journal.path.name) :]]
        return _refuse(f"{given} is the journal's {what}: give another file")
    real = real_path(target)
    try:
        info = os.stat(target)  # follows every link, /proc's too
    except FileNotFoundError:
        return real
    except OSError as e:
        return _refuse(f"cannot write {given}: {e.strerror or e}")
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return real
    if streams and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return real
    kind = "a folder" if stat.S_ISDIR(mode) else _kind(mode)
    return _refuse(f"{given} is {kind}, not a regular file: not replaced")


_OWN = {
    "-wal": "WAL (-wal)",
    "-shm": "index (-shm)",
    "-journal": "rollback journal",
    LOCK_SUFFIX: "lock file",
}


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _refuse(line: str) -> Path:
    raise JournalError(line)


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
