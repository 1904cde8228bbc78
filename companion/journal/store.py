"""The SQLite journal: every game, every move, every takeback, safe across power cuts.

Durability: WAL with ``synchronous=FULL``, one transaction per call, committed before the call
returns, so a move the session shows as accepted is on disk; ``commit_turn`` records a whole
press (the move, the passes it forced, the finish) in one transaction. History is
append-only: moves, takebacks, finishes and abandons are rows in ``events`` (triggers refuse
UPDATE and DELETE). The ``games`` row carries the header, the status (in_progress / finished
/ abandoned; a paused game is abandoned with the note 'paused', see ``pause``) and the live
move count, so a move costs the same whatever the game's length.

Start-up: a clean stop (``close``) records itself, checkpoints the WAL and leaves the file in
rollback mode, so the next open checks only the header (its cost does not grow with the
journal). After an unclean stop the deep check runs: a damaged file is never overwritten
silently: the bytes as found are copied to ``<name>.corrupt-<UTC time>`` (and ``-wal``)
first, whatever is readable is salvaged into a fresh file, and one log line says what could
not be recovered (``journal.recovery`` keeps the details). The check reads the WAL itself
(companion.journal.wal): SQLite alone would drop every commit after a bad frame; it also
compares the WAL with SQLite's ``-shm`` index, so a WAL deleted, zeroed or cut short is said,
never a silent rollback. A damaged row in the game in progress is cut there (a copy kept).
A file that is not a binaryon journal (no SQLite header, or another program's database) is
refused and left untouched. A journal that cannot be written (read-only file system, no
permission, disk full) opens read-only. Write failures raise JournalError with a one-line
reason; a write to a game ended elsewhere (``binaryon abandon``) raises GameClosed.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import companion.journal.db as journal_db  # its open_rw looked up at each open
from companion import PROGRAM
from companion.journal.api import GameClosed, JournalError, Masked, MoveEntry, SavedGame
from companion.journal.checks import (
    _check_identity_quietly,
    _full_error,
    _open_read_only,
    _read_only_error,
    _read_only_place,
    _roll_back_hot_journal,
    _sidecars_as_found,
    _wal_loss,
    check_journal_path,
    closed_cleanly,
    refuse_foreign,
    set_aside_stale,
    stale_line,
    stale_wal,
)
from companion.journal.db import (
    NotAJournal,
    describe_error,
    is_damage,
    memory_db,
    open_ro,
    rollback,
)
from companion.journal.identity import check_one_name, journal_identity
from companion.journal.lock import JournalLock, acquire_lock, holder, lock_path
from companion.journal.reading import file_id, open_for_reading
from companion.journal.repair import (
    RepairFailed,
    cut_short_line,
    examine,
    has_data,
    repair,
    wal_as_found,
)
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    LISTED_COLUMNS,
    PAUSED,
    PAUSED_WHERE,
    SCHEMA,
    SCHEMA_VERSION,
    STATUSES,
    TAGS_KEY,
    GameEntry,
    detail_json,
    entry_from_row,
    fold,
    from_iso,
    from_json,
    iso,
    paused_note,
    to_json,
    unpaused_note,
)
from companion.journal.salvage import RecoveryReport
from companion.journal.store_files import JournalFiles
from companion.journal.store_import import JournalImport
from companion.journal.store_masked import EVENTS_REVEALED, JournalMasked
from companion.journal.store_meta import JournalMeta
from companion.journal.store_reads import JournalReads
from companion.journal.store_salvage import JournalSalvage

if TYPE_CHECKING:
    from companion.games.base import Outcome

__all__ = [
    "ABANDONED",
    "FINISHED",
    "IN_PROGRESS",
    "PAUSED",
    "SCHEMA",
    "SCHEMA_VERSION",
    "STATUSES",
    "GameEntry",
    "MoveEntry",
    "NotAJournal",
    "RecoveryReport",
    "SqliteJournal",
    "check_journal_path",
    "describe_error",
    "fold",
    "from_iso",
    "iso",
]

log = logging.getLogger(PROGRAM)

_EVENTS = (
    "SELECT kind, ply, move, at, player, public{} FROM events WHERE game_id = ?"
    " AND id NOT BETWEEN ? AND ? ORDER BY id"
)


def _reads_well(path: Path, clock: Callable[[], float]) -> bool:
    """What a start reads (the game in progress) reads without damage, through a connection
    that writes nothing (the bytes stay as found for a copy)."""
    try:
        journal = SqliteJournal(open_ro(path), path, clock)
    except sqlite3.Error as e:
        return not is_damage(e)  # only damage calls for the deep check (not a busy file)
    except JournalError:
        return True  # not ours, or newer: the open that follows says so
    try:
        with suppress(JournalError, TypeError, ValueError):
            journal.current()
        return not journal.damage_seen
    finally:
        journal._db.close()


def _deep_check(
    path: Path, recover: bool, clock: Callable[[], float], force: bool = False
) -> tuple[RecoveryReport | None, dict[str, bytes]]:
    """The check after an unclean stop: damage repaired (or JournalError without
    ``recover``), a write cut short logged, a lost WAL said. (report, bytes as found)."""
    sidecars = _sidecars_as_found(path)
    before = _wal_loss(path, wal_as_found(path), sidecars, clock)  # copies kept as found,
    found, problem, wal = examine(path)  # before a connection rewrites the index
    if problem is None and force:
        problem = "a page unreadable"
    if problem is not None:
        if not recover:
            raise JournalError(
                f"journal {path} is damaged ({problem}); start the daemon to repair it"
            )
        if before is not None:
            log.warning(before.line())
        report = repair(path, problem, found, wal, clock)
        log.warning(report.line())
        return report, {}
    if recover and wal.cut_short():
        log.warning(cut_short_line(path, found, wal, clock))
    report = before  # kept and said, even by the tools
    if report is not None:
        log.warning(report.line())
    return report, found


# --------------------------------------------------------------------------- the journal


class SqliteJournal(
    JournalSalvage, JournalReads, JournalImport, JournalFiles, JournalMeta, JournalMasked
):
    """Implements companion.journal.api.Journal. Safe to share between threads (one lock)."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Callable[[], float]):
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        self.recovery: RecoveryReport | None = None
        self.read_only: str | None = None  # why, when the journal can be read but not written
        self.damage_seen = False  # sqlite said the file is damaged: no clean mark at close
        self._marks = False  # this connection keeps the clean-stop mark (the only writer)
        self.lock: JournalLock | None = None  # held for the daemon, released at close
        self._in_batch = False
        # committed changes the journal lost (a lost WAL), said by every command until
        # ``accept_loss``; or, when reading, a WAL beside it that was not applied
        self.loss: str | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) of the file written
        self._wal: tuple[int, int] | None = None  # and of its WAL, for the one writer
        self._tmp: Path | None = None  # a private copy read instead of the live files
        self._clock_schema: bool | None = None  # has the file the clock's columns (v4)?
        self._masked_schema: bool | None = None  # has the file the remote tables (v5)?

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        recover: bool = True,
        clock: Callable[[], float] = time.time,
        read_only: bool = False,
        lock: bool = False,
    ) -> SqliteJournal:
        """Open (creating it if needed) the journal at ``path``.

        After a clean stop only the header is checked. Else the damage check reads a copy of
        the bytes (main file and WAL) and never opens the live files, so it cannot change
        them. A damaged file is repaired as the module docstring says; with
        ``recover=False`` (command-line tools, which must not move a file a running daemon
        holds) it raises JournalError instead. While another process holds the journal's
        lock (companion.journal.lock: the daemon) the file is live: it is not checked here.
        A journal on a read-only file system, without write permission or on a full disk
        opens read-only: ``read_only`` says why, reading works and every write raises
        JournalError. ``read_only=True`` (history, export) never writes the file at all.
        NotAJournal (untouched) for a file that is not a binaryon journal; any other failure
        to open raises JournalError. ``lock=True`` (the daemon) first takes the journal's
        lock (companion.journal.lock; JournalError naming the holder if another process has
        it), held until ``close``.
        """
        given = check_journal_path(path)
        identity = journal_identity(given)  # the real file: links resolved or refused
        check_one_name(identity, given)
        path = identity.path
        if read_only:
            return cls._open_for_reading(path, clock)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create {path.parent}: {e.strerror or e}") from None
        if not lock:
            return cls._open_writable(path, recover, clock)
        made = not lock_path(path).exists()
        held = acquire_lock(path)
        try:
            journal = cls._open_writable(path, recover, clock)
        except BaseException:
            if made:  # a refused file (not a journal, damaged) gets no lock file beside it
                with suppress(OSError):
                    lock_path(path).unlink()
            held.release()
            raise
        journal.lock = held
        return journal

    @classmethod
    def _open_writable(cls, path: Path, recover: bool, clock: Callable[[], float]) -> SqliteJournal:
        refuse_foreign(path)
        _check_identity_quietly(path)
        live = holder(path)  # the daemon's: its file, checked by it
        stale = None
        if live is None and stale_wal(path):  # before any connection could apply it
            if not recover:
                raise JournalError(
                    stale_line(path) + ": start the companion to set it aside (a copy is kept)"
                )
            try:
                stale = set_aside_stale(path, clock)
            except RepairFailed as e:  # no room to keep it: the main file alone, read-only
                log.warning(str(e))
                return cls._damaged_read_only(path, clock, e, main_only=True)
            copies = ", ".join(str(c) for c in stale.copies)
            log.warning("%s; kept as %s", stale_line(path), copies)
        if live is None:
            _roll_back_hot_journal(path)
        try:
            fast = live is not None or not has_data(path) or closed_cleanly(path)
            report, found = (None, {}) if fast else _deep_check(path, recover, clock)
            if fast and live is None and has_data(path) and not _reads_well(path, clock):
                # damage the header check cannot see (a page garbled after a clean stop)
                report, found = _deep_check(path, recover, clock, force=True)
        except RepairFailed as e:  # the daemon starts read-only: never a restart loop
            log.warning(str(e))
            return cls._damaged_read_only(path, clock, e)
        journal = cls._connect(path, clock, found, marks=live is None)
        journal.recovery = report or stale
        if report is not None and report.loss and not journal.read_only:
            journal._keep_loss(report.line())
        journal.loss = journal._recorded_loss()
        if journal.loss and not (report is not None and report.loss):
            log.warning("%s", journal.loss)
        if not journal.read_only and recover:
            journal._salvage_live_games()
        return journal

    @classmethod
    def _damaged_read_only(
        cls, path: Path, clock: Callable[[], float], e: RepairFailed, main_only: bool = False
    ) -> SqliteJournal:
        """A damaged journal that cannot be repaired now (a full disk): read what SQLite
        reads of it (``main_only``: the main file without its WAL, which is not its own), in
        memory, and refuse every write; nothing on disk is touched."""
        try:
            db = open_ro(path, immutable=True) if main_only else _open_read_only(path, {})
        except (JournalError, sqlite3.Error):
            db = memory_db(b"")  # not even readable: an empty journal, in memory only
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("PRAGMA query_only = ON")
        journal = cls(db, path, clock)
        journal.damage_seen = True
        what = "stale WAL" if main_only else "journal damaged"
        journal.read_only = f"{what}, disk full" if e.full else what
        return journal

    @classmethod
    def _connect(
        cls, path: Path, clock: Callable[[], float], found: dict[str, bytes], marks: bool
    ) -> SqliteJournal:
        why = _read_only_place(path)
        try:
            db = journal_db.open_rw(
                path
            )  # sqlite opens a file it may not write read-only, if it can
        except NotAJournal:
            raise
        except sqlite3.Error as e:
            why = why or _read_only_error(e) or _full_error(e, path)
            if why is None:
                raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
            db = _open_read_only(path, found)
        journal = cls(db, path, clock)
        journal._file = file_id(path)
        if not why and marks:
            why = journal._mark_open()
        journal.read_only = why
        if why:
            log.warning("journal %s is read-only (%s): new moves are refused", path, why)
        return journal

    @classmethod
    def _open_for_reading(cls, path: Path, clock: Callable[[], float]) -> SqliteJournal:
        """Read-only, never creating or writing any file beside the journal
        (companion.journal.reading; damage: JournalError); a lost WAL is said in ``loss``, as
        is a WAL that does not belong to the file (not applied)."""
        if not path.exists():
            raise JournalError(f"no journal at {path} (no games played yet?)")
        refuse_foreign(path)
        _check_identity_quietly(path)
        try:
            db, tmp, loss = open_for_reading(path)
            db = journal_db.as_current(db)  # an older journal or an empty file: read alike
        except sqlite3.Error as e:
            raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
        journal = cls(db, path, clock)
        journal._tmp = tmp
        journal.read_only = "opened for reading"
        try:
            journal.loss = loss or journal._recorded_loss()
        except BaseException:
            journal.close()
            raise
        return journal

    def _mark_open(self) -> str | None:
        """Record that a writer has the journal open (a stop before ``close`` is unclean) and
        checkpoint, so the main file itself says so. Returns why the journal must be
        read-only ('disk full'), or None."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '0')")
            self._db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?)", (self._now(),)
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as e:
            rollback(self._db)
            reason = describe_error(e)
            if reason in ("disk full", "journal is read-only", "disk I/O error"):
                return reason
            raise JournalError(f"cannot open journal {self.path}: {reason}") from None
        with suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._marks = True
        self._wal = file_id(self.path.with_name(self.path.name + "-wal"))
        return None

    def close(self) -> None:
        """A clean stop: marked, the WAL checkpointed and removed (rollback mode), so the next
        open need not check the whole file."""
        with self._lock:
            if self._marks and not self.read_only and not self.damage_seen:
                db = self._db
                try:  # leaving WAL mode needs every other connection gone: only then is
                    # the stop clean (a process still writing keeps the next start careful)
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    mode = db.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
                    if str(mode).lower() == "delete":
                        db.execute("BEGIN IMMEDIATE")
                        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '1')")
                        db.execute("COMMIT")
                except sqlite3.Error:
                    rollback(db)
            self._marks = False
            self._db.close()
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
                self._tmp = None
            if self.lock is not None:
                self.lock.release()
                self.lock = None

    def __enter__(self) -> SqliteJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _now(self) -> str:
        return iso(round(self._clock() * 1000)) or ""

    def _try_writable_again(self) -> None:
        """Opened read-only because the disk was full: once there is room, carry on."""
        if self.read_only != "disk full":
            return
        try:
            db = journal_db.open_rw(self.path)
        except (sqlite3.Error, JournalError):
            return
        old, self._db = self._db, db
        if self._mark_open() is None:
            old.close()
            self.read_only = None
        else:
            self._db = old
            db.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many writes in one transaction (one sync), each still all or nothing (a savepoint):
        a bulk import. JournalError when the whole batch cannot be committed."""
        with self._lock:
            self._try_writable_again()
            if self.read_only:
                raise JournalError("journal is read-only")
            self._check_file()
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                self._in_batch = True
                yield
                db.execute("COMMIT")
            except sqlite3.Error as e:
                rollback(db)
                raise JournalError(describe_error(e)) from e
            except BaseException:
                rollback(db)
                raise
            finally:
                self._in_batch = False

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One durable transaction; any failure rolls back and raises JournalError. Inside
        ``batch`` a savepoint instead."""
        if self._in_batch:
            with self._savepoint() as db:
                yield db
            return
        with self._lock:
            self._try_writable_again()
            if self.read_only:
                raise JournalError(
                    "disk full" if self.read_only == "disk full" else "journal is read-only"
                )
            self._check_file()
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except sqlite3.Error as e:
                rollback(db)
                self.damage_seen = self.damage_seen or is_damage(e)
                raise JournalError(describe_error(e)) from e
            except BaseException:
                rollback(db)
                raise

    @contextmanager
    def _savepoint(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._db
            db.execute("SAVEPOINT one")
            try:
                yield db
                db.execute("RELEASE one")
            except BaseException as e:
                with suppress(sqlite3.Error):
                    db.execute("ROLLBACK TO one")
                    db.execute("RELEASE one")
                if isinstance(e, sqlite3.Error):
                    raise JournalError(describe_error(e)) from e
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as e:
                self.damage_seen = self.damage_seen or is_damage(e)
                raise JournalError(describe_error(e)) from e

    def _row(self, db: sqlite3.Connection, game_id: int) -> tuple[str, int]:
        row = db.execute("SELECT status, ply FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id} is not in the journal")
        return row[0], row[1]

    def _tags(self, db: sqlite3.Connection, game_id: int) -> dict[str, str]:
        row = db.execute("SELECT detail FROM games WHERE id = ?", (game_id,)).fetchone()
        detail = from_json(row[0], None) if row else None
        tags = detail.get(TAGS_KEY) if isinstance(detail, dict) else None
        return tags if isinstance(tags, dict) else {}

    def _in_progress(
        self, db: sqlite3.Connection, game_id: int, allow: str = ""
    ) -> tuple[str, int]:
        """The game's status and live move count; GameClosed if it was ended elsewhere
        (``binaryon abandon``, an import with --resume) unless its status is ``allow``."""
        status, ply = self._row(db, game_id)
        if status not in (IN_PROGRESS, allow):
            raise GameClosed(f"game {game_id} was {status} elsewhere")
        return status, ply

    def _events(self, db: sqlite3.Connection, game_id: int) -> list[tuple]:
        cut = db.execute("SELECT cut_from, cut_to FROM games WHERE id = ?", (game_id,)).fetchone()
        lo, hi = (cut[0], cut[1]) if cut and cut[0] is not None else (0, -1)
        clock = ", clock" if self._has_clock(db) else ""  # a journal read as v3 wrote it
        if self._has_masked(db):  # version 5: a remote game's revealed names in place
            query = EVENTS_REVEALED.format(clock.replace("clock", "e.clock"))
            return db.execute(query, (game_id, lo, hi)).fetchall()
        return db.execute(_EVENTS.format(clock), (game_id, lo, hi)).fetchall()

    def _has_clock(self, db: sqlite3.Connection) -> bool:
        """Does the file have the clock's columns and tables (version 4)? A journal opened
        for reading keeps its older version; a writable one was upgraded at open."""
        if self._clock_schema is None:
            cols = {r[1] for r in db.execute("PRAGMA table_info(events)").fetchall()}
            self._clock_schema = "clock" in cols
        return self._clock_schema

    def _live(self, db: sqlite3.Connection, game_id: int) -> tuple[list[MoveEntry], int]:
        try:
            return fold(self._events(db, game_id))
        except ValueError as e:
            raise JournalError(f"game {game_id}: {e}") from None

    # --- the Journal protocol ---
    def begin(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        time_control: str | None = None,
    ) -> int:
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, started, status, time_control)"
                " VALUES (?,?,?,?,?,?)",
                (game, to_json(options), to_json(players), self._now(), IN_PROGRESS, time_control),
            )
            game_id = int(cur.lastrowid or 0)
            self._close_others(db, game_id)
        return game_id

    def _close_others(self, db: sqlite3.Connection, keep: int) -> None:
        """Only one game is in progress: when one begins, any other left so by a crash is
        closed, as finished if its moves end the game (the crash came before its finish was
        recorded), else as abandoned."""
        rows = db.execute(
            "SELECT id, game, options FROM games WHERE status = ? AND id != ?", (IN_PROGRESS, keep)
        ).fetchall()
        now = self._now()
        for gid, game, options in rows:
            try:
                moves, _ = self._live(db, gid)
            except JournalError:
                moves = []
            masked = self._masked(db, gid)
            outcome = _outcome(game, from_json(options, {}), [m.name for m in moves], masked)
            kind = "finish" if outcome else "abandon"
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
                (gid, kind, len(moves), now),
            )
            db.execute(
                "UPDATE games SET status = ?, ended = ?, result = ?, summary = ?, detail = ?,"
                " note = ? WHERE id = ?",
                (
                    FINISHED if outcome else ABANDONED,
                    now,
                    (outcome.winner or "draw") if outcome else None,
                    outcome.summary if outcome else None,
                    detail_json(outcome.detail if outcome else None, self._tags(db, gid)),
                    "closed when the next game began",
                    gid,
                ),
            )

    def commit_turn(
        self,
        game_id: int,
        first_ply: int,
        moves: Sequence[MoveEntry],
        outcome: Outcome | None = None,
    ) -> None:
        """One press in one transaction: ``moves`` at plies first_ply, first_ply + 1, ... (a
        move at a ply already played replaces it and what follows) and, with ``outcome``,
        the finish. The cost does not depend on the game's length."""
        with self._write() as db:
            _, ply = self._in_progress(db, game_id)
            if not 0 <= first_ply <= ply:
                raise JournalError(f"move {first_ply + 1} out of order (journal has {ply})")
            now = self._now()
            db.executemany(
                "INSERT INTO events (game_id, kind, ply, move, at, player, public, clock)"
                " VALUES (?, 'move', ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, first_ply + i, m.name, now, m.player, _secret(m), _clock(m))
                    for i, m in enumerate(moves)
                ],
            )
            ply = first_ply + len(moves)
            last_clock = _clock(moves[-1]) if moves else None
            if last_clock is not None:  # the clock row follows the move, in its transaction
                self._keep_clock(db, game_id, ply, last_clock, now)
            if outcome is None:
                db.execute("UPDATE games SET ply = ? WHERE id = ?", (ply, game_id))
                return
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'finish', ?, ?)",
                (game_id, ply, now),
            )
            self._set_finished(db, game_id, outcome, now, ply)

    # --- the game clock ---
    def _keep_clock(
        self, db: sqlite3.Connection, game_id: int, ply: int, state: str, now: str
    ) -> None:
        db.execute(
            "INSERT INTO clocks (game_id, ply, state, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, state = excluded.state,"
            " at = excluded.at",
            (game_id, ply, state, now),
        )

    def clock_tick(self, game_id: int, ply: int, state: dict[str, Any]) -> None:
        """The running clock's state, in its one row (no new row, no move): what a restart
        after a power cut charges the player on move up to. GameClosed once the game ended
        elsewhere."""
        with self._write() as db:
            self._in_progress(db, game_id)
            self._keep_clock(db, game_id, ply, to_json(state), self._now())

    def clock_event(
        self,
        game_id: int,
        ply: int,
        kind: str,
        state: dict[str, Any],
        player: str | None = None,
        seconds: float | None = None,
        why: str | None = None,
    ) -> None:
        """A pause, a resume, time added or a flag fall, with the clock after it (its row
        too), in one transaction. A flag may be recorded as the game finishes on time."""
        with self._write() as db:
            self._in_progress(db, game_id, allow=FINISHED)
            now, snap = self._now(), to_json(state)
            db.execute(
                "INSERT INTO clock_events (game_id, kind, ply, player, seconds, why, state, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, ply, player, seconds, why, snap, now),
            )
            self._keep_clock(db, game_id, ply, snap, now)

    def _set_finished(
        self, db: sqlite3.Connection, game_id: int, outcome: Outcome, now: str, ply: int
    ) -> None:
        db.execute(
            "UPDATE games SET status = ?, ended = ?, result = ?, summary = ?, detail = ?,"
            " ply = ? WHERE id = ?",
            (
                FINISHED,
                now,
                outcome.winner or "draw",
                outcome.summary,
                detail_json(outcome.detail, self._tags(db, game_id)),
                ply,
                game_id,
            ),
        )

    def takeback(self, game_id: int, to_ply: int) -> None:
        to_ply = max(0, to_ply)
        with self._write() as db:
            status, ply = self._in_progress(db, game_id, allow=FINISHED)
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'takeback', ?, ?)",
                (game_id, to_ply, self._now()),
            )
            db.execute(
                "UPDATE games SET ply = ?, takebacks = takebacks + 1 WHERE id = ?",
                (min(ply, to_ply), game_id),
            )
            if status == FINISHED:  # taking back the last move reopens the game
                db.execute(
                    "UPDATE games SET status = ?, ended = NULL, result = NULL, summary = NULL,"
                    " detail = ? WHERE id = ?",
                    (IN_PROGRESS, detail_json(None, self._tags(db, game_id)), game_id),
                )

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            closed = self._close_event(db, game_id, "abandon", ABANDONED)
            if closed is None:
                return  # already abandoned: nothing to do
            db.execute(
                "UPDATE games SET status = ?, ended = ? WHERE id = ?",
                (ABANDONED, closed[0], game_id),
            )

    def _close_event(self, db, game_id: int, kind: str, status: str) -> tuple[str, int] | None:
        """Record the event that ends a game (finish or abandon); (its time, live moves), or
        None when the game already has that status. GameClosed when it ended the other way."""
        was, ply = self._in_progress(db, game_id, allow=status)
        if was == status:
            return None
        now = self._now()
        db.execute(
            "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
            (game_id, kind, ply, now),
        )
        return now, ply

    def pause(self, game_id: int) -> bool:
        """Put the game in progress aside, whole, to be taken up again (``resume``); one with
        no moves has nothing to keep and is abandoned. True when paused."""
        with self._write() as db:
            return self._pause(db, game_id)

    def _pause(self, db: sqlite3.Connection, game_id: int) -> bool:
        _, ply = self._in_progress(db, game_id)
        closed = self._close_event(db, game_id, "abandon", ABANDONED)
        assert closed is not None  # it was in progress
        note = db.execute("SELECT note FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        db.execute(
            "UPDATE games SET status = ?, ended = ?, note = ? WHERE id = ?",
            (ABANDONED, closed[0], paused_note(note) if ply else note, game_id),
        )
        return ply > 0

    def resume(self, game_id: int) -> int | None:
        """Take a paused game up again as the game in progress. The one in progress is paused
        (abandoned if it has no moves) in the same transaction. Returns that game's id, or
        None; JournalError (one line) when ``game_id`` is not a paused game."""
        with self._write() as db:
            row = db.execute(
                f"SELECT note FROM games WHERE id = ? AND {PAUSED_WHERE}", (game_id,)
            ).fetchone()
            if row is None:
                status = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
                if status is None:
                    raise JournalError(f"no game {game_id} in the journal")
                raise JournalError(f"game {game_id} is {status[0].replace('_', ' ')}, not paused")
            current = db.execute(
                "SELECT id FROM games WHERE status = ? AND id != ?", (IN_PROGRESS, game_id)
            ).fetchall()
            for (other,) in current:
                self._pause(db, other)
            db.execute(
                "UPDATE games SET status = ?, ended = NULL, note = ? WHERE id = ?",
                (IN_PROGRESS, unpaused_note(row[0]), game_id),
            )
        return current[-1][0] if current else None

    def paused(self, limit: int = 20) -> list[GameEntry]:
        """The paused games, latest first (their move counts, not their moves)."""
        with self._read() as db:
            rows = db.execute(
                f"SELECT {LISTED_COLUMNS} FROM games WHERE {PAUSED_WHERE} ORDER BY id DESC LIMIT ?",
                (max(0, limit),),
            ).fetchall()
        return [entry_from_row(r) for r in rows]

    def current(self) -> SavedGame | None:
        with self._read() as db:
            row = db.execute(
                "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (IN_PROGRESS,)
            ).fetchone()
        if row is None:
            return None
        entry = self.load(row[0])
        if entry is None:  # the index names a game the table does not hold
            self.damage_seen = True
            raise JournalError(f"game {row[0]}: its row is unreadable")
        return entry.saved()

    # --- the game in progress, checked at start ---


def _secret(move: Any) -> str | None:
    """The public name to keep: only when it differs from the full one (a secret)."""
    public = getattr(move, "public", None)
    return public if public is not None and public != move.name else None


def _clock(move: Any) -> str | None:
    """A move's clock snapshot as the journal keeps it (JSON), or None."""
    clock = getattr(move, "clock", None)
    return to_json(clock) if clock is not None else None


def _outcome(
    game: str, options: dict[str, Any], moves: list[str], masked: Masked | None = None
) -> Outcome | None:
    """The result if replaying ``moves`` ends the game; None if not (or not replayable). A
    remote game with secrets replays as this board knew it (``masked``)."""
    from companion.games import get_spec

    try:
        spec = get_spec(game)
        if masked is None:
            state = spec.replay(moves, **options)
        else:
            resolved = spec.resolve(options)
            start = spec.remote().start(spec, resolved, masked.seat, masked.told)
            state = start
            for step in spec.steps_from(start, moves):
                state = step.after
    except ValueError:
        return None
    return state.outcome() if state.is_over() else None
