"""Remote play: the other side of the game is played at another board, over the club's broker
(docs/club.md, "Remote play").

``RemoteSource`` is the opponent's move source (``service/opponent.py``) for a remote game:
this board's new moves go to the peer, the peer's moves arrive numbered by ply and are handed
to the opponent, which lights them for the player here to make. Every message carries the
game's identity (game, public options, the sender's seat and its game id), so a duplicate or
a reordered message is harmless and a message of another game is refused with one line. A
board that (re)connects asks the peer for the moves after its last ply (``ask``); the peer
answers from its game, as its journal holds it, and asks back when it is the one behind.

Each board numbers its own moves (``remote_stream.py``), so the moves both players make at
once may come in either order. Moves travel by their public names; a game with secrets is
played with a masked state on each board (``remote_secrets.py``), and the peer is held to
what it said (``remote_checks.py``): both are parts the source holds, sharing its
``RemoteLink`` (``remote_link.py``). A move made on a page (a
setup, a guess, a claim), one everybody makes at once and a chance step drawn by the other
board are played here at once; a move on the board is lit for the player here to make.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from companion import PROGRAM
from companion.club import topics
from companion.club.remote_checks import CONTROL_KINDS, PeerChecks
from companion.club.remote_clock import RemoteClock, clock_now
from companion.club.remote_link import RemoteHost, RemoteLink, local_seat
from companion.club.remote_secrets import SecretExchange
from companion.club.remote_stream import plain, stream, told_by
from companion.club.remote_takeback import RemoteTakeback
from companion.club.transport import Transport
from companion.games.base import GameSpec, GameState, Refusal
from companion.referee.session import Session, carried_options
from companion.referee.verdict import Verdict

log = logging.getLogger(PROGRAM)

PREFIX = "remote:"
NO_TAKEBACKS = "no takebacks in a remote game"


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
    with a public name of its own, a secret option, a chance step) needs a masked state on
    each board (its remote facet, ``GameSpec.remote()``, says so)."""
    state = spec.new(**options)
    if len(state.players) != 2 or state.virtual:
        return f"{spec.name}: remote play is for two players, one at each board"
    remote = spec.remote()
    if remote.hidden and not remote.masked:
        return f"{spec.name} has hidden information: it cannot be played remotely"
    if remote.masked:
        for seat in state.players:
            try:
                remote.mask(state, seat)
            except ValueError as e:  # e.g. Binøme's players without a phone
                return f"{spec.name} cannot be played remotely: {e}"
    return None


def local_seat_of(remote_side: str) -> Callable[[GameSpec, dict[str, Any]], str | None]:
    """The session's ``local_seat`` in a remote game: the seat this board knows alone."""

    def seat(spec: GameSpec, options: dict[str, Any]) -> str | None:
        players = tuple(spec.players(options))
        return local_seat(players, remote_side) if len(players) == 2 else None

    return seat


