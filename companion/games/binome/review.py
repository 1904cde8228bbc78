"""Binøme's review of a finished game (docs/review.md, "Binøme"): no engine plays it (a die, a
shuffled deck, choices made at once), so the review goes by the game's own rules. Each turn
is told (the postulate, what it is worth, who claimed with what, who scored and why) and each
player's choice, a claim or a pass, is held against the other choices their own sheet held
then: every unused number that met the postulate, and a pass, each resolved again against
the other players' choices as the turn revealed them. The label goes by the points the
choice lost against the best of those (``label_of_points``); the better choice is named with
what it would have done ("better 67: would have won Contains 5, 3 points"). Pure.

Only a game over is reviewed: before its end the sheets and the numbers of the turns are
secrets (``revealed()``), and the review would show them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..review_api import MoveReview, Review, replayed
from .engine import BinomeState, new_game
from .moves import Claim, Decline, Draw, Roll
from .postulates import BY_ID, number_text
from .resolution import Resolution, X, join_names, resolve

# one logistic unit of a lead in points: a player 4 points ahead is at 73 % (the standing
# the curve and each choice's before/after are drawn in)
SCALE: Final = 4.0
# the most points a choice may lose for each label; more is a blunder. No points lost is
# best, or good when a number was spent for nothing that a pass would have kept.
POINT_LABELS: Final = (("inaccuracy", 1), ("mistake", 2))


@dataclass(frozen=True)
class Choice:
    """One player's choice in a turn, as made: ``number`` None for a pass."""

    ply: int
    player: str
    number: int | None
    burn: bool
    before: BinomeState  # the state it was made in


def label_of_points(lost: int, spent_for_nothing: bool = False) -> str:
    """A choice's label by the points it lost against the best choice its sheet held."""
    if lost <= 0:
        return "good" if spent_for_nothing else "best"
    for name, limit in POINT_LABELS:
        if lost <= limit:
            return name
    return "blunder"


def standing(scores: dict[str, int], player: str) -> float:
    """``player``'s expected result from a lead (or a gap) in points over the best of the
    others: 0.5 level, the logistic of the lead over ``SCALE``."""
    others = [s for p, s in scores.items() if p != player]
    lead = scores[player] - max(others) if others else 0
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


