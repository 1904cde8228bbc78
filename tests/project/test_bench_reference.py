"""The list-based reference of benchmarks/naive_binaryon.py plays the same rules as
BinaryonState: the same lines, the same legal moves at every ply, the same result, so that
bench_rules.py compares the two on the same games."""

from __future__ import annotations

import random

import pytest

from companion.games import get_spec
from companion.games.base import Move, Place
from companion.games.binaryon.lines import all_lines
from tests.benchmark_modules import load_benchmark

naive = load_benchmark("naive_binaryon")


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_the_reference_walks_the_same_lines(n):
    mine = {tuple(r * n + f for r, f in line) for line in naive.board_lines(n)}
    assert len(mine) == len(naive.board_lines(n))  # each line once
    assert mine == set(all_lines(n))


def test_the_reference_starts_with_the_lower_half_white():
    game = naive.NaiveGame(8)
    assert all(cell == "o" for row in game.board[:4] for cell in row)
    assert all(cell == "x" for row in game.board[4:] for cell in row)
    assert game.legal_moves() == list(range(32, 64))  # ON's free opening: any black piece


def _plain(move: Move) -> int | str:
    """The reference's notation of an engine move: a square index, or "pass"."""
    return move.cell if isinstance(move, Place) else move.name


def _play_both(rng: random.Random, n: int, first: str, opening: str, indexed: bool = False) -> int:
    """One random game on both sides, the lists compared at every ply; returns its plies."""
    game = naive.NaiveGame(n, first=first, opening=opening, indexed=indexed)
    state = get_spec("binaryon").new(**{"size": n, "first": first, "opening": opening})
    while not state.is_over():
        assert not game.is_over()
        moves = state.legal_moves()
        assert game.legal_moves() == [_plain(m) for m in moves]
        move = rng.choice(moves)
        game.play(_plain(move))
        state = state.play(move)
    assert game.is_over() and game.legal_moves() == []
    winner, on_best, off_best = game.result()
    score = state.score()
    assert (winner, on_best, off_best) == (score.winner, score.on_best, score.off_best)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner
    return state.ply


@pytest.mark.parametrize(
    ("n", "games", "first", "opening"),
    [
        (8, 150, "on", "free"),
        (8, 40, "off", "majority"),
        (6, 60, "on", "free"),
        (4, 80, "off", "free"),
    ],
)
@pytest.mark.parametrize("indexed", [False, True])
def test_the_reference_agrees_with_the_engine_over_random_games(n, games, first, opening, indexed):
    rng = random.Random(n * 1000 + games)
    plies = [_play_both(rng, n, first, opening, indexed) for _ in range(games)]
    assert min(plies) >= 2  # real games, not all ended at once


def test_the_tie_break_is_exercised_and_agrees():
    """Ties of best numbers are common at the end of random games: both sides break them."""
    rng = random.Random(11)
    ties = agree = 0
    for _ in range(120):
        game = naive.NaiveGame(8)
        state = get_spec("binaryon").new(**{"size": 8})
        while not state.is_over():
            move = rng.choice(state.legal_moves())
            game.play(_plain(move))
            state = state.play(move)
        score = state.score()
        if score.tied:
            ties += 1
            agree += game.result()[0] == score.winner
    assert ties >= 10
    assert agree == ties


def test_the_reference_refuses_what_the_rules_forbid():
    game = naive.NaiveGame(8)
    with pytest.raises(naive.IllegalMove):
        game.play(3)  # d1 is white: ON turns black pieces
    with pytest.raises(naive.IllegalMove):
        game.play(naive.PASS)  # ON has moves
    game.play(36)  # e5
    assert game.board[4][4] == "o" and game.last == (4, 4) and game.mover == "off"


def test_the_benchmark_plays_the_same_games_on_both_sides():
    bench = load_benchmark("bench_rules")
    for seed in range(5):
        api = bench.api_game(8, random.Random(seed))
        assert bench.naive_game(8, random.Random(seed)) == api
        assert bench.naive_game(8, random.Random(seed), indexed=True) == api
