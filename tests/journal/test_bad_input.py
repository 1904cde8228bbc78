"""The journal against hostile input and faults (issues 17 and 18): locks, lost WAL files,
foreign files, bad paths and ids, special output files, damaged rows, huge times, records
that never end; and the scale features of issue 10 (one transaction per press, clean-stop
start, hidden moves, streaming history, bulk import)."""

from __future__ import annotations

import errno
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import companion.journal.db as journal_db
import companion.journal.recovery as recovery
from companion.cli.main import main
from companion.games import get_spec
from companion.journal.api import GameClosed, JournalError, MoveEntry, NullJournal
from companion.journal.db import NotAJournal
from companion.journal.files import acquire_lock, closed_cleanly, holder
from companion.journal.rows import ABANDONED, APPLICATION_ID, FINISHED, IN_PROGRESS
from companion.journal.store import SqliteJournal
from companion.records.format import RecordError, format_record
from companion.records.read import parse_record, read_text
from companion.referee.session import Session
from tests.journal.test_damage import play_and_die, wal_of
from tests.paths import REPO

ROOT = REPO


class Clock:
    def __init__(self) -> None:
        self.t = 1_750_000_000.0

    def __call__(self) -> float:
        self.t += 1.5
        return self.t


def script(size: int = 8) -> list[str]:
    s = Session("binaryon", {"size": size}, NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    return s.moves


SCRIPT = script()


def play(journal, moves: int | None = None, players=None) -> Session:
    s = Session("binaryon", journal=journal, players=players)
    count = 0
    while not s.state.is_over() and (moves is None or count < moves):
        s.submit(s.state.legal_moves()[0])
        count += 1
    return s


def journal_with(path: Path, finished: int = 2, in_progress: int = 5, players=None) -> None:
    with SqliteJournal.open(path, clock=Clock()) as j:
        for _ in range(finished):
            play(j, players=players)
        if in_progress:
            play(j, in_progress)


def record_text(folder: Path, game_id: int = 1, players=None) -> str:
    """The record of a finished game played into ``folder``/source*.sqlite."""
    folder.mkdir(parents=True, exist_ok=True)
    journal = folder / ("source-players.sqlite" if players else "source.sqlite")
    if not journal.exists():
        journal_with(journal, finished=1, in_progress=0, players=players)
    with SqliteJournal.open(journal, read_only=True) as j:
        from companion.records.format import record_from_entry

        return format_record(record_from_entry(j.load(game_id)))


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("binaryon: ") and "\n" not in err and "Traceback" not in err, err
    return err


# --------------------------------------------------------------------------- the lock

HOLD = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {root!r})
    from companion.journal.files import acquire_lock
    lock = acquire_lock(sys.argv[1])
    print("held", flush=True)
    time.sleep(60)
    """
)


@pytest.fixture
def daemon_holding(tmp_path):
    """Another process holding the journal's lock, as the daemon does."""
    path = tmp_path / "journal.sqlite"
    journal_with(path)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(root=str(ROOT)), str(path)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "held"
    yield path, proc
    proc.kill()
    proc.wait()
    proc.stdout.close()


def test_a_second_daemon_is_refused_with_the_holder_named(daemon_holding):
    path, proc = daemon_holding
    with pytest.raises(JournalError) as e:
        acquire_lock(path)
    assert f"process {proc.pid}" in str(e.value) and "\n" not in str(e.value)
    assert holder(path).startswith(f"process {proc.pid}")


def test_a_stale_lock_from_a_dead_process_is_taken_over(daemon_holding):
    path, proc = daemon_holding
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert holder(path) is None
    with acquire_lock(path) as lock:
        assert lock.held and lock.path.read_text().startswith(f"process {os.getpid()} ")
        with pytest.raises(JournalError, match=f"in use by process {os.getpid()}"):
            acquire_lock(path)  # a second daemon in this very process is refused too
    assert holder(path) is None


