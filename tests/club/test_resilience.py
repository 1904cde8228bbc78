"""Nothing lost, nothing doubled: the broker killed in the middle of a game, a board killed
with SIGKILL and started again, a broker down when the board starts. The board plays on;
what it could not send goes in order when the broker returns; the journal says what the hub
has acknowledged, so an acknowledged result is never sent again."""

from __future__ import annotations

import json

from companion.club import topics
from tests.club_boards import (
    Acker,
    BoardProcess,
    Gate,
    moves_to_end,
    payloads,
    play,
    start_board,
    stop_board,
    wait,
)
from tests.mosquitto import Listener

SMALL = {"size": 4}


def plies(heard, board: str) -> list[int]:
    return [m["ply"] for m in payloads(heard, topics.moves(board)) if m and "ply" in m]


def test_a_broker_killed_mid_game_then_back_loses_and_doubles_nothing(tmp_path, broker):
    gate = Gate(broker.port)
    gate.open()
    listener, acker = Listener(broker.url), Acker(broker.url)
    daemon, closers = start_board(tmp_path, gate.url, "t1", rules=SMALL)
    names = moves_to_end("binaryon", **SMALL)
    half = len(names) // 2
    try:
        wait(lambda: daemon.club.connected, what="connected")
        for name in names[:half]:
            play(daemon, name)
        listener.wait_for(lambda h: len(plies(h, "t1")) == half)
        wait(lambda: daemon.club.queued == 0, what="every move confirmed")
        listener.close()
        acker.close()
        gate.shut()
        broker.kill()  # mid-game: the board plays on, every press answered at once
        wait(lambda: not daemon.club.connected, what="the link down")
        for name in names[half:]:
            play(daemon, name)
        assert daemon.session.state.is_over()
        queued = len(daemon.session.played) - half + 1  # the moves, the passes, the result
        line = f"club: broker unreachable, {queued} queued"
        wait(lambda: daemon.club_status == line, what=line)
        broker.start()
        listener, acker = Listener(broker.url), Acker(broker.url)  # before the board is back
        gate.open()
        uid = daemon.club.game_uid()
        wait(lambda: uid in acker.stored, what="the result at the hub")
        heard = listener.wait_for(lambda h: None in payloads(h, topics.result("t1", uid)))
        wait(lambda: daemon.club_status == "club: connected to 127.0.0.1", what="all sent")
    finally:
        stop_board(daemon, closers)
        listener.close()
        acker.close()
        gate.close()
    played = [p.public for p in daemon.session.played]
    assert plies(heard, "t1") == list(range(half, len(played)))  # in order, none twice
    moves = [m["move"] for m in payloads(heard, topics.moves("t1"))]
    assert moves == played[half:] and moves[: len(names) - half] == names[half:]
    assert acker.heard == [uid]
    # the retained status came back with the board: a hub starting now sees it online
    assert payloads(heard, topics.status("t1"))[0]["online"] is True


def test_a_board_that_starts_with_the_broker_away_sends_everything_when_it_answers(
    tmp_path, broker
):
    gate = Gate(broker.port)  # shut: the broker cannot be reached
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, gate.url, "t1")
    try:
        for name in ("e5", "d4", "f6"):
            play(daemon, name)
        wait(lambda: daemon.club_status == "club: broker unreachable, 3 queued", what="queued")
        gate.open()
        listener.wait_for(lambda h: len(plies(h, "t1")) == 3)
        wait(lambda: daemon.club.queued == 0, what="confirmed")
        table = json.loads(json.dumps(daemon.call(lambda: daemon.web_view(), render=False)))
        views = lambda h: [t["view"] for t in payloads(h, topics.table("t1"))]  # noqa: E731
        heard = listener.wait_for(lambda h: table in views(h))  # the view as it is now
    finally:
        stop_board(daemon, closers)
        listener.close()
        gate.close()
    assert [m["move"] for m in payloads(heard, topics.moves("t1"))] == ["e5", "d4", "f6"]
    assert table["moves"] and [m["name"] for m in table["moves"]] == ["e5", "d4", "f6"]


