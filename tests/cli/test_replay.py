"""``binaryon replay``: a record stepped through on the simulated board, read from a file or
stdin (Enter steps it only when stdin is free), a bad record refused at its first bad move, the
pieces told apart without colour, and the players' names printed with terminal controls
escaped.
"""

from __future__ import annotations

import io

import pytest

from companion.cli.main import main
from companion.games import get_spec
from companion.journal.store import SqliteJournal
from companion.records.format import Record, format_record, record_from_entry
from tests.cli.conftest import RECORD, run_error, run_ok
from tests.records.test_records import GOOD, play


def test_replay_escapes_a_name_from_the_record(tmp_path, capsys):
    rec = Record(game="binaryon", options=get_spec("binaryon").resolve({}), moves=["e5"])
    rec.players = {"on": "Ana\x1b[2J\x1b]0;x\x07"}
    f = tmp_path / "r.txt"
    f.write_text(format_record(rec))
    assert main(["replay", str(f), "--delay", "0", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Ana\\x1b[2J" in out


def test_replay_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RECORD.encode())))
    out = run_ok(capsys, ["replay", "-", "--delay", "0", "--no-colour"])
    assert "stdin: binaryon, 4 moves" in out
    assert "move 4/4: e1" in out


def test_replay_step_needs_stdin_for_enter(capsys):
    assert "--step" in run_error(capsys, ["replay", "-", "--step"])


def test_replay_without_colour_tells_the_pieces_apart_and_names_the_players(tmp_path):
    from companion.cli.replay import replay

    path = tmp_path / "g.txt"
    path.write_text('[Game "binary"]\n[Options "size=8"]\n\n1. c3 c1\n')
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    board = [line for line in out.getvalue().splitlines() if line[:2] in (" 3", " 1")][-2:]
    assert " x " in board[0] and " o " in board[1]
    assert "x black  o white" in out.getvalue()
    path.write_text('[Game "binaryon"]\n[Options "size=8"]\n[On "Ana"]\n\n1. e5 d4\n')
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    assert "score: Ana ON " in out.getvalue()


def test_replay_steps_through_the_record_on_the_simulated_board(tmp_path):
    from companion.cli.replay import replay

    j = SqliteJournal.open(tmp_path / "j.sqlite")
    s = play(j, size=8)
    path = tmp_path / "g.txt"
    path.write_text(format_record(record_from_entry(j.load(s.game_id))))
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    text = out.getvalue()
    assert f"end of record: {s.state.outcome().summary}" in text
    assert f"move {len(s.moves) - 1}/{len(s.moves)}" in text or "move " in text
    assert "OLED" in text and " a  b  c" in text
    stepped = io.StringIO()
    assert replay(str(path), 0, True, stepped, io.StringIO("\n\nq\n"), False) == 0
    assert stepped.getvalue().count("\nmove ") == 2  # two moves, then q


def test_replay_refuses_a_bad_record(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(GOOD.replace("2. e5 e1", "2. e5 a8"))
    assert main(["replay", str(path), "--delay", "0"]) == 2
    assert "move 4 a8: a8: already black" in capsys.readouterr().err


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "1e9"])
def test_replay_delay_that_is_not_a_number_of_seconds(tmp_path, capsys, monkeypatch, delay):
    p = tmp_path / "g.txt"
    p.write_text(RECORD)
    monkeypatch.setattr("time.sleep", lambda s: pytest.fail(f"replay slept {s} s"))
    err = run_error(capsys, ["replay", str(p), "--delay", delay])
    assert err.startswith("binaryon: --delay") and "between 0 and" in err
