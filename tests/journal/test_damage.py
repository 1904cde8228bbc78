"""Review fixes: a damaged WAL is never lost silently, a read-only journal opens read-only,
a game abandoned elsewhere starts a fresh one, negative move times, extra record tags, and
the command-line tools find the daemon's journal."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion.journal.db as journal_db
from companion.cli import journal_args
from companion.cli.main import main
from companion.core.squares import parse_square
from companion.games.base import Outcome
from companion.journal.api import GameClosed, JournalError, MoveEntry
from companion.journal.recovery import examine
from companion.journal.rows import ABANDONED, FINISHED, IN_PROGRESS
from companion.journal.store import SqliteJournal
from companion.journal.wal import scan_wal
from companion.records.check import validate
from companion.records.format import format_record, record_from_entry
from companion.records.read import parse_record
from companion.referee.session import Session
from tests.conftest import daemon_on_journal
from tests.paths import REPO

ROOT = REPO
FRAME = 24 + 4096  # a WAL frame: its header and one page

# Plays MOVES first legal moves and dies like kill -9 (no close: no checkpoint, the WAL stays).
# With RESTART, checkpoints and restarts the WAL half way (later frames overwrite earlier ones).
CHILD = textwrap.dedent(
    """
    import os, sqlite3, sys
    sys.path.insert(0, {root!r})
    from companion.journal.store import SqliteJournal
    from companion.referee.session import Session
    j = SqliteJournal.open(sys.argv[1])
    s = Session("binaryon", journal=j)
    for i in range(int(sys.argv[2])):
        if sys.argv[3] == "restart" and i == 5:  # as another program may, between two writes
            other = sqlite3.connect(sys.argv[1])
            other.execute("PRAGMA wal_checkpoint(RESTART)")
            other.close()
        s.submit(s.state.legal_moves()[0])
    print(" ".join(s.moves), flush=True)
    os._exit(0)
    """
)


def play_and_die(path: Path, moves: int = 6, mode: str = "plain") -> list[str]:
    code = CHILD.format(root=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), str(moves), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return out.stdout.split()


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def copies_of(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.iterdir() if ".corrupt-" in p.name)


@pytest.fixture(scope="module")
def crashed(tmp_path_factory) -> tuple[Path, list[str]]:
    """A journal whose last 6 moves are only in its WAL (the process died)."""
    base = tmp_path_factory.mktemp("crashed") / "journal.sqlite"
    played = play_and_die(base)
    assert wal_of(base).stat().st_size > 10 * FRAME
    return base, played


def copy_journal(src: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / "journal.sqlite"
    shutil.copy(src, target)
    shutil.copy(wal_of(src), wal_of(target))  # not the -shm: a restart has none worth keeping
    return target


def flip(path: Path, at: int, mask: int = 0xFF) -> tuple[bytes, bytes]:
    """Damage one byte of the WAL; returns the bytes of (main file, WAL) as left."""
    data = bytearray(wal_of(path).read_bytes())
    data[at] ^= mask
    wal_of(path).write_bytes(data)
    return path.read_bytes(), bytes(data)


# --------------------------------------------------------------------------- 1. damaged WAL


def test_a_damaged_wal_frame_is_said_and_the_commits_after_it_are_kept_in_the_copy(
    tmp_path, crashed, caplog
):
    """One bad byte in frame 13: SQLite replays the WAL up to it; the commits after it are
    not rebuilt but kept, with the bytes as found, in the copy the line names."""
    path = copy_journal(crashed[0], tmp_path)
    db_bytes, wal_bytes = flip(path, 32 + 12 * FRAME + 24 + 200)
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        j = SqliteJournal.open(path)
    report = j.recovery
    assert report is not None and "WAL frame 13" in report.problem
    kept = copies_of(path)
    assert [p.name.endswith("-wal") for p in kept] == [False, True]
    assert kept[0].read_bytes() == db_bytes and kept[1].read_bytes() == wal_bytes
    lines = [r.getMessage() for r in caplog.records if "was damaged" in r.getMessage()]
    assert len(lines) == 1 and str(kept[0]) in lines[0]
    assert (
        f"after WAL frame 12 (moves among them) survive only in the kept copy {kept[1]}"
        in (lines[0])
    )
    moves = j.current().moves
    assert moves == crashed[1][: len(moves)] and len(moves) < len(crashed[1])
    assert "game 1: perhaps moves after the first" in lines[0]
    s = Session.resume(j.current(), j)
    assert s.submit(s.state.legal_moves()[0]).accepted  # and it takes new moves
    j.close()
    assert SqliteJournal.open(path).current().moves == s.moves


def test_a_wal_magic_one_bit_off_is_damage_not_a_write_cut_short(tmp_path, crashed):
    """0x377f0682 and 0x377f0683 are both WAL magics: one flipped bit swaps the checksums'
    byte order, and every frame then looked unwritten (all its moves left out, unsaid)."""
    path = copy_journal(crashed[0], tmp_path)
    flip(path, 3, 0x01)
    j = SqliteJournal.open(path)
    assert j.recovery is not None and "WAL header damaged" in j.recovery.problem
    assert "in the WAL (moves among them) survive only in the kept copy" in j.recovery.line()
    moves = j.current().moves if j.current() else []
    assert moves == crashed[1][: len(moves)]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_damaged_byte_of_the_wal_is_kept_and_reported(tmp_path_factory, crashed, data, caplog):
    src, played = crashed
    size = wal_of(src).stat().st_size
    last_write = 32 + 15 * FRAME  # frames 16 and 17 are the last move's commit
    at = data.draw(st.integers(0, size - 1), label="byte")
    mask = data.draw(st.sampled_from([0x01, 0x10, 0x80, 0xFF]), label="mask")
    path = copy_journal(src, tmp_path_factory.mktemp("flip"))
    db_bytes, wal_bytes = flip(path, at, mask)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        j = SqliteJournal.open(path)
    report = j.recovery
    if report is None:  # only the last write can look like one that never completed
        assert at >= last_write
        assert "did not complete" in caplog.text and "WAL kept as" in caplog.text
        kept = sorted(p for p in path.parent.iterdir() if ".cut-" in p.name)
        assert len(kept) == 1 and kept[0].read_bytes() == wal_bytes
        assert j.current().moves == played[:-1]
        return
    kept = copies_of(path)
    assert kept[0].read_bytes() == db_bytes and kept[1].read_bytes() == wal_bytes
    moves = [g.move_names for g in j.games()]
    got = moves[0] if moves else []
    assert got == played[: len(got)]
    if len(got) < len(played):  # anything missing is said
        lost = "; ".join(report.lost)
        assert "survive only in the kept copy" in lost or "game 1" in lost, report.line()
    j.close()


def test_tools_never_open_a_damaged_wal_behind_the_daemon(tmp_path, crashed):
    path = copy_journal(crashed[0], tmp_path)
    db_bytes, wal_bytes = flip(path, 32 + 5 * FRAME + 24 + 300)
    with pytest.raises(JournalError, match="damaged"):
        SqliteJournal.open(path, recover=False)
    assert path.read_bytes() == db_bytes and wal_of(path).read_bytes() == wal_bytes
    assert not copies_of(path)


def test_a_healthy_wal_is_not_changed_by_the_check(tmp_path, crashed):
    path = copy_journal(crashed[0], tmp_path)
    before = (path.read_bytes(), wal_of(path).read_bytes())
    found, problem, _ = examine(path)
    assert problem is None and found == {"-wal": before[1]}  # the main file checked in place
    assert (path.read_bytes(), wal_of(path).read_bytes()) == before


def test_frames_left_from_an_earlier_wal_cycle_are_not_damage(tmp_path):
    """After a checkpoint SQLite writes the WAL from the start again: the old frames after
    the new ones carry other salts and are normal."""
    path = tmp_path / "journal.sqlite"
    played = play_and_die(path, moves=7, mode="restart")
    scan = scan_wal(wal_of(path).read_bytes())
    assert scan.header_ok and (wal_of(path).stat().st_size - 32) // FRAME > len(scan.frames)
    j = SqliteJournal.open(path)
    assert j.recovery is None and j.current().moves == played


def test_a_write_cut_short_at_the_end_of_the_wal_is_logged_not_damage(tmp_path, crashed, caplog):
    """A kill or power cut inside a commit leaves its frames unfinished: that write was
    never confirmed, so it is no damage (no copy), but the daemon says it was left out."""
    path = copy_journal(crashed[0], tmp_path)
    wal = wal_of(path).read_bytes()
    wal_of(path).write_bytes(wal[: len(wal) - FRAME // 2])  # the last frame half written
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        j = SqliteJournal.open(path)
    assert j.recovery is None and not copies_of(path)
    assert "the last write before the stop did not complete (3 WAL frames" in caplog.text
    assert "WAL kept as" in caplog.text  # a damaged last commit would look the same
    assert j.current().moves == crashed[1][:-1]


def test_a_write_that_never_reached_its_commit_frame_is_left_out_quietly(tmp_path, crashed, caplog):
    path = copy_journal(crashed[0], tmp_path)
    wal = wal_of(path).read_bytes()
    wal_of(path).write_bytes(wal[: len(wal) - FRAME])  # the commit frame never written
    with caplog.at_level(logging.WARNING, logger="binaryon"):
        j = SqliteJournal.open(path)
    assert j.recovery is None and "no commit among them" in caplog.text
    assert not [p for p in tmp_path.iterdir() if ".cut-" in p.name or ".corrupt-" in p.name]
    assert j.current().moves == crashed[1][:-1]


def test_a_damaged_frame_before_a_later_commit_is_damage_even_at_the_end(tmp_path, crashed):
    """The same bytes cut short, but with a sound commit after the bad frame: damage."""
    path = copy_journal(crashed[0], tmp_path)
    flip(path, 32 + 18 * FRAME + 24 + 100)  # frame 19: the last commit (frame 20) follows
    j = SqliteJournal.open(path)
    assert j.recovery is not None and "1 commits after it" in j.recovery.problem


# --------------------------------------------------------------------------- 2. read-only

READ_ONLY_CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, {root!r})
    from companion.core.config import Config
    from companion.service.daemon import Daemon
    from companion.hardware.simulated.mock_board import MockBoard
    from companion.journal.store import SqliteJournal
    path = sys.argv[1]
    j = SqliteJournal.open(path)
    now = [1000.0]
    d = Daemon(Config.default(), board=MockBoard(8, "switch", lambda: now[0]), journal=j,
               clock=lambda: now[0])
    d.board.start(d.loop.post)
    d.loop.run_pending()
    resumed = list(d.session.moves)
    d.board.tap(d.session.state.legal_moves()[0].cell)
    d.loop.run_pending(); now[0] += 0.1; d.loop.run_pending()
    print(json.dumps({{"read_only": j.read_only, "resumed": resumed, "message": d.message,
                      "moves": d.session.moves, "recovery": j.recovery is not None}}))
    """
)


