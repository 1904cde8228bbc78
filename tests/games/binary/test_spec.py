"""Binary hosting: panel, LEDs, board readings -> moves on every sensor kind, scoring text."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.position_text import parse_position
from companion.games import get_spec
from companion.games.base import Differ, GameSpec, Play
from companion.games.binary.board import BLACK, WHITE, square_owner
from companion.games.binary.engine import END, PASS, BinaryState
from companion.games.binary.spec import (
    LIGHT_EMPTY,
    OFF,
    OLED_WIDTH,
    PIECE_RGB,
    SPEC,
)
from companion.views.oled import Screen
from tests.positions import BINARY_FIG3 as FIG3
from tests.positions import cells_of, hint_of, mv, play, sq
from tests.views.test_oled_golden import text_of

new_game = get_spec("binary").new

TIE_6X6 = """
x x . . . .
. . . . . .
x . . o . .
. . . . . .
. . . . . o
. . . x o .
"""

IN = SPEC.interpreter("presence")  # the board logic is the same for every kind


def presence(cells) -> list[str]:
    return ["0" if c == "." else "1" for c in cells]


def polarity(cells) -> list[str]:
    return list(cells)


def with_piece(readings: list[str], square: int, value: str) -> list[str]:
    out = list(readings)
    out[square] = value
    return out


def finished(text: str) -> BinaryState:
    n, cells = parse_position(text)
    return BinaryState.from_position(cells, n, hands=(0, 0))


# ----------------------------------------------------------------------------- basics


def test_spec_is_registered():
    assert get_spec("binary") is SPEC and isinstance(SPEC, GameSpec)
    assert SPEC.name == "binary" and SPEC.title == "BINARY"
    assert SPEC.sensor_kinds == ("switch", "presence", "polarity")
    assert [o.name for o in SPEC.options] == ["size", "empty_joins", "stuck"]


def test_new_and_board_size():
    s = SPEC.new(**SPEC.resolve({"size": "6"}))
    assert s.n == 6 and s.hands == (9, 9)
    assert SPEC.layout(SPEC.resolve({})).files == 8 and SPEC.layout({"size": 10}).files == 10
    with pytest.raises(ValueError, match="size"):
        SPEC.new(size=7)


# ----------------------------------------------------------------------------- panel and LEDs


def test_panel_at_start():
    panel = SPEC.panel(SPEC.new())
    assert panel.title == "BINARY" and panel.move == 0
    assert [(r.label, r.value, r.to_move) for r in panel.rows] == [
        ("BLACK", "0", True),
        ("WHITE", "0", False),
    ]
    assert panel.note == "in hand B16 W16"


def test_panel_shows_scores_and_territories():
    # Black c3 (dark): its neighbours b3 d3 c2 c4 are light -> no territory.
    # White c1 (dark) gathers the empty light b1, d1, c2 -> 4, score 8.
    s = play(SPEC.new(), "c3 c1")
    panel = SPEC.panel(s)
    assert [(r.label, r.value, r.to_move) for r in panel.rows] == [
        ("BLACK", "0", True),
        ("WHITE", "8", False),
    ]
    assert panel.note == "in hand B15 W15" and panel.move == 2


def test_panel_note_mid_turn():
    s = play(SPEC.new(), "c3 b1")
    assert SPEC.panel(s).note == "2nd piece or confirm"
    assert SPEC.panel(s.play(END)).note == "in hand B15 W15"


def test_panel_note_fits_and_drops_the_hands_when_full():
    panel = SPEC.panel(finished(FIG3))
    assert panel.note == "B 22,3,2 W 15,5,4,3"
    assert [r.value for r in panel.rows] == ["49", "42"]
    assert not any(r.to_move for r in panel.rows)


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([6, 8, 16]))
def test_panel_note_always_fits(rnd, n):
    s = new_game(size=n)
    while not s.is_over():
        assert len(SPEC.panel(s).note) <= OLED_WIDTH
        s = s.play(rnd.choice(s.legal_moves()))
    assert len(SPEC.panel(s).note) <= OLED_WIDTH


def test_leds_show_pieces_and_square_colours():
    s = play(new_game(), "c3 c1")
    leds = SPEC.leds(s)
    assert len(leds) == 64
    assert leds[sq("c3")] == PIECE_RGB[BLACK] and leds[sq("c1")] == PIECE_RGB[WHITE]
    assert leds[sq("a1")] == OFF and leds[sq("b1")] == LIGHT_EMPTY
    assert PIECE_RGB[BLACK] != PIECE_RGB[WHITE]
    for i, colour in enumerate(leds):
        if s.cells[i] == ".":
            assert colour == (OFF if square_owner(i, 8) == BLACK else LIGHT_EMPTY)


def test_highlight_is_the_winners_territories():
    assert SPEC.highlight(SPEC.new()) == ()
    state = finished(FIG3)
    marked = set(SPEC.highlight(state))
    assert len(marked) == 22 + 3 + 2
    assert {sq("g1"), sq("h1"), sq("h2"), sq("a8"), sq("b8")} <= marked
    assert sq("a1") not in marked
    draw = finished(". . . .\no . . .\n. . . .\n. x . .\n")
    assert SPEC.highlight(draw) == ()


def test_hint_cycles_territories_and_squares():
    s = play(SPEC.new(), "c3 c1 c5 end")  # White c1 gathers b1 d1 c2; White to move
    squares, text = hint_of(SPEC, s, 0)
    assert set(squares) == {sq("b1"), sq("c1"), sq("d1"), sq("c2")} and text == "WHITE territory 4"
    assert hint_of(SPEC, s, 1) == ((), "BLACK has no territory")
    squares, text = hint_of(SPEC, s, 2)
    assert set(squares) == set(cells_of(s.legal_moves()))
    assert text == f"WHITE can place on {len(squares)} squares"
    assert hint_of(SPEC, s, 3) == hint_of(SPEC, s, 0)
    over = finished(FIG3)
    squares, text = hint_of(SPEC, over, 0)
    assert len(squares) == 27 and text == "BLACK territories 22,3,2"
    assert hint_of(SPEC, over, 1)[1] == "WHITE territories 15,5,4,3" and hint_of(
        SPEC, over, 2
    ) == hint_of(SPEC, over, 0)


def test_expected_readings_per_kind():
    s = play(SPEC.new(), "c3 c1")
    for kind, occupied in (("polarity", ("x", "o")), ("presence", ("1", "1"))):
        r = SPEC.interpreter(kind).expected(s)
        assert (r[sq("c3")], r[sq("c1")]) == occupied and r.count(r[0]) == 62
        assert IN.board(s, r) is None
    assert SPEC.interpreter("switch").expected(s) == ["0"] * 64


# ----------------------------------------------------------------------------- presses, buttons


def test_on_press_plays_the_square():
    s = SPEC.new()
    assert IN.press(s, sq("c3")) == Play(mv("c3"))
    assert IN.press(s, sq("b1")) == Play(mv("b1"))  # the engine refuses it
    assert s.check(mv("b1")) is not None
    assert IN.press(s, 64) is None and IN.press(s, -1) is None


def test_confirm_button_ends_the_turn_only_when_allowed():
    s = SPEC.new()
    assert IN.button(s, "confirm") is None
    s = play(s, "c3 b1")
    assert IN.button(s, "confirm") == Play(END)
    assert IN.button(s, "menu") is None and IN.button(s, "undo") is None


def test_confirm_button_passes_when_stuck():
    cells = ["o" if i % 2 else "x" for i in range(16)]
    cells[sq("b2", 4)] = cells[sq("c3", 4)] = "."
    s = BinaryState.from_position(cells, 4, mover=WHITE, hands=(2, 1))
    assert IN.button(s, "confirm") == Play(PASS)


# ----------------------------------------------------------------------------- board readings


def test_on_board_no_difference():
    s = play(new_game(), "c3 c1")
    assert IN.board(s, presence(s.cells)) is None
    assert IN.board(s, polarity(s.cells)) is None


def test_on_board_one_new_piece_is_played():
    s = play(new_game(), "c3")
    assert IN.board(s, with_piece(presence(s.cells), sq("b1"), "1")) == Play(mv("b1"))
    assert IN.board(s, with_piece(polarity(s.cells), sq("b1"), "o")) == Play(mv("b1"))
    # an illegal single piece is still handed to the engine, which explains the refusal
    opening = SPEC.new()
    action = IN.board(opening, with_piece(presence(opening.cells), sq("b1"), "1"))
    assert action == Play(mv("b1")) and opening.check(mv("b1")).code == "first-dark"


def test_on_board_two_new_pieces_one_at_a_time():
    s = play(new_game(), "c3")
    readings = presence(s.cells)
    readings = with_piece(with_piece(readings, sq("b1"), "1"), sq("d1"), "1")
    action = IN.board(s, readings)
    assert action == Play(mv("b1"))
    s = s.play(action.move)
    assert IN.board(s, readings) == Play(mv("d1"))
    s = s.play(mv("d1"))
    assert IN.board(s, readings) is None and s.turn == BLACK


def test_on_board_two_new_pieces_picks_a_workable_order():
    # White b1 (own colour) and e4 (own centre): only e4 alone or b1 then... e4 must be alone,
    # so no order works; b1 and a2: both own colour, either order.
    s = play(new_game(), "c3")
    r = presence(s.cells)
    both = with_piece(with_piece(r, sq("a2"), "1"), sq("b1"), "1")
    assert IN.board(s, both) == Play(mv("b1"))  # b1 (index 1) before a2 (index 8)
    bad = with_piece(with_piece(r, sq("b1"), "1"), sq("e4"), "1")
    action = IN.board(s, bad)
    assert isinstance(action, Differ) and set(action.cells) == {sq("b1"), sq("e4")}
    assert action.hint == "e4: a centre piece must be alone"


def test_on_board_own_and_other_colour_cannot_both_go():
    s = play(new_game(), "c3")
    r = with_piece(with_piece(presence(s.cells), sq("b1"), "1"), sq("c1"), "1")
    action = IN.board(s, r)
    assert isinstance(action, Differ)
    assert action.hint in ("c1: 2nd piece must be own colour", "b1: turn is over")


def test_on_board_too_many_new_pieces():
    s = play(new_game(), "c3")
    r = presence(s.cells)
    for name in ("b1", "d1", "f1"):
        r = with_piece(r, sq(name), "1")
    action = IN.board(s, r)
    assert isinstance(action, Differ) and action.hint == "3 new pieces, max 2"
    # after one accepted piece, two more are one too many
    s = play(s, "b1")
    r2 = with_piece(with_piece(presence(s.cells), sq("d1"), "1"), sq("f1"), "1")
    action = IN.board(s, r2)
    assert isinstance(action, Differ) and "turn is over" in action.hint


def test_on_board_missing_piece():
    s = play(new_game(), "c3 c1")
    action = IN.board(s, with_piece(presence(s.cells), sq("c3"), "0"))
    assert action == Differ((sq("c3"),), "put back c3")
    r = with_piece(with_piece(polarity(s.cells), sq("c3"), "."), sq("c1"), ".")
    action = IN.board(s, r)
    assert action == Differ((sq("c1"), sq("c3")), "put back c1 c3")
    # a missing piece wins over a new one
    r = with_piece(with_piece(presence(s.cells), sq("c3"), "0"), sq("a1"), "1")
    assert isinstance(IN.board(s, r), Differ)


def test_on_board_wrong_colour():
    s = play(new_game(), "c3")
    # White to move; a black disc appears and White has not placed anything yet
    action = IN.board(s, with_piece(polarity(s.cells), sq("b1"), "x"))
    assert action == Differ((sq("b1"),), "b1: WHITE to place; wrong colour")
    # a piece on the board turned over
    action = IN.board(s, with_piece(polarity(s.cells), sq("c3"), "o"))
    assert action == Differ((sq("c3"),), "c3: was black; turn it back")


def test_polarity_opponent_piece_ends_the_turn():
    s = play(new_game(), "c3 b1")  # White placed one own-colour piece, did not press confirm
    r = with_piece(polarity(s.cells), sq("a1"), "x")
    assert IN.board(s, r) == Play(END)
    s = s.play(END)
    assert IN.board(s, r) == Play(mv("a1"))


def test_on_board_bad_readings():
    s = SPEC.new()
    action = IN.board(s, ["0"] * 63)
    assert isinstance(action, Differ) and action.hint == "board has 63 squares, not 64"
    action = IN.board(s, with_piece(["0"] * 64, sq("e4"), "?"))
    assert action == Differ((sq("e4"),), "e4: bad reading")


def test_on_board_after_the_game():
    s = finished(FIG3)
    r = with_piece(presence(s.cells), sq("b8"), "1")
    assert IN.board(s, r) == Differ((sq("b8"),), "remove b8")
    assert IN.board(s, presence(s.cells)) is None


# ----------------------------------------------------------------------------- full games


def random_game(seed: int, n: int = 8) -> tuple[list, BinaryState]:
    rnd = random.Random(seed)
    s = new_game(size=n)
    moves = []
    while not s.is_over():
        legal = s.legal_moves()
        # END competes with dozens of squares: give it a fair chance so turns of one piece occur
        m = END if END in legal and rnd.random() < 0.4 else rnd.choice(legal)
        moves.append(m)
        s = s.play(m)
    return moves, s


def settle(state: BinaryState, readings: list[str]) -> BinaryState:
    """Play what the board shows until it matches the game; a mismatch fails the test."""
    for _ in range(4):
        action = IN.board(state, readings)
        if action is None:
            return state
        assert isinstance(action, Play), action
        state = state.play(action.move)
    raise AssertionError("board never matched")


@pytest.mark.parametrize("seed", range(4))
def test_full_game_on_switches(seed):
    moves, final = random_game(seed)
    s = SPEC.new()
    for m in moves:
        action = IN.button(s, "confirm") if m == END else IN.press(s, m.cell)
        assert action == Play(m)
        s = s.play(action.move)
    assert s == final and s.is_over() and s.outcome() == final.outcome()


@pytest.mark.parametrize("kind", ["presence", "polarity"])
@pytest.mark.parametrize("seed", range(6))
def test_full_game_on_sensors(kind, seed):
    moves, final = random_game(seed, n=8 if seed % 2 else 6)
    rnd = random.Random(seed)
    read = presence if kind == "presence" else polarity
    s = SPEC.new(size=final.n)
    physical = list(s.cells)  # what stands on the board
    pending_end = False  # a turn the player ended without pressing confirm
    turns = new_game(size=final.n)  # replays the plan to know who places each piece
    for m in moves:
        if m == END:
            s = settle(s, read(physical))  # the board is read before anyone ends a turn
            turns = turns.play(m)
            next_is_opponent = turns.turn not in (None, s.turn)
            if kind == "polarity" and next_is_opponent and rnd.random() < 0.5:
                pending_end = True  # the opponent's disc will say it
                continue
            action = IN.button(s, "confirm")
            assert action == Play(END)
            s = s.play(END)
            continue
        if m == PASS:
            assert s.forced_move() == PASS
            s, turns = s.play(PASS), turns.play(PASS)
            continue
        physical[m.cell] = "x" if turns.turn == BLACK else "o"
        turns = turns.play(m)
        # sometimes put the second piece of a turn down before the board is read
        if not pending_end and turns.placed and rnd.random() < 0.5:
            continue
        s = settle(s, read(physical))
        pending_end = False
    s = settle(s, read(physical))
    assert s == final and s.is_over()
    assert SPEC.highlight(s) == SPEC.highlight(final)


def test_presence_game_with_a_lifted_piece():
    s = play(new_game(), "c3 b1 d1")
    board = presence(s.cells)
    lifted = with_piece(board, sq("b1"), "0")
    assert IN.board(s, lifted) == Differ((sq("b1"),), "put back b1")
    assert IN.board(s, board) is None


# ----------------------------------------------------------------------------- scoring text


def test_score_position_exact_dict():
    out = SPEC.positions().score(FIG3, {})
    assert out == {
        "game": "binary",
        "black": {"score": 49, "territories": [22, 3, 2]},
        "white": {"score": 42, "territories": [15, 5, 4, 3]},
        "winner": "black",
    }
    json.dumps(out)  # JSON-able
    assert SPEC.positions().score(TIE_6X6)["winner"] == "black"
    assert SPEC.positions().score(". . . .\no . . .\n. . . .\n. x . .\n")["winner"] == "draw"


def test_score_position_options():
    two_groups = ". . . .\n. . . .\n. . . .\n. x . x\n"
    assert SPEC.positions().score(two_groups, {"empty_joins": "false"})["black"] == {
        "score": 11,
        "territories": [4, 3],
    }
    assert SPEC.positions().score(two_groups, {"empty_joins": True})["black"]["score"] == 12
    # the size comes from the position itself; one given on purpose must agree
    assert SPEC.positions().score(two_groups, {"size": "4"})["black"]["score"] == 12
    with pytest.raises(ValueError, match="expected 8 ranks, found 4"):
        SPEC.positions().score(two_groups, {"size": 8})


@pytest.mark.parametrize(
    "text, options, message",
    [
        ("x y\n", {}, "'y' is not x, o or ."),
        ("", {}, "no position found"),
        ("x . .\n. . .\n. . .\n", {}, "board size must be even"),
        (FIG3, {"empty_joins": "perhaps"}, "empty_joins"),
        (FIG3, {"colour": 1}, "unknown rule option"),
    ],
)
def test_score_position_errors_are_one_line(text, options, message):
    with pytest.raises(ValueError, match=message) as err:
        SPEC.positions().score(text, options)
    assert "\n" not in str(err.value)


def test_describe_score_marks_territories():
    text = SPEC.positions().describe_score(FIG3, {})
    lines = text.splitlines()
    assert "BLACK 49 = 2x22 + 3 + 2: A=22 B=3 C=2" in lines
    assert "WHITE 42 = 2x15 + 5 + 4 + 3: a=15 b=5 c=4 d=3" in lines
    assert lines[-1] == "BLACK wins 49-42"
    # rank 1: position "o o x . x . . x", territories: a1 b1 (White 15 = a), d1 (a, empty),
    # g1 h1 (Black 3 = B); c1 e1 are lone Black pieces and f1 is nobody's
    assert " 1 o o x . x . . x  a a x a x . B B" in lines
    assert sum(line.count("A") for line in lines[1:9]) == 22


def test_describe_score_tie_break_and_shared_squares():
    text = SPEC.positions().describe_score(TIE_6X6)
    assert text.splitlines()[-2:] == [
        "BLACK wins 15-15",
        "tie 15-15: black's largest territory 6 > 5",
    ]
    shared = SPEC.positions().describe_score(
        ". . . .\n. . . .\n. . . .\n. x . x\n", {"empty_joins": False}
    )
    assert " 1 . x . x  A A + B" in shared.splitlines()
    assert "+ = empty square counted in two or more territories" in shared


def test_binary_note_spells_out_the_pieces_in_hand():
    panel = get_spec("binary").panel(get_spec("binary").new())
    assert panel.note == "in hand B16 W16"
    assert "move" in text_of(Screen(panel)).splitlines()[0]
