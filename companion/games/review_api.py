"""What a finished game's review is made of (docs/review.md), whoever made it: the engines'
search (``engines/review.py``, for the games an engine plays) or a game's own rules (Binøme's
claims, Latent Binaries' guesses: ``GameSpec.review()``). A leaf: it imports nothing of the
games, so a game's review and the engines' both hand out these values and the command, the
page and the board show them alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

LABEL_NAMES: Final = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game. ``before``: the mover's expected result with best play from
    the position it moved in; ``after``: with the move played; ``value_*`` the values behind
    them (the engine's, the mover's side; a game's own: its points) and ``proven_*`` whether
    they are exact; ``better``: the better move when another, and ``reason`` it in one line
    ("better e5: wins the race for the f-file"); the page and the terminal say it for an
    inaccuracy or worse. ``note``: what the move did, in the game's own words (Binøme's "44
    cancelled by Bob's 44"), '' when the move says it all."""

    ply: int  # the journal's ply of the move: 1 for the game's first move
    player: str  # the seat that moved
    move: str
    label: str
    before: float
    after: float
    value_before: int
    value_after: int
    proven_before: bool = False
    proven_after: bool = False
    better: str | None = None
    reason: str = ""
    note: str = ""

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    def as_dict(self) -> dict[str, Any]:
        out = {
            "ply": self.ply, "player": self.player, "move": self.move, "label": self.label,
            "before": round(self.before, 3), "after": round(self.after, 3),
            "drop": round(self.drop, 3), "proven": self.proven_before and self.proven_after,
            "better": self.better, "reason": self.reason,
        }  # fmt: skip
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Review:
    """The whole game's review. ``curve[k]``: the first seat's expected result after the
    game's first ``k`` moves (``curve[0]`` the start); ``turning_points``: the plies of the
    moves after which the other side was ahead, the mover's mistakes that handed the lead
    over. A game's own review reviews only the moves that are choices (Binøme's claims and
    passes, Latent Binaries' guesses): ``moves`` holds those, each with its journal ply, the
    curve a point for every move; ``intro`` is said before the moves (the die's digits) and
    ``headings[ply]`` before the move of that ply (a turn's postulate)."""

    game: str
    first: str  # the seat the curve is drawn for
    labels: dict[str, str] = field(default_factory=dict)  # each seat as the game names it
    moves: list[MoveReview] = field(default_factory=list)
    curve: list[float] = field(default_factory=list)
    turning_points: list[int] = field(default_factory=list)
    intro: list[str] = field(default_factory=list)
    headings: dict[int, str] = field(default_factory=dict)

    def counts(self) -> dict[str, dict[str, int]]:
        """Per seat, how many moves got each label."""
        out: dict[str, dict[str, int]] = {}
        for m in self.moves:
            seat = out.setdefault(m.player, {})
            seat[m.label] = seat.get(m.label, 0) + 1
        return out

    def move_at(self, ply: int) -> MoveReview | None:
        """The reviewed move of journal ply ``ply`` (None: a move not reviewed)."""
        return next((m for m in self.moves if m.ply == ply), None)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "first": self.first,
            "labels": self.labels,
            "moves": [m.as_dict() for m in self.moves],
            "curve": [round(e, 3) for e in self.curve],
            "turning_points": self.turning_points,
            "counts": self.counts(),
        }
        if self.intro:
            out["intro"] = list(self.intro)
        if self.headings:
            out["headings"] = {str(ply): line for ply, line in sorted(self.headings.items())}
        return out


# A game's own review (``GameSpec.review()``): from the game's resolved options, its journaled
# move names and a progress callback (done, total), the Review; ValueError with one line for a
# game it may not review (one that has not revealed its secrets) or a move that does not replay.
OwnReview = Callable[[dict[str, Any], Sequence[str], Callable[[int, int], None] | None], Review]


def replayed(state: Any, names: Sequence[str]) -> list[tuple[int, Any, Any, Any]]:
    """A game's moves played from ``state``: (ply, move, the state before, the state after)
    each, for a game's own review; ValueError with one line naming a move that does not
    replay."""
    steps = []
    for ply, name in enumerate(names, 1):
        try:
            move = state.parse_move(name)
            after = state.play(move)
        except ValueError as e:
            raise ValueError(f"move {ply} {name}: {str(e).splitlines()[0]}") from None
        steps.append((ply, move, state, after))
        state = after
    return steps