def unshare_works() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not unshare_works(), reason="needs root and unshare -m for a ro mount")
@pytest.mark.parametrize("left", ["after a crash", "closed cleanly"])
def test_the_daemon_starts_on_a_read_only_file_system_and_refuses_moves(tmp_path, left):
    """A real read-only bind mount (in a private mount namespace), so it holds for root too.
    After a crash the journal has its WAL (the moves in it must still be seen); closed
    cleanly it has none, and sqlite cannot make the -shm it needs to read it."""
    folder = tmp_path / "state"
    folder.mkdir()
    played = play_and_die(folder / "journal.sqlite", moves=3)
    if left == "closed cleanly":
        SqliteJournal.open(folder / "journal.sqlite").close()
        assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite"]
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    code = READ_ONLY_CHILD.format(root=str(ROOT))
    script = tmp_path / "child.py"
    script.write_text(code)
    d = str(folder)
    shell = (
        f"mount --bind {d} {d} && mount -o remount,ro,bind {d} {d} && "
        f"{sys.executable} {script} {d}/journal.sqlite"
    )
    out = subprocess.run(
        ["unshare", "-m", "sh", "-c", shell], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr

    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["read_only"] == "read-only file system" and not got["recovery"]
    assert got["resumed"] == played
    assert got["message"] == "not saved: journal is read-only"
    assert got["moves"] == played
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_read_only_directory_opens_read_only(tmp_path, monkeypatch, crashed, capsys):
    """Without a mount: sqlite's real 'unable to open' error (SQLITE_CANTOPEN) from opening
    in a missing folder stands in for the one a read-only folder gives, and os.access says
    the folder is not writable (root's own os.access would say it is)."""
    path = copy_journal(crashed[0], tmp_path / "state")
    try:
        sqlite3.connect(tmp_path / "missing" / "x.sqlite")
    except sqlite3.OperationalError as e:
        cantopen = e
    assert cantopen.sqlite_errorname == "SQLITE_CANTOPEN"

    def refuse(p):
        raise cantopen

    real_access = os.access
    monkeypatch.setattr(journal_db, "open_rw", refuse)
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK and real_access(p, mode))
    j = SqliteJournal.open(path)
    assert j.read_only and "no write permission" in j.read_only
    assert j.current().moves == crashed[1]  # the WAL's commits are read too
    with pytest.raises(JournalError, match="^journal is read-only$"):
        ply = len(crashed[1])
        j.commit_turn(j.current().game_id, ply, [MoveEntry(ply, "a1")], None)
    s = Session.resume(j.current(), j)
    result = s.submit(s.state.legal_moves()[0])
    assert not result.accepted and result.refusal.reason == "not saved: journal is read-only"
    j.close()
    capsys.readouterr()
    assert main(["abandon", "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert "is read-only (no write permission" in err and "binaryon group" in err


def test_tools_say_a_read_only_journal_cannot_take_an_import(tmp_path, monkeypatch, capsys):
    path = tmp_path / "journal.sqlite"
    SqliteJournal.open(path).close()
    cantopen = sqlite3.OperationalError("unable to open database file")
    cantopen.sqlite_errorname = "SQLITE_CANTOPEN"
    monkeypatch.setattr(journal_db, "open_rw", lambda p: (_ for _ in ()).throw(cantopen))
    monkeypatch.setattr(os, "statvfs", lambda p: os.statvfs_result((0,) * 8 + (os.ST_RDONLY, 0)))
    record = tmp_path / "game.txt"
    record.write_text('[Game "binaryon"]\n\n1. e5\n')
    assert main(["import", str(record), "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("is read-only (read-only file system)") and "\n" not in err
    assert main(["history", "--journal", str(path)]) == 0  # reading still works


def test_a_damaged_journal_is_still_damage_when_writable(tmp_path):
    """Only an open failure on a read-only place counts as read-only."""
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"SQLite format 3\0" + b"not a journal" * 500)
    j = SqliteJournal.open(path)
    assert j.recovery is not None and j.read_only is None


# --------------------------------------------------------------------------- 3. closed elsewhere


def test_a_game_abandoned_elsewhere_makes_the_daemon_start_a_new_one(tmp_path, clock):
    path = tmp_path / "journal.sqlite"
    d = daemon_on_journal(path, clock)

    def tap(name: str) -> None:
        d.board.tap(parse_square(name, 8))
        d.loop.run_pending()
        clock.advance(0.1)
        d.loop.run_pending()

    tap("e5")
    assert d.session.moves == ["e5"] and d.session.game_id == 1
    with SqliteJournal.open(path) as other:  # e.g. `binaryon abandon` in a shell
        other.abandon(1)
    tap("d4")
    assert d.message.startswith("game 1 was closed")
    assert d.session.game_id == 2 and d.session.moves == []
    with SqliteJournal.open(path) as j:
        assert j.load(1).status == ABANDONED and j.load(1).move_names == ["e5"]
        assert j.current().game_id == 2
    tap("e5")  # and the new game takes moves
    assert d.session.moves == ["e5"]


def test_every_write_to_a_game_closed_elsewhere_raises_game_closed(tmp_path):
    path = tmp_path / "journal.sqlite"
    j = SqliteJournal.open(path)
    gid = j.begin("binaryon", {}, {})
    j.commit_turn(gid, 0, [MoveEntry(0, "e5")], None)
    with SqliteJournal.open(path) as other:
        other.abandon(gid)
    with pytest.raises(GameClosed, match="^game 1 was abandoned elsewhere$"):
        j.commit_turn(gid, 1, [MoveEntry(1, "d4")], None)
    with pytest.raises(GameClosed):
        j.takeback(gid, 0)
    with pytest.raises(GameClosed):
        j.commit_turn(gid, 1, [], Outcome(("on",), "ON wins"))
    j.abandon(gid)  # already abandoned: nothing to do
    gid2 = j.begin("binaryon", {}, {})
    j.commit_turn(gid2, 0, [], Outcome(("on",), "ON wins"))
    with pytest.raises(GameClosed, match="was finished elsewhere"):
        j.commit_turn(gid2, 0, [], Outcome(("on",), "ON wins"))
    with pytest.raises(GameClosed, match="was finished elsewhere"):
        j.abandon(gid2)
    assert j.load(gid).move_names == ["e5"] and j.load(gid2).status == FINISHED


# --------------------------------------------------------------------------- 4. and 6. records


def test_move_times_before_the_start_round_trip(tmp_path):
    """A Pi without a real-time clock: the start was stamped with a later clock than the
    moves after it."""
    path = tmp_path / "journal.sqlite"
    start = 1_750_000_000_000
    with SqliteJournal.open(path) as j:
        gid = j.import_game(
            "binaryon",
            {},
            {},
            [("e5", start - 10_000_000), ("d4", start - 12_500), ("c5", start + 1)],
            started=start,
            ended=None,
            status=IN_PROGRESS,
        )
        entry = j.load(gid)
    text = format_record(record_from_entry(entry))
    assert "{-10000s}" in text and "{-12.5s}" in text and "{+0.001s}" in text
    assert "+-" not in text
    rec = parse_record(text)
    validate(rec)
    assert rec.times == [m.at for m in entry.moves]


def test_extra_tags_are_kept_through_the_journal_and_back(tmp_path, capsys):
    record = tmp_path / "game.txt"
    record.write_text(
        '[Game "binaryon"]\n[Event "club night"]\n[Round "3"]\n[On "Ana"]\n\n1. e5 d4\n'
    )
    path = tmp_path / "journal.sqlite"
    assert main(["import", str(record), "--resume", "--journal", str(path)]) == 0
    with SqliteJournal.open(path) as j:
        saved = j.current()
        assert j.load(saved.game_id).tags == {"Event": "club night", "Round": "3"}
        s = Session.resume(saved, j)  # the daemon plays the game to its end
        while not s.state.is_over():
            s.submit(s.state.legal_moves()[0])
        entry = j.load(saved.game_id)
    assert entry.status == FINISHED and entry.tags == {"Event": "club night", "Round": "3"}
    assert "record_tags" not in (entry.detail or {})
    capsys.readouterr()
    assert main(["export", "last", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert '[Event "club night"]' in out and '[Round "3"]' in out
    assert parse_record(out).tags == {"Event": "club night", "Round": "3"}


def test_a_takeback_that_reopens_a_game_keeps_its_tags(tmp_path):
    with SqliteJournal.open(tmp_path / "journal.sqlite") as j:
        gid = j.import_game(
            "binaryon",
            {},
            {},
            [],
            started=None,
            ended=None,
            status=IN_PROGRESS,
            tags={"Event": "x"},
        )
        j.commit_turn(gid, 0, [], Outcome((), "draw", {"why": "test"}))
        assert j.load(gid).detail == {"why": "test"} and j.load(gid).tags == {"Event": "x"}
        j.takeback(gid, 0)
        assert j.load(gid).tags == {"Event": "x"} and j.load(gid).detail is None


# --------------------------------------------------------------------------- 5. which journal


def write_config(tmp_path: Path, journal: Path) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[journal]\npath = "{journal}"\n')
    return cfg


def test_the_tools_use_the_journal_of_the_config_file(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "daemon" / "journal.sqlite"
    with SqliteJournal.open(journal) as j:
        j.begin("binaryon", {}, {"on": "Ana"})
    monkeypatch.setenv("BINARYON_CONFIG", str(write_config(tmp_path, journal)))
    assert journal_args.default_journal_path() == journal
    assert main(["history"]) == 0
    assert "on=Ana" in capsys.readouterr().out


def test_without_a_config_the_service_journal_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr("companion.service.app.CONFIG_PLACES", ("~/.config/binaryon/config.toml",))
    service = tmp_path / "var-lib" / "journal.sqlite"
    own = tmp_path / "state" / "binaryon" / "journal.sqlite"
    assert journal_args.default_journal_path(service) == own  # neither exists
    service.parent.mkdir()
    service.write_bytes(b"")
    assert journal_args.default_journal_path(service) == service
    own.parent.mkdir(parents=True)
    own.write_bytes(b"")
    assert journal_args.default_journal_path(service) == own  # the user's own comes first


def test_an_unreadable_journal_says_how_to_fix_it(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "journal.sqlite"
    SqliteJournal.open(journal).close()
    journal.chmod(0)
    if os.geteuid() == 0:  # root reads anything: make os.access answer as for a user
        real = os.access
        monkeypatch.setattr(
            os, "access", lambda p, m: not (Path(p) == journal and m == os.R_OK) and real(p, m)
        )
    try:
        assert main(["history", "--journal", str(journal)]) == 2
    finally:
        journal.chmod(0o644)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sudo" in err and "binaryon group" in err


def test_a_bad_config_file_is_one_line(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[journal\n")
    monkeypatch.setenv("BINARYON_CONFIG", str(bad))
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--journal" in err
