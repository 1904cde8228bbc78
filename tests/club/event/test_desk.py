"""The arbiter's desk over a real Mosquitto: each round's pairings retained on the boards'
``pairing`` topics, results taken by pairing id, the next round paired when one is done,
corrections made by ``binaryon event`` while the desk runs; a result whose winners are not
texts refused in one line."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
import pytest

from companion.cli.main import main
from companion.club import topics
from companion.club.broker import stop_client
from companion.club.event.desk import EventDesk
from tests.club.event.events import ROUND_ROBIN_OF_FOUR as FOUR_PLAYERS
from tests.mosquitto import Listener

EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 4 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
"""


class Publisher:
    """The hub's side of publishing: a paho client (QoS 1), as the hub's link is."""

    def __init__(self, url: str):
        host, port = url.removeprefix("mqtt://").rsplit(":", 1)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        connected = threading.Event()
        self.client.on_connect = lambda *a: connected.set()
        self.client.connect(host, int(port))
        self.client.loop_start()
        assert connected.wait(10)

    def __call__(self, topic: str, payload, retain: bool) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(10)

    def close(self) -> None:
        stop_client(self.client)


@pytest.fixture
def desk(tmp_path, broker):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    publish = Publisher(broker.url)
    d = EventDesk(event, publish)
    d.publish_pairings(force=True)
    yield d
    d.close()
    publish.close()


def _retained(broker, board: str) -> dict | None:
    """What a board subscribing now is given on its pairing topic."""
    listener = Listener(broker.url)
    try:
        heard = listener.wait_for(lambda m: any(h.topic == topics.pairing(board) for h in m), 5)
    except AssertionError:
        return None
    finally:
        listener.close()
    payload = [h for h in heard if h.topic == topics.pairing(board)][-1].payload
    return json.loads(payload) if payload else None


def _finished(desk, message: dict, winner: str | None) -> dict:
    return {
        "board": message["board"],
        "game_uid": f"u{message['pairing']}",
        "game": message["game"],
        "players": message["players"],
        "winners": [] if winner is None else [winner],
        "pairing": message["pairing"],
        "record": '[Game "binaryon"]\n[Options "size=4"]\n\n1. a4\n',
    }


def test_rounds_go_to_the_boards_and_come_back_with_results(desk, broker):
    first = _retained(broker, "t1")
    assert first["event"] == "March" and first["round"] == 1 and first["game"] == "binaryon"
    assert first["players"] == {"on": "Ben", "off": "Eve"}  # Berger: 1-6 is Ann's bye, 2-5, 3-4
    assert first["pairing"] == desk.wire_id(desk.tournament.find("r1-t1"))
    assert first["pairing"].startswith(f"{desk.id}-r1-t1-") and first["options"] == {"size": "4"}
    second = _retained(broker, "t2")
    assert second["players"] == {"on": "Cat", "off": "Dan"}
    # a result for another event's pairing, or for no pairing, is not this event's
    assert not desk.on_result("t1", {**_finished(desk, first, "on"), "pairing": "x-r1-t1"})
    assert desk.on_result("t1", _finished(desk, first, "on"))  # Ben wins
    assert _retained(broker, "t1") is None  # cleared: nothing left to play on t1 this round
    assert desk.on_result("t2", _finished(desk, second, None))  # a draw
    # round 1 done: round 2 is paired and on the boards
    nxt = _retained(broker, "t1")
    assert nxt["round"] == 2 and nxt["pairing"].startswith(f"{desk.id}-r2-t1-")
    table = {s["name"]: s["points"] for s in desk.standings_json()["standings"]}
    # Ann had round 1 off, Dan has round 2 off: a round robin's round off scores nothing
    # (FIDE C.05, C.07 16)
    assert table == {"Ann": 0, "Ben": 1, "Cat": 0.5, "Dan": 0.5, "Eve": 0}


def test_a_correction_by_the_command_reaches_the_desk_and_the_board(desk, broker, tmp_path):
    first = _retained(broker, "t1")
    desk.on_result("t1", _finished(desk, first, "on"))
    event = str(tmp_path / "march.toml")
    assert main(["event", event, "correct", "r1-t1", "replay", "--by", "Zoe", "--why", "x"]) == 0
    assert desk.refresh()
    again = _retained(broker, "t1")
    assert again["pairing"] == desk.wire_id(desk.tournament.find("r1-t1-2"))
    assert again["players"]["on"] == "Ben"
    assert [c["new"] for c in desk.rounds_json()["corrections"]] == ["replay"]
    # the old game's result, sent again, is refused (one line for the page)
    assert not desk.on_result("t1", {**_finished(desk, first, "on"), "game_uid": "other"})
    assert "replayed" in desk.note


