"""The engine hint's one-line reason (companion/engines/explain.py), on known positions of the
three engine games, in each game's own terms: what a complete search proved, where the line the
search expects leads (the race for a line, a territory, the group size that scores), what the
move does to the score, or plainly what the move does; never the search's depth or values;
always two OLED lines at most."""

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
from companion.games.binaryon.lines import all_lines
from companion.games.binaryon.words import line_label
from companion.games.wythe.moves import SWAP, Placement
from tests.positions import mv, play, sq

spec_of = get_spec
new_binary = get_spec("binary").new
new_binaryon = get_spec("binaryon").new


def told(move, value=0, depth=3, complete=False, line=None):
    return Result(move, value, [move] if line is None else line, depth, 100, complete)


# ------------------------------------------------------------------------------- Binaryon

# ON's best number reads 1010 (b1-c2-d3-... a diagonal); OFF's is 1111.
BINARYON_4 = BinaryonState.from_cells(list("xxoxoxxxxxxxoxox"), 4, "on", None)


def test_binaryon_a_move_that_raises_the_movers_best_number():
    assert BINARYON_4.score().on_best == 0b1010
    a1 = mv("a1", 4)
    after = BINARYON_4.play(a1)
    assert after.score().on_best == 0b1101  # 13 = 10 + 3
    assert hint_line(BINARYON_4, told(a1)) == "hint a1: raises ON's best to 1101"


@pytest.mark.parametrize(
    "cells, mover, square, reason",
    [
        # OFF's best is rank 1 read from h1 (ON's a1 is its only 1): all black, OFF takes it
        ("oxxxxxxxxxxxxxxx", "off", "a1", "only move"),
        ("ooxoxxxxooxoxxxx", "off", "d1", "keeps the lead on the c-file"),
        ("xxxooxooxxoxooxo", "on", "a3", "takes the lead on d2-b4-a3"),  # a reflecting line
        ("xooxxooxooxooxxo", "off", "b3", "draws level"),
        ("oooxxxxoooooxoxo", "off", "c3", "holds ON to 1110"),
        ("xoxxxoxxxxxxxxoo", "on", "c3", "raises ON's best to 1110"),  # the race is not decided
    ],
)
def test_binaryon_the_race_for_the_best_line_in_words(cells, mover, square, reason):
    s = BinaryonState.from_cells(list(cells), 4, mover, None)
    assert hint_line(s, told(mv(square, 4), value=40, depth=6)) == f"hint {square}: {reason}"


def test_binaryon_the_reason_is_where_the_expected_line_ends():
    s = BinaryonState.from_cells(list("ooooxooxxoxxoxxo"), 4, "off", None)
    a4, a3, a1 = mv("a4", 4), mv("a3", 4), mv("a1", 4)
    assert hint_line(s, told(a4)) == "hint a4: wins the tie with c3-b4-a3-b2"
    end = s.play(a4).play(a3).play(a1)
    assert (s.score().on_best, end.score().on_best) == (0b1111, 0b1110)
    assert hint_line(s, told(a4, line=[a4, a3, a1])) == "hint a4: holds ON to 1110"
    # a line that is not the move's (an unfinished deeper search changed the move) is not used
    assert hint_line(s, told(a4, line=[a3, a1])) == hint_line(s, told(a4))
    # a line cut short by an illegal move ends there
    assert hint_line(s, told(a4, line=[a4, a4, a3, a1])) == hint_line(s, told(a4))


def test_binaryon_lines_by_their_names():
    n = 8
    names = {line_label(line, n) for line in all_lines(n)}
    assert {"the f-file", "rank 3", "the a1-h8 diagonal", "the d8-a5-e1 line"} <= names
    rules_example = tuple(sq(x) for x in ["d8", "c7", "b6", "a5", "b4", "c3", "d2", "e1"])
    assert line_label(rules_example, n) == "the d8-a5-e1 line"
    assert line_label(rules_example, n, short=True) == "d8-a5-e1"


def test_binaryon_the_searchs_depth_and_values_are_never_said():
    s = new_binaryon(size=4)
    move = mv("b3", 4)
    texts = {hint_line(s, told(move, value, depth)) for value in (-9, 1, 8) for depth in (2, 5)}
    assert texts == {"hint b3: wins the tie with rank 1"}


