"""The engines: search correctness, node limits, levels, the solver against brute force."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engines.adapters import adapter_for, new_state
from companion.engines.search import CHECK_EVERY, WIN, Limits, Searcher, choose, search
from companion.engines.solve import minimax, solve
from companion.games import get_spec
from companion.games.binary.adapter import territory_sizes
from companion.games.binary.engine import BinaryState, score_cells
from companion.games.binaryon.adapter import BinaryonAdapter
from companion.games.binaryon.engine import PASS
from tests.positions import mv

new_game = get_spec("binaryon").new

A = BinaryonAdapter()


def _positions(seed: int, count: int, plies: int = 3, size: int = 4):
    """Seeded random positions ``plies`` into a game (not finished)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = new_game(size=size)
        for _ in range(plies):
            s = A.play(s, rng.choice(A.moves(s)))
        if not A.is_over(s):
            out.append(s)
    return out


def _won_position():
    """A 4x4 position whose mover wins with perfect play but not with every move."""
    for s in _positions(7, 200, plies=4):
        if solve(A, s).value != 1:
            continue
        values = [solve(A, A.play(s, m)) for m in A.moves(s)]
        if any(v.value != -1 for v in values):
            return s
    raise AssertionError("no such position among the samples")


def test_a_forced_win_is_found_and_played():
    s = _won_position()
    r = search(A, s, Limits(seconds=None, depth=64))
    assert r.value >= WIN
    child = A.play(s, r.move)
    # the chosen move keeps the win: solved, the position after it is lost for the opponent
    if A.is_over(child):
        assert A.winner(child) == s.mover
    else:
        assert solve(A, child).value == -1


@pytest.mark.parametrize("move", ["a4", "b4", "c4", "d4"])
def test_solver_agrees_with_plain_minimax_after_each_opening(move):
    s = A.play(new_game(size=4), mv(move, 4))
    assert solve(A, s).value == minimax(A, s)


@pytest.mark.parametrize("s", _positions(3, 25))
def test_solver_agrees_with_plain_minimax_on_random_positions(s):
    assert solve(A, s).value == minimax(A, s)


def test_search_value_of_a_solved_position_matches_the_solver():
    for s in _positions(5, 10):
        r = search(A, s, Limits(seconds=None, depth=64))
        expected = solve(A, s).value
        assert r.complete
        assert (r.value > 0) - (r.value < 0) == expected


def test_solver_line_reaches_the_solved_result():
    s = new_game(size=4)
    sol = solve(A, s)
    for move in sol.line:
        s = A.play(s, move)
    assert A.is_over(s)
    winner = A.winner(s)
    assert {None: 0, "on": 1, "off": -1}[winner] == sol.value


def test_node_budget_is_respected_and_a_legal_move_comes_back():
    s = new_game()
    r = search(A, s, Limits(seconds=None, nodes=500))
    assert r.nodes <= 500
    assert r.move in A.moves(s)


def test_the_deadline_is_checked_every_few_nodes():
    ticks = itertools.count()
    searcher = Searcher(A, Limits(seconds=5.0), clock=lambda: next(ticks) * 1.0)
    r = searcher.search(new_game())
    # the clock passes the deadline after five looks at it: at most five checks' worth of nodes
    assert r.nodes <= 6 * CHECK_EVERY
    assert r.move in A.moves(new_game())


def test_more_nodes_search_deeper():
    s = new_game()
    shallow = search(A, s, Limits(seconds=None, nodes=300))
    deep = search(A, s, Limits(seconds=None, nodes=10_000))
    assert deep.depth > shallow.depth


def test_levels_differ():
    s = new_game()
    beginner = choose(A, s, "beginner", seconds=None, nodes=8_000)
    default = choose(A, s, "default", seconds=None, nodes=8_000)
    assert beginner.depth == 1
    assert default.depth > 1
    # a beginner slips now and then (seeded), the default level never does
    picks = {choose(A, s, "beginner", None, random.Random(i), 2_000).move for i in range(20)}
    steady = {choose(A, s, "default", None, random.Random(i), 2_000).move for i in range(3)}
    assert len(picks) > 1
    assert len(steady) == 1


def test_a_mover_without_a_move_passes():
    s = new_game(size=4)
    sol = solve(A, s)
    for move in sol.line:
        if move == PASS:
            break
        s = A.play(s, move)
    assert A.moves(s) == [PASS]
    assert search(A, s, Limits(seconds=None, nodes=1000)).move == PASS


@pytest.mark.parametrize("game", ["binaryon", "binary", "wythe"])
def test_every_game_gets_a_legal_move_within_a_node_budget(game):
    adapter = adapter_for(game)
    s = new_state(game, {"size": 4})
    r = search(adapter, s, Limits(seconds=None, nodes=400))
    assert r.move in s.legal_moves()
    assert r.nodes <= 400


def test_unknown_game_is_refused():
    with pytest.raises(ValueError, match="no engine"):
        adapter_for("binome")


@given(st.sampled_from([4, 6, 8]).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.sampled_from("xo."), min_size=n * n,
                                             max_size=n * n))))  # fmt: skip
def test_binary_flood_fill_territories_match_the_rules_engine(case):
    n, cells = case
    state = BinaryState(n=n, cells=tuple(cells), hands=(0, 0))
    scored = score_cells(tuple(cells), n)
    expected = (scored["black"]["territories"], scored["white"]["territories"])
    assert territory_sizes(state) == expected
