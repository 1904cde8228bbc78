"""What holds even when a message the broker should have refused gets through (an anonymous
broker, a club's board with a stolen password; docs/club.md, "Security"): each break found on
the hall's network, on a real Mosquitto. A forged acknowledgement loses no result; a result
forged under another board's game uid does not take the place of the real one; pairings come
only from the hub's tree; a remote game is one game at the hub; a restored journal never
reuses a game uid; a second board with a name in use is refused and told so."""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.club import topics
from companion.club.hub.club import ClubHub
from companion.club.hub.store import ResultStore, parse_result
from companion.journal.store import SqliteJournal
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
from tests.club_hub import HubProcess
from tests.mosquitto import Listener

SMALL = {"size": 4}


def _finish(daemon) -> str:
    for name in moves_to_end("binaryon", **SMALL):
        play(daemon, name)
    return daemon.club.game_uid()


# ------------------------------------------------------------------ results lost


def test_a_forged_ack_loses_no_result(tmp_path, broker):
    """The game in play's uid is public (the table carries it): a retained ack naming it, and
    the uids of games to come, must not make the board drop its results."""
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules=SMALL)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        current = daemon.club.game_uid()  # even the result's uid, never published yet
        later = [f"{daemon.journal.meta('uid')}-{n}" for n in range(1, 201)]
        public = f"{daemon.journal.meta('uid')}-{daemon.session.game_id}"  # as its table says
        forged = {"results": [current, public, *later]}
        publish(broker.url, topics.ack("t1"), forged)  # retained, as the hub's are
        time.sleep(0.5)  # the board has it by now
        daemon.wait_idle()
        assert daemon.journal.meta_with_prefix("club.delivered.") == {}
        acker = Acker(broker.url)  # the real hub comes
        uid = _finish(daemon)
        assert uid == current
        wait(lambda: uid in acker.stored, what="the result at the hub")
        wait(lambda: daemon.journal.meta(f"club.delivered.{uid}") is not None, what="acked")
    finally:
        stop_board(daemon, closers)
    acker.close()


# ------------------------------------------------------------------ results forged


def _result(board: str, uid: str, **more) -> dict:
    return parse_result(
        board,
        uid,
        {"board": board, "game_uid": uid, "game": "binaryon", "record": "r", **more},
    )


def test_a_result_forged_under_another_boards_uid_takes_nothing_from_it(tmp_path):
    store = ResultStore(tmp_path / "club.sqlite")
    assert store.add(_result("t2", "u1-5-ab", winners=["on"]))  # t2 got t1's uid first
    assert store.acked("t1", "u1-5-ab") == []  # not stored from t1: t1 is not told it is
    assert store.add(_result("t1", "u1-5-ab", winners=["off"]))  # t1's own, stored
    assert store.acked("t1", "u1-5-ab") == ["u1-5-ab"]
    assert not store.add(_result("t1", "u1-5-ab"))  # sent again: once
    games = {(g["board"], g["game_uid"]): g["winners"] for g in store.games()}
    assert games == {("t2", "u1-5-ab"): ["on"], ("t1", "u1-5-ab"): ["off"]}
    assert store.acked("t3", "u1-5-ab") == []
    store.close()


def test_a_result_forged_under_the_game_in_plays_uid_does_not_replace_the_real_one(
    tmp_path, broker
):
    """The game in play's uid as its table shows it, a result published under it before any
    move (as a message that got through): the board's real result is still stored."""
    (tmp_path / "hub").mkdir()
    hub = HubProcess(broker.url, tmp_path / "hub").start()
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules=SMALL)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        wait(lambda: (_board(hub, "t1") or {}).get("game_uid"), what="t1's table at the hub")
        shown = _board(hub, "t1")["game_uid"]
        forged = {"board": "t1", "game_uid": shown, "game": "binaryon", "record": "forged",
                  "players": [], "winners": ["on"], "result": "ON wins"}  # fmt: skip
        publish(broker.url, topics.result("t1", shown), forged)
        wait(lambda: any(g["record"] == "forged" for g in hub.results()), what="the forgery")
        uid = _finish(daemon)
        wait(lambda: daemon.journal.meta(f"club.delivered.{uid}") is not None, what="acked")
        real = [g for g in hub.results() if g["game_uid"] == uid]
    finally:
        stop_board(daemon, closers)
        hub.stop()
    assert uid != shown
    assert len(real) == 1 and real[0]["record"].startswith("[Game")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["t1", "t2", "t3"]), st.sampled_from("abcd")),
                max_size=12))  # fmt: skip
def test_an_ack_names_only_results_stored_from_its_board(sent):
    """Whatever results come from whichever board, under whichever uid: each is stored once
    a board, and a board's ack names only what it sent."""
    with tempfile.TemporaryDirectory() as folder:
        store = ResultStore(Path(folder) / "club.sqlite")
        firsts = set()
        for board, uid in sent:
            assert store.add(_result(board, uid)) == ((board, uid) not in firsts)
            firsts.add((board, uid))
            acked = store.acked(board, uid)
            assert acked[0] == uid and len(acked) == len(set(acked))
            for other in ("t1", "t2", "t3"):
                assert {(other, u) for u in store.acked(other, uid)} <= firsts
        assert store.count() == len(firsts)
        store.close()


