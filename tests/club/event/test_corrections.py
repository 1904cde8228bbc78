"""The arbiter's corrections: kept (who, when, old -> new, why), standings follow, nothing is
deleted; the event's SQLite file; ``binaryon event``."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.cli.main import main
from companion.club.event.spec import parse_event
from companion.club.event.standings import standings
from companion.club.event.store import EventStore, EventStoreError
from companion.club.event.tournament import EventStateError, Tournament

EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 6 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan"]
"""


def _round_one() -> Tournament:
    t = Tournament(parse_event(EVENT))
    games = t.pair_next()
    assert [(g.pairing, g.white, g.black, g.board) for g in games] == [
        ("r1-t1", "Ann", "Dan", "t1"),
        ("r1-t2", "Ben", "Cat", "t2"),
    ]
    t.enter_result("r1-t1", "1-0", game_uid="abc-1")
    t.enter_result("r1-t2", "draw")
    return t


def _points(t: Tournament) -> dict[str, float]:
    return {s.name: s.points for s in standings(t)}


def test_a_correction_is_kept_and_the_standings_follow():
    t = _round_one()
    assert _points(t) == {"Ann": 1, "Ben": 0.5, "Cat": 0.5, "Dan": 0}
    fix = t.correct("r1-t1", "0-1", "Zoe", "wrong result reported", "2026-03-01T20:00:00Z")
    assert (fix.old, fix.new, fix.who, fix.why) == ("1-0", "0-1", "Zoe", "wrong result reported")
    assert _points(t)["Dan"] == 1 and _points(t)["Ann"] == 0
    t.correct("r1-t2", "-+", "Zoe", "Ben never came", "2026-03-01T20:05:00Z")
    assert _points(t)["Cat"] == 1 and _points(t)["Ben"] == 0
    assert [(c.pairing, c.old, c.new) for c in t.corrections] == [
        ("r1-t1", "1-0", "0-1"),
        ("r1-t2", "1/2-1/2", "-+"),
    ]


def test_a_replayed_game_stays_void_and_its_new_game_counts():
    t = _round_one()
    t.correct("r1-t2", "replay", "Zoe", "pieces knocked over", "2026-03-01T20:00:00Z")
    old = t.find("r1-t2")
    assert old.void and old.result == "1/2-1/2"  # kept as it was
    assert not t.round_complete()
    with pytest.raises(EventStateError, match="round 2 cannot be paired yet: r1-t2-2 to play"):
        t.pair_next()
    with pytest.raises(EventStateError, match="r1-t2 was replayed: its new game is r1-t2-2"):
        t.enter_result("r1-t2", "1-0")
    t.enter_result("r1-t2-2", "1-0")
    assert _points(t) == {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0}


def test_a_second_result_is_a_correction_but_the_same_board_game_again_changes_nothing():
    t = _round_one()
    assert t.enter_result("r1-t1", "1-0", game_uid="abc-1").result == "1-0"
    with pytest.raises(EventStateError, match="already: an arbiter's correction"):
        t.enter_result("r1-t1", "0-1", game_uid="abc-2")
    with pytest.raises(EventStateError, match="names who makes it and why"):
        t.correct("r1-t1", "0-1", "Zoe", " ", "2026-03-01T20:00:00Z")
    assert not t.corrections


def test_the_store_keeps_everything_and_deletes_nothing(tmp_path):
    path = tmp_path / "march.event.sqlite"
    t = _round_one()
    t.correct("r1-t2", "replay", "Zoe", "pieces knocked over", "2026-03-01T20:00:00Z")
    with EventStore(path) as store:
        store.open_event(EVENT, "march.toml")
        store.save(t)
    with EventStore(path) as store:
        back = store.load()
    assert back.to_dict() == t.to_dict() and back.event == t.event
    db = sqlite3.connect(path)
    for sql in ("DELETE FROM games", "DELETE FROM corrections", "UPDATE corrections SET why=''"):
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(sql)
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3


def test_the_event_file_may_change_only_before_round_one(tmp_path):
    path = tmp_path / "e.sqlite"
    with EventStore(path) as store:
        store.open_event(EVENT, "march.toml")
        t = store.open_event(EVENT.replace("size = 6", "size = 8"), "march.toml")
        assert t.event.rules["size"] == 8
        t.pair_next()
        store.save(t)
        with pytest.raises(EventStoreError, match="changed after round 1 was paired"):
            store.open_event(EVENT, "march.toml")
    journal = tmp_path / "journal.sqlite"
    sqlite3.connect(journal).execute("CREATE TABLE games (x)")
    with pytest.raises(EventStoreError, match="not an event's file"):
        EventStore(journal)


