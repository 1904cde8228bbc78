"""The SQLite journal: every game, every move, every takeback, safe across power cuts.

Durability: WAL with ``synchronous=FULL``, one transaction per call, committed before the call
returns, so a move the session shows as accepted is on disk. History is append-only: moves,
takebacks, finishes and abandons are rows in ``events`` (triggers refuse UPDATE and DELETE);
a game's live move list is the fold of its events. The ``games`` row carries the header and
the status (in_progress / finished / abandoned), the only thing ever updated.

A damaged file found at open is never overwritten silently: the bytes as found are copied to
``<name>.corrupt-<UTC time>`` first, whatever is readable is salvaged into a fresh file, and
one log line says what could not be recovered (``journal.recovery`` keeps the details).
Write failures (disk full, read-only file, I/O error) raise JournalError with a one-line reason.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .games.base import Outcome
from .journal_api import JournalError, SavedGame

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
    detail   TEXT,                     -- JSON explanation of the result
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
            moves.append(MoveEntry(ply, move or "", from_iso(at)))
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

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        recover: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> SqliteJournal:
        """Open (creating it if needed) the journal at ``path``.

        A damaged file is repaired as the module docstring says; with ``recover=False``
        (command-line tools, which must not move a file a running daemon holds) it raises
        JournalError instead. Any other failure to open raises JournalError.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create {path.parent}: {e.strerror or e}") from None
        report = None
        if _has_data(path):
            found = _snapshot(path)
            problem = _problem(path)
            if problem is not None:
                if not recover:
                    raise JournalError(f"journal {path} is damaged ({problem}); run the daemon")
                report = _recover(path, problem, found, clock)
                log.warning(report.line())
        journal = cls(_connect(path), path, clock)
        journal.recovery = report
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
                    _json(outcome.detail) if outcome else None,
                    "closed when the next game began",
                    gid,
                ),
            )

    def append(self, game_id: int, ply: int, move: str) -> None:
        with self._write() as db:
            status = self._status(db, game_id)
            if status != IN_PROGRESS:
                raise JournalError(f"game {game_id} is {status.replace('_', ' ')}")
            moves, _ = self._live(db, game_id)
            if not 0 <= ply <= len(moves):
                raise JournalError(f"move {ply + 1} out of order (journal has {len(moves)})")
            db.execute(
                "INSERT INTO events (game_id, kind, ply, move, at) VALUES (?, 'move', ?, ?, ?)",
                (game_id, ply, move, self._now()),
            )

    def takeback(self, game_id: int, to_ply: int) -> None:
        with self._write() as db:
            status = self._status(db, game_id)
            if status == ABANDONED:
                raise JournalError(f"game {game_id} is abandoned")
            db.execute(
                "INSERT INTO events (game_id, kind, ply, at) VALUES (?, 'takeback', ?, ?)",
                (game_id, max(0, to_ply), self._now()),
            )
            if status == FINISHED:  # taking back the last move reopens the game
                db.execute(
                    "UPDATE games SET status = ?, ended = NULL, result = NULL, summary = NULL,"
                    " detail = NULL WHERE id = ?",
                    (IN_PROGRESS, game_id),
                )

    def finish(self, game_id: int, outcome: Outcome) -> None:
        with self._write() as db:
            if self._status(db, game_id) != IN_PROGRESS:
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
                    _json(outcome.detail),
                    game_id,
                ),
            )

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            if self._status(db, game_id) != IN_PROGRESS:
                return
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
                    _json(outcome.detail) if outcome else None,
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


def _entry(row: Sequence[Any]) -> GameEntry:
    gid, game, options, players, started, ended, status, result, summary, detail, note = row
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
        detail=_unjson(detail, None),
        note=note,
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


def _connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with full syncs and the schema in place."""
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5)
    except sqlite3.Error as e:
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            log.warning("journal %s: WAL not available, using %s", path, mode)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"journal {path} was written by a newer version (v{version})")
        if version < SCHEMA_VERSION:
            db.executescript(
                f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
    except sqlite3.Error as e:
        _rollback(db)
        db.close()
        raise JournalError(f"cannot open journal {path}: {describe_error(e)}") from None
    except JournalError:
        db.close()
        raise
    return db


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


def _problem(path: Path) -> str | None:
    """None if the journal reads cleanly, else a short description of the damage."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
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


def _recover(
    path: Path, problem: str, found: dict[str, bytes], clock: Callable[[], float]
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
    report = RecoveryReport(path, problem, copies)
    fresh = path.with_name(path.name + ".salvage")
    with tempfile.TemporaryDirectory(prefix="binaryon-salvage-") as tmp:
        source = Path(tmp) / "damaged.sqlite"  # sqlite may rewrite what it opens: a scratch copy
        for key, data in found.items():
            source.with_name(source.name + key).write_bytes(data)
        games, events = _read_damaged(source, report)
    try:  # 2. build the salvaged file beside it, then swap it in
        for p in (fresh, *_sidecars(fresh)):
            p.unlink(missing_ok=True)
        _write_salvage(fresh, games, events, report)
        for p in _sidecars(path):
            p.unlink(missing_ok=True)  # their bytes are in the kept copy
        os.replace(fresh, path)
        _fsync_dir(path.parent)
    except (OSError, sqlite3.Error) as e:
        raise JournalError(
            f"journal {path} is damaged ({problem}); copy kept at {base}, but repair failed: "
            f"{getattr(e, 'strerror', None) or e}"
        ) from None
    return report


_GAME_ROW = f"SELECT {_GAME_COLUMNS} FROM games WHERE id BETWEEN ? AND ? ORDER BY id"
_EVENT_ROW = (
    "SELECT id, game_id, kind, ply, move, at FROM events WHERE id BETWEEN ? AND ? ORDER BY id"
)


def _read_damaged(source: Path, report: RecoveryReport) -> tuple[list[tuple], list[tuple]]:
    """Every row that can still be read, table by table, working round unreadable pages."""
    cut = _pages_missing(source)
    if cut:
        report.lost.append(cut)
    try:
        db = sqlite3.connect(source, isolation_level=None)
        db.execute("PRAGMA writable_schema = ON")  # read tables even if an index is damaged
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        report.lost.append(f"everything ({e})")
        return [], []
    upper = max(1000, source.stat().st_size // 8 + 1)
    try:
        games, games_failed = _rows(db, _GAME_ROW, upper)
        events, events_failed = _rows(db, _EVENT_ROW, upper)
        report.expected = _indexed_events(db)
        report.unsure = events_failed and report.expected is None
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


def _pages_missing(source: Path) -> str:
    """'file cut short: ...' when the header promises more pages than the file holds."""
    try:
        with open(source, "rb") as f:
            head = f.read(100)
        size = source.stat().st_size
    except OSError:
        return ""
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
        return ""
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    have = size // page if page else 0
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
