"""Binøme chaired by voice, as the game's own assistant does: the die, each postulate with its
condition and points, who claims or passes (never the number before the resolution), the
resolution explained, the scores and the end. Only what the table page shows."""

from __future__ import annotations

from companion.games.binome.engine import OVER, BinomeState
from companion.games.binome.moves import Claim, Decline, Draw, Roll, Veiled
from companion.games.binome.postulates import BY_ID, number_text
from companion.games.binome.resolution import X

DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def points_words(state: BinomeState, card: str) -> str:
    points = state.deck[card]
    if points == X:
        return "as many points as there are claimants"
    return "one point" if points == 1 else f"{points} points"


def scores_words(state: BinomeState) -> str:
    return "Scores: " + ", ".join(
        f"{p} {s}" for p, s in zip(state.players, state.scores, strict=True)
    )


def spoken(before: BinomeState, move: object, after: BinomeState) -> str:
    """The chair's line for ``move``."""
    lines: list[str] = []
    if isinstance(move, Roll):
        lines.append(f"The die shows {DIGIT_WORDS[move.digit]}.")
    elif isinstance(move, Draw):
        lines.append(
            f"Postulate: {BY_ID[move.card].title}, for {points_words(after, move.card)}. "
            "Claim or pass."
        )
    elif isinstance(move, Claim) and move.player and before.asked_number(move.player):
        lines.append(f"{move.player}: {number_text(move.number)}.")  # told aloud on paper
    elif isinstance(move, Veiled) and move.verb == "write":
        lines.append(f"{move.player} wrote.")
    elif isinstance(move, Claim) or (isinstance(move, Veiled) and move.verb == "claim"):
        lines.append(f"{move.player} claims.")
    elif isinstance(move, Decline):
        lines.append(f"{move.player} passes.")
    # a digit written is said by nobody: the next roll (or the first postulate) tells the
    # table that everybody wrote
    if len(after.history) > len(before.history):
        last = after.history[-1]
        lines.append(f"{last.explanation}.")
        lines.append(scores_words(after) + ".")
    asked = [p for p in after.claim_order() if p in after.waiting] if after.paper else []
    if asked and len(after.history) == len(before.history):
        lines.append(f"{asked[0]}, your number?")  # paper sheets: each claimant in turn
    if after.phase == OVER and before.phase != OVER:
        outcome = after.outcome()
        if outcome is not None:
            lines.append(f"Game over: {outcome.summary}. {after.end_reason()}.")
    return " ".join(line for line in lines if line)
