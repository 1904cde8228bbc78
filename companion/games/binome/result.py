"""The end of a Binøme game: the winners, why the game ended, and the full account."""

from __future__ import annotations

from typing import Any

from ..base import Outcome
from .postulates import number_text
from .resolution import join_names


class BinomeResult:
    """The result of an ``engine.BinomeState`` (mixed into it; reads the scores, sheets and
    turns)."""

    def winners(self) -> tuple[str, ...]:
        top = max(self.scores)
        return tuple(p for p, s in zip(self.names, self.scores, strict=True) if s == top)

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        winners = self.winners()
        top = max(self.scores)
        if len(winners) == 1:
            summary = f"{winners[0]} wins with {top}"
            others = sorted(
                ((s, p) for p, s in zip(self.names, self.scores, strict=True) if p != winners[0]),
                key=lambda item: -item[0],
            )
            reason = f"{others[0][1]} next with {others[0][0]}" if others else "alone at the table"
        else:
            summary = f"{join_names(winners)} tie on {top}"
            reason = "equal top scores share the win"
        return Outcome(winners=winners, summary=summary, reason=reason, detail=self.detail())

    def end_reason(self) -> str:
        """Why the game ended: the deck ran out or a player used their last number."""
        if not self.over:
            return ""
        done = [p for p, u in zip(self.names, self.used, strict=True) if all(u)]
        if done:
            return f"{join_names(done)} used the last number"
        return "the last card was resolved"

    def detail(self) -> dict[str, Any]:
        """JSON-able account of the game: scores, cards, sheets (revealed), every turn."""
        return {
            "winners": list(self.winners()) if self.over else [],
            "scores": dict(zip(self.names, self.scores, strict=True)),
            "cards": {p: list(w) for p, w in zip(self.names, self.won, strict=True)},
            "sheets": {p: list(self.numbers(p)) for p in self.names},
            "turns": [
                {**r.to_json(), "claims": {p: number_text(n) for p, n in r.claims},
                 "explanation": r.explanation}
                for r in self.history
            ],
            "cards_left": len(self.remaining),
            "ended": self.end_reason(),
        }  # fmt: skip
