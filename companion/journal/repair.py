"""Damage to the journal found at open, and its repair.

The check reads a copy of the bytes (main file and WAL) in memory, never the live files. A
damaged journal is never overwritten silently: the bytes as found are first kept, durably, as
``<name>.corrupt-<UTC time>`` (and ``-wal``), then whatever is readable is salvaged into a
fresh file (companion.journal.salvage) that replaces it. A last write that did not complete is
no damage; if it may have been a damaged commit its WAL is kept as ``<name>.cut-<time>-wal``.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.db import describe_error, lenient_text, memory_db
from companion.journal.salvage import RecoveryReport, salvage_rows, write_salvage
from companion.journal.wal import WalScan, db_image, db_page_size, scan_wal

log = logging.getLogger(PROGRAM)


class RepairFailed(JournalError):
    """A damaged journal that could not be repaired (no room for its copy or the salvage):
    nothing was changed. ``full``: for lack of room."""

    full = False


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def has_data(path: Path) -> bool:
    return any(p.exists() and p.stat().st_size > 0 for p in (path, _sidecars(path)[0]))


def snapshot(path: Path) -> dict[str, bytes]:
    """The journal's bytes as found (main file and WAL), before sqlite touches them, so a
    damaged file can be kept exactly as it was."""
    found = {}
    for p, key in ((path, ""), (_sidecars(path)[0], "-wal")):
        try:
            found[key] = p.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as e:
            raise JournalError(f"cannot read journal {p}: {e.strerror or e}") from None
    return found


def _wal_bytes(path: Path) -> bytes | None:
    try:
        return _sidecars(path)[0].read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise JournalError(f"cannot read journal {path}-wal: {e.strerror or e}") from None


def wal_as_found(path: Path) -> WalScan:
    """The WAL beside ``path`` as it is on disk, read by its format (no connection)."""
    return scan_wal(_wal_bytes(path) or b"", db_page_size(_header(path)))


def _header(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except FileNotFoundError:
        return b""
    except OSError as e:
        raise JournalError(f"cannot read journal {path}: {e.strerror or e}") from None


def examine(
    path: Path, tries: int = 3, in_place: bool = True
) -> tuple[dict[str, bytes], str | None, WalScan]:
    """(bytes as found, the damage or None, the WAL as read). A snapshot taken while another
    process writes can look torn, so damage must be seen ``tries`` times running.

    Memory stays bounded whatever the journal's size: the WAL (bounded by SQLite's automatic
    checkpoints) is read by its format here; when it holds no damage, the main file is
    checked in place through a read-only connection (SQLite then sees exactly the commits
    this check accepts, and can write neither file). Only a damaged journal is read whole
    into memory, for its copy and its salvage; ``found`` then holds the main file too (key
    ""), else only the WAL. ``in_place=False``: never a connection to the file (SQLite's
    read-only connection still writes the ``-shm`` index): a copy in memory."""
    problem = None
    for attempt in range(tries):
        if attempt:
            time.sleep(0.05)
        data = _wal_bytes(path)
        wal = scan_wal(data or b"", db_page_size(_header(path)))
        found = {} if data is None else {"-wal": data}
        problem = wal.problem()
        if problem is None:
            problem = _problem_in_place(path) if in_place else _CANNOT
            if problem is _CANNOT:  # no read-only access in place: a copy in memory
                found = snapshot(path)
                problem = _problem(db_image(found.get("", b""), wal, "sqlite"))
        if problem is None:
            break
    if problem is not None:
        found = snapshot(path)
        wal = scan_wal(found.get("-wal", b""), db_page_size(found.get("", b"")))
    return found, problem, wal


_CANNOT = "cannot check in place"


def _problem_in_place(path: Path) -> str | None:
    """The damage of the journal as SQLite reads it (main file and WAL), through a read-only
    connection; _CANNOT when such a connection cannot be had (a read-only folder)."""
    from urllib.parse import quote

    try:
        db = sqlite3.connect(f"file:{quote(str(path.absolute()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return _CANNOT
    try:
        db.text_factory = lenient_text
        return _check(db)
    except sqlite3.Error as e:
        if describe_error(e) in ("cannot open the journal file", "journal is read-only"):
            return _CANNOT
        return str(e)
    finally:
        db.close()


def _problem(image: bytes) -> str | None:
    """None if the database image reads cleanly, else a short description of the damage."""
    try:
        db = memory_db(image)
    except sqlite3.Error as e:
        return str(e)
    try:
        return _check(db)
    except sqlite3.Error as e:
        return str(e)
    finally:
        db.close()


def _check(db: sqlite3.Connection) -> str | None:
    rows = db.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        return f"integrity check: {str(rows[0][0]).splitlines()[0]}"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if tables and not {"games", "events"} <= tables:
        return "not a binaryon journal"
    if tables:
        db.execute("SELECT count(*), max(id) FROM events").fetchone()
        db.execute("SELECT count(*), max(id) FROM games").fetchone()
    return None


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


def keep_copies(
    path: Path, files: dict[str, Path], clock: Callable[[], float], label: str = "corrupt"
) -> list[Path]:
    """Copy ``files`` (suffix -> file; missing ones skipped) to ``<name>.<label>-<time>`` +
    suffix, durably, streaming; the copies made (a failure is logged, not raised)."""
    stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while any(base.with_name(base.name + k).exists() for k in ("", *files)):
        n += 1
        base = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    copies = []
    for key, src in files.items():
        target = base.with_name(base.name + key)
        try:
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
            log.warning("journal %s: no copy of %s kept: %s", path, src, e.strerror or e)
    _fsync_dir(path.parent)
    return copies


def _fsync_dir(path: Path) -> None:
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


def cut_short_line(
    path: Path, found: dict[str, bytes], wal: WalScan, clock: Callable[[], float]
) -> str:
    """The log line for a last write that did not complete. Frames that are all sound are
    surely one never committed; a damaged one may also be a confirmed commit hit by damage
    (the two look the same), so then the WAL is kept as <name>.cut-<time>-wal."""
    frames = wal.frames[wal.replayed :]
    line = f"journal {path}: the last write before the stop did not complete ({len(frames)} WAL "
    if all(f.fits for f in frames):
        return line + "frames, no commit among them); left out"
    stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
    copy = path.with_name(f"{path.name}.cut-{stamp}-wal")
    try:
        write_durably(copy, found["-wal"])
        _fsync_dir(path.parent)
        kept = f"WAL kept as {copy}"
    except OSError as e:
        kept = f"WAL copy not kept: {e.strerror or e}"
    return line + f"frames, damaged or cut short); left out; {kept}"


def repair(
    path: Path,
    problem: str,
    found: dict[str, bytes],
    wal: WalScan,
    clock: Callable[[], float],
) -> RecoveryReport:
    stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while base.exists():
        n += 1
        base = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    copies = []
    try:  # 1. keep the damaged bytes, durably, before anything else
        for key, data in found.items():
            target = base.with_name(base.name + key)
            write_durably(target, data)
            copies.append(target)
        _fsync_dir(path.parent)
    except OSError as e:
        for made in copies:  # no half set of copies left behind (a full disk)
            with contextlib.suppress(OSError):
                made.unlink()
        failed = RepairFailed(
            f"journal {path} is damaged ({problem}) and a copy cannot be kept: "
            f"{e.strerror or e}; nothing changed"
        )
        failed.full = e.errno in (errno.ENOSPC, errno.EDQUOT)
        raise failed from None
    report, games, events = salvage_rows(path, problem, copies, found, wal)
    fresh = path.with_name(path.name + ".salvage")
    try:  # 2. build the salvaged file beside it, then swap it in
        for p in (fresh, *_sidecars(fresh)):
            p.unlink(missing_ok=True)
        write_salvage(fresh, games, events, report)
        for p in _sidecars(path):
            p.unlink(missing_ok=True)  # their bytes are in the kept copy
        os.replace(fresh, path)
        _fsync_dir(path.parent)
    except (OSError, sqlite3.Error, JournalError) as e:
        failed = RepairFailed(
            f"journal {path} is damaged ({problem}); copy kept at {base}, but repair failed: "
            f"{getattr(e, 'strerror', None) or e}"
        )
        failed.full = getattr(e, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or (
            "disk full" in str(e)
        )
        raise failed from None
    return report
