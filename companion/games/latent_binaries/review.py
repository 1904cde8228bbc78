"""Latent Binaries' review of a finished game (docs/review.md, "Latent Binaries"): no engine
plays it (each player hides pawns), so the review goes by what each guesser knew. Only once
the game has revealed its secrets (``revealed()``: at its end) is it reviewed: before, the
review would show hidden pawns, so it is refused in one line.

For each guess (a colour challenged, an order named) the review counts the setups of the
opponent's nests that what had been shown by then allows: the colours hidden in all (their
stash, public once the setups were done), each nest's caps (a colour guessed right), the
colours guessed wrong on a nest, the orders shown or ruled out, the nests removed. Each
setup those facts allow counts once; a guess's chance is the share of them in which it is
right. A guess is sound when no other guess open to the guesser then had a better chance;
its label goes by how much chance it gave away (``LABELS``), a guess that could not be right
is a blunder, and the sound guess is named ("better challenge c5 green: 2 in 3").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any, Final

from ..review_api import MoveReview, Review, replayed
from .engine import LatentState, new_game
from .facts import RIGHT, truth
from .geometry import square_name
from .moves import Challenge, Order
from .options import PLAYERS, other

# The most chance (0..1) a guess may give away against the best guess open then, for each
# label; more is a blunder, and so is a guess that could not be right.
LABELS: Final = (("good", 0.10), ("inaccuracy", 0.20), ("mistake", 0.35))
# the curve: what each side has uncovered of the other's nests (a cap 1, a nest removed 3),
# one logistic unit of the difference
REMOVED: Final = 3
SCALE: Final = 2.0


@dataclass
class Known:
    """What the table has seen of one nest's hidden pawns (by its start square)."""

    owner: str
    has: set[str] = field(default_factory=set)  # colours guessed right (its caps)
    not_in: dict[str, int] = field(default_factory=dict)  # colour guessed wrong -> at ply
    top: str | None = None  # the order's top, once shown or ruled out
    pair: frozenset[str] | None = None  # both pawns, once shown or the nest removed


def label_of(best: float, chance: float) -> str:
    """A guess's label by the chance it gave away against the best guess open then."""
    if chance <= 0 < best:
        return "blunder"
    drop = best - chance
    if drop <= 1e-9:
        return "best"
    for name, limit in LABELS:
        if drop <= limit:
            return name
    return "blunder"


