"""The game clock in the session and the journal: each move keeps the clock's snapshot, the
running clock is ticked in one row, its own events are kept, undo restores it, a restart
charges the player on move up to the last tick and waits paused, and the journal's version 4
(the clock's columns and tables) upgrades version 3 in place."""

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.journal import db as journal_db
from companion.journal.api import JournalError
from companion.journal.rows import SCHEMA_VERSION
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from companion.timing.clock import TimeControl
from tests.conftest import FakeClock


def legal(s: Session, k: int = 0):
    return s.state.legal_moves()[k]


def clocked(journal=None, control="5:00+3", game="binaryon", timer=None):
    return Session(game, journal=journal, time_control=TimeControl.parse(control), timer=timer)


def test_each_move_carries_the_clock_as_the_next_turn_begins(tmp_path):
    t = FakeClock()
    with SqliteJournal.open(tmp_path / "j.sqlite") as j:
        s = clocked(j, timer=t)
        first = s.state.turn
        s.submit(legal(s))  # the first move is free: the clock starts with it
        assert s.clock.running == s.state.turn != first
        assert s.played[-1].clock["left"] == {"on": 300.0, "off": 300.0}
        t.advance(7.5)
        s.submit(legal(s))  # OFF used 7.5 s and gets 3 back
        assert s.played[-1].clock["left"]["off"] == pytest.approx(295.5)
        assert s.played[-1].clock["running"] == "on" and s.played[-1].clock["used"] == 0
        entry = j.load(s.game_id)
        assert entry.time_control == "5:00+3"
        assert [m.clock["left"]["off"] for m in entry.moves] == [300.0, pytest.approx(295.5)]
        saved = j.current()
        assert saved.time_control == "5:00+3" and saved.entries[-1].clock == s.played[-1].clock
        assert saved.clock.ply == 2 and saved.clock.state == s.played[-1].clock


def test_a_game_without_a_clock_keeps_none(tmp_path):
    with SqliteJournal.open(tmp_path / "j.sqlite") as j:
        s = Session("binaryon", journal=j)
        s.submit(legal(s))
        entry = j.load(s.game_id)
        assert s.clock is None and entry.time_control is None and entry.clock is None
        assert entry.moves[0].clock is None


def test_undo_restores_the_clock_of_the_ply_taken_back_to(tmp_path):
    t = FakeClock()
    with SqliteJournal.open(tmp_path / "j.sqlite") as j:
        s = clocked(j, "1:00", timer=t)
        s.submit(legal(s))
        t.advance(10)
        s.submit(legal(s))  # off: 50 left
        t.advance(20)
        s.submit(legal(s))  # on: 40 left
        t.advance(5)
        assert s.clock.left("off", t()) == pytest.approx(45)
        s.undo()
        assert s.clock.running == "on" and s.clock.left("on", t()) == pytest.approx(60)
        assert s.clock.left("off", t()) == pytest.approx(50)
        assert j.current().clock.ply == 2  # the row follows the takeback
        s.undo()
        s.undo()
        assert s.played == [] and s.clock.running is None
        assert s.clock.times(t()) == {"on": 60.0, "off": 60.0}


def test_a_restart_charges_up_to_the_last_tick_and_waits_paused(tmp_path):
    path = tmp_path / "j.sqlite"
    t = FakeClock()
    j = SqliteJournal.open(path)
    s = clocked(j, "0:12+2", timer=t)
    s.submit(legal(s))
    t.advance(3)
    s.clock_tick()  # OFF has used 3 s
    t.advance(0.9)  # ...then the power goes: these 0.9 s were never journaled
    path = power_cut(path, tmp_path / "after")  # the files as the cut leaves them
    j.close()
    t.advance(3600)  # an hour off
    with SqliteJournal.open(path) as again:
        saved = again.current()
        back = Session.resume(saved, again, timer=t)
        assert back.clock.paused and back.clock.running == "off"
        assert back.clock.left("off", t()) == pytest.approx(9)
        t.advance(60)
        assert back.clock.left("off", t()) == pytest.approx(9)  # paused: nothing runs
        events = again.clock_events(saved.game_id)
        assert [(e.kind, e.why) for e in events] == [("pause", "restart")]
        back.clock.resume(t())
        t.advance(1)
        assert back.clock.left("off", t()) == pytest.approx(8)


