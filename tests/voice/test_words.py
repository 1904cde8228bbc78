"""The voice's words: moves, refusals, turns, the clock, results, the board read aloud, and
Binøme's chair. Over whole games of each of the five games (hypothesis picks the moves and the
dice): nothing is said that the table page would not show."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import game_names, get_spec
from companion.games.base import GameState, Outcome, Refusal
from companion.voice import words
from companion.voice.words import (
    changed_words,
    clock_words,
    fix_words,
    move_words,
    moves_words,
    name_words,
    rank_words,
    refusal_words,
    result_words,
    turn_words,
    worth_saying,
)


def play_out(game: str, seed: int, most: int = 400):
    """(before, move, after) of a game played at random to its end (or ``most`` steps)."""
    spec = get_spec(game)
    state = spec.new()
    rng = random.Random(seed)
    for _ in range(most):
        if state.is_over():
            return
        chance = state.chance()
        if chance is not None:
            move = state.parse_move(rng.choice(chance.outcomes))
        else:
            forced = state.forced_move()
            move = forced if forced is not None else rng.choice(list(state.legal_moves()))
        actor = state.actor(move)
        after = state.play(move, actor) if actor else state.play(move)
        yield state, move, after
        state = after


def table_text(game: str, state: GameState) -> str:
    """Everything the table page shows of ``state`` in words."""
    view = get_spec(game).view(state, None)
    panel = view.panel
    parts = [panel.title, panel.note, panel.corner, *view.explanation]
    parts += [f"{r.label} {r.value}" if hasattr(r, "value") else str(r) for r in panel.rows]
    parts += [f"{c.piece} {c.text}" for c in view.cells]
    return " ".join(parts)


def says(text: str, token: str) -> bool:
    """Is ``token`` a word of ``text`` ('6a' in 'p2 write 6a.', not in 'p2 write 16a')?"""
    return re.search(rf"(?<![\w/]){re.escape(token)}(?![\w/])", text) is not None


def secret_tokens(state: GameState, move) -> set[str]:
    """The words of a move's full name that its public name leaves out."""
    public = state.public_name(move)
    return set(move.name.split()) - set(public.split()) if public != move.name else set()


@pytest.mark.parametrize("game", sorted(game_names()))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_nothing_is_said_that_the_table_page_would_not_show(game, seed):
    spec = get_spec(game)
    secrets: set[str] = set()
    public_names: list[str] = []
    for before, move, after in play_out(game, seed):
        secrets |= secret_tokens(before, move)
        line = move_words(spec, before, move, after)
        public_names.append(before.public_name(move))
        # the table page: its view and the moves by their public names (a guess names colours)
        shown = table_text(game, after) + " " + " ".join(public_names)
        for token in secrets:
            if says(line, token):
                assert says(shown, token), f"{game}: {line!r} says {token!r}, still secret"
        assert line and "\n" not in line


def test_secret_moves_are_said_by_their_public_names():
    found = {}
    for game in game_names():
        for before, move, after in play_out(game, 7, most=60):
            if before.public_name(move) != move.name:
                found[game] = (move.name, move_words(get_spec(game), before, move, after))
                break
    # the games with secrets make secret moves, and none of them is said in full
    assert {"binome", "latent-binaries"} <= set(found)
    for name, line in found.values():
        assert name not in line


def test_a_board_move_is_said_with_its_squares_and_its_player():
    spec = get_spec("wythe")
    before, move, after = next(play_out("wythe", 3))
    a, b = move.name.split("-")
    assert move_words(spec, before, move, after) == f"black {a} to {b}."
    assert name_words("c2 d3") == "c2 and d3" and name_words("swap") == "swap"


def test_the_last_move_says_the_result_with_its_reason():
    spec = get_spec("binaryon")
    *_, (before, move, after) = play_out("binaryon", 1)
    outcome = after.outcome()
    assert outcome is not None and outcome.reason
    line = move_words(spec, before, move, after)
    assert line.endswith(result_words(outcome)) and outcome.reason in line


def test_results_refusals_clock_and_fixes_in_words():
    assert result_words(Outcome(("black",), "BLACK wins 32-20", {}, "one group of 10")) == (
        "BLACK wins 32 to 20, one group of 10."
    )
    assert result_words(Outcome((), "Draw")) == "Draw."
    assert refusal_words(Refusal("not-in-line", "e4: not in line with d5")) == (
        "No: e4: not in line with d5."
    )
    spec = get_spec("binary")
    assert clock_words(spec, "black", 10) == "ten seconds, black."
    assert fix_words(["c2", "d3"]) == "Put back c2 and d3." and fix_words([]) == ""
    assert words.time_words(spec, {"black": 252.4, "white": 52}) == (
        "black 4 minutes 12, white 52 seconds."
    )


def test_whose_turn_and_where_can_i_move():
    spec = get_spec("binary")
    state = spec.new()
    assert turn_words(spec, state) == "black to play."
    line = moves_words(spec, state, None)
    names = [m.name for m in state.legal_moves()]
    n = len(names)
    assert n > 12 and line == f"{n} moves: {', '.join(names[:12])}, and {n - 12} more."


def test_a_rank_read_aloud_and_what_changed():
    spec = get_spec("binary")
    before = spec.new()
    after = spec.replay(["c3"])
    options = spec.resolve({})
    assert rank_words(spec, before, options, 3) == "Rank 3 is empty."
    assert rank_words(spec, after, options, 3) == "Rank 3: c3 black; the rest empty."
    assert rank_words(spec, after, options, 9) == "There is no such rank."
    assert changed_words(spec, before, after, options) == "c3 now black."
    assert changed_words(spec, after, after, options) == "Nothing changed."


def test_the_speak_levels():
    assert not worth_saying("off", "move")
    assert worth_saying("moves", "move") and worth_saying("moves", "refusal")
    assert not worth_saying("moves", "answer") and worth_saying("all", "answer")


def test_binome_chaired_by_voice():
    spec = get_spec("binome")
    lines = []
    claims_unresolved = []
    for before, move, after in play_out("binome", 11):
        line = move_words(spec, before, move, after)
        lines.append(line)
        if " claim " in move.name:
            player, _, number = move.name.split()[:3]
            assert line.startswith(f"{player} claims.") and number not in line.split(".")[0]
            claims_unresolved.append(number)
    text = "\n".join(lines)
    assert re.search(r"^The die shows (zero|one|two|three|four|five|six|seven|eight|nine)\.$",
                     text, re.M)  # fmt: skip
    assert re.search(r"^Postulate: [A-Z][^,]+, for (\d+ points|one point|as many points)", text,
                     re.M)  # fmt: skip
    assert "Scores: " in text and "Game over: " in text


def test_binary_says_a_placement_as_a_player_places_it():
    spec = get_spec("binary")
    before, move, after = next(play_out("binary", 5))
    assert move_words(spec, before, move, after) == f"black places {move.name}."
