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
WAL itself (see "the WAL file" below): SQLite alone would drop every commit after a bad frame.
A journal that cannot be written (read-only file system, no permission) opens read-only.
Write failures (disk full, read-only file, I/O error) raise JournalError with a one-line reason;
a write to a game ended elsewhere (``binaryon abandon``) raises GameClosed.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import struct
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .games.base import Outcome
from .journal_api import GameClosed, JournalError, SavedGame

log = logging.getLogger("binaryon")

IN_PROGRESS, FINISHED, ABANDONED = "in_progress", "finished", "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,            -- JSON object, the resolved rule options
    players  TEXT NOT NULL,            -- JSON object, player id -> person's name
    started  TEXT NOT NULL,            -- ISO 8601 UTC, milliseconds
    ended    TEXT,
    status   TEXT NOT NULL DEFAULT 'in_progress'
             CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    result   TEXT,                     -- the winner's player id, or 'draw'
    summary  TEXT,                     -- e.g. 'ON wins'
    detail   TEXT,                     -- JSON explanation of the result; its key
                                      -- 'record_tags' holds a record's extra tags
    note     TEXT                      -- e.g. what a recovery could not save
);
CREATE TABLE IF NOT EXISTS events (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    kind     TEXT NOT NULL CHECK (kind IN ('move', 'takeback', 'finish', 'abandon')),
    ply      INTEGER NOT NULL,         -- move: its 0-based number; takeback: moves kept
    move     TEXT,                     -- move: its name
    at       TEXT                      -- ISO 8601 UTC, milliseconds (NULL: time unknown)
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
"""


# --------------------------------------------------------------------------- times


def iso(ms: int | None) -> str | None:
    """Milliseconds since the epoch -> '2025-03-01T14:02:11.120Z' (exact both ways)."""
    if ms is None:
        return None
    dt = datetime.fromtimestamp(ms // 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def from_iso(text: str | None) -> int | None:
    if not text:
        return None
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return round(dt.timestamp() * 1000)


# --------------------------------------------------------------------------- what it returns


@dataclass(frozen=True)
class MoveEntry:
    ply: int
    name: str
    at: int | None  # milliseconds since the epoch


@dataclass
class GameEntry:
    """One game as the journal holds it: header, status, result and the live move list."""

    id: int
    game: str
    options: dict[str, Any]
    players: dict[str, str]
    started: int | None
    ended: int | None
    status: str
    result: str | None = None
    summary: str | None = None
    detail: dict[str, Any] | None = None
    note: str | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)  # a record's other tags ([Event ...])
    takebacks: int = 0

    @property
    def move_names(self) -> list[str]:
        return [m.name for m in self.moves]

    def saved(self) -> SavedGame:
        return SavedGame(
            self.id, self.game, dict(self.options), self.move_names, dict(self.players)
        )


@dataclass
class RecoveryReport:
    """What opening a damaged journal did."""

    path: Path
    problem: str
    copies: list[Path]
    games: int = 0
    events: int = 0
    lost: list[str] = field(default_factory=list)
    expected: dict[int, set[int]] | None = None  # event ids per game, from the index
    unsure: bool = False  # part of the events table unreadable and the index too

    def line(self) -> str:
        lost = "; ".join(self.lost) if self.lost else "nothing"
        copy = self.copies[0] if self.copies else "?"
        if len(self.copies) > 1:
            copy = f"{copy} (and its -wal)"
        return (
            f"journal {self.path} was damaged ({self.problem}); damaged file kept as {copy}; "
            f"recovered {self.games} games, {self.events} events; lost: {lost}"
        )


def fold(events: Sequence[tuple[str, int, str | None, str | None]]) -> tuple[list[MoveEntry], int]:
    """(kind, ply, move, at) rows in order -> (live moves, takebacks). A move at ply p replaces
    whatever was at p and after; a takeback to p keeps the first p moves."""
    moves: list[MoveEntry] = []
    takebacks = 0
    for kind, ply, move, at in events:
        if kind == "move":
            if ply > len(moves):
                raise ValueError(f"move {ply + 1} follows move {len(moves)}")
            del moves[ply:]
            moves.append(MoveEntry(ply, move or "", _time_or_none(at)))  # garbled: None
        elif kind == "takeback":
            del moves[ply:]
            takebacks += 1
    return moves, takebacks


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


# --------------------------------------------------------------------------- the journal


class SqliteJournal:
    """Implements companion.journal_api.Journal. Safe to share between threads (one lock)."""

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
        if _has_data(path):
            found, problem, wal = _examine(path)
            if problem is not None:
                if not recover:
                    raise JournalError(f"journal {path} is damaged ({problem}); run the daemon")
                report = _recover(path, problem, found, wal, clock)
                log.warning(report.line())
            elif recover and wal.cut_short():
                log.warning(_cut_short_line(path, found, wal, clock))
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
                _rollback(db)
                raise JournalError(describe_error(e)) from e
            except BaseException:
                _rollback(db)
                raise

    def _status(self, db: sqlite3.Connection, game_id: int) -> str:
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id} is not in the journal")
        return row[0]

    def _tags(self, db: sqlite3.Connection, game_id: int) -> dict[str, str]:
        row = db.execute("SELECT detail FROM games WHERE id = ?", (game_id,)).fetchone()
        detail = _unjson(row[0], None) if row else None
        tags = detail.get(_TAGS_KEY) if isinstance(detail, dict) else None
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
                (game, _json(options), _json(players), self._now(), IN_PROGRESS),
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
            outcome = _outcome(game, _unjson(options, {}), [m.name for m in moves])
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
                    _detail(outcome.detail if outcome else None, self._tags(db, gid)),
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
                    (IN_PROGRESS, _detail(None, self._tags(db, game_id)), game_id),
                )

    def finish(self, game_id: int, outcome: Outcome) -> None:
        with self._write() as db:
            if self._in_progress(db, game_id, allow=FINISHED) == FINISHED:
                return  # already recorded (e.g. replayed after a restart)
            moves, _ = self._live(db, game_id)
            now = self._now()
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'finish', ?, ?)",
                (game_id, len(moves), now),
            )
            db.execute(
                "UPDATE games SET status = ?, ended = ?, result = ?, summary = ?, detail = ?"
                " WHERE id = ?",
                (
                    FINISHED,
                    now,
                    outcome.winner or "draw",
                    outcome.summary,
                    _detail(outcome.detail, self._tags(db, game_id)),
                    game_id,
                ),
            )

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            if self._in_progress(db, game_id, allow=ABANDONED) == ABANDONED:
                return  # already abandoned: nothing to do
            moves, _ = self._live(db, game_id)
            now = self._now()
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'abandon', ?, ?)",
                (game_id, len(moves), now),
            )
            db.execute(
                "UPDATE games SET status = ?, ended = ? WHERE id = ?", (ABANDONED, now, game_id)
            )

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
            row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            found = row.fetchone()
            if found is None:
                return None
            entry = _entry(found)
            entry.moves, entry.takebacks = self._live(db, game_id)
        return entry

    def games(self) -> list[GameEntry]:
        """Every game, oldest first, with its live moves."""
        with self._read() as db:
            entries = [_entry(r) for r in db.execute(f"SELECT {_GAME_COLUMNS} FROM games")]
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
                    _json(options),
                    _json(players),
                    iso(started) or now,
                    iso(ended) if status != IN_PROGRESS else None,
                    status,
                    (outcome.winner or "draw") if outcome else None,
                    outcome.summary if outcome else None,
                    _detail(outcome.detail if outcome else None, tags or {}),
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
    from .games import get_spec

    try:
        state = get_spec(game).new(**options)
        for name in moves:
            state = state.play(state.parse_move(name))
    except ValueError:
        return None
    return state.outcome() if state.is_over() else None


_GAME_COLUMNS = "id, game, options, players, started, ended, status, result, summary, detail, note"


_TAGS_KEY = "record_tags"


def _detail(outcome_detail: dict[str, Any] | None, tags: dict[str, str]) -> str | None:
    """The detail column: the result's explanation, with a record's extra tags kept in it."""
    if not tags:
        return None if outcome_detail is None else _json(outcome_detail)
    return _json({**(outcome_detail or {}), _TAGS_KEY: tags})


def _entry(row: Sequence[Any]) -> GameEntry:
    gid, game, options, players, started, ended, status, result, summary, detail, note = row
    detail = _unjson(detail, None)
    tags = detail.pop(_TAGS_KEY, None) if isinstance(detail, dict) else None
    if isinstance(detail, dict) and not detail and result is None:
        detail = None  # only the tags were there
    tags = {str(k): str(v) for k, v in tags.items()} if isinstance(tags, dict) else {}
    return GameEntry(
        id=gid,
        game=game,
        options=_unjson(options, {}),
        players=_unjson(players, {}),
        started=_time_or_none(started),
        ended=_time_or_none(ended),
        status=status,
        result=result,
        summary=summary,
        detail=detail,
        note=note,
        tags=tags,
    )


def _time_or_none(text: str | None) -> int | None:
    try:
        return from_iso(text)
    except ValueError:
        return None


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _unjson(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _rollback(db: sqlite3.Connection) -> None:
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _open_rw(path: Path) -> sqlite3.Connection:
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
        _check_version(db, path)
    except BaseException:
        _rollback(db)
        db.close()
        raise
    return db


def _check_version(db: sqlite3.Connection, path: Path) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalError(f"journal {path} was written by a newer version (v{version})")
    if version < SCHEMA_VERSION:
        db.executescript(
            f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        )


def _connect(path: Path) -> sqlite3.Connection:
    try:
        return _open_rw(path)
    except sqlite3.Error as e:
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None


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
    if not found and _has_data(path):
        found = _snapshot(path)
    db = _memory_db(_image(found.get("", b""), _scan_wal(found.get("-wal", b"")), "sqlite"))
    try:
        _check_version(db, path)
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        db.close()
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
    except JournalError:
        db.close()
        raise
    return db


def _memory_db(image: bytes) -> sqlite3.Connection:
    """A connection to an in-memory copy of a database image; nothing on disk is touched."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if image:
        data = bytearray(image)
        if len(data) >= 100 and data.startswith(_DB_MAGIC):
            data[18:20] = b"\x01\x01"  # rollback-journal mode: memory databases have no WAL
        try:
            db.deserialize(bytes(data))
        except sqlite3.Error:
            db.close()
            raise
    return db


# --------------------------------------------------------------------------- the WAL file
#
# SQLite's own recovery replays WAL frames only while each frame's checksum follows from the
# one before (checksums are cumulative) and stops at the first that does not: a single bad
# byte silently drops every later commit, and the next checkpoint makes that final. So the
# WAL is read here as well, by its documented format (sqlite.org/fileformat2.html#walformat):
#   header (32 bytes): magic 0x377f0682/3 (the low bit: checksums big-endian), version
#     3007000, page size, checkpoint number, salt-1, salt-2, checksum-1, checksum-2;
#   each frame: a 24-byte header (page number, database size in pages for a commit frame
#     else 0, salt-1, salt-2, checksum-1, checksum-2) and then the page.
# Frames of the current write cycle carry the header's salts; frames left from an earlier
# cycle (the WAL is reused from the start after a checkpoint) carry other salts and are
# ignored. Damage: a commit of the current cycle, its own checksum sound, that SQLite would
# not replay (it lies after a damaged frame, or the WAL header is damaged).
# Not damage: frames after the last commit with no sound commit among them. That is a write
# that never completed, so was never confirmed: a kill or power cut between SQLite's writes
# of one commit (a frame's header and its page are two writes), or what such a write left
# beyond a shorter one made after the restart. SQLite rightly ignores them; the daemon logs it.

_DB_MAGIC = b"SQLite format 3\0"
_WAL_MAGIC = {0x377F0682: False, 0x377F0683: True}  # -> checksum words are big-endian
_WAL_VERSION = 3007000


def _wal_sum(data: bytes, start: tuple[int, int], big: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continuing from ``start``."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    s0, s1 = start
    for a, b in zip(words[::2], words[1::2], strict=True):
        s0 = (s0 + a + s1) & 0xFFFFFFFF
        s1 = (s1 + b + s0) & 0xFFFFFFFF
    return s0, s1


@dataclass
class WalFrame:
    index: int  # 0-based position in the WAL file
    page: int
    commit: int  # database size in pages after this commit; 0 if not a commit frame
    data: bytes
    fits: bool = False  # its checksum holds: header and page are as written
    chained: bool = False  # SQLite's recovery accepts it (salts, and the chain from the start)


@dataclass
class WalScan:
    """The frames of the WAL's current write cycle and how far SQLite would replay them.

    Views of it (``usable``): "sqlite", what SQLite itself replays; "sound", every frame whose
    own checksum holds, up to the last such commit frame, even past a damaged frame; "all",
    as "sound" plus damaged frames no later frame replaces, used as found."""

    page_size: int = 4096
    header_ok: bool = True
    frames: list[WalFrame] = field(default_factory=list)
    replayed: int = 0  # frames SQLite's recovery uses: the unbroken chain up to its last commit

    def _sound(self) -> list[WalFrame]:
        good = [f for f in self.frames if f.fits]
        last = max((i for i, f in enumerate(good) if f.commit), default=-1)
        return good[: last + 1]

    def _unreplaced(self) -> list[WalFrame]:
        """Damaged frames before the last sound commit that no later sound frame replaces."""
        sound = self._sound()
        end = sound[-1].index if sound else -1
        return [
            f
            for f in self.frames
            if not f.fits
            and f.index < end
            and not any(g.page == f.page and g.index > f.index for g in sound)
        ]

    def usable(self, view: str) -> list[WalFrame]:
        if view == "sqlite":
            return self.frames[: self.replayed]
        sound = self._sound()
        if view == "sound" or not sound:
            return sound
        pages = max(f.commit for f in sound)
        extra = [f for f in self._unreplaced() if 1 <= f.page <= pages and f.data]
        return sorted(sound + extra, key=lambda f: f.index)

    def dropped_commits(self) -> int:
        """Sound commits SQLite's recovery would not replay."""
        return len([f for f in self.frames[self.replayed :] if f.commit and f.fits])

    def cut_short(self) -> int:
        """Frames after the last commit SQLite replays, when none of them is a sound commit
        (a write that never completed; see above)."""
        return 0 if self.dropped_commits() else len(self.frames[self.replayed :])

    def problem(self) -> str | None:
        """One line when SQLite's recovery would drop committed writes, else None."""
        later = self.dropped_commits()
        if not later:
            return None
        total = len(self.frames)
        if not self.header_ok:
            return f"WAL header damaged: {later} commits in its {total} frames would be ignored"
        broken = next((f for f in self.frames if not f.chained), self.frames[self.replayed])
        return (
            f"WAL frame {broken.index + 1} of {total} is damaged; "
            f"{later} commits after it would be dropped"
        )

    def losses(self, view: str) -> tuple[list[str], bool]:
        """What a view cannot restore: (lines for the report, whether moves may be missing
        without trace in the tables)."""
        if not self.frames[self.replayed :]:
            return [], False
        lost: list[str] = []
        unsure = False  # a page whose latest copy is gone: the tables may not show the loss
        used = {f.index for f in self.usable(view)}
        for f in self._unreplaced():
            how = "damaged, used as found" if f.index in used else "unreadable"
            lost.append(f"WAL frame {f.index + 1} (page {f.page}) {how}")
            unsure = True
        sound = self._sound()
        end = sound[-1].index if sound else -1
        tail = [f for f in self.frames if f.index > end]
        if tail and all(f.fits for f in tail):
            lost.append(f"a write cut short before its commit ({len(tail)} WAL frames)")
        elif tail:
            lost.append(f"the last write ({len(tail)} WAL frames) unreadable")
            unsure = True
        return lost, unsure


def _scan_wal(data: bytes, page_size: int = 0) -> WalScan:
    """Read a WAL file's bytes (see the comment above); never fails."""
    head = data[:32]
    magic, version, size, _, salt1, salt2, c0, c1 = (
        struct.unpack(">8I", head) if len(head) == 32 else (0,) * 8
    )
    big = _WAL_MAGIC.get(magic)
    good_size = 512 <= size <= 65536 and size & (size - 1) == 0
    header_ok = (
        big is not None
        and version == _WAL_VERSION
        and good_size
        and _wal_sum(head[:24], (0, 0), big) == (c0, c1)
    )
    scan = WalScan(page_size=size if good_size else page_size or 4096, header_ok=header_ok)
    step = 24 + scan.page_size
    count = max(0, len(data) - 32) // step
    heads = [struct.unpack(">6I", data[32 + i * step : 56 + i * step]) for i in range(count)]
    if header_ok:
        salts = (salt1, salt2)
    else:  # guess the cycle from the first frame; an all-zero file holds nothing
        salts = heads[0][2:4] if heads and any(data[32 : 32 + step]) else (-1, -1)
    last = max((i for i, h in enumerate(heads) if h[2:4] == salts), default=-1)
    partial = data[32 + count * step :]
    if len(partial) >= 16 and struct.unpack(">2I", partial[8:16]) == salts:
        last = count  # a frame cut short, written in the current cycle
    best: list[WalFrame] = []
    for order in [big] if big is not None else [True, False]:  # magic damaged: try both
        frames = _check_frames(data, heads, last, step, order, (c0, c1), head[:24], salts)
        if not best or sum(f.fits for f in frames) > sum(f.fits for f in best):
            best = frames
    scan.frames = best
    if header_ok:  # SQLite's view: the unbroken chain from the header, up to its last commit
        chained = 0
        for f in best:
            if not f.chained:
                break
            chained += 1
        scan.replayed = max((f.index + 1 for f in best[:chained] if f.commit), default=0)
    return scan


def _check_frames(
    data: bytes,
    heads: list[tuple[int, ...]],
    last: int,
    step: int,
    big: bool,
    stored_head: tuple[int, int],
    head: bytes,
    salts: tuple[int, ...],
) -> list[WalFrame]:
    """The frames of the current cycle, each with whether its checksum holds: from the
    checksum stored before it or (when that one is the damaged part) the one computed for it,
    so one bad byte costs at most one frame. The cycle runs to the last frame with its salts,
    or on while checksums chain (a damaged salt)."""
    frames: list[WalFrame] = []
    stored = stored_head
    computed = _wal_sum(head, (0, 0), big) if len(head) == 24 else stored_head
    chain = stored == computed
    for i in range(len(heads) + 1):
        if i == len(heads):
            if last == i:
                frames.append(WalFrame(i, 0, 0, b""))  # cut short: never whole
            break
        page, commit, s1, s2, k0, k1 = heads[i]
        raw = data[32 + i * step : 32 + (i + 1) * step]
        body = raw[:8] + raw[24:]
        via_stored = _wal_sum(body, stored, big)
        via_computed = via_stored if computed == stored else _wal_sum(body, computed, big)
        frame = WalFrame(i, page, commit, raw[24:])
        frame.fits = (k0, k1) in (via_stored, via_computed)
        if not frame.fits and (fixed := _repair_header(raw, (stored, computed), (k0, k1), big)):
            frame.page, frame.commit = fixed  # one byte of its page number or size was bad
            frame.fits = True
        if (k0, k1) == via_computed and frames and not frames[-1].fits:
            frames[-1].fits = True  # only the previous frame's stored checksum was damaged
        if i > last and not frame.fits:
            break  # the end of this cycle (a frame with damaged salts still chains on)
        chain = chain and (s1, s2) == salts and (k0, k1) == via_stored
        frame.chained = chain
        frames.append(frame)
        stored, computed = (k0, k1), via_stored if (k0, k1) != via_computed else via_computed
    return frames


def _repair_header(
    raw: bytes, starts: tuple[tuple[int, int], ...], want: tuple[int, int], big: bool
) -> tuple[int, int] | None:
    """(page number, commit size) that make a frame's checksum hold when one byte of them
    was damaged, or None. The checksum of the page that follows the 8 header bytes is affine
    in the state it starts from, so each of the 2040 candidates costs two multiplications."""
    fmt = ">2I" if big else "<2I"
    page = raw[24:]
    c = _wal_sum(page, (0, 0), big)
    m0 = [(a - b) & 0xFFFFFFFF for a, b in zip(_wal_sum(page, (1, 0), big), c, strict=True)]
    m1 = [(a - b) & 0xFFFFFFFF for a, b in zip(_wal_sum(page, (0, 1), big), c, strict=True)]
    head = bytearray(raw[:8])
    for at in range(8):
        keep = head[at]
        for value in range(256):
            if value == keep:
                continue
            head[at] = value
            x0, x1 = struct.unpack(fmt, head)
            for s0, s1 in set(starts):
                s0 = (s0 + x0 + s1) & 0xFFFFFFFF
                s1 = (s1 + x1 + s0) & 0xFFFFFFFF
                got = tuple((m0[k] * s0 + m1[k] * s1 + c[k]) & 0xFFFFFFFF for k in range(2))
                if got == want:
                    return struct.unpack(">2I", head)
        head[at] = keep
    return None


def _image(db: bytes, wal: WalScan, view: str) -> bytes:
    """The database as it stands with a view of the WAL (see WalScan) applied."""
    frames = wal.usable(view)
    if not frames:
        return db
    size = wal.page_size
    out = bytearray(db)
    for f in frames:
        at = (f.page - 1) * size
        if f.page < 1 or at > 1 << 30:
            continue  # a page number no real journal has
        if len(out) < at + size:
            out.extend(bytes(at + size - len(out)))
        out[at : at + size] = f.data
    last_commit = max((f.index for f in frames if f.commit), default=-1)
    commit = next(f.commit for f in frames if f.index == last_commit) if last_commit >= 0 else 0
    if commit:
        del out[commit * size :]
    return bytes(out)


# --------------------------------------------------------------------------- damage and repair


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def _has_data(path: Path) -> bool:
    return any(p.exists() and p.stat().st_size > 0 for p in (path, _sidecars(path)[0]))


def _snapshot(path: Path) -> dict[str, bytes]:
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


def _examine(path: Path, tries: int = 3) -> tuple[dict[str, bytes], str | None, WalScan]:
    """(bytes as found, the damage or None, the WAL as read). A snapshot taken while another
    process writes can look torn, so damage must be seen ``tries`` times running."""
    for attempt in range(tries):
        if attempt:
            time.sleep(0.05)
        found = _snapshot(path)
        wal = _scan_wal(found.get("-wal", b""), _db_page_size(found.get("", b"")))
        problem = wal.problem() or _problem(_image(found.get("", b""), wal, "sqlite"))
        if problem is None:
            break
    return found, problem, wal


def _db_page_size(db: bytes) -> int:
    if len(db) < 100 or not db.startswith(_DB_MAGIC):
        return 0
    size = int.from_bytes(db[16:18], "big")
    return 65536 if size == 1 else size


def _problem(image: bytes) -> str | None:
    """None if the database image reads cleanly, else a short description of the damage."""
    try:
        db = _memory_db(image)
    except sqlite3.Error as e:
        return str(e)
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
        return str(e)
    finally:
        db.close()


def _write_durably(path: Path, data: bytes) -> None:
    with open(path, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


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


def _cut_short_line(
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
        _write_durably(copy, found["-wal"])
        _fsync_dir(path.parent)
        kept = f"WAL kept as {copy}"
    except OSError as e:
        kept = f"WAL copy not kept: {e.strerror or e}"
    return line + f"frames, damaged or cut short); left out; {kept}"


def _recover(
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
            _write_durably(target, data)
            copies.append(target)
        _fsync_dir(path.parent)
    except OSError as e:
        raise JournalError(
            f"journal {path} is damaged ({problem}) and a copy cannot be kept: "
            f"{e.strerror or e}; nothing changed"
        ) from None
    report, games, events = _salvage_rows(path, problem, copies, found, wal)
    fresh = path.with_name(path.name + ".salvage")
    try:  # 2. build the salvaged file beside it, then swap it in
        for p in (fresh, *_sidecars(fresh)):
            p.unlink(missing_ok=True)
        _write_salvage(fresh, games, events, report)
        for p in _sidecars(path):
            p.unlink(missing_ok=True)  # their bytes are in the kept copy
        os.replace(fresh, path)
        _fsync_dir(path.parent)
    except (OSError, sqlite3.Error, JournalError) as e:
        raise JournalError(
            f"journal {path} is damaged ({problem}); copy kept at {base}, but repair failed: "
            f"{getattr(e, 'strerror', None) or e}"
        ) from None
    return report


def _salvage_rows(
    path: Path, problem: str, copies: list[Path], found: dict[str, bytes], wal: WalScan
) -> tuple[RecoveryReport, list[tuple], list[tuple]]:
    """The readable rows, from the WAL view that yields the most: every commit whose own
    frames are sound (even past a damaged frame), and, if some damaged frame is the only
    copy of its page, also that page as found (the salvage checks every row it reads)."""
    best: tuple[RecoveryReport, list[tuple], list[tuple]] | None = None
    views = ["sound", "all"] if wal.usable("all") != wal.usable("sound") else ["sound"]
    for view in views:
        report = RecoveryReport(path, problem, copies)
        report.lost, report.unsure = wal.losses(view)
        games, events = _read_damaged(_image(found.get("", b""), wal, view), report)
        if best is None or (len(events), len(games)) > (len(best[2]), len(best[1])):
            best = report, games, events
    assert best is not None
    return best


_GAME_ROW = f"SELECT {_GAME_COLUMNS} FROM games WHERE id BETWEEN ? AND ? ORDER BY id"
_EVENT_ROW = (
    "SELECT id, game_id, kind, ply, move, at FROM events WHERE id BETWEEN ? AND ? ORDER BY id"
)


def _read_damaged(image: bytes, report: RecoveryReport) -> tuple[list[tuple], list[tuple]]:
    """Every row that can still be read, table by table, working round unreadable pages."""
    cut = _pages_missing(image)
    if cut:
        report.lost.append(cut)
    try:
        db = _memory_db(image)
        db.execute("PRAGMA writable_schema = ON")  # read tables even if an index is damaged
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        report.lost.append(f"everything ({e})")
        return [], []
    upper = max(1000, len(image) // 8 + 1)
    try:
        games, games_failed = _rows(db, _GAME_ROW, upper)
        events, events_failed = _rows(db, _EVENT_ROW, upper)
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


def _pages_missing(image: bytes) -> str:
    """'file cut short: ...' when the header promises more pages than the file holds."""
    page = _db_page_size(image)
    if not page:
        return ""
    pages = int.from_bytes(image[28:32], "big")
    have = len(image) // page
    if pages and have < pages:
        return f"file cut short: {pages - have} of {pages} pages missing"
    return ""


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
    eid, gid, kind, ply, move, _at = row
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


def _write_salvage(
    fresh: Path, games: list[tuple], events: list[tuple], report: RecoveryReport
) -> None:
    from .games import get_spec

    by_game: dict[int, list[tuple]] = {}
    for row in events:
        by_game.setdefault(row[1], []).append(row)
    header_ids = {g[0] for g in games}
    expected = report.expected or {}
    orphans = sorted(gid for gid in set(by_game) | set(expected) if gid not in header_ids)
    if orphans:
        report.lost.append(f"games {', '.join(map(str, orphans))} (header unreadable)")
    db = _connect(fresh)
    try:
        db.execute("BEGIN IMMEDIATE")
        for g in games:
            gid, game, _options, _players, _s, _e, status, *_ = g
            kept, lost = _usable_events(by_game.get(gid, []))
            over = None
            try:
                state = get_spec(game).new(**_entry(g).options)
                moves, _ = fold([(k, p, m, a) for _, _, k, p, m, a in kept])
                for i, mv in enumerate(moves):
                    try:
                        state = state.play(state.parse_move(mv.name))
                    except ValueError:
                        kept, lost = _cut_at_ply(kept, i), True
                        break
                over = state.is_over() and not lost
            except ValueError:
                pass  # an unknown game or options: keep the rows as they are
            note = None
            unread = len(expected.get(gid, set()) - {e[0] for e in by_game.get(gid, [])})
            if lost or unread or (status == FINISHED and over is False):
                length = _live_length(kept)
                note = f"recovered: moves after the first {length} lost"
                more = f" ({unread} events unreadable)" if unread else ""
                report.lost.append(f"game {gid}: moves after the first {length}{more}")
            elif report.unsure and status == IN_PROGRESS:
                length = _live_length(kept)
                note = f"recovered: moves after the first {length} may be lost"
                report.lost.append(f"game {gid}: perhaps moves after the first {length}")
            db.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (*g[:6], status, *g[7:10], note or g[10]),
            )
            db.executemany(
                "INSERT INTO events (id, game_id, kind, ply, move, at) VALUES (?,?,?,?,?,?)", kept
            )
            report.games += 1
            report.events += len(kept)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def _usable_events(rows: list[tuple]) -> tuple[list[tuple], bool]:
    """The events up to the first one that cannot follow the ones before (a move lost)."""
    length = 0
    for i, (_, _, kind, ply, _, _) in enumerate(rows):
        if kind == "move":
            if ply > length:
                return rows[:i], True
            length = ply + 1
        elif kind == "takeback":
            length = min(length, ply)
    return rows, False


def _cut_at_ply(rows: list[tuple], ply: int) -> list[tuple]:
    """The events before the one that put the live move number ``ply`` in place."""
    origin: list[int] = []  # origin[k]: index of the event that made live move k
    for i, (_, _, kind, p, _, _) in enumerate(rows):
        if kind == "move":
            del origin[p:]
            origin.append(i)
        elif kind == "takeback":
            del origin[p:]
    return rows[: origin[ply]] if ply < len(origin) else rows


def _live_length(rows: list[tuple]) -> int:
    moves, _ = fold([(k, p, m, a) for _, _, k, p, m, a in rows])
    return len(moves)
