"""Binaryon engine: lines, moves, refusals, passes, game end, scoring worked out by hand."""

from __future__ import annotations

import pytest

from companion.core.position_text import parse_position
from companion.core.squares import square_name
from companion.games import get_spec
from companion.games.base import Differ, IllegalMove, Place, Play, places
from companion.games.binaryon.engine import PASS, BinaryonState, legal_squares
from companion.games.binaryon.lines import all_lines
from companion.games.binaryon.options import resolve
from companion.games.binaryon.scoring import score_cells, score_detail
from companion.games.binaryon.tables import rules
from tests.positions import BINARYON_START as START
from tests.positions import hint_of, sq

# e4 black with exactly four black neighbours (d4, d5, e5, f5); d4 black too.
P1 = """
xxxxxxxx
xxxxxxxx
xxxxxxxx
xxxxxxxx
oooxxooo
oooooooo
oooooooo
oooooooo
"""


def mv(name: str, n: int = 8) -> Place:
    """The move that turns the square ``name``."""
    return places(n)[sq(name, n)]


def cells_of_moves(moves) -> list[int]:
    return [c for m in moves for c in m.cells]


def path(text: str, n: int = 8) -> tuple[int, ...]:
    return tuple(sq(s, n) for s in text.split("-"))


def names(line, n: int = 8) -> str:
    return "-".join(square_name(s, n) for s in line)


def cells_of(text: str) -> tuple[int, list[str]]:
    return parse_position(text)


def only_white(squares: list[str], n: int = 8) -> list[str]:
    cells = ["x"] * (n * n)
    for s in squares:
        cells[sq(s, n)] = "o"
    return cells


# --------------------------------------------------------------------------------------- lines


def test_example_lines_from_the_rules_exist_both_ways():
    lines = set(all_lines(8))
    for text in ("d8-c7-b6-a5-b4-c3-d2-e1", "c5-d6-e7-f8-g7-h6-g5-f4"):
        line = path(text)
        assert line in lines
        assert tuple(reversed(line)) in lines


def test_rows_and_columns_are_whole_and_never_reflect():
    lines = set(all_lines(8))
    assert path("a1-b1-c1-d1-e1-f1-g1-h1") in lines
    assert path("h1-g1-f1-e1-d1-c1-b1-a1") in lines
    assert path("e8-e7-e6-e5-e4-e3-e2-e1") in lines
    # a row segment reflected back would be a straight angle
    assert path("c1-b1-a1-b1-c1-d1-e1-f1") not in lines
    assert path("c1-d1-e1-f1-g1-h1-a2-b2") not in lines


def test_no_line_continues_out_of_a_corner():
    lines = all_lines(8)
    # f6-g7-h8 would have to come straight back from h8
    assert not any(ln[0] != sq("h8") and ln[-1] != sq("h8") and sq("h8") in ln for ln in lines)
    # a corner is only ever an end of a line
    for corner in ("a1", "h1", "a8", "h8"):
        assert all(sq(corner) in (ln[0], ln[-1]) for ln in lines if sq(corner) in ln)


def test_small_board_line_worked_by_hand():
    # 4x4: a2 NE -> b3, c4, then the rank would leave the board: reflect down to d3.
    lines = set(all_lines(4))
    assert path("a2-b3-c4-d3", 4) in lines
    assert path("a1-b2-c3-d4", 4) in lines
    assert path("a1-b1-c1-d1", 4) in lines


