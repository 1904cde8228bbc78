"""How a finished game's result reads in the games that score it: the winner's score first
('WHITE wins 38-34', not 'WHITE wins 34-38').
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec


def random_end(game: str, options: dict, rnd: random.Random):
    spec = get_spec(game)
    state = spec.new(**spec.resolve(options))
    while not state.is_over():
        state = state.play(state.forced_move() or rnd.choice(list(state.legal_moves())))
    return spec, state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("binary", {"size": 4}), ("wythe", {"size": 4})]), st.randoms())
def test_the_winners_score_comes_first(game_options, rnd):
    """'WHITE wins 38-34', not 'WHITE wins 34-38': in the summary, the score text and the
    explanation."""
    game, options = game_options
    spec, state = random_end(game, options, rnd)
    outcome = state.outcome()
    if not outcome.winners:
        return
    winner = outcome.winners[0]
    loser = next(p for p in state.players if p != winner)
    scores = outcome.detail["scores"]
    assert outcome.summary.startswith(f"{winner.upper()} wins {scores[winner]}-{scores[loser]}")
