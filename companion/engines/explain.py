"""The engine's suggested move in one short line, for the menu button's last hint step:
``hint e5: ON best 1101 (+2)``, ``hint f2: forced win``, ``hint: pass (no move)``.

Pure: the reason comes from the search's ``Result`` (a proof when it is ``complete``, the value
at its depth otherwise) and from the position after the move (the score change it makes). The
line fits two OLED lines; longer wordings fall back to shorter ones.
"""

from __future__ import annotations

import textwrap
from typing import Any, Final

from companion.engines.search import WIN, Result
from companion.games import get_spec

OLED_CHARS: Final = 21  # characters per OLED line
OLED_LINES: Final = 2


def fits(text: str) -> bool:
    """Does ``text`` wrap into the OLED's two message lines without being cut?"""
    return len(textwrap.wrap(text, OLED_CHARS, break_long_words=True)) <= OLED_LINES


def hint_line(state: Any, result: Result | None) -> str:
    """The hint for the player to act in ``state``, the search having answered ``result``."""
    if result is None or result.move is None:
        return "hint: no move"
    move = result.move
    name = move.name
    cells = move.cells
    if cells:
        head = f"hint {name}"
    else:  # a word: pass, end (a turn), swap
        head = "hint: " + {"pass": "pass (no move)", "end": "end (confirm)"}.get(name, name)
    proof = _proof(result)
    if proof:
        return _first_fitting(head, [proof])
    reasons = []
    if len(state.legal_moves()) == 1:
        if name == "pass":
            return _first_fitting(head, _outlook(result))  # "(no move)" says it already
        reasons.append("only move")
    if cells:
        reasons += get_spec(state.game).move_effect(state, state.play(move))
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
