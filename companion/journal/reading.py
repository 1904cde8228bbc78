"""Opening a journal for reading (history, export, backup) without creating or writing any
file beside it. SQLite's ``mode=ro`` still rewrites the ``-shm`` index of a WAL-mode file and
creates a ``-wal`` when there is none, so it is used only where that is SQLite's ordinary
sharing: on the live files of a running daemon. A cleanly closed journal is read in place;
after an unclean stop a private copy of the main file and its WAL is checked and read (a
copy in memory when there is no room for it)."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from companion.journal.api import JournalError
from companion.journal.db import open_ro, read_only_error
from companion.journal.files import (
    closed_cleanly,
    header_mode,
    holder,
    roll_back_hot_journal,
    sidecars_as_found,
    stale_line,
    stale_wal,
)

ACCEPT_HINT = "binaryon accept-loss once dealt with"


def open_for_reading(path: Path) -> tuple[sqlite3.Connection, Path | None, str | None]:
    """(a read-only connection, the private folder to remove at close or None, what the
    reader must be told: a lost WAL, or a WAL that does not belong to the file)."""
    if holder(path) is not None:  # the daemon's live files, shared as SQLite shares them
        try:
            return open_ro(path), None, None
        except sqlite3.Error as e:
            if not read_only_error(e) and "unable to open" not in str(e):
                raise
            from companion.journal.recovery import open_read_only

            return open_read_only(path, {}), None, None  # no access to its index
    if stale_wal(path):
        return open_ro(path, immutable=True), None, stale_line(path) + ": start the companion"
    if closed_cleanly(path):
        sidecar = any(path.with_name(path.name + s).exists() for s in ("-wal", "-shm", "-journal"))
        return open_ro(path, immutable=sidecar or header_mode(path) == 2), None, None
    return _read_a_copy(path)


def _read_a_copy(path: Path) -> tuple[sqlite3.Connection, Path | None, str | None]:
    import shutil
    import tempfile

    from companion.journal.recovery import examine, wal_loss_problem

    sidecars = sidecars_as_found(path)
    try:
        tmp = Path(tempfile.mkdtemp(prefix="binaryon-read-"))
    except OSError:
        return _read_in_memory(path, sidecars)
    copy = tmp / path.name
    try:
        try:
            for suffix in ("", "-wal", "-journal"):
                src = path.with_name(path.name + suffix)
                if src.exists():
                    shutil.copyfile(src, copy.with_name(copy.name + suffix))
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise JournalError(f"cannot read journal {path}: {e.strerror or e}") from None
            shutil.rmtree(tmp, ignore_errors=True)
            return _read_in_memory(path, sidecars)
        roll_back_hot_journal(copy)
        _, problem, wal = examine(copy)
        loss = _undamaged(path, problem, wal_loss_problem(path, wal, sidecars))
        return open_ro(copy, name=path), tmp, loss
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _read_in_memory(
    path: Path, sidecars: tuple[bool, bool, bytes | None]
) -> tuple[sqlite3.Connection, None, str | None]:
    """No room for a copy on disk: the bytes in memory (never a connection to the file)."""
    from companion.journal.recovery import examine, open_read_only, wal_loss_problem

    found, problem, wal = examine(path, in_place=False)
    loss = _undamaged(path, problem, wal_loss_problem(path, wal, sidecars))
    return open_read_only(path, found), None, loss


def _undamaged(path: Path, problem: str | None, found: tuple[str, int] | None) -> str | None:
    """JournalError for damage (a reader never repairs); else the line for a lost WAL."""
    if problem is not None:
        raise JournalError(f"journal {path} is damaged ({problem}); start the daemon to repair it")
    if found is None:
        return None
    return (
        f"journal {path}: {found[0]}; what it still holds is shown ({ACCEPT_HINT}: "
        "it keeps copies of what is left of the WAL)"
    )
