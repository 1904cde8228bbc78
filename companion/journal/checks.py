"""Checks a journal file gets before it is opened: is it ours, was it stopped cleanly, what
is lost from its WAL, can it be written. Module-level functions used by ``store``."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.db import (
    NotAJournal,
    check_identity,
    check_version,
    describe_error,
    memory_db,
)
from companion.journal.repair import (
    RepairFailed,
    has_data,
    keep_copies,
    snapshot,
)
from companion.journal.salvage import RecoveryReport
from companion.journal.wal import (
    DB_MAGIC,
    WalScan,
    db_image,
    read_shm,
    scan_wal,
    wal_lost,
)

log = logging.getLogger(PROGRAM)


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


def _roll_back_hot_journal(path: Path) -> None:
    """A stop in the middle of a rollback-mode write (the switch back to WAL mode at open,
    the clean-stop mark at close) leaves a hot ``-journal``: SQLite's own recovery undoes
    that write; let it, before the file is judged."""
    hot = path.with_name(path.name + "-journal")
    try:
        if not hot.exists() or hot.stat().st_size == 0:
            return
    except OSError:
        return
    with suppress(sqlite3.Error):
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            db.close()


def _immutable(path: Path) -> sqlite3.Connection:
    """The main file alone, read as it is (no WAL, no locks, nothing written)."""
    from urllib.parse import quote

    uri = f"file:{quote(str(path.absolute()))}?immutable=1"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


def closed_cleanly(path: Path) -> bool:
    """The last writer stopped cleanly: no WAL left, the main file whole (its header's page
    count fits the file) and marked clean. O(1) in the journal's size."""
    wal = path.with_name(path.name + "-wal")
    hot = path.with_name(path.name + "-journal")
    try:
        if wal.exists() and wal.stat().st_size > 0:
            return False
        if hot.exists() and hot.stat().st_size > 0:
            return False  # a write in rollback mode did not finish
        size = path.stat().st_size
        if size == 0:
            return True
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(DB_MAGIC):
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and page and size < pages * page:
        return False  # cut short
    return _clean_mark(path, identify=True) == "1"


def _check_identity_quietly(path: Path) -> None:
    """NotAJournal for another program's database, seen without touching it; a damaged file
    is left to the deep check."""
    try:
        db = _immutable(path)
    except sqlite3.Error:
        return
    try:
        check_identity(db, path)
    except sqlite3.Error:
        return
    finally:
        db.close()


def _sidecars_as_found(path: Path) -> tuple[bool, bool, bytes | None]:
    """(WAL exists, -shm exists, the -shm index header), read before SQLite opens anything
    (a connection rebuilds the index and may create an empty WAL)."""
    wal_path = path.with_name(path.name + "-wal")
    shm_path = path.with_name(path.name + "-shm")
    try:
        with open(shm_path, "rb") as f:
            head: bytes | None = f.read(136)
    except OSError:
        head = None
    return wal_path.exists(), shm_path.exists(), head


def wal_loss_problem(
    path: Path, wal: WalScan, sidecars: tuple[bool, bool, bytes | None]
) -> tuple[str, int] | None:
    """(the problem, committed frames lost or -1 when unknown) for a WAL that lost committed
    frames (deleted, zeroed, cut short, replaced; the ``-shm`` index says how many), or a
    journal stopped uncleanly that has no WAL at all (the main file copied alone while the
    service ran); None when nothing is lost. Reads only: nothing is written."""
    if header_mode(path) == 1:
        return None  # a file in rollback mode: its sidecars are stale (see stale_wal)
    if wal.problem() is not None:
        return None  # a damaged WAL: the damage check keeps it and salvages it
    had_wal, had_shm, head = sidecars
    shm = read_shm(head) if head else None
    lost = wal_lost(shm, wal if had_wal else None)
    if lost:
        return f"its WAL lost {lost} committed frames (deleted, zeroed or cut short)", lost
    if not had_wal and not had_shm and _clean_mark(path) == "0":
        return "stopped without a clean close and its WAL file is missing", -1
    return None


