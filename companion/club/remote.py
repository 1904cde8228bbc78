"""Remote play: the other side of the game is played at another board, over the club's broker
(docs/club.md, "Remote play").

``RemoteSource`` is the opponent's move source (``service/opponent.py``) for a remote game:
this board's new moves go to the peer, the peer's moves arrive numbered by ply and are handed
to the opponent, which lights them for the player here to make. Every message carries the
game's identity (game, public options, the sender's seat and its game id), so a duplicate or
a reordered message is harmless and a message of another game is refused with one line. A
board that (re)connects asks the peer for the moves after its last ply (``ask``); the peer
answers from its game, as its journal holds it, and asks back when it is the one behind.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion import PROGRAM
from companion.club import topics
from companion.club.transport import Transport
from companion.games.base import GameSpec, GameState, Refusal
from companion.referee.session import Session, carried_options

log = logging.getLogger(PROGRAM)

PREFIX = "remote:"
NO_TAKEBACKS = "no takebacks in a remote game"


class RemoteHost(Protocol):
    @property
    def session(self) -> Session: ...

    def say(self, text: str, lasting: bool = False) -> None: ...


def parse_remote(text: str) -> str:
    """``remote:t4`` -> ``t4``; ValueError with one line."""
    peer = text.strip().removeprefix(PREFIX)
    if not topics.valid_board_name(peer):
        raise ValueError(
            f"opponent {text!r}: remote:BOARD, a board name of letters, digits, - and _"
        )
    return peer


def remote_problem(spec: GameSpec, options: dict[str, Any]) -> str | None:
    """Why a game cannot be played across two boards, or None. A game with secrets (a move
    with a public name of its own, a secret option) is refused: its secrets would have to be
    refereed on the owner's board, which remote play does not do yet."""
    state = spec.new(**options)
    if len(state.players) != 2:
        return f"{spec.name}: remote play is for two players"
    hidden = type(state).public_name is not GameState.public_name or spec.secret_options
    if hidden or type(state).chance is not GameState.chance and state.chance() is not None:
        return f"{spec.name} has hidden information: it cannot be played remotely yet"
    return None


def plain(value: Any) -> Any:
    """``value`` as it comes back from JSON (tuples become lists), to compare with a message."""
    return json.loads(json.dumps(value))


