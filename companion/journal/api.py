"""What the session needs from a journal. The SQLite journal implements it; NullJournal keeps
nothing (for scoring tools and tests that do not care about persistence).

One accepted press is one call, so one transaction (one fsync)::

    journal.commit_turn(game_id, first_ply, [MoveEntry(ply, name, player, public), ...],
                        outcome)  # the move, the passes it forced, the finish if it ends

A game with a clock: each move carries ``clock`` (the clock's snapshot right after its
switch, kept in the move's row), ``clock_tick`` keeps the running clock's state in one small
row about once a second, and ``clock_event`` records a pause, a resume, time added or a flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from companion.journal.rows import (
    ClockEvent,
    ClockState,
    Dispute,
    GameEntry,
    Masked,
    MoveEntry,
    RecoveryReport,
    SavedGame,
)

if TYPE_CHECKING:
    from companion.games.base import Outcome

__all__ = [
    "ClockEvent",
    "ClockState",
    "Dispute",
    "GameClosed",
    "GameEntry",
    "Journal",
    "JournalError",
    "Masked",
    "MoveEntry",
    "NullJournal",
    "RepairFailed",
    "RecoveryReport",
    "SavedGame",
]


class JournalError(RuntimeError):
    """The journal cannot save (disk full, read-only, damaged); the message is one line."""


class RepairFailed(JournalError):
    """A damaged journal that could not be repaired (no room for its copy or the salvage):
    nothing was changed. ``full``: for lack of room."""

    full = False


class GameClosed(JournalError):
    """The game is no longer in progress in the journal (finished or abandoned elsewhere,
    e.g. by ``binaryon abandon`` while the daemon runs)."""


class Journal(Protocol):
    recovery: RecoveryReport | None  # what a repair at open found and did
    loss: str | None  # moves known lost (a lost WAL), said at every start until accepted
    read_only: str | None  # why nothing can be written now ("disk full"...), or None

    def begin(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        time_control: str | None = None,
    ) -> int:
        """Start a new game (with a clock: its control, as typed); returns its id. Durable
        before it returns."""

    def clock_tick(self, game_id: int, ply: int, state: dict[str, Any]) -> None:
        """Keep the running clock's ``state`` (at ``ply`` live moves) in the game's one
        clock row, updated in place: the cheap write made about once a second."""

    def clock_event(self, game_id: int, event: ClockEvent) -> None:
        """Record a clock's own event and keep its ``state`` as the clock row (its ``at``
        is the journal's own time)."""

    def keep_masked(self, game_id: int, masked: Masked) -> None:
        """Keep what this board knows of a remote game with secrets (replaces the last)."""

    def reveal(self, game_id: int, moves: list[MoveEntry], outcome: Outcome | None) -> None:
        """The whole game with every secret, told at the end: each ply's move (its name,
        player and public name) read in place of the one journaled, and the result."""

    def dispute(self, game_id: int, dispute: Dispute) -> None:
        """Mark a remote game disputed or unverified (a disputed game is never made
        unverified again), with its evidence; JournalError."""

    def clock_events(self, game_id: int) -> list[ClockEvent]:
        """A game's clock events, in order."""
        return []

    def commit_turn(
        self, game_id: int, first_ply: int, moves: list[MoveEntry], outcome: Outcome | None
    ) -> None:
        """Record ``moves`` (plies first_ply, first_ply + 1, ...) and, with ``outcome``, the
        game's end, in ONE transaction. Durable before it returns; JournalError, GameClosed."""

    def takeback(self, game_id: int, to_ply: int) -> None:
        """Record that the game went back to its first ``to_ply`` moves (history is kept)."""

    def abandon(self, game_id: int) -> None: ...

    def pause(self, game_id: int) -> bool:
        """Put the game in progress aside to be taken up again (one with no moves is
        abandoned); True when paused."""
        return False

    def resume(self, game_id: int) -> int | None:
        """Make a paused game the game in progress, pausing the one in progress (its id)."""

    def current(self) -> SavedGame | None:
        """The game in progress when the daemon stopped, if any."""

    def recent(self, limit: int, game: str | None = None) -> list[GameEntry]:
        """The last ``limit`` games (of ``game`` only, when given), newest first, without
        their moves."""
        return []

    def load(self, game_id: int) -> GameEntry | None:
        """One game with its moves, or None."""

    def data_version(self) -> int:
        """A number that changes whenever anything (this process or another) wrote."""
        return 0

    def paused(self, limit: int = 20) -> list[GameEntry]:
        """The games put aside to be taken up again, latest first."""
        return []

    def events(self, game_id: int) -> list[tuple[str, int, str | None, int | None]]:
        """Every event of a game in order (kind, ply, move, time), taken-back moves too."""
        return []

    def meta(self, key: str) -> str | None:
        """A value kept beside the games (the ``meta`` table), or None."""

    def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every kept key starting with ``prefix``, with its value."""

    def set_meta(self, values: dict[str, str | None]) -> None:
        """Keep (None: forget) several values in one durable transaction; JournalError."""

    def finished_since(self, first_id: int) -> list[int]:
        """The ids of the finished games numbered ``first_id`` or more, oldest first (a
        disputed or unverified remote game counts as finished: its result goes to the hub
        marked so)."""
        return []


class NullJournal(Journal):
    """Keeps nothing; ids count up so sessions can tell games apart. A write is the
    protocol's own (it does nothing), as is a read (it finds nothing)."""

    def __init__(self) -> None:
        self._next = 1
        self.recovery: RecoveryReport | None = None
        self.loss: str | None = None
        self.read_only: str | None = None
        self._meta: dict[str, str] = {}  # for this process only

    def begin(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        time_control: str | None = None,
    ) -> int:
        self._next += 1
        return self._next - 1

    def resume(self, game_id: int) -> int | None:
        raise JournalError("no journal: no paused game to take up")

    def meta(self, key: str) -> str | None:
        return self._meta.get(key)

    def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        return {k: v for k, v in sorted(self._meta.items()) if k.startswith(prefix)}

    def set_meta(self, values: dict[str, str | None]) -> None:
        for key, value in values.items():
            if value is None:
                self._meta.pop(key, None)
            else:
                self._meta[key] = value
