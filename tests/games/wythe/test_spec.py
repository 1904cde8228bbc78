"""Hosting Wythe: the board input (presses, a presence board, confirm), the views, the hints
and the record outputs."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.base import Differ, Pending, Play, Refuse
from companion.games.wythe.moves import BLACK, PASS, SWAP, WHITE, Placement
from companion.games.wythe.spec import GROUP_RGB, OFF, TOP_RGB, lead_note, score_value
from tests.games.wythe.test_engine import BLOCKED, ZERO_ZERO, play, start
from tests.positions import sq

SPEC = get_spec("wythe")


def presence(state, extra=()):
    """What a presence board reads for ``state`` with pieces also on the ``extra`` squares."""
    out = ["0" if c == "." else "1" for c in state.cells()]
    for name in extra:
        out[sq(name, state.n)] = "1"
    return out


# --------------------------------------------------------------------------- switch presses


def test_press_black_half_then_white_half():
    s = start()
    inp = SPEC.interpreter("switch")
    first = inp.press(s, sq("d4"))
    assert first == Pending((sq("d4"),), "d4 black: now press the white half")
    assert inp.pending() == first
    assert inp.press(s, sq("d5")) == Play(Placement(sq("d4"), sq("d5"), 8))


def test_second_press_on_the_first_square_cancels():
    s = start()
    inp = SPEC.interpreter("switch")
    inp.press(s, sq("d4"))
    assert inp.press(s, sq("d4")) == Pending((), "")
    assert inp.pending() is None
    assert isinstance(inp.press(s, sq("e4")), Pending)  # a fresh first half


def test_bad_presses_are_refused_and_keep_the_first_half():
    s = play(start(), "d4-d5 e4-e5")  # tops d4 x, d5 o, e4 x, e5 o
    inp = SPEC.interpreter("switch")
    refused = inp.press(s, sq("d4"))  # black on a black top
    assert isinstance(refused, Refuse) and refused.refusal.code == "like-colour"
    assert refused.cell == sq("d4") and inp.pending() is None
    inp.press(s, sq("a1"))
    far = inp.press(s, sq("c3"))
    assert isinstance(far, Refuse) and far.refusal.code == "not-adjacent"
    assert far.refusal.reason == "c3: not next to a1"
    assert inp.pending().cells == (sq("a1"),)  # still waiting for the white half
    assert inp.press(s, sq("a2")) == Play(Placement(sq("a1"), sq("a2"), 8))
    inp.reset()
    assert inp.pending() is None


def test_presses_after_the_end_mean_nothing():
    over = play(start(size=4), BLOCKED + " pass pass")
    assert SPEC.interpreter("switch").press(over, 0) is None


# --------------------------------------------------------------------------- presence board


def test_presence_board_two_new_squares_then_confirm():
    s = start()
    inp = SPEC.interpreter("presence")
    assert inp.expected(s) == ["0"] * 64
    assert inp.board(s, presence(s)) is None
    seen = inp.board(s, presence(s, ["d5", "d4"]))
    assert seen == Pending((sq("d4"), sq("d5")), "d4-d5? confirm, or press the black half")
    assert inp.button(s, "confirm") == Play(Placement(sq("d4"), sq("d5"), 8))
    # or the black half chosen by a press on either square
    assert inp.press(s, sq("d5")) == Play(Placement(sq("d5"), sq("d4"), 8))
    after = play(s, "d5-d4")
    assert inp.expected(after)[sq("d4")] == "1"
    inp.reset()
    assert inp.board(after, presence(after)) is None


def test_presence_board_mismatches():
    s = play(start(), "d4-d5")
    inp = SPEC.interpreter("presence")
    gone = presence(s)
    gone[sq("d4")] = "0"
    assert inp.board(s, gone) == Differ((sq("d4"),), "put back d4")
    one = inp.board(s, presence(s, ["a1"]))
    assert one == Differ((sq("a1"),), "a1: a piece covers 2 squares")
    apart = inp.board(s, presence(s, ["a1", "c1"]))
    assert isinstance(apart, Differ) and apart.hint == "c1: not next to a1"
    many = inp.board(s, presence(s, ["a1", "b1", "c1"]))
    assert isinstance(many, Differ) and many.hint.startswith("3 new squares")
    assert inp.board(s, ["1"] * 10) == Differ((), "board has 10 squares, not 64")
    over = play(start(size=4), BLOCKED + " pass pass")
    assert isinstance(SPEC.interpreter("presence").board(over, ["1"] * 16), type(None))


def test_switch_board_readings_mean_nothing():
    s = start()
    inp = SPEC.interpreter("switch")
    assert inp.expected(s) == ["0"] * 64 and inp.board(s, ["0"] * 64) is None


# --------------------------------------------------------------------------- confirm


def test_confirm_takes_the_pie_on_whites_first_turn_only():
    inp = SPEC.interpreter("switch")
    assert inp.button(start(), "confirm") is None
    s1 = play(start(), "d4-d5")
    assert inp.button(s1, "confirm") == Play(SWAP)
    assert inp.button(s1, "menu") is None
    inp.press(s1, sq("a1"))  # a piece being entered: confirm does not swap
    assert inp.button(s1, "confirm") is None
    assert SPEC.interpreter("switch").button(play(start(pie=False), "d4-d5"), "confirm") is None


# --------------------------------------------------------------------------- views


def test_view_of_a_stacked_position():
    s = play(start(), "d4-d5 e5-e4 d5-e5")
    view = SPEC.view(s)
    assert view == SPEC.view(s, BLACK) == SPEC.view(s, WHITE)  # no secrets
    d5 = view.cells[sq("d5")]
    assert (d5.piece, d5.height, d5.text, d5.colour) == ("x", 2, "2", TOP_RGB[BLACK])
    d4 = view.cells[sq("d4")]
    assert (d4.piece, d4.height, d4.text) == ("x", 1, "")
    assert view.cells[0].piece == "" and view.leds[0] == OFF
    # brighter for a higher stack
    assert sum(view.leds[sq("d5")]) > sum(view.leds[sq("d4")]) > 0
    assert view.leds[sq("e5")][0] > view.leds[sq("e5")][2]  # a white top: warm colour
    assert view.explanation[:2] == ("Black: one group of 2", "White: one group of 2")
    assert view.explanation[2] == "0-0: Black placed last"
    assert view.actions == ()


def test_view_actions_swap_and_pass():
    assert SPEC.view(play(start(), "d4-d5")).actions == ((SWAP.name, SWAP.name),)
    # only on the page of the player whose turn it is (and the table's)
    assert SPEC.view(play(start(), "d4-d5"), "white").actions == ((SWAP.name, SWAP.name),)
    assert SPEC.view(play(start(), "d4-d5"), "black").actions == ()
    assert SPEC.view(play(start(size=4), BLOCKED)).actions == ((PASS.name, PASS.name),)
    swapped = SPEC.view(play(start(), "d4-d5 swap"))
    assert "White swapped: the first player now plays White" in swapped.explanation


def test_panel_rows_and_notes():
    s = play(start(), "d4-d5")
    panel = SPEC.panel(s)
    assert panel.title == "WYTHE" and panel.move == 2
    assert [(r.label, r.value, r.to_move) for r in panel.rows] == [
        ("BLACK", "0 1x1", False),
        ("WHITE", "0 1x1", True),
    ]
    assert panel.note == "White: place or swap"
    s = play(s, "a1-a2 h8-h7 c4-b4")
    assert lead_note(s) == "Black leads: 1x2 to 0"  # one group of 2 to none
    assert lead_note(play(start(), "d4-d5 a1-a2")) == "Black leads: 0-0 rule"
    assert lead_note(start()) == ""
    assert lead_note(play(start(size=4), BLOCKED)) == "Black must pass"
    over = play(start(size=4), BLOCKED + " pass pass")
    assert lead_note(over) == "White wins: 1x8 to 0"
    assert SPEC.panel(over).move == over.ply and not any(r.to_move for r in SPEC.panel(over).rows)


def test_score_value_fits_the_row():
    s = play(start(size=4), BLOCKED)
    assert score_value(s, BLACK) == "4 2x4" and score_value(s, WHITE) == "8 1x8"
    # black c4-d4 (2), a1 and h8 (1 each): "2 1x2 2x1" cut to 6 characters
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    assert score_value(s, BLACK) == "2 1x2 2x1"
    assert score_value(s, BLACK, width=6) == "2 1x2+"
    rng = random.Random(3)
    s = start()
    while moves := s.legal_moves():
        s = s.play(rng.choice(moves))
        assert all(len(score_value(s, p)) <= 14 for p in (BLACK, WHITE))


def test_hints_cycle():
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    first = SPEC.hint(s, 0)
    assert first.text == f"{len(s.placements())} placements for Black"
    assert sq("e1") in first.cells and sq("d4") not in first.cells
    mine = SPEC.hint(s, 1)
    assert mine.text == "Black scores 2: 1 group of 2 to 0" and mine.cells == (sq("c4"), sq("d4"))
    assert mine.colour == GROUP_RGB[BLACK]
    theirs = SPEC.hint(s, 2)
    assert theirs.text == "White scores 1: 4 groups of 1 to 2" and len(theirs.cells) == 4
    assert SPEC.hint(s, 3) == first
    assert SPEC.hint(play(start(), "d4-d5"), 1).text == "White scores 0: no size with more groups"
    assert SPEC.hint(play(start(size=4), BLOCKED), 0).text == "Black must pass"


WHITE_GROUP = ["b1", "c1", "b2", "c2", "b3", "c3", "b4", "c4"]


def test_end_of_game_highlight_and_result():
    over = play(start(size=4), BLOCKED + " pass pass")
    assert SPEC.highlight(over) == tuple(sq(x, 4) for x in WHITE_GROUP)
    assert SPEC.highlight(play(start(size=4), BLOCKED)) == ()
    outcome = over.outcome()
    assert outcome.winners == (WHITE,) and outcome.reason == "one group of 8 to none"
    assert f"{outcome.summary}: {outcome.reason}" == "WHITE wins 8-4: one group of 8 to none"
    tie = play(start(size=4), ZERO_ZERO)
    assert tie.outcome().reason == f"{tie.last_placer.capitalize()} placed last"
    assert SPEC.highlight(tie) == ()  # 0-0: no group decided it
    hint = SPEC.hint(over, 1)
    assert hint.text == "White scores 8: 1 group of 8 to 0"


def test_record_outputs():
    s = play(start(size=4), BLOCKED)
    assert SPEC.positions().score_record(s)["winner"] == "white"
    assert SPEC.positions().describe_record(s).endswith("White leads 8-4.\n")
    assert SPEC.positions().legal_record(s) == {"moves": ["pass"]}


@settings(max_examples=30, deadline=None)
@given(st.randoms())
def test_wythe_hints_never_speak_of_groups_of_0_or_a_lead_at_0_0(rnd):
    spec = get_spec("wythe")
    state = spec.new(**spec.resolve({"size": 4, "pie": False}))
    while not state.is_over():
        for move in state.legal_moves():
            for words in spec.line_effect(state, state.play(move)):
                assert "groups of 0" not in words and "lead at 0-0" not in words, words
        state = state.play(rnd.choice(list(state.legal_moves())))
