"""``binaryon club --event``: the hub on a real Mosquitto runs a round robin: pairings to the
boards, results back from them, the next round, standings, the arbiter's corrections with the
printed token only, the hub killed mid-round, and the event's games exported and imported."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from companion.cli.main import main
from companion.club import topics
from companion.club.broker import stop_client
from companion.journal.api import NullJournal
from companion.records.format import Record, format_record
from companion.referee.session import Session
from tests.club.event.events import ROUND_ROBIN_OF_FOUR as EVENT
from tests.club_hub import HubProcess
from tests.mosquitto import Listener


class Board:
    """A board's side of the protocol, by hand: it reads its pairing and sends the finished
    game of that pairing, retained, as CLUB.md has it."""

    def __init__(self, url: str, name: str):
        host, port = url.removeprefix("mqtt://").rsplit(":", 1)
        self.name = name
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.connect(host, int(port))
        self.client.loop_start()
        self.sent = 0

    def finish(self, pairing: dict, moves_first: int = 0) -> str:
        """Play the pairing's game to its end on a 4x4 board and send the result."""
        s = Session("binaryon", {"size": 4}, NullJournal(), pairing["players"])
        while not s.state.is_over():
            legal = s.state.legal_moves()
            s.submit(legal[moves_first % len(legal)])
        outcome = s.state.outcome()
        rec = Record(
            game="binaryon",
            options=s.options,
            moves=list(s.moves),
            players=dict(pairing["players"]),
            status="finished",
            result=outcome.winner or "draw",
            summary=outcome.summary,
        )
        self.sent += 1
        uid = f"{self.name}j-{self.sent}"
        message = {
            "board": self.name, "game_uid": uid, "game": "binaryon", "options": {"size": 4},
            "players": pairing["players"], "result": outcome.summary,
            "winners": list(outcome.winners), "record": format_record(rec),
            "pairing": pairing["pairing"], "finished": time.time(), "sent": time.time(),
        }  # fmt: skip
        self.client.publish(
            topics.result(self.name, uid), json.dumps(message), qos=1, retain=True
        ).wait_for_publish(10)
        return outcome.winners[0] if outcome.winners else "draw"

    def close(self) -> None:
        stop_client(self.client)


def _pairing(
    listener: Listener, board: str, round_number: int, new_after: dict | None = None
) -> dict:
    """The board's latest pairing of that round; ``new_after``: a later one than that pairing
    (a replay), not the one already heard, nor a later round's."""

    def wanted(payload: dict) -> bool:
        if payload["round"] != round_number:
            return False
        return new_after is None or payload["pairing"] != new_after["pairing"]

    def pairings(heard) -> list[dict]:
        out = [h for h in heard if h.topic == topics.pairing(board) and h.payload]
        return [p for p in (json.loads(h.payload) for h in out) if wanted(p)]

    heard = listener.wait_for(lambda heard: bool(pairings(heard)), 30)
    return pairings(heard)[-1]


def _post(hub: HubProcess, path: str, body: dict, token: str | None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        hub.url + path, json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def event_hub(tmp_path, broker, club_hub):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    hub = club_hub(event)
    listener = Listener(broker.url)
    boards = {name: Board(broker.url, name) for name in ("t1", "t2")}
    yield hub, listener, boards, event
    for b in boards.values():
        b.close()
    listener.close()


def _token(hub: HubProcess) -> str:
    found = re.search(r"the arbiter's token: (\S+)", hub.log.read_text())
    assert found, hub.log.read_text()
    return found.group(1)


def test_the_hub_runs_the_event_with_the_boards(event_hub, tmp_path):
    hub, listener, boards, event = event_hub
    one = {b: _pairing(listener, b, 1) for b in boards}
    assert one["t1"]["players"] == {"on": "Ann", "off": "Dan"}
    assert one["t2"]["players"] == {"on": "Ben", "off": "Cat"}
    assert one["t1"]["event"] == "March" and one["t1"]["game"] == "binaryon"
    winners = {b: boards[b].finish(one[b]) for b in boards}
    two = {b: _pairing(listener, b, 2) for b in boards}  # paired once both results came
    assert two["t1"]["players"] == {"on": "Dan", "off": "Cat"}  # Berger round 2: 4-3, 1-2
    standings = hub.wait(
        lambda: (s := hub.get("/api/standings"))["standings"][0]["games"] == 1 and s,
        what="round 1 in the standings",
    )
    points = {s["name"]: s["points"] for s in standings["standings"]}
    expected = {"Ann": 0.0, "Ben": 0.0, "Cat": 0.0, "Dan": 0.0}
    for b, w in winners.items():
        names = one[b]["players"]
        for seat, name in names.items():
            expected[name] += 0.5 if w == "draw" else float(w == seat)
    assert points == expected

    # only the arbiter's token corrects
    fix = {"pairing": "r1-t1", "result": "replay", "who": "Zoe", "why": "board knocked"}
    assert _post(hub, "/api/event/correct", fix, None)[0] == 403
    assert _post(hub, "/api/event/correct", fix, "guess")[0] == 403
    status, answer = _post(hub, "/api/event/correct", fix, _token(hub))
    assert status == 200 and answer["done"].startswith("r1-t1: ")
    corrections = hub.get("/api/event")["corrections"]
    assert [(c["pairing"], c["new"], c["who"]) for c in corrections] == [("r1-t1", "replay", "Zoe")]

    # the replayed game goes back to its board before round 2's game
    replay = _pairing(listener, "t1", 1, new_after=one["t1"])
    assert "-r1-t1-2-" in replay["pairing"] and replay["players"] == one["t1"]["players"]

    # the hub killed in the middle of round 2: results sent meanwhile are taken once it is back
    hub.kill()
    boards["t1"].finish(two["t1"], moves_first=1)
    boards["t2"].finish(two["t2"], moves_first=1)
    hub.start()
    hub.wait(
        lambda: all(g["result"] for g in hub.get("/api/event")["games"] if g["round"] == 2),
        what="round 2's results after the restart",
    )
    games = hub.get("/api/event")["games"]
    assert sum(1 for g in games if g["round"] == 2 and g["result"]) == 2  # once each
    assert hub.get("/api/standings")["round"] == 2  # round 3 waits for the replayed game
    boards["t1"].finish(replay, moves_first=2)
    three = _pairing(listener, "t1", 3)
    assert three["players"] == {"on": "Ben", "off": "Dan"}  # Berger round 3: 2-4, 3-1

    # every game as one file of records; import reads them back game by game
    with urllib.request.urlopen(hub.url + "/api/event/export", timeout=10) as answer:
        text = answer.read().decode()
    assert text.count("[Game ") == 5  # round 1 (one replayed, kept) and round 2
    assert text.count('[EventResult "replayed') == 1
    (tmp_path / "all.txt").write_text(text)
    journal = str(tmp_path / "j.sqlite")
    assert main(["import", str(tmp_path / "all.txt"), "--journal", journal]) == 0


def test_a_bad_event_file_stops_the_hub_in_one_line(tmp_path, broker):
    event = tmp_path / "bad.toml"
    event.write_text(EVENT.replace('"binaryon"', '"chess"'))
    hub = HubProcess(broker.url, tmp_path, extra=("--event", str(event)))
    with pytest.raises(RuntimeError, match="exited"):
        hub.start(timeout=20)
    log = hub.log.read_text().strip()
    assert log.startswith(f"binaryon: {event}: game: 'chess'") and log.count("\n") == 0
