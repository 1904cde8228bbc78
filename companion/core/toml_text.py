"""TOML read within bounds: ``tomllib`` recurses into nested arrays and inline tables, so a
file nested thousands deep would be a RecursionError (a 3,000-line traceback). Here it is a
``TOMLDecodeError`` like any other bad TOML, and so one line wherever TOML is read (the
config, an event file, a Binøme deck)."""

from __future__ import annotations

import tomllib
from typing import Any

from companion.core.wire_json import MAX_DEPTH, depth_of


def loads(text: str, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads``, and TOMLDecodeError when tables and arrays nest deeper than
    ``max_depth``."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(f"nested deeper than {max_depth}") from None
    if depth_of(data) > max_depth:
        raise tomllib.TOMLDecodeError(f"nested deeper than {max_depth}")
    return data
