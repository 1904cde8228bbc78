"""The Binaryon engine's shortcuts give what the plain computations give: neighbour counts kept
from move to move, legal bitboards worked out in ``play``, square lists from byte tables, the
tie-break, the best numbers, the cached option lookup, and ``play`` without its full check."""

from __future__ import annotations

import random
from array import array
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.squares import squares_of
from companion.games import get_spec
from companion.games.base import IllegalMove, Place, places
from companion.games.binaryon.engine import PASS, BinaryonState
from companion.games.binaryon.scoring import _largest, _smallest, left_after_cancelling
from companion.games.binaryon.tables import rules

SIZES = st.sampled_from([4, 6, 8, 10, 16])


def _biased_counts_by_hand(white: int, n: int) -> list[int]:
    """Per square: white neighbours + 3 mid-board, + 5 on an edge, + 6 in a corner."""
    out = []
    for s in range(n * n):
        r, f = divmod(s, n)
        nbrs = [
            (r + dr) * n + f + df
            for dr in (-1, 0, 1)
            for df in (-1, 0, 1)
            if (dr or df) and 0 <= r + dr < n and 0 <= f + df < n
        ]
        bias = {8: 3, 5: 5, 3: 6}[len(nbrs)]
        out.append(sum(white >> t & 1 for t in nbrs) + bias)
    return out


def _unsliced(counts: tuple[int, int, int, int], n: int) -> list[int]:
    return [sum((counts[k] >> s & 1) << k for k in range(4)) for s in range(n * n)]


@settings(max_examples=40, deadline=None)
@given(SIZES, st.randoms(use_true_random=False))
def test_counts_match_a_count_by_hand(n, rng):
    white = rng.getrandbits(n * n)
    assert _unsliced(rules({"size": n}).counts(white), n) == _biased_counts_by_hand(white, n)


@settings(max_examples=25, deadline=None)
@given(SIZES, st.sampled_from(["on", "off"]), st.sampled_from(["free", "majority"]), st.randoms())
def test_counts_and_legal_bitboards_carried_by_play_match_fresh_ones(n, first, opening, rng):
    """Along a random game every state's counts and legal bitboard equal the ones worked out
    from its board alone (the older route, ``Rules.legal``)."""
    r = rules({"size": n, "first": first, "opening": opening})
    state = get_spec("binaryon").new(**{"size": n, "first": first, "opening": opening})
    while not state.is_over():
        fresh = BinaryonState(state.white, r, state.mover, state.last, state.passes, state.ply)
        assert (
            state.legal_mask()
            == fresh.legal_mask()
            == r.legal(state.white, state.mover, state.last)
        )
        assert state.counts == r.counts(state.white)
        state = state.play(rng.choice(state.legal_moves()))


@settings(max_examples=60, deadline=None)
@given(SIZES, st.data())
def test_square_lists_from_byte_tables_match_bit_by_bit(n, data):
    mask = data.draw(st.integers(0, (1 << (n * n)) - 1))
    assert rules({"size": n}).squares(mask) == squares_of(mask)
    assert rules({"size": n}).places(mask) == [places(n)[s] for s in squares_of(mask)]


def test_square_lists_at_the_ends_of_the_board():
    squares = rules({"size": 8}).squares
    assert squares(0) == []
    assert squares(1 | 1 << 63) == [0, 63]
    assert squares((1 << 64) - 1) == list(range(64))
    assert rules({"size": 6}).squares(1 << 35) == [35]


def _left_by_definition(nums, top):
    on = Counter(nums)
    off = Counter(top - v for v in nums)
    on_left, off_left = on - off, off - on
    if not on_left:
        return None
    return top - max(off_left), max(on_left)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=1, max_size=40))
def test_tie_break_cancelling_matches_the_definition(values):
    top = 15
    assert left_after_cancelling(bytes(values), top) == _left_by_definition(values, top)
    assert left_after_cancelling(array("H", values), top) == _left_by_definition(values, top)


