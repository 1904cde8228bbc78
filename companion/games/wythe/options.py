"""Wythe's game options: board size and the pie rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..base import Option, resolve_options

OPTIONS: Final = (
    Option("size", 8, "squares per side (4..16)", kind=int, minimum=4, maximum=16),
    Option("pie", True, "White may swap sides on their first turn", kind=bool),
)


def resolve(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return resolve_options(OPTIONS, dict(given or {}))
