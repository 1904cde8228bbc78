"""The SQLite journal: every game, every move, every takeback, safe across power cuts.

Durability: WAL with ``synchronous=FULL``, one transaction per call, committed before the call
returns, so a move the session shows as accepted is on disk. History is append-only: moves,
takebacks, finishes and abandons are rows in ``events`` (triggers refuse UPDATE and DELETE);
a game's live move list is the fold of its events. The ``games`` row carries the header and
the status (in_progress / finished / abandoned), the only thing ever updated.

A damaged file found at open is never overwritten silently: the bytes as found are copied to
``<name>.corrupt-<UTC time>`` (and ``-wal``) first, whatever is readable is salvaged into a
fresh file, and one log line says what could not be recovered (``journal.recovery`` keeps the
details). The check reads a copy of the bytes in memory, never the live files, and reads the
WAL itself (companion.journal.wal): SQLite alone would drop every commit after a bad frame.
A journal that cannot be written (read-only file system, no permission) opens read-only.
Write failures (disk full, read-only file, I/O error) raise JournalError with a one-line reason;
a write to a game ended elsewhere (``binaryon abandon``) raises GameClosed.

The parts live beside this module: journal_rows (schema, entries, fold), journal_db
(connections), journal_wal (the WAL format), journal_repair (damage found at open, the kept
copies) and journal_salvage (what a damaged file still holds); their public names are
re-exported here.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.games.base import Outcome
from companion.journal.api import GameClosed, JournalError, SavedGame
from companion.journal.db import check_version, describe_error, memory_db, rollback
from companion.journal.db import (
    open_rw as _open_rw,  # looked up here at each open (tests replace it)
)
from companion.journal.repair import cut_short_line, examine, has_data, repair, snapshot
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    GAME_COLUMNS,
    IN_PROGRESS,
    SCHEMA,
    SCHEMA_VERSION,
    STATUSES,
    TAGS_KEY,
    GameEntry,
    MoveEntry,
    detail_json,
    entry_from_row,
    fold,
    from_iso,
    from_json,
    iso,
    to_json,
)
from companion.journal.salvage import RecoveryReport
from companion.journal.wal import WalFrame, WalScan, db_image, scan_wal

__all__ = [
    "ABANDONED",
    "FINISHED",
    "IN_PROGRESS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "STATUSES",
    "GameEntry",
    "MoveEntry",
    "RecoveryReport",
    "SqliteJournal",
    "WalFrame",
    "WalScan",
    "describe_error",
    "fold",
    "from_iso",
    "iso",
]

log = logging.getLogger("binaryon")

# Former names of two helpers, kept for the tests that call them through this module.
_examine = examine
_scan_wal = scan_wal


# --------------------------------------------------------------------------- the journal


class SqliteJournal:
    """Implements companion.journal.api.Journal. Safe to share between threads (one lock)."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Callable[[], float]):
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        self.recovery: RecoveryReport | None = None
        self.read_only: str | None = None  # why, when the journal can be read but not written

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        recover: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> SqliteJournal:
        """Open (creating it if needed) the journal at ``path``.

        The damage check reads a copy of the bytes (main file and WAL) and never opens the
        live files, so it cannot change them. A damaged file is repaired as the module
        docstring says; with ``recover=False`` (command-line tools, which must not move a
        file a running daemon holds) it raises JournalError instead. A journal on a read-only
        file system (or without write permission) opens read-only: ``read_only`` says why,
        reading works and every write raises JournalError('journal is read-only'). Any other
        failure to open raises JournalError.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create {path.parent}: {e.strerror or e}") from None
        report = None
        found: dict[str, bytes] = {}
        if has_data(path):
            found, problem, wal = examine(path)
            if problem is not None:
                if not recover:
                    raise JournalError(f"journal {path} is damaged ({problem}); run the daemon")
                report = repair(path, problem, found, wal, clock)
                log.warning(report.line())
            elif recover and wal.cut_short():
                log.warning(cut_short_line(path, found, wal, clock))
        why = _read_only_place(path)
        try:
            db = _open_rw(path)  # sqlite opens a file it may not write read-only, if it can
        except sqlite3.Error as e:
            why = why or _read_only_error(e)
            if why is None:
                raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
            db = _open_read_only(path, found)
        if why:
            log.warning("journal %s is read-only (%s): new moves are refused", path, why)
        journal = cls(db, path, clock)
        journal.recovery = report
        journal.read_only = why
        return journal

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SqliteJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _now(self) -> str:
        return iso(round(self._clock() * 1000)) or ""

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One durable transaction; any failure rolls back and raises JournalError."""
        with self._lock:
            if self.read_only:
                raise JournalError("journal is read-only")
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except sqlite3.Error as e:
                rollback(db)
                raise JournalError(describe_error(e)) from e
            except BaseException:
                rollback(db)
                raise

    def _status(self, db: sqlite3.Connection, game_id: int) -> str:
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id} is not in the journal")
        return row[0]

    def _tags(self, db: sqlite3.Connection, game_id: int) -> dict[str, str]:
        row = db.execute("SELECT detail FROM games WHERE id = ?", (game_id,)).fetchone()
        detail = from_json(row[0], None) if row else None
        tags = detail.get(TAGS_KEY) if isinstance(detail, dict) else None
        return tags if isinstance(tags, dict) else {}

    def _in_progress(self, db: sqlite3.Connection, game_id: int, allow: str = "") -> str:
        """The game's status; GameClosed if it was ended elsewhere (``binaryon abandon``,
        an import with --resume) unless its status is ``allow``."""
        status = self._status(db, game_id)
        if status not in (IN_PROGRESS, allow):
            raise GameClosed(f"game {game_id} was {status} elsewhere")
        return status

    def _live(self, db: sqlite3.Connection, game_id: int) -> tuple[list[MoveEntry], int]:
        rows = db.execute(
            "SELECT kind, ply, move, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        ).fetchall()
        try:
            return fold(rows)
        except ValueError as e:
            raise JournalError(f"game {game_id}: {e}") from None

    # --- the Journal protocol ---
    def begin(self, game: str, options: dict[str, Any], players: dict[str, str]) -> int:
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, started, status) VALUES (?,?,?,?,?)",
                (game, to_json(options), to_json(players), self._now(), IN_PROGRESS),
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
            moves, _ = self._live(db, gid)
            outcome = _outcome(game, from_json(options, {}), [m.name for m in moves])
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

    def append(self, game_id: int, ply: int, move: str) -> None:
        with self._write() as db:
            self._in_progress(db, game_id)
            moves, _ = self._live(db, game_id)
            if not 0 <= ply <= len(moves):
                raise JournalError(f"move {ply + 1} out of order (journal has {len(moves)})")
            db.execute(
                "INSERT INTO events (game_id, kind, ply, move, at) VALUES (?, 'move', ?, ?, ?)",
                (game_id, ply, move, self._now()),
            )

    def takeback(self, game_id: int, to_ply: int) -> None:
        with self._write() as db:
            status = self._in_progress(db, game_id, allow=FINISHED)
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'takeback', ?, ?)",
                (game_id, max(0, to_ply), self._now()),
            )
            if status == FINISHED:  # taking back the last move reopens the game
                db.execute(
                    "UPDATE games SET status = ?, ended = NULL, result = NULL, summary = NULL,"
                    " detail = ? WHERE id = ?",
                    (IN_PROGRESS, detail_json(None, self._tags(db, game_id)), game_id),
                )

    def finish(self, game_id: int, outcome: Outcome) -> None:
        with self._write() as db:
            now = self._close_event(db, game_id, "finish", FINISHED)
            if now is None:
                return  # already recorded (e.g. replayed after a restart)
            db.execute(
                "UPDATE games SET status = ?, ended = ?, result = ?, summary = ?, detail = ?"
                " WHERE id = ?",
                (
                    FINISHED,
                    now,
                    outcome.winner or "draw",
                    outcome.summary,
                    detail_json(outcome.detail, self._tags(db, game_id)),
                    game_id,
                ),
            )

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            now = self._close_event(db, game_id, "abandon", ABANDONED)
            if now is None:
                return  # already abandoned: nothing to do
            db.execute(
                "UPDATE games SET status = ?, ended = ? WHERE id = ?", (ABANDONED, now, game_id)
            )

    def _close_event(self, db, game_id: int, kind: str, status: str) -> str | None:
        """Record the event that ends a game (finish or abandon); its time, or None when the
        game already has that status. GameClosed when it ended the other way."""
        if self._in_progress(db, game_id, allow=status) == status:
            return None
        moves, _ = self._live(db, game_id)
        now = self._now()
        db.execute(
            "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
            (game_id, kind, len(moves), now),
        )
        return now

    def current(self) -> SavedGame | None:
        with self._read() as db:
            row = db.execute(
                "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (IN_PROGRESS,)
            ).fetchone()
        if row is None:
            return None
        entry = self.load(row[0])
        return entry.saved() if entry else None

    # --- history and records ---
    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as e:
                raise JournalError(describe_error(e)) from e

    def load(self, game_id: int) -> GameEntry | None:
        with self._read() as db:
            row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            found = row.fetchone()
            if found is None:
                return None
            entry = entry_from_row(found)
            entry.moves, entry.takebacks = self._live(db, game_id)
        return entry

    def games(self) -> list[GameEntry]:
        """Every game, oldest first, with its live moves."""
        with self._read() as db:
            entries = [entry_from_row(r) for r in db.execute(f"SELECT {GAME_COLUMNS} FROM games")]
            events: dict[int, list[tuple[str, int, str | None, str | None]]] = {}
            for gid, kind, ply, move, at in db.execute(
                "SELECT game_id, kind, ply, move, at FROM events ORDER BY id"
            ):
                events.setdefault(gid, []).append((kind, ply, move, at))
        for entry in entries:
            try:
                entry.moves, entry.takebacks = fold(events.get(entry.id, []))
            except ValueError as e:
                entry.note = f"moves unreadable: {e}"
        entries.sort(key=lambda e: e.id)
        return entries

    def events(self, game_id: int) -> list[tuple[str, int, str | None, int | None]]:
        """The full history of one game: (kind, ply, move, at) in order, takebacks included."""
        with self._read() as db:
            rows = db.execute(
                "SELECT kind, ply, move, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [(k, p, m, from_iso(a)) for k, p, m, a in rows]

    def import_game(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        moves: Sequence[tuple[str, int | None]],
        *,
        started: int | None,
        ended: int | None,
        status: str,
        outcome: Outcome | None = None,
        note: str | None = None,
        tags: dict[str, str] | None = None,
    ) -> int:
        """Add a whole game (already validated) in one transaction: all of it or nothing."""
        if status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        now = self._now()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, started, ended, status, result,"
                " summary, detail, note) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    game,
                    to_json(options),
                    to_json(players),
                    iso(started) or now,
                    iso(ended) if status != IN_PROGRESS else None,
                    status,
                    (outcome.winner or "draw") if outcome else None,
                    outcome.summary if outcome else None,
                    detail_json(outcome.detail if outcome else None, tags or {}),
                    note,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO events (game_id, kind, ply, move, at) VALUES (?, 'move', ?, ?, ?)",
                [(game_id, i, name, iso(at)) for i, (name, at) in enumerate(moves)],
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


def _outcome(game: str, options: dict[str, Any], moves: list[str]) -> Outcome | None:
    """The result if replaying ``moves`` ends the game; None if not (or not replayable)."""
    from companion.games import get_spec

    try:
        state = get_spec(game).new(**options)
        for name in moves:
            state = state.play(state.parse_move(name))
    except ValueError:
        return None
    return state.outcome() if state.is_over() else None


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


def _read_only_error(e: sqlite3.Error) -> str | None:
    name = getattr(e, "sqlite_errorname", "") or ""
    return "read-only" if name.startswith("SQLITE_READONLY") else None


def _open_read_only(path: Path, found: dict[str, bytes]) -> sqlite3.Connection:
    """The journal as it is on disk (main file plus the committed part of its WAL), in
    memory and query-only: sqlite cannot open a WAL file where it may not create its -shm."""
    if not found and has_data(path):
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
