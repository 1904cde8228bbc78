"""The engine's suggested move in one short line, for the menu button's last hint step:
``hint e5: ON best 1101 (+2)``, ``hint f2: forced win``, ``hint: pass (no move)``.

Pure: the reason comes from the search's ``Result`` (a proof when it is ``complete``, the value
at its depth otherwise) and from the position after the move (the score change it makes). The
line fits two OLED lines; longer wordings fall back to shorter ones.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any, Final

from companion.engines.search import WIN, Result

OLED_CHARS: Final = 21  # characters per OLED line
OLED_LINES: Final = 2

# A game's effect of a move: wordings of what it does to the score, most telling first;
# [] when it changes neither side's score.
Effect = Callable[[Any, Any], list[str]]


def fits(text: str) -> bool:
    """Does ``text`` wrap into the OLED's two message lines without being cut?"""
    return len(textwrap.wrap(text, OLED_CHARS, break_long_words=True)) <= OLED_LINES


def move_cells(move: Any) -> tuple[int, ...]:
    """The cells a move lights: a square, both squares of a Wythe piece; () for a word."""
    if isinstance(move, bool):
        return ()
    if isinstance(move, int):
        return (move,)
    if isinstance(move, tuple) and all(isinstance(x, int) for x in move):
        return tuple(move)
    return ()


def hint_line(state: Any, result: Result | None) -> str:
    """The hint for the player to act in ``state``, the search having answered ``result``."""
    if result is None or result.move is None:
        return "hint: no move"
    move = result.move
    name = state.move_name(move)
    if move_cells(move):
        head = f"hint {name}"
    else:  # a word: pass, end (Binary's turn), swap (Wythe)
        head = "hint: " + {"pass": "pass (no move)", "end": "end (confirm)"}.get(name, name)
    proof = _proof(result)
    if proof:
        return _first_fitting(head, [proof])
    reasons = []
    if len(state.legal_moves()) == 1:
        if name == "pass":
            return _first_fitting(head, _outlook(result))  # "(no move)" says it already
        reasons.append("only move")
    effect = EFFECTS.get(state.game)
    if effect is not None and move_cells(move):
        reasons += effect(state, state.play(move))
    return _first_fitting(head, reasons + _outlook(result) + ["first look"])


def _first_fitting(head: str, reasons: list[str]) -> str:
    for reason in reasons:
        text = f"{head}: {reason}"
        if fits(text):
            return text
    return head


def _proof(result: Result) -> str:
    """What a complete search proved ('' when it did not see every line to its end)."""
    if not result.complete:
        return ""
    if result.value >= WIN:
        return "forced win"
    if result.value <= -WIN:
        return "lost anyway; best try"
    if result.value == 0 and result.depth > 0:
        return "holds a draw"
    return ""


def _outlook(result: Result) -> list[str]:
    """The value at the search's depth as a lead (values are 4 x the score difference, plus
    one for who the tie-break favours); nothing when no depth was finished."""
    if result.depth <= 0:
        return []
    lead = round(result.value / 4)
    if lead > 0:
        word = f"ahead by {lead}"
    elif lead < 0:
        word = f"behind by {-lead}"
    else:
        word = "even"
    return [f"{word} at depth {result.depth}", word]


# ------------------------------------------------------------------------- each game's score


def _change(
    who: str,
    other: str,
    mine: tuple[int, int],
    theirs: tuple[int, int],
    shown: Callable[[int], str],
) -> list[str]:
    """Wordings of a score change: the mover's own score up, else the opponent's down."""
    (mine0, mine1), (theirs0, theirs1) = mine, theirs
    if mine1 > mine0:
        d = mine1 - mine0
        return [f"{who} best {shown(mine1)} (+{d})", f"{who} +{d}"]
    if theirs1 < theirs0:
        d = theirs0 - theirs1
        return [f"{other} best {shown(theirs1)} (-{d})", f"{other} -{d}"]
    return []


def binaryon_effect(before: Any, after: Any) -> list[str]:
    """ON/OFF: the mover's best number up, or the opponent's down (as the numbers read)."""
    s0, s1 = before.score(), after.score()
    me = before.mover
    other = "off" if me == "on" else "on"
    best = {"on": (s0.on_best, s1.on_best), "off": (s0.off_best, s1.off_best)}
    return _change(me.upper(), other.upper(), best[me], best[other], s1.bits)


def binary_effect(before: Any, after: Any) -> list[str]:
    """Black/White: the mover's territory score up, or the opponent's down."""
    from companion.games.binary.board import other

    me = before.mover
    them = other(me)
    s0, s1 = before.score(), after.score()
    mine = (s0[me]["score"], s1[me]["score"])
    theirs = (s0[them]["score"], s1[them]["score"])
    return [
        w.replace(" best ", " score ") for w in _change(me.upper(), them.upper(), mine, theirs, str)
    ]


def wythe_effect(before: Any, after: Any) -> list[str]:
    """Black/White: the mover's group score up, or the opponent's down."""
    from companion.games.wythe.moves import BLACK, WHITE

    me = before.mover
    them = WHITE if me == BLACK else BLACK
    s0, s1 = before.score(), after.score()
    mine = (s0.of(me), s1.of(me))
    theirs = (s0.of(them), s1.of(them))
    return [
        w.replace(" best ", " scores ")
        for w in _change(me.capitalize(), them.capitalize(), mine, theirs, str)
    ]


EFFECTS: Final[dict[str, Effect]] = {
    "binaryon": binaryon_effect,
    "binary": binary_effect,
    "wythe": wythe_effect,
}
