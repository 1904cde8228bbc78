"""User text (a player's name from an imported record, a note, a move) made safe to print on
a terminal: control characters, which could move the cursor, recolour or retitle the
terminal, are shown as escapes (``\\x1b``) instead of being sent."""

from __future__ import annotations

import unicodedata

_SAFE_FORMAT = frozenset("\u200d")  # the zero-width joiner inside emoji sequences


def for_terminal(text: object) -> str:
    """``text`` with every control and format character (C0, DEL, C1, bidirectional
    overrides, line and paragraph separators) written as a visible escape."""
    value = str(text)
    if value.isprintable():
        return value
    out = []
    for ch in value:
        if ch.isprintable() or ch == " " or ch in _SAFE_FORMAT:
            out.append(ch)
        elif unicodedata.category(ch) in ("Zs",):
            out.append(" ")
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)
