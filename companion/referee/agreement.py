"""An undo every player agrees to: asked on one player's page, accepted on the others'.

The undo button never takes back a move whose answer revealed something (``Session.undo_floor``);
the players may still agree to take it back, each on their own page. The request names what it
would take back; any move (or another takeback, or a new game) meanwhile drops it. What was
revealed stays in the journal: the takeback is an event after the move, never a deletion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Refusal
from companion.referee.session import Session
from companion.timing.on_time import on_time


@dataclass
class UndoRequest:
    game_id: int | None
    moves: int  # moves played when it was asked: any change drops it
    target: int  # moves kept if everybody agrees
    by: str
    taken: tuple[str, ...]  # public names of what it takes back
    agreed: set[str] = field(default_factory=set)


def voters(session: Session) -> frozenset[str]:
    """The players who must agree: all of them. A solo game's virtual players have no page,
    so a solo game takes nothing back past a reveal (``ask`` says so)."""
    return frozenset(session.state.players)


class UndoAgreement:
    def __init__(self) -> None:
        self.request: UndoRequest | None = None

    def current(self, session: Session) -> UndoRequest | None:
        """The request still standing for the game as it is now."""
        r = self.request
        if r is not None and (r.game_id != session.game_id or r.moves != len(session.played)):
            self.request = r = None
        return r

    def ask(self, session: Session, player: str) -> Refusal | None:
        if player not in session.state.players:
            return Refusal("no-player", f"{player}: not a player of this game")
        if self.current(session) is not None:
            return Refusal("undo-asked", "a takeback is already asked: answer it first")
        if on_time(session.state) is not None:  # never the move of the player on time
            return Refusal("flag-fell", "a flag is taken back with undo on the board")
        target = session.agreed_target()
        if target is None:
            return Refusal("nothing-to-undo", "nothing to take back")
        others = voters(session) - {player}
        if not others or others & session.state.virtual:
            return Refusal("nobody-to-agree", "no other player can agree on a page")
        taken = tuple(p.public for p in session.played[target:])
        self.request = UndoRequest(
            session.game_id,
            len(session.played),
            target,
            player,
            taken,
            _spoken_for(session, player),
        )
        return None

    def answer(self, session: Session, player: str, accept: bool) -> Refusal | None | int:
        """None: noted; an int: everyone agreed, take back to that many moves."""
        r = self.current(session)
        if r is None:
            return Refusal("no-undo-asked", "no takeback is asked")
        if player not in voters(session):
            return Refusal("no-player", f"{player}: not a player of this game")
        if not accept:
            self.request = None
            return None
        r.agreed |= _spoken_for(session, player)
        if r.agreed >= voters(session):
            self.request = None
            return r.target
        return None

    def view(self, session: Session, label) -> dict[str, Any] | None:
        """What the pages show of the request (public: only public move names)."""
        r = self.current(session)
        if r is None:
            return None
        return {
            "by": r.by,
            "by_label": label(r.by),
            "moves": list(r.taken),
            "agreed": sorted(r.agreed),
            "waiting": sorted(voters(session) - r.agreed),
        }


def _spoken_for(session: Session, page: str) -> set[str]:
    """The players whose word a page gives: its own, and those without a phone whose moves it
    enters (Binøme's chair)."""
    state = session.state
    return {page} | {p for p in state.players if state.page_of(p) == page}
