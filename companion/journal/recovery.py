"""Damage found when a journal is opened, and what is done about it.

After an unclean stop the check reads the WAL by its format (companion.journal.wal) and the
main file through a read-only connection, never writing the live files. A damaged journal is
never overwritten silently: the bytes as found are first kept, durably, as
``<name>.corrupt-<UTC time>`` (and ``-wal``), then every row SQLite can still read (the main
file with the WAL as SQLite replays it) is checked and written into a fresh file that
replaces it, and one line says what could not be recovered. Commits after damage in the
middle of the WAL are not rebuilt: they survive only in the kept copy, and the line says so.
A WAL that lost committed frames (deleted, zeroed, cut short: SQLite's ``-shm`` index says
how many) is said, its leftovers kept. A last write that did not complete is no damage; if
it may have been a damaged commit its WAL is kept as ``<name>.cut-<time>-wal``. A WAL beside
a file in rollback mode (a backup restored over a crashed journal) is set aside, never
applied.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.journal.api import JournalError, RepairFailed
from companion.journal.db import (
    ACCEPT_HINT,
    check_version,
    connect,
    describe_error,
    lenient_text,
    memory_db,
    open_ro,
    warn,
)
from companion.journal.files import (
    clean_mark,
    copy_name,
    db_page_size,
    fsync_dir,
    has_data,
    header,
    header_mode,
    keep_copies,
    pages_missing,
    roll_back_hot_journal,
    sidecar,
    sidecars_as_found,
    snapshot,
    stale_line,
    wal_bytes,
    write_durably,
)
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    GAME_COLUMNS,
    IN_PROGRESS,
    STATUSES,
    RecoveryReport,
    entry_from_row,
    from_json,
)
from companion.journal.wal import WalScan, db_image, read_shm, scan_wal, wal_lost


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
        data = wal_bytes(path)
        wal = scan_wal(data or b"", db_page_size(header(path)))
        found = {} if data is None else {"-wal": data}
        problem = wal.problem()
        if problem is None:
            problem = _problem_in_place(path) if in_place else _CANNOT
            if problem is _CANNOT:  # no read-only access in place: a copy in memory
                found = snapshot(path)
                problem = _problem(db_image(found.get("", b""), wal))
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
    db.text_factory = lenient_text
    return _check(db, in_place=True)


def _problem(image: bytes) -> str | None:
    """None if the database image reads cleanly, else a short description of the damage."""
    try:
        db = memory_db(image)
    except sqlite3.Error as e:
        return str(e)
    return _check(db)


def _check(db: sqlite3.Connection, in_place: bool = False) -> str | None:
    """The damage SQLite reads in ``db`` (closed after), or None; ``in_place``: _CANNOT when
    the file cannot be read there."""
    try:
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
    except sqlite3.Error as e:
        cannot = describe_error(e) in ("cannot open the journal file", "journal is read-only")
        return _CANNOT if in_place and cannot else str(e)
    finally:
        db.close()


def cut_short_line(path: Path, wal: WalScan, clock: Callable[[], float]) -> str:
    """The log line for a last write that did not complete. Frames that are all sound are
    surely one never committed; a damaged one may also be a confirmed commit hit by damage
    (the two look the same), so then the WAL is kept as <name>.cut-<time>-wal."""
    frames = wal.frames[wal.replayed :]
    line = f"journal {path}: the last write before the stop did not complete ({len(frames)} WAL "
    if all(f.fits for f in frames):
        return line + "frames, no commit among them); left out"
    copies = keep_copies(path, {"-wal": sidecar(path, "-wal")}, clock, label="cut")
    kept = f"WAL kept as {copies[0]}" if copies else "WAL copy not kept"
    return line + f"frames, damaged or cut short); left out; {kept}"


def repair(
    path: Path,
    problem: str,
    found: dict[str, bytes],
    wal: WalScan,
    clock: Callable[[], float],
) -> RecoveryReport:
    base = copy_name(path, "corrupt", clock)
    copies = []
    try:  # 1. keep the damaged bytes, durably, before anything else
        for key, data in found.items():
            target = sidecar(base, key)
            write_durably(target, data)
            copies.append(target)
        fsync_dir(path.parent)
    except OSError as e:
        for made in copies:  # no half set of copies left behind (a full disk)
            with contextlib.suppress(OSError):
                made.unlink()
        raise _failed(
            f"journal {path} is damaged ({problem}) and a copy cannot be kept: "
            f"{e.strerror or e}; nothing changed",
            e,
        ) from None
    report, games, events = salvage_rows(path, problem, copies, found, wal)
    fresh = sidecar(path, ".salvage")
    try:  # 2. build the salvaged file beside it, then swap it in
        for p in (fresh, sidecar(fresh, "-wal"), sidecar(fresh, "-shm")):
            p.unlink(missing_ok=True)
        write_salvage(fresh, games, events, report)
        for p in (sidecar(path, "-wal"), sidecar(path, "-shm")):
            p.unlink(missing_ok=True)  # their bytes are in the kept copy
        os.replace(fresh, path)
        fsync_dir(path.parent)
    except (OSError, sqlite3.Error, JournalError) as e:
        raise _failed(
            f"journal {path} is damaged ({problem}); copy kept at {base}, but repair failed: "
            f"{getattr(e, 'strerror', None) or e}",
            e,
        ) from None
    return report


def _failed(line: str, e: Exception) -> RepairFailed:
    """RepairFailed, ``full`` when ``e`` says the disk is full."""
    failed = RepairFailed(line)
    failed.full = getattr(e, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or "disk full" in str(e)
    return failed


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
    if not had_wal and not had_shm and clean_mark(path) == "0":
        return "stopped without a clean close and its WAL file is missing", -1
    return None


def wal_loss(
    path: Path, wal: WalScan, sidecars: tuple[bool, bool, bytes | None], clock: Callable[[], float]
) -> RecoveryReport | None:
    """A lost WAL (see wal_loss_problem) as a report; the WAL and index as found are kept,
    and the stale index is removed (it describes frames that are gone)."""
    found = wal_loss_problem(path, wal, sidecars)
    if found is None:
        return None
    problem, lost = found
    files = {k: sidecar(path, k) for k in ("-wal", "-shm")}
    copies = keep_copies(path, files, clock)
    report = RecoveryReport(path, problem, copies)
    report.lost.append(
        "every change since the last checkpoint"
        if lost > 0
        else "any change since the last checkpoint (a copy made while the service ran? "
        "use binaryon backup)"
    )
    report.loss = True
    with contextlib.suppress(OSError):
        files["-shm"].unlink(missing_ok=True)  # stale: it describes the WAL that is gone
    return report


def set_aside_stale(path: Path, clock: Callable[[], float]) -> RecoveryReport:
    """Keep the stale WAL and index as ``<name>.stale-<time>-wal`` / ``-shm``, then remove
    them, so SQLite cannot apply them to this file."""
    files = {k: sidecar(path, k) for k in ("-wal", "-shm")}
    copies = keep_copies(path, files, clock, label="stale")
    if not any(c.name.endswith("-wal") for c in copies):
        for made in copies:
            with contextlib.suppress(OSError):
                made.unlink()
        failed = RepairFailed(stale_line(path) + "; no copy of it could be kept: nothing changed")
        with contextlib.suppress(OSError):
            failed.full = os.statvfs(path.parent).f_bavail == 0
        raise failed
    for p in files.values():
        with contextlib.suppress(OSError):
            p.unlink(missing_ok=True)
    report = RecoveryReport(path, "a WAL that did not belong to it, set aside", copies)
    report.lost.append("nothing (the WAL belongs to another copy of the journal)")
    return report


def read_a_copy(path: Path) -> tuple[sqlite3.Connection, Path | None, str | None]:
    """A journal stopped uncleanly, for reading: a private copy of its files checked and read
    (the live files are never written). (connection, the private folder to remove at close,
    the line for a lost WAL)."""
    import shutil
    import tempfile

    as_found = sidecars_as_found(path)
    try:
        tmp = Path(tempfile.mkdtemp(prefix="binaryon-read-"))
    except OSError:
        return _read_in_memory(path, as_found)
    copy = tmp / path.name
    try:
        try:
            for suffix in ("", "-wal", "-journal"):
                if sidecar(path, suffix).exists():
                    shutil.copyfile(sidecar(path, suffix), sidecar(copy, suffix))
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise JournalError(f"cannot read journal {path}: {e.strerror or e}") from None
            shutil.rmtree(tmp, ignore_errors=True)
            return _read_in_memory(path, as_found)
        roll_back_hot_journal(copy)
        _, problem, wal = examine(copy)
        loss = _undamaged(path, problem, wal_loss_problem(path, wal, as_found))
        return open_ro(copy, name=path), tmp, loss
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _read_in_memory(
    path: Path, as_found: tuple[bool, bool, bytes | None]
) -> tuple[sqlite3.Connection, None, str | None]:
    """No room for a copy on disk: the bytes in memory (never a connection to the file)."""
    found, problem, wal = examine(path, in_place=False)
    loss = _undamaged(path, problem, wal_loss_problem(path, wal, as_found))
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


def open_read_only(path: Path, found: dict[str, bytes]) -> sqlite3.Connection:
    """The journal as it is on disk (main file plus the committed part of its WAL), in
    memory and query-only: sqlite cannot open a WAL file where it may not create its -shm."""
    if "" not in found and has_data(path):
        found = snapshot(path)
    db = memory_db(db_image(found.get("", b""), scan_wal(found.get("-wal", b""))))
    try:
        check_version(db, path)
        db.execute("PRAGMA query_only = ON")
    except (sqlite3.Error, JournalError) as e:
        db.close()
        if isinstance(e, JournalError):
            raise
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
    return db


def salvage_rows(
    path: Path, problem: str, copies: list[Path], found: dict[str, bytes], wal: WalScan
) -> tuple[RecoveryReport, list[tuple], list[tuple]]:
    """The rows SQLite can still read (the main file with the WAL as SQLite replays it), and
    the report: what SQLite does not replay of a damaged WAL survives only in the copy."""
    report = RecoveryReport(path, problem, copies)
    dropped = wal.left_out()
    if dropped is not None:
        kept = next((c for c in copies if c.name.endswith("-wal")), None)
        where = f"survive only in the kept copy {kept}" if kept else "(no copy could be kept)"
        report.lost.append(f"{dropped} {where}")
        report.unsure = True  # the tables cannot show which moves those commits held
    tail = wal.frames[wal.replayed :]
    if tail and not dropped:
        how = "cut short before its commit" if all(f.fits for f in tail) else "unreadable"
        report.lost.append(f"the last write ({len(tail)} WAL frames) {how}")
    games, events = _read_damaged(db_image(found.get("", b""), wal), report)
    return report, games, events


def _by_id(db: sqlite3.Connection, table: str, columns: str, later: tuple[str, ...]) -> str:
    """A query of ``table``'s rows with ids in a range: ``columns``, then ``later`` (columns
    added by later versions: NULL where the file's table lacks them)."""
    try:
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.Error:
        have = set()
    added = "".join(f", {c}" if c in have else ", NULL" for c in later)
    return f"SELECT {columns}{added} FROM {table} WHERE id BETWEEN ? AND ? ORDER BY id"


