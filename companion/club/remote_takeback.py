"""Takebacks in a remote game (docs/club.md, "Remote play"): both players agree, as on the
pages of a game with secrets (``referee/agreement.py``), one at each board.

A player asks at their board (the undo button, or their page): the request, the last move
(``Session.agreed_target``), goes to the peer (``kind: "undo"``, ``ask``), which shows it
(its pages list it; the OLED says it) and waits for its player's word: the undo button (or
the page) agrees, the page may decline, and any move drops it. The peer takes the move back
at once when its player agrees, and sends ``done`` with its clock; the asking board takes
the same move back then, and takes that clock. Both journals record the takeback. A board
that is not at the same move (the last move not made there yet) declines, in one line. A
sensor board put back is still no takeback in a remote game: it would be one board's alone.
Games with secrets keep none: what was revealed cannot be taken back on one board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.referee.agreement import UndoRequest
from companion.referee.verdict import Verdict, said

if TYPE_CHECKING:
    from companion.referee.referee import Referee
    from companion.referee.session import Session

Send = Callable[[dict[str, Any]], None]


class RemoteTakeback:
    def __init__(self, send: Send, peer: str):
        self.send = send
        self.peer = peer
        self.sent: tuple[Any, ...] | None = None  # (game id, moves, target) asked of the peer
        self.asked: tuple[Any, ...] | None = None  # (game id, moves, target) the peer asked

    # --- this board's player ---
    def button(self, referee: Referee, local: str) -> Verdict:
        """The undo button here: agrees to the peer's request, else asks for one."""
        request = referee.agreement.current(referee.session)
        if request is not None and request.by != local:
            return referee.answer_undo(local, True)
        return self.ask(referee, local)

    def ask(self, referee: Referee, local: str) -> Verdict:
        """The player here asks (the button or their page): the request is the peer's to
        answer."""
        session = referee.session
        refusal = referee.agreement.ask(session, local)
        if refusal is not None:
            return Verdict(refusal=refusal, quiet=True, say=refusal.reason)
        request = referee.agreement.current(session)
        assert request is not None
        self.sent = (session.game_id, request.moves, request.target)
        self.send({"kind": "undo", "ask": request.target, "moves": request.moves})
        return said(f"takeback of {' '.join(request.taken)} asked: {self.peer} agrees or not")

    def follow(self, referee: Referee, clock: Callable[[], dict[str, Any] | None]) -> None:
        """After every event: the peer's request answered here is sent back (done, with the
        clock as it is after it, or declined)."""
        if self.asked is None:
            return
        session = referee.session
        game_id, moves, target = self.asked
        if session.game_id != game_id:
            self.asked = None
            return
        if referee.agreement.current(session) is not None:
            return  # not answered yet
        self.asked = None
        if len(session.played) == target:
            self.send({"kind": "undo", "done": target, "moves": moves, "clock": clock()})
        else:
            self.send({"kind": "undo", "declined": target, "moves": moves})

    # --- the peer's messages ---
    def heard(self, referee: Referee, peer_player: str, message: dict[str, Any]) -> Verdict | None:
        """The peer asked, took back, or declined; the verdict to show here (None: nothing)."""
        session = referee.session
        if "ask" in message:
            return self._asked(referee, session, peer_player, message)
        sent, self.sent = self.sent, None
        moves = int(message["moves"])
        if sent is None or sent[:2] != (session.game_id, moves):
            return None  # not the request standing here (a move came meanwhile)
        if "done" in message and int(message["done"]) == sent[2]:
            return referee.answer_undo(peer_player, True)
        return referee.answer_undo(peer_player, False)

    def _asked(
        self, referee: Referee, session: Session, peer_player: str, message: dict[str, Any]
    ) -> Verdict | None:
        moves, target = int(message["moves"]), int(message["ask"])
        if moves != len(session.played) or not 0 <= target < moves:
            self.send({"kind": "undo", "declined": target, "moves": moves})
            return said(f"{self.peer} asks for a takeback: this board is not at that move yet")
        taken = tuple(p.public for p in session.played[target:])
        referee.agreement.request = UndoRequest(
            session.game_id, moves, target, peer_player, taken, {peer_player}
        )
        self.asked = (session.game_id, moves, target)
        label = session.spec.player_label(peer_player)
        return said(f"{label} asks to take back {' '.join(taken)}: undo to agree", lasting=True)
