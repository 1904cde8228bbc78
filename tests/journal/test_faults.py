"""Faults: a damaged journal at start, a full disk, a read-only journal."""

from __future__ import annotations

import errno
import logging
import os
import random
import sqlite3
from pathlib import Path

import pytest

from companion.core.squares import parse_square
from companion.journal.api import JournalError, NullJournal
from companion.journal.db import NotAJournal
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from companion.service.daemon import Daemon
from tests.conftest import daemon_on_journal


def scripted(size: int = 8) -> list[str]:
    s = Session("binaryon", {"size": size}, NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    return s.moves


SCRIPT = scripted()


def build_journal(path: Path, finished: int = 3, in_progress: int = 40) -> int:
    """Finished games, then one in progress; returns the moves of the one in progress."""
    j = SqliteJournal.open(path, clock=lambda: 1_750_000_000.0)
    for _ in range(finished):
        s = Session("binaryon", journal=j)
        while not s.state.is_over():
            s.submit(s.state.legal_moves()[0])
    s = Session("binaryon", journal=j)
    for _ in range(in_progress):
        s.submit(s.state.legal_moves()[0])
    j.close()  # checkpoints: everything is in the main file
    return len(s.moves)


def copies_of(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.iterdir() if ".corrupt-" in p.name)


def press(d: Daemon, clock, square: int) -> None:
    d.board.tap(square)
    d.loop.run_pending()
    clock.advance(0.1)
    d.loop.run_pending()


def check_salvaged(path: Path, damaged: bytes, d: Daemon, caplog) -> None:
    """What every repair must do: keep the damaged bytes, say what was lost, keep only what
    is a true part of the games, and leave a journal that takes new moves."""
    copies = copies_of(path)
    assert copies and copies[0].read_bytes() == damaged
    report = d.journal.recovery
    assert report is not None and report.copies[0] == copies[0]
    lines = [r.getMessage() for r in caplog.records if "was damaged" in r.getMessage()]
    assert len(lines) == 1 and str(copies[0]) in lines[0] and "lost:" in lines[0]
    for entry in d.journal.games():
        assert entry.move_names == SCRIPT[: len(entry.moves)]
    assert d.session.moves == SCRIPT[: len(d.session.moves)]
    before = len(d.session.moves)
    state = d.session.state
    move = state.legal_moves()[0]
    assert d.session.submit(move).accepted
    assert d.journal.current().moves == d.session.moves
    assert len(d.session.moves) > before


def test_a_file_that_is_not_a_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    text = b"my notes, not a journal\n" * 200
    path.write_bytes(text)
    with pytest.raises(NotAJournal, match="no SQLite header"):
        SqliteJournal.open(path)
    assert path.read_bytes() == text and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_journal_whose_first_page_is_garbage_is_salvaged(tmp_path, clock, caplog):
    """Damage inside a journal (its header intact) is still repaired."""
    path = tmp_path / "journal.sqlite"
    build_journal(path)
    data = bytearray(path.read_bytes())
    data[100:4000] = b"power cut while writing? " * 156
    damaged = bytes(data)
    path.write_bytes(damaged)
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        d = daemon_on_journal(path, clock)
    check_salvaged(path, damaged, d, caplog)


@pytest.mark.parametrize("keep", [0.93, 0.8, 0.6, 0.3])
def test_a_truncated_journal_keeps_what_is_readable(tmp_path, clock, caplog, keep):
    path = tmp_path / "journal.sqlite"
    build_journal(path)
    whole = path.read_bytes()
    damaged = whole[: int(len(whole) * keep)]
    path.write_bytes(damaged)
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        d = daemon_on_journal(path, clock)
    report = d.journal.recovery
    assert report is not None and "file cut short" in report.line()
    assert any("game 4" in lost for lost in report.lost)  # the game in progress lost moves
    check_salvaged(path, damaged, d, caplog)


def test_a_lightly_truncated_journal_resumes_the_game_with_what_survived(tmp_path, clock):
    path = tmp_path / "journal.sqlite"
    played = build_journal(path, finished=1, in_progress=60)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 6000])  # the last page and a half
    d = daemon_on_journal(path, clock)
    assert d.journal.recovery is not None
    assert "resumed" in d.message
    assert 0 < len(d.session.moves) < played
    assert d.session.moves == SCRIPT[: len(d.session.moves)]