def test_an_older_hubs_results_file_is_kept_and_upgraded(tmp_path):
    path = tmp_path / "club.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE results (game_uid TEXT PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT"
        " NULL, players TEXT NOT NULL, result TEXT NOT NULL, winners TEXT NOT NULL, options TEXT"
        " NOT NULL, record TEXT NOT NULL, pairing TEXT, finished REAL, received REAL NOT NULL);"
        "CREATE INDEX results_board ON results (board, received);"
        "INSERT INTO results VALUES ('u-1', 't1', 'binaryon', '{}', 'ON wins', '[\"on\"]',"
        " '{}', 'rec', NULL, 1.0, 2.0);"
    )
    db.commit()
    db.close()
    store = ResultStore(path)
    assert [(g["board"], g["game_uid"], g["record"]) for g in store.games()] == [
        ("t1", "u-1", "rec")
    ]
    assert store.add(_result("t2", "u-1"))  # now by board and uid
    assert store.acked("t1", "x") == ["u-1"] and store.acked("t2", "u-1") == ["u-1"]
    store.close()


# ------------------------------------------------------------------ pairings forged


PAIRING = {
    "board": "t1",
    "event": "club night",
    "round": 2,
    "pairing": "e-r2-t1-0123",
    "game": "binary",
    "options": {"size": 4},
    "players": {"black": "Ann", "white": "Bob"},
    "clock": "0:01+0",
    "sent": 1.0,
}