def test_only_the_token_printed_allows_corrections(desk):
    assert desk.allowed(desk.token)
    assert not desk.allowed("") and not desk.allowed(None) and not desk.allowed(desk.token[:-1])


def test_results_stored_while_the_desk_was_away_are_taken_at_its_start(desk, broker):
    first, second = _retained(broker, "t1"), _retained(broker, "t2")
    stored = [
        {**_finished(desk, second, "off"), "finished": 2},  # Dan wins, by his seat
        {**_finished(desk, first, "Eve"), "finished": 1},  # Eve wins, by her name
        {**_finished(desk, first, "on"), "pairing": "other-r1-t1"},  # another event's
    ]
    assert desk.catch_up(stored) == 2
    assert desk.catch_up(stored) == 0  # taken once
    games = {g.pairing: g.result for g in desk.tournament.live(1)}
    assert games == {"r1-t1": "0-1", "r1-t2": "0-1", "r1-bye": "bye"}
    assert desk.tournament.round == 2


def test_a_pairing_id_cannot_be_made_up(desk, broker, tmp_path):
    """Pairing ids carry a tag made with the event's own secret: the id of a round not
    paired yet cannot be guessed, and a result under a made-up id is not the event's."""
    first = _retained(broker, "t1")
    done = _finished(desk, first, "on")
    for made_up in (f"{desk.id}-r1-t1", f"{desk.id}-r1-t1-{'0' * 20}", first["pairing"] + "0"):
        assert not desk.on_result("t1", {**done, "pairing": made_up})
    assert desk.tournament.find("r1-t1").result is None
    # another event file of the same text (its own store) signs its games otherwise
    other = tmp_path / "other"
    other.mkdir()
    (other / "march.toml").write_text(EVENT)
    twin = EventDesk(other / "march.toml", lambda *a: None)
    try:
        assert twin.id == desk.id
        assert twin.wire_id(twin.tournament.find("r1-t1")) != first["pairing"]
    finally:
        twin.close()


def test_a_pairings_result_comes_only_from_its_board_with_its_names(desk, broker):
    first = _retained(broker, "t1")
    forged = {**_finished(desk, first, "on"), "board": "t9", "players": []}
    assert not desk.on_result("t9", forged)  # not the board it was paired on
    assert not desk.on_result("t2", {**forged, "board": "t2"})  # another board of the event
    assert "played on t1" in desk.note
    others = {**_finished(desk, first, "on"), "players": {"on": "Zed", "off": "Eve"}}
    assert not desk.on_result("t1", others)  # a game of other players
    assert desk.tournament.find("r1-t1").result is None
    # the real result is still taken
    assert desk.on_result("t1", _finished(desk, first, "off"))
    assert desk.tournament.find("r1-t1").result == "0-1"


def test_a_disputed_or_unverified_remote_game_is_left_to_the_arbiter(desk, broker):
    """A board's result marked ``disputed`` (a lie caught in remote play) or ``unverified``
    (the peer never revealed) is not the pairing's result: the game waits for the arbiter."""
    first = _retained(broker, "t1")
    for status in ("disputed", "unverified"):
        marked = {**_finished(desk, first, "on"), "status": status, "why": "t2 lied"}
        assert not desk.on_result("t1", marked)
        assert desk.note.endswith(f"is {status}: the arbiter's to decide")
    assert desk.tournament.find("r1-t1").result is None
    assert desk.on_result("t1", _finished(desk, first, "on"))  # the arbiter's way in stays open


@pytest.mark.parametrize("winners", [[["x"]], [{"a": 1}], "on", [1]])
def test_winners_that_are_not_texts_are_one_line_at_the_desk(tmp_path, winners):
    event = tmp_path / "march.toml"
    event.write_text(FOUR_PLAYERS)
    desk = EventDesk(event, lambda *a: None)
    try:
        game = desk.tournament.waiting()[0]
        result = {"board": game.board, "game_uid": "u-1", "game": "binaryon",
                  "pairing": desk.wire_id(game), "players": {"on": game.white},
                  "winners": winners, "record": ""}  # fmt: skip
        assert desk.on_result(game.board, result) is False
        assert "\n" not in desk.note and desk.note
        assert desk.tournament.find(game.pairing).result is None
    finally:
        desk.close()
