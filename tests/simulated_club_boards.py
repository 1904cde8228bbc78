"""Simulated club boards for the hub's tests and benchmark: each one a paho client that
publishes what a board publishes (docs/club.md: status with its last will, table views,
moves, results) for a real game played with random legal moves. The views are the presenter's
own public table views (``web_view``), made once per game and replayed."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from companion.club import topics
from companion.club.broker import stop_client
from companion.games import DEFAULT_GAME, get_spec
from companion.referee.session import Played
from companion.views.presenter import Notices, Table, web_view


@dataclass(frozen=True)
class Step:
    ply: int
    move: str
    player: str
    view: dict[str, Any]


@dataclass(frozen=True)
class SimGame:
    game: str
    start: dict[str, Any]  # the view before the first move
    steps: tuple[Step, ...]
    players: dict[str, str]
    result: str
    winners: tuple[str, ...]
    record: str


def play_game(
    seed: int,
    players: dict[str, str] | None = None,
    game: str = DEFAULT_GAME,
    max_plies: int = 200,
    game_id: int = 1,
) -> SimGame:
    """A game of random legal moves, with the table's public view after each."""
    spec = get_spec(game)
    options = spec.resolve({})
    state = spec.new(**options)
    layout = spec.layout(options)
    names = dict(players or {})
    rng = random.Random(seed)
    played: list[Played] = []

    def view() -> dict[str, Any]:
        table = Table(
            spec,
            state,
            options,
            layout,
            8,
            tuple(played[-40:]),
            game_id,
            names,
            first_ply=max(0, len(played) - 40),
        )
        return web_view(table, Notices())

    start = view()
    steps = []
    while not state.is_over() and len(played) < max_plies:
        mover = sorted(state.to_act)[0]
        moves = list(state.legal_moves(mover))
        if not moves:
            break
        move = rng.choice(moves)
        played.append(Played(move.name, state.public_name(move), mover))
        state = state.play(move, mover)
        steps.append(Step(len(played), played[-1].public, mover, view()))
    outcome = state.outcome() if state.is_over() else None
    return SimGame(
        game=spec.name,
        start=start,
        steps=tuple(steps),
        players=names,
        result=outcome.summary if outcome else "unfinished",
        winners=tuple(outcome.winners) if outcome else (),
        record=f"[game {spec.name}]\n" + " ".join(p.public for p in played) + "\n",
    )


class SimBoard:
    """One board on the broker. ``play(step)`` publishes a move and the table after it;
    ``finish()`` the game's result (retained until the hub acknowledges it, then cleared,
    as a real board does)."""

    def __init__(self, url: str, name: str, game: SimGame, uid_prefix: str = "sim"):
        import paho.mqtt.client as mqtt

        self.name = name
        self.game = game
        self.game_uid = f"{uid_prefix}-{name}-1"
        self.seq = 0
        self.sent_offset = 0.0  # seconds this board's clock is off the machine's
        self.acked: set[str] = set()
        self._acked = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sim-{name}")
        self.client.will_set(
            topics.status(name), json.dumps({"board": name, "online": False}), qos=1, retain=True
        )
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self._connected_once = threading.Event()
        self._status: bytes | None = None  # the last retained status and table, sent again
        self._table: bytes | None = None  # on a reconnection
        self._result: bytes | None = None  # and the result, until it is acknowledged
        host, port = url.removeprefix("mqtt://").rsplit(":", 1)
        self.client.connect(host, int(port))
        self.client.loop_start()
        if not self._connected_once.wait(10):
            raise RuntimeError(f"{name}: not connected within 10 s")

    def _connected(self, client, userdata, flags, reason_code, properties=None) -> None:
        client.subscribe(topics.ack(self.name), qos=1)
        if self._connected_once.is_set() and self._status is not None:
            # connected again (a broker that restarted has forgotten the retained messages)
            client.publish(topics.status(self.name), self._status, qos=1, retain=True)
            if self._table is not None:
                client.publish(topics.table(self.name), self._table, qos=1, retain=True)
            if self._result is not None and self.game_uid not in self.acked:
                client.publish(
                    topics.result(self.name, self.game_uid), self._result, qos=1, retain=True
                )
        self._connected_once.set()

    def _message(self, client, userdata, message) -> None:
        try:
            uids = json.loads(message.payload)["results"]
        except (ValueError, KeyError, TypeError):
            return
        with self._acked:
            for uid in uids:
                if uid == self.game_uid and uid not in self.acked:
                    client.publish(topics.result(self.name, uid), b"", qos=1, retain=True)
                self.acked.add(uid)
            self._acked.notify_all()

    def _send(self, topic: str, payload: dict[str, Any], retain: bool = False, qos: int = 1):
        sent = time.time() + self.sent_offset
        data = json.dumps({"board": self.name, "sent": sent, **payload}).encode()
        if topic == topics.status(self.name):
            self._status = data
        elif topic == topics.table(self.name):
            self._table = data
        elif topic == topics.result(self.name, self.game_uid):
            self._result = data
        return self.client.publish(topic, data, qos=qos, retain=retain)

    def online(self) -> None:
        self._send(
            topics.status(self.name),
            {"online": True, "game": self.game.game, "version": "sim"},
            retain=True,
        )
        self.table(self.game.start)

    def table(self, view: dict[str, Any]):
        self.seq += 1
        return self._send(
            topics.table(self.name),
            {"seq": self.seq, "game_uid": self.game_uid, "view": view},
            retain=True,
        )

    def play(self, step: Step):
        self._send(
            topics.moves(self.name),
            {"game_uid": self.game_uid, "ply": step.ply, "move": step.move, "player": step.player},
        )
        return self.table(step.view)

    def finish(self) -> None:
        g = self.game
        self._send(
            topics.result(self.name, self.game_uid),
            {
                "game_uid": self.game_uid,
                "game": g.game,
                "options": {},
                "players": g.players,
                "result": g.result,
                "winners": list(g.winners),
                "record": g.record,
                "pairing": None,
                "finished": time.time(),
            },
            retain=True,
        )

    def wait_acked(self, timeout: float = 20.0) -> bool:
        with self._acked:
            return self._acked.wait_for(lambda: self.game_uid in self.acked, timeout)

    def offline(self) -> None:
        """A clean exit: the board says it is offline, then disconnects."""
        self._send(topics.status(self.name), {"online": False}, retain=True).wait_for_publish(5)
        self.close()

    def close(self) -> None:
        stop_client(self.client)
