"""A finished game's review: the engine goes through it move by move and says how much each
move changed the mover's expected result, which moves were best, good, inaccuracies, mistakes
or blunders, where the game turned, and for each mistake the better move with a one-line
reason worded like the menu's hints (``explain.hint_line``). Pure: no I/O, no threads; the
caller shows progress through ``progress(done, total)``.

The expected result of a position for a player is 1 (a win), 0.5 (a draw), 0 (a loss) when the
search proved it, else the logistic of the engine's value over the game's ``review_scale``
(its adapter's: the evaluation points of one logistic unit). A move's drop is the mover's
expected result with the best move minus that with the move played, both searched to the same
depth; the labels go by the drop (``LABELS``), the same thresholds in every game since each
game's scale is its own (docs/review.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from companion.engines.adapters import adapter_for
from companion.engines.explain import hint_line
from companion.engines.search import WIN, Limits, Result, Searcher
from companion.games import get_spec
from companion.games.review_api import MoveReview, Review

NODES: Final = 6000  # nodes searched a move by default: the same review on any machine
# The largest drop (in expected result, 0..1) each label allows; a move at least as good as
# the engine's own is "best"; above the last, a blunder.
LABELS: Final = (("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
BLUNDER: Final = "blunder"
EXPLAINED: Final = ("inaccuracy", "mistake", BLUNDER)  # labels that name the better move


class NotReviewable(ValueError):
    """A game the engine cannot review (no engine plays it, a move that does not replay): the
    message is one line for the user."""


def expected(value: int, scale: int, exact: bool = False) -> float:
    """The expected result (0..1) of an engine value for the side it is from: a proven win 1,
    a proven loss 0, a proven draw 0.5, else the logistic of ``value / scale``."""
    if value >= WIN:
        return 1.0
    if value <= -WIN:
        return 0.0
    if exact:
        return 0.5 if value == 0 else 1.0 if value > 0 else 0.0
    x = max(-60.0, min(60.0, value / scale))  # past that the share is 0 or 1 in floats anyway
    return 1.0 / (1.0 + math.exp(-x))


def label_of(drop: float, best: bool, lost_anyway: bool = False) -> str:
    """The label of a move that lowered its mover's expected result by ``drop``.
    ``lost_anyway``: the move walked into a proven loss from a position the search already
    saw as worse for the mover without proving it: the loss may have been there before, so
    it is a mistake at most (a blunder loses what was won or drawn)."""
    if best:
        return "best"
    for name, limit in LABELS:
        if drop <= limit:
            return name
    return "mistake" if lost_anyway else BLUNDER


def review_game(
    game: str,
    options: dict[str, Any],
    names: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
    nodes: int = NODES,
) -> Review:
    """Review the game of ``game`` with ``options`` played as ``names`` (the journal's full
    move names, the referee's passes included). ``nodes``: the search's budget per move.
    NotReviewable with one line when no engine plays the game or a move does not replay."""
    try:
        spec = get_spec(game)
    except ValueError as e:
        raise NotReviewable(f"no review for {game}: {e}") from None
    own = spec.review()
    if own is not None:
        try:
            return own(spec.resolve(dict(options)), list(names), progress)
        except ValueError as e:  # refused by the game (its secrets kept), or a wrong move
            raise NotReviewable(f"{game}: {str(e).splitlines()[0]}") from None
    try:
        adapter = adapter_for(game)
    except ValueError as e:
        raise NotReviewable(f"no review for {game}: {e}") from None
    try:
        state = spec.new(**spec.resolve(dict(options)))
    except ValueError as e:  # options a journal row got wrong: said, never a traceback
        raise NotReviewable(f"{game}: {str(e).splitlines()[0]}") from None
    first = adapter.mover(adapter.prepare(state))
    scale = adapter.review_scale
    out = Review(game, first, {p: spec.player_label(p) for p in state.players})
    total = len(names)
    for ply, name in enumerate(names, 1):
        if state.is_over():
            raise NotReviewable(f"move {ply} {name}: the game was already over")
        try:
            move = state.parse_move(name)
            after = state.play(move)
        except ValueError as e:
            raise NotReviewable(f"move {ply} {name}: {str(e).splitlines()[0]}") from None
        out.moves.append(_review_move(adapter, state, move, ply, scale, nodes))
        state = after
        if progress is not None:
            progress(ply, total)
    out.moves = _with_proofs(adapter, out.moves, state)
    out.curve = _curve(adapter, out, state)
    out.turning_points = _turning_points(out)
    return out


def _review_move(
    adapter: Any, state: Any, move: Any, ply: int, scale: int, nodes: int
) -> MoveReview:
    """One move: the search of the position it was played in, and the move played valued at
    the depth that search reached."""
    prepared = adapter.prepare(state)
    me = adapter.mover(prepared)
    searcher = Searcher(adapter, Limits(seconds=None, nodes=nodes))
    result = searcher.search(prepared)
    best_value = result.value
    exact = played_exact = result.complete
    if result.move == move or result.move is None:
        played_value = best_value
    else:
        played_value, played_exact = searcher.move_value(prepared, move, max(result.value_depth, 1))
    before = expected(best_value, scale, exact)
    after = expected(played_value, scale, played_exact)
    # as good as the engine's move, or proven to keep the proven value
    is_best = played_value >= best_value or (exact and played_exact and after >= before)
    if is_best:
        before = max(before, after)
    label = label_of(before - after, is_best, _lost_anyway(before, exact, after, played_exact))
    better, reason = None, ""
    if not is_best and result.move is not None:
        better = result.move.name
        reason = hint_line(state, result, word="better")
    return MoveReview(
        ply, me, move.name, label, before, after, best_value, played_value, exact,
        played_exact, better, reason,
    )  # fmt: skip


def _lost_anyway(before: float, proven_before: bool, after: float, proven_after: bool) -> bool:
    """A proven loss after a move from a position guessed worse than even for the mover."""
    return proven_after and after == 0.0 and not proven_before and before < 0.5


def judge(adapter: Any, state: Any, nodes: int = NODES) -> dict[Any, str]:
    """Each legal move of ``state`` (the rules engine's) labelled as a review would label it
    (a blunder on a guess looked at again from the position it leads to, as a review's next
    move would): what a player who only avoids blunders, or a tutor, goes by. One search of
    ``nodes`` and each other move valued at its depth."""
    return judged(adapter, state, nodes)[0]


def judged(adapter: Any, state: Any, nodes: int = NODES) -> tuple[dict[Any, str], Result | None]:
    """``judge``'s labels and the search behind them (its move the best; None when the only
    move needed no search)."""
    prepared = adapter.prepare(state)
    moves = adapter.moves(prepared)
    if len(moves) == 1:
        return {moves[0]: "best"}, None
    searcher = Searcher(adapter, Limits(seconds=None, nodes=nodes))
    result = searcher.search(prepared)
    scale = adapter.review_scale
    exact = result.complete
    before = expected(result.value, scale, exact)
    depth = max(result.value_depth, 1)
    out: dict[Any, str] = {}
    for move in moves:
        if move == result.move:
            out[move] = "best"
            continue
        value, proven = searcher.move_value(prepared, move, depth)
        after = expected(value, scale, proven)
        best = value >= result.value or (exact and proven and after >= before)
        label = label_of(before - after, best, _lost_anyway(before, exact, after, proven))
        if label == BLUNDER and not proven:  # as a review would: the next position's proof
            after, proven = _child_proof(adapter, prepared, move, nodes, after)
            best = exact and proven and after >= before
            label = label_of(before - after, best, _lost_anyway(before, exact, after, proven))
        out[move] = label
    return out, result


def _child_proof(
    adapter: Any, prepared: Any, move: Any, nodes: int, guess: float
) -> tuple[float, bool]:
    """The mover's expected result after ``move`` by a search of the position it leads to
    (the next move's own search in a review): (the proof, True) when it proves one, else
    (``guess``, False)."""
    me = adapter.mover(prepared)
    child = adapter.play(prepared, move)
    if adapter.is_over(child):
        winner = adapter.winner(child)
        return (0.5 if winner is None else float(winner == me)), True
    result = Searcher(adapter, Limits(seconds=None, nodes=nodes)).search(child)
    if not result.complete:
        return guess, False
    e = expected(result.value, adapter.review_scale, True)
    return (e if adapter.mover(child) == me else 1.0 - e), True


def _with_proofs(adapter: Any, moves: list[MoveReview], end: Any) -> list[MoveReview]:
    """Each move's ``after`` taken from what is proven after it, when its own search left it
    a guess: the next position's proof (its own search went deeper), or the game's result
    after its last move; the label follows the new drop (a best move stays best)."""
    out = []
    prepared = adapter.prepare(end)
    over = adapter.is_over(prepared)
    winner = adapter.winner(prepared) if over else None
    for k, m in enumerate(moves):
        after = None
        if m.proven_after:
            pass
        elif k + 1 < len(moves) and moves[k + 1].proven_before:
            nxt = moves[k + 1]
            same = nxt.player == m.player
            after = nxt.before if same else 1.0 - nxt.before
            value = nxt.value_before if same else -nxt.value_before
        elif k + 1 == len(moves) and over:
            after = 0.5 if winner is None else 1.0 if winner == m.player else 0.0
            value = 0 if winner is None else WIN if winner == m.player else -WIN
        if after is None:
            out.append(m)
            continue
        if m.label == "best":  # best play leads there: the position was worth as much
            out.append(replace(m, before=after, after=after, value_after=value,
                               proven_after=True))  # fmt: skip
            continue
        if m.proven_before and after >= m.before:  # proven to keep the proven value
            out.append(replace(m, after=after, value_after=value, proven_after=True,
                               label="best", better=None, reason=""))  # fmt: skip
            continue
        lost = _lost_anyway(m.before, m.proven_before, after, True)
        label = label_of(m.before - after, False, lost)
        out.append(replace(m, after=after, value_after=value, proven_after=True, label=label))
    return out


def _curve(adapter: Any, review: Review, end: Any) -> list[float]:
    """The first seat's expected result after each move: each move's ``after`` turned to the
    first seat's side; the last point the game's result."""
    curve = []
    for m in review.moves:
        curve.append(m.before if m.player == review.first else 1.0 - m.before)
    prepared = adapter.prepare(end)
    if adapter.is_over(prepared):
        winner = adapter.winner(prepared)
        curve.append(0.5 if winner is None else 1.0 if winner == review.first else 0.0)
    elif review.moves:
        last = review.moves[-1]
        curve.append(last.after if last.player == review.first else 1.0 - last.after)
    else:
        curve.append(0.5)
    return curve


def _turning_points(review: Review) -> list[int]:
    """The plies of the mistakes and blunders after which the other side was ahead (the first
    seat's expected result crossed one half against the mover)."""
    points = []
    for m in review.moves:
        if m.label not in (BLUNDER, "mistake"):
            continue
        if m.before > 0.5 >= m.after or m.before >= 0.5 > m.after:
            points.append(m.ply)
    return points
