"""Invariants of the Binaryon engine, checked with hypothesis."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.squares import neighbours
from companion.games import get_spec
from companion.games.base import places
from companion.games.binaryon.engine import PASS, BinaryonState, legal_squares
from companion.games.binaryon.lines import all_lines
from companion.games.binaryon.scoring import score_cells
from companion.games.binaryon.tables import rules

SIZES = st.sampled_from([4, 6, 8])


@st.composite
def boards(draw, sizes=SIZES):
    n = draw(sizes)
    cells = draw(st.lists(st.sampled_from("xo"), min_size=n * n, max_size=n * n))
    return n, cells


def pairs_by_hand(cells: list[str], n: int) -> int:
    return sum(1 for i in range(n * n) for j in neighbours(i, n) if j > i and cells[i] == cells[j])


def in_line_by_hand(a: int, b: int, n: int) -> bool:
    return a != b and any(a in ln and b in ln for ln in all_lines(n))


def legal_by_hand(cells: list[str], n: int, mover: str, last: int | None) -> list[int]:
    colour = "x" if mover == "on" else "o"
    out = []
    for t in range(n * n):
        if cells[t] != colour or (last is not None and not in_line_by_hand(t, last, n)):
            continue
        nbrs = neighbours(t, n)
        same = sum(1 for s in nbrs if cells[s] == colour)
        if 2 * same > len(nbrs):
            out.append(t)
    return out


@settings(max_examples=60, deadline=None)
@given(boards(), st.sampled_from(["on", "off"]), st.data())
def test_legal_squares_match_the_rules_by_hand(board, mover, data):
    n, cells = board
    last = data.draw(st.integers(0, n * n - 1))
    assert legal_squares(cells, n, mover, last, {"opening": "majority"}) == legal_by_hand(
        cells, n, mover, last
    )
    # the opening with the majority condition ignores the line rule only
    assert legal_squares(cells, n, mover, None, {"opening": "majority"}) == legal_by_hand(
        cells, n, mover, None
    )


@settings(max_examples=60, deadline=None)
@given(boards(), st.sampled_from(["on", "off"]), st.data())
def test_check_is_none_iff_the_move_is_listed(board, mover, data):
    n, cells = board
    last = data.draw(st.none() | st.integers(0, n * n - 1))
    state = BinaryonState.from_cells(cells, n, mover=mover, last=last)
    listed = set(state.legal_moves())
    for move in [*places(n), PASS]:
        refusal = state.check(move)
        assert (refusal is None) == (move in listed), (move, refusal)
        if refusal is not None:
            assert refusal.code and refusal.reason


@settings(max_examples=60, deadline=None)
@given(boards(), st.sampled_from([{}, {"scoring": "orthogonal"}, {"through": "c3"}]))
def test_scoring_is_symmetric_under_swapping_colours(board, options):
    n, cells = board
    swapped = ["o" if c == "x" else "x" for c in cells]
    a = score_cells(cells, n, options)
    b = score_cells(swapped, n, options)
    assert (a.on_best, a.off_best) == (b.off_best, b.on_best)
    assert (a.on_line, a.off_line) == (b.off_line, b.on_line)
    assert a.winner == {"on": "off", "off": "on", None: None}[b.winner]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([4, 6, 8]),
    st.randoms(use_true_random=False),
    st.sampled_from([{}, {"first": "off"}, {"opening": "majority"}, {"reach": "ray"}]),
)
def test_random_games_end_and_every_move_lowers_same_colour_pairs(n, rng, options):
    state = get_spec("binaryon").new(**{**options, "size": n})
    start_pairs = pairs = pairs_by_hand(state.cells(), n)
    moves = 0
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        if move != PASS:
            moves += 1
            now = pairs_by_hand(state.cells(), n)
            assert now < pairs
            pairs = now
        assert moves <= start_pairs
    assert state.turn is None and state.outcome() is not None


def test_same_colour_pairs_worked_by_hand():
    # 8x8 start: within each half 4 ranks of 8: 4*7 row pairs + 3*8 column pairs +
    # 2*3*7 diagonal pairs = 28 + 24 + 42 = 94 per half, 188 in all.
    assert pairs_by_hand(["o"] * 32 + ["x"] * 32, 8) == 188


def test_many_random_games_agree_with_the_slow_rules():
    """A seeded batch of games where every position's legal list is compared by hand."""
    rng = random.Random(3)
    for n in (4, 6):
        for _ in range(5):
            state = get_spec("binaryon").new(**{"size": n, "opening": "majority"})
            while not state.is_over():
                expected = legal_by_hand(state.cells(), n, state.mover, state.last)
                got = [m.cell for m in state.legal_moves() if m != PASS]
                assert got == expected
                state = state.play(rng.choice(state.legal_moves()))
    assert rules({"size": 4}).n == 4
