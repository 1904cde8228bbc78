"""The referee: the game in progress, what input means for it, and what to tell the table.

It owns the session (rules + journal) and the game's interpreter, and takes input already
mapped to the game's cells: presses, settled sensor readings, buttons, and moves named on a
player's page. What the table must show (a refusal, a pass, the result, squares to fix) goes
to a ``Feedback`` (the daemon), which keeps it on screen for the right time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.games import get_spec
from companion.games.base import Action, Differ, Pending, Play, Refusal, Refuse
from companion.journal.api import GameClosed, JournalError
from companion.referee.agreement import UndoAgreement
from companion.referee.session import Played, Session, Submitted

log = logging.getLogger("binaryon")


class Feedback(Protocol):
    def say(self, text: str, lasting: bool = False) -> None: ...

    def refuse(self, refusal: Refusal | None, cell: int | None) -> None: ...

    def mismatch(self, cells: tuple[int, ...], hint: str) -> None:
        """Game cells where the board does not match; () clears."""

    def entering(self, cells: tuple[int, ...], text: str) -> None:
        """A move being entered: its cells so far, and what comes next."""

    def moved(self, played: list[Played]) -> None: ...

    def game_changed(self, board_too: bool) -> None:
        """The game moved without the board (undo, new game): a sensor board must catch up."""


class Referee:
    def __init__(self, session: Session, kind: str, feedback: Feedback):
        self.session = session
        self.kind = kind
        self.feedback = feedback
        self.interpreter = session.spec.interpreter(kind)
        # asked before a move is played: a refusal stops it (the companion's own move awaited)
        self.gate: Callable[[Any], Refusal | None] | None = None
        self.agreement = UndoAgreement()  # a takeback asked on one page, accepted on the others

    # ------------------------------------------------------------------ input
    def press(self, cell: int) -> None:
        state = self.session.state
        if state.is_over():
            self.feedback.say("game over: hold menu for a new game")
            return
        self.act(self.interpreter.press(state, cell), cell)

    def button(self, name: str) -> bool:
        """The confirm button for the game; False when it means nothing now."""
        state = self.session.state
        if state.is_over():
            self.feedback.say("game over: hold menu for a new game")
            return True
        action = self.interpreter.button(state, name)
        if action is None:
            return False
        self.act(action, None)
        return True

    def settled(self, cells: Sequence[str]) -> None:
        """A settled sensor board (the game's cells) that matched the game before."""
        for _ in range(len(cells) + 1):
            state = self.session.state
            action = self.interpreter.board(state, cells)
            if isinstance(action, Play):
                illegal = state.check(action.move, action.player) is not None
                if illegal and self.board_took_back(cells):
                    continue  # a disc turned back: the board shows an earlier position
                if not self.act(action, None, from_board=True):
                    break
                continue
            if isinstance(action, Differ) and self.board_took_back(cells):
                continue
            if isinstance(action, Refuse | Pending):
                self.act(action, action.cell if isinstance(action, Refuse) else None)
            else:
                self.feedback.mismatch(
                    action.cells if action else (), action.hint if action else ""
                )
            break

    def matches(self, cells: Sequence[str]) -> list[int]:
        """Cells where the board differs from the game now."""
        expected = self.interpreter.expected(self.session.state)
        return [i for i, (a, b) in enumerate(zip(cells, expected, strict=False)) if a != b]

    def expected(self) -> list[str]:
        return self.interpreter.expected(self.session.state)

    def submit_name(self, name: str, player: str | None) -> Submitted:
        """A move named on a player's page (or typed): same rules, same journal. A refused
        move that holds a secret (or cannot be read) is answered to its page only: the table
        hears that it was refused, not what it was."""
        state = self.session.state
        try:
            move = state.parse_move(name)
            secret = state.public_name(move) != state.move_name(move)
        except ValueError:
            move, secret = None, True
        if move is not None and self.gate is not None and (refusal := self.gate(move)):
            self.feedback.refuse(refusal, None)
            return Submitted(False, refusal)
        result = self.session.submit_name(name, player)
        if result.accepted or not secret or self.session.closed_elsewhere:
            self._after(result, None)
        else:
            self._refused_secret(state, move, player, result.refusal)
        return result

    def _refused_secret(
        self, state: Any, move: Any, player: str | None, refusal: Refusal | None
    ) -> None:
        """The table hears only that a secret move was refused; why goes to the page that
        enters that player's moves (the chairperson's for a player without a phone), with
        what the refusal asks to confirm."""
        actor = (state.actor(move) if move is not None else None) or player
        label = self.session.spec.player_label
        log.info("refused a secret move of %s", actor or "a player")
        if actor is None:
            self.feedback.say("move: not accepted, see your page")
            return
        page = state.page_of(actor)
        where = "your page" if page == actor else f"{label(page)}'s page"
        self.feedback.say(f"{label(actor)}: not accepted, see {where}")
        to_page = getattr(self.feedback, "to_page", None)
        if to_page is None or refusal is None:
            return
        prefix = "" if page == actor else f"for {actor}: "
        actions = (
            ((refusal.confirm, f"{prefix}confirm: {refusal.reason}"),) if refusal.confirm else ()
        )
        to_page(page, f"{prefix}refused: {refusal.reason}", actions)

    # ------------------------------------------------------------------ acting
    def act(self, action: Action, cell: int | None, from_board: bool = False) -> bool:
        """Carry out what the interpreter made of the input; True when a move was accepted."""
        if isinstance(action, Play):
            target = cell if cell is not None else _cell_of(action.move)
            if self.gate is not None and (refusal := self.gate(action.move)) is not None:
                self.feedback.refuse(refusal, target)
                return False
            result = self.session.submit(action.move, action.player)
            self._after(result, target)
            if not result.accepted and from_board and target is not None:
                self.feedback.mismatch((target,), _reason(result.refusal))  # stays until put back
            return result.accepted
        if isinstance(action, Refuse):
            self.feedback.refuse(action.refusal, action.cell)
        elif isinstance(action, Differ):
            self.feedback.mismatch(action.cells, action.hint)
        elif isinstance(action, Pending):
            self.feedback.entering(action.cells, action.text)
        return False

    def _after(self, result: Submitted, target: int | None) -> None:
        if result.accepted:
            self.interpreter.reset()
            self.feedback.mismatch((), "")
            self.feedback.moved(result.played)
            return
        if self.session.closed_elsewhere:
            self.closed_elsewhere()
            return
        self.feedback.refuse(result.refusal, target)

    def closed_elsewhere(self) -> None:
        """The journal says this game was ended from outside (e.g. `binaryon abandon`):
        start a fresh one rather than refuse every move."""
        old = self.session.game_id
        self.new_game()
        self.feedback.say(f"game {old} was closed: new game")

    # ------------------------------------------------------------------ taking back
    def undo(self, long: bool) -> None:
        try:
            taken = self.session.undo_round() if long else self.session.undo()
        except GameClosed:
            self.closed_elsewhere()
            return
        except JournalError as e:
            self.feedback.say(f"not saved: {e}")
            return
        self.interpreter.reset()
        self.feedback.mismatch((), "")
        if taken:
            shown = [m for m in taken if m != "pass"] or taken
            self.feedback.say("took back " + " ".join(shown))
            self.feedback.game_changed(board_too=False)
        elif (blocked := self.session.blocked) is not None:
            self.feedback.say(f"undo stops at {blocked.public}: ask on your pages")
        else:
            self.feedback.say("nothing to take back")

    def ask_undo(self, player: str) -> Refusal | None:
        """A player asks on their page to take back the last move (past a reveal too)."""
        refusal = self.agreement.ask(self.session, player)
        if refusal is None:
            request = self.agreement.current(self.session)
            label = self.session.spec.player_label(player)
            what = " ".join(request.taken) if request else ""
            self.feedback.say(f"{label} asks to take back {what}: agree on your pages")
        return refusal

    def answer_undo(self, player: str, accept: bool) -> Refusal | None:
        """Another player accepts (or declines) on their page; when all agree, it is done."""
        outcome = self.agreement.answer(self.session, player, accept)
        if isinstance(outcome, Refusal):
            return outcome
        label = self.session.spec.player_label(player)
        if not accept:
            self.feedback.say(f"{label} said no: nothing taken back")
        elif outcome is not None:
            try:
                taken = self.session.take_back_to(outcome, agreed=True)
            except GameClosed:
                self.closed_elsewhere()
                return None
            except JournalError as e:
                self.feedback.say(f"not saved: {e}")
                return Refusal("cannot-save", f"not saved: {e}")
            self.interpreter.reset()
            self.feedback.mismatch((), "")
            self.feedback.say("took back by agreement: " + " ".join(taken))
            self.feedback.game_changed(board_too=False)
        return None

    def undo_view(self) -> dict[str, Any] | None:
        return self.agreement.view(self.session, self.session.spec.player_label)

    def board_took_back(self, cells: Sequence[str]) -> bool:
        """A sensor board put back to an earlier position of this game is a takeback to it."""
        seen = list(cells)
        session = self.session
        for ply in range(len(session.played) - 1, session.undo_floor() - 1, -1):
            if self.interpreter.expected(session.states[ply]) == seen:
                try:
                    taken = session.take_back_to(ply)
                except GameClosed:
                    self.closed_elsewhere()
                    return True
                except JournalError as e:
                    self.feedback.say(f"not saved: {e}")
                    return True
                self.interpreter.reset()
                self.feedback.mismatch((), "")
                self.feedback.say("took back " + " ".join(taken))
                return True
        return False

    # ------------------------------------------------------------------ games
    def new_game(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        players: dict[str, str] | None = None,
    ) -> bool:
        """Start a game (another one, or this one afresh); False (and said why) if it cannot."""
        try:
            self.session.new_game(game, options, players)
        except (JournalError, ValueError) as e:
            self.feedback.say(f"not saved: {e}" if isinstance(e, JournalError) else str(e))
            return False
        self.take_up(self.session)
        return True

    def take_up(self, session: Session) -> None:
        """Referee ``session`` from now on (a new game, or a paused one taken up again)."""
        self.session = session
        self.interpreter = session.spec.interpreter(self.kind)
        self.feedback.mismatch((), "")
        self.feedback.game_changed(board_too=True)


def _cell_of(move: Any) -> int | None:
    return move if isinstance(move, int) and not isinstance(move, bool) else None


def _reason(refusal: Refusal | None) -> str:
    return refusal.reason if refusal else "refused"


def title_of(game: str) -> str:
    return get_spec(game).title