def review(
    options: dict[str, Any],
    names: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of the game played as ``names`` with ``options``; ValueError with one line
    for a game that has not revealed its secrets or a move that does not replay."""
    state = new_game(**options)
    steps = replayed(state, names)
    state = steps[-1][3] if steps else state
    if not state.revealed():  # checked before anything is read of the secrets
        raise ValueError("the game has not revealed its secrets: no review before")
    first = PLAYERS[0]
    out = Review("latent-binaries", first, {p: p.upper() for p in PLAYERS})
    out.curve.append(0.5)
    known: dict[int, Known] = {}
    hidden: dict[str, dict[str, int]] = {}
    total = len(steps)
    turns: list[tuple[int, bool]] = []
    for ply, move, before, after in steps:
        if before.phase == "setup" and after.phase != "setup":
            for p in PLAYERS:  # the stashes are public from here: the colours hidden
                left = after.stash_of(p)
                hidden[p] = {c: after.rules.pawns - k for c, k in left.items()}
                known.update({n.start: Known(p) for n in after.nests_of(p)})
        if isinstance(move, Challenge | Order):
            reviewed = _review_guess(ply, move, before, known, hidden)
            out.moves.append(reviewed)
            turns.append((ply, _turned(reviewed, before)))
            _learn(move, before, after, known, ply)
        out.curve.append(_standing(after, first))
        if progress is not None:
            progress(ply, total)
    winner = state.winner
    out.curve[-1] = 1.0 if winner == first else 0.5 if winner is None else 0.0
    out.intro = _intro(state)
    out.turning_points = [ply for ply, turned in turns if turned]
    return out


def _intro(end: LatentState) -> list[str]:
    """What each player hid, now that the game has shown it."""
    out = []
    for p in PLAYERS:
        nests = [n for n in end.nests_of(p)]
        hid = ", ".join(f"{square_name(n.square)} {n.top}/{n.bottom}" for n in nests)
        out.append(f"{p.upper()}'s nests left: {hid or 'none'}")
    out.append(f"result: {end.end_reason}")
    return out


def _standing(state: LatentState, first: str) -> float:
    """The first seat's share by what each side has uncovered of the other's nests."""

    def uncovered(player: str) -> int:
        theirs = state.nests_of(other(player))
        removed = state.rules.nests - len(theirs) if state.phase != "setup" else 0
        return sum(len(n.caps) for n in theirs) + REMOVED * removed

    lead = uncovered(first) - uncovered(other(first))
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


def _candidates(k: Known, colours: tuple[str, ...]) -> list[frozenset[str]]:
    if k.pair is not None:
        return [k.pair]
    return [
        frozenset(p)
        for p in combinations(colours, 2)
        if k.has <= set(p) and not (set(p) & set(k.not_in))
    ]


def chances(
    owner: str,
    colours: tuple[str, ...],
    known: dict[int, Known],
    hidden: dict[str, int],
) -> dict[int, dict[str, Fraction]]:
    """For each of ``owner``'s nests (by start square), each colour's chance to be hidden in
    it: the share of the setups the facts allow (each nest a pair of colours, every colour
    hidden exactly as often as the stash says) that put it there."""
    starts = sorted(s for s, k in known.items() if k.owner == owner)
    cands = [_candidates(known[s], colours) for s in starts]
    index = {c: i for i, c in enumerate(colours)}

    def minus(left: tuple[int, ...], pair: frozenset[str]) -> tuple[int, ...] | None:
        out = list(left)
        for c in pair:
            out[index[c]] -= 1
            if out[index[c]] < 0:
                return None
        return tuple(out)

    @cache
    def ways(i: int, left: tuple[int, ...], skip: int) -> int:
        if i == len(starts):
            return int(not any(left))
        if i == skip:
            return ways(i + 1, left, skip)
        total = 0
        for pair in cands[i]:
            rest = minus(left, pair)
            if rest is not None:
                total += ways(i + 1, rest, skip)
        return total

    start_left = tuple(hidden.get(c, 0) for c in colours)
    out: dict[int, dict[str, Fraction]] = {}
    for i, s in enumerate(starts):
        per_pair = {}
        for pair in cands[i]:
            rest = minus(start_left, pair)
            per_pair[pair] = ways(0, rest, i) if rest is not None else 0
        all_ways = sum(per_pair.values())
        out[s] = {
            c: Fraction(sum(w for p, w in per_pair.items() if c in p), all_ways)
            if all_ways
            else Fraction(0)
            for c in colours
        }
    return out


def _chance_of(
    move: Challenge | Order,
    state: LatentState,
    known: dict[int, Known],
    table: dict[int, dict[str, Fraction]],
) -> Fraction:
    nest = state.nest_at(move.target)
    assert nest is not None
    k = known[nest.start]
    if isinstance(move, Challenge):
        return table[nest.start].get(move.colour, Fraction(0))
    if k.top is not None:
        return Fraction(int(k.top == move.top))
    return Fraction(1, 2)


def _review_guess(
    ply: int,
    move: Challenge | Order,
    before: LatentState,
    known: dict[int, Known],
    hidden: dict[str, dict[str, int]],
) -> MoveReview:
    guesser = before.mover
    assert guesser is not None
    owner = other(guesser)
    table = chances(owner, before.rules.colours_of(owner), known, hidden[owner])
    open_guesses = [m for m in before.legal_moves() if isinstance(m, Challenge | Order)]
    chance = _chance_of(move, before, known, table)
    scored = [(_chance_of(m, before, known, table), m) for m in open_guesses]
    best_chance, best = max(scored, key=lambda item: item[0])
    label = label_of(float(best_chance), float(chance))
    better, reason = None, ""
    if label != "best" and best != move:
        better = best.name
        reason = f"better {best.name}: {_odds(best_chance)}"
    note = f"{_odds(chance)} given what was known"
    if chance == 0:
        note = _why_not(move, before, known, hidden[owner])
    note = f"{'right' if _right(move, before) else 'wrong'}: {note}"
    return MoveReview(
        ply, guesser, move.name, label, float(max(best_chance, chance)), float(chance),
        round(100 * best_chance), round(100 * chance), True, True, better, reason, note,
    )  # fmt: skip


def _right(move: Challenge | Order | Any, state: LatentState) -> bool:
    """Was ``move`` right? (The state knows every secret: the game has revealed them.)"""
    nest = state.nest_at(move.target)
    assert nest is not None
    return truth(nest, move, False) == RIGHT


def _turned(m: MoveReview, before: LatentState) -> bool:
    """A turning point: an unsound guess that was wrong where the sound one was right."""
    if m.label not in ("mistake", "blunder") or m.better is None:
        return False
    return not _right(before.parse_move(m.move), before) and _right(
        before.parse_move(m.better), before
    )


def _odds(chance: Fraction) -> str:
    if chance == 1:
        return "certain"
    if chance == 0:
        return "could not be right"
    return f"{chance.numerator} in {chance.denominator}"


def _why_not(
    move: Challenge | Order,
    state: LatentState,
    known: dict[int, Known],
    hidden: dict[str, int],
) -> str:
    """Why a guess could not be right, from what had been shown."""
    nest = state.nest_at(move.target)
    assert nest is not None
    k = known[nest.start]
    where = square_name(move.target)
    if isinstance(move, Order):
        return f"could not be right: {k.top} was known to be on top on {where}"
    if move.colour in k.not_in:
        at = k.not_in[move.colour]
        return f"could not be right: {move.colour} was ruled out on {where} at move {at}"
    if not hidden.get(move.colour):
        return f"could not be right: no {move.colour} was hidden"
    return f"could not be right: every setup the facts allow leaves {move.colour} out of {where}"


def _learn(
    move: Challenge | Order,
    before: LatentState,
    after: LatentState,
    known: dict[int, Known],
    ply: int,
) -> None:
    """What the answer to ``move`` showed the table."""
    nest = before.nest_at(move.target)
    assert nest is not None
    k = known[nest.start]
    now = after.nest_at(move.target)
    if isinstance(move, Challenge):
        if now is not None and len(now.caps) > len(nest.caps):
            k.has.add(move.colour)
        else:
            k.not_in[move.colour] = ply
        return
    if now is None:  # right: the nest is removed, its pawns shown
        k.pair, k.top = frozenset((move.top, move.bottom)), move.top
    elif now.shown:
        k.pair, k.top = frozenset((now.top or "", now.bottom or "")), now.top
    else:  # wrong, the order not shown: the other one it is
        k.top = move.bottom