def _wal_loss(
    path: Path, wal: WalScan, sidecars: tuple[bool, bool, bytes | None], clock: Callable[[], float]
) -> RecoveryReport | None:
    """A lost WAL (see wal_loss_problem) as a report; the WAL and index as found are kept,
    and the stale index is removed (it describes frames that are gone)."""
    found = wal_loss_problem(path, wal, sidecars)
    if found is None:
        return None
    problem, lost = found
    wal_path = path.with_name(path.name + "-wal")
    shm_path = path.with_name(path.name + "-shm")
    copies = keep_copies(path, {k: p for k, p in (("-wal", wal_path), ("-shm", shm_path))}, clock)
    report = RecoveryReport(path, problem, copies)
    report.lost.append(
        "every change since the last checkpoint"
        if lost > 0
        else "any change since the last checkpoint (a copy made while the service ran? "
        "use binaryon backup)"
    )
    report.loss = True
    with suppress(OSError):
        shm_path.unlink(missing_ok=True)  # stale: it describes the WAL that is gone
    return report


def header_mode(path: Path) -> int | None:
    """The journal mode the main file's header records: 1 rollback, 2 WAL; None unknown."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(DB_MAGIC):
        return None
    return head[18] if head[18] == head[19] and head[18] in (1, 2) else None


def stale_wal(path: Path) -> bool:
    """A ``-wal`` beside a main file in rollback mode: it cannot belong to that file. SQLite
    writes the WAL-mode mark into the header before the first WAL frame and removes the WAL
    before it writes the rollback mark back, so such a WAL comes from another file (a
    backup restored over a crashed journal whose WAL was left beside it). SQLite would
    still apply it over the restored file; the journal never lets it."""
    wal_path = path.with_name(path.name + "-wal")
    try:
        if wal_path.stat().st_size == 0:
            return False
    except OSError:
        return False
    return header_mode(path) == 1


def stale_line(path: Path) -> str:
    return (
        f"journal {path}: its WAL ({path.name}-wal) does not belong to it (a backup restored "
        "over a journal that had crashed?); it is not applied"
    )


def set_aside_stale(path: Path, clock: Callable[[], float]) -> RecoveryReport:
    """Keep the stale WAL and index as ``<name>.stale-<time>-wal`` / ``-shm``, then remove
    them, so SQLite cannot apply them to this file."""
    wal_path = path.with_name(path.name + "-wal")
    shm_path = path.with_name(path.name + "-shm")
    copies = keep_copies(path, {"-wal": wal_path, "-shm": shm_path}, clock, label="stale")
    if not any(c.name.endswith("-wal") for c in copies):
        for made in copies:
            with suppress(OSError):
                made.unlink()
        failed = RepairFailed(stale_line(path) + "; no copy of it could be kept: nothing changed")
        with suppress(OSError):
            failed.full = os.statvfs(path.parent).f_bavail == 0
        raise failed
    for p in (wal_path, shm_path):
        with suppress(OSError):
            p.unlink(missing_ok=True)
    report = RecoveryReport(path, "a WAL that did not belong to it, set aside", copies)
    report.lost.append("nothing (the WAL belongs to another copy of the journal)")
    return report


def _clean_mark(path: Path, identify: bool = False) -> str | None:
    """The journal's clean mark ("1": closed cleanly, "0": open), None when it cannot be read;
    ``identify`` first refuses another program's database (NotAJournal)."""
    try:
        db = _immutable(path)
        try:
            if identify:
                check_identity(db, path)
            row = db.execute("SELECT value FROM meta WHERE key = 'clean'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return None if row is None else row[0]


def _read_only_place(path: Path) -> str | None:
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


def _full_error(e: sqlite3.Error, path: Path | None = None) -> str | None:
    """'disk full' for SQLite's own error, or for an I/O error (making the -shm file) on a
    file system with no free block left."""
    reason = describe_error(e)
    if reason == "disk full":
        return reason
    if reason == "disk I/O error" and path is not None:
        try:
            if os.statvfs(path.parent).f_bavail == 0:
                return "disk full"
        except OSError:
            return None
    return None


def _read_only_error(e: sqlite3.Error) -> str | None:
    name = getattr(e, "sqlite_errorname", "") or ""
    return "read-only" if name.startswith("SQLITE_READONLY") else None


def _open_read_only(path: Path, found: dict[str, bytes]) -> sqlite3.Connection:
    """The journal as it is on disk (main file plus the committed part of its WAL), in
    memory and query-only: sqlite cannot open a WAL file where it may not create its -shm."""
    if "" not in found and has_data(path):
        found = snapshot(path)
    db = memory_db(db_image(found.get("", b""), scan_wal(found.get("-wal", b"")), "sqlite"))
    try:
        check_version(db, path)
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        db.close()
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
    except JournalError:
        db.close()
        raise
    return db
