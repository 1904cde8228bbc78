"""The board's messages alone: the moves a subscriber is sent keep it equal to the board's
game whatever the takebacks (a property), a broker's address never carries a password into an
error message, and a message is refused by its size before any decoding and by its depth as
JSON nests (never a RecursionError)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.club import messages
from companion.club.board_link import catch_up
from companion.club.pairing import parse_pairing
from companion.core.broker_url import parse_broker_url
from companion.core.wire_json import MAX_DEPTH, WireRefused, depth_of, load_object
from tests.club_boards import deep

names = st.lists(st.sampled_from(["a1", "b2", "c3", "pass"]), max_size=8)


@given(st.lists(st.tuples(st.integers(0, 8), names), max_size=12))
def test_a_subscriber_told_each_change_holds_the_boards_game(steps):
    """Each step takes the game back to a ply, then plays moves (several changes between two
    renders, as a takeback and a move in one event); the subscriber applies what it is told."""
    board: list[str] = []
    sent: list[str] = []
    heard: list[str] = []
    for back, played in steps:
        board = board[: min(back, len(board))] + played
        undo_to, first = catch_up(sent, board)
        if undo_to is not None:
            assert undo_to <= min(len(sent), len(board))
            del heard[undo_to:]
        assert first == len(heard)  # each move goes once, in order
        heard += board[first:]
        sent = list(board)
        assert heard == board


@pytest.mark.parametrize(
    "url",
    ["mqtt://ann:hunter2@club.lan:1883", "mqtts://ann:hunter2@club.lan:99999",
     "mqtt://:hunter2@h", "ws://ann:hunter2@h/x"],
)  # fmt: skip
def test_an_address_with_a_password_is_refused_without_echoing_it(url):
    with pytest.raises(ValueError) as e:
        parse_broker_url(url)
    assert "hunter2" not in str(e.value) and "\n" not in str(e.value)


@given(st.text(max_size=40))
def test_any_address_is_read_or_refused_in_one_line(text):
    try:
        address = parse_broker_url(text)
    except ValueError as e:
        assert "\n" not in str(e)
        return
    assert address.scheme in ("mqtt", "mqtts") and 0 < address.port < 65536 and address.host


def test_a_pairing_is_read_with_the_games_own_options_and_seats():
    pairing = parse_pairing({"pairing": 7, "round": 1, "game": "binary",
                             "players": {"white": "Bob", "black": "Ann"}})  # fmt: skip
    assert pairing.id == "7" and pairing.options["size"] == 8
    assert list(pairing.players) == ["black", "white"]  # in the game's seat order
    assert pairing.line() == "round 1: Ann v Bob, binary"
    with pytest.raises(ValueError, match="size"):
        parse_pairing({"pairing": "p", "game": "binary", "options": {"size": 5}})


def test_the_size_is_refused_before_any_decoding():
    """Not even decoded: bytes that are not UTF-8 at all are refused for their length."""
    with pytest.raises(WireRefused) as e:
        messages.decode(b"\xff" * (messages.MAX_ACK + 1), messages.MAX_ACK)
    assert e.value.kind == "size"
    with pytest.raises(WireRefused) as e:
        messages.decode(b"\xff" * 10, messages.MAX_ACK)
    assert e.value.kind == "json"


@given(st.recursive(st.integers() | st.text(max_size=3), lambda c: st.lists(c, max_size=3)))
def test_depth_is_counted_as_json_nests(value):
    payload = json.dumps({"v": value})
    expected = 1 + depth_of(value)
    if expected <= MAX_DEPTH:
        assert load_object(payload, 1 << 20) == {"v": value}
    else:
        with pytest.raises(WireRefused):
            load_object(payload, 1 << 20)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 900, 100_000])
def test_too_deep_is_one_refusal_never_a_recursion_error(levels):
    with pytest.raises(WireRefused) as e:
        load_object(b'{"a":' + deep(levels) + b"}", 1 << 20)
    assert e.value.kind == "depth" and str(e.value) == f"nested deeper than {MAX_DEPTH}"
