"""The tutor's judgement (companion/engines/tutor.py): a move the engine judges a blunder gets
one line with the better move in the hints' words, held to the 4x4 solutions; any other move
none; the tutor refused in a remote or rated game."""

from __future__ import annotations

import random
import sys

from companion.engines.adapters import adapter_for, new_state
from companion.engines.solve import make_solver
from companion.engines.tutor import REFUSAL, refusal, warning
from companion.games import get_spec


def _exact(adapter, solver, state, me):
    p = adapter.prepare(state)
    if adapter.is_over(p):
        w = adapter.winner(p)
        return 0 if w is None else 1 if w == me else -1
    v = solver.value(p)
    return v if adapter.mover(p) == me else -v


def test_a_blunder_is_told_with_a_better_move_that_keeps_the_value():
    adapter = adapter_for("binaryon")
    rng = random.Random(3)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    told = quiet = 0
    try:
        for _ in range(30):
            state = new_state("binaryon", {"size": 4})
            for _ in range(rng.randrange(0, 6)):
                if state.is_over():
                    break
                state = state.play(rng.choice(state.legal_moves()))
            if state.is_over():
                continue
            solver = make_solver(adapter, adapter.prepare(state))
            me = state.mover
            value = _exact(adapter, solver, state, me)
            for move in state.legal_moves():
                caution = warning(state, move)
                after = _exact(adapter, solver, state.play(move), me)
                if caution is None:
                    quiet += 1
                    continue
                told += 1
                assert value >= 0 and after < value  # a real blunder
                better = state.play(state.parse_move(caution.better))
                assert _exact(adapter, solver, better, me) == value
                assert caution.line.startswith(f"{move.name}: a blunder; better {caution.better}")
                assert "\n" not in caution.line
    finally:
        sys.setrecursionlimit(old)
    assert told > 0 and quiet > 0


def test_no_tutor_where_no_engine_plays_or_the_game_is_over():
    binome = get_spec("binome").new(**get_spec("binome").resolve({}))
    assert binome.legal_moves() and warning(binome, binome.legal_moves()[0]) is None
    state = new_state("binaryon", {"size": 4})
    while not state.is_over():
        state = state.play(state.legal_moves()[0])
    assert warning(state, None) is None


def test_the_tutor_is_refused_in_a_remote_or_rated_game():
    assert refusal(remote=False, rated=False) is None
    assert refusal(remote=True, rated=False) == REFUSAL == refusal(remote=False, rated=True)
    assert "\n" not in REFUSAL