def test_binaryon_proofs_outrank_the_score_change():
    a1 = mv("a1", 4)
    assert hint_line(BINARYON_4, told(a1, WIN, complete=True)) == "hint a1: forced win"
    assert hint_line(BINARYON_4, told(a1, -WIN, complete=True)) == "hint a1: lost anyway; best try"
    assert hint_line(BINARYON_4, told(a1, 0, complete=True)) == "hint a1: holds a draw"
    # an unproven value of WIN (a slipped move, a cut search) is not called a win
    assert hint_line(BINARYON_4, told(a1, WIN)) == "hint a1: raises ON's best to 1101"


def test_binaryon_the_search_proves_a_4x4_endgame():
    s = new_binaryon(size=4)
    result = choose(adapter_for("binaryon"), s, "default", None, nodes=200_000)
    assert result.complete  # the whole 4x4 game is searched: the first player holds a draw
    assert hint_line(s, result) == f"hint {result.move.name}: holds a draw"


def test_binaryon_a_forced_pass():
    s = BinaryonState.from_cells(list("xoxooxoxoxooxoxx"), 4, "on", sq("a1", 4))
    assert s.legal_moves() == [PASS]
    assert hint_line(s, told(PASS, WIN, 2, True)) == "hint: pass (no move): forced win"
    assert s.score().winner == "on"  # and after the pass too
    assert hint_line(s, told(PASS, 4, 2)) == "hint: pass (no move): keeps the lead"


def test_binaryon_an_only_move_and_a_search_that_finished_no_depth():
    s = BinaryonState.from_cells(list("ooxooooxoxxoxoxx"), 4, "on", sq("c4", 4))
    assert s.legal_moves() == [mv("d4", 4)]
    assert hint_line(s, told(mv("d4", 4), 0, 0)) == "hint d4: only move"
    start = new_binaryon(size=4)
    assert hint_line(start, told(mv("b3", 4), 0, 0)) == "hint b3: wins the tie with rank 1"


def test_binaryon_a_move_that_changes_nothing_clear_says_what_it_does():
    s = BinaryonState.from_cells(list("xxoooooooxxxxooo"), 4, "off", None)
    c2 = mv("c2", 4)
    assert spec_of("binaryon").line_effect(s, s.play(c2)) == []
    assert spec_of("binaryon").move_effect(s, s.play(c2)) == []
    assert hint_line(s, told(c2)) == "hint c2: turns it black"


def test_binaryon_16x16_numbers_fall_back_to_a_shorter_wording():
    rng = random.Random(1)
    words = set()
    for _ in range(6):
        cells = [rng.choice("xo") for _ in range(256)]
        s = BinaryonState.from_cells(cells, 16, "on", None)
        for m in s.legal_moves()[:40]:
            text = hint_line(s, told(m, 40, 6))
            assert fits(text), text
            words.add("short" if text.endswith("best") else "long")
    assert "short" in words  # a 16-digit number does not fit: "raises ON's best"


# ------------------------------------------------------------------------------- Binary


def test_binary_a_placement_that_makes_a_territory():
    s = play(new_binary(size=4), "a1")  # White to play its first turn
    b2 = mv("b2", 4)  # a dark centre square: b2 with its four empty light neighbours, 5 squares
    assert hint_line(s, told(b2)) == "hint b2: makes a territory of 5"


def test_binary_mid_turn_the_next_placement_or_end():
    s = play(new_binary(size=4), "a1 b1")  # White placed b1 and may add one more or end
    assert s.turn == "white" and s.placed == (sq("b1", 4),)
    assert hint_line(s, told(END, -4, 3)) == "hint: end (confirm): keeps a piece in hand"
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
    assert hint_line(s, told(a2)) == "hint a2: makes a territory of 3"  # its own gain first
    later = play(new_binary(size=4), "d2 a3 c1 end b4")  # Black to play
    a4 = mv("a4", 4)  # between White's a3 and b4: cuts White's territory, makes no Black one
    before, after = later.score(), later.play(a4).score()
    assert (before["black"]["score"], after["black"]["score"]) == (0, 0)
    assert (before["white"]["score"], after["white"]["score"]) == (12, 10)
    assert hint_line(later, told(a4)) == "hint a4: cuts WHITE's score to 10"


