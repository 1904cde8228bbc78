"""The referee: the game in progress, what input means for it, and what to tell the table.

It owns the session (rules + journal) and the game's interpreter, and takes input already
mapped to the game's cells: presses, settled sensor readings, buttons, and moves named on a
player's page. Each input is answered with a ``Verdict`` (what was played, the refusal, the
cells to mark, what to say); the service shows it and keeps it on screen for the right time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from companion import PROGRAM
from companion.games.base import (
    Action,
    Differ,
    GameState,
    Move,
    Pending,
    Play,
    Refusal,
    Refuse,
)
from companion.journal.api import GameClosed, JournalError
from companion.referee.agreement import UndoAgreement
from companion.referee.session import Played, Session, Submitted
from companion.referee.verdict import NOTHING, Change, Verdict, said
from companion.timing.on_time import on_time

log = logging.getLogger(PROGRAM)

GAME_OVER = "game over: hold menu for a new game"


class Referee:
    def __init__(self, session: Session, kind: str):
        self.session = session
        self.kind = kind
        self.interpreter = session.spec.interpreter(kind)
        # asked before a move is played: a refusal stops it (the companion's own move awaited)
        self.gate: Callable[[Any], Refusal | None] | None = None
        self.agreement = UndoAgreement()  # a takeback asked on one page, accepted on the others
        self.takebacks = ""  # why no takeback is allowed at all (a remote game); "" = allowed

    # ------------------------------------------------------------------ input
    def press(self, cell: int) -> Verdict:
        state = self.session.state
        if state.is_over():
            return said(GAME_OVER)
        return self.act(self.interpreter.press(state, cell), cell)

    def button(self, name: str) -> Verdict | None:
        """The confirm button for the game; None when it means nothing now."""
        state = self.session.state
        if state.is_over():
            return said(GAME_OVER)
        action = self.interpreter.button(state, name)
        if action is None:
            return None
        return self.act(action, None)

    def settled(self, cells: Sequence[str]) -> Verdict:
        """A settled sensor board (the game's cells) that matched the game before: the moves
        it shows (several at once), a takeback to an earlier position, or what differs."""
        verdict = NOTHING
        for _ in range(len(cells) + 1):
            state = self.session.state
            action = self.interpreter.board(state, cells)
            if isinstance(action, Play):
                illegal = state.check(action.move, action.player) is not None
                if illegal and (back := self.board_took_back(cells)) is not None:
                    verdict = verdict.then(back)
                    continue  # a disc turned back: the board shows an earlier position
                step = self.act(action, None, from_board=True)
                verdict = verdict.then(step)
                if not step.accepted:
                    break
                continue
            if isinstance(action, Differ) and (back := self.board_took_back(cells)) is not None:
                verdict = verdict.then(back)
                continue
            if isinstance(action, Refuse | Pending):
                step = self.act(action, action.cell if isinstance(action, Refuse) else None)
            else:
                step = Verdict(
                    differ=action.cells if action else (), fix=action.hint if action else ""
                )
            return verdict.then(step)
        return verdict

    def matches(self, cells: Sequence[str]) -> list[int]:
        """Cells where the board differs from the game now."""
        expected = self.interpreter.expected(self.session.state)
        return [i for i, (a, b) in enumerate(zip(cells, expected, strict=False)) if a != b]

    def expected(self) -> list[str]:
        return self.interpreter.expected(self.session.state)

    def submit_name(self, name: str, player: str | None) -> Verdict:
        """A move named by ``player`` on their page (or typed): same rules, same journal. A
        refused move that holds a secret (or cannot be read) is answered to its page only:
        the table hears that it was refused, not what it was."""
        state = self.session.state
        try:
            move = state.parse_move(name)
            secret = state.public_name(move) != move.name
        except ValueError:
            move, secret = None, True
        if move is not None and self.gate is not None and (refusal := self.gate(move)):
            return _refused(refusal, None)
        result = self.session.submit_name(name, player)
        if result.accepted or not secret or self.session.closed_elsewhere:
            return self._after(result, None)
        return self._refused_secret(state, move, player, result.refusal)

    def _refused_secret(
        self, state: GameState, move: Any, player: str | None, refusal: Refusal | None
    ) -> Verdict:
        """The table hears only that a secret move was refused; why goes to the page that
        enters that player's moves (the chairperson's for a player without a phone), with
        what the refusal asks to confirm."""
        actor = (state.actor(move) if move is not None else None) or player
        label = self.session.spec.player_label
        log.info("refused a secret move of %s", actor or "a player")
        told = refusal or Refusal("refused", "refused")
        if actor is None:
            return Verdict(refusal=told, quiet=True, say="move: not accepted, see your page")
        page = state.page_of(actor)
        where = "your page" if page == actor else f"{label(page)}'s page"
        say = f"{label(actor)}: not accepted, see {where}"
        if refusal is None:
            return Verdict(refusal=told, quiet=True, say=say)
        prefix = "" if page == actor else f"for {actor}: "
        actions = (
            ((refusal.confirm, f"{prefix}confirm: {refusal.reason}"),) if refusal.confirm else ()
        )
        note = (page, f"{prefix}refused: {refusal.reason}", actions)
        return Verdict(refusal=refusal, quiet=True, say=say, page=note)

    # ------------------------------------------------------------------ acting
    def act(self, action: Action, cell: int | None, from_board: bool = False) -> Verdict:
        """Carry out what the interpreter made of the input."""
        if isinstance(action, Play):
            target = cell if cell is not None else _cell_of(action.move)
            if self.gate is not None and (refusal := self.gate(action.move)) is not None:
                return _refused(refusal, target)
            result = self.session.submit(action.move, action.player)
            verdict = self._after(result, target)
            if not result.accepted and from_board and target is not None:
                # stays until put back
                return verdict.then(Verdict(differ=(target,), fix=_reason(result.refusal)))
            return verdict
        if isinstance(action, Refuse):
            return _refused(action.refusal, action.cell)
        if isinstance(action, Differ):
            return Verdict(differ=action.cells, fix=action.hint)
        if isinstance(action, Pending):
            return Verdict(pending=action)
        return NOTHING

    def _after(self, result: Submitted, target: int | None) -> Verdict:
        if result.accepted:
            self.interpreter.reset()
            played = tuple(result.played)
            over = self.session.state.is_over()
            return Verdict(played=played, differ=(), say=self._told(played), lasting=over)
        if self.session.closed_elsewhere:
            return self.closed_elsewhere()
        return _refused(result.refusal, target)

    def _told(self, played: tuple[Played, ...]) -> str:
        """What the table hears after moves: the result, else the passes and what the game
        announces (e.g. whose turn it is now)."""
        session = self.session
        if session.state.is_over():
            return result_line(session.state)
        made_in = session.states[-len(played) - 1 : -1]  # the state each was played in
        passed = [
            session.spec.player_label(s.turn)
            for s, p in zip(made_in, played, strict=True)
            if p.forced and p.passed and s.turn
        ]
        told = session.spec.announce(made_in[0], session.state)
        if passed:
            told = f"{', '.join(passed)} passes (no move)" + (f"; {told}" if told else "")
        return told

    def play_remote(self, move: Any, player: str | None) -> Verdict:
        """A move of the other board of a remote game (docs/club.md), played here at once,
        with no gate: its player's move with no square to make here, a step everyone takes
        at once, or (``player`` None) a chance step drawn there."""
        if player is not None:
            return self._after(self.session.submit(move, player), None)
        before = len(self.session.played)
        try:
            drawn = self.session.play_drawn(move)
        except JournalError as e:
            return _refused(Refusal("cannot-save", f"not saved: {e}"), None)
        if not drawn:
            return _refused(Refusal("not-a-draw", f"{move.name}: no chance step here"), None)
        return self._after(Submitted(True, None, self.session.played[before:]), None)

    def closed_elsewhere(self) -> Verdict:
        """The journal says this game was ended from outside (e.g. `binaryon abandon`):
        start a fresh one rather than refuse every move."""
        old = self.session.game_id
        return self.new_game().then(said(f"game {old} was closed: new game"))

    # ------------------------------------------------------------------ taking back
    def undo(self, long: bool) -> Verdict:
        if self.takebacks:
            return _refused(Refusal("no-takebacks", self.takebacks), None)
        flag = on_time(self.session.state)
        try:
            taken = self.session.undo_round() if long else self.session.undo()
        except GameClosed:
            return self.closed_elsewhere()
        except JournalError as e:
            return said(f"not saved: {e}")
        self.interpreter.reset()
        if flag is not None and not self.session.state.is_over():  # the flag alone went back
            flagged = self.session.spec.player_label(flag.detail.get("on_time", ""))
            say = f"{flagged}'s flag taken back: confirm resumes, hold undo: +10 s"
            return Verdict(differ=(), say=say, lasting=True, changed=Change.TAKEN_BACK)
        if taken:
            shown = [m for m in taken if m != "pass"] or taken
            return Verdict(differ=(), say="took back " + " ".join(shown), changed=Change.TAKEN_BACK)
        if (blocked := self.session.blocked) is not None:
            return Verdict(differ=(), say=f"undo stops at {blocked.public}: ask on your pages")
        return Verdict(differ=(), say="nothing to take back")

    def ask_undo(self, player: str) -> Verdict:
        """``player`` asks on their page to take back the last move (past a reveal too)."""
        if self.takebacks:
            return Verdict(refusal=Refusal("no-takebacks", self.takebacks), quiet=True)
        refusal = self.agreement.ask(self.session, player)
        if refusal is not None:
            return Verdict(refusal=refusal, quiet=True)
        request = self.agreement.current(self.session)
        label = self.session.spec.player_label(player)
        what = " ".join(request.taken) if request else ""
        return said(f"{label} asks to take back {what}: agree on your pages")

    def answer_undo(self, player: str, accept: bool) -> Verdict:
        """Another player accepts (or declines) on their page; when all agree, it is done."""
        outcome = self.agreement.answer(self.session, player, accept)
        if isinstance(outcome, Refusal):
            return Verdict(refusal=outcome, quiet=True)
        label = self.session.spec.player_label(player)
        if not accept:
            return said(f"{label} said no: nothing taken back")
        if outcome is None:
            return NOTHING
        try:
            taken = self.session.take_back_to(outcome, agreed=True)
        except GameClosed:
            return self.closed_elsewhere()
        except JournalError as e:
            refusal = Refusal("cannot-save", f"not saved: {e}")
            return Verdict(refusal=refusal, quiet=True, say=refusal.reason)
        self.interpreter.reset()
        return Verdict(
            differ=(),
            say="took back by agreement: " + " ".join(taken),
            changed=Change.TAKEN_BACK,
        )

    def undo_view(self) -> dict[str, Any] | None:
        return self.agreement.view(self.session, self.session.spec.player_label)

    def board_took_back(self, cells: Sequence[str]) -> Verdict | None:
        """A sensor board put back to an earlier position of this game is a takeback to it
        (None: it shows no earlier position, or no takeback is allowed)."""
        if self.takebacks:
            return None
        seen = list(cells)
        session = self.session
        for ply in range(len(session.played) - 1, session.undo_floor() - 1, -1):
            if self.interpreter.expected(session.states[ply]) == seen:
                try:
                    taken = session.take_back_to(ply)
                except GameClosed:
                    return self.closed_elsewhere()
                except JournalError as e:
                    return said(f"not saved: {e}")
                self.interpreter.reset()
                return Verdict(differ=(), say="took back " + " ".join(taken))
        return None

    # ------------------------------------------------------------------ games
    def new_game(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        players: dict[str, str] | None = None,
    ) -> Verdict:
        """Start a game (another one, or this one afresh); when it cannot, the verdict says
        why and the game goes on."""
        try:
            self.session.new_game(game, options, players)
        except (JournalError, ValueError) as e:
            return said(f"not saved: {e}" if isinstance(e, JournalError) else str(e))
        return self.take_up(self.session)

    def take_up(self, session: Session) -> Verdict:
        """Referee ``session`` from now on (a new game, or a paused one taken up again)."""
        if session.local_seat is None:  # a remote game's boards keep to their seats
            session.local_seat = self.session.local_seat
        self.session = session
        self.interpreter = session.spec.interpreter(self.kind)
        title = session.spec.heading().lower()  # "latent binaries", not "latent"
        return Verdict(differ=(), say=f"new game: {title}", changed=Change.NEW)


def result_line(state: GameState) -> str:
    """The result as the table shows it once the game has ended."""
    outcome = state.outcome()
    if outcome is None:
        return "game over"
    return f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary


def _refused(refusal: Refusal | None, cell: int | None) -> Verdict:
    return Verdict(refusal=refusal or Refusal("refused", "refused"), refused=cell)


def _cell_of(move: Move) -> int | None:
    """The cell a refusal of ``move`` blinks: its only one (none for a move of several)."""
    cells = move.cells
    return cells[0] if len(cells) == 1 else None


def _reason(refusal: Refusal | None) -> str:
    return refusal.reason if refusal else "refused"