def test_abandon_and_resume_import_are_refused_while_the_daemon_runs(
    daemon_holding, tmp_path, capsys
):
    path, proc = daemon_holding
    before = SqliteJournal.open(path, read_only=True).current()
    assert main(["abandon", "--journal", str(path)]) == 2
    assert f"in use by process {proc.pid}" in one_line_error(capsys)
    record = tmp_path / "r.txt"
    record.write_text(record_text(tmp_path / "x"))
    assert main(["import", str(record), "--resume", "--journal", str(path)]) == 2
    assert "stop the daemon first" in one_line_error(capsys)
    with SqliteJournal.open(path, read_only=True) as j:
        assert j.current() == before
    assert main(["history", "--journal", str(path)]) == 0  # reading is fine


# --------------------------------------------------------------------------- lost WAL


@pytest.fixture
def died(tmp_path):
    """A journal whose writer died (no close): its last moves are only in the WAL, and the
    -shm index knows how many frames were committed."""
    path = tmp_path / "journal.sqlite"
    played = play_and_die(path, moves=6)
    assert wal_of(path).stat().st_size > 0
    return path, played


def test_a_plain_restart_after_a_kill_reports_nothing(died):
    path, played = died
    j = SqliteJournal.open(path)
    assert j.recovery is None and j.current().moves == played


@pytest.mark.parametrize("how", ["deleted", "zeroed", "cut at a frame boundary"])
def test_a_lost_wal_is_said_never_a_silent_rollback(died, how, caplog):
    path, played = died
    wal = wal_of(path)
    data = wal.read_bytes()
    if how == "deleted":
        wal.unlink()
    elif how == "zeroed":
        wal.write_bytes(bytes(len(data)))
    else:
        wal.write_bytes(data[: 32 + 3 * (24 + 4096)])
    j = SqliteJournal.open(path)
    assert j.recovery is not None and "WAL lost" in j.recovery.problem
    assert "WAL lost" in caplog.text
    current = j.current()  # what SQLite alone gives, now said
    assert current is None or len(current.moves) < len(played)


def test_a_copy_of_the_main_file_alone_says_changes_may_be_missing(died, tmp_path):
    path, _ = died
    copy = tmp_path / "restored" / "journal.sqlite"
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())  # what `cp journal.sqlite` did while it ran
    j = SqliteJournal.open(copy)
    assert j.recovery is not None and "WAL file is missing" in j.recovery.problem
    assert "binaryon backup" in j.recovery.line()


def test_backup_copies_everything_even_what_is_still_in_the_wal(died, tmp_path, capsys):
    path, played = died
    target = tmp_path / "copy.sqlite"
    assert main(["backup", str(target), "--journal", str(path)]) == 0
    assert "copied to" in capsys.readouterr().out
    assert files_in(tmp_path).count("copy.sqlite") == 1
    assert not wal_of(target).exists() and closed_cleanly(target)
    j = SqliteJournal.open(target)
    assert j.recovery is None and j.current().moves == played


