"""The club's hub (``binaryon club``) against a real Mosquitto, with simulated boards publishing
what boards publish (tests/simulated_club_boards.py): the boards it shows, the results it
stores once and acknowledges, hostile messages, and a hub or a broker that goes away. Its
bounds: messages refused by depth as by size, one log line per kind however many come, a cap
on one address's TCP connections, a bounded number of boards followed and idle ones forgotten
(never an event's or an online one)."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time

import paho.mqtt.client as mqtt
import pytest

from companion.club import topics
from companion.club.broker import stop_client
from companion.club.hub.club import ClubHub
from companion.club.hub.state import HubState, Refused, decode
from companion.club.hub.store import ResultStore, parse_result
from companion.core.wire_json import MAX_DEPTH
from companion.views.web.connections import connection_limits
from tests.club_hub import HubProcess, message
from tests.mosquitto import Listener
from tests.simulated_club_boards import SimBoard, play_game

PLAYERS = {"on": "Ana", "off": "Bo"}


@pytest.fixture(scope="module")
def game():
    return play_game(3, PLAYERS)


def publisher(broker) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


# ------------------------------------------------------------------ pure parts, no broker


def test_the_command_refuses_credentials_in_the_url_with_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "club", "--broker",
         "mqtt://ann:secret@127.0.0.1:1", "--store", str(tmp_path / "s.sqlite")],
        capture_output=True, text=True, timeout=60, env={"BINARYON_CONFIG": "/dev/null",
                                                         "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "[club]" in done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


def test_a_results_file_that_cannot_be_opened_is_said_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "club", "--broker", "mqtt://127.0.0.1:1",
         "--web", "127.0.0.1:0", "--store", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env={"BINARYON_CONFIG": "/dev/null",
                                                         "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "results file" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_hubs_config_needs_no_board_name_and_keeps_the_credentials(broker, tmp_path):
    config = tmp_path / "hub.toml"
    config.write_text(f'[club]\nbroker = "{broker.url}"\nuser = "hub"\npassword = "pw"\n')
    hub = HubProcess(None, tmp_path, config=config).start()  # the broker from the file
    try:
        assert hub.get("/api/boards") == {"boards": [], "hub": hub.get("/api/boards")["hub"]}
    finally:
        hub.stop()
    assert "s3cr3t-pass" not in hub.log.read_text()


def test_older_tables_are_dropped_and_a_board_that_starts_again_counts_anew(game):
    state = HubState()
    table = {"board": "t1", "seq": 5, "view": game.steps[4].view}
    assert state.apply_table("t1", table)
    assert not state.apply_table("t1", {**table, "seq": 4, "view": game.steps[3].view})
    assert state.boards["t1"].ply == game.steps[4].ply
    state.apply_status("t1", {"board": "t1", "online": True})
    assert state.apply_table("t1", {**table, "seq": 1, "view": game.start})
    assert state.boards["t1"].ply == 0


@pytest.mark.parametrize(
    "payload",
    [b"\xff\xfe", b"[1, 2]", b"{" * 100_000, b'{"board": "t1"}' + b" " * 300_000, b"null"],
)
def test_a_garbled_or_oversized_payload_is_refused_in_one_line(payload):
    with pytest.raises(Refused) as e:
        decode(payload, 256 * 1024)
    assert "\n" not in str(e.value)


def test_a_message_for_another_board_or_with_a_bad_name_is_refused():
    state = HubState()
    with pytest.raises(Refused):
        state.apply_status("t1", {"board": "t2", "online": True})
    with pytest.raises(Refused):
        state.apply_status("<b>", {"board": "<b>", "online": True})
    assert state.boards == {}


def test_a_result_stored_twice_is_stored_once(tmp_path, game):
    store = ResultStore(tmp_path / "r.sqlite")
    message = {"board": "t1", "game_uid": "u1-1", "game": game.game, "players": PLAYERS,
               "result": game.result, "record": game.record}  # fmt: skip
    assert store.add(parse_result("t1", "u1-1", message))
    assert not store.add(parse_result("t1", "u1-1", {**message, "result": "changed"}))
    store.close()
    again = ResultStore(tmp_path / "r.sqlite")
    assert [(g["game_uid"], g["result"]) for g in again.games()] == [("u1-1", game.result)]
    assert again.acked("t1", "u1-1") == ["u1-1"]


# ------------------------------------------------------------------ the hub, on a real broker


def test_the_hub_shows_every_board_and_stores_and_acknowledges_results_once(broker, hub, game):
    listener = Listener(broker.url)
    boards = [SimBoard(broker.url, f"t{i}", game) for i in range(3)]
    try:
        for b in boards:
            b.online()
        for step in game.steps[:6]:
            for b in boards:
                b.play(step)
        seen = hub.wait(lambda: len(hub.boards()) == 3 and hub.boards(), what="3 boards")
        seen = hub.wait(
            lambda: (
                all(b["ply"] == game.steps[5].ply for b in hub.boards().values()) and hub.boards()
            ),
            what="the boards' moves",
        )
        t0 = seen["t0"]
        assert t0["online"] and t0["status"] == "playing" and t0["game"] == game.game
        assert [(p["seat"], p["name"]) for p in t0["players"]] == list(PLAYERS.items())
        assert t0["turn"] == game.steps[5].view["to_act"]
        assert hub.get("/api/board/t0")["view"] == game.steps[5].view  # exactly as published
        boards[0].finish()
        assert boards[0].wait_acked()
        boards[0].finish()  # sent again (a board that did not see the ack): stored once
        games = hub.wait(lambda: hub.get("/api/results")["games"], what="a result")
        listener.wait_for(
            lambda heard: sum(h.topic == topics.ack("t0") for h in heard) >= 2, timeout=20
        )
        games = hub.get("/api/results")["games"]
        assert [(g["board"], g["game_uid"], g["result"]) for g in games] == [
            ("t0", boards[0].game_uid, game.result)
        ]
        assert games[0]["record"] == game.record and games[0]["players"] == PLAYERS
        acks = [h for h in listener.messages() if h.topic == topics.ack("t0")]
        assert all(h.retain or True for h in acks)
        assert json.loads(acks[-1].payload)["results"] == [boards[0].game_uid]
        boards[1].offline()
        hub.wait(lambda: not hub.boards()["t1"]["online"], what="t1 offline")
    finally:
        for b in boards:
            b.close()
        listener.close()


def test_hostile_messages_are_refused_and_the_hub_carries_on(broker, hub, game):
    client = publisher(broker)
    try:
        hostile = '<img src=x onerror="alert(1)">'
        sends = [
            (topics.table("t1"), b"\xff garbled"),
            (topics.table("t1"), b"{" * 50_000),
            (topics.table("t1"), json.dumps({"board": "t1", "seq": 1, "view": {
                "x": "y" * 400_000}}).encode()),  # over the size a table may have
            (topics.status("t1"), json.dumps({"board": "t2", "online": True}).encode()),
            (topics.moves("t1"), b"[]"),
            (topics.result("t1", "u-9"), b'{"board": "t1"}'),
            (f"{topics.ROOT}/<b>x<b>/status", b'{"board": "<b>x<b>", "online": true}'),
        ]  # fmt: skip
        for topic, payload in sends:
            client.publish(topic, payload, qos=1).wait_for_publish(10)
        view = {
            **game.start,
            "players": [
                {"id": "on", "label": "ON", "name": hostile, "score": "0", "to_move": True}
            ],
        }
        client.publish(topics.table("t2"), json.dumps({"board": "t2", "seq": 1,
                       "view": view}).encode(), qos=1).wait_for_publish(10)  # fmt: skip
        board = hub.wait(lambda: hub.boards().get("t2"), what="t2")
        assert board["players"][0]["name"] == hostile  # data, never markup: the pages escape
        assert "t1" not in hub.boards() and len(hub.boards()) == 1
        assert hub.get("/api/boards")["hub"]["refused"] >= 5
        assert hub.get("/api/results")["games"] == []
        assert hub.process.poll() is None
    finally:
        stop_client(client)


def test_a_hub_killed_mid_round_loses_nothing_and_doubles_nothing(broker, hub, game):
    boards = [SimBoard(broker.url, f"t{i}", game) for i in range(3)]
    try:
        for b in boards:
            b.online()
            b.play(game.steps[0])
        boards[0].finish()
        assert boards[0].wait_acked()
        hub.wait(lambda: len(hub.boards()) == 3, what="3 boards")
        hub.kill()  # mid-round
        for step in game.steps[1:4]:
            for b in boards:
                b.play(step)
        boards[1].finish()  # while the hub is down: retained until acknowledged
        boards[0].finish()  # and one stored already, sent again
        hub.start()
        boards_now = hub.wait(
            lambda: (
                all(b["ply"] == game.steps[3].ply for b in hub.boards().values())
                and len(hub.boards()) == 3
                and hub.boards()
            ),
            what="the boards back from the retained messages",
        )
        assert all(b["online"] for b in boards_now.values())
        assert boards[1].wait_acked()
        uids = hub.wait(
            lambda: len(hub.get("/api/results")["games"]) == 2 and hub.get("/api/results"),
            what="two results",
        )
        assert sorted(g["game_uid"] for g in uids["games"]) == sorted(
            [boards[0].game_uid, boards[1].game_uid]
        )
    finally:
        for b in boards:
            b.close()


def test_a_broker_restart_the_hub_reconnects_by_itself_and_says_so(broker, hub, game):
    board = SimBoard(broker.url, "t1", game)
    try:
        board.online()
        hub.wait(lambda: "t1" in hub.boards(), what="t1")
        broker.kill()
        hub.wait(lambda: hub.get("/api/boards")["hub"]["broker"] == "down", what="down")
        assert "reconnecting" in hub.get("/api/boards")["hub"]["note"]
        broker.start()
        hub.wait(
            lambda: hub.get("/api/boards")["hub"]["broker"] == "connected",
            timeout=30, what="connected again",
        )  # fmt: skip
        board.play(game.steps[0])
        hub.wait(lambda: hub.boards()["t1"]["ply"] == game.steps[0].ply, what="a move after")
        board.finish()
        assert board.wait_acked(30)
    finally:
        board.close()


def nested(levels: int) -> dict:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return {"deep": value}


def test_a_table_nested_too_deep_is_refused_though_json_could_read_it():
    with pytest.raises(Refused, match=f"nested deeper than {MAX_DEPTH}"):
        decode(message("t1", seq=1, view=nested(MAX_DEPTH + 5)), 256 * 1024)


def test_a_flood_of_bad_messages_is_one_log_line_per_kind(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
    for _ in range(200):
        club.handle(topics.table("t1"), message("t1", seq=1, view=nested(100)))
        club.handle(topics.status("t1"), b"{" * 50_000)
        club.handle(topics.moves("t1"), b"x" * 20_000)
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert club.refused == 600
    assert len(lines) == 3 and not [r for r in caplog.records if r.exc_info]


def test_idle_offline_boards_are_forgotten_but_never_an_events_or_an_online_one():
    now = [0.0]
    state = HubState(clock=lambda: now[0])
    for name in ("gone", "event", "live"):
        state.apply_status(name, {"board": name, "online": name == "live"})
    now[0] = 100.0
    state.apply_status("fresh", {"board": "fresh", "online": False})
    now[0] = 3650.0
    assert state.forget(3600.0, keep={"event"}) == ["gone"]
    assert sorted(state.boards) == ["event", "fresh", "live"]


def test_the_hub_tells_its_pages_of_a_forgotten_board(tmp_path):
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"), forget_after=0.0)
    club.handle(topics.status("t9"), message("t9", online=False))
    club.keep.add("t1")
    club.handle(topics.status("t1"), message("t1", online=False))
    assert club.forget_idle() == ["t9"] and list(club.state.boards) == ["t1"]
    assert club.hub_summary()["boards"] == 1


def test_the_hub_follows_a_bounded_number_of_boards():
    from companion.club.hub.state import MAX_BOARDS

    state = HubState()
    for i in range(MAX_BOARDS):
        state.apply_status(f"b{i}", {"board": f"b{i}", "online": False})
    with pytest.raises(Refused, match="a new one waits"):
        state.apply_status("late", {"board": "late", "online": True})
    state.apply_status("b7", {"board": "b7", "online": True})  # one it follows goes on
    assert len(state.boards) == MAX_BOARDS and state.boards["b7"].online


def test_the_hub_closes_one_clients_connections_past_its_cap(hub):
    """100 idle connections from one address: the hub keeps its cap's worth and closes the
    rest at once; another address's page still answers."""
    cap = connection_limits().per_client
    sockets = []
    try:
        for _ in range(100):
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.connect(("127.0.0.1", hub.port))
            s.settimeout(5)
            sockets.append(s)

        def closed_by_the_hub(s: socket.socket) -> bool:
            s.setblocking(False)
            try:
                return s.recv(1) == b""
            except BlockingIOError:
                return False
            except ConnectionResetError:
                return True

        wait_until = time.monotonic() + 10
        while True:
            closed = sum(closed_by_the_hub(s) for s in sockets if s.fileno() >= 0)
            if closed >= 100 - cap or time.monotonic() > wait_until:
                break
            time.sleep(0.1)
        assert closed >= 100 - cap
        assert hub.get("/api/boards")["hub"]["broker"] == "connected"
    finally:
        for s in sockets:
            s.close()
