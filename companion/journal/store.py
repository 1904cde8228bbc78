"""The SQLite journal: every game, every move, every takeback, safe across power cuts.

Durability: WAL with ``synchronous=FULL``, one transaction per call, committed before the call
returns, so a move the session shows as accepted is on disk; ``commit_turn`` records a whole
press (the move, the passes it forced, the finish) in one transaction. History is
append-only: moves, takebacks, finishes and abandons are rows in ``events`` (triggers refuse
UPDATE and DELETE). The ``games`` row carries the header, the status (a paused game is
abandoned with the note 'paused', see ``pause``) and the live move count, so a move costs the
same whatever the game's length.

A clean stop (``close``) records itself, checkpoints the WAL and leaves the file in rollback
mode, so the next open checks only the header; after an unclean stop companion.journal.recovery
checks the whole file (and a damaged row in the game in progress is cut there, a copy kept). A
file that is not a binaryon journal is refused and left untouched; one that cannot be written
(read-only file system, no permission, disk full) opens read-only. Write failures raise
JournalError with a one-line reason; a write to a game ended elsewhere raises GameClosed.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import companion.journal.db as journal_db  # its open_rw looked up at each open
from companion.journal import reads
from companion.journal.api import GameClosed, JournalError, RepairFailed
from companion.journal.db import (
    ACCEPT_HINT,
    describe_error,
    full_error,
    is_damage,
    memory_db,
    open_ro,
    read_only_error,
    rollback,
    warn,
)
from companion.journal.files import (
    JournalLock,
    acquire_lock,
    check_journal_path,
    check_one_name,
    clean_mark,
    closed_cleanly,
    copy_name,
    file_id,
    has_data,
    header_mode,
    holder,
    journal_identity,
    lock_path,
    read_only_place,
    refuse_foreign,
    roll_back_hot_journal,
    sidecar,
    stale_line,
    stale_wal,
)
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    PAUSED_WHERE,
    STATUSES,
    ClockEvent,
    Dispute,
    GameEntry,
    Masked,
    MoveEntry,
    RecoveryReport,
    SavedGame,
    entry_from_row,
    fold,
    from_json,
    iso,
    paused_note,
    result_columns,
    to_json,
    unpaused_note,
)

if TYPE_CHECKING:
    from companion.games.base import Outcome


P = ParamSpec("P")
T = TypeVar("T")

# meta key of a copy made by ``backup``: a journal that has it was restored from a backup
BACKUP_MARK = "backup"
# keys the journal itself uses; set_meta refuses them
OWN_KEYS = ("clean", "opened", "lost")


def _open_for_reading(path: Path) -> tuple[sqlite3.Connection, Path | None, str | None]:
    """(a read-only connection, the private folder to remove at close or None, what the
    reader must be told: a lost WAL, or a WAL that does not belong to the file).

    SQLite's ``mode=ro`` still rewrites the ``-shm`` index of a WAL-mode file and creates a
    ``-wal`` when there is none, so it is used only where that is SQLite's ordinary sharing:
    on the live files of a running daemon. A cleanly closed journal is read in place; after
    an unclean stop a private copy of the main file and its WAL is checked and read (a copy
    in memory when there is no room for it: companion.journal.recovery.read_a_copy)."""
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
        beside = any(sidecar(path, s).exists() for s in ("-wal", "-shm", "-journal"))
        return open_ro(path, immutable=beside or header_mode(path) == 2), None, None
    from companion.journal.recovery import read_a_copy

    return read_a_copy(path)


def _reads_well(path: Path, clock: Callable[[], float]) -> bool:
    """What a start reads (the game in progress) reads without damage, through a connection
    that writes nothing (the bytes stay as found for a copy)."""
    try:
        journal = SqliteJournal(journal_db.as_current(open_ro(path)), path, clock)
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
            state = spec.remote().start(spec, spec.resolve(options), masked.seat, masked.told)
            for step in spec.steps_from(state, moves):
                state = step.after
    except ValueError:
        return None
    return state.outcome() if state.is_over() else None


def _read_by(
    read: Callable[Concatenate[sqlite3.Connection, P], T],
) -> Callable[Concatenate[SqliteJournal, P], T]:
    """The journal's method that is ``read`` on its connection, under its lock (damage seen
    and sqlite errors as JournalError)."""

    def method(self: SqliteJournal, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with self._read() as db:
            return read(db, *args, **kwargs)

    method.__name__ = read.__name__
    method.__doc__ = read.__doc__
    return method


class SqliteJournal:
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
        """Open (creating it if needed) the journal at ``path``. After a clean stop only the
        header is checked, else the whole file (module docstring); ``recover=False``
        (command-line tools, which must not move a file a running daemon holds) raises
        JournalError for damage instead of repairing it. A file the daemon holds (its lock)
        is live: not checked here. ``read_only=True`` (history, export) never writes the file
        at all; a journal that cannot be written opens read-only (``read_only`` says why).
        NotAJournal (untouched) for another file; JournalError for any other failure.
        ``lock=True`` (the daemon) takes the journal's lock first, held until ``close``.
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
        clean_mark(path, identify=True)  # another program's database: NotAJournal
        live = holder(path)  # the daemon's: its file, checked by it
        stale = None
        if live is None and stale_wal(path):  # before any connection could apply it
            if not recover:
                raise JournalError(
                    stale_line(path) + ": start the companion to set it aside (a copy is kept)"
                )
            from companion.journal.recovery import set_aside_stale

            try:
                stale = set_aside_stale(path, clock)
            except RepairFailed as e:  # no room to keep it: the main file alone, read-only
                warn(str(e))
                return cls._damaged_read_only(path, clock, e, main_only=True)
            copies = ", ".join(str(c) for c in stale.copies)
            warn("%s; kept as %s", stale_line(path), copies)
        if live is None:
            roll_back_hot_journal(path)
        report, found = None, {}
        try:
            fast = live is not None or not has_data(path) or closed_cleanly(path)
            # force: damage the header check cannot see (a page garbled after a clean stop)
            force = fast and live is None and has_data(path) and not _reads_well(path, clock)
            if not fast or force:  # the deep check, imported only then
                from companion.journal.recovery import deep_check

                report, found = deep_check(path, recover, clock, force)
        except RepairFailed as e:  # the daemon starts read-only: never a restart loop
            warn(str(e))
            return cls._damaged_read_only(path, clock, e)
        journal = cls._connect(path, clock, found, marks=live is None)
        journal.recovery = report or stale
        if report is not None and report.loss and not journal.read_only:
            journal._keep_loss(report.line())
        journal.loss = journal._recorded_loss()
        if journal.loss and not (report is not None and report.loss):
            warn("%s", journal.loss)
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
        from companion.journal.recovery import open_read_only

        try:
            if main_only:
                db = journal_db.as_current(open_ro(path, immutable=True))
            else:
                db = open_read_only(path, {})
        except (JournalError, sqlite3.Error):  # not even readable: empty, in memory only
            db = journal_db.as_current(memory_db(b""))
        journal = cls(db, path, clock)
        journal.damage_seen = True
        what = "stale WAL" if main_only else "journal damaged"
        journal.read_only = f"{what}, disk full" if e.full else what
        return journal

    @classmethod
    def _connect(
        cls, path: Path, clock: Callable[[], float], found: dict[str, bytes], marks: bool
    ) -> SqliteJournal:
        why = read_only_place(path)
        try:  # sqlite opens a file it may not write read-only, if it can
            db = journal_db.open_rw(path)
        except sqlite3.Error as e:
            why = why or read_only_error(e) or full_error(e, path)
            if why is None:
                raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
            from companion.journal.recovery import open_read_only

            db = open_read_only(path, found)
        journal = cls(db, path, clock)
        journal._file = file_id(path)
        if not why and marks:
            why = journal._mark_open()
        journal.read_only = why
        if why:
            warn("journal %s is read-only (%s): new moves are refused", path, why)
        return journal

    @classmethod
    def _open_for_reading(cls, path: Path, clock: Callable[[], float]) -> SqliteJournal:
        """Read-only, never creating or writing any file beside the journal (damage:
        JournalError); a lost WAL is said in ``loss``, as is a WAL that does not belong to
        the file (not applied)."""
        if not path.exists():
            raise JournalError(f"no journal at {path} (no games played yet?)")
        refuse_foreign(path)
        clean_mark(path, identify=True)  # another program's database: NotAJournal
        try:
            db, tmp, loss = _open_for_reading(path)
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
            self._db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '0'), ('opened', ?)",
                (self._now(),),
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
        self._wal = file_id(sidecar(self.path, "-wal"))
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
                import shutil

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
        with self._write(refused="journal is read-only"):
            self._in_batch = True
            try:
                yield
            finally:
                self._in_batch = False

    @contextmanager
    def _write(self, refused: str = "") -> Iterator[sqlite3.Connection]:
        """One durable transaction; any failure rolls back and raises JournalError (when
        read-only: ``refused``, else 'disk full' or 'journal is read-only'). Inside ``batch``
        a savepoint instead."""
        if self._in_batch:
            with self._savepoint() as db:
                yield db
            return
        with self._lock:
            self._try_writable_again()
            if self.read_only:
                full = self.read_only == "disk full"
                raise JournalError(refused or ("disk full" if full else "journal is read-only"))
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

    def _in_progress(
        self, db: sqlite3.Connection, game_id: int, allow: str = ""
    ) -> tuple[str, int]:
        """The game's status and live move count; GameClosed if it was ended elsewhere
        (``binaryon abandon``, an import with --resume) unless its status is ``allow``."""
        row = db.execute("SELECT status, ply FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id} is not in the journal")
        if row[0] not in (IN_PROGRESS, allow):
            raise GameClosed(f"game {game_id} was {row[0]} elsewhere")
        return row[0], row[1]

    def _live(self, db: sqlite3.Connection, game_id: int) -> tuple[list[MoveEntry], int]:
        try:
            return fold(reads.event_rows(db, game_id))
        except ValueError as e:
            raise JournalError(f"game {game_id}: {e}") from None

    def begin(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        time_control: str | None = None,
    ) -> int:
        """(api.Journal) A game imported with no moves yet."""
        return self.import_game(game, options, players, (), time_control=time_control)

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
            masked = reads.masked_of(db, gid)
            outcome = _outcome(game, from_json(options, {}), [m.name for m in moves], masked)
            self._end(db, gid, len(moves), outcome, now, "closed when the next game began")

    def _end(
        self,
        db: sqlite3.Connection,
        game_id: int,
        ply: int,
        outcome: Outcome | None,
        now: str,
        note: str | None = None,
    ) -> None:
        """The game's end at ``ply`` live moves, its event and its row: finished with
        ``outcome``, abandoned without one (``note``: said why, in place of its note)."""
        db.execute(
            "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
            (game_id, "abandon" if outcome is None else "finish", ply, now),
        )
        db.execute(
            "UPDATE games SET status = ?, ended = ?, result = ?, summary = ?, detail = ?,"
            " note = COALESCE(?, note) WHERE id = ?",
            (
                ABANDONED if outcome is None else FINISHED,
                now,
                *result_columns(outcome, reads.tags_of(db, game_id)),
                note,
                game_id,
            ),
        )

    def commit_turn(
        self,
        game_id: int,
        first_ply: int,
        moves: Sequence[MoveEntry],
        outcome: Outcome | None = None,
    ) -> None:
        """(api.Journal) A move at a ply already played replaces it and what follows; the cost
        does not depend on the game's length."""
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
            db.execute("UPDATE games SET ply = ? WHERE id = ?", (ply, game_id))
            if outcome is not None:
                self._end(db, game_id, ply, outcome, now)

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
        """(api.Journal) What a restart after a power cut charges the player on move up to."""
        with self._write() as db:
            self._in_progress(db, game_id)
            self._keep_clock(db, game_id, ply, to_json(state), self._now())

    def clock_event(self, game_id: int, event: ClockEvent) -> None:
        """(api.Journal) A flag may be recorded as the game finishes on time."""
        with self._write() as db:
            self._in_progress(db, game_id, allow=FINISHED)
            now, snap = self._now(), to_json(event.state)
            db.execute(
                "INSERT INTO clock_events (game_id, kind, ply, player, seconds, why, state, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, event.kind, event.ply, event.player, event.seconds, event.why, snap, now),
            )
            self._keep_clock(db, game_id, event.ply, snap, now)

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
                    "UPDATE games SET status = ?, ended = NULL, result = ?, summary = ?,"
                    " detail = ? WHERE id = ?",
                    (IN_PROGRESS, *result_columns(None, reads.tags_of(db, game_id)), game_id),
                )

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            status, ply = self._in_progress(db, game_id, allow=ABANDONED)
            if status != ABANDONED:  # already abandoned: nothing to do
                self._end(db, game_id, ply, None, self._now())

    def pause(self, game_id: int) -> bool:
        with self._write() as db:
            return self._pause(db, game_id)

    def _pause(self, db: sqlite3.Connection, game_id: int) -> bool:
        _, ply = self._in_progress(db, game_id)
        self._end(db, game_id, ply, None, self._now())
        if ply:  # one with no moves has nothing to keep: abandoned
            note = db.execute("SELECT note FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            db.execute("UPDATE games SET note = ? WHERE id = ?", (paused_note(note), game_id))
        return ply > 0

    def resume(self, game_id: int) -> int | None:
        """(api.Journal) In one transaction; JournalError (one line) for a game not paused."""
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

    def _recorded_loss(self) -> str | None:
        """The loss kept in the journal's meta table by the start that found it."""
        with suppress(sqlite3.Error):
            row = self._db.execute("SELECT value FROM meta WHERE key = 'lost'").fetchone()
            return f"{row[0]} ({ACCEPT_HINT})" if row and row[0] else None
        return None

    def _keep_loss(self, line: str) -> None:
        """Record a loss in the journal itself, so every command says it until accepted."""
        try:
            with self._write() as db:
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('lost', ?)", (line,))
        except JournalError as e:
            warn("journal %s: the loss could not be recorded: %s", self.path, e)

    def accept_loss(self) -> str | None:
        """The user has dealt with a lost WAL: stop saying it. Returns what was said."""
        was = self._recorded_loss()
        if was is not None:
            with self._write() as db:
                db.execute("DELETE FROM meta WHERE key = 'lost'")
        self.loss = None
        return was

    def _check_file(self) -> None:
        """JournalError when the journal's name no longer leads to the file this connection
        writes (removed or replaced by another program): a move written now would be lost.
        A WAL removed or replaced under the writer (SQLite goes on writing the removed one,
        lost at the next crash) is checkpointed into the journal and made anew."""
        if self._file is not None and file_id(self.path) != self._file:
            raise JournalError(
                f"the journal file {self.path} was removed or replaced by another program: "
                "moves cannot be saved (restart the companion)"
            )
        wal = sidecar(self.path, "-wal")
        if self._wal is not None and file_id(wal) != self._wal:
            self._new_wal(wal)

    def _new_wal(self, wal: Path) -> None:
        db = self._db
        try:
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:
                raise sqlite3.OperationalError("database is locked")
            db.execute("PRAGMA journal_mode = DELETE").fetchone()
            db.execute("PRAGMA journal_mode = WAL").fetchone()
        except sqlite3.Error as e:
            raise JournalError(
                f"the journal's WAL {wal} was removed or replaced by another program and "
                f"cannot be made anew ({describe_error(e)}): restart the companion"
            ) from None
        self._wal = file_id(wal)
        warn(
            "journal %s: its WAL was removed or replaced by another program; everything in it "
            "was saved into the journal and a new WAL made",
            self.path,
        )

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the journal at ``target`` (SQLite's online backup, safe while
        the daemon writes), marked as cleanly closed and as a backup (``BACKUP_MARK``: put
        back as the journal, it is known to be restored), in rollback mode. Written beside the
        target and renamed over it, so a failed backup leaves no half copy."""
        target = Path(target)
        tmp = target.with_name(f".{target.name}.part-{os.getpid()}")
        for p in (tmp, sidecar(tmp, "-journal")):
            p.unlink(missing_ok=True)
        try:
            dest = sqlite3.connect(tmp, isolation_level=None)
            try:
                with self._read() as db:
                    db.backup(dest)
                dest.execute("PRAGMA journal_mode = DELETE")
                # a journal started from this copy knows it was restored (docs/club.md)
                dest.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '1'), (?, ?)",
                    (BACKUP_MARK, str(int(time.time()))),
                )
                dest.execute("PRAGMA synchronous = FULL")
            finally:
                dest.close()
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except sqlite3.Error as e:
            tmp.unlink(missing_ok=True)
            raise JournalError(f"backup to {target} failed: {describe_error(e)}") from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def import_game(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        moves: Sequence[tuple[Any, ...]],
        *,
        started: int | None = None,
        ended: int | None = None,
        status: str = IN_PROGRESS,
        outcome: Outcome | None = None,
        note: str | None = None,
        tags: dict[str, str] | None = None,
        digest: str | None = None,
        time_control: str | None = None,
        clock_events: Sequence[tuple[Any, ...]] = (),
    ) -> int:
        """Add a whole game (already validated) in one transaction: all of it or nothing; by
        default one in progress that starts now (``begin``).
        ``moves``: (name, at) or (name, at, player, public name when it holds a secret), and
        for a game with a clock (``time_control``, as typed) its snapshot after the move;
        ``clock_events``: (ply, kind, player, seconds, why) of the clock's own events."""
        if status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        now = self._now()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, started, ended, status, result,"
                " summary, detail, note, ply, digest, time_control)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game,
                    to_json(options),
                    to_json(players),
                    iso(started) or now,
                    iso(ended) if status != IN_PROGRESS else None,
                    status,
                    *result_columns(outcome, tags or {}),
                    note,
                    len(moves),
                    digest,
                    time_control,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(  # (name, at[, player, public name when secret[, clock snapshot]])
                "INSERT INTO events (game_id, kind, ply, move, at, player, public, clock)"
                " VALUES (?, 'move', ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        i,
                        m[0],
                        iso(m[1]),
                        *(tuple(m[2:4]) + (None, None))[:2],
                        to_json(m[4]) if len(m) > 4 and m[4] is not None else None,
                    )
                    for i, m in enumerate(moves)
                ],  # fmt: skip
            )
            db.executemany(
                "INSERT INTO clock_events (game_id, kind, ply, player, seconds, why, state)"
                " VALUES (?, ?, ?, ?, ?, ?, NULL)",
                [
                    (game_id, kind, ply, who, secs, why)
                    for ply, kind, who, secs, why in clock_events
                ],
            )
            if status != IN_PROGRESS:
                kind = "finish" if status == FINISHED else "abandon"
                db.execute(
                    "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
                    (game_id, kind, len(moves), iso(ended) or now),
                )
            else:
                self._close_others(db, game_id)
        return game_id

    def keep_masked(self, game_id: int, masked: Masked) -> None:
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO masked (game_id, seat, told) VALUES (?, ?, ?)",
                (game_id, masked.seat, to_json(masked.told)),
            )

    def reveal(self, game_id: int, moves: list[MoveEntry], outcome: Outcome | None) -> None:
        with self._write() as db:
            db.executemany(
                "INSERT OR REPLACE INTO revealed (game_id, ply, move, player, public)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, m.ply, m.name, m.player, m.public if m.public != m.name else None)
                    for m in moves
                ],
            )
            if outcome is not None:
                db.execute(
                    "UPDATE games SET result = ?, summary = ?, detail = ? WHERE id = ?",
                    (*result_columns(outcome, reads.tags_of(db, game_id)), game_id),
                )

    def dispute(self, game_id: int, dispute: Dispute) -> None:
        with self._write() as db:
            was = reads.dispute_of(db, game_id)
            disputed = was is not None and was.status == reads.DISPUTED
            if disputed and dispute.status != reads.DISPUTED:
                return  # a lie caught stays the game's story
            value = {"status": dispute.status, "why": dispute.why, "evidence": dispute.evidence,
                     "at": self._now()}  # fmt: skip
            db.execute("UPDATE games SET dispute = ? WHERE id = ?", (to_json(value), game_id))

    def meta(self, key: str) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, values: dict[str, str | None]) -> None:
        if any(key in OWN_KEYS for key in values):
            raise ValueError(f"meta keys {', '.join(OWN_KEYS)} are the journal's own")
        with self._write() as db:
            gone = [(key,) for key, value in values.items() if value is None]
            db.executemany("DELETE FROM meta WHERE key = ?", gone)
            kept = [(key, value) for key, value in values.items() if value is not None]
            db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", kept)

    def _salvage_live_games(self) -> None:
        """A damaged row in a game in progress (a move number that cannot follow, a move that
        does not replay, text that is not UTF-8) would stop every start: the game is cut
        just before it, a copy of the journal kept first, and the loss said."""
        try:
            with self._read() as db:
                ids = [
                    r[0]
                    for r in db.execute("SELECT id FROM games WHERE status = ?", (IN_PROGRESS,))
                ]
            for gid in ids:
                self._salvage_game(gid)
        except JournalError as e:
            warn("journal %s: the game in progress could not be checked: %s", self.path, e)

    def _salvage_game(self, game_id: int) -> None:
        from companion.games import get_spec
        from companion.journal.recovery import first_state, replay

        with self._read() as db:
            found = db.execute(
                "SELECT game, options, cut_from, cut_to FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if found is None:  # the index names a game the table does not hold
                self.damage_seen = True
                raise JournalError(f"game {game_id}: its row is unreadable")
            game, options, lo, hi = found if found[2] is not None else (*found[:2], 0, -1)
            rows = db.execute(
                "SELECT id, kind, ply, move, public FROM events WHERE game_id = ?"
                " AND id NOT BETWEEN ? AND ? ORDER BY id",
                (game_id, lo, hi),
            ).fetchall()
            masked = reads.masked_of(db, game_id)
        try:
            spec = get_spec(game)
            resolved = spec.resolve(from_json(options, {}))
            seat, told = (masked.seat, masked.told) if masked else (None, None)
            state = first_state(spec, resolved, seat, told)
        except ValueError:
            return  # an unknown game: nothing to replay it with
        cut, states, error = replay(state, [row[1:4] for row in rows])
        if cut is None:
            return
        eid, _, ply, move, public = rows[cut]
        if error is None:
            why = f"move {ply + 1} follows move {len(states) - 1}"
        else:
            why = _not_replayed(ply, move, public, error)
        kept = len(states) - 1
        copy: Path | None = copy_name(self.path, "corrupt", self._clock)
        try:
            self.backup(copy)
        except (JournalError, OSError) as e:
            warn("journal %s: no copy kept before the salvage: %s", self.path, e)
            copy = None
        with self._write() as db:
            last = db.execute(
                "SELECT max(id) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            note = f"recovered: a damaged row ({why}); moves after the first {kept} lost"
            db.execute(
                "UPDATE games SET cut_from = ?, cut_to = ?, ply = ?, note = ? WHERE id = ?",
                (eid, last, kept, note, game_id),
            )
        report = RecoveryReport(self.path, f"game {game_id}: {why}", [copy] if copy else [])
        report.lost.append(f"game {game_id}: moves after the first {kept}")
        report.games = 1
        self.recovery = report
        warn(report.line())

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version`` (this connection's own commits leave it)."""
        with self._read() as db:
            return db.execute("PRAGMA data_version").fetchone()[0]

    def last_id(self) -> int | None:
        with self._read() as db:
            return db.execute("SELECT max(id) FROM games").fetchone()[0]

    def iter_games(
        self,
        *,
        limit: int | None = None,
        game: str | None = None,
        since: int | None = None,
        moves: bool = False,
        batch: int = 500,
    ) -> Iterator[GameEntry]:
        """Games oldest first, read in batches (bounded memory whatever the journal's size).
        ``limit``: only the last so many; ``game``: one kind of game; ``since``: started at
        or after (ms). Without ``moves`` an entry has its move count (``move_count``) only."""
        with self._read() as db:
            found = reads.selection(db, limit, game, since)
        if found is None:
            return
        cond, params, after = found
        while True:
            with self._read() as db:
                rows = reads.listed_after(db, cond, params, after, batch)
            if not rows:
                return
            for row in rows:
                entry = entry_from_row(row)
                if moves:
                    with self._read() as db:
                        try:
                            events = reads.event_rows(db, entry.id)
                            entry.moves, entry.takebacks = fold(events)
                        except ValueError as e:
                            entry.note = f"moves unreadable: {e}"
                yield entry
            after = rows[-1][0]

    def games(self) -> list[GameEntry]:
        """Every game, oldest first, with its live moves (see iter_games to stream)."""
        return list(self.iter_games(moves=True))

    # reads (companion.journal.reads: functions over the connection), under the lock
    load = _read_by(reads.load)
    clock_events = _read_by(reads.clock_events)
    recent = _read_by(reads.recent)
    paused = _read_by(reads.paused)
    events = _read_by(reads.events)
    played_starts = _read_by(reads.played_starts)
    started_at = _read_by(reads.started_at)  # a record exported from here names its start
    find_digest = _read_by(reads.find_digest)
    disputes = _read_by(reads.disputes)
    meta_with_prefix = _read_by(reads.meta_with_prefix)
    finished_since = _read_by(reads.finished_since)


def _not_replayed(ply: int, move: object, public: object, error: ValueError) -> str:
    """Why a row stops the replay, said without its secret: a move that holds one (it has a
    public name) is named by its public name, and the reason (which may quote the secret
    part) is left out; the game is still in progress, so the log and ``history`` are public."""
    if public is not None:
        return f"move {ply + 1} {str(public)!r} (a secret move) does not replay"
    return f"move {ply + 1} {move!r} does not replay ({error})"