def review(
    options: dict[str, Any],
    names: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of the game played as ``names`` (the journal's full names) with
    ``options``; ValueError with one line for a game not over or a move that does not
    replay."""
    state = new_game(**options)
    steps = replayed(state, names)
    state = steps[-1][3] if steps else state
    if not state.is_over():  # before anything is read of the sheets
        raise ValueError("only a game that is over is reviewed: its sheets are still secret")
    end = state
    first = end.names[0]
    out = Review("binome", first, {p: p.upper() for p in end.names})
    out.curve.append(0.5)
    rolls: list[str] = []
    turn: list[Choice] = []
    total = len(names)
    for ply, move, state, after in steps:
        if isinstance(move, Roll):
            rolls.append(str(move.digit))
        elif isinstance(move, Draw):
            turn = []
        elif isinstance(move, Claim | Decline):  # on paper: the number told, or a pass
            number = move.number if isinstance(move, Claim) else None
            burn = isinstance(move, Claim) and move.burn
            turn.append(Choice(ply, _who(move, state), number, burn, state))
        if len(after.history) > len(state.history):  # the turn resolved
            if turn:
                out.headings[turn[0].ply] = _heading(state, after)
            out.moves.extend(_review_turn(state, after, turn))
            turn = []
        out.curve.append(standing(_scores(after), first))
        if progress is not None:
            progress(ply, total)
    winners = end.winners()
    out.curve[-1] = 1.0 if winners == (first,) else 0.5 if first in winners else 0.0
    out.intro = _intro(end, rolls)
    out.turning_points = [
        m.ply for m in out.moves if m.label in ("mistake", "blunder") and m.before >= 0.5 > m.after
    ]
    return out


def _who(move: Claim | Decline, state: BinomeState) -> str:
    who = move.player
    if who is None:  # a journal names the player; a bare move is the only one to act
        who = state.turn or ""
    return who


def _scores(state: BinomeState) -> dict[str, int]:
    return dict(zip(state.names, state.scores, strict=True))


def _intro(end: BinomeState, rolls: list[str]) -> list[str]:
    out = [f"the die: {' '.join(rolls)}"] if rolls else []
    for p in end.names:
        out.append(f"{p.upper()}'s numbers: {' '.join(end.numbers(p))}")
    scores = ", ".join(f"{p.upper()} {s}" for p, s in _scores(end).items())
    out.append(f"final scores: {scores} ({end.end_reason()})")
    return out


def _points_text(state: BinomeState, card: str) -> str:
    points = state.deck[card]
    return "X points, one per claimant" if points == X else f"{points} points"


def _heading(before: BinomeState, after: BinomeState) -> str:
    """The turn in one line: its postulate and worth, the resolution and the scores."""
    res = after.last_resolution
    assert res is not None and before.card is not None
    title = BY_ID[before.card].title
    turn = len(after.history)
    gains = ", ".join(f"{p.upper()} +{g}" for p, g in res.points if g)
    scored = f"; {gains}" if gains else ""
    scores = ", ".join(f"{p.upper()} {s}" for p, s in _scores(after).items())
    return (
        f"turn {turn}: {title} ({_points_text(before, before.card)}), chair "
        f"{before.chair.upper()}: {res.explanation}{scored}; scores {scores}"
    )


def _claims_with(
    state: BinomeState, res: Resolution, player: str, number: int | None
) -> list[tuple[str, int]]:
    """The turn's claims with ``player``'s choice replaced by ``number`` (None: a pass), in
    the order claimed."""
    chosen = dict(res.claims)
    if number is None:
        chosen.pop(player, None)
    else:
        chosen[player] = number
    return [(p, chosen[p]) for p in state.claim_order() if p in chosen]


def _resolved(state: BinomeState, claims: list[tuple[str, int]]) -> Resolution:
    assert state.card is not None
    opts = state.options
    return resolve(
        state.card,
        claims,
        state.deck[state.card],
        battle_royale=opts["battle_royale"],
        same_boat=opts["same_boat"],
    )


def _review_turn(before: BinomeState, after: BinomeState, turn: list[Choice]) -> list[MoveReview]:
    """Each choice of the turn that ``before`` (its last choice to come) resolved into
    ``after``."""
    res = after.last_resolution
    assert res is not None and before.card is not None
    start = {p: s - res.gained(p) for p, s in _scores(after).items()}
    return [_review_choice(c, before, res, start) for c in turn]


def _review_choice(
    c: Choice, last: BinomeState, res: Resolution, start: dict[str, int]
) -> MoveReview:
    card = last.card
    assert card is not None
    postulate = BY_ID[card]
    eligible = sorted(set(c.before.eligible_numbers(c.player)), key=postulate.rank)
    eligible.reverse()  # the strongest first: the first of equal gains is named
    options: list[int | None] = [None, *eligible]
    outcomes: dict[int | None, tuple[int, float, Resolution]] = {}
    for alt in options if c.number in options else [*options, c.number]:
        alt_res = _resolved(last, _claims_with(last, res, c.player, alt))
        scores = {p: start[p] + alt_res.gained(p) for p in start}
        outcomes[alt] = (alt_res.gained(c.player), standing(scores, c.player), alt_res)
    gain, after, _ = outcomes[c.number]
    best_gain = max(g for g, _, _ in outcomes.values())
    best = next(alt for alt in outcomes if outcomes[alt][0] == best_gain)  # a pass first
    spent = c.number is not None and gain == 0
    label = label_of_points(best_gain - gain, spent)
    if c.burn and label in ("best", "good"):
        label = "inaccuracy"  # a number that never met the postulate: knowable at the time
    before = max(after, outcomes[best][1])
    better, reason = None, ""
    if label != "best" and best != c.number:
        better = _move_name(c.player, best)
        reason = _better_words(best, outcomes[best][0], postulate.title)
    note = _note(c, res, gain, outcomes, postulate.title)
    if c.before.on_paper(c.player):  # what else the sheet held is not known
        said = note.split(":")[0] if c.number is None else note
        note = f"{said} (a sheet on paper: no other number of it known)"
    return MoveReview(
        c.ply, c.player, _move_name(c.player, c.number, c.burn), label, before, after,
        best_gain, gain, True, True, better, reason, note,
    )  # fmt: skip


def _move_name(player: str, number: int | None, burn: bool = False) -> str:
    if number is None:
        return Decline(player).name
    return Claim(number, player, burn=burn).name


def _better_words(best: int | None, gain: int, title: str) -> str:
    if best is None:
        return "better pass: no number of yours would have scored; a pass keeps them"
    won = f"would have won {title}, {gain} point{'s' * (gain != 1)}"
    return f"better {number_text(best)}: {won}"


def _note(
    c: Choice,
    res: Resolution,
    gain: int,
    outcomes: dict[int | None, tuple[int, float, Resolution]],
    title: str,
) -> str:
    """What the choice did, and what a pass or a better number would have done."""
    if c.number is None:
        scorers = [n for n, g in outcomes.items() if n is not None and g[0] > 0]
        if scorers:
            shown = number_text(max(scorers, key=lambda n: outcomes[n][0]))
            return f"passed; {shown} would have won {title}"
        return "passed: no number of yours would have won"
    mine = number_text(c.number)
    why = dict(res.eliminated).get(c.player)
    if gain > 0:
        said = f"{mine} won {gain} point{'s' * (gain != 1)}"
    elif why == "ineligible":
        said = f"{mine} does not meet {title}: burned"
    elif why == "identical":
        twins = [p.upper() for p, n in res.claims if n == c.number and p != c.player]
        said = f"{mine} cancelled with {join_names(twins)}'s {mine}"
    else:
        said = f"{mine} beaten: {res.explanation}"
    if gain == 0:
        said += f"; a pass would have kept {mine}"
        passed = outcomes[None][2]
        if passed.winners != res.winners and passed.winners:
            said += f" and let {join_names([p.upper() for p in passed.winners])} win"
    return said
