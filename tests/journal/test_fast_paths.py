"""Issue 41: the journal commands' fast paths give what the plain ways give: times written
from cached dates, cell names and places from tables, the player ids asked once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.squares import MAX_SIZE, MIN_SIZE, parse_square, square_name
from companion.games import player_ids
from companion.games.base import parse_place, places
from companion.journal.rows import MAX_MS, MIN_MS, from_iso, iso
from companion.records import format as records


def plain_iso(ms: int) -> str:
    dt = datetime.fromtimestamp(0, UTC) + timedelta(milliseconds=ms - ms % 1000)
    return f"{dt.year:04d}-{dt:%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"


@given(st.integers(MIN_MS, MAX_MS))
def test_a_time_is_written_as_datetime_writes_it_and_reads_back(ms):
    assert iso(ms) == plain_iso(ms)
    assert from_iso(iso(ms)) == ms


def test_times_out_of_range_are_refused():
    for ms in (MIN_MS - 1, MAX_MS + 1):
        with pytest.raises(ValueError, match="out of range"):
            iso(ms)


@given(st.integers(MIN_SIZE, MAX_SIZE), st.data())
def test_places_are_named_and_read_as_the_squares_are(size, data):
    cell = data.draw(st.integers(0, size * size - 1))
    place = places(size)[cell]
    assert place.name == square_name(cell, size)
    assert parse_place(place.name, size) is place
    spelled = data.draw(st.sampled_from([place.name.upper(), f" {place.name} "]))
    assert parse_place(spelled, size) is places(size)[parse_square(spelled, size)]


def test_a_place_off_the_board_is_refused_as_before():
    with pytest.raises(ValueError, match="not a square"):
        parse_place("z9", 8)
    with pytest.raises(ValueError):
        parse_place("e9", 8)


@given(st.sampled_from(["binaryon", "binary", "wythe"]), st.sampled_from([4, 6, 8]))
def test_player_ids_asked_once_are_the_registry_s(game, size):
    options = {"size": size}
    assert records.player_ids(game, options) == player_ids(game, options)
    assert records.player_ids(game, {"odd": [1]}) == player_ids(game, {"odd": [1]})


@given(st.sampled_from([4, 6, 8]), st.booleans())
def test_binaryon_names_its_players_without_a_state_as_the_state_does(size, swap):
    from companion.games import get_spec

    spec = get_spec("binaryon")
    options = spec.resolve({"size": size, "first": spec.new().players[swap]})
    assert spec.players(options) == spec.new(**options).players
