"""One game in progress: validates moves, journals them, plays forced passes, takes back.

Pure game logic plus the journal; no hardware, no threads. Every accepted move is committed
to the journal before the session's state changes, so what is shown is always what is saved.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from companion.games import get_spec
from companion.games.base import GameSpec, GameState, IllegalMove, Move, Refusal
from companion.journal.api import GameClosed, Journal, JournalError, NullJournal, SavedGame


@dataclass
class Submitted:
    accepted: bool
    refusal: Refusal | None = None
    played: list[str] = field(default_factory=list)  # names, the move then any forced passes


class Session:
    closed_elsewhere = False  # the journal said the game was ended from outside

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        journal: Journal | None = None,
        players: dict[str, str] | None = None,
    ):
        self.journal: Journal = journal or NullJournal()
        self.players = dict(players or {})
        self._start(get_spec(game), options or {})

    def _start(self, spec: GameSpec, options: dict[str, Any]) -> None:
        self.spec = spec
        self.options = spec.resolve(options)
        self.states: list[GameState] = [spec.new(**self.options)]
        self.moves: list[str] = []
        self.forced: list[bool] = []  # forced[i]: move i was played by the referee
        self.closed_elsewhere = False
        self.game_id: int | None = None
        self._begin()
        self._play_forced()

    def _begin(self) -> str | None:
        """Record the game's start; on failure the next move tries again (and is refused
        if it still cannot be saved). Returns why it failed, or None."""
        try:
            self.game_id = self.journal.begin(self.spec.name, self.options, self.players)
        except JournalError as e:
            return str(e)
        return None

    @classmethod
    def resume(cls, saved: SavedGame, journal: Journal) -> Session:
        """Rebuild a saved game by replaying its moves; journals a pass or the finish that
        a crash left out."""
        self = cls.__new__(cls)
        self.journal = journal
        self.players = dict(saved.players)
        self.spec = get_spec(saved.game)
        self.options = self.spec.resolve(saved.options)
        self.states = [self.spec.new(**self.options)]
        self.moves, self.forced = [], []
        self.game_id = saved.game_id
        for name in saved.moves:
            state = self.state
            forced = state.forced_move()
            move = state.parse_move(name)
            self.states.append(state.play(move))
            self.moves.append(name)
            self.forced.append(forced is not None and move == forced)
        self._play_forced()  # a pass a crash left unplayed is played (and saved) now
        if self.state.is_over() and (outcome := self.state.outcome()) is not None:
            with contextlib.suppress(JournalError):  # the crash may have come first
                self.journal.finish(self.game_id, outcome)
        return self

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def game(self) -> str:
        return self.spec.name

    def submit(self, move: Move) -> Submitted:
        state = self.state
        refusal = state.check(move)
        if refusal is not None:
            return Submitted(False, refusal)
        if self.game_id is None and (problem := self._begin()):
            return Submitted(False, Refusal("cannot-save", f"not saved: {problem}"))
        try:
            self._commit(move, forced=False)
        except GameClosed as e:
            self.closed_elsewhere = True
            return Submitted(False, Refusal("game-closed", str(e)))
        except JournalError as e:
            return Submitted(False, Refusal("cannot-save", f"not saved: {e}"))
        except IllegalMove as e:  # check() and play() disagree: trust play()
            return Submitted(False, e.refusal)
        played = [self.moves[-1]]
        played += self._play_forced()
        return Submitted(True, None, played)

    def _commit(self, move: Move, forced: bool) -> None:
        state = self.state
        after = state.play(move)  # raises IllegalMove before anything is saved
        name = state.move_name(move)
        self.journal.append(self.game_id, len(self.moves), name)
        self.states.append(after)
        self.moves.append(name)
        self.forced.append(forced)
        if after.is_over():
            outcome = after.outcome()
            if outcome is not None:
                # the move is saved; a finish that fails is written again on resume
                with contextlib.suppress(JournalError):
                    self.journal.finish(self.game_id, outcome)

    def _play_forced(self) -> list[str]:
        played: list[str] = []
        if self.game_id is None:
            return played
        while not self.state.is_over():
            move = self.state.forced_move()
            if move is None:
                break
            try:
                self._commit(move, forced=True)
            except JournalError:
                break  # the pass is replayed by the next start or the next move
            played.append(self.moves[-1])
        return played

    def undo(self, count: int = 1) -> list[str]:
        """Take back ``count`` player moves (and the forced passes around them)."""
        target = len(self.moves)
        for _ in range(count):
            while target and self.forced[target - 1]:
                target -= 1
            if target == 0:
                break
            target -= 1
        # passes forced right at the start of the game stay
        while target < len(self.moves) and target == 0 and self.forced and self.forced[0]:
            target += 1
        return self.take_back_to(target)

    def undo_round(self) -> list[str]:
        """The long undo: the unconfirmed part of the turn in progress if there is one (e.g. a
        first Binary piece), else a full round: the opponent's last turn and the one before."""
        n = len(self.moves)
        start = n
        while (
            start and not self.forced[start - 1] and self.states[start - 1].turn == self.state.turn
        ):
            start -= 1
        if start < n:
            return self.take_back_to(start)
        target = n
        for _ in range(2):
            while target and self.forced[target - 1]:
                target -= 1
            if target == 0:
                break
            player = self.states[target - 1].turn
            while target and not self.forced[target - 1] and self.states[target - 1].turn == player:
                target -= 1
        return self.take_back_to(target)

    def take_back_to(self, ply: int) -> list[str]:
        """Go back to the position after ``ply`` moves; the journal records the takeback
        first (JournalError leaves the game as it was). Returns the moves taken back."""
        if not 0 <= ply < len(self.moves):
            return []
        self.journal.takeback(self.game_id, ply)
        taken = self.moves[ply:]
        del self.states[ply + 1 :]
        del self.moves[ply:]
        del self.forced[ply:]
        return taken

    def new_game(self, game: str | None = None, options: dict[str, Any] | None = None) -> None:
        """Start another game; one not finished stays in the journal as abandoned."""
        spec = get_spec(game) if game else self.spec  # a bad name or option changes nothing
        if options is None:
            options = dict(self.options) if spec is self.spec else {}
        options = spec.resolve(options)
        if self.game_id is not None and not self.state.is_over():
            with contextlib.suppress(GameClosed):  # already ended elsewhere: fine
                self.journal.abandon(self.game_id)
        self._start(spec, options)
