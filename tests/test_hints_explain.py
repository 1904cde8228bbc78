"""The engine hint's one-line reason (companion/engines/explain.py), on known positions of the
three engine games: what the move does to the score, what a complete search proved, the value
at the search's depth otherwise; always two OLED lines at most."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.adapters import adapter_for
from companion.engines.explain import fits, hint_line
from companion.engines.search import WIN, Result, choose
from companion.games import get_spec
from companion.games.binary.engine import END, PASS
from companion.games.binaryon.engine import BinaryonState
from companion.games.wythe.moves import SWAP, Placement

from .positions import mv, play, sq

new_binary = get_spec("binary").new
new_binaryon = get_spec("binaryon").new


def told(move, value=0, depth=3, complete=False):
    return Result(move, value, [move], depth, 100, complete)


# ------------------------------------------------------------------------------- Binaryon

# ON's best number reads 1010 (b1-c2-d3-... a diagonal); OFF's is 1111.
BINARYON_4 = BinaryonState.from_cells(list("xxoxoxxxxxxxoxox"), 4, "on", None)


def test_binaryon_a_move_that_raises_the_movers_best_number():
    assert BINARYON_4.score().on_best == 0b1010
    a1 = mv("a1", 4)
    after = BINARYON_4.play(a1)
    assert after.score().on_best == 0b1101  # 13 = 10 + 3
    assert hint_line(BINARYON_4, told(a1)) == "hint a1: ON best 1101 (+3)"


def test_binaryon_a_move_that_changes_no_best_number_says_the_searchs_view():
    s = new_binaryon(size=4)  # both best numbers are 1111 whatever ON turns first
    move = mv("b3", 4)
    assert hint_line(s, told(move, value=8, depth=5)) == "hint b3: ahead by 2 at depth 5"
    assert hint_line(s, told(move, value=-5, depth=4)) == "hint b3: behind by 1 at depth 4"
    assert hint_line(s, told(move, value=1, depth=2)) == "hint b3: even at depth 2"


def test_binaryon_proofs_outrank_the_score_change():
    a1 = mv("a1", 4)
    assert hint_line(BINARYON_4, told(a1, WIN, complete=True)) == "hint a1: forced win"
    assert hint_line(BINARYON_4, told(a1, -WIN, complete=True)) == "hint a1: lost anyway; best try"
    assert hint_line(BINARYON_4, told(a1, 0, complete=True)) == "hint a1: holds a draw"
    # an unproven value of WIN (a slipped move, a cut search) is not called a win
    assert hint_line(BINARYON_4, told(a1, WIN)) == "hint a1: ON best 1101 (+3)"


def test_binaryon_the_search_proves_a_4x4_endgame():
    s = new_binaryon(size=4)
    result = choose(adapter_for("binaryon"), s, "default", None, nodes=200_000)
    assert result.complete  # the whole 4x4 game is searched: the first player holds a draw
    assert hint_line(s, result) == f"hint {result.move.name}: holds a draw"


def test_binaryon_a_forced_pass():
    s = BinaryonState.from_cells(list("xoxooxoxoxooxoxx"), 4, "on", sq("a1", 4))
    assert s.legal_moves() == [PASS]
    assert hint_line(s, told(PASS, WIN, 2, True)) == "hint: pass (no move): forced win"
    assert hint_line(s, told(PASS, 4, 2)) == "hint: pass (no move): ahead by 1 at depth 2"


def test_binaryon_an_only_move_and_a_search_that_finished_no_depth():
    s = BinaryonState.from_cells(list("ooxooooxoxxoxoxx"), 4, "on", sq("c4", 4))
    assert s.legal_moves() == [mv("d4", 4)]
    assert hint_line(s, told(mv("d4", 4), 0, 0)) == "hint d4: only move"
    start = new_binaryon(size=4)
    assert hint_line(start, told(mv("b3", 4), 0, 0)) == "hint b3: first look"


def test_binaryon_16x16_numbers_fall_back_to_a_shorter_wording():
    rng = random.Random(1)
    words = set()
    for _ in range(6):
        cells = [rng.choice("xo") for _ in range(256)]
        s = BinaryonState.from_cells(cells, 16, "on", None)
        for m in s.legal_moves()[:40]:
            text = hint_line(s, told(m, 40, 6))
            assert fits(text), text
            words.add("short" if " best " not in text and "+" in text else "long")
    assert "short" in words  # a 16-digit number and a large change: "ON +1234" instead


# ------------------------------------------------------------------------------- Binary


def test_binary_a_placement_that_makes_a_territory():
    s = play(new_binary(size=4), "a1")  # White to play its first turn
    b2 = mv("b2", 4)  # a dark centre square: b2 with its four empty light neighbours, 5 squares
    assert hint_line(s, told(b2)) == "hint b2: WHITE score 10 (+10)"


def test_binary_mid_turn_the_next_placement_or_end():
    s = play(new_binary(size=4), "a1 b1")  # White placed b1 and may add one more or end
    assert s.turn == "white" and s.placed == (sq("b1", 4),)
    assert hint_line(s, told(END, -4, 3)) == "hint: end (confirm): behind by 1"  # fits 2 lines
    result = choose(adapter_for("binary"), s, "default", None, nodes=3000)
    assert result.move in s.legal_moves()
    text = hint_line(s, result)
    name = result.move.name
    assert text.startswith("hint: end (confirm)" if result.move == END else f"hint {name}: ")


def test_binary_the_opponents_score_down():
    s = play(new_binary(size=4), "a1 b2")  # White b2 (10); Black to play
    assert s.turn == "black" and s.score()["white"]["score"] == 10
    a2 = mv("a2", 4)  # a light square beside b2: Black's own territory and White's cut
    assert s.play(a2).score()["black"]["score"] == 6
    assert hint_line(s, told(a2)) == "hint a2: BLACK score 6 (+6)"  # its own gain comes first
    later = play(new_binary(size=4), "d2 a3 c1 end b4")  # Black to play
    a4 = mv("a4", 4)  # between White's a3 and b4: cuts White's territory, makes no Black one
    before, after = later.score(), later.play(a4).score()
    assert (before["black"]["score"], after["black"]["score"]) == (0, 0)
    assert (before["white"]["score"], after["white"]["score"]) == (12, 10)
    assert hint_line(later, told(a4)) == "hint a4: WHITE score 10 (-2)"


def test_binary_pass():
    assert (
        hint_line(new_binary(size=4), told(PASS, 0, 1)) == "hint: pass (no move): even at depth 1"
    )


# ------------------------------------------------------------------------------- Wythe


def test_wythe_a_placement_that_grows_a_group():
    s = play(get_spec("wythe").new(**{"size": 4, "pie": False}), "a1-b1")  # White to place
    move = Placement(sq("c2", 4), sq("b2", 4), 4)  # white half on b2, beside White's b1
    assert s.score().white == 0
    assert hint_line(s, told(move)) == "hint c2-b2: White scores 2 (+2)"
    assert move.cells == (sq("c2", 4), sq("b2", 4))  # both halves are lit


def test_wythe_swap_and_the_search():
    s = play(get_spec("wythe").new(**{"size": 4}), "a1-b1")  # the pie rule: White may swap
    assert hint_line(s, told(SWAP, 0, 2)) == "hint: swap: even at depth 2"
    result = choose(adapter_for("wythe"), s, "default", None, nodes=2000)
    assert result.move in s.legal_moves() and fits(hint_line(s, result))


# ------------------------------------------------------------------------------- all of them


def test_no_move_and_lit_cells():
    assert hint_line(new_binaryon(size=4), None) == "hint: no move"
    assert mv("f1").cells == (5,) and PASS.cells == () and SWAP.cells == ()


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(["binaryon", "binary", "wythe"]), seed=st.integers(0, 10_000))
def test_every_reason_fits_two_oled_lines_and_names_a_legal_move(game, seed):
    from companion.engines.adapters import new_state

    rng = random.Random(seed)
    s = new_state(game)
    for _ in range(rng.randrange(0, 12)):
        if s.is_over():
            break
        s = s.play(rng.choice(s.legal_moves()))
    if s.is_over():
        return
    move = rng.choice(s.legal_moves())
    value = rng.choice([WIN, -WIN, 0, rng.randrange(-400, 400)])
    text = hint_line(s, told(move, value, rng.randrange(0, 9), rng.random() < 0.5))
    assert fits(text), text
    word = move.name
    assert text.startswith(f"hint {word}:") or text.startswith("hint: ")


@pytest.mark.parametrize("text, ok", [("x" * 21, True), ("x" * 21 + " y", True), ("x" * 43, False)])
def test_fits_is_two_lines_of_21(text, ok):
    assert fits(text) is ok
