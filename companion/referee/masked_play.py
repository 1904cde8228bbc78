"""A remote game with secrets, as one board plays it (docs/club.md, "Remote play"): a mixin of
``Session``.

Each board knows only its own seat's secrets: its session keeps a masked state (the game's
remote facet masks it: ``GameSpec.remote()``). The other board's secret moves are journaled
by their public names;
what that board discloses as the game reveals it (a guess's answer, a turn's claims) is
learned (``learn``) and kept in the journal, so a restart learns it again before replaying the
moves. At the end each board tells the full names of its own moves; with them the other
rebuilds the whole game from an unmasked start (``reveal``), so both journals end with the
same game, every secret in it.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.base import GameSpec, GameState, Move
from companion.journal.api import JournalError, Masked, MoveEntry

if TYPE_CHECKING:
    from companion.referee.session import Played, Session

# the seat a new game's board knows alone (a remote game with secrets), or None: all of it
Masking = Callable[[GameSpec, dict[str, Any]], str | None]


class MaskedPlay:
    masking: Masking | None = None  # set by the daemon in a remote game
    masked: Masked | None = None  # the game in progress is a masked one

    def _masked_first(self: Session, spec: GameSpec, state: GameState) -> GameState:
        """A new game's first state: masked when the board plays a remote game with secrets."""
        seat = self.masking(spec, self.options) if self.masking is not None else None
        self.masked = None
        remote = spec.remote()
        if seat is None or not remote.masked or seat not in state.players:
            return state
        try:
            masked = remote.mask(state, seat)
        except ValueError:  # options that cannot be masked: not played remotely (it says so)
            return state
        self.masked = Masked(seat, {})
        return masked

    def _keep_masked(self: Session) -> None:
        if self.masked is not None and self.game_id is not None:
            self.journal.keep_masked(self.game_id, self.masked)

    def learn(self: Session, seat: str, facts: Mapping[str, Any]) -> bool:
        """Facts the board of ``seat`` disclosed about its secrets: kept, journaled and
        learned (a waiting state goes on; the forced moves and chance steps that follow are
        played). True when something new was learned. ValueError (one line): facts that
        contradict the game here; JournalError: they could not be kept (nothing changes)."""
        if self.masked is None or seat == self.masked.seat or self.game_id is None:
            return False
        known = self.masked.told.get(seat, {})
        new = {k: v for k, v in facts.items() if known.get(k) != v}
        if not new:
            return False
        was_over = self.state.is_over()
        state = self.spec.remote().learn(self.state, seat, new)
        told = {**self.masked.told, seat: {**known, **new}}
        masked = Masked(self.masked.seat, told)
        self.journal.keep_masked(self.game_id, masked)
        self.masked = masked
        self.states[-1] = state
        with contextlib.suppress(JournalError):  # the next move tries again
            self._save(self._referee_steps())
        if not was_over:
            self._finish_if_over()
        return True

    def reveal(self: Session, full: Sequence[str]) -> str | None:
        """The whole game with every full name, at the end (the other board's secret moves
        told, in the order both boards keep: ``club/remote_stream.py``): replayed from an
        unmasked start, it must end as it did here; then it is the game, and the journal
        reads it so. Why not, in one line, or None."""
        from companion.referee.session import _replayed

        if self.masked is None or not self.state.is_over():
            return None
        if len(full) != len(self.played):
            return f"{len(full)} moves, this board has {len(self.played)}"
        states: list[GameState] = [self.spec.new(**self.options)]
        played: list[Played] = []
        try:
            for after, move, before in self.spec.steps_from(states[0], full):
                played.append(_replayed(before, move))
                states.append(after)
        except ValueError as e:
            return f"the revealed moves do not replay ({e})"
        end, here = states[-1], self.state
        outcome, shown = end.outcome(), here.outcome()
        if not end.is_over() or outcome is None or shown is None:
            return "the revealed moves do not end the game"
        if (outcome.winners, outcome.summary) != (shown.winners, shown.summary):
            return f"the revealed moves end otherwise ({outcome.summary})"
        entries = [MoveEntry(k, p.name, p.player, p.public) for k, p in enumerate(played)]
        self.journal.reveal(self.game_id or 0, entries, self.credited(end, outcome))
        self.played, self.states, self.masked = played, states, None
        return None

    def play_drawn(self: Session, move: Move) -> bool:
        """A chance step drawn at the other board (only the first seat's board draws), played
        here as the referee's, with the forced moves after it. False: not its turn here."""
        from companion.referee.session import _played

        state = self.state
        if state.check(move, None) is not None:
            return False
        after = state.play(move)
        played = dataclasses.replace(_played(state, move, True), reveals=True)
        self._save([(played, after), *self._referee_steps(after, len(self.played) + 1)])
        return True

    def _finish_if_over(self: Session) -> None:
        """Journal the finish of a game that is over (learning ended it, or a restart found it
        over); a move that ends the game journals it in its own commit."""
        state = self.state
        if self.game_id is None or not state.is_over() or (outcome := state.outcome()) is None:
            return
        with contextlib.suppress(JournalError):
            self.journal.commit_turn(
                self.game_id, len(self.played), [], self.credited(state, outcome)
            )