@pytest.mark.parametrize("page", [2, 3, 4, 5, 6])
def test_garbage_inside_a_page_is_worked_round(tmp_path, clock, caplog, page):
    path = tmp_path / "journal.sqlite"
    played = build_journal(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(page)
    start = (page - 1) * 4096 + 8  # keep the page header, garble its cell pointers and cells
    data[start : start + 4000] = bytes(rng.randrange(256) for _ in range(4000))
    damaged = bytes(data)
    path.write_bytes(damaged)
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        d = daemon_on_journal(path, clock)
    if d.journal.recovery is None:  # sqlite found nothing wrong: then nothing may be lost
        assert [len(g.moves) for g in d.journal.games()] == [len(SCRIPT)] * 3 + [played]
        return
    check_salvaged(path, damaged, d, caplog)


def test_tools_never_repair_behind_the_daemon(tmp_path):
    path = tmp_path / "journal.sqlite"
    build_journal(path)
    damaged = path.read_bytes()[: 3 * 4096]
    path.write_bytes(damaged)
    with pytest.raises(JournalError, match="damaged"):
        SqliteJournal.open(path, recover=False)
    assert path.read_bytes() == damaged and not copies_of(path)


def test_no_room_for_the_copy_means_nothing_is_touched(tmp_path, monkeypatch):
    import companion.journal.recovery as journal_module

    path = tmp_path / "journal.sqlite"
    build_journal(path)
    garbage = path.read_bytes()[:16] + b"garbage" * 1000
    path.write_bytes(garbage)

    def full(target, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(journal_module, "write_durably", full)
    with SqliteJournal.open(path) as j:  # read-only, not repaired (issue 28)
        assert j.read_only == "journal damaged, disk full" and j.current() is None
    assert path.read_bytes() == garbage


# --- disk full, read-only ---


def fill_up(db: sqlite3.Connection) -> None:
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_refuses_the_move_and_keeps_journal_and_session_equal(
    tmp_path, journal_connections
):
    path = tmp_path / "journal.sqlite"
    j = SqliteJournal.open(path)
    s = Session("binaryon", journal=j)
    db = journal_connections[-1]
    fill_up(db)
    refused = None
    for _ in range(20 * len(SCRIPT)):
        if s.state.is_over():
            try:
                s.new_game()
            except JournalError as e:
                pytest.skip(f"filled up between games: {e}")
        before = list(s.moves)
        result = s.submit(s.state.legal_moves()[0])
        assert j.load(s.game_id).move_names == s.moves
        if not result.accepted:
            refused = result.refusal
            assert s.moves == before
            break
    assert refused is not None, "the journal never filled up"
    assert (refused.code, refused.reason) == ("cannot-save", "not saved: disk full")
    kept = list(s.moves)
    db.execute("PRAGMA max_page_count = 1000000")  # room again
    assert s.submit(s.state.legal_moves()[0]).accepted
    j.close()
    again = SqliteJournal.open(path).load(s.game_id)
    assert again.move_names == s.moves and s.moves[: len(kept)] == kept


def test_a_read_only_journal_refuses_the_move(tmp_path, journal_connections):
    j = SqliteJournal.open(tmp_path / "journal.sqlite")
    s = Session("binaryon", journal=j)
    journal_connections[-1].execute("PRAGMA query_only = ON")  # as for a read-only file
    result = s.submit(s.state.legal_moves()[0])
    assert not result.accepted
    assert result.refusal.reason == "not saved: journal is read-only"
    assert s.moves == [] and j.current().moves == []


def test_the_daemon_shows_why_a_move_was_not_saved(tmp_path, clock, journal_connections):
    path = tmp_path / "journal.sqlite"
    d = daemon_on_journal(path, clock)
    db = journal_connections[-1]
    db.execute("PRAGMA query_only = ON")
    square = parse_square(SCRIPT[0], 8)
    frame = list(d.leds.frame)
    press(d, clock, square)
    assert d.session.moves == []
    assert d.message == "not saved: journal is read-only"
    assert d.leds.frame[square] != frame[square]  # the refused square is marked
    db.execute("PRAGMA query_only = OFF")
    assert d.session.state.legal_moves()  # nothing was half-applied
    d.journal.close()
    assert SqliteJournal.open(path).current().moves == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_a_journal_file_without_write_permission(tmp_path):
    path = tmp_path / "journal.sqlite"
    j = SqliteJournal.open(path)
    s = Session("binaryon", journal=j)
    j.close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        j2 = SqliteJournal.open(path)
        s2 = Session.resume(j2.current(), j2)
        result = s2.submit(s2.state.legal_moves()[0])
        assert not result.accepted and "read-only" in result.refusal.reason
    except JournalError as e:
        assert "read-only" in str(e) or "cannot open" in str(e)
    finally:
        tmp_path.chmod(0o755)
        path.chmod(0o644)
    assert s.moves == []


def test_a_journal_directory_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="cannot create"):
        SqliteJournal.open(blocker / "sub" / "journal.sqlite")


def test_a_refused_journal_gets_no_lock_file_beside_it(tmp_path, capsys):
    """``sim --journal notes.txt`` refuses the text file and leaves the folder as it was: no
    ``notes.txt.lock`` (nor for another program's database opened with the daemon's lock)."""
    from companion.cli.main import main

    path = tmp_path / "notes.txt"
    text = b"my notes, not a journal\n" * 20
    path.write_bytes(text)
    assert main(["sim", "--journal", str(path)]) == 2
    assert "not an SQLite journal" in capsys.readouterr().err
    assert path.read_bytes() == text and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(JournalError):
        SqliteJournal.open(other, lock=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "other.db"]
