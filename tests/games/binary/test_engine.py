"""Binary engine: turns, placements, the centre space, hands, passing, notation, invariants.

Square colours used below (8x8, a1 dark): dark = Black's = (file + rank) even, 0-based.
Dark: a1 c1 b2 d2 c3 d4 e5 ... Light (White's): b1 d1 a2 c2 e4 d5 c4 ...
Centre space: d4 (dark), e4 (light), d5 (light), e5 (dark).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.base import IllegalMove, Place, places
from companion.games.binary.board import BLACK, WHITE, centre_squares, square_owner
from companion.games.binary.engine import END, PASS, BinaryState
from tests.positions import cells_of, mv, play, sq

new_game = get_spec("binary").new


def code(state: BinaryState, word: str) -> str | None:
    refusal = state.check(state.parse_move(word))
    return None if refusal is None else refusal.code


def reason(state: BinaryState, word: str) -> str:
    refusal = state.check(state.parse_move(word))
    assert refusal is not None
    return refusal.reason


# ----------------------------------------------------------------------------- setup


def test_new_game_defaults():
    s = new_game()
    assert (s.n, s.hands, s.discarded, s.turn, s.ply, s.placed) == (
        8,
        (16, 16),
        (0, 0),
        BLACK,
        0,
        (),
    )
    assert s.cells == (".",) * 64
    assert s.options == {"size": 8, "empty_joins": True, "stuck": "pass"}
    assert not s.is_over() and s.outcome() is None


@pytest.mark.parametrize("n", [4, 6, 10, 16])
def test_hands_are_a_quarter_of_the_squares(n):
    assert new_game(size=n).hands == (n * n // 4, n * n // 4)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"size": 5}, "size: must be even"),
        ({"size": 2}, "size: 2 is below 4"),
        ({"size": 18}, "size: 18 is above 16"),
        ({"stuck": "wait"}, "stuck:"),
        ({"empty_joins": "maybe"}, "empty_joins: expected true or false"),
        ({"colour": "red"}, "unknown rule option 'colour'"),
    ],
)
def test_bad_options_are_refused_with_their_name(options, message):
    with pytest.raises(ValueError, match=message):
        new_game(**options)


def test_options_from_text():
    s = new_game(size="6", empty_joins="false", stuck="end")
    assert s.options == {"size": 6, "empty_joins": False, "stuck": "end"}


def test_square_colours_and_centre():
    assert square_owner(sq("a1"), 8) == BLACK and square_owner(sq("b1"), 8) == WHITE
    assert square_owner(sq("h8"), 8) == BLACK and square_owner(sq("a8"), 8) == WHITE
    assert centre_squares(8) == {sq("d4"), sq("e4"), sq("d5"), sq("e5")}
    assert centre_squares(4) == {sq("b2", 4), sq("c2", 4), sq("b3", 4), sq("c3", 4)}
    assert square_owner(sq("d4"), 8) == BLACK and square_owner(sq("e4"), 8) == WHITE


# ----------------------------------------------------------------------------- opening


def test_black_opens_on_a_dark_square_outside_the_centre():
    s = new_game()
    dark_outside = {i for i in range(64) if square_owner(i, 8) == BLACK} - centre_squares(8)
    assert set(cells_of(s.legal_moves())) == dark_outside and len(dark_outside) == 30
    assert reason(s, "b1") == "b1: the first piece goes on a dark square"
    assert code(s, "b1") == "first-dark"
    assert reason(s, "e4") == "e4: first piece may not go in the centre"
    assert code(s, "d4") == "first-centre" and code(s, "e5") == "first-centre"
    assert code(s, "end") == "end-too-early"
    assert code(s, "pass") == "pass-not-allowed"


def test_opening_is_one_piece_then_white():
    s = play(new_game(), "c3")
    assert s.turn == WHITE and s.hands == (15, 16) and s.placed == () and s.ply == 1
    assert s.cells[sq("c3")] == "x"


# ----------------------------------------------------------------------------- turns


def test_two_own_colour_pieces_end_the_turn_by_themselves():
    s = play(new_game(), "c3 b1")
    assert s.turn == WHITE and s.placed == (sq("b1"),)
    assert END in s.legal_moves()
    s = play(s, "d1")
    assert s.turn == BLACK and s.hands == (15, 14) and s.placed == () and s.ply == 3


def test_end_after_one_own_colour_piece():
    s = play(new_game(), "c3 b1 end")
    assert s.turn == BLACK and s.hands == (15, 15) and s.ply == 3
    assert code(s, "end") == "end-too-early"


def test_second_piece_must_be_own_colour_and_outside_the_centre():
    s = play(new_game(), "c3 b1")
    assert reason(s, "c1") == "c1: 2nd piece must be own colour"
    assert code(s, "d4") == "second-colour"  # other-colour centre: the colour rule speaks first
    assert reason(s, "e4") == "e4: a centre piece must be alone"
    assert code(s, "d5") == "centre-alone"
    assert reason(s, "b1") == "b1: occupied"
    assert code(s, "pass") == "pass-not-allowed"


def test_one_other_colour_piece_ends_the_turn():
    s = play(new_game(), "c3 c1")  # White on a dark square
    assert s.turn == BLACK and s.hands == (15, 15) and s.discarded == (0, 0)
    assert s.cells[sq("c1")] == "o"


def test_own_colour_centre_piece_is_the_only_one():
    s = play(new_game(), "c3 e4")
    assert s.turn == BLACK and s.hands == (15, 15)


def test_other_colour_centre_costs_a_discarded_piece():
    s = play(new_game(), "c3 d4")  # White on the dark centre square
    assert s.turn == BLACK and s.hands == (15, 14) and s.discarded == (0, 1)
    assert s.cells[sq("d4")] == "o"
    s = play(s, "d5")  # Black on a light centre square
    assert s.hands == (13, 14) and s.discarded == (1, 1) and s.turn == WHITE


def test_other_colour_centre_needs_a_spare_piece():
    cells = ["."] * 64
    s = BinaryState.from_position(cells, 8, mover=WHITE, hands=(5, 1))
    assert s.turn == WHITE
    assert reason(s, "d4") == "d4: need 1 spare piece to discard"
    assert code(s, "e5") == "no-spare"
    assert mv("d4") not in s.legal_moves() and mv("e4") in s.legal_moves()
    s2 = BinaryState.from_position(cells, 8, mover=WHITE, hands=(5, 2))
    after = s2.play(mv("d4"))
    assert after.hands == (5, 0) and after.discarded == (0, 1)


def test_last_piece_ends_the_turn():
    s = BinaryState.from_position(["."] * 64, 8, mover=WHITE, hands=(5, 1))
    s = play(s, "b1")  # own colour, but the hand is now empty
    assert s.turn == BLACK and s.hands == (5, 0)


def test_no_room_for_a_second_piece_ends_the_turn():
    # 4x4: White's (light) squares outside the centre are b1 d1 a2 d3 a4 c4. Fill all but a4.
    n = 4
    cells = ["."] * 16
    for name, piece in (("b1", "x"), ("d1", "o"), ("a2", "x"), ("d3", "o"), ("c4", "x")):
        cells[sq(name, n)] = piece
    s = BinaryState.from_position(cells, n, mover=WHITE, hands=(2, 2))
    s = s.play(mv("a4", n))
    assert s.turn == BLACK and s.placed == () and s.hands == (2, 1)


def test_a_player_out_of_pieces_lets_the_other_finish():
    s = BinaryState.from_position(["."] * 64, 8, mover=BLACK, hands=(1, 3))
    s = play(s, "a1")
    assert s.turn == WHITE and s.hands == (0, 3)
    s = play(s, "b1 end")
    assert s.turn == WHITE  # Black has nothing left: White goes on
    s = play(s, "d1 f1")
    assert s.is_over() and s.turn is None and s.hands == (0, 0)
    assert s.end_reason == "all pieces placed"
    assert s.legal_moves() == [] and code(s, "a3") == "game-over"
    with pytest.raises(IllegalMove, match="game is over"):
        s.play(mv("a3"))
    assert s.outcome() is not None


def test_from_position_skips_a_player_without_pieces():
    s = BinaryState.from_position(["."] * 64, 8, mover=BLACK, hands=(0, 2))
    assert s.turn == WHITE
    s = BinaryState.from_position(["."] * 64, 8, mover=BLACK, hands=(0, 0))
    assert s.is_over()


# ----------------------------------------------------------------------------- stuck


def _stuck_board() -> list[str]:
    """4x4, full but for the dark centre squares b2 and c3."""
    n = 4
    cells = ["o" if i % 2 else "x" for i in range(16)]
    cells[sq("b2", n)] = cells[sq("c3", n)] = "."
    return cells


def test_stuck_player_passes():
    # White holds one piece: the only empty squares are dark centre squares, which would cost
    # a spare piece. Black (two pieces) can still place there, on its own colour.
    s = BinaryState.from_position(_stuck_board(), 4, mover=WHITE, hands=(2, 1))
    assert s.turn == WHITE and s.legal_moves() == [PASS] and s.forced_move() == PASS
    assert code(s, "b2") == "no-spare" and code(s, "end") == "end-too-early"
    s = s.play(PASS)
    assert s.turn == BLACK and s.passes == 1 and s.ply == 1 and s.forced_move() is None
    s = play(s, "b2")  # own-colour centre: the only piece of the turn
    assert s.turn == WHITE and s.legal_moves() == [PASS]
    s = play(s, "pass c3")  # Black's last piece fills the board; White still holds one
    assert s.is_over() and s.passes == 2 and s.hands == (0, 1)
    assert s.end_reason == "no one can place"


def test_nobody_can_place_ends_the_game():
    s = BinaryState.from_position(_stuck_board(), 4, mover=WHITE, hands=(0, 1))
    assert s.is_over() and s.end_reason == "no one can place"


def test_stuck_end_option_ends_the_game():
    s = BinaryState.from_position(_stuck_board(), 4, mover=WHITE, hands=(2, 1), stuck="end")
    assert s.is_over() and s.end_reason == "white cannot place"
    assert s.outcome() is not None


def test_pass_refused_when_a_piece_fits():
    s = play(new_game(), "c3")
    assert reason(s, "pass") == "no pass: a piece fits"


# ----------------------------------------------------------------------------- notation


def test_move_names_and_parsing():
    s = new_game()
    assert mv("c3").name == "c3" and END.name == "end"
    assert PASS.name == "pass"
    assert s.parse_move(" E4 ") == mv("e4") and s.parse_move("End") == END
    assert s.parse_move("PASS") == PASS
    for bad in ("z9", "i1", "a9", "", "c"):
        with pytest.raises(ValueError):
            s.parse_move(bad)
    small = new_game(size=4)
    with pytest.raises(ValueError, match="not on a 4x4 board"):
        small.parse_move("a5")


@pytest.mark.parametrize("move", [Place(63, 10), Place(18, 6), 18, True, "c3", 2.0, None])
def test_non_moves_are_refused(move):
    refusal = new_game().check(move)
    assert refusal is not None and refusal.code == "not-a-square"
    with pytest.raises(IllegalMove):
        new_game().play(move)


def test_replaying_move_names_rebuilds_the_game():
    words = ["c3", "b1", "d1", "a1", "end", "d4", "e4", "b3", "end"]
    s, names = new_game(), []
    for word in words:
        move = s.parse_move(word)
        names.append(move.name)
        s = s.play(move)
    assert names == words and s.discarded == (1, 1) and s.turn == BLACK
    replay = new_game()
    for name in names:
        replay = replay.play(replay.parse_move(name))
    assert replay == s == get_spec("binary").replay(names)


def test_refused_play_leaves_the_state_unchanged():
    s = play(new_game(), "c3 b1")
    with pytest.raises(IllegalMove) as err:
        s.play(mv("c1"))
    assert err.value.refusal.code == "second-colour"
    assert s.placed == (sq("b1"),) and s.turn == WHITE


# ----------------------------------------------------------------------------- properties

MOVE_SPACE = (END, PASS)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([4, 6, 8]),
    st.booleans(),
    st.sampled_from(["pass", "end"]),
    st.data(),
)
def test_random_legal_games(n, empty_joins, stuck, data):
    s = new_game(size=n, empty_joins=empty_joins, stuck=stuck)
    total = n * n // 2
    limit = 3 * total + 10  # placements + ENDs + passes, with room to spare
    for _ in range(limit):
        if s.is_over():
            break
        legal = s.legal_moves()
        # check() is None exactly for the moves legal_moves() lists
        for m in [*places(n), *MOVE_SPACE]:
            refusal = s.check(m)
            assert (refusal is None) == (m in legal), (m, legal)
            assert refusal is None or len(refusal.reason) <= 2 * 21  # two OLED lines
        move = data.draw(st.sampled_from(legal))
        mover, before = s.turn, s
        s = s.play(move)
        assert s.ply == before.ply + 1
        k = 0 if mover == BLACK else 1
        if move.cells:
            (cell,) = move.cells
            own = square_owner(cell, n) == mover
            cost = 2 if cell in centre_squares(n) and not own else 1
            assert before.hands[k] - s.hands[k] == cost
            assert s.discarded[k] - before.discarded[k] == cost - 1
            assert s.hands[1 - k] == before.hands[1 - k]
            assert s.cells[cell] == ("x" if mover == BLACK else "o")
        else:
            assert s.hands == before.hands and s.cells == before.cells
        # pieces are conserved: on the board + in hand + discarded = n*n/4 each
        assert s.cells.count("x") + s.hands[0] + s.discarded[0] == total // 2
        assert s.cells.count("o") + s.hands[1] + s.discarded[1] == total // 2
        # at most two pieces in a turn, and the mover always holds a piece
        assert len(s.placed) <= 1
        if s.turn is not None:
            assert s.hands[0 if s.turn == BLACK else 1] > 0
    assert s.is_over(), "game did not end"
    assert s.legal_moves() == [] and s.outcome() is not None
    # n*n/2 pieces never fill the n*n squares, so nobody is ever stuck in a real game
    assert s.end_reason == "all pieces placed" and s.hands == (0, 0) and s.passes == 0


def test_binary_refusals_say_the_rule_not_its_opposite():
    st = get_spec("binary").new()
    refusal = st.check(mv("e4"))
    assert refusal is not None and refusal.reason == "e4: first piece may not go in the centre"
    from companion.views.oled import wrap

    assert len(wrap(refusal.reason)) == 2 and not wrap(refusal.reason)[-1].endswith("..")
