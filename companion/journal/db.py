"""SQLite connections for the journal: the live file (WAL, full syncs, schema version
checked), an in-memory copy of a database image (nothing on disk touched), rollback, and
sqlite errors as short reasons."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from companion.journal.api import JournalError
from companion.journal.rows import SCHEMA, SCHEMA_VERSION
from companion.journal.wal import DB_MAGIC

log = logging.getLogger("binaryon")


def describe_error(e: sqlite3.Error) -> str:
    """A sqlite error as a short reason for the OLED ('disk full', 'journal is read-only')."""
    name = getattr(e, "sqlite_errorname", "") or ""
    text = str(e)
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "disk full"
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return "journal is read-only"
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return "cannot open the journal file"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "journal is busy (another program is writing)"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text:
        return "journal is damaged (restart to repair)"
    if name.startswith("SQLITE_IOERR") or "I/O error" in text:
        return "disk I/O error"
    return text.splitlines()[0] if text else "journal error"


def rollback(db: sqlite3.Connection) -> None:
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def open_rw(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with full syncs and the schema in place (sqlite3.Error, or
    JournalError for a journal from a newer version)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5)
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            log.warning("journal %s: WAL not available, using %s", path, mode)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        check_version(db, path)
    except BaseException:
        rollback(db)
        db.close()
        raise
    return db


def check_version(db: sqlite3.Connection, path: Path) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalError(f"journal {path} was written by a newer version (v{version})")
    if version < SCHEMA_VERSION:
        db.executescript(
            f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        )


def connect(path: Path) -> sqlite3.Connection:
    try:
        return open_rw(path)
    except sqlite3.Error as e:
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None


def memory_db(image: bytes) -> sqlite3.Connection:
    """A connection to an in-memory copy of a database image; nothing on disk is touched."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if image:
        data = bytearray(image)
        if len(data) >= 100 and data.startswith(DB_MAGIC):
            data[18:20] = b"\x01\x01"  # rollback-journal mode: memory databases have no WAL
        try:
            db.deserialize(bytes(data))
        except sqlite3.Error:
            db.close()
            raise
    return db