def test_binaryon_event_runs_a_tournament_end_to_end(tmp_path, capsys):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    e = str(event)
    assert main(["event", e, "pair"]) == 0
    assert "r1-t1 on t1: (1) Ann 0 v (4) Dan 0  *" in capsys.readouterr().out
    assert main(["event", e, "result", "r1-t1", "1-0"]) == 0
    assert main(["event", e, "pair"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "binaryon: round 2 cannot be paired yet: r1-t2 to play"
    assert main(["event", e, "result", "r1-t2", "0-1"]) == 0
    assert main(["event", e, "correct", "r1-t1", "draw", "--by", "Zoe", "--why", "misread"]) == 0
    assert "r1-t1: 1-0 -> 1/2-1/2 by Zoe: misread" in capsys.readouterr().out
    assert main(["event", e, "standings", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert [(s["name"], s["points"]) for s in table["standings"]] == [
        ("Cat", 1), ("Ann", 0.5), ("Dan", 0.5), ("Ben", 0)
    ]  # fmt: skip
    assert main(["event", e, "correct", "r1-t1", "1-0", "--by", "Zoe"]) == 2
    assert capsys.readouterr().err.strip() == "binaryon: correct needs WHY"
    assert main(["event", e, "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [c["new"] for c in shown["corrections"]] == ["1/2-1/2"]
    assert main(["event", e, "export", "-o", str(tmp_path / "all.txt")]) == 0
    text = (tmp_path / "all.txt").read_text()
    assert text.count("[Game ") == 2 and '[EventResult "1/2-1/2"]' in text
    journal = str(tmp_path / "j.sqlite")
    assert main(["import", str(tmp_path / "all.txt"), "--journal", journal]) == 0
    assert capsys.readouterr().out.strip().endswith("2 imported")


def test_a_bad_event_file_is_one_line_and_makes_nothing(tmp_path, capsys):
    event = tmp_path / "bad.toml"
    event.write_text(EVENT.replace("round-robin", "ladder"))
    assert main(["event", str(event), "pair"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"binaryon: {event}: pairing: 'ladder'") and "\n" not in err
    assert not (tmp_path / "bad.event.sqlite").exists()


def test_a_boards_winner_is_the_person_in_the_winning_seat_at_the_end():
    from companion.club.event.records import board_result

    event = parse_event(
        EVENT.replace('"binaryon"', '"wythe"').replace("rules = { size = 6 }\n", "")
    )
    t = Tournament(event)
    g = t.pair_next()[0]  # Ann takes the first seat (black), Dan the other
    assert (g.white, g.black) == ("Ann", "Dan")
    swapped = {"players": {"black": "Dan", "white": "Ann"}, "winners": ["white"]}  # pie rule
    assert board_result(t, g, swapped) == "1-0"  # Ann won, in the seat she took by the swap
    assert board_result(t, g, {"players": {}, "winners": ["black"]}) == "1-0"  # by the pairing
    assert board_result(t, g, {"winners": ["Dan"]}) == "0-1"
    assert board_result(t, g, {"winners": []}) == "1/2-1/2"
    with pytest.raises(EventStateError, match="'Zed', who does not play it"):
        board_result(t, g, {"winners": ["Zed"]})


@pytest.mark.parametrize("who", ["Z" * 41, "Zoe\x1b[31m"])
def test_a_correction_by_a_bad_name_is_refused(who):
    t = Tournament(parse_event(EVENT))
    t.pair_next()
    t.enter_result("r1-t1", "1-0")
    with pytest.raises(EventStateError, match="who corrects"):
        t.correct("r1-t1", "0-1", who, "wrong result", "2026-03-01T20:00:00Z")
    with pytest.raises(EventStateError, match="why"):
        t.correct("r1-t1", "0-1", "Zoe", "w" * 5000, "2026-03-01T20:00:00Z")
    assert not t.corrections


def test_correct_by_on_the_command_line_is_bounded(tmp_path, capsys):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    assert main(["event", str(event), "pair"]) == 0
    assert main(["event", str(event), "result", "r1-t1", "1-0"]) == 0
    capsys.readouterr()
    code = main(["event", str(event), "correct", "r1-t1", "0-1", "--by", "Z" * 500,
                 "--why", "wrong"])  # fmt: skip
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "at most 40" in err and "Z" * 41 not in err
