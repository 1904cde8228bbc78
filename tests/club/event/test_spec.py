"""The event file: every bad value is one line naming its key; what an event supports."""

from __future__ import annotations

import pytest

from companion.club.event.spec import EventError, load_event, parse_event
from tests.club.test_pairing import BAD

GOOD = """\
name = "March"
game = "binaryon"
rules = { size = 6 }
pairing = "swiss"
rounds = 3
boards = ["t1", "t2"]
players = [{ name = "Ann", rating = 1900 }, "Ben", { name = "Cat", rating = 1700 }, "Dan"]
"""


def test_a_good_event_file(tmp_path):
    path = tmp_path / "march.toml"
    path.write_text(GOOD)
    event = load_event(path)
    assert event.rules["size"] == 6 and event.rounds == 3 and event.seats == ("on", "off")
    assert [p.name for p in event.ranked()] == ["Ann", "Cat", "Ben", "Dan"]  # by rating
    assert event.tiebreaks[0] == "buchholz-cut-1"


@pytest.mark.parametrize(
    "change, key",
    [
        (('game = "binaryon"', 'game = "chess"'), "game"),
        (("size = 6", "size = 7"), "rules"),
        (("size = 6", "colour = 1"), "rules"),
        (('pairing = "swiss"', 'pairing = "knockout"'), "pairing"),
        (("rounds = 3", "rounds = 4"), "rounds"),  # 4 players: 3 rounds at most
        (("rounds = 3", 'rounds = "3"'), "rounds"),
        (('boards = ["t1", "t2"]', 'boards = ["t1"]'), "boards"),
        (('boards = ["t1", "t2"]', 'boards = ["t1", "a/b"]'), "boards"),
        (('boards = ["t1", "t2"]', 'boards = ["t1", "t1"]'), "boards"),
        (("rating = 1900", 'rating = "high"'), "players[0].rating"),
        (('"Ben"', '"ann"'), "players[1].name"),
        (('"Ben"', '""'), "players[1].name"),
        (('"Ben"', "3"), "players[1]"),
        (('{ name = "Ann", rating = 1900 }', '{ name = "Ann", elo = 1900 }'), "players[0].elo"),
        (('name = "March"', 'name = ""'), "name"),
        (('name = "March"', 'name = "March"\ntiebreaks = ["median"]'), "tiebreaks"),
        (('name = "March"', 'name = "March"\ncycles = 2'), "cycles"),
        (('name = "March"', 'name = "March"\nbye = 2'), "bye"),
        (('name = "March"', 'name = "March"\ncolour = 2'), "colour"),
        (('name = "March"', 'name = "March"\ninitial_colour = "red"'), "initial_colour"),
    ],
)
def test_every_bad_value_is_one_line_naming_its_key(change, key):
    with pytest.raises(EventError) as e:
        parse_event(GOOD.replace(*change), "march.toml")
    message = str(e.value)
    assert message.startswith(f"march.toml: {key}: "), message
    assert "\n" not in message


def test_not_toml_is_one_line():
    with pytest.raises(EventError, match=r"^march.toml: not TOML: ") as e:
        parse_event("name = [", "march.toml")
    assert "\n" not in str(e.value)


def test_games_of_more_than_two_players_or_against_virtual_ones_are_refused():
    multi = GOOD.replace('"binaryon"', '"binome"').replace("{ size = 6 }", "{ players = 3 }")
    with pytest.raises(EventError, match="game: binome .* 3 player.*two-player games only"):
        parse_event(multi, "march.toml")
    solo = GOOD.replace('"binaryon"', '"binome"').replace("{ size = 6 }", "{ solo = 2 }")
    with pytest.raises(EventError, match=r"^march.toml: rules: "):
        parse_event(solo, "march.toml")


@pytest.mark.parametrize("game", ["binary", "wythe", "latent-binaries"])
def test_two_player_games_are_taken_with_draws_scored_half(game):
    text = GOOD.replace('"binaryon"', f'"{game}"').replace("rules = { size = 6 }\n", "")
    assert parse_event(text, "e.toml").game == game


def test_a_round_robin_plays_every_round_by_default_and_twice_with_cycles():
    text = GOOD.replace('"swiss"', '"round-robin"').replace("rounds = 3\n", "")
    assert parse_event(text).rounds == 3
    assert parse_event(text + "cycles = 2\n").rounds == 6


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


EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 6 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan"]
"""


@pytest.mark.parametrize("name", BAD[2:])
def test_an_event_file_with_a_bad_name_is_one_line(name):
    text = EVENT.replace('"Dan"', '"' + name.encode("unicode_escape").decode() + '"')
    with pytest.raises(EventError) as e:
        parse_event(text, "march.toml")
    assert "\n" not in str(e.value) and len(str(e.value)) < 160
