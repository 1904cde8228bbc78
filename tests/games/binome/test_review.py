"""Binøme's review (docs/review.md, "Binøme"): each turn told, each claim or pass held against
what the player's own sheet held, labelled by the points it lost, the better choice named
with what it would have done; the same shapes as the engines' reviews (``binaryon review``,
``--json``); refused, with no number shown, before the game is over."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.engines.review import NotReviewable, review_game
from companion.games import get_spec
from companion.games.binome.moves import Claim, Decline
from companion.games.binome.review import label_of_points
from companion.games.review_api import LABEL_NAMES
from companion.journal.store import SqliteJournal

SPEC = get_spec("binome")
OPTIONS = SPEC.resolve({"players": "Ann,Bob"})
# Ann writes each pair of rolls as it comes, Bob the other way round: Ann 93 16 37 44 05 28
# 77 50, Bob 39 61 73 44 50 82 77 05
ROLLS = (9, 3, 1, 6, 3, 7, 4, 4, 0, 5, 2, 8, 7, 7, 5, 0)
ANN_CELLS = [f"{i // 2 + 1}{'ab'[i % 2]}" for i in range(16)]
BOB_CELLS = [f"{i // 2 + 1}{'ba'[i % 2]}" for i in range(16)]


def written() -> list[str]:
    names = []
    for digit, a, b in zip(ROLLS, ANN_CELLS, BOB_CELLS, strict=True):
        names += [f"roll {digit}", f"Ann write {a}", f"Bob write {b}"]
    return names


def played_on(names: list[str]) -> list[str]:
    """The rest of the game: the cards in the deck's order, each player claiming with their
    first eligible number or passing, until the game is over."""
    state = SPEC.replay(names, **OPTIONS)
    names = list(names)
    while not state.is_over():
        chance = state.chance_moves()
        if chance:
            move = chance[0]
        else:
            player = sorted(state.to_act)[0]
            eligible = state.eligible_numbers(player)
            move = Claim(eligible[0], player) if eligible else Decline(player)
        names.append(move.name)
        state = state.play(move)
    return names


def scripted() -> list[str]:
    return played_on(
        [
            *written(),
            "draw max-digit-sum",
            "Ann claim 16",
            "Bob claim 39",  # Ann's 77 would win
            "draw identical-digits",
            "Bob claim 44",
            "Ann claim 44",  # 44 and 44 cancel
            "draw contains-9",
            "Bob pass",
            "Ann claim 93",  # Bob has no 9 left
            "draw contains-1",
            "Ann claim 77 burn",
            "Bob claim 61",  # Ann has no 1 left
        ]  # fmt: skip
    )


def test_each_turn_is_told_and_each_choice_held_to_the_sheet():
    names = scripted()
    review = review_game("binome", OPTIONS, names)
    moves = {(m.ply, m.move): m for m in review.moves}
    ply: dict[str, int] = {}
    for k, name in enumerate(names, 1):
        ply.setdefault(name, k)  # the scripted turns come first

    ann16 = moves[ply["Ann claim 16"], "Ann claim 16"]
    assert ann16.label == "mistake"  # the card's 2 points lost
    assert ann16.better == "Ann claim 77"  # the largest sum of her sheet
    assert ann16.reason == "better 77: would have won Maximum sum of digits, 2 points"
    assert ann16.note.startswith("16 beaten: 39 wins") and "a pass would have kept 16" in ann16.note
    assert (ann16.value_before, ann16.value_after) == (2, 0)
    assert moves[ply["Bob claim 39"], "Bob claim 39"].label == "best"

    bob44 = moves[ply["Bob claim 44"], "Bob claim 44"]
    assert bob44.label == "blunder" and bob44.better == "Bob claim 77"  # 4 points lost
    assert bob44.note.startswith("44 cancelled with ANN's 44")
    ann44 = moves[ply["Ann claim 44"], "Ann claim 44"]
    assert ann44.label == "blunder" and ann44.better == "Ann claim 77"

    bob_pass = moves[ply["Bob pass"], "Bob pass"]
    assert bob_pass.label == "best" and bob_pass.note == "passed: no number of yours would have won"
    assert moves[ply["Ann claim 93"], "Ann claim 93"].note == "93 won 3 points"

    burned = moves[ply["Ann claim 77 burn"], "Ann claim 77 burn"]
    assert burned.label == "inaccuracy" and burned.better == "Ann pass"  # knowable at once
    assert burned.note == "77 does not meet Contains 1: burned; a pass would have kept 77"

    first_turn = review.headings[ply["Ann claim 16"]]
    assert first_turn.startswith("turn 1: Maximum sum of digits (2 points), chair ANN: 39 wins")
    assert "BOB +2; scores ANN 0, BOB 2" in first_turn
    assert review.intro[0] == "the die: " + " ".join(map(str, ROLLS))
    assert review.intro[1] == "ANN's numbers: 93 16 37 44 05 28 77 50"
    # every choice reviewed, nothing else
    choices = [n for n in names if " claim " in n or n.endswith(" pass")]
    assert [m.move for m in review.moves] == choices
    assert len(review.curve) == len(names) + 1 and review.curve[0] == 0.5


def test_the_first_turn_is_a_turning_point_when_it_hands_the_lead_over():
    review = review_game("binome", OPTIONS, scripted())
    # after turn 1 Bob leads 2-0, where Ann's 77 would have led 2-0: a turning point
    first = review.moves[0]
    assert first.before > 0.5 > first.after
    assert first.ply in review.turning_points


def test_a_pass_that_kept_nothing_back_and_a_number_spent_for_nothing():
    assert label_of_points(0) == "best"
    assert label_of_points(0, spent_for_nothing=True) == "good"
    assert [label_of_points(k) for k in (1, 2, 3, 7)] == [
        "inaccuracy", "mistake", "blunder", "blunder",
    ]  # fmt: skip


def random_game(seed: int, players: str = "Ann,Bob,Cy", **extra) -> tuple[dict, list[str]]:
    options = SPEC.resolve({"players": players, **extra})
    state = SPEC.new(**options)
    rng = random.Random(seed)
    names = []
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        names.append(move.name)
        state = state.play(move)
    return options, names


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from(["Ann,Bob", "Ann,Bob,Cy", "Ann,Bob,Cy,Dan"]),
    variant=st.sampled_from(
        [{}, {"secrets": True}, {"battle_royale": True}, {"transparency": True}]
    ),
)
def test_a_better_choice_played_instead_scores_what_the_review_says(seed, players, variant):
    """The better choice, put in the record in place of the one made, and the game replayed by
    its own rules to that turn's end, gains the points the review said; the labels follow
    the points lost."""
    options, names = random_game(seed, players, **variant)
    review = review_game("binome", options, names)
    assert {m.label for m in review.moves} <= set(LABEL_NAMES)
    for m in review.moves:
        lost = m.value_before - m.value_after
        assert lost >= 0 and m.before >= m.after
        if lost == 0:
            assert m.label in ("best", "good", "inaccuracy")  # inaccuracy: a number burned
        else:
            assert m.label == label_of_points(lost) and m.better is not None
        if m.better is None:
            continue
        state = SPEC.new(**options)
        k = m.ply - 1
        for i, name in enumerate([*names[:k], m.better, *names[m.ply :]]):
            turns = len(state.history)
            state = state.play(state.parse_move(name))
            if i >= k and len(state.history) > turns:  # that turn resolved
                break
        assert state.history[-1].gained(m.player) == m.value_before, m


def test_a_game_on_paper_is_told_from_what_was_said():
    """Paper sheets (option ``paper``): the companion never knew them, so each choice is held
    to a pass only, and said so."""
    options, names = random_game(4, "Ann,Bob", paper=True)
    review = review_game("binome", options, names)
    assert review.moves and review.headings
    for m in review.moves:
        assert m.note.endswith("(a sheet on paper: no other number of it known)")
        assert m.better in (None, f"{m.player} pass") and m.label in ("best", "good")


def test_the_curve_ends_at_the_result_and_has_a_point_a_move():
    options, names = random_game(7)
    review = review_game("binome", options, names)
    end = SPEC.replay(names, **options)
    first = end.names[0]
    assert len(review.curve) == len(names) + 1
    assert review.curve[-1] == (
        1.0 if end.winners() == (first,) else 0.5 if first in end.winners() else 0.0
    )


def test_a_game_not_over_is_refused_and_no_number_shown():
    options, names = random_game(3)
    cut = names[: names.index(next(n for n in names if " claim " in n)) + 1]
    with pytest.raises(NotReviewable) as refused:
        review_game("binome", options, cut)
    said = str(refused.value)
    assert said == "binome: only a game that is over is reviewed: its sheets are still secret"
    assert not any(ch.isdigit() for ch in said)


def test_the_command_tells_the_turns_and_prints_json(capsys, tmp_path):
    names = scripted()
    end = SPEC.replay(names, **OPTIONS)
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id = j.import_game(
            "binome", OPTIONS, {}, [(n, None) for n in names], started=None, ended=None,
            status="finished", outcome=end.outcome(),
        )  # fmt: skip
    assert main(["review", str(game_id), "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "the die: " + " ".join(map(str, ROLLS))
    assert any(line.startswith("turn 1: Maximum sum of digits") for line in out)
    at = next(k for k, line in enumerate(out) if "Ann claim 16" in line)
    assert out[at].split()[5] == "mistake"
    assert out[at].endswith("(better 77: would have won Maximum sum of digits, 2 points)")
    assert out[at + 1].strip().startswith("16 beaten: 39 wins")
    assert any(line.startswith("turning points: ") and "ANN Ann claim 16" in line for line in out)
    assert main(["review", str(game_id), "--json", "--journal", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "binome" and data["intro"][0].startswith("the die: ")
    first = data["moves"][0]
    assert first["move"] == "Ann claim 16" and first["label"] == "mistake"
    assert first["note"].startswith("16 beaten") and str(first["ply"]) in data["headings"]
    assert len(data["curve"]) == len(names) + 1


def test_a_game_ended_on_time_keeps_its_numbers_from_the_review(capsys, tmp_path):
    """A game that ended before the rules ended it (on time) never revealed its sheets: the
    command refuses it in one line and says no number of them."""
    from companion.games.base import Outcome

    names = scripted()[:60]  # in turn 4: the sheets and three turns' numbers secret
    state = SPEC.new(**OPTIONS)
    rows = []
    for name in names:
        move = state.parse_move(name)
        public = state.public_name(move)
        rows.append((name, None, state.actor(move), public if public != name else None))
        state = state.play(move)
    assert not state.revealed()
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id = j.import_game(
            "binome", OPTIONS, {}, rows, started=None, ended=None, status="finished",
            outcome=Outcome(("Bob",), "won on time", {"on_time": "Ann"}),
        )  # fmt: skip
    for args in ((str(game_id),), (str(game_id), "--json")):
        assert main(["review", *args, "--journal", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert f"game {game_id} has not revealed its secrets: no review before" in err
        numbers = {n.split()[-1] for n in names if " claim " in n} | {"93", "16", "39"}
        assert not any(n in err.replace(str(game_id), "") for n in numbers)