@pytest.mark.parametrize("n", [4, 6, 8, 10, 16])
def test_lines_are_n_distinct_king_steps_closed_under_reversal(n):
    lines = all_lines(n)
    assert len(lines) == len(set(lines))
    assert {tuple(reversed(ln)) for ln in lines} == set(lines)
    for ln in lines:
        assert len(ln) == n and len(set(ln)) == n
        for a, b in zip(ln, ln[1:], strict=False):
            assert max(abs(a // n - b // n), abs(a % n - b % n)) == 1


def _reference_lines(n: int) -> set[tuple[int, ...]]:
    """Independent generator: unfold reflections into a triangle wave of period 2(n-1)."""
    period = 2 * (n - 1)

    def fold(u: int) -> int:
        u %= period
        return u if u < n else period - u

    out = set()
    for r0 in range(n):
        for f0 in range(n):
            for dr in (-1, 0, 1):
                for df in (-1, 0, 1):
                    if dr == df == 0:
                        continue
                    raw = [(r0 + k * dr, f0 + k * df) for k in range(n)]
                    if dr == 0 or df == 0:
                        if all(0 <= r < n and 0 <= f < n for r, f in raw):
                            out.add(tuple(r * n + f for r, f in raw))
                        continue
                    pts = [(fold(r), fold(f)) for r, f in raw]
                    if any(r in (0, n - 1) and f in (0, n - 1) for r, f in pts[1:-1]):
                        continue  # would pass through a corner
                    out.add(tuple(r * n + f for r, f in pts))
    return out


@pytest.mark.parametrize("n", [4, 6, 8, 12])
def test_lines_match_an_independent_construction(n):
    assert set(all_lines(n)) == _reference_lines(n)


def test_line_counts():
    # 4n rows/columns read both ways plus the diagonal lines
    assert len(all_lines(8)) == 204
    assert sum(1 for ln in all_lines(8) if ln[1] - ln[0] in (1, -1, 8, -8)) == 32
    assert len(all_lines(4)) == 44


def test_lines_filtered_by_scoring_options():
    ortho = all_lines(8, {"scoring": "orthogonal"})
    assert len(ortho) == 32
    through = all_lines(8, {"through": "a1"})
    # row 1, column a and the long diagonal, each read both ways
    assert {names(ln) for ln in through} == {
        "a1-b1-c1-d1-e1-f1-g1-h1",
        "h1-g1-f1-e1-d1-c1-b1-a1",
        "a1-a2-a3-a4-a5-a6-a7-a8",
        "a8-a7-a6-a5-a4-a3-a2-a1",
        "a1-b2-c3-d4-e5-f6-g7-h8",
        "h8-g7-f6-e5-d4-c3-b2-a1",
    }
    assert len(all_lines(8, {"scoring": "orthogonal", "through": "e4"})) == 4


# --------------------------------------------------------------------------------------- moves


def test_start_position():
    s = get_spec("binaryon").new()
    assert s.turn == "on" and s.ply == 0 and s.last is None
    cells = s.cells()
    assert cells[sq("a1")] == "o" and cells[sq("h4")] == "o"
    assert cells[sq("a5")] == "x" and cells[sq("h8")] == "x"
    # free opening: ON may turn any black piece
    assert cells_of_moves(s.legal_moves()) == list(range(32, 64))
    assert s.forced_move() is None


def test_first_option_lets_off_open():
    s = get_spec("binaryon").new(**{"first": "off"})
    assert s.turn == "off"
    assert cells_of_moves(s.legal_moves()) == list(range(32))
    assert s.check(mv("e5")).reason == "e5: already black"


def test_refusal_texts_after_the_opening():
    s = get_spec("binaryon").new().play(mv("d5"))
    assert s.turn == "off" and s.last == sq("d5")
    r = s.check(mv("d6"))
    assert (r.code, r.reason) == ("wrong-colour", "d6: already black")
    r = s.check(mv("d5"))
    assert (r.code, r.reason) == ("same-square", "d5: same square as last")
    # a3 is on the other colour of the chequer than d5 and shares no row or column
    r = s.check(mv("a3"))
    assert (r.code, r.reason) == ("not-in-line", "a3: not in line with d5")
    r = s.check(PASS)
    assert (r.code, r.reason) == ("has-move", "pass: you have a move")
    # e4 is diagonal to d5 and has 6 white neighbours (d3 e3 f3 d4 f4 and now d5)
    assert s.check(mv("e4")) is None
    with pytest.raises(IllegalMove) as exc:
        s.play(mv("a3"))
    assert exc.value.refusal.code == "not-in-line"


def test_majority_refusal_counts_the_current_colour():
    n, cells = cells_of(P1)
    s = BinaryonState.from_cells(cells, n, mover="on", last=sq("e8"))
    # e4: neighbours d5 e5 f5 d4 are black (4), d3 e3 f3 f4 white: 4 of 8 is not a majority
    r = s.check(mv("e4"))
    assert (r.code, r.reason) == ("no-majority", "e4: needs 5 black nbrs, has 4")
    # d4 is on the other chequer colour from e8, not on its row or column
    assert s.check(mv("d4")).reason == "d4: not in line with e8"
    # e5, same column: neighbours d4 e4 d5 f5 d6 e6 f6 black (7), f4 white
    assert s.check(mv("e5")) is None
    assert s.check(mv("e3")).reason == "e3: already white"
    # OFF turning white pieces: a corner needs 2 of its 3 neighbours
    s_off = BinaryonState.from_cells(only_white(["a1", "b1"]), 8, mover="off", last=sq("h1"))
    assert s_off.check(mv("a1")).reason == "a1: needs 2 white nbrs, has 1"
    # edge square: b1's neighbours a1 (white) c1 a2 b2 c2 (black): needs 3 of 5
    assert s_off.check(mv("b1")).reason == "b1: needs 3 white nbrs, has 1"


def test_opening_option():
    n, cells = cells_of(P1)
    free = BinaryonState.from_cells(cells, n, mover="on")
    assert free.check(mv("e4")) is None
    maj = BinaryonState.from_cells(cells, n, mover="on", options={"opening": "majority"})
    assert maj.check(mv("e4")).reason == "e4: needs 5 black nbrs, has 4"
    assert maj.check(mv("e5")) is None
    assert sq("e4") in legal_squares(cells, n, "on", None)
    assert sq("e4") not in legal_squares(cells, n, "on", None, {"opening": "majority"})


def test_reach_ray_equals_line_on_every_size():
    # A reflecting diagonal either runs corner to corner (a long diagonal, itself a line) or
    # repeats with period 2(n-1); the n-square windows through a square cover 2n-1 >= that,
    # so the unbounded ray reaches exactly the squares the lines do.
    for n in range(4, 17, 2):
        assert rules({"size": n, "reach": "ray"}).reach == rules({"size": n}).reach
    assert rules({"reach": "ray"}).reach[sq("d5")] >> sq("a3") & 1 == 0


def test_pass_and_game_end_on_a_chequerboard():
    # every square has 4 same-coloured and 4 other neighbours (fewer on edges): nobody can move
    n = 8
    cells = ["o" if (i // n + i % n) % 2 == 0 else "x" for i in range(n * n)]
    s = BinaryonState.from_cells(cells, n, mover="on", last=sq("d4"))
    assert s.legal_moves() == [PASS]
    assert s.forced_move() == PASS
    assert s.check(PASS) is None
    assert s.check(mv("e4")).code == "no-majority"
    s = s.play(PASS)
    assert s.turn == "off" and s.last == sq("d4") and not s.is_over()
    s = s.play(PASS)
    assert s.is_over() and s.turn is None and s.ply == 2
    assert s.legal_moves() == [] and s.forced_move() is None
    assert s.check(mv("e4")).reason == "game over"
    assert s.check(PASS).reason == "game over"
    out = s.outcome()
    # long diagonals are one colour: both have 11111111; a mirror swaps the colours, so every
    # number cancels
    assert out.winner is None and out.summary == "draw"
    assert out.detail["on"]["best"] == out.detail["off"]["best"] == "11111111"


def test_a_move_after_a_pass_resets_the_pass_count():
    s = BinaryonState.from_cells(["o"] * 64, 8, mover="on", last=sq("d4"))
    assert s.legal_moves() == [PASS]  # ON has no black piece to turn
    s = s.play(PASS).play(places(8)[sq("d4") + 1])  # OFF: e4 in line with d4, all neighbours white
    assert s.passes == 0 and s.last == sq("e4") and s.turn == "on"
    assert s.outcome() is None


def test_move_names_round_trip():
    s = get_spec("binaryon").new()
    assert mv("e4").name == "e4" and PASS.name == "pass" and mv("j10", 10).name == "j10"
    assert s.parse_move("E4") == mv("e4") and s.parse_move(" pass ") == PASS
    with pytest.raises(ValueError, match="not a square"):
        s.parse_move("z9")
    with pytest.raises(ValueError, match="not on a 8x8 board"):
        Place(64, 8)  # no such place: the rules never see one
    with pytest.raises(ValueError, match="cell -1"):
        Place(-1, 8)
    assert s.check(mv("e4", 10)).code == "not-a-square"  # a square of another board size
    assert s.check(64).code == "not-a-square"  # not a move at all
    assert s.check(True).code == "not-a-square"


def test_options_are_validated():
    assert resolve({})["size"] == 8
    with pytest.raises(ValueError, match="through"):
        resolve({"through": "i9"})
    with pytest.raises(ValueError, match="through"):
        resolve({"size": 4, "through": "e4"})
    assert resolve({"size": 4, "through": "D4"})["through"] == "d4"
    with pytest.raises(ValueError, match="odd"):
        resolve({"size": 5})
    with pytest.raises(ValueError, match="above"):
        resolve({"size": 18})
    with pytest.raises(ValueError, match="unknown rule option"):
        resolve({"colour": "red"})


# ------------------------------------------------------------------------------------- scoring


def _reference_score(cells: list[str], n: int, options=None):
    """Straight from the rules: every number, largest wins, cancel identical ones on a tie."""
    lines = all_lines(n, options)
    on = [int("".join("1" if cells[s] == "o" else "0" for s in ln), 2) for ln in lines]
    off = [int("".join("1" if cells[s] == "x" else "0" for s in ln), 2) for ln in lines]
    a, b = list(on), list(off)
    for v in list(a):
        if v in b:
            a.remove(v)
            b.remove(v)
    winner = None
    if a:
        winner = "on" if max(a) > max(b) else "off"
    return max(on), max(off), winner


def test_start_position_is_a_draw():
    n, cells = cells_of(START)
    sc = score_cells(cells, n)
    # rows 1-4 are all white, rows 5-8 all black; the first such lines listed are a1-h1 and
    # a5-h5. Swapping ranks 1-4 with 8-5 swaps the colours, so every number cancels.
    assert sc.bits(sc.on_best) == sc.bits(sc.off_best) == "11111111"
    assert names(sc.on_line) == "a1-b1-c1-d1-e1-f1-g1-h1"
    assert names(sc.off_line) == "a5-b5-c5-d5-e5-f5-g5-h5"
    assert sc.winner is None and sc.remaining() is None


def test_single_white_piece():
    # Only e4 is white. ON's numbers have one 1 where a line meets e4; the largest is a line
    # starting at e4. Lines from e4 in the listed order: east/north/west/south are not whole
    # rows or columns, so the first is NE: e4 f5 g6 h7, reflect off the h-file to g8, off
    # rank 8 to f7, then e6 d5. ON best 10000000. OFF: a1-h1 is all black: 11111111.
    cells = only_white(["e4"])
    sc = score_cells(cells, 8)
    assert sc.bits(sc.on_best) == "10000000"
    assert names(sc.on_line) == "e4-f5-g6-h7-g8-f7-e6-d5"
    assert sc.bits(sc.off_best) == "11111111"
    assert names(sc.off_line) == "a1-b1-c1-d1-e1-f1-g1-h1"
    assert sc.winner == "off"
    assert _reference_score(cells, 8)[2] == "off"


def test_tie_break_cancels_identical_numbers():
    # The start position with h8 turned white. Lines through h8 (a corner, so always an end):
    # row 8, column h and the long diagonal, both ways. Before, ON's and OFF's collections
    # were equal; now ON's numbers on those lines are 00000001, 10000000, 11110001, 10001111,
    # 11110001, 10001111 and OFF's the complements 11111110, 01111111, 00001110, 01110000,
    # 00001110, 01110000. Both still have 11111111 (ON rows 1-4 both ways: 8 lines; OFF rows
    # 5-7 both ways: 6 lines). Cancelling leaves ON two 11111111 and OFF none: ON wins.
    # OFF's largest left is 11111110: the a8-h8 line adds one more to the ones both had
    # (a5 NE: a5 b6 c7 d8, reflect, e7 f6 g5 then h4 white), and a5-b6-...-h4 is listed first.
    n, cells = cells_of(START)
    cells[sq("h8")] = "o"
    sc = score_cells(cells, n)
    assert sc.tied and sc.bits(sc.on_best) == "11111111"
    assert sc.winner == "on"
    rem = sc.remaining()
    assert sc.bits(rem["on"][0]) == "11111111"
    assert names(rem["on"][1]) == "a1-b1-c1-d1-e1-f1-g1-h1"
    assert sc.bits(rem["off"][0]) == "11111110"
    assert names(rem["off"][1]) == "a5-b6-c7-d8-e7-f6-g5-h4"
    assert _reference_score(cells, n)[2] == "on"
    detail = score_detail(sc)
    assert detail["winner"] == "on"
    assert detail["tiebreak"]["off"] == {
        "best": "11111110",
        "line": ["a5", "b6", "c7", "d8", "e7", "f6", "g5", "h4"],
    }


def test_scoring_orthogonal_and_through_options():
    # Main diagonal a1..h8 white, the rest black.
    cells = only_white([f"{'abcdefgh'[i]}{i + 1}" for i in range(8)])
    # All lines: ON has 11111111 on a1-b2-...-h8 (the first line from a1 after a1-h1 and
    # a1-a8). OFF has 11111111 too, first on b1 NE: b1 c2 d3 e4 f5 g6 h7, reflect to g8.
    # ON's only all-white lines are the diagonal both ways; OFF has more, so OFF wins the
    # tie-break.
    sc = score_cells(cells, 8)
    assert names(sc.on_line) == "a1-b2-c3-d4-e5-f6-g7-h8"
    assert names(sc.off_line) == "b1-c2-d3-e4-f5-g6-h7-g8"
    assert sc.tied and sc.winner == "off"
    assert sc.bits(sc.remaining()["off"][0]) == "11111111"
    # Rows and columns only: each has exactly one white piece. ON's best 10000000 (a1-h1);
    # OFF's best 11111110: h1 up to h8 (listed before h1-a1), and a8-h8, h1-a1 too.
    sc = score_cells(cells, 8, {"scoring": "orthogonal"})
    assert sc.bits(sc.on_best) == "10000000" and names(sc.on_line) == "a1-b1-c1-d1-e1-f1-g1-h1"
    assert sc.bits(sc.off_best) == "11111110" and names(sc.off_line) == "h1-h2-h3-h4-h5-h6-h7-h8"
    assert sc.winner == "off"


def test_scoring_through_a_square():
    n, cells = cells_of(START)
    # Through a1: row 1 (ON 11111111), column a and the diagonal read downwards (OFF 11110000,
    # a8-a1 is listed before h8-a1).
    sc = score_cells(cells, n, {"through": "a1"})
    assert sc.bits(sc.on_best) == "11111111"
    assert sc.bits(sc.off_best) == "11110000"
    assert names(sc.off_line) == "a8-a7-a6-a5-a4-a3-a2-a1"
    assert sc.winner == "on"
    # Orthogonal through e4: row 4 gives ON 11111111; OFF best is e8 down to e1.
    sc = score_cells(cells, n, {"scoring": "orthogonal", "through": "e4"})
    assert names(sc.on_line) == "a4-b4-c4-d4-e4-f4-g4-h4"
    assert names(sc.off_line) == "e8-e7-e6-e5-e4-e3-e2-e1" and sc.winner == "on"


def test_scoring_matches_the_reference_on_mixed_boards():
    import random

    rng = random.Random(7)
    for n in (4, 6, 8, 10, 16):
        for options in ({}, {"scoring": "orthogonal"}, {"through": "b2"}):
            for _ in range(25 if n < 16 else 5):
                cells = [rng.choice("xo") for _ in range(n * n)]
                sc = score_cells(cells, n, options)
                on, off, winner = _reference_score(cells, n, options)
                assert (sc.on_best, sc.off_best, sc.winner) == (on, off, winner)


def test_empty_square_is_refused():
    cells = ["x"] * 64
    cells[sq("c3")] = "."
    with pytest.raises(ValueError, match="c3: empty"):
        score_cells(cells, 8)


# ------------------------------------------------------------------------------------- spec


def test_spec_basics_and_panel():
    spec = get_spec("binaryon")
    assert spec.name == "binaryon" and spec.title == "BINARYON"
    assert {o.name for o in spec.options} == {
        "first",
        "opening",
        "reach",
        "size",
        "scoring",
        "through",
    }
    s = spec.new(size=6)
    assert spec.layout(spec.resolve({"size": 6})).files == 6 and s.n == 6
    panel = spec.panel(spec.new())
    assert panel.title == "BINARYON" and panel.move == 1
    assert [(r.label, r.value, r.to_move) for r in panel.rows] == [
        ("ON", "11111111", True),
        ("OFF", "11111111", False),
    ]
    leds = spec.leds(spec.new())
    assert leds[:32] == [(160, 140, 100)] * 32 and leds[32:] == [(0, 0, 0)] * 32
    assert spec.interpreter("switch").press(spec.new(), sq("e5")) == Play(mv("e5"))
    with pytest.raises(ValueError, match="through"):
        spec.new(through="h9")


def test_spec_highlight_at_the_end():
    spec = get_spec("binaryon")
    cells = only_white(["e4"])
    s = BinaryonState.from_cells(cells, 8, mover="on", last=sq("e4"), passes=2, ply=9)
    assert spec.highlight(s) == path("a1-b1-c1-d1-e1-f1-g1-h1")  # OFF won
    panel = spec.panel(s)
    assert panel.note == "OFF wins" and panel.move == 9
    assert not any(r.to_move for r in panel.rows)
    assert spec.highlight(get_spec("binaryon").new()) == ()
    n, start = cells_of(START)
    drawn = BinaryonState.from_cells(start, n, passes=2)
    assert set(spec.highlight(drawn)) == set(range(0, 8)) | set(range(32, 40))


def test_spec_on_board_readings():
    spec = get_spec("binaryon")
    s = spec.new()
    readings = s.cells()
    assert spec.interpreter("polarity").board(s, readings) is None
    turned = list(readings)
    turned[sq("e5")] = "o"  # ON turns a black disc white
    assert spec.interpreter("polarity").board(s, turned) == Play(mv("e5"))
    wrong = list(readings)
    wrong[sq("e4")] = "x"  # ON cannot make a piece black
    assert spec.interpreter("polarity").board(s, wrong) == Differ(
        (sq("e4"),), "e4: ON turns black to white; turn back"
    )
    lifted = list(readings)
    lifted[sq("a1")] = "."
    assert spec.interpreter("polarity").board(s, lifted) == Differ((sq("a1"),), "put a disc on a1")
    several = list(turned)
    several[sq("a1")] = "x"
    several[sq("b1")] = "x"
    assert spec.interpreter("polarity").board(s, several) == Differ(
        (sq("a1"), sq("b1"), sq("e5")), "3 squares differ"
    )


def test_score_position_shapes_and_errors():
    spec = get_spec("binaryon")
    result = spec.positions().score(START, {})
    assert result == {
        "game": "binaryon",
        "on": {"best": "11111111", "line": ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]},
        "off": {"best": "11111111", "line": ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5"]},
        "winner": "draw",
    }
    with pytest.raises(ValueError, match="size is 6"):
        spec.positions().score(START, {"size": "6"})
    with pytest.raises(ValueError, match="empty"):
        spec.positions().score(START.replace("| x | x | x | x | x | x | x | x | 8", "." * 8), {})
    text = spec.positions().describe_score(START, {})
    assert "| o | o | o | o | o | o | o | o | 1" in text
    assert "Every number cancels: draw" in text


def test_spec_hint_cycles_moves_and_best_line():
    spec = get_spec("binaryon")
    s = spec.new()
    assert hint_of(spec, s, 0) == (tuple(range(32, 64)), "32 moves for ON")
    assert hint_of(spec, s, 1) == (path("a1-b1-c1-d1-e1-f1-g1-h1"), "ON's best line: 11111111")
    stuck = BinaryonState.from_cells(["o"] * 64, 8, mover="on", last=0)
    assert hint_of(spec, stuck, 2) == ((), "ON must pass")
    over = BinaryonState.from_cells(only_white(["e4"]), 8, passes=2)
    assert hint_of(spec, over, 0) == (path("a1-b1-c1-d1-e1-f1-g1-h1"), "OFF wins")
