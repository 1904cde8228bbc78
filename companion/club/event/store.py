"""An event's SQLite file: the event file's text as it was when play began, every game
(replayed ones too) and every correction. Nothing is deleted: the games and corrections
tables refuse it (triggers), a game's row is only ever filled in (its result, or void)."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

from companion.club.event.spec import Event, parse_event
from companion.club.event.tournament import Correction, Game, Tournament

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, attempt INTEGER NOT NULL,
    white TEXT NOT NULL, black TEXT, board TEXT, result TEXT, game_uid TEXT, record TEXT,
    void INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (round, tbl, attempt)
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY, pairing TEXT NOT NULL, old TEXT, new TEXT NOT NULL,
    who TEXT NOT NULL, why TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS games_kept BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'an event keeps every game'); END;
CREATE TRIGGER IF NOT EXISTS corrections_kept BEFORE DELETE ON corrections
BEGIN SELECT RAISE(ABORT, 'an event keeps every correction'); END;
CREATE TRIGGER IF NOT EXISTS corrections_fixed BEFORE UPDATE ON corrections
BEGIN SELECT RAISE(ABORT, 'a correction is never changed'); END;
"""
APPLICATION_ID = 0x45564E54  # "EVNT": an event file, told apart from a journal


class EventStoreError(ValueError):
    """The event's file cannot be used; one line."""


def store_path(event_file: str | Path) -> Path:
    """Where an event file's games are kept: beside it, ``NAME.event.sqlite``."""
    p = Path(event_file)
    return p.with_name(p.stem + ".event.sqlite")


class EventStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            app = self.db.execute("PRAGMA application_id").fetchone()[0]
            tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app != APPLICATION_ID and tables:
                raise EventStoreError(f"{self.path}: not an event's file")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise EventStoreError(f"{self.path}: {e}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the event

    def event_text(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'event'").fetchone()
        return row[0] if row else None

    def open_event(self, text: str, source: str) -> Tournament:
        """The event as kept here; ``text`` (the event file now) is taken while no round is
        paired, and must say the same after (one line when it changed)."""
        event = parse_event(text, source)
        kept = self.event_text()
        if kept is None or (kept != text and self._no_games()):
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('event', ?)", (text,))
            return self.load(event)
        before = parse_event(kept, f"{self.path} (kept)")
        if before != event:
            raise EventStoreError(
                f"{source} changed after round 1 was paired: {self.path} keeps the event "
                "as it began (a new event needs a new file)"
            )
        return self.load(before)

    def secret(self) -> str:
        """The event's own random key (made once, kept): the pairing ids the boards get are
        signed with it, so nobody can make up a pairing id the hub would take."""
        fresh = secrets.token_hex(16)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('secret', ?)", (fresh,))
        return self.db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]

    def _no_games(self) -> bool:
        return not self.db.execute("SELECT count(*) FROM games").fetchone()[0]

    def load(self, event: Event | None = None) -> Tournament:
        if event is None:
            text = self.event_text()
            if text is None:
                raise EventStoreError(f"{self.path}: no event in it yet")
            event = parse_event(text, str(self.path))
        games = [
            Game(r, t, w, b, board, attempt, res, uid, rec, bool(void))
            for r, t, attempt, w, b, board, res, uid, rec, void in self.db.execute(
                "SELECT round, tbl, attempt, white, black, board, result, game_uid, record,"
                " void FROM games ORDER BY rowid"
            )
        ]
        fixes = [
            Correction(*row)
            for row in self.db.execute(
                "SELECT pairing, old, new, who, why, at FROM corrections ORDER BY id"
            )
        ]
        return Tournament(event, games, fixes)

    def save(self, t: Tournament) -> None:
        """Every game as it is now and the corrections not yet kept, in one transaction."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for g in t.games:
                self.db.execute(
                    "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET"
                    " result = excluded.result, game_uid = excluded.game_uid,"
                    " record = excluded.record, void = excluded.void",
                    (
                        g.round,
                        g.table,
                        g.attempt,
                        g.white,
                        g.black,
                        g.board,
                        g.result,
                        g.game_uid,
                        g.record,
                        int(g.void),
                    ),  # fmt: skip
                )
            kept = self.db.execute("SELECT count(*) FROM corrections").fetchone()[0]
            for c in t.corrections[kept:]:
                self.db.execute(
                    "INSERT INTO corrections (pairing, old, new, who, why, at)"
                    " VALUES (?,?,?,?,?,?)",
                    (c.pairing, c.old, c.new, c.who, c.why, c.at),
                )
