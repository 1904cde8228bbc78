"""Names from the network or a file are one short line (issue 33): at most 40 characters,
no control characters, in a pairing, an event file and an arbiter's ``correct --by``; the
refusal is one line that never quotes a long name back."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.main import main
from companion.club.event.spec import EventError, parse_event
from companion.club.event.tournament import EventStateError, Tournament
from companion.club.pairing import parse_pairing
from companion.core.names import MAX_NAME, name_problem

PAIRING = {"pairing": "p1", "game": "binary", "players": {"black": "Ann", "white": "Bob"}}
EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 6 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan"]
"""
BAD = ["", "   ", "x" * (MAX_NAME + 1), "x" * 700_000, "Ann\x1b[2J", "Bob\nEve", "Ann\u202eboB",
       "Zed\u2028Ann", "\x00"]  # fmt: skip
GOOD = ["Ann", "x" * MAX_NAME, "Zoë", "李雷", "Jean-Luc Picard", "O'Brien", "👩‍🔬 Ada"]


@pytest.mark.parametrize("name", BAD)
def test_a_pairing_with_a_bad_name_is_refused_in_one_short_line(name):
    with pytest.raises(ValueError) as e:
        parse_pairing({**PAIRING, "players": {"black": name, "white": "Bob"}})
    line = str(e.value)
    assert "\n" not in line and len(line) < 120 and line.startswith("pairing p1: ")


@pytest.mark.parametrize("name", GOOD)
def test_a_pairing_with_a_fair_name_is_taken(name):
    assert parse_pairing({**PAIRING, "players": {"black": name}}).players == {"black": name}


def test_a_pairings_id_and_event_are_bounded_too():
    with pytest.raises(ValueError, match="one line of at most 80"):
        parse_pairing({**PAIRING, "pairing": "p" * 10_000})
    with pytest.raises(ValueError, match="one line"):
        parse_pairing({**PAIRING, "event": "March\x1b]0;pwned\x07"})


@given(st.text(max_size=60))
def test_a_name_is_one_to_forty_characters_without_control_ones(value):
    categories = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")
    control = any(unicodedata.category(c) in categories and c not in "\u200c\u200d" for c in value)
    fair = bool(value.strip()) and len(value) <= MAX_NAME and not control
    assert (name_problem(value) is None) == fair


@pytest.mark.parametrize("name", BAD[2:])
def test_an_event_file_with_a_bad_name_is_one_line(name):
    text = EVENT.replace('"Dan"', '"' + name.encode("unicode_escape").decode() + '"')
    with pytest.raises(EventError) as e:
        parse_event(text, "march.toml")
    assert "\n" not in str(e.value) and len(str(e.value)) < 160


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
