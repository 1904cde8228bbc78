"""A person's name from the network or a file (a pairing, an event, an arbiter's ``--by``):
one short line that every screen can show, never a way to move a terminal's cursor or to
grow a page without end."""

from __future__ import annotations

import unicodedata

MAX_NAME = 40  # characters: an OLED line and a page's column hold it
_JOINERS = frozenset("\u200c\u200d")  # format characters inside words and emoji sequences
_CONTROL = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co"))


def is_control(ch: str) -> bool:
    """A control, format (bidirectional overrides), line-separator, surrogate or private-use
    character, the joiners written inside words and emoji apart."""
    return unicodedata.category(ch) in _CONTROL and ch not in _JOINERS


def name_problem(value: object, limit: int = MAX_NAME) -> str | None:
    """Why ``value`` is not a name (a few words, without quoting a long value back), or
    None. A name is a text of 1 to ``limit`` characters, not only spaces, without control,
    format (but joiners) or line-separator characters."""
    if not isinstance(value, str):
        return "a name is a text"
    if not value.strip():
        return "a name cannot be empty"
    if len(value) > limit:
        return f"a name of {len(value)} characters: at most {limit}"
    if any(is_control(c) for c in value):
        return "a name cannot hold control characters"
    return None
