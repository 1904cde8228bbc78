"""Binary territories, scores and the tie-break, on positions worked out by hand.

Square colours: a1 is dark; a square is dark (Black's) when file + rank (0-based) is even.
On a checkerboard an empty square's orthogonal neighbours are all of the other colour, so an
empty square joins a territory only through a piece standing on the other colour.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.position_text import parse_position
from companion.core.squares import parse_square, square_name
from companion.games.binary.board import BLACK, WHITE, square_owner
from companion.games.binary.engine import BinaryState
from companion.games.binary.territories import compare, score_cells, score_of, territories
from tests.positions import BINARY_FIG3 as FIG3


def sizes(text: str, player: str, empty_joins: bool = True) -> list[int]:
    n, cells = parse_position(text)
    return [len(t) for t in territories(cells, n, player, empty_joins)]


def names(text: str, player: str, empty_joins: bool = True) -> list[set[str]]:
    n, cells = parse_position(text)
    return [{square_name(i, n) for i in t} for t in territories(cells, n, player, empty_joins)]


# ----------------------------------------------------------------------------- basic shapes


def test_lone_piece_and_lone_empty_squares_are_no_territory():
    # Black on a1 (dark): its neighbours b1 and a2 are light, so the group is a1 alone.
    # The empty dark squares hold no piece. White has nothing.
    text = """
    . . . .
    . . . .
    . . . .
    x . . .
    """
    assert sizes(text, BLACK) == [] and sizes(text, WHITE) == []
    n, cells = parse_position(text)
    result = score_cells(cells, n)
    assert result[BLACK]["score"] == 0 and result[WHITE]["score"] == 0


def test_piece_on_the_other_colour_gathers_empty_squares():
    # Black on b1 (light): its neighbours a1, c1 and b2 are dark and empty -> size 4.
    text = """
    . . . .
    . . . .
    . . . .
    . x . .
    """
    assert names(text, BLACK) == [{"a1", "b1", "c1", "b2"}]
    assert sizes(text, WHITE) == []


def test_own_colour_pieces_connect_through_neighbouring_pieces():
    # Black a1 (dark) and b1 (light) touch; b1 brings the empty dark c1 and b2 -> size 4.
    text = """
    . . . .
    . . . .
    . . . .
    x x . .
    """
    for joins in (True, False):
        assert names(text, BLACK, joins) == [{"a1", "b1", "c1", "b2"}]


def test_single_piece_with_one_empty_square_is_size_two():
    # White on the dark corner a1 next to Black on b1: a1's only free light neighbour is a2.
    # Black b1 keeps c1 and b2 (a1 is White's) -> size 3.
    text = """
    . . . .
    . . . .
    . . . .
    o x . .
    """
    assert names(text, WHITE) == [{"a1", "a2"}]
    assert names(text, BLACK) == [{"b1", "c1", "b2"}]


def test_opponent_pieces_cut_territories():
    # Black b1 (light) would gather a1, c1, b2 but White sits on a1 and c1: Black {b1, b2}.
    # White a1 (dark): light a2 -> {a1, a2}; White c1 (dark): light d1 and c2 -> {c1, d1, c2}.
    text = """
    . . . .
    . . . .
    . . . .
    o x o .
    """
    assert names(text, BLACK) == [{"b1", "b2"}]
    assert names(text, WHITE) == [{"c1", "d1", "c2"}, {"a1", "a2"}]
    n, cells = parse_position(text)
    result = score_cells(cells, n)
    assert result[BLACK] == {
        "score": 4,
        "territories": [2],
        "squares": [result[BLACK]["squares"][0]],
    }
    assert result[WHITE]["score"] == 2 * 3 + 2 and result[WHITE]["territories"] == [3, 2]


# ----------------------------------------------------------------------------- empty_joins

# Black b1 and d1 are both light: b1 gathers a1, c1, b2; d1 gathers c1, d2. The empty c1
# touches both groups.
TWO_GROUPS = """
. . . .
. . . .
. . . .
. x . x
"""


def test_empty_square_joins_two_groups_by_default():
    # One territory: a1 b1 c1 d1 b2 d2 = 6, score 12.
    assert names(TWO_GROUPS, BLACK) == [{"a1", "b1", "c1", "d1", "b2", "d2"}]
    n, cells = parse_position(TWO_GROUPS)
    assert score_cells(cells, n)[BLACK]["score"] == 12


def test_empty_square_counted_per_group_without_joining():
    # b1 group: a1 b1 c1 b2 = 4; d1 group: c1 d1 d2 = 3 (c1 counted twice). Score 2*4+3 = 11.
    assert names(TWO_GROUPS, BLACK, False) == [{"a1", "b1", "c1", "b2"}, {"c1", "d1", "d2"}]
    n, cells = parse_position(TWO_GROUPS)
    result = score_cells(cells, n, {"empty_joins": False})
    assert result[BLACK]["score"] == 11 and result[BLACK]["territories"] == [4, 3]


def test_lone_piece_joined_only_by_an_empty_square():
    # 6x6. White c3 and e3 (both dark) with the empty light d3 between them.
    # c3 gathers b3, c2, c4, d3 (light, empty) -> 5; e3 gathers d3, f3, e2, e4 -> 5.
    # Joined through d3: 2 pieces + 7 empty squares = 9. Counted apart: 5 and 5 (d3 in both).
    text = """
    . . . . . .
    . . . . . .
    . . . . . .
    . . o . o .
    . . . . . .
    . . . . . .
    """
    assert sizes(text, WHITE, True) == [9]
    assert sizes(text, WHITE, False) == [5, 5]


# ----------------------------------------------------------------------------- the source example


# 8x8, 15 black and 15 white pieces, found by search and checked square by square below.
# Black (dark squares): 22 = pieces e4 b5 d5 e5 h5 d6 e6 g6 h7 e8 h8 + empty e3 d4 h4 a5 c5 g5
#   f6 h6 e7 g7 d8 (e4 b5 d5 h5 e6 g6 h7 e8 stand on light squares and bring their empty
#   dark neighbours); 3 = h1 (light) + empty g1 h2; 2 = a8 (light) + empty b8.
# White (light squares): 15 = a1 b1 b2 d2 a3 c3 d3 b4 + empty d1 a2 c2 e2 b3 a4 c4;
#   5 = a6 b6 a7 + empty c6 b7; 4 = f4 g4 + empty f3 f5; 3 = f8 + empty f7 g8.
# Lone pieces that count for nothing: Black c1 and e1 (dark squares whose neighbours are all
# light, so empty ones are White's), White g2 (light, its neighbours are all dark).


def test_source_example_49_42():
    assert sizes(FIG3, BLACK) == [22, 3, 2]
    assert sizes(FIG3, WHITE) == [15, 5, 4, 3]
    n, cells = parse_position(FIG3)
    result = score_cells(cells, n)
    assert result[BLACK]["score"] == 22 * 2 + 3 + 2 == 49
    assert result[WHITE]["score"] == 15 * 2 + 5 + 4 + 3 == 42
    assert names(FIG3, BLACK)[1] == {"g1", "h1", "h2"} and names(FIG3, BLACK)[2] == {"a8", "b8"}
    assert names(FIG3, WHITE)[2] == {"f3", "f4", "g4", "f5"}
    assert compare([22, 3, 2], [15, 5, 4, 3]) == (BLACK, None)


def test_score_formula():
    assert score_of([22, 3, 2]) == 49 and score_of([15, 5, 4, 3]) == 42
    assert score_of([]) == 0 and score_of([2]) == 4 and score_of([5, 5]) == 15


# ----------------------------------------------------------------------------- tie-break


def test_tie_broken_by_the_largest_territory():
    assert compare([10], [8, 2, 2]) == (BLACK, "tie 20-20: black's largest territory 10 > 8")


def test_tie_broken_further_down():
    # 8+6+2 (+8) = 24 and 8+8 (+8) = 24; first sizes equal, second 8 > 6.
    assert compare([8, 6, 2], [8, 8]) == (WHITE, "tie 24-24: white's 2nd territory 8 > 6")
    # 5+4+3+3 (+5) = 20 and 5+4+4+2 (+5) = 20; third 4 > 3.
    assert compare([5, 4, 3, 3], [5, 4, 4, 2]) == (WHITE, "tie 20-20: white's 3rd territory 4 > 3")


def test_full_tie_is_a_draw():
    assert compare([6, 3], [6, 3]) == (None, "tie 15-15: same territories, draw")
    assert compare([], []) == (None, "tie 0-0: same territories, draw")


# 6x6. Black a6 (light) + b6 (dark) + a4 (light) with the empty dark a5, a3, b4: 6.
#      Black d1 (light) with the empty dark c1, d2 (e1 is White): 3. Black: 2*6 + 3 = 15.
# White d4 (dark) with the empty light c4, e4, d3, d5: 5.
#      White e1 + f2 (dark) with the empty light f1, e2, f3: 5. White: 2*5 + 5 = 15.
# Tie 15-15, Black's largest 6 > 5.
TIE_6X6 = """
x x . . . .
. . . . . .
x . . o . .
. . . . . .
. . . . . o
. . . x o .
"""


def test_tie_break_on_a_board():
    assert sizes(TIE_6X6, BLACK) == [6, 3] and sizes(TIE_6X6, WHITE) == [5, 5]
    n, cells = parse_position(TIE_6X6)
    state = BinaryState.from_position(cells, n, hands=(0, 0))
    out = state.outcome()
    assert out is not None and out.winner == BLACK
    assert out.summary == "BLACK wins 15-15: largest territory 6>5"  # fits two OLED lines
    from companion.views.oled import wrap

    assert wrap(out.summary) == ["BLACK wins 15-15:", "largest territory 6>5"]
    assert out.detail["decided_by"] == "tie-break"
    assert out.detail["tie_break"] == "tie 15-15: black's largest territory 6 > 5"
    assert out.detail["scores"] == {BLACK: 15, WHITE: 15}
    assert out.detail["territories"] == {BLACK: [6, 3], WHITE: [5, 5]}
    assert set(out.detail["squares"][BLACK][1]) == {"d1", "c1", "d2"}


def test_draw_on_a_board():
    # Black b1 (light) gathers a1, c1, b2: 4. White a3 (dark) gathers a2, a4, b3: 4. 8-8.
    text = """
    . . . .
    o . . .
    . . . .
    . x . .
    """
    n, cells = parse_position(text)
    out = BinaryState.from_position(cells, n, hands=(0, 0)).outcome()
    assert out is not None and out.winner is None and out.summary == "draw 8-8"
    assert out.detail["decided_by"] == "draw"


def test_outcome_by_score():
    n, cells = parse_position(FIG3)
    out = BinaryState.from_position(cells, n, hands=(0, 0)).outcome()
    assert out is not None and out.winner == BLACK and out.summary == "BLACK wins 49-42"
    assert out.detail["decided_by"] == "score" and out.detail["tie_break"] is None
    assert out.detail["end_reason"] == "all pieces placed"
    assert json.loads(json.dumps(out.detail))["squares"]["black"][2] == ["a8", "b8"]


def test_score_cells_checks_length():
    with pytest.raises(ValueError, match="expected 64 cells"):
        score_cells(["."] * 10, 8)


# ----------------------------------------------------------------------------- properties


def boards(n: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from("xo..."), min_size=n * n, max_size=n * n)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6, 8]).flatmap(lambda n: st.tuples(st.just(n), boards(n))))
def test_territory_invariants(board):
    n, cells = board
    for player, piece in ((BLACK, "x"), (WHITE, "o")):
        joined = territories(cells, n, player, True)
        apart = territories(cells, n, player, False)
        for terr in joined + apart:
            assert len(terr) >= 2
            assert any(cells[i] == piece for i in terr)
            for i in terr:  # own pieces, or empty squares of the player's colour
                assert cells[i] == piece or (cells[i] == "." and square_owner(i, n) == player)
        # joined territories never overlap; each separate one lies inside a joined one
        flat = [i for t in joined for i in t]
        assert len(flat) == len(set(flat))
        for terr in apart:
            assert any(set(terr) <= set(t) for t in joined)
        # every piece of the player in a group of 2+ is in a territory; sizes are sorted
        result = score_cells(cells, n)[player]
        assert result["territories"] == sorted(result["territories"], reverse=True)
        assert result["score"] == sum(result["territories"]) + max(result["territories"], default=0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 30), max_size=6), st.lists(st.integers(2, 30), max_size=6))
def test_compare_is_antisymmetric(a, b):
    a, b = sorted(a, reverse=True), sorted(b, reverse=True)
    w1, _ = compare(a, b)
    w2, _ = compare(b, a)
    swap = {BLACK: WHITE, WHITE: BLACK, None: None}
    assert w2 == swap[w1]
    assert (w1 is None) == (a == b)


def test_parse_square_helper_matches_names():
    assert square_name(parse_square("e4")) == "e4"
