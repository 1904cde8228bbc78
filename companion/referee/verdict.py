"""What the referee decided about one input, for the table to show: a frozen ``Verdict``.

Every ``Referee`` method that acts returns one; the service shows it (messages, marks, the
pages) and answers a web page from it. Cells are the game's own: the presenter maps them to
the board's squares.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum

from companion.games.base import Hint, Pending, Refusal
from companion.referee.session import Played


class Change(IntEnum):
    """How the game moved without the board (a sensor board must catch up)."""

    NONE = 0
    TAKEN_BACK = 1  # undo, or a takeback agreed on the pages
    NEW = 2  # another game (or a paused one taken up): new layout, new sensing


PageNote = tuple[str, str, tuple[tuple[str, str], ...]]  # page, line, actions (move, label)


@dataclass(frozen=True)
class Verdict:
    """``None`` in a field leaves what the table shows as it is; ``differ=()`` clears the
    squares to fix and ``say=""`` the message."""

    played: tuple[Played, ...] = ()  # the move, then the forced moves and chance steps
    refusal: Refusal | None = None
    quiet: bool = False  # the refusal is the page's alone: the table hears only ``say``
    refused: int | None = None  # the cell of the refused move
    differ: tuple[int, ...] | None = None  # cells where the board does not match the game
    fix: str = ""  # what puts them right (stays on the OLED while they differ)
    hint: Hint | None = None  # a hint to light
    pending: Pending | None = None  # a move being entered: its cells so far, what comes next
    say: str | None = None
    lasting: bool = False  # ``say`` stays until replaced (else for the message time)
    page: PageNote | None = None  # a line for one player's page only
    changed: Change = Change.NONE

    @property
    def accepted(self) -> bool:
        return bool(self.played)

    @property
    def names(self) -> list[str]:
        """Public names of what was played (what the table may be told)."""
        return [p.public for p in self.played]

    def then(self, later: Verdict) -> Verdict:
        """This verdict followed by ``later`` (a sensor board's several moves at once): the
        moves of both, the later one's words and marks where it has them."""
        merged = {
            f.name: getattr(later, f.name)
            if getattr(later, f.name) is not None
            else getattr(self, f.name)
            for f in fields(self)
        }
        merged["played"] = self.played + later.played
        merged["changed"] = max(self.changed, later.changed)
        merged["fix"] = later.fix if later.differ is not None else self.fix
        merged["lasting"] = later.lasting if later.say is not None else self.lasting
        merged["quiet"] = later.quiet if later.refusal is not None else self.quiet
        return Verdict(**merged)


NOTHING = Verdict()


def said(text: str, lasting: bool = False) -> Verdict:
    return Verdict(say=text, lasting=lasting)
