"""Wythe engine on hand-made positions: every rule and every refusal."""

from __future__ import annotations

import re

import pytest

from companion.games import get_spec
from companion.games.base import IllegalMove
from companion.games.wythe.engine import MAX_HEIGHT, WytheState
from companion.games.wythe.moves import BLACK, PASS, SWAP, WHITE, Placement, parse_move
from companion.games.wythe.options import resolve
from companion.games.wythe.scoring import (
    group_sizes,
    group_table,
    reason_line,
    score_masks,
    scores_of,
)
from tests.positions import sq

new_game = get_spec("wythe").new


def play(state: WytheState, moves: str) -> WytheState:
    for word in moves.split():
        state = state.play(state.parse_move(word))
    return state


def start(**options) -> WytheState:
    return get_spec("wythe").new(**options)


def code(state: WytheState, move: str) -> str | None:
    refusal = state.check(state.parse_move(move))
    return None if refusal is None else refusal.code


def masks(diagram: str) -> tuple[int, int, int]:
    """(black tops, white tops, n) of a diagram: rows from the top rank down, x o or ."""
    rows = [r.split() for r in diagram.strip().splitlines()]
    n = len(rows)
    black = white = 0
    for k, row in enumerate(rows):
        rank = n - 1 - k
        assert len(row) == n
        for f, c in enumerate(row):
            bit = 1 << (rank * n + f)
            if c == "x":
                black |= bit
            elif c == "o":
                white |= bit
    return black, white, n


# A 4x4 game building two 3-high stacks on b1 and b2 (see test_three_high_stacks).
TOWERS = "a1-b1 c1-d1 b2-a2 d2-c2 b1-c1 c2-b2 b2-b1"

# A 4x4 board tiled so that no piece fits on top: every row reads black, white, white, black
# (pieces a-b and d-c), so neighbouring pieces always show one colour across their border.
BLOCKED = "a1-b1 d1-c1 a2-b2 d2-c2 a3-b3 d3-c3 a4-b4 d4-c4"


# --------------------------------------------------------------------------- options, start


def test_options_defaults_and_limits():
    assert resolve() == {"size": 8, "pie": True}
    assert resolve({"size": "5", "pie": "false"}) == {"size": 5, "pie": False}
    for bad in ({"size": 3}, {"size": 17}, {"pie": "maybe"}, {"colour": "red"}):
        with pytest.raises(ValueError):
            resolve(bad)


def test_start_position():
    s = new_game()
    assert (s.n, s.turn, s.ply, s.is_over(), s.outcome()) == (8, BLACK, 0, False, None)
    assert s.to_act == frozenset({BLACK})
    assert s.players == (BLACK, WHITE)
    assert s.cells() == ["."] * 64 and s.heights() == [0] * 64
    # 2 orientations of 2 * 7 * 8 domino positions; no swap for Black, no pass
    assert len(s.legal_moves()) == 224
    assert SWAP not in s.legal_moves() and PASS not in s.legal_moves()
    assert s.forced_move() is None
    assert s.chance() is None
    assert len(start(size=5).legal_moves()) == 2 * 2 * 4 * 5


def test_a_placement_puts_one_bit_of_each_colour():
    s = play(start(), "d4-d5")
    assert s.top(sq("d4")) == BLACK and s.top(sq("d5")) == WHITE
    assert s.height(sq("d4")) == s.height(sq("d5")) == 1
    assert s.cells()[sq("d4")] == "x" and s.cells()[sq("d5")] == "o"
    assert s.pieces == ((sq("d4"), sq("d5"), 0),)
    assert s.turn == WHITE and s.ply == 1 and s.last_placer == BLACK


# --------------------------------------------------------------------------- notation


def test_notation_round_trip():
    s = start()
    move = s.parse_move(" D4-d5 ")
    assert move == Placement(sq("d4"), sq("d5"), 8) and move.cells == (27, 35)
    assert move.name == "d4-d5" == s.public_name(move)
    assert s.parse_move("pass") == PASS and s.parse_move("SWAP") == SWAP
    assert PASS.name == "pass" and SWAP.name == "swap"
    assert parse_move("p16-o16", 16).cells == (255, 254)


