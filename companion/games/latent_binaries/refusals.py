"""Why a move is refused: one function per kind of move, each returning a Refusal (a stable
code and a reason that fits two OLED lines) or None. The engine calls these after checking that
the move comes at the right step of the turn from the right player."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..base import Refusal
from .geometry import STEPS, WIDTH, square_name
from .moves import Challenge, Marker, Order, Setup, Step
from .options import MIN_LEFT, RAINBOW, XENO, other

if TYPE_CHECKING:
    from .engine import LatentState


def fillable(spare: Iterable[int], nests: int) -> bool:
    """Can ``nests`` nests each get two pawns of different colours, with ``spare`` pawns of
    each colour to hide? (Each colour goes at most once into a nest.)"""
    return sum(min(s, nests) for s in spare) >= 2 * nests


def setup_refusal(state: LatentState, player: str, move: Setup) -> Refusal | None:
    name = square_name(move.square)
    nest = state.nest_at(move.square)
    if nest is None or nest.owner != player:
        return Refusal("not-a-start", f"{name}: no {player} nest to set up")
    if nest.is_set:
        return Refusal("already-set", f"{name}: already set up")
    cols = state.rules.colours_of(player)
    for c in (move.top, move.bottom):
        if c not in cols:
            return Refusal("not-your-colour", f"{c[:12]}: not a {player} colour")
    if move.top == move.bottom:
        return Refusal("same-colour", f"{name}: two different colours")
    stash = state.stash_of(player)
    for c in (move.top, move.bottom):
        if stash[c] - 1 < MIN_LEFT:
            return Refusal("stash-too-low", f"{c}: {MIN_LEFT} must stay in stash")
    left = sum(1 for n in state.nests_of(player) if not n.is_set) - 1
    spare = [k - MIN_LEFT - (c in (move.top, move.bottom)) for c, k in stash.items()]
    if not fillable(spare, left):
        return Refusal("setup-stuck", f"{name}: other nests can't be filled")
    return None


def step_refusal(state: LatentState, player: str, move: Step) -> Refusal | None:
    src, dst = square_name(move.src), square_name(move.dst)
    nest = state.nest_at(move.src)
    if nest is None or nest.owner != player:
        return Refusal("no-nest", f"{src}: not your nest")
    if move.dst == move.src:
        return Refusal("not-adjacent", f"{dst}: not a step from {src}")
    r0, f0 = divmod(move.src, WIDTH)
    r1, f1 = divmod(move.dst, WIDTH)
    if abs(r0 - r1) + abs(f0 - f1) != 1:
        return Refusal("not-adjacent", f"{dst}: not a step from {src}")
    if not STEPS[move.src] >> move.dst & 1:
        return Refusal("goal-row", f"{dst}: goal row, no nests")
    if state.occupied() >> move.dst & 1:
        return Refusal("occupied", f"{dst}: a nest is there")
    return None


def guess_refusal(state: LatentState, player: str, move: Challenge | Order) -> Refusal | None:
    name = square_name(move.target)
    nest = state.nest_at(move.target)
    opponent = other(player)
    if nest is None or nest.owner != opponent:
        return Refusal("no-nest", f"{name}: no {opponent} nest")
    if state.target is not None and move.target != state.target:
        return Refusal("one-nest", f"{name}: keep to {square_name(state.target)}")
    if nest not in state.in_sight(player):
        return Refusal("not-in-sight", f"{name}: not in sight")
    cols = state.rules.colours_of(opponent)
    if isinstance(move, Challenge):
        if move.colour not in cols:
            return Refusal("not-a-colour", f"{move.colour[:12]}: not a {opponent} colour")
        if len(nest.caps) == 2:
            return Refusal("two-caps", f"{name}: two caps, guess order")
        if move.colour in nest.caps:
            return Refusal("already-capped", f"{name}: {move.colour} capped")
        if state.stash_of(opponent)[move.colour] == 0:
            return Refusal("not-in-stash", f"{move.colour}: none in stash")
        return None
    if len(nest.caps) < 2:
        return Refusal("needs-two-caps", f"{name}: order needs two caps")
    if move.top == move.bottom or {move.top, move.bottom} != set(nest.caps):
        return Refusal("not-the-caps", f"{name}: caps are {'/'.join(nest.caps)}")
    return None


def marker_refusal(state: LatentState, move: Marker) -> Refusal | None:
    if move in state.marker_moves():
        return None
    src = square_name(move.src)
    markers = {m for pair in (state.base(RAINBOW), state.base(XENO)) for m in pair}
    if move.src not in markers:
        return Refusal("not-a-marker", f"{src}: no marker there")
    return Refusal("not-a-jump", f"{square_name(move.dst)}: not a jump from {src}")