def test_a_board_killed_mid_game_sends_its_result_once_and_never_again(tmp_path, broker):
    journal = tmp_path / "t3.sqlite"
    listener, acker = Listener(broker.url), Acker(broker.url)
    names = moves_to_end("binaryon", **SMALL)
    half = len(names) // 2
    board = BoardProcess(tmp_path, broker.url, "t3", journal, "--rule", "size=4")
    try:
        for name in names[:half]:
            board.type(f"move {name}")
        listener.wait_for(lambda h: len(plies(h, "t3")) >= half)
        board.kill()  # SIGKILL mid-game
        board = BoardProcess(tmp_path, broker.url, "t3", journal, "--rule", "size=4")
        for name in names[half:]:
            board.type(f"move {name}")
        uids = lambda: list(acker.stored)  # noqa: E731
        wait(lambda: len(uids()) == 1, what="the result at the hub")
        (uid,) = uids()
        heard = listener.wait_for(lambda h: None in payloads(h, topics.result("t3", uid)))
        board.kill()  # acknowledged, then killed: never sent again
        board = BoardProcess(tmp_path, broker.url, "t3", journal, "--rule", "size=4")
        online = lambda h: sum(bool(p and p["online"]) for p in payloads(h, topics.status("t3")))  # noqa: E731
        listener.wait_for(lambda h: online(h) == 3)
        board.type("new")
        board.type(f"move {names[0]}")  # the next game's first move: after anything resent
        heard = listener.wait_for(
            lambda h: any(m["game_uid"] != public(uid) for m in payloads(h, topics.moves("t3")))
        )
        assert board.quit() == 0  # a clean exit says it goes offline
        status = lambda h: [p for p in payloads(h, topics.status("t3")) if p]  # noqa: E731
        heard = listener.wait_for(lambda h: status(h)[-1]["online"] is False)
    finally:
        board.close()
        listener.close()
        acker.close()
    assert acker.heard == [uid]  # sent once, stored once; never again after the restart
    result = acker.stored[uid]
    assert result["record"].count("\n") > 3 and result["board"] == "t3"
    first_game = [m for m in payloads(heard, topics.moves("t3")) if m["game_uid"] == public(uid)]
    seen: list[str] = []  # the game as a hub keeps it: one move a ply
    for m in first_game:
        if "undo_to" in m:
            del seen[m["undo_to"] :]
        elif m["ply"] == len(seen):
            seen.append(m["move"])
        else:
            assert m["ply"] < len(seen) and seen[m["ply"]] == m["move"]  # resent, the same
    assert seen == moves_to_end("binaryon", forced=True, **SMALL)  # every move, in order


def test_a_result_finished_while_no_hub_listens_survives_a_kill_and_is_stored_once(
    tmp_path, broker
):
    journal = tmp_path / "t5.sqlite"
    listener = Listener(broker.url)
    board = BoardProcess(tmp_path, broker.url, "t5", journal, "--rule", "size=4")
    acker = None
    try:
        for name in moves_to_end("binaryon", **SMALL):
            board.type(f"move {name}")
        results = lambda h: [m for m in h if m.topic.startswith(topics.result("t5", ""))]  # noqa: E731
        listener.wait_for(results)  # retained on the broker, nobody has acknowledged it
        board.kill()
        broker.kill()  # and the broker forgets it (no persistence): only the journal knows
        broker.start()
        later = Listener(broker.url)
        board = BoardProcess(tmp_path, broker.url, "t5", journal, "--rule", "size=4")
        acker = Acker(broker.url)
        wait(lambda: len(acker.stored) == 1, what="the result from the journal")
        (uid,) = acker.stored
        later.wait_for(lambda h: None in payloads(h, topics.result("t5", uid)))
        assert board.quit() == 0
        board = BoardProcess(tmp_path, broker.url, "t5", journal, "--rule", "size=4")
        later.wait_for(
            lambda h: sum(bool(p and p["online"]) for p in payloads(h, topics.status("t5"))) == 2
        )  # noqa: E501
        assert board.quit() == 0
    finally:
        board.close()
        listener.close()
        if acker is not None:
            acker.close()
    assert list(acker.stored) == [uid] and acker.heard == [uid]
    told = payloads(later.messages(), topics.result("t5", uid))
    assert None in told and not any(told[told.index(None) :])  # cleared, never sent again
    later.close()


def test_a_frozen_broker_never_holds_up_a_press(tmp_path, broker):
    """SIGSTOP: the broker keeps its connections open and answers nothing, the worst case
    for a client that waited on the network. Every press of a whole game is answered (the
    daemon's call gives up after 5 s), and everything arrives once the broker wakes."""
    import os
    import signal

    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    names = moves_to_end("binaryon")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        os.kill(broker.process.pid, signal.SIGSTOP)
        try:
            for name in names:
                play(daemon, name)  # TimeoutError if the loop waited on the broker
            assert daemon.session.state.is_over()
        finally:
            os.kill(broker.process.pid, signal.SIGCONT)
        played = len(daemon.session.played)
        heard = listener.wait_for(lambda h: len(plies(h, "t1")) == played, 60)
    finally:
        stop_board(daemon, closers)
        listener.close()
    assert plies(heard, "t1") == list(range(played))


def public(uid: str) -> str:
    """The game's uid as its moves and table name it (its result's has a random part more)."""
    return uid.rsplit("-", 1)[0]
