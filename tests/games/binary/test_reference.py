"""Binary's scoring through the public API equals the plain list-based reference of
benchmarks/naive_binary.py (a flood fill over a list of lists, written from the rules) on
random positions of every size and both readings of ``empty_joins``, the one option that
changes a score; and bench_binary.py compares the two on the same positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.position_text import parse_position
from companion.games import get_spec
from companion.games.binary.bitboard import Position
from companion.games.binary.bits import board_bits
from companion.games.binary.board import BLACK, PLAYERS, WHITE
from companion.games.binary.engine import BinaryState
from companion.games.binary.territories import score_cells, territories, territory_sizes
from tests.benchmark_modules import load_benchmark
from tests.positions import BINARY_FIG3

SPEC = get_spec("binary")
naive = load_benchmark("naive_binary")


def board(n: int, cells: str) -> list[list[str]]:
    return [list(cells[r * n : r * n + n]) for r in range(n)]


def reference_squares(n: int, cells: str, player: str, empty_joins: bool) -> list[tuple]:
    """The reference's territories as index tuples, in the API's order (largest first, then
    the lowest squares)."""
    found = naive.territories(board(n, cells), player, empty_joins)
    out = [tuple(sorted(r * n + f for r, f in t)) for t in found]
    return sorted(out, key=lambda t: (-len(t), t))


def positions(sizes=(4, 6, 8, 10, 12, 14, 16)):
    """A size, its cells (x, o and ., empty the most likely) and an ``empty_joins``."""

    def cells_of(n: int):
        pieces = st.lists(st.sampled_from("xo..."), min_size=n * n, max_size=n * n)
        return st.tuples(st.just(n), pieces.map("".join), st.booleans())

    return st.sampled_from(sizes).flatmap(cells_of)


# ----------------------------------------------------------------------------- the reference


def test_the_reference_scores_the_rules_examples():
    n, cells = parse_position(BINARY_FIG3)
    assert naive.result("".join(cells), n) == (49, 42, [22, 3, 2], [15, 5, 4, 3], BLACK)
    # two black groups with the empty dark c1 between them: one territory, or 4 and 3
    row = ". x . x" + " ." * 12
    cells = row.replace(" ", "")
    assert naive.territory_sizes(board(4, cells), "black", True) == [6]
    assert naive.territory_sizes(board(4, cells), "black", False) == [4, 3]


def test_the_reference_breaks_ties_by_the_sizes():
    assert naive.winner([10], [8, 2, 2]) == "black"
    assert naive.winner([8, 6, 2], [8, 8]) == "white"
    assert naive.winner([6, 3], [6, 3]) is None


# ----------------------------------------------------------------------------- the API agrees


@settings(max_examples=150, deadline=None)
@given(positions())
def test_score_and_outcome_equal_the_reference(position):
    n, cells, empty_joins = position
    black, white, b_sizes, w_sizes, winner = naive.result(cells, n, empty_joins)
    state = BinaryState(
        n=n, cells=tuple(cells), hands=(0, 0), mover=None, opening=False, empty_joins=empty_joins
    )
    score = state.score()
    assert (score[BLACK]["score"], score[WHITE]["score"]) == (black, white)
    assert (score[BLACK]["territories"], score[WHITE]["territories"]) == (b_sizes, w_sizes)
    for player in PLAYERS:
        expected = reference_squares(n, cells, player, empty_joins)
        assert score[player]["squares"] == expected
        assert territories(list(cells), n, player, empty_joins) == expected
    assert territory_sizes(cells, n, empty_joins) == (b_sizes, w_sizes)
    assert Position.of(state).territory_sizes() == (b_sizes, w_sizes)  # the search's
    assert score_cells(tuple(cells), n, {"empty_joins": empty_joins}) == score
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner
    assert outcome.detail["scores"] == {BLACK: black, WHITE: white}
    assert outcome.detail["territories"] == {BLACK: b_sizes, WHITE: w_sizes}


@settings(max_examples=60, deadline=None)
@given(positions())
def test_what_the_pages_and_the_cli_show_equals_the_reference(position):
    n, cells, empty_joins = position
    black, white, b_sizes, w_sizes, winner = naive.result(cells, n, empty_joins)
    text = "\n".join(cells[r * n : r * n + n] for r in range(n - 1, -1, -1))
    scored = SPEC.positions().score(text, {"empty_joins": empty_joins})
    assert scored[BLACK] == {"score": black, "territories": b_sizes}
    assert scored[WHITE] == {"score": white, "territories": w_sizes}
    assert scored["winner"] == (winner or "draw")
    state = BinaryState(
        n=n, cells=tuple(cells), hands=(0, 0), mover=None, opening=False, empty_joins=empty_joins
    )
    view = SPEC.view(state)
    assert [row.value for row in view.panel.rows] == [str(black), str(white)]
    assert view.explanation[0].startswith(f"BLACK {black}")
    assert view.explanation[1].startswith(f"WHITE {white}")
    assert [c.piece or "." for c in view.cells] == list(cells)


# ----------------------------------------------------------------------------- the benchmark


def test_the_benchmark_scores_the_same_positions_on_both_sides():
    bench = load_benchmark("bench_binary")
    cases = bench.positions(3, 60)
    assert {n for n, _ in cases} == {4, 6, 8}
    assert bench.positions(3, 60) == cases  # seeded: the same positions every run
    assert any(naive.result(cells, n)[0] for n, cells in cases)  # real territories
    for empty_joins in (True, False):
        assert bench.differences(cases, empty_joins) == 0
    assert bench.api_result(bench.finished(*cases[0], True)) == naive.result(*cases[0][::-1])


def test_cells_other_than_pieces_and_empty_squares_are_neither():
    """A cell that is not x, o or . (one the board should never hold) blocks territories as
    the list-based scoring did, whether it is ASCII, not, or longer than one character."""
    base = ". x . x" + " ." * 12  # Black b1 and d1 join through c1: one territory of 6
    cells = base.split()
    assert territory_sizes(cells, 4) == ([6], [])
    for odd in ("?", "é", "xx"):
        blocked = cells[:2] + [odd] + cells[3:]  # c1 is no square of anyone's now
        assert board_bits(blocked) == (0b1010, 0, sum(1 << i for i in range(16)) & ~0b1111 | 1)
        assert territory_sizes(blocked, 4) == ([3, 2], [])
        assert score_cells(blocked, 4)[BLACK]["territories"] == [3, 2]