def test_a_board_takes_pairings_only_from_the_hubs_tree_and_for_itself(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        game_id = daemon.session.game_id
        # on the board's own tree (where a board's user may write): not the hub's word
        publish(broker.url, topics.board_topic("t1", "pairing"), PAIRING)
        # on the hub's tree but for another board
        publish(broker.url, topics.pairing("t1"), {**PAIRING, "board": "t2"})
        time.sleep(0.5)
        daemon.wait_idle()
        assert (daemon.session.game, daemon.session.game_id) == ("binaryon", game_id)
        assert "another board" in daemon.message
        publish(broker.url, topics.pairing("t1"), PAIRING)  # the hub's: taken
        wait(lambda: daemon.session.game == "binary", what="the hub's pairing")
    finally:
        stop_board(daemon, closers)


# ------------------------------------------------------------------ game uids repeat


def test_game_uids_never_repeat_also_after_a_restore(tmp_path, broker, capsys):
    from companion.cli.main import main

    journal = tmp_path / "t1.sqlite"
    backup = tmp_path / "backup.sqlite"
    acker = Acker(broker.url)
    uids = []

    def session(finish: bool = True) -> str:
        daemon, closers = start_board(tmp_path, broker.url, "t1", journal=journal, rules=SMALL)
        try:
            wait(lambda: daemon.club.connected, what="connected")
            if not finish:
                return daemon.club.game_uid()
            uid = _finish(daemon)
            wait(lambda: daemon.journal.meta(f"club.delivered.{uid}") is not None, what="ack")
            daemon.call(lambda: daemon.new_game(), render=False)
            return uid
        finally:
            stop_board(daemon, closers)

    uids.append(session())  # game 1, delivered
    in_play = session(finish=False)  # game 2 in play when the copy is made
    assert main(["backup", str(backup), "--journal", str(journal)]) == 0
    uids.append(session())  # game 2 ends, delivered; game 3 starts
    assert uids[-1] == in_play
    assert main(["restore", str(backup), "--journal", str(journal)]) == 0
    assert "restored" in capsys.readouterr().out
    again = session()  # game 2 again, from the copy: it ends otherwise, maybe
    assert again not in uids
    assert acker.stored[again]["game_uid"] == again  # stored, not taken for the old one
    assert SqliteJournal.open(journal, read_only=True).meta("backup") is None  # seen once
    acker.close()


def test_restore_refuses_in_one_line_what_it_cannot_do(tmp_path, capsys):
    from companion.cli.main import main

    journal = tmp_path / "j.sqlite"
    assert main(["restore", str(tmp_path / "none.sqlite"), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no backup" in err


# ------------------------------------------------------------------ one remote game


def test_a_remote_game_is_one_game_at_the_hub_with_both_names(tmp_path, broker):
    import random

    from tests.club.remote.test_play import play as play_remote
    from tests.remote_boards import Board, seated

    (tmp_path / "hub").mkdir()
    hub = HubProcess(broker.url, tmp_path / "hub").start()
    t3 = Board(tmp_path, broker, "t3", "t4", "", "binaryon", SMALL, {"on": "Ann"})
    first = t3.state()["local"]
    t4 = Board(tmp_path, broker, "t4", "t3", first, "binaryon", SMALL, {"off": "Bob"})
    try:
        play_remote(seated(t3, t4), random.Random(3), refuse=False)
        wait(lambda: _delivered(t3) and _delivered(t4), 40, what="both results acknowledged")
        games = hub.results()
    finally:
        t3.stop()
        t4.stop()
        hub.stop()
    assert len(games) == 1, games
    assert games[0]["players"] == {"on": "Ann", "off": "Bob"}
    assert games[0]["board"] in ("t3", "t4")


def _delivered(board) -> bool:
    journal = SqliteJournal.open(board.journal, read_only=True)
    try:
        return bool(journal.meta_with_prefix("club.delivered."))
    finally:
        journal.close()


# ------------------------------------------------------------------ two boards named t1


def test_a_second_board_with_a_name_in_use_is_refused_and_told(tmp_path, broker):
    (tmp_path / "hub").mkdir()
    hub = HubProcess(broker.url, tmp_path / "hub").start()
    listener = Listener(broker.url)
    first, closers = start_board(tmp_path, broker.url, "t1", rules=SMALL)
    second = closers2 = None
    try:
        wait(lambda: first.club.connected, what="the first t1")
        wait(lambda: _board(hub, "t1") is not None, what="t1 at the hub")
        second, closers2 = start_board(
            tmp_path, broker.url, "t1", journal=tmp_path / "other.sqlite", rules={"size": 6}
        )
        wait(lambda: "in use by another board" in second.message, what="the second t1 told")
        other = second.journal.meta("uid")
        assert other != first.journal.meta("uid")
        assert second.message.startswith("club: name t1 in use")  # on its OLED
        assert _hub(hub)["names_in_use"] == ["t1"]  # and the hub's API says it
        assert "in use" not in (first.message or "")
        play(second, moves_to_end("binaryon", size=6)[0])  # neither its move nor its table
        second.wait_idle()
        time.sleep(0.5)
        assert _board(hub, "t1")["ply"] == 0 and _board(hub, "t1")["last_move"] == ""
        play(first, moves_to_end("binaryon", **SMALL)[0])
        wait(lambda: _board(hub, "t1")["ply"] == 1, what="the first t1's move")
        time.sleep(0.5)
        shown = _board(hub, "t1")
        assert shown["game_uid"] == first.club.public_uid() and shown["online"]
        # the second one leaves: the first stays online
        stop_board(second, closers2)
        second = None
        time.sleep(0.5)
        assert _board(hub, "t1")["online"] is True
        told = [p for p in payloads(listener.messages(), topics.refused("t1")) if p]
        assert told and {p["journal"] for p in told} == {other}
    finally:
        if second is not None:
            stop_board(second, closers2)
        stop_board(first, closers)
        hub.stop()
        listener.close()


EVENTS = st.lists(
    st.tuples(st.sampled_from(["J1", "J2"]), st.sampled_from(["online", "offline", "table"])),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(EVENTS)
def test_one_name_one_board_whatever_the_order(events):
    """Two journals' boards under one name, their statuses and tables in any order (as the
    hub's ``handle`` gets them): the first heard holds the name while it is online, the
    other's messages change nothing meanwhile (its last will does not mark the holder
    offline, its table is never shown), and once the holder is offline the next board online
    takes the name, without the old one's table."""
    with tempfile.TemporaryDirectory() as folder:
        hub = ClubHub(ResultStore(Path(folder) / "club.sqlite"))
        holder, online, shown = None, False, None
        seq = 0
        for journal, kind in events:
            base = {"board": "t1", "journal": journal, "sent": 1.0}
            coming = kind == "online"
            taken = holder in (None, journal) or (coming and not online)
            if taken and holder != journal:
                holder, shown = journal, None
            if kind == "table":
                seq += 1
                view = {"game": "binaryon", "from": journal}
                body = {**base, "seq": seq, "game_uid": journal, "view": view}
                hub.handle(topics.table("t1"), json.dumps(body).encode())
                shown = journal if taken else shown
            else:
                body = {**base, "online": coming, "game": "binaryon"}
                hub.handle(topics.status("t1"), json.dumps(body).encode())
                online = coming if taken else online
            board = hub.state.boards.get("t1")
            view = (board.view or {}) if board is not None else {}
            assert view.get("from") == shown
            assert (board.online if board is not None else False) == online
        hub.store.close()


def _hub(hub: HubProcess) -> dict:
    with urllib.request.urlopen(f"{hub.url}/api/boards", timeout=10) as r:
        return json.loads(r.read())["hub"]


def _board(hub: HubProcess, name: str) -> dict | None:
    with urllib.request.urlopen(f"{hub.url}/api/boards", timeout=10) as r:
        boards = json.loads(r.read())["boards"]
    return next((b for b in boards if b["name"] == name), None)


@pytest.fixture(autouse=True)
def _no_leftover_env(monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
