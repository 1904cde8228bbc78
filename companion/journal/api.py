"""What the session needs from a journal. The SQLite journal implements it; NullJournal keeps
nothing (for scoring tools and tests that do not care about persistence)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.games.base import Outcome


class JournalError(RuntimeError):
    """The journal cannot save (disk full, read-only, damaged); the message is one line."""


class GameClosed(JournalError):
    """The game is no longer in progress in the journal (finished or abandoned elsewhere,
    e.g. by ``binaryon abandon`` while the daemon runs)."""


@dataclass
class SavedGame:
    """A game as the journal holds it: enough to rebuild it by replaying ``moves``."""

    game_id: int
    game: str
    options: dict[str, Any]
    moves: list[str]
    players: dict[str, str] = field(default_factory=dict)


class Journal(Protocol):
    def begin(self, game: str, options: dict[str, Any], players: dict[str, str]) -> int:
        """Start a new game; returns its id. Durable before it returns."""

    def append(self, game_id: int, ply: int, move: str) -> None:
        """Record move number ``ply`` (0-based). Durable before it returns; JournalError."""

    def takeback(self, game_id: int, to_ply: int) -> None:
        """Record that the game went back to its first ``to_ply`` moves (history is kept)."""

    def finish(self, game_id: int, outcome: Outcome) -> None: ...

    def abandon(self, game_id: int) -> None: ...

    def current(self) -> SavedGame | None:
        """The game in progress when the daemon stopped, if any."""


class NullJournal:
    """Keeps nothing; ids count up so sessions can tell games apart."""

    def __init__(self) -> None:
        self._next = 1

    def begin(self, game: str, options: dict[str, Any], players: dict[str, str]) -> int:
        self._next += 1
        return self._next - 1

    def append(self, game_id: int, ply: int, move: str) -> None:
        pass

    def takeback(self, game_id: int, to_ply: int) -> None:
        pass

    def finish(self, game_id: int, outcome: Outcome) -> None:
        pass

    def abandon(self, game_id: int) -> None:
        pass

    def current(self) -> SavedGame | None:
        return None