def _read_damaged(image: bytes, report: RecoveryReport) -> tuple[list[tuple], list[tuple]]:
    """Every row that can still be read, table by table, working round unreadable pages."""
    missing = pages_missing(image, len(image))
    if missing:
        pages = int.from_bytes(image[28:32], "big")
        report.lost.append(f"file cut short: {missing} of {pages} pages missing")
    try:
        db = memory_db(image)
        db.execute("PRAGMA writable_schema = ON")  # read tables even if an index is damaged
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        report.lost.append(f"everything ({e})")
        return [], []
    upper = max(1000, len(image) // 8 + 1)
    try:  # the columns each version has: a game's clock and dispute, a move's player and clock
        sql = _by_id(db, "games", GAME_COLUMNS, ("time_control", "dispute"))
        games, games_failed = _rows(db, sql, upper)
        sql = _by_id(
            db, "events", "id, game_id, kind, ply, move, at", ("player", "public", "clock")
        )
        events, events_failed = _rows(db, sql, upper)
        _read_masked(db, report)
        report.expected = _indexed_events(db)
        report.unsure = report.unsure or (events_failed and report.expected is None)
    except sqlite3.Error as e:  # not even the schema can be read
        report.lost.append(f"everything ({e})")
        return [], []
    finally:
        db.close()
    good_games = [g for g in games if _good_game(g)]
    good_events = [e for e in events if _good_event(e)]
    dropped = len(games) - len(good_games) + len(events) - len(good_events)
    if dropped:
        report.lost.append(f"{dropped} garbled rows dropped")
    games, events = good_games, good_events
    for what, rows, failed in (("games", games, games_failed), ("events", events, events_failed)):
        top = rows[-1][0] if rows else 0
        gaps = top - len(rows)  # ids are dense: rows are never deleted
        if gaps:
            report.lost.append(f"{gaps} {what} unreadable")
        elif failed:
            report.lost.append(f"part of the {what} table unreadable")
    return games, events


def _read_masked(db: sqlite3.Connection, report: RecoveryReport) -> None:
    """The readable rows of the running clocks (version 4) and of remote games with secrets
    (5)."""
    for table, columns, types in (  # the first columns' types: a garbled row is left out
        ("clocks", "game_id, ply, state, at", (int, int, str)),
        ("masked", "game_id, seat, told", (int, str, str)),
        ("revealed", "game_id, ply, move, player, public", (int, int, str)),
    ):
        try:
            rows = db.execute(f"SELECT {columns} FROM {table}").fetchall()
        except sqlite3.Error:
            continue
        good = [r for r in rows if all(map(isinstance, r, types))]
        setattr(report, table, good)


def _indexed_events(db: sqlite3.Connection) -> dict[int, set[int]] | None:
    """Event ids per game as the index has them (the index lives on other pages than the
    table, so it often tells what a damaged table lost). None if unreadable."""
    try:
        rows = db.execute("SELECT game_id, id FROM events INDEXED BY events_by_game").fetchall()
    except sqlite3.Error:
        return None
    out: dict[int, set[int]] = {}
    for gid, eid in rows:
        if isinstance(gid, int) and isinstance(eid, int):
            out.setdefault(gid, set()).add(eid)
    return out


def _good_game(row: tuple) -> bool:
    gid, game, options, players, _s, _e, status, *_ = row
    return (
        isinstance(gid, int)
        and isinstance(game, str)
        and isinstance(options, str)
        and isinstance(players, str)
        and status in STATUSES
    )


def _good_event(row: tuple) -> bool:
    eid, gid, kind, ply, move, _at = row[:6]
    return (
        isinstance(eid, int)
        and isinstance(gid, int)
        and kind in ("move", "takeback", "finish", "abandon")
        and isinstance(ply, int)
        and ply >= 0
        and (move is None or isinstance(move, str))
    )


def _rows(db: sqlite3.Connection, sql: str, upper: int, budget: int = 20000) -> tuple[list, bool]:
    """Rows with ids 1..upper, bisecting round ranges that cannot be read. Returns (rows,
    whether any part failed)."""
    out: list[tuple] = []
    failed = False
    stack = [(1, upper)]
    while stack:
        lo, hi = stack.pop()
        budget -= 1
        try:
            out.extend(db.execute(sql, (lo, hi)).fetchall())
            continue
        except sqlite3.Error:
            failed = True
        if lo < hi and budget > 0:
            mid = (lo + hi) // 2
            stack.append((mid + 1, hi))
            stack.append((lo, mid))
    out.sort(key=lambda r: r[0])
    return out, failed


def write_salvage(
    fresh: Path, games: list[tuple], events: list[tuple], report: RecoveryReport
) -> None:
    """The salvaged file: each game's rows up to the first that cannot follow, the rest said
    lost. Rows as ``_read_damaged`` reads them (every column of the current version)."""
    from companion.games import get_spec

    by_game: dict[int, list[tuple]] = {}
    for row in events:
        by_game.setdefault(row[1], []).append(row)
    header_ids = {g[0] for g in games}
    expected = report.expected or {}
    orphans = sorted(gid for gid in set(by_game) | set(expected) if gid not in header_ids)
    if orphans:
        report.lost.append(f"games {', '.join(map(str, orphans))} (header unreadable)")
    masked = {r[0]: r for r in report.masked}
    revealed = {(r[0], r[1]): r[2] for r in report.revealed}  # (game, ply) -> its full name
    whole = {r[0] for r in report.revealed}  # games revealed at their end
    db = connect(fresh)
    try:
        db.execute("BEGIN IMMEDIATE")
        for g in games:
            gid, game, _options, _players, _s, _e, status, *_ = g
            rows, first = by_game.get(gid, []), None
            seen = None if gid in whole else masked.get(gid)  # (game_id, seat, told)
            with contextlib.suppress(ValueError):  # an unknown game or options: no replay
                seat, told = (seen[1], from_json(seen[2], {})) if seen else (None, None)
                first = first_state(get_spec(game), entry_from_row(g).options, seat, told)
            names = [(r[2], r[3], revealed.get((gid, r[3]), r[4])) for r in rows]
            cut, states, _ = replay(first, names)
            lost, kept, length = cut is not None, rows[:cut], len(states) - 1
            over = None if first is None else states[-1].is_over() and not lost
            note = None
            header = list(g[:11])
            unread = len(expected.get(gid, set()) - {e[0] for e in by_game.get(gid, [])})
            if lost or unread or (status == FINISHED and over is False):
                note = f"recovered: moves after the first {length} lost"
                more = f" ({unread} events unreadable)" if unread else ""
                report.lost.append(f"game {gid}: moves after the first {length}{more}")
                if status == FINISHED and not over:  # its result no longer follows
                    status = ABANDONED
                    header[7:10] = [None, None, None]
                    note += f"; its result ({g[8] or g[7]}) no longer follows"
                    kept = [e for e in kept if e[2] != "finish"]
            elif report.unsure and status == IN_PROGRESS:
                note = f"recovered: moves after the first {length} may be lost"
                report.lost.append(f"game {gid}: perhaps moves after the first {length}")
            takebacks = sum(e[2] == "takeback" for e in kept)
            later = [v if isinstance(v, str) else None for v in g[11:13]]  # clock, dispute
            db.execute(
                f"INSERT INTO games ({GAME_COLUMNS}, ply, takebacks, time_control, dispute)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*header[:6], status, *header[7:10], note or g[10], length, takebacks, *later),
            )
            db.executemany(
                "INSERT INTO events (id, game_id, kind, ply, move, at, player, public, clock)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                [(*e[:8], e[8] if isinstance(e[8], str) else None) for e in kept],
            )
            report.games += 1
            report.events += len(kept)
        written = {g[0] for g in games}
        db.executemany(  # a clock's row is of the position it was written at: the resume
            "INSERT INTO clocks (game_id, ply, state, at) VALUES (?, ?, ?, ?)",  # checks it
            [c for c in report.clocks if c[0] in written],
        )
        db.executemany(
            "INSERT INTO masked (game_id, seat, told) VALUES (?, ?, ?)",
            [r for r in report.masked if r[0] in written],
        )
        db.executemany(
            "INSERT INTO revealed (game_id, ply, move, player, public) VALUES (?, ?, ?, ?, ?)",
            [r for r in report.revealed if r[0] in written],
        )
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '0')")
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def first_state(spec: Any, options: dict[str, Any], seat: str | None, told: Any) -> Any:
    """A game's first state for a replay that checks its moves: a remote game with secrets not
    yet revealed (``seat``) starts as that board knew it (the facts it was ``told``; facts
    that do not fit are left out, the moves then say what they can)."""
    if seat is None:
        return spec.new(**options)
    try:
        return spec.remote().start(spec, options, seat, told if isinstance(told, dict) else {})
    except ValueError:
        return spec.remote().mask(spec.new(**options), seat)


