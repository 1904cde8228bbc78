"""Invariants of the Wythe engine over random legal games, checked with hypothesis against a
slow reading of the rules straight from the list of pieces."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.squares import orthogonal_neighbours
from companion.games import get_spec
from companion.games.base import Pending, Play, Refuse
from companion.games.wythe.engine import MAX_HEIGHT
from companion.games.wythe.moves import BLACK, PASS, SWAP, WHITE, Placement, other
from companion.games.wythe.scoring import group_sizes

SIZES = st.sampled_from([4, 5, 6, 8])


# --------------------------------------------------------------------------- the rules by hand


def stacks_by_hand(pieces, n: int) -> list[list[tuple[int, str]]]:
    """Per square, the (piece id, colour) of each bit, bottom first."""
    out: list[list[tuple[int, str]]] = [[] for _ in range(n * n)]
    for pid, p in enumerate(pieces):
        out[p.black].append((pid, BLACK))
        out[p.white].append((pid, WHITE))
    return out


def every_piece_uncovered(pieces, n: int) -> bool:
    stacks = stacks_by_hand(pieces, n)
    uncovered = {stack[-1][0] for stack in stacks if stack}
    return uncovered == set(range(len(pieces)))


def legal_by_hand(pieces, n: int) -> set[tuple[int, int]]:
    stacks = stacks_by_hand(pieces, n)
    out = set()
    for b in range(n * n):
        for w in orthogonal_neighbours(b, n):
            sb, sw = stacks[b], stacks[w]
            if len(sb) != len(sw):
                continue
            if (sb and sb[-1][1] == BLACK) or (sw and sw[-1][1] == WHITE):
                continue
            after = [*pieces, Placement(b, w, n)]
            if every_piece_uncovered(after, n):
                out.add((b, w))
    return out


def groups_by_hand(colours: list[str | None], n: int, colour: str) -> list[int]:
    seen: set[int] = set()
    sizes = []
    for s in range(n * n):
        if colours[s] != colour or s in seen:
            continue
        todo, size = [s], 0
        seen.add(s)
        while todo:
            x = todo.pop()
            size += 1
            for y in orthogonal_neighbours(x, n):
                if colours[y] == colour and y not in seen:
                    seen.add(y)
                    todo.append(y)
        sizes.append(size)
    return sorted(sizes)


def score_by_hand(black: Counter, white: Counter) -> tuple[int, int]:
    sizes = set(black) | set(white)
    sb = max((s for s in sizes if black[s] > white[s]), default=0)
    sw = max((s for s in sizes if white[s] > black[s]), default=0)
    return sb, sw


# --------------------------------------------------------------------------- random games


def random_game(n: int, seed: int, pie: bool = True, stop: int | None = None):
    """States and move names of one random game (the swap taken when drawn)."""
    rng = random.Random(seed)
    state = get_spec("wythe").new(**{"size": n, "pie": pie})
    states, names = [state], []
    while (moves := state.legal_moves()) and (stop is None or len(names) < stop):
        move = rng.choice(moves)
        names.append(move.name)
        state = state.play(move)
        states.append(state)
    return states, names


GAMES = st.tuples(SIZES, st.integers(0, 2**32), st.booleans())


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_random_games_keep_every_rule(game):
    n, seed, pie = game
    states, names = random_game(n, seed, pie)
    final = states[-1]
    assert final.is_over() and names[-2:] == [PASS.name, PASS.name]
    assert PASS.name not in names[:-2]  # a pass ends the game: nobody can place after one
    for before, after, name in zip(states[:-1], states[1:], names, strict=True):
        pieces = after.pieces
        assert every_piece_uncovered(pieces, n)
        stacks = stacks_by_hand(pieces, n)
        # the bitboards say what the pieces say
        assert after.heights() == [len(s) for s in stacks]
        assert [s.top(i) for s, i in ((after, i) for i in range(n * n))] == [
            s[-1][1] if s else None for s in stacks
        ]
        assert max(after.heights()) <= MAX_HEIGHT
        # no stack higher than its number of neighbours (4 mid-board, 3 on an edge, 2 in a corner)
        assert all(h <= len(orthogonal_neighbours(i, n)) for i, h in enumerate(after.heights()))
        if name not in (PASS.name, SWAP.name):
            b, w, level = pieces[-1]
            assert before.height(b) == before.height(w) == level  # equal heights
            assert after.last_placer == before.turn
        else:
            assert after.pieces == before.pieces


@settings(max_examples=60, deadline=None)
@given(GAMES, st.data())
def test_legal_moves_match_the_rules_by_hand_and_check(game, data):
    n, seed, pie = game
    states, _ = random_game(n, seed, pie)
    state = data.draw(st.sampled_from(states))
    listed = state.legal_moves()
    assert len(listed) == len(set(listed))
    placements = {m.cells for m in listed if m not in (PASS, SWAP)}
    if not state.is_over():
        assert placements == legal_by_hand(state.pieces, n)
        assert (PASS in listed) == (not placements)
        assert (SWAP in listed) == (pie and state.ply == 1)
        assert state.forced_move() == (PASS if listed == [PASS] else None)
    # check() agrees with the list on every pair of squares, adjacent or not, and on the words
    for b in range(n * n):
        for w in range(n * n):
            refusal = state.check(Placement(b, w, n))
            assert (refusal is None) == ((b, w) in placements), (b, w, refusal)
            if refusal is not None:
                assert refusal.code and 0 < len(refusal.reason) <= 42
    for word in (PASS, SWAP):
        assert (state.check(word) is None) == (word in listed)


@settings(max_examples=60, deadline=None)
@given(GAMES, st.data())
def test_replaying_move_names_rebuilds_the_same_state(game, data):
    n, seed, pie = game
    states, names = random_game(n, seed, pie)
    k = data.draw(st.integers(0, len(names)))
    state = get_spec("wythe").new(**{"size": n, "pie": pie})
    for name in names[:k]:
        state = state.play(state.parse_move(name))
    want = states[k]
    assert state.cells() == want.cells() and state.heights() == want.heights()
    assert state.pieces == want.pieces
    assert (state.turn, state.ply, state.passes, state.swapped, state.last_placer) == (
        want.turn, want.ply, want.passes, want.swapped, want.last_placer
    )  # fmt: skip
    assert state.legal_moves() == want.legal_moves()
    assert state.score() == want.score()


@settings(max_examples=80, deadline=None)
@given(GAMES, st.data())
def test_scores_follow_the_group_table(game, data):
    n, seed, pie = game
    states, _ = random_game(n, seed, pie)
    state = data.draw(st.sampled_from(states))
    colours = [state.top(i) for i in range(n * n)]
    sc = state.score()
    for colour in (BLACK, WHITE):
        mask = state.black_tops if colour == BLACK else state.white_tops
        assert sorted(group_sizes(mask, n)) == groups_by_hand(colours, n, colour)
        assert sc.groups(colour) == Counter(groups_by_hand(colours, n, colour))
    assert (sc.black, sc.white) == score_by_hand(Counter(sc.black_groups), Counter(sc.white_groups))
    # never both equal and non-zero; a leader once anything is placed
    assert sc.black != sc.white or sc.black == 0
    if state.last_placer is None:
        assert sc.leader is None
    elif sc.black == sc.white:
        assert sc.leader == other(state.last_placer)
    else:
        assert sc.leader == (BLACK if sc.black > sc.white else WHITE)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 16), st.integers(0, 2**32))
def test_group_sizes_match_a_flood_fill_on_any_board(n, seed):
    rng = random.Random(seed)
    colours = [rng.choice([BLACK, WHITE, None]) for _ in range(n * n)]
    mask = sum(1 << i for i, c in enumerate(colours) if c == BLACK)
    assert sorted(group_sizes(mask, n)) == groups_by_hand(colours, n, BLACK)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([7, 9, 12, 16]), st.integers(0, 2**32))
def test_large_and_odd_boards_play_to_the_end(n, seed):
    states, names = random_game(n, seed, stop=60)
    state = states[-1]
    assert every_piece_uncovered(state.pieces, n)
    assert {m.cells for m in state.legal_moves() if m not in (PASS, SWAP)} == legal_by_hand(
        state.pieces, n
    )


@settings(max_examples=40, deadline=None)
@given(GAMES, st.data())
def test_the_switch_board_enters_exactly_the_legal_placements(game, data):
    n, seed, pie = game
    states, _ = random_game(n, seed, pie)
    state = data.draw(st.sampled_from(states[:-1]))
    spec = get_spec("wythe")
    placements = [m for m in state.legal_moves() if m not in (PASS, SWAP)]
    blacks = {m.black for m in placements}
    for square in range(n * n):
        inp = spec.interpreter("switch")
        first = inp.press(state, square)
        assert isinstance(first, Pending) == (square in blacks), (square, first)
        if isinstance(first, Pending):
            whites = {m.white for m in placements if m.black == square}
            assert set(state.completions(square)) == whites
            for w in range(n * n):
                second = inp.press(state, w)
                if w == square:
                    assert second == Pending((), "")
                    inp.press(state, square)
                elif w in whites:
                    assert second == Play(Placement(square, w, n))
                else:
                    assert isinstance(second, Refuse) and second.cell == w