@pytest.mark.parametrize(
    ("text", "why"),
    [("d4d5", "write black-white"), ("d4-", "write black-white"), ("", "?: write"),
     ("i4-d5", "i4: not a square"), ("d4-d9", "d9: not on a 8x8 board")],
)  # fmt: skip
def test_bad_notation_says_why(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        start().parse_move(text)


def test_placements_of_other_boards_or_squares_are_not_moves():
    s = start()
    assert s.check(Placement(1, 99, 8)).code == "not-a-square"
    assert s.check(Placement(27, 35, 10)).code == "not-a-move"  # a 10x10 board's
    assert s.check((27, 35)).code == "not-a-move"  # not a move at all


# --------------------------------------------------------------------------- refusals


def test_halves_must_be_adjacent():
    s = start()
    assert code(s, "d4-d6") == "not-adjacent"
    assert code(s, "d4-e5") == "not-adjacent"  # diagonal
    assert code(s, "h1-a2") == "not-adjacent"  # consecutive indices, not neighbours
    assert code(s, "a2-h1") == "not-adjacent"
    assert code(s, "d4-d4") == "same-square"
    assert s.check(s.parse_move("d4-d6")).reason == "d6: not next to d4"


def test_heights_must_be_equal():
    s = play(start(), "d4-d5")
    assert code(s, "e4-d4") == "unequal-heights"
    assert s.check(s.parse_move("e4-d4")).reason == "heights differ: e4 0, d4 1"
    assert code(s, "e5-e4") is None  # both empty


def test_no_bit_on_a_bit_of_its_own_colour():
    s = play(start(), "d4-d5 e4-e5")  # tops: d4 x, d5 o, e4 x, e5 o
    assert code(s, "d4-e4") == "like-colour"  # black half on black d4
    assert s.check(s.parse_move("d4-e4")).reason == "d4: black on black"
    assert code(s, "d5-e5") == "like-colour"  # white half on white e5
    assert s.check(s.parse_move("d5-e5")).reason == "e5: white on white"
    assert code(s, "e5-d5") == "like-colour"
    # black on a white top and white on a black top across two pieces is fine
    assert code(s, "d5-d4") == "covers-piece"  # ... but not on one piece (see below)
    s2 = play(start(), "d4-d5 e5-e4")  # tops: d4 x, d5 o, e4 o, e5 x
    assert code(s2, "d5-e5") is None and code(s2, "e4-d4") is None


def test_a_piece_may_not_be_covered_entirely():
    s = play(start(), "d4-d5")
    assert code(s, "d5-d4") == "covers-piece"
    assert s.check(s.parse_move("d5-d4")).reason == "d5-d4: would bury d4-d5"


def test_every_piece_keeps_an_uncovered_bit():
    # A = d4-d5, B = e5-e4; C = d5-e5 covers A's white and B's black bit: both keep one.
    s = play(start(), "d4-d5 e5-e4 d5-e5")
    assert s.stack(sq("d5")) == [WHITE, BLACK] and s.stack(sq("e5")) == [BLACK, WHITE]
    # d4 and e4 now hold the last uncovered bits of A and B
    assert code(s, "e4-d4") == "covers-piece"
    assert s.check(s.parse_move("e4-d4")).reason == "e4: would bury e5-e4"
    # covering one of them with a floor-level neighbour is refused for heights first
    assert code(s, "c4-d4") == "unequal-heights"
    # the pieces keep exactly those bits: d4 and e4 are the tops of A and B
    assert s.top_piece(sq("d4")) == 0 and s.top_piece(sq("e4")) == 1
    assert s.top_piece(sq("d5")) == s.top_piece(sq("e5")) == 2


def test_three_high_stacks():
    s = play(start(size=4), TOWERS)
    b1, b2, c1, c2 = (sq(x, 4) for x in ("b1", "b2", "c1", "c2"))
    assert s.stack(b1) == [WHITE, BLACK, WHITE] and s.stack(b2) == [BLACK, WHITE, BLACK]
    assert [s.height(x) for x in (b1, b2, c1, c2)] == [3, 3, 2, 2]
    assert s.stack_pieces(b1) == [0, 4, 6] and s.top_piece(c1) == 4
    # c1 and c2 hold the last uncovered bits of b1-c1 and c2-b2: equal heights, right
    # colours, yet refused because each would bury its piece
    assert code(s, "c1-c2") == "covers-piece"
    assert s.check(s.parse_move("c1-c2")).reason == "c1: would bury b1-c1"
    assert code(s, "c2-c1") == "like-colour"
    # the top piece b2-b1 has both bits uncovered, but may not be covered by one piece
    assert code(s, "b1-b2") == "covers-piece"
    # a1 and a2: each the last uncovered bit of a floor piece
    assert code(s, "a2-a1") == "covers-piece"
    assert s.check_half(sq("a1", 4), WHITE).code == "covers-piece"
    assert [p.level for p in s.pieces] == [0, 0, 0, 0, 1, 1, 2]


# f3 reaches 4 (from a random game, cut down to the pieces that matter): its neighbours
# g3, e3, f2, f4 are 1, 2, 3 and 4 high, as the uncovered-bit rule demands.
TALLEST = (
    "e2-f2 e4-d4 f3-g3 h5-g5 f1-g1 f5-f6 d3-e3 e3-f3 f2-f1 g4-f4 f4-e4 g5-f5 f3-f2 f5-f4 f4-f3"
)


def test_a_stack_is_never_higher_than_its_neighbours_count():
    s = play(start(), TALLEST)
    f3 = sq("f3")
    assert MAX_HEIGHT == 4 and s.height(f3) == 4
    assert s.stack(f3) == [BLACK, WHITE, BLACK, WHITE]
    assert [s.height(sq(x)) for x in ("g3", "e3", "f2", "f4")] == [1, 2, 3, 4]
    # nothing goes on f3 any more, whatever the partner square
    assert all(f3 not in move.cells for move in s.legal_moves())
    assert s.check_half(f3, BLACK).code == "no-fit"  # only f4 is as high: its own piece
    assert s.check_half(f3, WHITE).code == "like-colour"
    assert code(s, "f3-f4") == "covers-piece"  # f3 and f4 top the same piece, f4-f3


def test_half_checks_for_the_first_press():
    s = play(start(), "d4-d5 e4-e5")
    assert s.check_half(sq("d4"), BLACK).code == "like-colour"
    # black on d5 (a white top): the white half needs a black top at height 1 (d4 is d5's own
    # piece, e5 is white), so none fits
    assert s.completions(sq("d5"), BLACK) == []
    assert s.check_half(sq("d5"), BLACK).code == "no-fit"
    # e4's top is black: a white half fits there, the black half on d5 (white top)
    assert s.completions(sq("e4"), WHITE) == []  # d4 is black, e5 its own piece, f4/e3 empty
    assert s.completions(sq("d5"), WHITE) == [] and s.check_half(sq("d5"), WHITE).code
    s = play(start(), "d4-d5 e5-e4")  # d4 x, d5 o, e4 o, e5 x
    assert s.completions(sq("d5"), BLACK) == [sq("e5")]
    assert s.completions(sq("e5"), WHITE) == [sq("d5")]
    assert s.check_half(sq("e4"), BLACK) is None and s.completions(sq("e4"), BLACK) == [sq("d4")]
    assert s.completions(sq("a1"), BLACK) == [sq("b1"), sq("a2")]


def test_no_fit_refusal():
    # b1 at height 1 between a1 (1, same piece) and c1 (0) and b2 (0): no piece can go on b1
    s = play(start(size=4), "a1-b1")
    assert s.check_half(sq("b1", 4), BLACK).code == "no-fit"
    assert s.check_half(sq("b1", 4), BLACK).reason == "b1: no piece fits here"


def test_bad_moves_are_refused_with_nothing_changed():
    s = play(start(), "d4-d5")
    bad_placements = [Placement(b, w, 8) for b, w in [(1, 99), (-1, 0), (64, 63)]]
    for bad in ["d4-d5", (1, 2, 3), "jump", (True, 1), (28, 36), *bad_placements]:
        with pytest.raises(IllegalMove) as err:
            s.play(bad)
        assert err.value.refusal.code in {
            "covers-piece", "like-colour", "not-a-move", "not-a-square", "unequal-heights"
        }  # fmt: skip
    made = Placement(28, 36, 8)  # made by hand: the rules' tables' own object
    assert s.play(made).pieces[-1] == (28, 36, 0) == s.play(s.parse_move("e4-e5")).pieces[-1]
    assert s.cells().count(".") == 62


def test_not_your_turn():
    s = start()
    assert s.check(s.parse_move("d4-d5"), WHITE).code == "not-your-turn"
    assert s.legal_moves(WHITE) == [] and len(s.legal_moves(BLACK)) == 224
    with pytest.raises(IllegalMove):
        s.play(s.parse_move("d4-d5"), WHITE)
    assert s.play(s.parse_move("d4-d5"), BLACK).turn == WHITE


# --------------------------------------------------------------------------- pie rule


def test_swap_only_on_whites_first_turn():
    s = start()
    assert s.check(SWAP).code == "swap-too-late"
    s1 = play(s, "d4-d5")
    assert s1.check(SWAP) is None and s1.legal_moves()[-1] == SWAP
    s2 = s1.play(SWAP)
    assert s2.swapped and s2.turn == WHITE and s2.ply == 2
    assert s2.cells() == s1.cells() and s2.last_placer == BLACK
    assert s2.check(SWAP).code == "swap-too-late"
    assert SWAP not in s2.legal_moves()
    s3 = play(s2, "e4-e5")
    assert s3.turn == BLACK and s3.swapped and s3.last_placer == WHITE
    assert s3.check(SWAP).code == "swap-too-late"
    assert s3.check(SWAP).reason == "swap: only White's 1st turn"
    # no swap if White places instead
    assert play(s1, "e4-e5").check(SWAP).code == "swap-too-late"


def test_pie_option_off():
    s = play(start(pie=False), "d4-d5")
    assert s.check(SWAP).code == "no-pie"
    assert SWAP not in s.legal_moves()


# --------------------------------------------------------------------------- passes and end


def test_forced_pass_and_two_passes_end_the_game():
    s = play(start(size=4), BLOCKED)
    assert s.turn == BLACK and s.cells() == list("xoox" * 4)
    assert s.legal_moves() == [PASS] and s.forced_move() == PASS
    assert code(s, "b1-c1") == "like-colour" and code(s, "a2-a1") == "like-colour"
    assert code(s, "b1-a1") == "covers-piece"
    s1 = s.play(PASS)
    assert not s1.is_over() and s1.turn == WHITE and s1.forced_move() == PASS
    s2 = s1.play(PASS)
    assert s2.is_over() and s2.turn is None and s2.to_act == frozenset()
    assert s2.legal_moves() == [] and s2.forced_move() is None
    assert s2.check(PASS).code == "game-over" and s2.check((0, 1)).code == "game-over"
    out = s2.outcome()
    # black: columns a and d (two groups of 4); white: columns b-c (one group of 8)
    assert out.winner == WHITE and out.summary == "WHITE wins 8-4"
    assert out.detail["groups"] == {BLACK: {"4": 2}, WHITE: {"8": 1}}
    assert out.detail["reason"] == "White 8: one group of 8 to none"
    assert out.detail["winners"] == [WHITE]


def test_pass_refused_while_a_piece_fits():
    s = play(start(), "d4-d5")
    assert s.check(PASS).code == "must-place"
    assert s.check(PASS).reason == "pass: a piece still fits"
    assert PASS not in s.legal_moves()


# --------------------------------------------------------------------------- score


def test_group_sizes_by_hand():
    black, white, n = masks(
        """
        x x . o
        x . o o
        . x . o
        x x x .
        """
    )
    assert sorted(group_sizes(black, n)) == [3, 4]
    assert sorted(group_sizes(white, n)) == [4]
    assert group_table(black, n) == {3: 1, 4: 1}
    # a U shape joins at the bottom; a run wrapping a row end does not join the next row
    black, _, n = masks(
        """
        x . x .
        x . x .
        x x x x
        . . . x
        """
    )
    assert group_sizes(black, n) == [9]
    # arms that meet only in a higher row: two groups of runs merged into one
    black, _, n = masks(
        """
        x x x .
        x . x .
        x . x x
        x . . x
        """
    )
    assert group_sizes(black, n) == [10]
    assert sorted(group_sizes(0b1000_0001, 4)) == [1, 1]  # d1 and a2: not neighbours
    assert group_sizes(0, 8) == []


@pytest.mark.parametrize(
    ("black", "white", "scores"),
    [
        ({5: 3, 3: 1}, {5: 2, 3: 2}, (5, 3)),  # the rule sheet's reading: most groups of 5
        ({1: 4}, {1: 4}, (0, 0)),  # identical tables: nobody has more of any size
        ({7: 1, 2: 1}, {7: 1, 2: 2, 1: 5}, (0, 2)),
        ({9: 1}, {}, (9, 0)),
        ({4: 1, 1: 9}, {6: 1}, (4, 6)),
        ({}, {}, (0, 0)),
    ],
)
def test_score_table_examples(black, white, scores):
    assert scores_of(black, white) == scores
    assert scores_of(white, black) == scores[::-1]


def test_scoring_a_diagram():
    black, white, n = masks(
        """
        x x . o o . x x
        . . . . . . . .
        x x . o o . x x
        . . . . . . . .
        o o . x x . o o
        . . . . . . . .
        x . o . o . x .
        . . . . . . . .
        """
    )
    sc = score_masks(black, white, n, BLACK)
    assert sc.black_groups == {2: 5, 1: 2} and sc.white_groups == {2: 4, 1: 2}
    assert (sc.black, sc.white, sc.leader, sc.reason) == (2, 0, BLACK, "score")
    assert reason_line(sc) == "Black 2: five groups of 2 to four"


def test_tie_at_zero_the_last_placer_loses():
    s = play(start(), "d4-d5")  # one group of 1 each: 0-0, Black placed last
    sc = s.score()
    assert (sc.black, sc.white, sc.leader, sc.reason) == (0, 0, WHITE, "last-mover")
    assert reason_line(sc) == "0-0: Black placed last"
    s = play(s, "a1-a2")  # two of 1 each, White placed last
    assert s.score().leader == BLACK
    # a swap is no placement: the last placer is still Black
    assert play(start(), "d4-d5 swap").score().leader == WHITE
    assert score_masks(0, 0, 8, None).leader is None


def test_tie_rule_decides_a_finished_game():
    # a 4x4 game that ends with identical group tables (found by a seeded random search)
    s = play(start(size=4), ZERO_ZERO)
    assert s.is_over()
    out = s.outcome()
    sc = s.score()
    assert sc.black_groups == sc.white_groups and (sc.black, sc.white) == (0, 0)
    assert out.winner == ("white" if s.last_placer == BLACK else "black")
    assert out.summary == f"{out.winner.upper()} wins 0-0"
    assert out.detail["decided_by"] == "last-mover"


ZERO_ZERO = "d4-d3 b2-c2 b3-c3 a2-a1 d1-c1 b4-a4 pass pass"


def test_replaying_names_rebuilds_the_state():
    s = play(start(size=4), TOWERS + " d3-d4")
    again = play(start(size=4), " ".join(m for m in _names(s)))
    assert again.cells() == s.cells() and again.pieces == s.pieces


def _names(state: WytheState) -> list[str]:
    return [Placement(p.black, p.white, state.n).name for p in state.pieces]


def test_replaying_the_pieces_builds_the_same_position():
    s = play(start(size=4), TOWERS)
    t = get_spec("wythe").replay(_names(s), size=4)
    assert t.cells() == s.cells() and t.heights() == s.heights()