def power_cut(path: Path, to: Path) -> Path:
    """The journal's files as a power cut leaves them (the main file and its WAL, copied
    while the journal is open), in ``to``."""
    to.mkdir()
    for name in (path.name, path.name + "-wal"):
        if (path.parent / name).exists():
            shutil.copy(path.parent / name, to / name)
    return to / path.name


def test_clock_events_are_kept_in_order(tmp_path):
    t = FakeClock()
    with SqliteJournal.open(tmp_path / "j.sqlite") as j:
        s = clocked(j, timer=t)
        s.submit(legal(s))
        s.clock.pause(t())
        s.clock_event("pause")
        s.clock.add("off", 10)
        s.clock_event("add", "off", 10, "penalty")
        events = j.clock_events(s.game_id)
        assert [(e.kind, e.player, e.seconds, e.why) for e in events] == [
            ("pause", None, None, None),
            ("add", "off", 10, "penalty"),
        ]
        assert events[-1].state["left"]["off"] == 310 and j.current().clock.state["paused"]


def version_3_journal(path) -> None:
    """A journal as version 3 wrote it: no clock columns or tables, one game in progress."""
    schema = """
    CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
        players TEXT NOT NULL, started TEXT NOT NULL, ended TEXT,
        status TEXT NOT NULL DEFAULT 'in_progress', result TEXT, summary TEXT, detail TEXT,
        note TEXT, ply INTEGER NOT NULL DEFAULT 0, takebacks INTEGER NOT NULL DEFAULT 0,
        cut_from INTEGER, cut_to INTEGER, digest TEXT);
    CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT, at TEXT, player TEXT, public TEXT);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    CREATE INDEX events_by_game ON events (game_id, id);
    CREATE INDEX games_by_game ON games (game, id);
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
    """
    db = sqlite3.connect(path)
    db.executescript(schema)
    assert "clock" not in {r[1] for r in db.execute("PRAGMA table_info(events)")}
    db.execute(f"PRAGMA application_id = {journal_db.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute(
        "INSERT INTO games (game, options, players, started) VALUES"
        " ('binaryon', '{}', '{}', '2025-01-01T00:00:00.000Z')"
    )
    db.execute("INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', 0, 'e5')")
    db.execute("UPDATE games SET ply = 1")
    db.commit()
    db.close()


def tables(path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


def test_version_3_is_upgraded_in_place_and_read_only_opens_change_nothing(tmp_path):
    path = tmp_path / "old.sqlite"
    version_3_journal(path)
    before = path.read_bytes()
    with SqliteJournal.open(path, read_only=True) as j:
        entry = j.load(1)
        assert entry.move_names == ["e5"] and entry.time_control is None
        assert j.clock_events(1) == []
    assert path.read_bytes() == before and "clocks" not in tables(path)
    with SqliteJournal.open(path) as j:
        assert {"clocks", "clock_events", "masked", "revealed"} <= tables(path)
        saved = j.current()
        assert saved.moves == ["e5"] and saved.time_control is None and saved.clock is None
        s = Session.resume(saved, j)
        s.submit(legal(s))
        assert j.load(1).move_count == 2
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    db.close()


def test_a_newer_journal_is_refused_with_one_line(tmp_path):
    path = tmp_path / "new.sqlite"
    SqliteJournal.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer version"):
        SqliteJournal.open(path)


def test_a_repaired_journal_keeps_the_games_clock(tmp_path, caplog):
    """A file cut short (its last pages lost) is salvaged into a fresh one: the game in
    progress keeps its time control, its moves their clocks, and its clock row."""
    path = tmp_path / "j.sqlite"
    t = FakeClock()
    j = SqliteJournal.open(path)
    for _ in range(2):  # enough games for the last pages to hold only events
        Session("binaryon", journal=j).submit(Session("binaryon").state.legal_moves()[0])
    s = clocked(j, "3:00+2", timer=t)
    for _ in range(30):
        s.submit(legal(s))
        t.advance(1.5)
    s.clock_tick()
    j.close()
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 4096])  # the last page lost
    with SqliteJournal.open(path) as again:
        assert again.recovery is not None
        saved = again.current()
        assert saved.time_control == "3:00+2"
        assert saved.entries and all(m.clock is not None for m in saved.entries)
        back = Session.resume(saved, again, timer=t)
        assert back.clock is not None and back.clock.paused
