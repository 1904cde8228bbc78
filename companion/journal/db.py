"""SQLite connections for the journal: the live file (WAL, full syncs, our mark and schema
checked, older versions upgraded in place), a read-only connection that never writes, an
in-memory copy of a database image (nothing on disk touched), rollback, and sqlite errors as
short reasons."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.rows import (
    APPLICATION_ID,
    SCHEMA,
    SCHEMA_VERSION,
    UPGRADE_COLUMNS,
    fold,
)

# run once before the first warning (the command line's stderr handler): logging itself is
# imported only when there is something to say
_BEFORE_WARNING: list[Callable[[], None]] = []


def before_warning(prepare: Callable[[], None]) -> None:
    """Run ``prepare`` (once) before the journal's first warning, if it ever has one."""
    if prepare not in _BEFORE_WARNING:
        _BEFORE_WARNING.append(prepare)


def warn(message: str, *args: object) -> None:
    """One warning line on the program's log."""
    import logging

    while _BEFORE_WARNING:
        _BEFORE_WARNING.pop(0)()
    logging.getLogger(PROGRAM).warning(message, *args)


DB_MAGIC = b"SQLite format 3\0"  # a database file's first bytes
ACCEPT_HINT = "binaryon accept-loss once dealt with"  # said with a lost WAL


class NotAJournal(JournalError):
    """A file that is not a binaryon journal (another program's database, a text file): it
    is refused and left untouched, never 'repaired'."""


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


def is_damage(e: BaseException) -> bool:
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in str(e)


def rollback(db: sqlite3.Connection) -> None:
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def lenient_text(data: bytes) -> str:
    """Text columns as str even when a damaged row holds bytes that are not UTF-8 (shown as
    U+FFFD, so such a move name no longer parses and the salvage cuts the game there)."""
    return data.decode("utf-8", "replace")


def open_rw(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with full syncs and the schema in place (sqlite3.Error, or
    JournalError for a journal from a newer version, NotAJournal for another file)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5)
    db.text_factory = lenient_text
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        check_identity(db, path)
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            warn("journal %s: WAL not available, using %s", path, mode)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        check_version(db, path)
    except BaseException:
        rollback(db)
        db.close()
        raise
    return db


def open_ro(path: Path, name: Path | None = None, immutable: bool = False) -> sqlite3.Connection:
    """A read-only connection to the main file as it is: never writes it, never creates it.
    In WAL mode SQLite still writes the ``-shm`` index (and creates an empty ``-wal`` when
    there is none): use it on files another process keeps (the daemon's) or on a private
    copy. ``immutable``: the main file alone, no WAL, no index, no locks (nothing at all is
    written). ``name``: the journal's name for messages (a copy stands for it)."""
    uri = f"file:{quote(str(path.absolute()))}?" + ("immutable=1" if immutable else "mode=ro")
    db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=5)
    db.text_factory = lenient_text
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        db.execute("PRAGMA query_only = ON")
        if check_identity(db, name or path):
            check_version(db, name or path, upgrade=False)
    except BaseException:
        db.close()
        raise
    return db


def check_identity(db: sqlite3.Connection, path: Path) -> bool:
    """True for a binaryon journal (marked, or version 1 before the mark), False for an empty
    database; NotAJournal for any other database, which is left as it is."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    if app == APPLICATION_ID:
        return True
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app == 0 and not tables:
        return False
    if app == 0 and {"games", "events"} <= tables:
        return True  # a journal from before the mark
    raise NotAJournal(f"{path} is not a binaryon journal (another program's database); not used")


def check_version(db: sqlite3.Connection, path: Path, upgrade: bool = True) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalError(f"journal {path} was written by a newer version (v{version})")
    if version < SCHEMA_VERSION and upgrade:
        db.execute("BEGIN IMMEDIATE")
        try:
            _upgrade(db, version)
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """An older version (0: a new file) -> the current schema, in the caller's transaction:
    the columns an older version lacked (UPGRADE_COLUMNS), then every table and index of
    SCHEMA that is missing."""
    have = {
        (t, r[1])
        for t in ("games", "events")
        for r in db.execute(f"PRAGMA table_info({t})").fetchall()
    }
    if have:  # an older journal's tables (a new file has none: SCHEMA makes them whole)
        for table, column in UPGRADE_COLUMNS:
            if (table, column.split()[0]) not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            db.execute(statement)
    if version == 1:  # the live move count, once, from the events
        events: dict[int, list[tuple]] = {}
        for gid, kind, ply, move, at in db.execute(
            "SELECT game_id, kind, ply, move, at FROM events ORDER BY id"
        ):
            events.setdefault(gid, []).append((kind, ply, move, at))
        for gid, rows in events.items():
            try:
                moves, takebacks = fold(rows)
            except ValueError:
                continue
            db.execute(
                "UPDATE games SET ply = ?, takebacks = ? WHERE id = ?",
                (len(moves), takebacks, gid),
            )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def as_current(db: sqlite3.Connection) -> sqlite3.Connection:
    """A read-only connection that reads as the current schema: itself, or for an older
    journal (or an empty database) a copy in memory upgraded as a writable open would upgrade
    the file (the file itself is never written: a reading command may not)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    empty = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone()
    if version >= SCHEMA_VERSION and empty is not None:
        return db
    image = b"" if empty is None else db.serialize()
    db.close()
    copy = memory_db(image)
    try:
        copy.execute("BEGIN")
        _upgrade(copy, version if empty is not None else 0)
        copy.execute("COMMIT")
        copy.execute("PRAGMA query_only = ON")
    except BaseException:
        copy.close()
        raise
    return copy


def connect(path: Path) -> sqlite3.Connection:
    try:
        return open_rw(path)
    except sqlite3.Error as e:
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None


def memory_db(image: bytes) -> sqlite3.Connection:
    """A connection to an in-memory copy of a database image; nothing on disk is touched."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    db.text_factory = lenient_text
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


def full_error(e: sqlite3.Error, path: Path | None = None) -> str | None:
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


def read_only_error(e: sqlite3.Error) -> str | None:
    name = getattr(e, "sqlite_errorname", "") or ""
    return "read-only" if name.startswith("SQLITE_READONLY") else None
