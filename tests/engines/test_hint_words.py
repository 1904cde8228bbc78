"""Hints, notes and explanations read as words for players, in every game along random games:
never the search's depth or values, no raw floats, no '-' standing for nothing, no internal
abbreviations or identifiers; the engine's reason does not depend on the search's numbers;
every hint fits the OLED's two message lines. (Hints of hidden-information games hide the
secrets: tests/games/latent_binaries/test_spec.py and tests/games/binome/test_spec.py.)"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.explain import fits, hint_line
from companion.engines.search import Result, choose
from companion.games import game_names, get_spec

DEBUG = re.compile(
    r"\bdepth\b|\beval|\bvalue\b|\d\.\d|(^|\s)-($|\s|,)|\bterr\b|_|\bNone\b|"
    r"\b1 (moves|placements|squares|groups|pieces)\b"
)
SMALL = {"binaryon": {"size": 6}, "binary": {"size": 6}, "wythe": {"size": 6}}


def debug_words(text: str) -> list[str]:
    return [m.group(0) for m in DEBUG.finditer(text)]


def positions(game: str, seed: int, limit: int = 80):
    """The positions of one random game (chance steps drawn too), first to last."""
    rng = random.Random(seed)
    spec = get_spec(game)
    state = spec.new(**SMALL.get(game, {}))
    for _ in range(limit):
        yield state
        if state.is_over():
            return
        chance = state.chance()
        if chance is not None:
            state = state.play(state.parse_move(rng.choice(chance.outcomes)))
            continue
        forced = state.forced_move()
        if forced is not None:
            state = state.play(forced)
            continue
        player = rng.choice(sorted(state.to_act))
        state = state.play(rng.choice(list(state.legal_moves(player))), player)


def said(game: str, state) -> list[str]:
    """Everything the table is told about ``state``: each hint step, the note, the
    explanation."""
    spec = get_spec(game)
    view = spec.view(state)
    steps = range(max(spec.hint_steps, 1) * 2)
    return [spec.hint(state, k).text for k in steps] + [view.panel.note, *view.explanation]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(game_names()), seed=st.integers(0, 2**32))
def test_hints_notes_and_explanations_read_as_words(game, seed):
    for state in positions(game, seed):
        for text in said(game, state):
            assert not debug_words(text), (game, text)


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(game_names()), seed=st.integers(0, 2**32))
def test_every_hint_fits_two_oled_lines(game, seed):
    spec = get_spec(game)
    for state in positions(game, seed):
        for k in range(max(spec.hint_steps, 1) * 2):
            text = spec.hint(state, k).text
            assert fits(text), (game, text)


ENGINE_GAMES = [g for g in game_names() if get_spec(g).engine() is not None]


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(ENGINE_GAMES), seed=st.integers(0, 2**32))
def test_the_engines_reason_never_says_the_searchs_numbers(game, seed):
    """Whatever the depth and value of an unproven search, the reason is the same: where its
    line leads on the board, in the game's words."""
    spec = get_spec(game)
    rng = random.Random(seed)
    states = [s for s in positions(game, seed, 40) if not s.is_over()]
    for state in rng.sample(states, min(3, len(states))):
        result = choose(spec.engine(), state, "default", None, nodes=300)
        text = hint_line(state, result)
        assert fits(text) and not debug_words(text.split(":", 1)[1]), text
        if result.complete:
            continue
        for value, depth in ((rng.randrange(-400, 400), rng.randrange(1, 12)), (0, 1)):
            again = Result(result.move, value, result.line, depth, 5, False, result.scored)
            assert hint_line(state, again) == text


@pytest.mark.parametrize("game", ["binaryon", "binary", "wythe"])
def test_no_engine_reason_is_a_placeholder(game):
    """Every legal move of a few positions gets words: a reason, or what the move does."""
    for state in list(positions(game, 7, 30))[::6]:
        if state.is_over():
            continue
        for move in state.legal_moves()[:30]:
            text = hint_line(state, Result(move, 0, [move], 3, 1))
            head = f"hint {move.name}" if move.cells else "hint: "
            assert text.startswith(head) and not debug_words(text), text
            if move.cells:
                assert text != head, f"{game}: {move.name} has no reason"
