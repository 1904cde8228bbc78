"""Resolving one Binøme turn: who wins a postulate, who is eliminated and why. Pure.

Order (docs/rules/binome.md): a claim whose number is not eligible is eliminated
("ineligible"); every number chosen by more than one remaining claimant is eliminated
("identical"); of the rest the best number wins, ties to the greater number, the others are
"beaten". Nobody left: no winner (the card is discarded, the chair stays).

Variants: ``battle_royale`` gives the winner(s) one extra point when three or more players
claimed; ``same_boat`` makes every claimant left after the identical numbers are cancelled a
winner, but only when some numbers were identical (otherwise only the best wins).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .postulates import get, number_text

X: Final = "X"  # card points equal to the number of claimants, eliminated included
Points = int | str  # a whole number, or X

INELIGIBLE, IDENTICAL, BEATEN = "ineligible", "identical", "beaten"


@dataclass(frozen=True)
class Resolution:
    postulate: str
    claims: tuple[tuple[str, int], ...]  # (name, number) in the order claimed
    winners: tuple[str, ...]  # best number first; () when the card is discarded
    eliminated: tuple[tuple[str, str], ...]  # (name, reason) in claim order
    points: tuple[tuple[str, int], ...]  # every claimant's gain, 0 for the others
    explanation: str  # e.g. "44 wins: 88 and 88 cancelled; 22 lower"

    @property
    def taker(self) -> str | None:
        """Who takes the card and the chairperson token (the best winner)."""
        return self.winners[0] if self.winners else None

    def gained(self, name: str) -> int:
        return dict(self.points).get(name, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "postulate": self.postulate,
            "winners": list(self.winners),
            "eliminated": dict(self.eliminated),
            "points": dict(self.points),
        }


def card_value(points: Points, claimants: int) -> int:
    """A card's victory points for this turn (X = the number of claimants)."""
    return claimants if points == X else int(points)


def join_names(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def resolve(
    postulate_id: str,
    claims: Sequence[tuple[str, int]],
    points: Points,
    *,
    battle_royale: bool = False,
    same_boat: bool = False,
) -> Resolution:
    """Resolve the claims (name, number 0..99) on one postulate worth ``points``."""
    p = get(postulate_id)
    names = [name for name, _ in claims]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"{dup} claims twice")
    for name, number in claims:
        if not 0 <= number <= 99:
            raise ValueError(f"{name}: {number} is not a two-digit number")
    eligible = [(n, v) for n, v in claims if p.eligible(v)]
    counts = Counter(v for _, v in eligible)
    left = sorted(((n, v) for n, v in eligible if counts[v] == 1), key=lambda c: p.rank(c[1]))
    left.reverse()  # best first
    cancelled = any(c > 1 for c in counts.values())
    if not left:
        winners: list[tuple[str, int]] = []
    elif same_boat and cancelled:
        winners = left
    else:
        winners = left[:1]
    winner_names = {n for n, _ in winners}
    value = card_value(points, len(claims))
    if battle_royale and len(claims) >= 3:
        value += 1
    reasons: dict[str, str] = {}
    for n, v in claims:
        if not p.eligible(v):
            reasons[n] = INELIGIBLE
        elif counts[v] > 1:
            reasons[n] = IDENTICAL
        elif n not in winner_names:
            reasons[n] = BEATEN
    return Resolution(
        postulate=p.id,
        claims=tuple((n, v) for n, v in claims),
        winners=tuple(n for n, _ in winners),
        eliminated=tuple((n, reasons[n]) for n in names if n in reasons),
        points=tuple((n, value if n in winner_names else 0) for n in names),
        explanation=_explain(p.id, claims, winners, reasons),
    )


def _explain(
    postulate_id: str,
    claims: Sequence[tuple[str, int]],
    winners: Sequence[tuple[str, int]],
    reasons: dict[str, str],
) -> str:
    p = get(postulate_id)
    if not claims:
        return "card discarded: no claims"
    win_nums = [number_text(v) for _, v in winners]
    if not winners:
        head = "card discarded"
    elif len(winners) == 1:
        head = f"{win_nums[0]} wins"
    else:
        head = f"{join_names(win_nums)} win"
    parts = []
    ineligible = [number_text(v) for n, v in claims if reasons.get(n) == INELIGIBLE]
    if ineligible:
        parts.append(f"{join_names(ineligible)} not eligible")
    groups: dict[int, int] = {}
    for n, v in claims:
        if reasons.get(n) == IDENTICAL:
            groups[v] = groups.get(v, 0) + 1
    for v, k in groups.items():
        parts.append(" and ".join([number_text(v)] * k) + " cancelled")
    if winners:
        best_key = p.key(winners[-1][1])  # the weakest winner: same-boat winners never lose
        by_reason: dict[str, list[str]] = {}
        for n, v in claims:
            if reasons.get(n) == BEATEN:
                why = "lower" if p.key(v) == best_key else p.worse
                by_reason.setdefault(why, []).append(number_text(v))
        parts.extend(f"{join_names(nums)} {why}" for why, nums in by_reason.items())
    return f"{head}: {'; '.join(parts)}" if parts else head
