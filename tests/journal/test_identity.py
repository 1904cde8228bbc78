"""Issue 28, data loss: the journal is its real file, not a path. Output paths never name
the journal's own files nor replace what is not a regular file, the lock holds through
links and is refused when it cannot be taken, read-only commands write nothing and say a
lost WAL every time until it is accepted, a WAL that does not belong to a restored file is
never applied, and a damaged journal on a full disk starts read-only."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from companion.cli.journal_args import check_output
from companion.cli.main import main
from companion.journal.api import JournalError
from companion.journal.files import (
    journal_file,
    journal_identity,
)
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from tests.journal.test_bad_input import (
    HOLD,
    ROOT,
    Clock,
    files_in,
    journal_with,
    one_line_error,
    play,
    record_text,
)
from tests.journal.test_damage import play_and_die, wal_of

FRAME = 24 + 4096


def shm_of(path: Path) -> Path:
    return path.with_name(path.name + "-shm")


def as_found(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in ``folder``: its bytes and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture
def writer(tmp_path):
    """A companion holding the journal (its lock), with moves only in its WAL."""
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    j = SqliteJournal.open(path, lock=True)
    s = play(j, 6)
    assert wal_of(path).stat().st_size > 0
    yield path, j, s
    j.close()


# --------------------------------------------------------------------------- 1: own files


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", ".lock"])
def test_export_onto_the_journal_or_one_of_its_files_is_refused(writer, suffix, capsys):
    path, j, s = writer
    target = path.with_name(path.name + suffix)
    before = target.read_bytes()
    assert main(["export", "last", "--journal", str(path), "-o", str(target)]) == 2
    assert "give another file" in one_line_error(capsys)
    assert target.read_bytes() == before
    assert s.submit(s.state.legal_moves()[0]).accepted  # the companion plays on, all kept
    assert j.current().moves == s.moves


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", ".lock"])
def test_backup_onto_the_journal_or_one_of_its_files_is_refused(writer, suffix, capsys):
    path, j, s = writer
    target = path.with_name(path.name + suffix)
    before = target.read_bytes()
    assert main(["backup", str(target), "--journal", str(path)]) == 2
    assert "give another file" in one_line_error(capsys)
    assert target.read_bytes() == before
    j.close()
    assert SqliteJournal.open(path).current().moves == s.moves  # nothing lost


def test_the_journal_through_a_symlink_is_still_refused_as_output(writer, tmp_path, capsys):
    path, _, _ = writer
    link = tmp_path / "elsewhere.txt"
    link.symlink_to(wal_of(path))
    assert main(["export", "last", "--journal", str(path), "-o", str(link)]) == 2
    assert "give another file" in one_line_error(capsys)
    assert link.is_symlink() and wal_of(path).stat().st_size > 0


def test_a_write_into_a_journal_file_replaced_under_the_companion_is_refused(writer):
    """Another program put a new file in the journal's place: a move written now would go
    into the deleted file; it is refused and said instead."""
    path, j, s = writer
    other = path.with_name("other.sqlite")
    journal_with(other, finished=1, in_progress=0)
    os.replace(other, path)
    result = s.submit(s.state.legal_moves()[0])
    assert not result.accepted and "removed or replaced by another program" in str(result.refusal)


# --------------------------------------------------------------------------- 2: links


def test_a_second_companion_through_a_symlink_is_refused(tmp_path):
    path = tmp_path / "journal.sqlite"
    link = tmp_path / "link.sqlite"
    link.symlink_to(path)
    refused = pytest.raises(JournalError, match=f"in use by process {os.getpid()}")
    with SqliteJournal.open(path, lock=True), refused:
        SqliteJournal.open(link, lock=True)


def test_a_symlink_to_the_folder_finds_the_same_lock(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    refused = pytest.raises(JournalError, match="in use by")
    with SqliteJournal.open(tmp_path / "real" / "j.sqlite", lock=True), refused:
        SqliteJournal.open(tmp_path / "alias" / "j.sqlite", lock=True)


@pytest.mark.parametrize("through", ["the link", "the journal"])
def test_a_journal_with_a_hard_link_is_refused(tmp_path, through):
    """Each name would get its own WAL: moves through one vanish from the other."""
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    link = tmp_path / "link.sqlite"
    os.link(path, link)
    name = link if through == "the link" else path
    for how in ({"lock": True}, {"read_only": True}, {}):
        with pytest.raises(JournalError, match="2 hard links") as e:
            SqliteJournal.open(name, **how)
        assert "\n" not in str(e.value)
    assert files_in(tmp_path) == ["journal.sqlite", "link.sqlite"]


def test_resume_import_through_a_symlink_is_refused_while_the_companion_runs(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path)
    link = tmp_path / "link.sqlite"
    link.symlink_to(path)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(root=str(ROOT)), str(path)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        record = tmp_path / "r.txt"
        record.write_text(record_text(tmp_path / "x"))
        before = SqliteJournal.open(path, read_only=True).current()
        assert main(["import", str(record), "--resume", "--journal", str(link)]) == 2
        assert "stop the daemon first" in one_line_error(capsys)
        with SqliteJournal.open(path, read_only=True) as j:
            assert j.current() == before
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_the_identity_helper_names_one_file_by_any_name(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    link = tmp_path / "link.sqlite"
    link.symlink_to(path)
    a, b = journal_identity(path), journal_identity(link)
    assert a == b and a.path == path and a.inode == path.stat().st_ino
    assert a.own_file(link) == path and journal_identity(tmp_path / "none").inode is None
    assert a.own_file(tmp_path / "journal.sqlite-wal")  # even before it exists
    assert check_output(tmp_path / "new.txt", a) == tmp_path / "new.txt"
    assert journal_file(link, "web-tokens.json") == tmp_path / "journal.sqlite.web-tokens.json"
    assert journal_file(tmp_path / "other.sqlite", "web.json").name == "other.sqlite.web.json"


# --------------------------------------------------------------------------- 3: lock refused

NOT_OWNER = textwrap.dedent(
    """
    import os, pwd, sys
    sys.path.insert(0, {root!r})
    from companion.journal.api import JournalError
    from companion.journal.store import SqliteJournal
    if os.geteuid() == 0:  # as another user: root may write any file
        os.setgid(65534)
        os.setuid(65534)
    try:
        SqliteJournal.open(sys.argv[1], lock=True).close()
        print("opened")
    except JournalError as e:
        print("refused:", e)
    """
)


def test_a_lock_file_that_cannot_be_written_is_refused_never_skipped():
    """A lock file left by a run with sudo (root's, not writable by the companion's user)."""
    folder = Path(tempfile.mkdtemp(prefix="binaryon-lock-"))
    try:
        folder.chmod(0o777)
        path = folder / "journal.sqlite"
        journal_with(path, finished=1, in_progress=0)
        path.chmod(0o666)
        lock = folder / "journal.sqlite.lock"
        lock.write_text("process 1 (binaryon run) since 2025-01-01 00:00 UTC\n")
        lock.chmod(0o444)
        out = subprocess.run(
            [sys.executable, "-c", NOT_OWNER.format(root=str(ROOT)), str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.stdout.startswith("refused: cannot take the journal's lock"), out
        assert "permission denied" in out.stdout and out.stdout.count("\n") == 1
        assert "Traceback" not in out.stderr
    finally:
        shutil.rmtree(folder)


# --------------------------------------------------------------------------- 4: lost WAL


@pytest.fixture
def died(tmp_path):
    path = tmp_path / "journal.sqlite"
    played = play_and_die(path, moves=6)
    assert wal_of(path).stat().st_size > 0 and shm_of(path).exists()
    return path, played


def test_after_an_unclean_stop_reading_writes_nothing(died, tmp_path_factory, capsys):
    path, played = died
    before = as_found(path.parent)
    assert main(["history", "--journal", str(path)]) == 0
    assert f"{len(played):>5}  in progress" in capsys.readouterr().out
    assert main(["export", "last", "--journal", str(path)]) == 0
    record = capsys.readouterr().out
    assert all(f" {move}" in record for move in played)
    elsewhere = tmp_path_factory.mktemp("backups")
    assert main(["backup", str(elsewhere / "b.sqlite"), "--journal", str(path)]) == 0
    with SqliteJournal.open(elsewhere / "b.sqlite", read_only=True) as copy:
        assert copy.current().moves == played
    assert as_found(path.parent) == before  # not even the -shm index


def test_a_lost_wal_is_said_by_every_command_every_time_until_accepted(died, capsys):
    path, played = died
    wal_of(path).unlink()
    before = as_found(path.parent)
    for _ in range(2):
        assert main(["history", "--journal", str(path)]) == 1
        assert "WAL lost" in capsys.readouterr().err
    assert as_found(path.parent) == before  # no empty WAL made, the index kept as found
    j = SqliteJournal.open(path)  # the companion's start: copies kept, the loss recorded
    assert j.recovery is not None and j.loss and "WAL lost" in j.loss
    j.close()
    copy = str(path.parent / "b.sqlite")
    for command in (["history"], ["export", "last"], ["backup", copy], ["history"]):
        assert main([*command, "--journal", str(path)]) != 0  # 2: no games left to export
        assert "WAL lost" in capsys.readouterr().err
    j = SqliteJournal.open(path)  # and every later start says it again
    assert j.loss and "WAL lost" in j.loss
    j.close()
    assert main(["accept-loss", "--journal", str(path)]) == 0
    assert "accepted" in capsys.readouterr().out
    assert main(["history", "--journal", str(path)]) == 0
    assert "WAL lost" not in capsys.readouterr().err
    assert any(".corrupt-" in name and name.endswith("-shm") for name in files_in(path.parent))


def test_accept_loss_before_any_start_keeps_the_copies_first(died, capsys):
    path, _ = died
    wal_of(path).unlink()
    assert main(["accept-loss", "--journal", str(path)]) == 0
    assert "WAL lost" in capsys.readouterr().err  # said once more, as it is accepted
    assert any(".corrupt-" in name and name.endswith("-shm") for name in files_in(path.parent))
    assert main(["history", "--journal", str(path)]) == 0


# --------------------------------------------------------------------------- 5: special files


def special_files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    made["a FIFO"] = fifo
    try:
        device = tmp_path / "full"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # as /dev/full
        made["a device"] = device
    except OSError:
        pass  # no right to make device nodes here: the FIFO and the socket stand for them
    return made


def test_backup_never_replaces_what_is_not_a_regular_file(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    for kind, target in special_files(tmp_path).items():
        mode = target.lstat().st_mode
        assert main(["backup", str(target), "--journal", str(path)]) == 2
        assert f"is {kind}, not a regular file" in one_line_error(capsys)
        assert target.lstat().st_mode == mode  # still the FIFO, the device
        link = tmp_path / f"link-to-{target.name}"
        link.symlink_to(target)
        assert main(["backup", str(link), "--journal", str(path)]) == 2
        one_line_error(capsys)
        assert link.is_symlink() and target.lstat().st_mode == mode


def test_backup_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    (tmp_path / "backups").mkdir()
    real = tmp_path / "backups" / "copy.sqlite"
    real.write_bytes(b"old")
    link = tmp_path / "latest.sqlite"
    link.symlink_to(real)
    assert main(["backup", str(link), "--journal", str(path)]) == 0
    assert link.is_symlink() and real.read_bytes().startswith(b"SQLite format 3")


# --------------------------------------------------------------------------- 6: restore


def test_a_backup_restored_beside_a_stale_wal_is_never_overridden(tmp_path, capsys, caplog):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=2, in_progress=0)
    backup = tmp_path / "backup.sqlite"
    assert main(["backup", str(backup), "--journal", str(path)]) == 0
    said = capsys.readouterr().out
    with SqliteJournal.open(backup, read_only=True) as b:
        kept = [(g.id, g.status, len(g.moves)) for g in b.games()]
    played = play_and_die(path, moves=8)  # the crash: a third game, only in the WAL
    assert len(played) == 8 and wal_of(path).stat().st_size > 0
    stale = wal_of(path).read_bytes()
    shutil.copyfile(backup, path)  # the restore, the crashed journal's WAL left beside it

    with SqliteJournal.open(path, read_only=True) as j:  # read: shown as restored
        assert [(g.id, g.status, len(g.moves)) for g in j.games()] == kept
    assert main(["history", "--journal", str(path)]) == 1  # and said
    assert "does not belong" in capsys.readouterr().err
    assert wal_of(path).read_bytes() == stale

    j = SqliteJournal.open(path)  # the companion's start sets it aside, never applies it
    assert [(g.id, g.status, len(g.moves)) for g in j.games()] == kept
    assert j.current() is None and "does not belong" in caplog.text
    j.close()
    copies = [p for p in tmp_path.iterdir() if ".stale-" in p.name and p.name.endswith("-wal")]
    assert len(copies) == 1 and copies[0].read_bytes() == stale
    assert "to restore it: stop the companion, then copy it over the journal" in said


def test_a_write_command_beside_a_stale_wal_is_refused(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=1, in_progress=0)
    backup = tmp_path / "backup.sqlite"
    assert main(["backup", str(backup), "--journal", str(path)]) == 0
    play_and_die(path, moves=4)
    shutil.copyfile(backup, path)
    assert main(["abandon", "--journal", str(path)]) == 2
    assert "does not belong" in one_line_error(capsys)


# --------------------------------------------------------------------------- 7: full disk


def test_a_damaged_journal_on_a_full_disk_starts_read_only_with_one_oled_line(died, monkeypatch):
    """The service must not exit (systemd would restart it in a loop): it starts read-only."""
    import companion.journal.recovery as repair
    from companion.core.config import Config
    from companion.service.app import build_daemon

    path, _ = died
    wal = bytearray(wal_of(path).read_bytes())
    wal[32 + 1 * FRAME + 24 + 200] ^= 0xFF  # frame 2 damaged: later commits follow it
    wal_of(path).write_bytes(bytes(wal))

    def full(target, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(repair, "write_durably", full)
    before = as_found(path.parent)
    cfg = Config.default().with_overrides(board={"driver": "mock"}, journal={"path": str(path)})
    daemon, closers = build_daemon(cfg, service=True)
    try:
        assert daemon.journal.read_only == "journal damaged, disk full"
        assert "journal damaged, disk full: moves cannot be saved" in daemon.message
        session = daemon.session
        assert not session.submit(session.state.legal_moves()[0]).accepted
    finally:
        daemon.stop()
        for close in closers:
            close()
    after = as_found(path.parent)
    after.pop("journal.sqlite.lock", None)
    assert after == before  # the damaged bytes as found: nothing repaired, nothing lost


def test_a_move_into_a_journal_whose_file_is_gone_is_refused_and_said(tmp_path):
    path = tmp_path / "journal.sqlite"
    j = SqliteJournal.open(path, lock=True)
    s = Session("binaryon", journal=j)
    assert s.submit(s.state.legal_moves()[0]).accepted
    path.unlink()
    wal_of(path).unlink()
    result = s.submit(s.state.legal_moves()[0])
    assert not result.accepted and "was removed or replaced" in str(result.refusal)
    j.close()


def test_every_start_of_the_companion_says_an_unaccepted_loss(died, monkeypatch):
    from companion.service.daemon import Daemon
    from tests.conftest import daemon_on_journal

    said: list[str] = []
    real = Daemon.say
    monkeypatch.setattr(
        Daemon, "say", lambda d, text, *a, **k: said.append(text) or real(d, text, *a, **k)
    )
    path, _ = died
    wal_of(path).unlink()

    def start() -> list[str]:
        said.clear()
        daemon = daemon_on_journal(path, Clock())
        daemon.stop()
        daemon.journal.close()
        return list(said)

    assert "journal repaired" in start()  # found: copies kept, the loss recorded
    assert "journal lost moves: see binaryon history" in start()
    assert "journal lost moves: see binaryon history" in start()
    assert main(["accept-loss", "--journal", str(path)]) == 0
    assert not [line for line in start() if "journal" in line]


# Plays 4 moves holding the lock, then another program removes the WAL (or puts a file in its
# place), 3 more moves, and the process dies like kill -9.
WAL_GONE = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, {root!r})
    from companion.journal.store import SqliteJournal
    from companion.referee.session import Session
    path = sys.argv[1]
    j = SqliteJournal.open(path, lock=True)
    s = Session("binaryon", journal=j)
    for i in range(7):
        if i == 4:
            os.unlink(path + "-wal")
            if sys.argv[2] == "replaced":
                open(path + "-wal", "w").write("game 1 written")
        assert s.submit(s.state.legal_moves()[0]).accepted
    print(" ".join(s.moves), flush=True)
    os._exit(0)
    """
)


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_wal_removed_under_the_companion_loses_nothing_at_the_next_crash(tmp_path, how):
    path = tmp_path / "journal.sqlite"
    out = subprocess.run(
        [sys.executable, "-c", WAL_GONE.format(root=str(ROOT)), str(path), how],
        capture_output=True,
        text=True,
        timeout=60,
    )
    played = out.stdout.split()
    assert len(played) == 7, out.stderr
    with SqliteJournal.open(path) as j:
        assert j.recovery is None and j.current().moves == played


def test_no_room_to_set_a_stale_wal_aside_starts_read_only_on_the_restored_file(
    tmp_path, capsys, monkeypatch
):
    import companion.journal.recovery as checks

    path = tmp_path / "journal.sqlite"
    journal_with(path, finished=2, in_progress=0)
    backup = tmp_path / "backup.sqlite"
    assert main(["backup", str(backup), "--journal", str(path)]) == 0
    with SqliteJournal.open(backup, read_only=True) as b:
        kept = [(g.id, g.status, len(g.moves)) for g in b.games()]
    play_and_die(path, moves=8)
    stale = wal_of(path).read_bytes()
    shutil.copyfile(backup, path)
    monkeypatch.setattr(checks, "keep_copies", lambda *a, **k: [])  # no copy could be made
    with SqliteJournal.open(path, lock=True) as j:
        assert j.read_only and j.read_only.startswith("stale WAL")
        assert [(g.id, g.status, len(g.moves)) for g in j.games()] == kept
    assert wal_of(path).read_bytes() == stale and path.read_bytes() == backup.read_bytes()