class RemoteSource:
    """The moves of the seat played at board ``peer``; this board is ``board``. Made of
    parts: the peer's checks and this board's keys (``checks``), the secrets of a masked
    game (``secrets``), the clock (``clock_sync``) and takebacks (``takeback``)."""

    moved = "remote-move"
    no_takebacks = NO_TAKEBACKS

    def __init__(self, host: RemoteHost, board: str, peer: str, side: str = ""):
        self.link = RemoteLink(host, board, peer, side)
        self.whose = f"{peer}'s"
        self.by = peer
        self.unknown_move = Refusal("remote-waiting", f"wait for {peer}'s move")
        self.peer_games: dict[int | None, Any] = {}  # this board's game id -> the peer's
        # the peer's stream (remote_stream.py): its n-th move -> (public name, player)
        self.heard: dict[int, tuple[str, str | None]] = {}
        self.heard_for: int | None = None  # this board's game that ``heard`` is about
        self.deliver: Callable[[Any], None] | None = None  # the opponent waits for a move
        self.sent: tuple[int | None, int] | None = None  # (game id, own moves) sent the peer
        self._checked: tuple[Any, str | None] = (None, None)  # (game and options, problem)
        self.online = False  # the broker was there at the last look
        self.checks = PeerChecks(self.link)
        self.checks.on_dispute = self._stopped
        self.secrets = SecretExchange(self.link, self.checks, self._offer)
        self.clock_sync = RemoteClock(self._send_control)
        self.takeback = RemoteTakeback(self._send_control, peer)
        self.plies: tuple[int | None, int] = (None, 0)  # (game id, moves) at the last look

    @property
    def host(self) -> RemoteHost:
        return self.link.host

    @property
    def peer(self) -> str:
        return self.link.peer

    @property
    def side_wanted(self) -> str:
        """The seat the peer plays ("": the second player)."""
        return self.link.side_wanted

    @property
    def reveal_timeout(self) -> float:
        return self.checks.reveal_timeout

    @reveal_timeout.setter
    def reveal_timeout(self, seconds: float) -> None:
        self.checks.reveal_timeout = seconds

    def is_disputed(self) -> bool:
        return self.checks.is_disputed()

    def _stopped(self) -> None:
        """The game here stopped on a dispute: nothing more is played, and this board's
        secrets go to the peer (they show who lied)."""
        self.deliver = None
        self.secrets.send_names(again=True)

    # --- the broker ---
    def connect(self, transport: Transport) -> None:
        self.link.transport = transport
        transport.subscribe(topics.remote(self.peer, self.link.board), self.heard_message)

    def seats(self, state: GameState) -> tuple[str, str]:
        """(the seat played here, the seat played at the peer)."""
        return self.link.seats(state)

    def _send_control(self, message: dict[str, Any]) -> None:
        """A clock change, a flag or a takeback's word, signed (``signed_control``)."""
        signed = self.checks.signed_control({**self.checks.identity(), **message})
        if signed is not None:
            self.link.publish(signed)

    def _ask(self) -> None:
        """Ask for the peer's moves after those this board has, saying how many of its own
        there are (the peer asks back when it has fewer)."""
        s = self.host.session
        mine, theirs = self.seats(s.state)
        have, own = len(stream(s, theirs)), len(stream(s, mine))
        told = len(told_by(s, theirs))
        named = s.seat_knowledge is None and s.state.is_over()  # the peer's names are known here
        question = {"kind": "ask", "after": len(s.played), "have": have, "mine": own}
        self.link.publish({**self.checks.identity(), **question, "told": told, "named": named})

    def _send_moves(self, first: int) -> None:
        """This board's own moves from its ``first`` on (its stream), by their public names:
        a secret never leaves the board before the game reveals it (``send_facts``,
        ``send_names``)."""
        s = self.host.session
        own = stream(s, self.seats(s.state)[0])
        for n in range(first, len(own)):
            ply = own[n]
            p = s.played[ply]
            message = {**self.checks.identity(), "kind": "move", "seq": n, "ply": ply}
            if (clock := self.clock_sync.stamp(s, ply)) is not None:
                message["clock"] = clock  # the time the move used, stamped here
            signed = self.checks.signed(n, p.name, p.public)
            self.link.publish({**message, "move": p.public, "player": p.player, **signed})

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
            self.link.problem(problem)
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
        if self.link.transport is None:
            return
        online, self.online = self.online, self.link.transport.connected
        if self.online and not online:
            self.sent = None  # back on the broker: ask for what was missed
        s = self.host.session
        if self.problem(s) or self.checks.is_disputed():
            return  # nothing of a game with secrets leaves the board; a disputed game stops
        self._taken_back()
        own = len(stream(s, self.seats(s.state)[0]))
        if self.sent is None or self.sent[0] != s.game_id:
            self.sent = (s.game_id, own)
            self._ask()
            self.clock_sync.follow(s, again=True)
            return
        if own > self.sent[1]:
            self._send_moves(self.sent[1])
        self.sent = (s.game_id, own)
        self.secrets.send_facts()
        self.secrets.send_names()
        self.clock_sync.follow(s, again=False)
        self.takeback.follow(self.host.referee, lambda: clock_now(s))
        self._offer()
        self.secrets.say_waiting()
        if self.secrets.peer_names is not None and self.secrets.peer_names[0] == s.game_id:
            self.secrets.reveal(self.secrets.peer_names[1])
        self.checks.time_reveal()
        self.checks.time_answer()

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
            self.link.problem(problem)
            return
        if self.checks.past_game(message):
            return  # one line in the log: a replay of an old message
        if not self._bound(message):
            return
        if self.checks.peer_chain(message) is None:
            return
        kind = message.get("kind")
        if kind == "names" and not self.checks.checked_names(message):
            return
        if kind in CONTROL_KINDS and not self.checks.checked_control(message):
            return
        if self.checks.is_disputed():
            if kind == "names":
                self.checks.disputed_names(message)
            return
        theirs = self.seats(s.state)[1]
        if kind == "ask":
            if not self.checks.ask_allowed():
                return  # a flood of questions: answered at the bucket's pace
            have, more = int(message["have"]), int(message["mine"])
            self._send_moves(max(0, have))
            told = s.spec.remote().disclosed(s.state, self.seats(s.state)[0])
            if int(message.get("told", 0)) < len(told):
                self.secrets.send_facts(again=True)
            if not message.get("named"):
                self.secrets.send_names(again=True)
            if len(stream(s, theirs)) < more:
                self._ask()  # the peer has moves this board has not
        elif kind == "move":
            n, name = int(message["seq"]), str(message["move"])
            player = message.get("player", s.state.player_of(theirs))  # None: a chance step
            if not self.checks.checked_move(message, n):
                return
            heard = (name, None if player is None else str(player))
            known = stream(s, theirs)
            if n < len(known):
                here = s.played[known[n]].public
                if here != name:  # the peer's board never sends two moves under one number
                    self.checks.refused(f"{name} as its move {n + 1}, which was {here}")
                return
            if self.heard.get(n, heard) != heard:
                self.checks.refused(f"{name} as its move {n + 1}, which was {self.heard[n][0]}")
                return
            fresh = n == len(known) and n not in self.heard
            self.heard[n] = heard
            if fresh:
                self.clock_sync.heard_move(s, message)
            self._offer()
        elif kind == "clock":
            plies = stream(s, theirs)  # did the peer's move begin the running turn?
            last = bool(plies) and plies[-1] == len(s.played) - 1
            ahead = s.clock is not None and s.clock.ahead
            self.clock_sync.heard_clock(s, message, theirs_last=ahead or last)
        elif kind == "undo":
            self._heard_undo(message)
        elif kind == "flag":
            self.clock_sync.heard_flag(s, message)
        elif kind == "told":
            if self.checks.checked_facts(message):
                self.secrets.learn(message["facts"])
        elif kind == "names":
            self.secrets.reveal(message)
        elif kind == "dispute":
            self.checks.disputed_by_peer(message)

    def may_flag(self) -> bool:
        """May the flag of the running player fall here? Only on their own board (or when
        that board said it fell): a board cut off from the broker runs the clock as it last
        knew it, and the other player may have moved in time there. Not before the peer's
        move whose switch the clock holds has come (its clock may come first)."""
        s = self.host.session
        if s.clock is None or self.problem(s):
            return True
        mine, theirs = self.seats(s.state)
        if s.clock.ahead and len(stream(s, theirs)) not in self.heard:
            return False  # the move is on its way: it goes first
        running = s.clock.running
        return running == s.state.player_of(mine) or self.clock_sync.heard_flag_of(s, running)

    def before_flag(self) -> None:
        """A flag is about to fall here while the clock holds the switch of the peer's move
        not made on this board yet (the player here ran out of time before making it): the
        move is played first, so both journals end with the same moves."""
        s = self.host.session
        if s.clock is None or not s.clock.ahead or s.state.is_over():
            return
        heard = self.heard.get(len(stream(s, self.seats(s.state)[1])))
        if heard is None:
            return
        name, player = heard
        try:
            move = s.state.parse_move(name)
        except ValueError:
            return
        self.host.play_remote(move, player)

    # --- takebacks both players agree to (remote_takeback.py) ---
    def _takes_back(self, session: Session) -> bool:
        return not self.problem(session) and not session.spec.remote().masked

    def undo_button(self) -> Verdict | None:
        """The undo button here: agree to the peer's takeback, or ask for one (None: this
        game takes none back; the referee says so)."""
        s = self.host.session
        if not self._takes_back(s):
            return None
        return self.takeback.button(self.host.referee, s.state.player_of(self.seats(s.state)[0]))

    def ask_undo(self, player: str) -> Verdict | None:
        """A takeback asked on the page of the player here (None: not theirs to ask here)."""
        s = self.host.session
        if not self._takes_back(s) or player != s.state.player_of(self.seats(s.state)[0]):
            return None
        return self.takeback.ask(self.host.referee, player)

    def _heard_undo(self, message: dict[str, Any]) -> None:
        s = self.host.session
        if not self._takes_back(s):
            return
        peer_player = s.state.player_of(self.seats(s.state)[1])
        verdict = self.takeback.heard(self.host.referee, peer_player, message)
        if verdict is not None:
            self.host.tell(verdict)
        clock = message.get("clock")
        if "done" in message and isinstance(clock, dict):
            self._taken_back()
            if self.host.session.adopt_clock(clock):  # the clock as the peer left it
                self.clock_sync.follow(self.host.session, again=False)

    def _taken_back(self) -> None:
        """After a takeback (fewer moves than at the last look): the peer's moves heard past
        it and this board's count of moves sent go back with it."""
        s = self.host.session
        before, self.plies = self.plies, (s.game_id, len(s.played))
        if before[0] != s.game_id or before[1] <= len(s.played):
            return
        mine, theirs = self.seats(s.state)
        kept = len(stream(s, theirs))
        self.heard = {n: m for n, m in self.heard.items() if n < kept}
        if self.sent is not None and self.sent[0] == s.game_id:
            self.sent = (s.game_id, len(stream(s, mine)))
        self.clock_sync.known = None

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

    def _bound(self, message: dict[str, Any]) -> bool:
        """Is the message's game the peer's side of the game here? The first one heard is
        (after a start or a restart), and any one while no move is played here yet, but for a
        finished game of the peer (it is still on its last game: its new one will come)."""
        peer_game, over = message["game_id"], bool(message.get("over"))
        s = self.host.session
        if self.heard_for != s.game_id:
            self.heard, self.heard_for = {}, s.game_id
        bound = self.peer_games.get(s.game_id)
        if bound == peer_game:
            return True
        if over and not s.played:  # a fresh game here is not the peer's finished one
            self.link.problem(f"{self.peer} has not started the new game yet")
            return False
        if bound is None or not s.played:
            self.peer_games[s.game_id] = peer_game
            self.heard = {}
            self.checks.bound_to(message)
            return True
        self.link.problem(f"{self.peer} plays another game: start a new game on both boards")
        return False

    def _offer(self) -> None:
        """The peer's move for where the game is now: played here at once when there is
        nothing to make on the board (a step everybody takes at once, a chance step drawn
        there, a move of a game with secrets made on a page: a setup, a guess, a claim), else
        handed to the opponent waiting for it, to be lit (a move with no square: "press
        confirm", as for the engine's)."""
        s = self.host.session
        if self.heard_for != s.game_id or s.state.is_over() or self.checks.is_disputed():
            return
        seq = len(stream(s, self.seats(s.state)[1]))
        heard = self.heard.get(seq)
        if heard is None:
            return
        name, player = heard
        try:
            move = s.state.parse_move(name)
            refusal = s.state.check(move)
        except ValueError as e:
            move, refusal = None, Refusal("bad-notation", str(e))
        if refusal is not None and refusal.code == "remote-waiting":
            return  # this board waits for the peer's answer: the move comes after it
        if refusal is None and move is not None:
            refusal = self._not_theirs(move, player)
        if refusal is not None or move is None:
            why = refusal.reason if refusal is not None else "unreadable"
            if self._their_time(player):
                self._cannot_play(name, seq, why)
            return  # else it came early (its turn is still to come here)
        remote = s.spec.remote()
        page = not remote.on_board(move) and remote.masked
        if player is None or s.state.turn != player or page:
            verdict = self.host.play_remote(move, player)
            if verdict.refusal is not None:
                self._cannot_play(name, seq, verdict.refusal.reason)
            else:
                self.link.said = ""
            return
        if self.deliver is None:
            return
        deliver, self.deliver = self.deliver, None
        self.link.said = ""
        deliver(move)

    def _not_theirs(self, move: Any, player: str | None) -> Refusal | None:
        """A move the peer may not send: another seat's, or a chance step it does not draw."""
        s = self.host.session
        theirs = s.state.player_of(self.seats(s.state)[1])
        if player is None:
            if s.state.players[0] == theirs and s.state.chance() is None:
                return None  # the first seat's board draws; this board waits for it
            return Refusal("not-theirs", "a chance step is drawn by the first player's board")
        actor = s.state.actor(move) or player
        if player != theirs or actor != theirs:
            return Refusal("not-theirs", f"{actor} is played at this board")
        return None

    def _their_time(self, player: str | None) -> bool:
        """Is it the peer's time to act here (its player may act, or the game waits for
        its drawn chance step)? A move of the peer refused then is a disagreement, not a
        move come early."""
        s = self.host.session
        state = s.state
        if player is None:
            return bool(s.spec.remote().waiting(state)) and state.chance() is None
        return player in state.to_act

    def _cannot_play(self, name: str, seq: int, why: str) -> None:
        """The peer's signed move does not replay here: the boards disagree for good (a lie
        about a secret earlier, or a broken board), a dispute."""
        line = f"{self.peer}'s move {name} cannot be played here: {why}"
        moves = self.host.session.moves
        self.checks.dispute(line, {"move": name, "seq": seq, "refusal": why, "moves": moves})


def _described(game: Any, options: Any) -> str:
    if not isinstance(options, dict) or not options:
        return str(game)
    return f"{game} ({', '.join(f'{k} {v}' for k, v in sorted(options.items()))})"
