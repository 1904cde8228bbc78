"""Latent Binaries states built directly, in the middle of a game, for the tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.latent_binaries.engine import LatentState
from companion.games.latent_binaries.geometry import parse_square
from companion.games.latent_binaries.nest import Nest
from companion.games.latent_binaries.options import PLAYERS, RAINBOW, rules
from companion.games.latent_binaries.phases import CHALLENGE, MARKER, MOVE


def arranged(
    placement: Mapping[str, tuple[str, str, str]],
    /,
    *,
    mover: str = RAINBOW,
    phase: str = MOVE,
    turns: tuple[int, int] = (2, 2),
    caps: Mapping[str, tuple[str, ...]] | None = None,
    markers: tuple[int, int] | None = None,
    **options: Any,
) -> LatentState:
    """A state in the middle of a game, for analysis and tests: ``nests`` maps a square to
    (owner, top, bottom); ``caps`` a square to its caps; the stashes hold the rest."""
    if phase not in (MOVE, CHALLENGE, MARKER):
        raise ValueError(f"phase must be move, challenge or marker, got {phase!r}")
    r = rules(options)
    caps = caps or {}
    placed = []
    for name, (owner, top, bottom) in placement.items():
        sq = parse_square(name)
        capped = tuple(caps.get(name, ()))
        placed.append(Nest(owner, sq, sq, top, bottom, capped))
    stash = [list(r.pawns for _ in cols) for cols in r.colours]
    for n in placed:
        k = PLAYERS.index(n.owner)
        for c in (n.top, n.bottom, *n.caps):
            stash[k][r.colours[k].index(c)] -= 1
    if any(v < 0 for counts in stash for v in counts):
        raise ValueError("more pawns of a colour than the game has")
    s = LatentState(
        rules=r,
        nests=tuple(sorted(placed, key=lambda n: n.square)),
        stash=(tuple(stash[0]), tuple(stash[1])),
        markers=r.bases if markers is None else markers,
        phase=phase,
        mover=mover,
        turns=turns,
    )
    return s