def test_backup_while_the_journal_is_open_for_writing(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    j = SqliteJournal.open(path)
    s = play(j, 7)
    assert main(["backup", str(tmp_path / "b.sqlite"), "--journal", str(path)]) == 0
    with SqliteJournal.open(tmp_path / "b.sqlite", read_only=True) as copy:
        assert copy.current().moves == s.moves
    assert s.submit(s.state.legal_moves()[0]).accepted  # the writer carries on


# --------------------------------------------------------------------------- foreign files


def test_another_programs_database_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "photos.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('cat')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(NotAJournal, match="not a binaryon journal"):
        SqliteJournal.open(path)
    assert main(["history", "--journal", str(path)]) == 2
    assert "not a binaryon journal" in one_line_error(capsys)
    assert path.read_bytes() == before and files_in(tmp_path) == ["photos.sqlite"]


def test_our_journals_carry_the_mark(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=0, in_progress=1)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_history_on_a_text_file_is_refused_without_advising_repair(tmp_path, capsys):
    path = tmp_path / "pos.txt"
    path.write_text(". . x o\n" * 8)
    before = path.read_bytes()
    assert main(["history", "--journal", str(path)]) == 2
    err = one_line_error(capsys)
    assert "not an SQLite journal" in err and "repair" not in err
    assert path.read_bytes() == before and files_in(tmp_path) == ["pos.txt"]


def test_history_on_an_empty_file_never_writes(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"")
    assert main(["history", "--journal", str(path)]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert path.read_bytes() == b"" and files_in(tmp_path) == ["journal.sqlite"]


@pytest.mark.parametrize("bad", ["", ".", "/"])
@pytest.mark.parametrize("command", [["history"], ["export", "1"], ["abandon"], ["import", "-"]])
def test_a_journal_path_that_names_no_file_is_one_line(bad, command, capsys):
    assert main([*command, "--journal", bad]) == 2
    assert "journal file name" in one_line_error(capsys) or "folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["export", "abandon"])
def test_a_huge_game_id_is_one_line(tmp_path, command, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    assert main([command, "99999999999999999999", "--journal", str(path)]) == 2
    assert "no game 99999999999999999999" in one_line_error(capsys)


# --------------------------------------------------------------------------- export -o


@pytest.fixture
def finished(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    return path


def test_export_keeps_the_mode_of_the_file_it_replaces(finished, tmp_path):
    out = tmp_path / "game.txt"
    out.write_text("old")
    out.chmod(0o664)
    assert main(["export", "1", "-o", str(out), "--journal", str(finished)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o664 and "[Game " in out.read_text()


def test_export_writes_through_a_symlink(finished, tmp_path):
    real = tmp_path / "records" / "game.txt"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "latest.txt"
    link.symlink_to(real)
    assert main(["export", "1", "-o", str(link), "--journal", str(finished)]) == 0
    assert link.is_symlink() and "[Game " in real.read_text()


def test_export_to_a_fifo_feeds_its_reader(finished, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert main(["export", "1", "-o", str(fifo), "--journal", str(finished)]) == 0
    reader.join(5)
    assert got and "[Game " in got[0] and stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_export_to_dev_full_fails_and_leaves_the_device(finished, capsys):
    assert main(["export", "1", "-o", "/dev/full", "--journal", str(finished)]) == 2
    assert "cannot write /dev/full" in one_line_error(capsys)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


# --------------------------------------------------------------------------- disk full


def test_disk_full_at_start_opens_read_only_and_plays_on_when_there_is_room(
    died, monkeypatch, caplog
):
    path, played = died
    real = journal_db.open_rw
    full = [True]

    def open_rw(p):
        if full[0]:
            raise sqlite3.OperationalError("database or disk is full")
        return real(p)

    monkeypatch.setattr(journal_db, "open_rw", open_rw)
    j = SqliteJournal.open(path)
    assert j.read_only == "disk full" and j.current().moves == played
    assert not [p for p in path.parent.iterdir() if ".cut-" in p.name or ".corrupt-" in p.name]
    s = Session.resume(j.current(), j)
    assert not s.submit(s.state.legal_moves()[0]).accepted  # no room: refused, said
    full[0] = False  # room again
    assert s.submit(s.state.legal_moves()[0]).accepted
    assert j.read_only is None and j.current().moves == s.moves


def test_a_copy_that_fails_for_lack_of_room_leaves_no_file(tmp_path, monkeypatch):
    import companion.journal.recovery as repair

    def no_room(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(repair.os, "fsync", no_room)
    with pytest.raises(OSError):
        repair.write_durably(tmp_path / "x.cut-wal", b"data")
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------- damaged rows


def add_raw_event(path: Path, game_id: int, ply: int, move: str | bytes, at="2025-01-01") -> None:
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (game_id, kind, ply, move, at) VALUES (?, 'move', ?, ?, ?)",
        (game_id, ply, move, at),
    )
    db.commit()
    db.close()


def test_an_inconsistent_move_number_in_the_game_in_progress_is_cut_there(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=4)
    add_raw_event(path, 2, 9, "a1")  # move 10 after move 4
    add_raw_event(path, 2, 10, "b1")
    j = SqliteJournal.open(path)
    assert j.recovery is not None and "move 10 follows move 4" in j.recovery.problem
    assert j.recovery.copies and j.recovery.copies[0].exists()
    assert "game 2: moves after the first 4" in caplog.text
    s = Session.resume(j.current(), j)
    assert s.moves == SCRIPT[:4]
    assert s.submit(s.state.legal_moves()[0]).accepted
    j.close()
    again = SqliteJournal.open(path)
    assert again.recovery is None and again.current().moves == SCRIPT[:5]


def test_an_undecodable_move_in_the_game_in_progress_is_cut_there(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=0, in_progress=3)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (game_id, kind, ply, move, at) VALUES (1, 'move', 3, CAST(? AS TEXT),"
        " CAST(? AS TEXT))",
        (b"\xff\xfe", b"\xff"),
    )
    db.commit()
    db.close()
    j = SqliteJournal.open(path)
    assert j.recovery is not None and j.current().moves == SCRIPT[:3]
    assert main(["history", "--journal", str(path)]) == 0


def test_an_undecodable_time_costs_only_that_time(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=0, in_progress=3)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (game_id, kind, ply, move, at) VALUES (1, 'move', 3, ?,"
        " CAST(? AS TEXT))",
        (SCRIPT[3], b"\xff\xfe"),
    )
    db.execute("UPDATE games SET ply = 4")
    db.commit()
    db.close()
    j = SqliteJournal.open(path)
    saved = j.current()
    assert j.recovery is None and saved.moves == SCRIPT[:4] and saved.entries[3].at is None


def test_a_salvaged_game_no_longer_claims_a_result_its_moves_do_not_give(tmp_path):
    from companion.journal.recovery import RecoveryReport, write_salvage

    row = (1, "binaryon", '{"size": 8}', "{}", "2025-01-01T00:00:00.000Z", None, FINISHED)
    game = (*row, "on", "ON wins", None, None, None, None)  # no clock, no dispute
    events = [(i + 1, 1, "move", i, name, *[None] * 4) for i, name in enumerate(SCRIPT[:10])]
    events.append((len(SCRIPT) + 5, 1, "move", len(SCRIPT) - 1, SCRIPT[-1], *[None] * 4))
    report = RecoveryReport(tmp_path / "j", "test", [])
    write_salvage(tmp_path / "fresh.sqlite", [game], events, report)
    with SqliteJournal.open(tmp_path / "fresh.sqlite") as j:
        entry = j.load(1)
    assert entry.status == ABANDONED and entry.result is None and len(entry.moves) == 10
    assert "no longer follows" in entry.note


def test_a_taken_back_move_that_no_longer_replays_does_not_cut_the_salvaged_game(tmp_path):
    """Only the live moves must replay: a damaged row the player had taken back keeps the
    moves played after the takeback."""
    from companion.journal.recovery import RecoveryReport, write_salvage

    row = (1, "binaryon", '{"size": 8}', "{}", "2025-01-01T00:00:00.000Z", None, IN_PROGRESS)
    game = (*row, None, None, None, None, None, None)
    moves = [(i + 1, 1, "move", i, name, *[None] * 4) for i, name in enumerate(SCRIPT[:6])]
    damaged = (7, 1, "move", 6, "zz99", *[None] * 4)  # cannot be played: taken back next
    takeback = (8, 1, "takeback", 6, None, *[None] * 4)
    later = [(9 + k, 1, "move", 6 + k, SCRIPT[6 + k], *[None] * 4) for k in range(3)]
    report = RecoveryReport(tmp_path / "j", "test", [])
    write_salvage(tmp_path / "fresh.sqlite", [game], [*moves, damaged, takeback, *later], report)
    with SqliteJournal.open(tmp_path / "fresh.sqlite") as j:
        entry = j.load(1)
    assert entry.move_names == SCRIPT[:9] and not report.lost


# --------------------------------------------------------------------------- records


def test_huge_move_times_are_one_line(tmp_path, capsys):
    for seconds in ("99999999999999999999999.026", "9999999999999.026"):
        text = record_text(tmp_path).replace("{+3s}", f"{{+{seconds}s}}", 1)
        assert seconds in text
        f = tmp_path / "r.txt"
        f.write_text(text)
        assert main(["import", str(f), "--journal", str(tmp_path / "j.sqlite")]) == 2
        assert "out of range" in one_line_error(capsys)


def test_a_record_dated_year_one_round_trips(tmp_path, capsys):
    text = record_text(tmp_path)
    start = text.split('[Started "')[1].split('"')[0]
    text = text.replace(start[:4], "0001").replace('[Date "2025', '[Date "0001')
    f = tmp_path / "old.txt"
    f.write_text(text)
    journal = tmp_path / "j.sqlite"
    assert main(["import", str(f), "--journal", str(journal)]) == 0
    assert main(["history", "--journal", str(journal)]) == 0
    assert "0001-" in capsys.readouterr().out
    assert main(["export", "last", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert '[Started "0001-' in out and "{+" in out


def test_a_player_name_with_a_line_break_survives_export_and_import(tmp_path, capsys):
    text = record_text(tmp_path, players={"on": "Ana\nMaria", "off": 'Bo "B" \\ t'})
    assert '[On "Ana\\nMaria"]' in text
    f = tmp_path / "r.txt"
    f.write_text(text)
    assert main(["import", str(f), "--journal", str(tmp_path / "j.sqlite")]) == 0
    with SqliteJournal.open(tmp_path / "j.sqlite", read_only=True) as j:
        assert j.load(1).players == {"on": "Ana\nMaria", "off": 'Bo "B" \\ t'}


def test_a_byte_order_mark_is_accepted(tmp_path, capsys):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + record_text(tmp_path).encode())
    assert main(["import", str(f), "--journal", str(tmp_path / "j.sqlite")]) == 0


def test_records_have_a_size_limit_so_dev_zero_ends(tmp_path, capsys):
    assert main(["import", "/dev/zero", "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert "larger than" in one_line_error(capsys)
    with pytest.raises(RecordError, match="larger than"):
        read_text("/dev/zero", limit=1000)


def test_many_tags_are_read(tmp_path):
    tags = "".join(f'[Tag{i} "v"]\n' for i in range(20000))
    rec = parse_record('[Game "binaryon"]\n' + tags + "\n1. e5\n")
    assert len(rec.tags) == 20000 and rec.moves == ["e5"]
    with pytest.raises(RecordError, match="given twice"):
        parse_record('[Game "binaryon"]\n' + tags + '[tag7 "again"]\n')


def test_importing_the_same_record_twice_needs_allow_duplicate(tmp_path, capsys):
    f = tmp_path / "r.txt"
    f.write_text(record_text(tmp_path))
    journal = str(tmp_path / "j.sqlite")
    assert main(["import", str(f), "--journal", journal]) == 0
    capsys.readouterr()
    assert main(["import", str(f), "--journal", journal]) == 2
    assert "already imported as game 1" in one_line_error(capsys)
    assert main(["import", str(f), "--allow-duplicate", "--journal", journal]) == 0
    with SqliteJournal.open(journal, read_only=True) as j:
        assert j.last_id() == 2


def test_import_reads_standard_input(tmp_path, monkeypatch, capsys):
    import io

    text = record_text(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["import", "-", "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert "imported game 1" in capsys.readouterr().out


def test_import_takes_many_files_and_folders_and_sums_up(tmp_path, capsys):
    folder = tmp_path / "archive"
    folder.mkdir()
    for i in range(3):
        with SqliteJournal.open(tmp_path / f"src{i}.sqlite", clock=Clock()) as j:
            play(j, players={"on": f"P{i}"})
            from companion.records.format import record_from_entry

            (folder / f"g{i}.txt").write_text(format_record(record_from_entry(j.load(1))))
    (folder / "bad.txt").write_text('[Game "binaryon"]\n\n1. z9\n')
    extra = tmp_path / "one.txt"
    extra.write_text(record_text(tmp_path))
    journal = str(tmp_path / "j.sqlite")
    assert main(["import", str(folder), str(extra), "--journal", journal]) == 1
    out, err = capsys.readouterr()
    assert out.strip().splitlines()[-1] == "4 imported, 1 refused: see above"
    assert "bad.txt:3:4: move 1 z9" in err
    with SqliteJournal.open(journal, read_only=True) as j:
        assert [g.players.get("on") for g in j.iter_games()][:3] == ["P0", "P1", "P2"]


# --------------------------------------------------------------------------- issue 10


def count_commits(db: sqlite3.Connection) -> list[str]:
    """The COMMITs the journal's connection ``db`` runs from now on."""
    seen: list[str] = []
    db.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    return seen


def test_a_press_with_its_forced_passes_and_finish_is_one_transaction(
    tmp_path, journal_connections
):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    gid = j.begin("binaryon", get_spec("binaryon").resolve({}), {})
    commits = count_commits(journal_connections[-1])
    entries = [MoveEntry(i, name, "on" if i % 2 else "off") for i, name in enumerate(SCRIPT)]
    spec = get_spec("binaryon")
    state = spec.new(**spec.resolve({}))
    for name in SCRIPT:
        state = state.play(state.parse_move(name))
    j.commit_turn(gid, 0, entries, state.outcome())
    assert commits == ["COMMIT"]
    entry = j.load(gid)
    assert entry.status == FINISHED and entry.move_names == SCRIPT
    assert [m.player for m in entry.moves][:2] == ["off", "on"]
    with pytest.raises(GameClosed):
        j.commit_turn(gid, len(SCRIPT), [MoveEntry(len(SCRIPT), "pass")], None)


def test_commit_turn_refuses_a_gap_and_replaces_after_a_takeback(tmp_path):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    gid = j.begin("binaryon", get_spec("binaryon").resolve({}), {})
    j.commit_turn(gid, 0, [MoveEntry(0, SCRIPT[0]), MoveEntry(1, SCRIPT[1])], None)
    with pytest.raises(JournalError, match="out of order"):
        j.commit_turn(gid, 3, [MoveEntry(3, SCRIPT[3])], None)
    j.takeback(gid, 1)
    j.commit_turn(gid, 1, [MoveEntry(1, SCRIPT[1])], None)
    entry = j.load(gid)
    assert entry.move_names == SCRIPT[:2] and entry.takebacks == 1 and entry.length == 2


def test_secrets_stay_hidden_until_the_game_ends(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    j = SqliteJournal.open(path, clock=lambda: 1_750_000_000.0)
    gid = j.begin("binaryon", get_spec("binaryon").resolve({}), {})
    j.commit_turn(gid, 0, [MoveEntry(0, SCRIPT[0], "off", public="hidden-1")], None)
    saved = j.current()
    assert saved.moves == SCRIPT[:1] and saved.entries[0].public == "hidden-1"
    assert main(["export", "last", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1. hidden-1 {+0s} {hidden}" in out and f" {SCRIPT[0]} " not in out
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert SCRIPT[0] not in capsys.readouterr().out.replace('"moves"', "")
    j.abandon(gid)
    assert main(["export", "last", "--journal", str(path)]) == 0
    assert f"1. {SCRIPT[0]} {{+0s}} {{revealed}}" in capsys.readouterr().out


def test_after_a_clean_stop_the_deep_check_is_skipped(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite"
    journal_with(path)
    assert closed_cleanly(path) and files_in(tmp_path) == ["journal.sqlite"]

    def no_deep_check(*a, **k):
        raise AssertionError("deep check after a clean stop")

    monkeypatch.setattr(recovery, "examine", no_deep_check)
    j = SqliteJournal.open(path)
    assert j.current() is not None and not closed_cleanly(path)  # open: marked in use
    j.close()
    assert closed_cleanly(path)


def test_after_an_unclean_stop_the_deep_check_runs(died, monkeypatch):
    path, _ = died
    calls = []
    real = recovery.examine
    monkeypatch.setattr(recovery, "examine", lambda p: calls.append(p) or real(p))
    SqliteJournal.open(path).close()
    assert calls == [path]


def test_a_version_1_journal_is_upgraded_with_its_move_counts(tmp_path):
    path = tmp_path / "journal.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
            players TEXT NOT NULL, started TEXT NOT NULL, ended TEXT,
            status TEXT NOT NULL DEFAULT 'in_progress', result TEXT, summary TEXT,
            detail TEXT, note TEXT);
        CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,
            kind TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT, at TEXT);
        PRAGMA user_version = 1;
        """
    )
    db.execute(
        "INSERT INTO games (game, options, players, started) VALUES"
        " ('binaryon', '{}', '{}', '2025-01-01T00:00:00.000Z')"
    )
    for i, name in enumerate(SCRIPT[:5]):
        db.execute(
            "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', ?, ?)", (i, name)
        )
    db.execute("INSERT INTO events (game_id, kind, ply) VALUES (1, 'takeback', 3)")
    db.commit()
    db.close()
    with SqliteJournal.open(path) as j:
        entry = next(j.iter_games())
        assert entry.move_count == 3 and entry.takebacks == 1 and entry.status == IN_PROGRESS
        assert j.current().moves == SCRIPT[:3]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_history_filters_and_streams(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=4, in_progress=2)
    with SqliteJournal.open(path, read_only=True) as j:
        assert [g.id for g in j.iter_games(batch=2)] == [1, 2, 3, 4, 5]
        assert [g.id for g in j.iter_games(limit=2)] == [4, 5]
        assert [g.move_count for g in j.iter_games(batch=2)] == [len(SCRIPT)] * 4 + [2]
    assert main(["history", "--limit", "2", "--json", "--journal", str(path)]) == 0
    assert [g["id"] for g in json.loads(capsys.readouterr().out)] == [4, 5]
    assert main(["history", "--game", "binary", "--journal", str(path)]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert main(["history", "--since", "2100-01-01", "--journal", str(path)]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert main(["history", "--since", "2020-01-01", "--json", "--journal", str(path)]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 5
    assert main(["history", "--since", "yesterday", "--journal", str(path)]) == 2
    assert "--since" in one_line_error(capsys)


def test_read_only_commands_never_write_the_journal(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path)
    before = path.read_bytes()
    for command in (["history"], ["history", "--json"], ["export", "last"], ["export", "1"]):
        assert main([*command, "--journal", str(path)]) == 0
    assert path.read_bytes() == before and files_in(tmp_path) == ["journal.sqlite"]


def test_journal_warnings_in_the_tools_carry_the_prefix():
    code = (
        f"import logging, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from companion.cli.journal_args import log_to_stderr\n"
        "log_to_stderr(); logging.getLogger('binaryon').warning('journal j is read-only')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stderr == "binaryon: journal j is read-only\n"


def test_the_lock_holder_opens_its_own_journal_fully(tmp_path):
    """The daemon takes the lock, then opens the journal: that is no other writer."""
    path = tmp_path / "journal.sqlite"
    journal_with(path)
    with acquire_lock(path):
        assert holder(path) is None
        j = SqliteJournal.open(path)
        s = Session.resume(j.current(), j)
        assert s.submit(s.state.legal_moves()[0]).accepted
        j.close()
        assert closed_cleanly(path)  # it marked its clean stop: it was the writer


def test_open_with_lock_refuses_a_second_writer_until_the_first_closes(tmp_path):
    path = tmp_path / "journal.sqlite"
    first = SqliteJournal.open(path, lock=True)
    with pytest.raises(JournalError, match=f"in use by process {os.getpid()}"):
        SqliteJournal.open(path, lock=True)
    first.close()
    SqliteJournal.open(path, lock=True).close()


class FailingMany:
    """A connection whose ``executemany`` fails (a disk I/O error) while ``failing``."""

    def __init__(self, db):
        self.db = db
        self.failing = False

    def executemany(self, sql, rows):
        if self.failing:
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.executemany(sql, rows)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_batch_keeps_each_write_all_or_nothing(tmp_path, journal_connections):
    journal_connections.wrap = FailingMany
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    db = journal_connections[-1]
    commits = count_commits(db.db)
    options = get_spec("binaryon").resolve({})

    def add(moves=()):
        return j.import_game(
            "binaryon", options, {}, list(moves), started=None, ended=None, status=ABANDONED
        )

    with j.batch():
        first = add()
        db.failing = True  # the moves fail after the games row went in
        with pytest.raises(JournalError):  # that record's savepoint is rolled back
            add([("e5", None)])
        db.failing = False
        second = add()
    assert commits == ["COMMIT"] and (first, second) == (1, 2)
    assert [g.id for g in j.iter_games()] == [1, 2]


def test_a_stop_is_clean_only_when_no_other_connection_writes(tmp_path):
    path = tmp_path / "journal.sqlite"
    daemon = SqliteJournal.open(path)
    s = play(daemon, 3)
    tool = SqliteJournal.open(path)  # e.g. an import while the daemon runs
    tool.close()
    assert not closed_cleanly(path)  # the daemon still writes: its WAL must be checked
    assert s.submit(s.state.legal_moves()[0]).accepted
    daemon.close()
    assert closed_cleanly(path) and files_in(tmp_path) == ["journal.sqlite"]


HALF_WRITE = textwrap.dedent(
    """
    import os, sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("PRAGMA cache_size = 2")  # the change spills into the file before its commit
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE games SET note = hex(randomblob(3000))")
    os._exit(0)  # killed in the middle of a rollback-mode write: a hot -journal is left
    """
)


def test_a_write_cut_short_in_rollback_mode_is_undone_not_repaired(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=3, in_progress=4)
    subprocess.run([sys.executable, "-c", HALF_WRITE, str(path)], check=True)
    hot = path.with_name(path.name + "-journal")
    assert hot.exists() and hot.stat().st_size > 0
    assert not closed_cleanly(path)
    j = SqliteJournal.open(path)
    assert j.recovery is None and j.current().moves == SCRIPT[:4]
    assert [g.note for g in j.iter_games()] == [None] * 4


def test_a_full_disk_half_way_through_the_copies_leaves_none(died, monkeypatch):
    import companion.journal.recovery as repair

    path, _ = died
    wal = bytearray(wal_of(path).read_bytes())
    wal[32 + 1 * (24 + 4096) + 24 + 200] ^= 0xFF  # frame 2: later commits follow it
    wal_of(path).write_bytes(bytes(wal))
    real = repair.write_durably
    calls = []

    def second_fails(target, data):
        calls.append(target)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(target, data)

    monkeypatch.setattr(repair, "write_durably", second_fails)
    with SqliteJournal.open(path) as j:  # not repaired: read-only (issue 28), nothing written
        assert j.read_only == "journal damaged, disk full"
    assert len(calls) == 2 and not [p for p in path.parent.iterdir() if ".corrupt-" in p.name]


def test_a_bad_record_makes_no_journal(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "binaryon"]\n\n1. z9\n')
    assert main(["import", str(bad), "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert "move 1 z9" in one_line_error(capsys)
    assert files_in(tmp_path) == ["bad.txt"]
