"""Issue 33: an old (version-1) journal or an empty SQLite file gives every reading command a
plain answer (the games it holds, or none), never an SQL error, and the file is not written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli.main import main

V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
    players TEXT NOT NULL, started TEXT NOT NULL, ended TEXT,
    status TEXT NOT NULL DEFAULT 'in_progress', result TEXT, summary TEXT,
    detail TEXT, note TEXT);
CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,
    kind TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT, at TEXT);
PRAGMA user_version = 1;
"""
READS = (["history"], ["history", "--json"], ["export", "last"], ["export", "1"])


def version_1(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.execute(
        "INSERT INTO games (game, options, players, started) VALUES"
        " ('binaryon', '{}', '{\"on\": \"Ann\"}', '2025-01-01T00:00:00.000Z')"
    )
    for ply, move in enumerate(("e5", "d4", "c3")):
        db.execute(
            "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', ?, ?)", (ply, move)
        )
    db.execute("INSERT INTO events (game_id, kind, ply) VALUES (1, 'takeback', 2)")
    db.commit()
    db.close()


def empty_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE scratch (a)")
    db.execute("DROP TABLE scratch")
    db.commit()
    db.close()


def untouched(tmp_path: Path, path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_version_1_journal_is_read_by_every_reading_command(tmp_path, capsys):
    path = tmp_path / "old.sqlite"
    version_1(path)
    before = path.read_bytes()
    assert main(["history", "--json", "--journal", str(path)]) == 0
    (game,) = json.loads(capsys.readouterr().out)
    assert game["moves"] == 2 and game["takebacks"] == 1 and game["players"] == {"on": "Ann"}
    assert main(["history", "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "in progress" in out[1] and "on=Ann" in out[1]
    for which in ("last", "1"):
        assert main(["export", which, "--journal", str(path)]) == 0
        record = capsys.readouterr().out
        assert '[On "Ann"]' in record and "1. e5 d4" in record and "c3" in record
    untouched(tmp_path, path, before)


@pytest.mark.parametrize("make", [empty_database, Path.touch], ids=["no tables", "no bytes"])
def test_an_empty_file_is_an_empty_journal_to_every_reading_command(tmp_path, capsys, make):
    path = tmp_path / "empty.sqlite"
    make(path)
    before = path.read_bytes()
    said = []
    for command in READS:
        code = main([*command, "--journal", str(path)])
        out, err = capsys.readouterr()
        said.append((code, out.strip() or err.strip()))
    assert said == [
        (0, "no games yet"),
        (0, "[]"),
        (2, "binaryon: no games in the journal"),
        (2, "binaryon: no game 1 in the journal (see binaryon history)"),
    ]
    untouched(tmp_path, path, before)
