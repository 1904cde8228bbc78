"""The engine's suggested move in one short line, for the menu button's last hint step:
``hint e5: wins the race for the f-file``, ``hint f2: forced win``, ``hint: pass (no move)``.

Pure. The reason is said in the game's own terms: what a complete search proved, else what
the line the search expects (its move, then the replies it foresees) comes to on the board
(``GameSpec.line_effect``), what the move does to the score (``move_effect``), or plainly
what the move does (``move_words``). Never the search's depth or its values: those mean
nothing to a player. The line fits two OLED lines; longer wordings fall back to shorter ones.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, Final

from companion.engines.search import WIN, Result
from companion.games import get_spec

OLED_CHARS: Final = 21  # characters per OLED line
OLED_LINES: Final = 2
LINE_MOVES: Final = 12  # how far the reason follows the line (a 1 s search sees about as far)


def fits(text: str) -> bool:
    """Does ``text`` wrap into the OLED's two message lines without being cut?"""
    return len(textwrap.wrap(text, OLED_CHARS, break_long_words=True)) <= OLED_LINES


def hint_line(state: Any, result: Result | None, word: str = "hint") -> str:
    """The hint for the player to act in ``state``, the search having answered ``result``;
    ``word`` heads it ("better e5: ..." in a game's review)."""
    if result is None or result.move is None:
        return f"{word}: no move"
    move = result.move
    name = move.name
    cells = move.cells
    if cells:
        head = f"{word} {name}"
    else:  # a word: pass, end (a turn), swap
        head = f"{word}: " + {"pass": "pass (no move)", "end": "end (confirm)"}.get(name, name)
    proof = _proof(result)
    if proof:
        return _first_fitting(head, [proof])
    spec = get_spec(state.game)
    reasons = []
    if len(state.legal_moves()) == 1 and name != "pass":  # "(no move)" says it already
        reasons.append("only move")
    reasons += spec.line_effect(state, follow(state, _line(result)))
    if cells:
        reasons += spec.move_effect(state, state.play(move))
    reasons.append(spec.move_words(state, move))
    return _first_fitting(head, reasons)


def follow(state: Any, line: Sequence[Any]) -> Any:
    """The state at the end of ``line``, played while each move is legal in turn (a line cut
    short by the end of the game, or by a move the rules refuse, ends there)."""
    for move in line[:LINE_MOVES]:
        if state.is_over() or state.check(move) is not None:
            break
        state = state.play(move)
    return state


def _line(result: Result) -> list[Any]:
    """The search's expected line from its move on (its move alone when the line is another's:
    a deeper depth that did not finish changed the move)."""
    line = list(result.line)
    return line if line and line[0] == result.move else [result.move]


def _first_fitting(head: str, reasons: list[str]) -> str:
    for reason in filter(None, reasons):
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
