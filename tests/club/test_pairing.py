"""The board's side of pairings: the hub's retained ``pairing`` message is shown on the board
(OLED and table page) and its game started with those names when the board's game is over or
has no move yet, never throwing a game in progress away; its result carries the pairing id;
after a restart the same retained pairing does not start it again. And the link's small
public API (remote play publishes and subscribes through it)."""

from __future__ import annotations

import threading

from companion.club import topics
from tests.club_boards import (
    Acker,
    moves_to_end,
    payloads,
    play,
    publish,
    start_board,
    stop_board,
    wait,
)
from tests.mosquitto import Listener

PAIRING = {
    "event": "club night",
    "round": 2,
    "pairing": "r2-b1",
    "game": "binary",
    "options": {"size": 4},
    "players": {"black": "Ann", "white": "Bob"},
    "sent": 1.0,
}
LINE = "round 2: Ann v Bob, binary"


def on_board(daemon) -> tuple[str, dict, int | None, int]:
    s = daemon.session
    return s.game, dict(s.seat_names()), s.game_id, len(s.played)


def test_a_pairing_starts_its_game_with_its_names_and_its_result_carries_it(tmp_path, broker):
    acker = Acker(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        before = daemon.session.game_id
        publish(broker.url, topics.pairing("t1"), PAIRING)
        wait(lambda: daemon.session.game == "binary", what="the pairing's game")
        game, names, game_id, _ = daemon.call(lambda: on_board(daemon), render=False)
        assert names == {"black": "Ann", "white": "Bob"} and game_id != before
        assert daemon.session.options["size"] == 4
        assert daemon.message == LINE  # the OLED's line
        page = daemon.call(lambda: daemon.web_view(None), render=False)
        assert page["message"] == LINE  # and the table page's
        for name in moves_to_end("binary", size=4):
            play(daemon, name)
        uid = daemon.club.game_uid()
        wait(lambda: uid in acker.stored, what="the result")
    finally:
        stop_board(daemon, closers)
        acker.close()
    result = acker.stored[uid]
    assert result["pairing"] == "r2-b1" and result["players"] == {"black": "Ann", "white": "Bob"}
    assert '[Black "Ann"]' in result["record"] or "Ann" in result["record"]


def test_a_pairing_waits_for_the_game_in_progress_then_starts(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules={"size": 4})
    try:
        wait(lambda: daemon.club.connected, what="connected")
        names = moves_to_end("binaryon", size=4)
        play(daemon, names[0])
        in_progress = daemon.call(lambda: on_board(daemon), render=False)
        publish(broker.url, topics.pairing("t1"), PAIRING)
        wait(lambda: daemon.message == f"{LINE}: after this game", what="it waits")
        assert daemon.call(lambda: on_board(daemon), render=False) == in_progress  # untouched
        for name in names[1:]:
            play(daemon, name)
        wait(lambda: daemon.session.game == "binary", what="started after the game")
        assert daemon.session.seat_names() == {"black": "Ann", "white": "Bob"}
        finished = daemon.journal.load(in_progress[2])
        assert finished.status == "finished" and len(finished.moves) >= len(names)
    finally:
        stop_board(daemon, closers)


def test_a_pairing_told_again_after_a_restart_is_not_started_again(tmp_path, broker):
    journal = tmp_path / "t1.sqlite"
    publish(broker.url, topics.pairing("t1"), PAIRING)  # retained before the board starts
    daemon, closers = start_board(tmp_path, broker.url, "t1", journal=journal)
    try:
        wait(lambda: daemon.session.game == "binary", what="the pairing's game")
        play(daemon, "a1")
        game_id = daemon.session.game_id
    finally:
        stop_board(daemon, closers)
    daemon, closers = start_board(tmp_path, broker.url, "t1", journal=journal)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        wait(lambda: daemon.message == LINE, what="the pairing shown again")
        assert daemon.call(lambda: on_board(daemon), render=False) == (
            "binary", {"black": "Ann", "white": "Bob"}, game_id, 1,
        )  # fmt: skip
    finally:
        stop_board(daemon, closers)


def test_a_pairing_the_board_cannot_play_is_said_in_one_line(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        before = daemon.call(lambda: on_board(daemon), render=False)
        publish(broker.url, topics.pairing("t1"), {**PAIRING, "game": "chess"})
        wait(lambda: "no game 'chess'" in daemon.message, what="said")
        assert "\n" not in daemon.message
        publish(broker.url, topics.pairing("t1"), {**PAIRING, "players": {"red": "Ann"}})
        wait(lambda: "no seat 'red'" in daemon.message, what="said")
        assert daemon.call(lambda: on_board(daemon), render=False) == before
    finally:
        stop_board(daemon, closers)


def test_the_link_publishes_and_subscribes_for_other_parts(tmp_path, broker):
    """Remote play's way in: a publish that never waits, a subscription whose callback runs
    in the daemon's loop thread and is kept across a broker restart."""
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    got: list[tuple[str, dict | None, bool]] = []
    try:
        wait(lambda: daemon.club.connected, what="connected")

        def heard(topic: str, message: dict | None) -> None:
            got.append((topic, message, threading.current_thread() is daemon.loop.thread))

        daemon.club.subscribe(topics.remote("t4", "t1"), heard)
        daemon.club.publish(topics.remote("t1", "t4"), {"board": "t1", "ply": 0, "move": "e5"})
        listener.wait_for(lambda h: payloads(h, topics.remote("t1", "t4")))
        publish(broker.url, topics.remote("t4", "t1"), {"board": "t4", "move": "d4"}, False)
        wait(lambda: got, what="delivered")
        assert got == [(topics.remote("t4", "t1"), {"board": "t4", "move": "d4"}, True)]
        broker.kill()
        wait(lambda: not daemon.club.connected, what="the link down")
        broker.start()
        wait(lambda: daemon.club.connected, timeout=40, what="back")
        publish(broker.url, topics.remote("t4", "t1"), {"board": "t4", "move": "c3"}, False)
        wait(lambda: len(got) == 2, what="delivered after the restart")
    finally:
        stop_board(daemon, closers)
        listener.close()
    assert payloads(listener.messages(), topics.remote("t1", "t4")) == [
        {"board": "t1", "ply": 0, "move": "e5"}
    ]
