"""``binaryon history``: the games with their results and players (text and ``--json``), and
nothing made where there is no journal; on any journal (a huge ``--limit``, a FIFO, damaged
rows, also ``export`` of those) the games or one line, never a traceback; names with terminal
controls escaped in the text and kept whole in ``--json``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from tests.conftest import one_line_error
from tests.positions import solo_session
from tests.records.test_records import play


def test_history_with_a_huge_limit_lists_every_game(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        solo_session(j)
    assert main(["history", "--limit", "9" * 20, "--journal", str(path)]) == 0
    assert "binome" in capsys.readouterr().out


def test_history_of_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "journal.fifo"
    os.mkfifo(fifo)
    done: list[int] = []
    runner = threading.Thread(
        target=lambda: done.append(main(["history", "--journal", str(fifo)])), daemon=True
    )
    runner.start()
    runner.join(30)
    if runner.is_alive():
        with open(fifo, "wb"):
            pass
        runner.join(5)
    assert done == [2]
    assert "not a regular file" in one_line_error(capsys)


def damaged_copy(tmp_path: Path, name: str, sql: str) -> Path:
    path = tmp_path / f"{name}.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("binaryon", journal=j, players={"on": "Ana"})
        for _ in range(4):
            s.submit(s.state.legal_moves()[0])
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    return path


@pytest.mark.parametrize(
    "name, sql",
    [
        ("options", "UPDATE games SET options = '[1, 2]'"),
        ("players", "UPDATE games SET players = '[\"Ana\"]'"),
        ("player", "UPDATE games SET players = '{\"on\": 5}'"),
        ("game", "UPDATE games SET game = 'chess'"),
        ("move", "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', 4, x'fffe')"),
        ("ply", "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', 'a', 'e5')"),
    ],
)
def test_export_and_history_of_a_damaged_row_say_one_line(tmp_path, capsys, name, sql):
    path = damaged_copy(tmp_path, name, sql)
    code = main(["export", "1", "--journal", str(path)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    if code != 0:
        assert out.err.count("\n") == 1 and "game 1" in out.err
    for args in (["history"], ["history", "--json"]):
        assert main([*args, "--journal", str(path)]) == 0
        assert "Traceback" not in capsys.readouterr().err


def test_history_escapes_terminal_control_characters_in_names(tmp_path, capsys):
    evil = "Ana\x1b]0;owned\x07\x1b[2J\u202eX"
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("binaryon", journal=j, players={"on": evil})
        s.submit(s.state.legal_moves()[0])
    assert main(["history", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "Ana\\x1b]0;owned\\x07\\x1b[2J\\u202eX" in out
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["players"]["on"] == evil


def test_history_lists_games_with_results(journal_path, capsys):
    j = SqliteJournal.open(journal_path)
    done = play(j, size=4, players={"on": "Ana"})
    play(j, moves=3)
    j.close()
    assert main(["history", "--journal", str(journal_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert "finished" in out[1] and done.state.outcome().summary in out[1] and "on=Ana" in out[1]
    assert "in progress" in out[2]
    assert main(["history", "--json", "--journal", str(journal_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["status"] for g in data] == ["finished", "in_progress"]
    assert data[1]["moves"] == 3


def test_history_without_a_journal_lists_nothing(tmp_path, capsys):
    assert main(["history", "--journal", str(tmp_path / "none.sqlite")]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert main(["history", "--json", "--journal", str(tmp_path / "none.sqlite")]) == 0
    assert capsys.readouterr().out.strip() == "[]"
    assert not list(tmp_path.iterdir())