class RemoteSource:
    """The moves of the seat played at board ``peer``; this board is ``board``."""

    moved = "remote-move"
    no_takebacks = NO_TAKEBACKS

    def __init__(self, host: RemoteHost, board: str, peer: str, side: str = ""):
        self.host = host
        self.board = board
        self.peer = peer
        self.side_wanted = side  # the seat the peer plays ("" = the second player)
        self.whose = f"{peer}'s"
        self.waiting = Refusal("remote-waiting", f"wait for {peer}'s move")
        self.transport: Transport | None = None
        self.peer_games: dict[int | None, Any] = {}  # this board's game id -> the peer's
        self.heard: dict[int, str] = {}  # ply -> the peer's move there, in the bound game
        self.heard_for: int | None = None  # this board's game that ``heard`` is about
        self.deliver: Callable[[Any], None] | None = None  # the opponent waits for a move
        self.sent: tuple[int | None, int] | None = None  # (game id, plies) told the peer
        self.said = ""  # the last problem said (each is said once)
        self._checked: tuple[Any, str | None] = (None, None)  # (game and options, problem)
        self.online = False  # the broker was there at the last look

    # --- the broker ---
    def connect(self, transport: Transport) -> None:
        self.transport = transport
        transport.subscribe(topics.remote(self.peer, self.board), self.heard_message)

    # --- seats and identity ---
    def seats(self, state: GameState) -> tuple[str, str]:
        """(the seat played here, the seat played at the peer)."""
        players = tuple(state.players)
        remote = self.side_wanted if self.side_wanted in players else players[1]
        return next(p for p in players if p != remote), remote

    def identity(self) -> dict[str, Any]:
        s = self.host.session
        return {
            "board": self.board,
            "sent": time.time(),
            "game": s.spec.name,
            "options": plain(carried_options(s.spec, s.options)),
            "seat": self.seats(s.state)[0],
            "game_id": s.game_id,
            "over": s.state.is_over(),
        }

    def _send(self, message: dict[str, Any]) -> None:
        if self.transport is not None:
            self.transport.publish(topics.remote(self.board, self.peer), message)

    def _ask(self) -> None:
        plies = len(self.host.session.played)
        self._send({**self.identity(), "kind": "ask", "after": plies})

    def _send_moves(self, first: int) -> None:
        played = self.host.session.played
        for ply in range(first, len(played)):
            p = played[ply]
            if p.public != p.name:  # never: games with secrets are refused (remote_problem)
                log.error("remote play: a secret move kept on the board")
                return
            message = {**self.identity(), "kind": "move", "ply": ply, "move": p.name}
            self._send({**message, "player": p.player})

    # --- the opponent's source ---
    def problem(self, session: Session) -> str | None:
        """Why the game in progress cannot be played remotely (asked once per game kind)."""
        key = (session.spec.name, json.dumps(plain(session.options), sort_keys=True))
        if self._checked[0] != key:
            self._checked = (key, remote_problem(session.spec, session.options))
        return self._checked[1]

    def plays(self, session: Session) -> bool:
        problem = self.problem(session)
        if problem:
            self._problem(problem)
        return problem is None

    def ask(self, deliver: Callable[[Any], None]) -> None:
        self.deliver = deliver
        self._offer()

    def cancel(self) -> None:
        self.deliver = None

    @property
    def busy(self) -> bool:
        return False  # waiting on a person, not working

    def follow(self) -> None:
        """After every event: send the peer this board's new moves; a new game (or a
        reconnection) asks the peer for its moves after ours."""
        if self.transport is None:
            return
        online, self.online = self.online, self.transport.connected
        if self.online and not online:
            self.sent = None  # back on the broker: ask for what was missed
        s = self.host.session
        if self.problem(s):
            return  # nothing of a game with secrets leaves the board
        plies = len(s.played)
        if self.sent is None or self.sent[0] != s.game_id:
            self.sent = (s.game_id, plies)
            self._ask()
            return
        if plies > self.sent[1]:
            self._send_moves(self.sent[1])
        self.sent = (s.game_id, plies)

    # --- the peer's messages (the loop's thread) ---
    def heard_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return  # an empty (retained) payload
        try:
            self._heard(message)
        except (KeyError, TypeError, ValueError) as e:
            log.warning("remote message from %s ignored: %s", self.peer, e)

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("board") != self.peer:
            return
        s = self.host.session
        if problem := self._mismatch(message):
            self._problem(problem)
            return
        if not self._bound(message["game_id"], bool(message.get("over"))):
            return
        kind = message.get("kind")
        if kind == "ask":
            after, behind = int(message["after"]), len(s.played)
            self._send_moves(max(0, after))
            if behind < after:
                self._ask()  # the peer has moves this board has not
        elif kind == "move":
            ply, name = int(message["ply"]), str(message["move"])
            if ply < len(s.played):
                if s.played[ply].name != name:
                    self._problem(f"{self.peer} has {name} as move {ply + 1}, this board "
                                  f"{s.played[ply].name}: the boards disagree")  # fmt: skip
                return
            self.heard[ply] = name
            self._offer()

    def _mismatch(self, message: dict[str, Any]) -> str | None:
        s = self.host.session
        options = plain(carried_options(s.spec, s.options))
        if message.get("game") != s.spec.name or message.get("options") != options:
            theirs = _described(message.get("game"), message.get("options"))
            return (
                f"{self.peer} plays {theirs}, this board {_described(s.spec.name, options)}: "
                "start the same game on both"
            )
        mine, remote = self.seats(s.state)
        if message.get("seat") != remote:
            return (
                f"{self.peer} plays {message.get('seat')} as this board does: one board "
                f"plays {mine}, the other {remote} (--opponent-side)"
            )
        return None

    def _bound(self, peer_game: Any, over: bool) -> bool:
        """Is ``peer_game`` the peer's side of the game here? The first one heard is (after a
        start or a restart), and any one while no move is played here yet, but for a finished
        game of the peer (it is still on its last game: its new one will come)."""
        s = self.host.session
        if self.heard_for != s.game_id:
            self.heard, self.heard_for = {}, s.game_id
        bound = self.peer_games.get(s.game_id)
        if bound == peer_game:
            return True
        if over and not s.played:  # a fresh game here is not the peer's finished one
            self._problem(f"{self.peer} has not started the new game yet")
            return False
        if bound is None or not s.played:
            self.peer_games[s.game_id] = peer_game
            self.heard = {}
            return True
        self._problem(f"{self.peer} plays another game: start a new game on both boards")
        return False

    def _offer(self) -> None:
        """The peer's move for where the game is now, to the opponent waiting for it."""
        s = self.host.session
        name = self.heard.get(len(s.played)) if self.heard_for == s.game_id else None
        if self.deliver is None or name is None:
            return
        try:
            move = s.state.parse_move(name)
            refusal = s.state.check(move)
        except ValueError as e:
            refusal = Refusal("bad-notation", str(e))
        if refusal is not None:
            self._problem(f"{self.peer}'s move {name} cannot be played here: {refusal.reason}")
            return
        deliver, self.deliver = self.deliver, None
        self.said = ""
        deliver(move)

    def _problem(self, line: str) -> None:
        if line != self.said:
            self.said = line
            log.warning("remote play: %s", line)
            self.host.say(line, lasting=True)


def _described(game: Any, options: Any) -> str:
    if not isinstance(options, dict) or not options:
        return str(game)
    return f"{game} ({', '.join(f'{k} {v}' for k, v in sorted(options.items()))})"