UNDONE = object()  # the state after a move that does not replay but is taken back later


def replay(state: Any, events: list[tuple[Any, ...]]) -> tuple[int | None, list[Any], Any]:
    """Replay a game's events (kind, ply, move name) from ``state`` (None: the move numbers
    only, for a game that cannot be replayed here): (the index of the first event that cannot
    follow the ones before it, None when all do; the states of the live moves before it, the
    first state included; its ValueError when its move does not replay)."""
    undone, low = set(), None  # the moves a later takeback or move takes off the board
    for i in range(len(events) - 1, -1, -1):
        kind, ply = events[i][:2]
        if kind == "move" and low is not None and low <= ply:
            undone.add(i)
        if kind in ("move", "takeback"):
            low = ply if low is None else min(low, ply)
    states = [state]
    for i, (kind, ply, move) in enumerate(events):
        if kind == "move":
            if ply >= len(states):
                return i, states, None
            del states[ply + 1 :]
            last = states[-1]
            if last is UNDONE:  # after a move that did not replay: taken back with it
                states.append(UNDONE)
                continue
            try:
                states.append(None if state is None else last.play(last.parse_move(move or "")))
            except ValueError as e:
                if i not in undone:
                    return i, states, e
                states.append(UNDONE)  # only the live moves must replay
        elif kind == "takeback":
            del states[ply + 1 :]
    return None, states, None


def deep_check(
    path: Path, recover: bool, clock: Callable[[], float], force: bool = False
) -> tuple[RecoveryReport | None, dict[str, bytes]]:
    """The check after an unclean stop: damage repaired (or JournalError without
    ``recover``), a write cut short logged, a lost WAL said. (report, bytes as found)."""
    sidecars = sidecars_as_found(path)
    wal = scan_wal(wal_bytes(path) or b"", db_page_size(header(path)))  # as found, and its
    before = wal_loss(path, wal, sidecars, clock)  # copies kept before a connection rewrites
    found, problem, wal = examine(path)  # the index
    if problem is None and force:
        problem = "a page unreadable"
    if problem is not None:
        if not recover:
            raise JournalError(
                f"journal {path} is damaged ({problem}); start the daemon to repair it"
            )
        if before is not None:
            warn(before.line())
        report = repair(path, problem, found, wal, clock)
        warn(report.line())
        return report, {}
    if recover and wal.cut_short():
        warn(cut_short_line(path, wal, clock))
    report = before  # kept and said, even by the tools
    if report is not None:
        warn(report.line())
    return report, found
