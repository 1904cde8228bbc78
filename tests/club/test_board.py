"""A board publishes to a real Mosquitto (tests/mosquitto.py): its status (retained, with a
last will), its public table view, each move and each finished game's result; the hub's
acknowledgement clears a result and the journal remembers it. What it reads is bounded: the
broker drops a message over the board's packet size (MQTT 5's Maximum Packet Size), each
message is refused by its length before decoding and by its depth, and a flood of refusals is
one log line per kind, never a traceback a message."""

from __future__ import annotations

import json
import logging

from companion import PROGRAM
from companion.club import messages, topics
from companion.core.log_throttle import LogThrottle
from companion.core.wire_json import MAX_DEPTH
from companion.records.format import format_record, record_from_entry
from companion.records.said import seated
from tests.club_boards import (
    Acker,
    BoardProcess,
    deep,
    moves_to_end,
    payloads,
    play,
    send_raw,
    start_board,
    stop_board,
    wait,
)
from tests.mosquitto import Listener

SMALL = {"size": 4}


def test_status_is_retained_and_a_clean_exit_marks_the_board_offline(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club_status == "club: connected to 127.0.0.1", what="connected")
        late = Listener(broker.url)  # subscribes after: the retained status comes to it
        heard = late.wait_for(lambda h: payloads(h, topics.status("t1")))
        (status,) = [h for h in heard if h.topic == topics.status("t1")]
        assert status.retain
        body = json.loads(status.payload)
        assert body["online"] is True and body["board"] == "t1" and body["game"] == "binaryon"
        assert body["version"] and isinstance(body["sent"], float)
    finally:
        stop_board(daemon, closers)
    late.wait_for(lambda h: payloads(h, topics.status("t1"))[-1]["online"] is False)
    again = Listener(broker.url)
    heard = again.wait_for(lambda h: payloads(h, topics.status("t1")))
    (status,) = payloads(heard, topics.status("t1"))
    journal = status.get("journal")
    assert journal and status == {"board": "t1", "online": False, "sent": status["sent"],
                                  "journal": journal}  # fmt: skip
    late.close()
    again.close()


def test_a_board_killed_is_marked_offline_by_its_last_will(tmp_path, broker):
    listener = Listener(broker.url)
    board = BoardProcess(tmp_path, broker.url, "t2", tmp_path / "t2.sqlite")
    try:
        listener.wait_for(
            lambda h: any(p and p["online"] for p in payloads(h, topics.status("t2")))
        )
        board.kill()
        heard = listener.wait_for(
            lambda h: any(p and p["online"] is False for p in payloads(h, topics.status("t2")))
        )
    finally:
        board.close()
    offline = [h for h in heard if h.topic == topics.status("t2")][-1]
    will = json.loads(offline.payload)  # names the board's journal: one name, one board
    assert will == {"board": "t2", "online": False, "journal": will["journal"]}
    later = Listener(broker.url)  # retained: a hub that starts now sees it offline
    heard = later.wait_for(lambda h: payloads(h, topics.status("t2")))
    assert payloads(heard, topics.status("t2")) == [will]
    listener.close()
    later.close()


def test_the_table_each_move_and_the_result_are_published(tmp_path, broker):
    listener = Listener(broker.url)
    acker = Acker(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules=SMALL)
    try:
        wait(lambda: daemon.club is not None and daemon.club.connected, what="connected")
        names = moves_to_end("binaryon", **SMALL)
        for name in names:
            play(daemon, name)
        uid = daemon.club.game_uid()
        assert uid.startswith(daemon.journal.meta("uid") + "-")
        acker_has = lambda: uid in acker.stored  # noqa: E731
        wait(acker_has, what="the result at the hub")
        # acknowledged: the board clears its retained result and keeps the uid as delivered
        heard = listener.wait_for(lambda h: None in payloads(h, topics.result("t1", uid)))
        wait(lambda: daemon.journal.meta(f"club.delivered.{uid}") is not None, what="kept")
        table = json.loads(json.dumps(daemon.call(lambda: daemon.web_view(), render=False)))
        views = lambda h: [t["view"] for t in payloads(h, topics.table("t1"))]  # noqa: E731
        heard = listener.wait_for(lambda h: table in views(h))  # the table page's view now
        entry = daemon.journal.load(daemon.session.game_id)
        late = Listener(broker.url)  # what a hub starting now finds retained
        kept = late.wait_for(lambda h: payloads(h, topics.table("t1")))
        heard = listener.messages()
    finally:
        stop_board(daemon, closers)
    moves = payloads(heard, topics.moves("t1"))
    assert [m["move"] for m in moves] == [p.shown(False) for p in entry.moves]
    assert [m["ply"] for m in moves] == list(range(len(entry.moves)))
    public = uid.rsplit("-", 1)[0]  # the result's uid has a random part more, said only in it
    assert {m["game_uid"] for m in moves} == {public} and moves[0]["player"] == "on"
    tables = [h for h in heard if h.topic == topics.table("t1")]
    seqs = [json.loads(h.payload)["seq"] for h in tables]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one more each publish
    assert table in views(heard) and json.loads(tables[-1].payload)["game_uid"] == public
    assert table["result"]["winners"] and table["game_id"] == entry.id
    result = acker.stored[uid]
    assert result["record"] == format_record(record_from_entry(entry))  # as export writes it
    assert result["result"] == entry.summary and result["players"] == seated(entry)
    assert result["game"] == "binaryon" and result["options"]["size"] == 4
    assert result["pairing"] is None and acker.heard == [uid]
    assert [h.retain for h in kept if h.topic == topics.table("t1")] == [True]
    retained = payloads(kept, topics.table("t1"))[0]  # the latest view when it subscribed
    now = max(t["seq"] for t in payloads(heard, topics.table("t1")) if t["view"] == table)
    assert retained in payloads(heard, topics.table("t1")) and retained["seq"] >= now
    assert payloads(kept, topics.result("t1", uid)) == []  # cleared once acknowledged
    for one in (listener, late):
        one.close()
    acker.close()


def test_topics_live_under_the_program_and_the_boards_name(tmp_path, broker):
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "board-7")
    try:
        play(daemon, "e5")
        listener.wait_for(lambda h: payloads(h, topics.moves("board-7")))
    finally:
        stop_board(daemon, closers)
    assert {h.topic for h in listener.messages()} <= {
        f"{PROGRAM}/board-7/{kind}" for kind in ("status", "table", "moves")
    }
    listener.close()


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


def test_the_log_throttle_says_the_first_then_once_a_period_with_the_count():
    now = [0.0]
    throttle = LogThrottle(60.0, clock=lambda: now[0])
    assert throttle.note("a") == ""
    assert [throttle.note("a") for _ in range(5)] == [None] * 5
    assert throttle.note("b") == ""
    now[0] = 61.0
    assert throttle.note("a") == " (5 more since)"
    assert throttle.counts == {"a": 7, "b": 1}