@pytest.mark.parametrize(
    "moves, square, reason",
    [
        ("d4 b4 c4 b2 b1 a4", "d1", "grows its territory to 5"),  # its largest: 3 -> 5
        ("b4 b2 d3 b3 d1 d2", "b1", "grows its territory to 4"),
    ],
)
def test_binary_a_territory_grows(moves, square, reason):
    s = play(new_binary(size=4), moves)
    assert hint_line(s, told(mv(square, 4))) == f"hint {square}: {reason}"


def test_binary_who_leads_where_the_line_ends():
    effect = spec_of("binary").line_effect
    s = play(new_binary(size=4), "c1 b2 c4 d3 end a2")  # White to play
    end = s.play(mv("a1", 4))
    assert end.score()["white"]["score"] == end.score()["black"]["score"] == 10
    assert effect(s, end)[-1] == "takes the lead on the tie-break"
    s = play(new_binary(size=4), "d4 b4 c4 b2 b1 a4")  # Black to play
    assert effect(s, s.play(mv("d1", 4)))[-1] == "takes the lead by 13-12"


def test_binary_pass():
    assert hint_line(new_binary(size=4), told(PASS, 0, 1)) == "hint: pass (no move)"


# ------------------------------------------------------------------------------- Wythe


def test_wythe_a_placement_that_grows_a_group():
    s = play(get_spec("wythe").new(**{"size": 4, "pie": False}), "a1-b1")  # White to place
    move = Placement(sq("c2", 4), sq("b2", 4), 4)  # white half on b2, beside White's b1
    assert s.score().white == 0
    assert hint_line(s, told(move)) == "hint c2-b2: keeps the lead with groups of 2"
    assert move.cells == (sq("c2", 4), sq("b2", 4))  # both halves are lit


def test_wythe_the_0_0_rule_at_the_end_of_the_line():
    s = play(get_spec("wythe").new(**{"size": 4, "pie": False}), "a1-b1")  # White leads 0-0
    mine, reply = s.parse_move("d4-c4"), s.parse_move("d1-d2")
    end = s.play(mine).play(reply)  # three single groups each: 0-0, Black placed last
    assert end.score().reason == "last-mover" and end.score().leader == "white"
    hint = hint_line(s, told(mine, line=[mine, reply]))
    assert hint == "hint d4-c4: keeps the lead on the 0-0 rule"
    assert spec_of("wythe").line_effect(s, end)[0] == ("keeps the lead: 0-0 and Black placed last")
    assert hint_line(s, told(mine)) != hint_line(s, told(mine, line=[mine, reply]))


def test_wythe_a_stack_and_a_plain_placement():
    s = play(get_spec("wythe").new(**{"size": 4, "pie": False}), "a1-b1 b2-a2")
    on_top = Placement(sq("b1", 4), sq("b2", 4), 4)  # black on White's b1, white on Black's b2
    assert s.check(on_top) is None and s.height(sq("b1", 4)) == 1
    assert spec_of("wythe").move_words(s, on_top) == "stacks it 2 high"
    flat = Placement(sq("c1", 4), sq("d1", 4), 4)
    assert spec_of("wythe").move_words(s, flat) == "lays a new domino"


def test_wythe_swap_and_the_search():
    s = play(get_spec("wythe").new(**{"size": 4}), "a1-b1")  # the pie rule: White may swap
    assert hint_line(s, told(SWAP, 0, 2)) == "hint: swap: takes over Black's position"
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


def test_binary_behind_but_closer():
    s = play(new_binary(size=4), "a1 b2")  # White b2 (10-0); Black to play
    end = s.play(mv("d1", 4))  # a territory of 3 for Black, White's 10 untouched
    before, after = s.score(), end.score()
    assert after["white"]["score"] > after["black"]["score"]
    gap = after["white"]["score"] - after["black"]["score"]
    assert gap < before["white"]["score"] - before["black"]["score"]
    words = spec_of("binary").line_effect(s, end)
    assert words[-1] == f"narrows the gap to {after['black']['score']}-{after['white']['score']}"
