"""Latent Binaries' review (docs/review.md, "Latent Binaries"): once the game has revealed its
secrets, each guess is held to what the guesser knew then (the setups the shown facts allow);
before, it is refused in one line and nothing hidden is shown."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.engines.review import NotReviewable, review_game
from companion.games import get_spec
from companion.games.latent_binaries.moves import Challenge, Order, Setup
from companion.games.latent_binaries.review import Known, chances, label_of
from companion.games.review_api import LABEL_NAMES
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal

SPEC = get_spec("latent-binaries")


def random_game(seed: int, limit: int = 600, **given_options) -> tuple[dict, list[str], object]:
    options = SPEC.resolve(given_options)
    state = SPEC.new(**options)
    rng = random.Random(seed)
    names: list[str] = []
    while not state.is_over() and len(names) < limit:
        player = sorted(state.to_act)[0]
        move = rng.choice(state.legal_moves(player))
        names.append(move.name)
        state = state.play(move)
    return options, names, state


def right(state, move) -> bool:
    """Was the guess right? By the rules engine itself: a cap added, or the nest gone or
    shown in the order named."""
    after = state.play(move)
    nest, now = state.nest_at(move.target), after.nest_at(move.target)
    if isinstance(move, Challenge):
        return now is not None and len(now.caps) > len(nest.caps)
    return now is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), order_reveal=st.booleans(), nests=st.sampled_from([2, 3]))
def test_a_guess_called_impossible_was_wrong_and_a_certain_one_right(seed, order_reveal, nests):
    """The facts the review counts are true ones: the real setup is always among the setups
    they allow, so a guess given no chance was wrong, a certain one right; the label follows
    the chance given away, and a better guess named had a better chance."""
    options, names, end = random_game(seed, order_reveal=order_reveal, nests=nests)
    if not end.is_over():
        return
    review = review_game("latent-binaries", options, names)
    assert {m.label for m in review.moves} <= set(LABEL_NAMES)
    state = SPEC.new(**options)
    guesses = {m.ply: m for m in review.moves}
    for ply, name in enumerate(names, 1):
        move = state.parse_move(name)
        if isinstance(move, Challenge | Order):
            m = guesses.pop(ply)
            assert m.move == name and m.player == state.mover
            chance = m.value_after
            if chance == 0:
                assert not right(state, move) and m.label == "blunder"
            if chance == 100:
                assert right(state, move)
            assert m.note.startswith("right: " if right(state, move) else "wrong: ")
            assert m.label == label_of(m.before, m.after)
            if m.better is not None:
                assert m.value_before > m.value_after
                assert state.parse_move(m.better) in state.legal_moves()
        state = state.play(move)
    assert not guesses  # every guess reviewed, nothing else
    assert len(review.curve) == len(names) + 1
    assert review.curve[-1] == (1.0 if end.winner == "rainbow" else 0.0)


def test_the_chances_of_a_nest_add_up_to_its_two_pawns():
    colours = ("cyan", "magenta", "orange", "purple")
    known = {20: Known("xeno"), 21: Known("xeno"), 22: Known("xeno")}
    hidden = {"cyan": 2, "magenta": 2, "orange": 1, "purple": 1}
    table = chances("xeno", colours, known, hidden)
    for nest in table.values():
        assert sum(nest.values()) == 2
    assert table[20]["cyan"] > table[20]["orange"]
    known[20].has.add("orange")  # a cap: orange is in 20, so not in 21 nor 22
    known[21].not_in["cyan"] = 9  # a wrong guess: no cyan in 21
    table = chances("xeno", colours, known, hidden)
    assert table[20]["orange"] == 1 and table[21]["orange"] == table[22]["orange"] == 0
    assert table[21]["cyan"] == 0 and table[22]["cyan"] == 1  # the two cyans: 20 and 22
    assert table[20]["cyan"] == 1 and table[20]["magenta"] == 0
    assert sum(table[21].values()) == 2 and table[21]["magenta"] == Fraction(1)


def test_a_colour_guessed_again_where_it_was_ruled_out_is_a_blunder():
    """Over seeded games: a colour challenged on a nest where it had been guessed wrong is
    said to be impossible, with the move that ruled it out."""
    found = 0
    for seed in range(400):
        options, names, end = random_game(seed)
        if not end.is_over():
            continue
        state, wrong = SPEC.new(**options), {}
        repeats = []
        for ply, name in enumerate(names, 1):
            move = state.parse_move(name)
            if isinstance(move, Challenge):
                start = state.nest_at(move.target).start
                if (start, move.colour) in wrong:
                    repeats.append((ply, wrong[start, move.colour]))
                elif not right(state, move):
                    wrong[start, move.colour] = ply
            state = state.play(move)
        if not repeats:
            continue
        review = review_game("latent-binaries", options, names)
        for ply, ruled_out in repeats:
            m = review.move_at(ply)
            assert m is not None and m.label == "blunder" and m.value_after == 0
            assert m.note.endswith(f"was ruled out on {m.move.split()[1]} at move {ruled_out}")
            found += 1
        if found >= 3:
            break
    assert found >= 3


def in_progress(seed: int = 5) -> tuple[dict, list[str], list[str]]:
    """A game cut after some guesses: its setups still secret."""
    options, names, _ = random_game(seed)
    state = SPEC.new(**options)
    cut, colours = [], set()
    for name in names:
        move = state.parse_move(name)
        if isinstance(move, Setup):
            colours |= {move.top, move.bottom}
        cut.append(name)
        state = state.play(move)
        if isinstance(move, Challenge) and len(cut) > 12:
            break
    assert not state.revealed()
    return options, cut, sorted(colours)


def test_before_the_reveal_it_is_refused_in_one_line_and_nothing_hidden_shown():
    options, cut, colours = in_progress()
    with pytest.raises(NotReviewable) as refused:
        review_game("latent-binaries", options, cut)
    said = str(refused.value)
    assert said == "latent-binaries: the game has not revealed its secrets: no review before"
    assert not any(colour in said for colour in colours)


def test_the_command_and_the_page_refuse_a_game_in_progress_without_a_secret(capsys, tmp_path):
    from companion.views.reviewable import refusal

    options, cut, colours = in_progress(6)
    state = SPEC.new(**options)
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id = j.begin("latent-binaries", options, {})
        for ply, name in enumerate(cut):
            move = state.parse_move(name)
            public = state.public_name(move)
            j.commit_turn(game_id, ply, [MoveEntry(ply, name, state.actor(move), public=public)])
            state = state.play(move)
        entry = j.load(game_id)
    for args in ((str(game_id),), (str(game_id), "--json")):
        assert main(["review", *args, "--journal", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert f"game {game_id} is in progress" in err
        assert not any(colour in out + err for colour in colours)
    said = refusal(entry)
    assert said is not None and not any(colour in said for colour in colours)


def test_a_finished_game_is_reviewed_by_the_command_with_what_was_hidden(capsys, tmp_path):
    options, names, end = random_game(1)
    assert end.is_over()
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id = j.import_game(
            "latent-binaries", options, {}, [(n, None) for n in names], started=None,
            ended=None, status="finished", outcome=end.outcome(),
        )  # fmt: skip
    assert main(["review", str(game_id), "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("RAINBOW's nests left: ")
    guesses = [n for n in names if n.startswith(("challenge ", "order "))]
    lines = [line.split(maxsplit=2)[2] for line in out if line.split()[0][:-1].isdigit()]
    assert [line[: len(g)] for line, g in zip(lines, guesses, strict=True)] == guesses
    assert main(["review", str(game_id), "--json", "--journal", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["move"] for m in data["moves"]] == guesses
    assert all(m["note"].startswith(("right: ", "wrong: ")) for m in data["moves"])


def test_labels_by_the_chance_given_away():
    assert label_of(0.5, 0.5) == "best"
    assert label_of(0.6, 0.5) == "good"
    assert label_of(0.7, 0.5) == "inaccuracy"
    assert label_of(0.8, 0.5) == "mistake"
    assert label_of(0.9, 0.5) == "blunder"
    assert label_of(0.3, 0.0) == "blunder"  # it could not be right


def test_the_pages_review_process_refuses_it_too_without_a_secret():
    """The page's and the board's review runs in a process of its own
    (``views/web/review_process.py``): its answer for a game in progress is the same one
    line, with no hidden pawn in it."""
    from companion.views.web.review_process import review_in_process

    options, cut, colours = in_progress(5)
    seen: list[int] = []
    with pytest.raises(NotReviewable) as refused:
        review_in_process("latent-binaries", options, cut, lambda d, t: seen.append(d))
    said = str(refused.value)
    assert said.endswith("the game has not revealed its secrets: no review before")
    assert not any(colour in said for colour in colours)


PAIRS = [("cyan", "magenta"), ("cyan", "orange"), ("cyan", "purple"), ("magenta", "orange"),
         ("magenta", "purple"), ("orange", "purple")]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    truth=st.lists(st.sampled_from(PAIRS), min_size=1, max_size=3),
    facts=st.lists(
        st.tuples(st.integers(0, 2), st.sampled_from(["cyan", "magenta", "orange", "purple"])),
        max_size=5,
    ),
)
def test_the_chances_are_the_share_of_the_setups_the_facts_allow(truth, facts):
    """Counted against every setup one by one: the share of the setups (a pair of colours a
    nest, the colours hidden as often as the stash says) that the facts allow."""
    from collections import Counter
    from itertools import product

    colours = ("cyan", "magenta", "orange", "purple")
    starts = list(range(20, 20 + len(truth)))
    known = {s: Known("xeno") for s in starts}
    for nest, colour in facts:  # true facts: a cap where the colour is, a miss where not
        if nest < len(truth):
            k = known[starts[nest]]
            if colour in truth[nest]:
                k.has.add(colour)
            else:
                k.not_in[colour] = 1  # ruled out at move 1
    hidden = dict(Counter(c for pair in truth for c in pair))
    table = chances("xeno", colours, known, hidden)
    allowed = [
        setup
        for setup in product(PAIRS, repeat=len(truth))
        if Counter(c for pair in setup for c in pair) == Counter(hidden)
        and all(
            known[s].has <= set(pair) and not set(known[s].not_in) & set(pair)
            for s, pair in zip(starts, setup, strict=True)
        )
    ]
    assert tuple(truth) in allowed
    for i, s in enumerate(starts):
        for c in colours:
            share = Fraction(sum(c in setup[i] for setup in allowed), len(allowed))
            assert table[s][c] == share, (s, c)
        assert all(table[s][c] > 0 for c in truth[i])
