"""The Latent Binaries frame: squares, steps and lines of sight on hand-made positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.latent_binaries.geometry import (
    BETWEEN,
    GOAL_ROWS,
    PLAY_AREA,
    SQUARES,
    STEPS,
    aligned,
    mask_of,
    parse_square,
    sees,
    sight,
    square_name,
    squares_of,
    steps,
)
from tests.games.latent_binaries.arrange import arranged


def sq(name: str) -> int:
    return parse_square(name)


def mask(*names: str) -> int:
    return mask_of(sq(n) for n in names)


def names(m: int) -> set[str]:
    return {square_name(s) for s in squares_of(m)}


def test_square_names_and_indices():
    assert [sq(n) for n in ("a1", "e1", "a2", "c4", "e7")] == [0, 4, 5, 17, 34]
    assert [square_name(i) for i in range(SQUARES)][:6] == ["a1", "b1", "c1", "d1", "e1", "a2"]
    assert all(sq(square_name(i)) == i for i in range(SQUARES))


@pytest.mark.parametrize("bad", ["f1", "a8", "a0", "", "c", "c33", "11"])
def test_bad_square_names_are_refused(bad):
    with pytest.raises(ValueError, match="not a square"):
        parse_square(bad)


def test_goal_rows_and_play_area():
    assert names(GOAL_ROWS) == {f"{f}{r}" for f in "abcde" for r in (1, 7)}
    assert names(PLAY_AREA) == {f"{f}{r}" for f in "abcde" for r in range(2, 7)}


def test_steps_are_orthogonal_and_never_onto_a_goal_row():
    assert names(STEPS[sq("c4")]) == {"c3", "c5", "b4", "d4"}
    assert names(STEPS[sq("c2")]) == {"b2", "d2", "c3"}  # c1 is a goal row
    assert names(STEPS[sq("a6")]) == {"a5", "b6"}  # a7 is a goal row
    assert names(STEPS[sq("e2")]) == {"d2", "e3"}  # no wrap from e2 to a3
    assert names(steps(sq("c4"), mask("c5", "b4"))) == {"c3", "d4"}


def test_no_line_wraps_around_the_edge():
    # e2 and a3 are neighbours by index; e3 and a4 differ by a diagonal-looking 6 squares.
    assert not aligned(sq("e2"), sq("a3"))
    assert not aligned(sq("e3"), sq("a4"))
    assert not aligned(sq("a2"), sq("b4"))  # a knight's jump
    assert aligned(sq("a2"), sq("e6"))
    assert aligned(sq("e2"), sq("a6"))


def test_between_is_strictly_between():
    assert names(BETWEEN[(sq("b2"), sq("e5"))]) == {"c3", "d4"}
    assert names(BETWEEN[(sq("c2"), sq("c7"))]) == {"c3", "c4", "c5", "c6"}
    assert BETWEEN[(sq("c3"), sq("d4"))] == 0


def test_open_and_blocked_diagonals():
    nests = mask("b2", "e5")
    assert sees(sq("b2"), sq("e5"), nests)  # open diagonal
    assert not sees(sq("b2"), sq("e5"), nests | mask("d4"))  # blocked by a nest on d4
    assert not sees(sq("b2"), sq("e5"), nests | mask("c3"))  # ... or on c3
    assert sees(sq("b2"), sq("e5"), nests | mask("c4", "d3"))  # beside the line: open
    assert sees(sq("d2"), sq("b4"), mask("d2", "b4"))  # the other diagonal
    assert not sees(sq("d2"), sq("b4"), mask("d2", "b4", "c3"))


def test_orthogonal_lines_blocked_by_any_nest():
    assert sees(sq("c2"), sq("c6"), mask("c2", "c6"))
    assert not sees(sq("c2"), sq("c6"), mask("c2", "c6", "c4"))
    assert sees(sq("a4"), sq("e4"), mask("a4", "e4"))
    assert not sees(sq("a4"), sq("e4"), mask("a4", "e4", "b4"))


def test_sight_finds_the_first_nest_on_each_ray():
    nests = mask("c4", "c5", "c6", "e6", "a2", "b3")
    # up: c5 (c6 hidden behind it); up-right: d5 empty, e6; down-left: b3 (a2 behind it)
    assert names(sight(sq("c4"), nests)) == {"c5", "e6", "b3"}


def test_a_line_opened_by_moving_another_nest():
    # Rainbow c2 and c3 face Xeno c6; c3 moves aside and c2 now sees c6 past the empty c3.
    before = mask("c2", "c3", "c6")
    assert not sees(sq("c2"), sq("c6"), before)
    after = before & ~mask("c3") | mask("b3")
    assert sees(sq("c2"), sq("c6"), after)
    # The same through the engine: Xeno's blocker on c4 steps away, Rainbow's c2 sees c6.
    state = arranged(
        {"c2": ("rainbow", "red", "blue"), "c4": ("xeno", "cyan", "orange"),
         "c6": ("xeno", "magenta", "purple"), "a3": ("rainbow", "red", "green")},
        mover="xeno", markers=(1, 1),
    )  # fmt: skip
    assert {square_name(n.square) for n in state.in_sight("rainbow")} == {"c4"}
    state = state.play(state.parse_move("c4-d4"))
    assert not state.is_over()
    assert {square_name(n.square) for n in state.in_sight("rainbow")} == {"c6"}


def _by_coordinates(a: int, b: int) -> set[int] | None:
    ra, fa = divmod(a, 5)
    rb, fb = divmod(b, 5)
    dr, df = rb - ra, fb - fa
    if (dr, df) == (0, 0) or not (dr == 0 or df == 0 or abs(dr) == abs(df)):
        return None
    n = max(abs(dr), abs(df))
    sr, sf = (dr > 0) - (dr < 0), (df > 0) - (df < 0)
    return {(ra + k * sr) * 5 + fa + k * sf for k in range(1, n)}


def test_between_table_matches_coordinates_for_every_pair():
    for a in range(SQUARES):
        for b in range(SQUARES):
            expect = _by_coordinates(a, b)
            if expect is None:
                assert (a, b) not in BETWEEN
            else:
                assert set(squares_of(BETWEEN[(a, b)])) == expect


@given(st.integers(0, SQUARES - 1), st.integers(0, SQUARES - 1), st.integers(0, 2**SQUARES - 1))
def test_sight_is_symmetric(a, b, nests):
    assert sees(a, b, nests) == sees(b, a, nests)
    if sees(a, b, nests):
        assert not set(squares_of(BETWEEN[(a, b)])) & set(squares_of(nests))
