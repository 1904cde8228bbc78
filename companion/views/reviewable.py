"""Which journal games the engine may review (``binaryon review``, the table page's Review
button): a finished game only, and a game whose moves hold secrets only once it has revealed
them (docs/review.md): never a secret before."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.journal.rows import GameEntry


def refusal(entry: GameEntry) -> str | None:
    """Why ``entry`` may not be reviewed, in one line; None when it may."""
    from companion.journal.rows import FINISHED
    from companion.records.shown import has_secrets, revealed

    if entry.status != FINISHED:
        status = entry.status.replace("_", " ")
        return f"game {entry.id} is {status}: only a finished game is reviewed"
    if has_secrets(entry) and not revealed(entry):
        return f"game {entry.id} has not revealed its secrets: no review before"
    return None
