"""Levels a person can beat (issue 40, item 5): a careful player who only avoids the moves a
review would call blunders (``review.judge``), and ``binaryon match --ladder``: each level
against the one below it, the weakest against a greedy and a careful player."""

from __future__ import annotations

import json
import random
import sys

import pytest

from companion.cli.main import main
from companion.engines.adapters import adapter_for, new_state
from companion.engines.levels import LEVELS
from companion.engines.match import ladder_pairs
from companion.engines.players import make_player, parse_player
from companion.engines.review import BLUNDER, judge
from companion.engines.solve import make_solver


def _exact(adapter, solver, state, me):
    p = adapter.prepare(state)
    if adapter.is_over(p):
        w = adapter.winner(p)
        return 0 if w is None else 1 if w == me else -1
    v = solver.value(p)
    return v if adapter.mover(p) == me else -v


def _positions(game, size, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_state(game, {"size": size})
        for _ in range(rng.randrange(0, 8)):
            if state.is_over():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over():
            out.append(state)
    return out


@pytest.mark.parametrize("game", ["binaryon", "binary"])
def test_the_judges_blunders_lose_what_the_solution_keeps(game):
    """On 4x4 (solved), the moves ``judge`` calls blunders turn a won or drawn position into
    a worse one (90 % at least: without a review's look at the next position, a guess may call
    a move that keeps a win a blunder); the careful player never plays one when another move is
    left."""
    adapter = adapter_for(game)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    checked = agree = 0
    try:
        for state in _positions(game, 4, 40, seed=7):
            me = adapter.mover(adapter.prepare(state))
            solver = make_solver(adapter, adapter.prepare(state))
            before = _exact(adapter, solver, state, me)
            labels = judge(adapter, state)
            assert set(labels) == set(adapter.moves(adapter.prepare(state)))
            for move, label in labels.items():
                if label == BLUNDER:
                    checked += 1
                    after = _exact(adapter, solver, state.play(move), me)
                    agree += before >= 0 and after < before
            careful = make_player("careful", adapter, seed=1)  # judges at 1,500 nodes
            quick = judge(adapter, state, nodes=1500)
            if any(label != BLUNDER for label in quick.values()):
                assert quick[careful(state)] != BLUNDER
    finally:
        sys.setrecursionlimit(old)
    print(f"{game}: {agree}/{checked} blunders judged agree with the solution")
    assert checked >= 10 and agree >= 0.9 * checked


def test_the_ladder_goes_down_the_levels_then_below_the_weakest():
    pairs = ladder_pairs()
    assert pairs[0] == (f"engine:{LEVELS[-1]}", f"engine:{LEVELS[-2]}")
    assert [a for a, _ in pairs[: len(LEVELS) - 1]] == [f"engine:{x}" for x in LEVELS[:0:-1]]
    assert pairs[-2:] == [(f"engine:{LEVELS[0]}", "careful"), (f"engine:{LEVELS[0]}", "greedy")]
    assert parse_player("careful") == ("careful", None)


def test_match_ladder_prints_a_line_a_match_and_json(capsys):
    argv = ["match", "--ladder", "--size", "4", "--games", "2", "--time", "0.01"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "the ladder at binaryon: 2 games a match, 0.01 s a move"
    assert [line.split()[:3] for line in out[1:]] == [
        [a.removeprefix("engine:"), "vs", b.removeprefix("engine:")] for a, b in ladder_pairs()
    ]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(m["a"], m["b"]) for m in data] == ladder_pairs()
    assert all(m["games"] == 2 for m in data)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["match", "--ladder", "greedy"], "--ladder plays the levels"),
        (["match", "greedy"], "give two players A and B, or --ladder"),
        (["match"], "give two players A and B, or --ladder"),
    ],
)
def test_match_ladder_refusals_are_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_the_novice_sometimes_plays_any_move_the_beginner_never_does():
    """``novice`` overlooks things: now and then a move outside the next three best, which
    the beginner's slips never reach."""
    from companion.engines.search import choose

    adapter = adapter_for("binaryon")
    state = new_state("binaryon", {"size": 6})
    ranks = {}
    for level in ("novice", "beginner"):
        rng = random.Random(5)
        seen = []
        for _ in range(150):
            result = choose(adapter, state, level, seconds=None, rng=rng, nodes=400)
            order = [m for m, _ in result.scored]
            seen.append(order.index(result.move))
        ranks[level] = seen
    assert max(ranks["beginner"]) <= 3
    assert any(r > 3 for r in ranks["novice"])


def test_the_weakest_level_loses_most_games_to_the_careful_player():
    from companion.engines.match import run_match

    result = run_match(
        f"engine:{LEVELS[0]}", "careful", "binaryon", games=6, seed=1, seconds=0.05,
        options={"size": 6},
    )  # fmt: skip
    assert result.losses > result.wins + result.draws, result.as_dict()
