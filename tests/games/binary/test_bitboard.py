"""The search's bitboard Binary (games/binary/bitboard.py) plays exactly the rules engine's game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.binary.adapter import BinaryAdapter
from companion.games.binary.bitboard import Position
from companion.games.binary.board import PLAYERS
from companion.games.binary.engine import BinaryState
from companion.games.binary.territories import score_cells
from tests.positions import play

new_game = get_spec("binary").new


def _same(pos: Position, state: BinaryState) -> None:
    assert pos.mover == (-1 if state.mover is None else PLAYERS.index(state.mover))
    assert pos.hands == state.hands
    assert Position.of(state) == pos
    assert set(pos.legal_moves()) == set(state.legal_moves())  # the same typed moves
    scored = score_cells(state.cells, state.n, state.options)
    assert pos.territory_sizes() == (scored["black"]["territories"], scored["white"]["territories"])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([4, 6, 8]),
    empty_joins=st.booleans(),
    stuck=st.sampled_from(["pass", "end"]),
)
def test_random_games_agree_move_by_move(seed, size, empty_joins, stuck):
    rng = random.Random(seed)
    state = new_game(size=size, empty_joins=empty_joins, stuck=stuck)
    pos = Position.of(state)
    while True:
        _same(pos, state)
        if state.is_over():
            assert pos.is_over()
            break
        move = rng.choice(state.legal_moves())
        state, pos = state.play(move), pos.play(move)


def test_the_adapter_orders_every_legal_move_once():
    rng = random.Random(3)
    adapter = BinaryAdapter()
    pos = adapter.prepare(new_game(size=8))
    while not pos.is_over():
        moves = adapter.moves(pos)
        assert sorted(map(str, moves)) == sorted(map(str, pos.legal_moves()))
        assert len(set(moves)) == len(moves)
        pos = pos.play(rng.choice(moves))


@pytest.mark.parametrize(("moves", "expected"), [("c3 b1", {"d1", "end"}), ("c3", {"b1"})])
def test_the_search_moves_are_the_rules_engines(moves, expected):
    state = play(new_game(size=8), moves)
    pos = Position.of(state)
    found = BinaryAdapter().moves(pos)
    assert set(found) == set(state.legal_moves())
    assert expected <= {m.name for m in found}
    for move in found:
        assert state.parse_move(move.name) == move
        assert Position.of(state.play(move)) == pos.play(move)
