"""Options from the network never name a file on the board (issue 33): Binøme's deck in a
pairing is a built-in name or nothing, and a path is refused in one line that says nothing
of the board's files (whether it exists, is readable, is TOML, what it holds)."""

from __future__ import annotations

import pytest

from companion.club.event.spec import EventError, parse_event
from companion.club.pairing import parse_pairing
from companion.games.binome.deck import BUILTIN_NAME, builtin_deck


def binome(deck: str, **more) -> dict:
    options = {"players": "Ann,Bob", "deck": deck, **more}
    return {"pairing": "p1", "game": "binome", "options": options}


def refusal(message: dict) -> str:
    with pytest.raises(ValueError) as e:
        parse_pairing(message)
    return str(e.value)


def test_a_deck_path_is_refused_alike_whatever_the_file(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('[cards]\npassword = "hunter2"\n')
    broken = tmp_path / "broken.toml"
    broken.write_text("[cards\n")
    unreadable = tmp_path / "unreadable.toml"
    unreadable.write_text("[cards]\n")
    unreadable.chmod(0)
    lines = {
        refusal(binome(str(path)))
        for path in (secret, broken, unreadable, tmp_path / "missing.toml", "/etc/passwd")
    }
    assert lines == {f"pairing p1: deck: a pairing names one built-in only ({BUILTIN_NAME})"}


@pytest.mark.parametrize("deck", ["", BUILTIN_NAME])
def test_the_built_in_deck_by_its_name_or_none(deck, tmp_path, monkeypatch):
    (tmp_path / BUILTIN_NAME).write_text("[cards\n")  # a file of that name here is not read
    monkeypatch.chdir(tmp_path)
    pairing = parse_pairing(binome(deck))
    assert pairing.options["points"] == builtin_deck().text()


def test_options_are_few_and_short():
    assert "at most 32" in refusal({**binome(""), "options": {f"o{i}": 1 for i in range(40)}})
    line = refusal(binome("", chair="x" * 100_000))
    assert "at most 400" in line and len(line) < 160


def test_an_event_whose_rules_name_a_deck_file_is_refused_at_once(tmp_path):
    deck = tmp_path / "mine.toml"
    deck.write_text("[cards]\n")
    text = f"""\
name = "March"
game = "binome"
rules = {{ players = "Ann,Bob", deck = "{deck}" }}
pairing = "round-robin"
boards = ["t1"]
players = ["Ann", "Ben"]
"""
    with pytest.raises(EventError, match="built-in only"):
        parse_event(text, "march.toml")