def test_tie_break_when_everything_cancels_and_when_one_number_is_left():
    assert left_after_cancelling(bytes([0, 255, 15, 240]), 255) is None
    assert left_after_cancelling(bytes([0, 255, 15, 240, 15]), 255) == (15, 15)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([15, 63, 255]), st.data())
def test_best_numbers_match_max_and_min(top, data):
    values = data.draw(st.lists(st.integers(0, top), min_size=1, max_size=60))
    nums = bytes(values)
    assert _largest(nums, top) == max(values)
    assert _smallest(nums, top) == min(values)


def test_best_numbers_far_from_the_ends():
    nums = bytes([100, 120, 110])
    assert (_largest(nums, 255), _smallest(nums, 255)) == (120, 100)
    wide = array("H", [40000, 300, 65000])
    assert (_largest(wide, 65535), _smallest(wide, 65535)) == (65000, 300)


def test_option_lookup_is_cached_but_still_checked():
    assert rules({"size": 8}) is rules({"size": 8})
    assert rules({"size": "8"}).options == rules({"size": 8}).options == rules().options
    with pytest.raises(ValueError, match="whole number"):
        rules({"size": 8.0})  # equal to 8, but not a whole number: not taken from the cache
    with pytest.raises(ValueError, match="odd"):
        rules({"size": 7})
    with pytest.raises(ValueError, match="odd"):
        rules({"size": 7})  # a refusal is not cached either


def test_unhashable_option_values_are_refused_as_before():
    with pytest.raises(ValueError, match="through"):
        rules({"through": ["a1"]})


# --------------------------------------------------------------------------------- play


def _midgame(seed: int = 5) -> BinaryonState:
    rng = random.Random(seed)
    state = get_spec("binaryon").new()
    for _ in range(6):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_play_of_a_listed_move_equals_the_plain_construction():
    state = _midgame()
    for move in state.legal_moves():
        after = state.play(move)
        cell = move.cell
        plain = BinaryonState(
            state.white ^ (1 << cell), state.rules, "off" if state.mover == "on" else "on", cell
        )
        assert (after.white, after.mover, after.last, after.passes, after.ply) == (
            plain.white,
            plain.mover,
            cell,
            0,
            state.ply + 1,
        )
        assert after.n == state.n and after.rules is state.rules
        assert after.legal_moves() == plain.legal_moves()


def test_play_refuses_as_check_does():
    state = _midgame()
    legal = set(state.legal_moves())
    other = "off" if state.mover == "on" else "on"
    squares = [*places(8), *places(10), *places(6)]
    cases = [m for m in squares if m not in legal] + [36, True, "e4", 3.0, PASS, None]
    for move in cases:
        refusal = state.check(move)
        assert refusal is not None
        with pytest.raises(IllegalMove) as exc:
            state.play(move)
        assert exc.value.refusal == refusal
    move = min(legal)
    with pytest.raises(IllegalMove) as exc:
        state.play(move, other)
    assert exc.value.refusal.code == "not-your-turn"
    assert state.play(move, state.mover).white == state.play(move).white


def test_play_of_a_place_made_by_hand_equals_the_listed_one():
    state = get_spec("binaryon").new()
    made = Place(36, 8)  # e5 made by hand: the very object the tables list
    assert made == places(8)[36] and made is places(8)[36]
    after = state.play(made)
    assert after.white == state.white | 1 << 36 and after.last == 36 and type(after.last) is int
    assert after.legal_mask() == state.play(places(8)[36]).legal_mask()


def test_play_after_the_end_is_refused():
    cells = ["o" if (i // 8 + i % 8) % 2 == 0 else "x" for i in range(64)]  # nobody can move
    over = BinaryonState.from_cells(cells, 8, mover="on", last=27).play(PASS).play(PASS)
    assert over.is_over()
    for move in (PASS, places(8)[27], places(8)[0]):
        with pytest.raises(IllegalMove) as exc:
            over.play(move)
        assert exc.value.refusal.code == "game-over"
