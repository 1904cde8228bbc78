"""A result said by the people who played, in seat order (the first player first), never by
their seats: ``Ann beat Bob``, ``Ann drew with Bob``, ``Ann v Bob 1-0``; a player without a
name is said by their seat's label (``ON``)."""

from __future__ import annotations

from collections.abc import Sequence


def _listed(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def said(names: Sequence[str], winners: Sequence[str]) -> str:
    """``names``: everyone in seat order; ``winners``: those of them who won (none: a draw).
    ``Ann beat Bob``, ``Ann and Cat beat Bob``, ``Ann drew with Bob``, ``Ann, Bob and Cat
    drew``, ``Ann, Bob and Cat shared the win``."""
    won = [n for n in names if n in winners]
    lost = [n for n in names if n not in winners]
    if not won:
        if len(names) == 2:
            return f"{names[0]} drew with {names[1]}"
        return f"{_listed(names)} drew"
    if not lost:
        return f"{_listed(won)} shared the win" if len(won) > 1 else f"{won[0]} won"
    return f"{_listed(won)} beat {_listed(lost)}"


def score_line(names: Sequence[str], winners: Sequence[str]) -> str | None:
    """Two players: ``Ann v Bob 1-0`` (the first player's score first); None for more."""
    if len(names) != 2:
        return None
    first, second = (n in winners for n in names)
    score = {(True, False): "1-0", (False, True): "0-1"}.get((first, second), "1/2-1/2")
    return f"{names[0]} v {names[1]} {score}"


def people(seated: dict[str, str], seats: Sequence[str], label) -> list[str]:
    """Everyone in seat order by name, a seat without one by ``label(seat)``."""
    return [seated.get(s) or label(s) for s in seats]
