"""The solver's parts: board symmetries, packed table entries, canonical keys, and the
null-window search against the full-window one and against plain minimax."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engines.adapters import adapter_for, new_state
from companion.engines.solve import Solver, _pack, _unpack, make_solver, minimax, solve
from companion.games import get_spec
from companion.games.binaryon.adapter import BinaryonAdapter
from companion.games.binaryon.engine import BinaryonState
from companion.games.binaryon.solving import SymmetricSolving, symmetries, transform
from companion.games.binaryon.tables import rules

new_game = get_spec("binaryon").new

A = BinaryonAdapter()
OTHER = {"on": "off", "off": "on"}


def fast_solver(state: BinaryonState, **kw) -> Solver:
    """The solver ``solve`` uses for a Binaryon position: the symmetric fast path."""
    solver = make_solver(A, state, **kw)
    assert isinstance(solver, SymmetricSolving) and isinstance(solver, Solver)
    return solver


def _positions(seed: int, count: int, plies: int = 3, size: int = 4) -> list[BinaryonState]:
    rng = random.Random(seed)
    out: list[BinaryonState] = []
    while len(out) < count:
        s = new_game(size=size)
        for _ in range(rng.randint(1, plies)):
            s = A.play(s, rng.choice(A.moves(s)))
        if not A.is_over(s):
            out.append(s)
    return out


def _image(s: BinaryonState, perm: list[int], swap: bool = False) -> BinaryonState:
    """``s`` moved by a board symmetry, and with colours and players swapped if ``swap``."""
    white = transform(s.white, perm)
    mover = s.mover
    if swap:
        white ^= (1 << (s.n * s.n)) - 1
        mover = OTHER[mover]
    last = None if s.last is None else perm[s.last]
    return BinaryonState(white, s.rules, mover, last, s.passes)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_symmetries_map_lines_onto_lines_and_reach_onto_reach(n):
    r = rules({"size": n})
    lines = set(r.lines)
    scoring = set(r.score_lines)
    perms = symmetries(n)
    assert len({tuple(p) for p in perms}) == 8
    for perm in perms:
        assert sorted(perm) == list(range(n * n))
        assert {tuple(perm[s] for s in line) for line in r.lines} == lines
        assert {tuple(perm[s] for s in line) for line in r.score_lines} == scoring
        for s in range(n * n):
            assert r.reach[perm[s]] == transform(r.reach[s], perm)
            assert r.neighbours[perm[s]] == transform(r.neighbours[s], perm)


def test_the_start_is_its_own_left_right_mirror():
    s = new_game(size=6)
    mirror = symmetries(6)[1]
    assert mirror[0] == 5  # a1 -> f1
    assert transform(s.white, mirror) == s.white


@pytest.mark.parametrize("s", _positions(11, 12))
def test_solved_value_is_the_same_for_every_image_of_a_position(s):
    """Minimax (no table, no symmetry) on each of the 16 images: the symmetries hold."""
    expected = minimax(A, s)
    for perm in symmetries(4):
        for swap in (False, True):
            assert minimax(A, _image(s, perm, swap)) == expected


@given(st.integers(-1, 1), st.integers(-1, 1), st.integers(0, 200))
def test_packed_entries_round_trip(lo, hi, code):
    assert _unpack(_pack(lo, hi, code)) == (lo, hi, code)


@pytest.mark.parametrize("s", _positions(12, 10, plies=6, size=6))
def test_every_image_gets_the_same_canonical_key(s):
    solver = fast_solver(s)
    key, _ = solver.table_key(s, 0)
    for perm in symmetries(6):
        for swap in (False, True):
            assert solver.table_key(_image(s, perm, swap), 0)[0] == key


def test_plain_keys_tell_positions_apart_but_not_colour_swaps():
    s = _positions(13, 1, plies=4, size=6)[0]
    solver = fast_solver(s, sym_plies=0)
    key, frame = solver.table_key(s, 5)
    assert frame == 0
    assert solver.table_key(_image(s, list(range(36)), swap=True), 5)[0] == key
    other = A.play(s, A.moves(s)[0])
    assert solver.table_key(other, 5)[0] != key


def test_a_table_move_stored_in_the_key_frame_is_read_back_in_the_position_frame():
    """Solve a position, then its mirror: the mirror finds the first one's move, mirrored,
    at the head of its move list."""
    s = _positions(14, 1, plies=2, size=4)[0]
    solver = fast_solver(s)
    solver.value(s)
    key, frame = solver.table_key(s, 0)
    code = _unpack(solver.table[key])[2]
    mirror = symmetries(4)[1]
    m = _image(s, mirror)
    mkey, mframe = solver.table_key(m, 0)
    assert mkey == key
    first = solver.children(s, code, frame)[0][0]
    mfirst = solver.children(m, code, mframe)[0][0]
    assert mfirst.cell == mirror[first.cell]


@pytest.mark.parametrize("s", _positions(15, 20))
def test_null_window_search_agrees_with_full_window_and_minimax(s):
    expected = minimax(A, s)
    assert solve(A, s).value == expected
    assert solve(A, s, full_window=True).value == expected
    assert solve(A, s, sym_plies=0).value == expected
    assert Solver(A).value(s) == expected
    assert Solver(A, order=False).value(s) == expected
    assert Solver(A, full_window=True).value(s) == expected


def test_the_generic_solver_agrees_with_the_binaryon_one_from_the_4x4_start():
    s = new_game(size=4)
    generic = Solver(A)
    assert generic.value(s) == solve(A, s).value == 0


def test_the_principal_line_keeps_the_value_from_each_position():
    s = _positions(16, 1, plies=2, size=4)[0]
    sol = solve(A, s)
    want, me = sol.value, s.mover
    for move in sol.line:
        s = A.play(s, move)
        if not A.is_over(s):
            v = minimax(A, s)
            assert (v if s.mover == me else -v) == want
    assert A.is_over(s)
    assert {None: 0, me: 1, OTHER[me]: -1}[A.winner(s)] == want


def test_binary_4x4_still_solves_through_the_generic_solver():
    adapter = adapter_for("binary")
    state = adapter.prepare(new_state("binary", {"size": 4}))
    sol = solve(adapter, state)
    assert sol.value == -1  # the second player wins (docs/solving.md)
    assert sol.line


def test_progress_is_reported_every_so_many_nodes():
    seen: list[int] = []
    solve(A, new_game(size=4), progress=lambda sv: seen.append(sv.nodes), progress_every=50)
    assert seen and seen[0] == 50
    assert all(b - a == 50 for a, b in zip(seen, seen[1:], strict=False))
