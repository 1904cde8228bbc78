"""Binøme's secrets off the table: a solo game's seed (which deals the virtual players'
sheets) stays out of the history, the exported record, the log and the pages until the game
ends; then it is shown and the record replays the game. Each new solo game draws its own.
"""

from __future__ import annotations

import json
import logging

from companion.cli.main import main
from companion.journal.store import SqliteJournal
from companion.records.check import read_record
from companion.records.read import parse_record
from tests.positions import solo_session


def test_the_solo_seed_stays_out_of_history_records_and_pages_until_the_game_ends(
    tmp_path, capsys, caplog
):
    path = tmp_path / "j.sqlite"
    caplog.set_level(logging.DEBUG)
    with SqliteJournal.open(path) as j:
        s = solo_session(j)
        seed = s.options["seed"]
        assert seed != 0 and not s.state.is_over()
        assert j.load(s.game_id).options["seed"] == seed  # the journal keeps it, to resume
    assert main(["history", "--json", "--journal", str(path)]) == 0
    listed = json.loads(capsys.readouterr().out)[0]
    assert "seed" not in listed["options"] and listed["options"]["solo"] == 2
    assert main(["export", "last", "--journal", str(path)]) == 0
    record = capsys.readouterr().out
    assert "seed=" not in record and str(seed) not in record
    assert str(seed) not in caplog.text
    # the record of the game in progress still reads (a new seed for whoever resumes it)
    assert parse_record(record).options["seed"] != seed


def test_the_solo_seed_is_revealed_once_the_game_ends_and_the_record_replays(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = solo_session(j, finish=True)
        seed = s.options["seed"]
        assert s.state.is_over()
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["options"]["seed"] == seed
    out = tmp_path / "game.txt"
    assert main(["export", "last", "--journal", str(path), "-o", str(out)]) == 0
    rec, state = read_record(out)
    assert rec.options["seed"] == seed and state.is_over()
    assert rec.moves == s.moves


def test_a_record_without_its_seed_is_still_the_same_record_on_a_second_import(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        seed = solo_session(j, finish=True).options["seed"]
    assert main(["export", "last", "--journal", str(path)]) == 0
    text = capsys.readouterr().out.replace(f" seed={seed}", "")
    assert "seed=" not in text
    f = tmp_path / "r.txt"
    f.write_text(text)
    again = tmp_path / "again.sqlite"
    assert main(["import", str(f), "--journal", str(again)]) == 0
    assert main(["import", str(f), "--journal", str(again)]) == 2
    assert "already" in capsys.readouterr().err


def test_the_daemon_starts_each_solo_game_with_a_fresh_seed(make_daemon):
    d = make_daemon(game="binome", rules={"players": "Solo", "solo": 2})
    first = d.session.options["seed"]
    views = json.dumps([d.web_view(None), d.web_view("Solo")])
    assert str(first) not in views
    d.new_game()
    assert d.session.options["seed"] != first
