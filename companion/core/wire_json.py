"""JSON from the network or a file read within bounds: the payload's length is checked before
anything is decoded (a 24 MB message costs no more than its refusal), then the nesting depth
(``json`` recurses: a deep message is refused as too deep, never a traceback)."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32  # containers inside one another (a board's table view is about 6 deep)


class WireRefused(ValueError):
    """A payload refused, as one line; ``kind`` says why (``size``, ``depth``, ``json``,
    ``shape``) for a log that counts refusals by kind."""

    def __init__(self, kind: str, line: str):
        super().__init__(line)
        self.kind = kind


def depth_of(value: Any) -> int:
    """How many containers deep ``value`` goes (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((c, level + 1) for c in children if isinstance(c, dict | list))
    return deepest


def load_json(payload: bytes | str, limit: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``payload``; WireRefused when it is over ``limit`` bytes (checked
    first), not UTF-8 JSON, or nested deeper than ``max_depth``."""
    if len(payload) > limit:
        raise WireRefused("size", f"{len(payload)} bytes, over {limit}")
    try:
        value = json.loads(payload.decode("utf-8") if isinstance(payload, bytes) else payload)
    except RecursionError:
        raise WireRefused("depth", f"nested deeper than {max_depth}") from None
    except (UnicodeDecodeError, ValueError):
        raise WireRefused("json", "not UTF-8 JSON") from None
    if depth_of(value) > max_depth:
        raise WireRefused("depth", f"nested deeper than {max_depth}")
    return value


def load_object(payload: bytes | str, limit: int, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``load_json``, and the value must be a JSON object."""
    value = load_json(payload, limit, max_depth)
    if not isinstance(value, dict):
        raise WireRefused("shape", "not a JSON object")
    return value
