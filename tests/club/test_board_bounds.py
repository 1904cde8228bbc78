"""What a board reads from the broker is bounded before it is read: the broker drops anything
over the board's packet size (MQTT 5's Maximum Packet Size), each message is refused by its
length before any decoding and by its depth, and a flood of refusals is one log line per
kind, never a traceback a message (issue 33)."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import PROGRAM
from companion.club import messages, topics
from companion.core.log_throttle import LogThrottle
from companion.core.wire_json import MAX_DEPTH, WireRefused, depth_of, load_object
from tests.club_boards import Acker, moves_to_end, play, start_board, stop_board, wait
from tests.mosquitto import Listener

SMALL = {"size": 4}


def send_raw(url: str, topic: str, bodies: list[bytes], retain: bool = False) -> None:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    client.connect(host, int(port))
    client.loop_start()
    for body in bodies:
        client.publish(topic, body, qos=1, retain=retain).wait_for_publish(20)
    client.loop_stop()
    client.disconnect()


def deep(levels: int) -> bytes:
    return ("[" * levels + "]" * levels).encode()


def test_a_huge_retained_ack_never_reaches_the_board_and_its_result_still_goes(tmp_path, broker):
    """A 1 MB ack naming the board's next game (its uid is public) is dropped by the broker;
    the game's result still goes to the hub."""
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules=SMALL)
    listener = Listener(broker.url)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        uid = daemon.club.game_uid()
        padding = "x" * (1024 * 1024)
        ack = json.dumps({"results": [uid], "padding": padding}).encode()
        send_raw(broker.url, topics.ack("t1"), [ack], retain=True)
        for name in moves_to_end("binaryon", **SMALL):
            play(daemon, name)
        heard = listener.wait_for(
            lambda h: any(m.topic == topics.result("t1", uid) and m.payload for m in h)
        )
        assert json.loads(next(m.payload for m in heard if m.topic == topics.result("t1", uid)))
        assert not daemon.call(lambda: daemon.journal.meta(f"club.delivered.{uid}"), render=False)
    finally:
        stop_board(daemon, closers)
        listener.close()


def test_messages_over_their_size_or_depth_are_one_log_line_each_kind(tmp_path, broker, caplog):
    caplog.set_level(logging.INFO, logger=PROGRAM)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    acker = Acker(broker.url)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        before = daemon.call(lambda: (daemon.session.game_id, daemon.message), render=False)
        big = json.dumps({"results": ["x" * (messages.MAX_ACK + 1)]}).encode()
        send_raw(broker.url, topics.ack("t1"), [big] * 30)
        send_raw(broker.url, topics.pairing("t1"), [deep(5000)] * 30)
        send_raw(broker.url, topics.pairing("t1"), [deep(MAX_DEPTH + 1)] * 30)
        wait(lambda: sum(daemon.club.refusals.counts.values()) == 90, what="all refused")
        # the link still reads what is right
        pairing = {"pairing": "p1", "game": "binary", "players": {"black": "Ann"}}
        send_raw(broker.url, topics.pairing("t1"), [json.dumps(pairing).encode()])
        wait(lambda: daemon.session.game == "binary", what="the good pairing started")
    finally:
        stop_board(daemon, closers)
        acker.close()
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert daemon.club.refusals.counts == {"ack size": 30, "pairing depth": 60}
    assert len(refused) == 2, [r.getMessage() for r in refused]  # one per kind
    assert not [r for r in caplog.records if r.exc_info]
    assert before[0] != daemon.session.game_id


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


def test_the_log_throttle_says_the_first_then_once_a_period_with_the_count():
    now = [0.0]
    throttle = LogThrottle(60.0, clock=lambda: now[0])
    assert throttle.note("a") == ""
    assert [throttle.note("a") for _ in range(5)] == [None] * 5
    assert throttle.note("b") == ""
    now[0] = 61.0
    assert throttle.note("a") == " (5 more since)"
    assert throttle.counts == {"a": 7, "b": 1}


def test_a_flood_of_pairings_the_board_cannot_play_is_one_log_line(tmp_path, broker, caplog):
    caplog.set_level(logging.INFO, logger=PROGRAM)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        bad = {"pairing": "p1", "game": "binary", "players": {"black": "A" * 700}}
        send_raw(broker.url, topics.pairing("t1"), [json.dumps(bad).encode()] * 30)
        wait(lambda: daemon.club.pairings.refused.counts.get("pairing") == 30, what="refused")
        assert daemon.message == "club: pairing p1: a name of 700 characters: at most 40"
    finally:
        stop_board(daemon, closers)
    lines = [r for r in caplog.records if "a name of 700" in r.getMessage()]
    assert len(lines) == 1
