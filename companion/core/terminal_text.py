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


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: wide (East Asian) characters and most emoji
    take two, combining marks and zero-width characters none (``'Zoë'`` is 3 whichever way
    its ë is written, ``'李雷'`` is 4)."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` filled with spaces to ``width`` display columns (on the left when ``right``);
    never cut."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill
