"""What the club link keeps in the journal's meta table, and which games it sends: those
finished on this board (an imported record is not a result of the club's night)."""

from __future__ import annotations

import pytest

from companion.journal.api import NullJournal
from companion.journal.store import SqliteJournal
from companion.records.check import digest, import_record, read_record
from companion.referee.session import Session
from tests.club_boards import moves_to_end


def finished_game(journal) -> int:
    session = Session("binaryon", {"size": 4}, journal)
    for name in moves_to_end("binaryon", size=4):
        session.submit_name(name)
    assert session.state.is_over()
    return session.game_id


def test_meta_values_survive_a_reopen_and_prefixes_are_plain_text(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal.open(path)
    journal.set_meta({"club.delivered.a-1": "1", "club.delivered.a-2": "2", "club_delivered": "x"})
    journal.set_meta({"club.delivered.a-2": None, "uid": "abc"})
    journal.close()
    journal = SqliteJournal.open(path)
    assert journal.meta("uid") == "abc" and journal.meta("nothing") is None
    assert journal.meta_with_prefix("club.delivered.") == {"club.delivered.a-1": "1"}
    assert journal.meta_with_prefix("club_") == {"club_delivered": "x"}  # _ is no wildcard
    with pytest.raises(ValueError, match="journal's own"):
        journal.set_meta({"clean": "1"})
    journal.close()
    null = NullJournal()
    null.set_meta({"uid": "x", "club.a": "1"})
    assert null.meta("uid") == "x" and null.meta_with_prefix("club.") == {"club.a": "1"}


def test_only_games_finished_here_are_results(tmp_path):
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    first = finished_game(journal)
    record = tmp_path / "game.txt"
    from companion.records.format import format_record, record_from_entry

    record.write_text(format_record(record_from_entry(journal.load(first))))
    rec, state = read_record(record)
    imported = import_record(journal, rec, state, key=digest(rec))
    second = finished_game(journal)
    Session("binaryon", {"size": 4}, journal).submit_name("a3")  # in progress
    assert journal.load(imported).status == "finished"
    assert journal.finished_since(0) == [first, second]
    assert journal.finished_since(second) == [second]
    journal.close()
