"""Invariants of Latent Binaries over random games (hypothesis): secrets never reach the public
view, pawns are conserved, check() and legal_moves() agree, replay rebuilds the state."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.latent_binaries.engine import LatentState
from companion.games.latent_binaries.geometry import SQUARES, square_name
from companion.games.latent_binaries.moves import (
    END,
    PASS,
    Challenge,
    Marker,
    Order,
    Setup,
    Step,
)
from companion.games.latent_binaries.options import MIN_LEFT, PLAYERS, other
from companion.games.latent_binaries.phases import MOVE, OVER, SETUP
from companion.games.latent_binaries.position import legal, position_of
from companion.games.latent_binaries.views import public_view, reveal, secret_view

new_game = get_spec("latent-binaries").new

OPTIONS = st.fixed_dictionaries(
    {
        "nests": st.integers(1, 5),
        "pawns": st.integers(4, 5),
        "first": st.sampled_from(PLAYERS),
        "order_reveal": st.booleans(),
    }
).filter(lambda o: o["nests"] < 5 or o["pawns"] == 5)  # 5 nests need 5 pawns of 4 colours


def random_game(seed: int, options: dict, limit: int = 150) -> list[tuple[LatentState, object]]:
    """(state, move played) pairs of one random game; the last state has move None."""
    rng = random.Random(seed)
    state = new_game(**options)
    out = []
    while not state.is_over() and state.ply < limit:
        moves = state.legal_moves()
        guesses = [m for m in moves if isinstance(m, Challenge | Order)]
        move = rng.choice(guesses if guesses and rng.random() < 0.7 else moves)
        out.append((state, move))
        state = state.play(move)
    out.append((state, None))
    return out


def scrambled(state: LatentState, rng: random.Random, owner: str | None = None) -> LatentState:
    """The same public situation with other secrets: every hidden colour nobody has seen yet
    (not capped) and every order not shown is redrawn."""
    nests = []
    for n in state.nests:
        if not n.is_set or (owner is not None and n.owner != owner):
            nests.append(n)
            continue
        cols = list(state.rules.colours_of(n.owner))
        pair = list(n.caps)
        while len(pair) < 2:
            pair.append(rng.choice([c for c in cols if c not in pair]))
        if n.shown:
            pair = [n.top, n.bottom]
        else:
            rng.shuffle(pair)
        nests.append(replace(n, top=pair[0], bottom=pair[1]))
    return replace(state, nests=tuple(nests))


def candidate_moves(state: LatentState, rng: random.Random) -> list[object]:
    """A sample of well-formed moves of every kind, legal or not."""
    every = [c for p in PLAYERS for c in state.rules.colours_of(p)] + ["pink"]
    out: list[object] = [END, PASS]
    for _ in range(12):
        a, b = rng.randrange(SQUARES), rng.randrange(SQUARES)
        c1, c2 = rng.choice(every), rng.choice(every)
        out += [Step(a, b), Challenge(a, c1), Order(a, c1, c2), Marker(a, b), Setup(a, c1, c2)]
    for n in state.nests:
        out += [Challenge(n.square, c) for c in every]
        out += [Step(n.square, n.square + d) for d in (1, -1, 5, -5) if 0 <= n.square + d < 35]
    return out


def pawn_count(state: LatentState, player: str) -> Counter:
    count = Counter(state.stash_of(player))
    for n in state.nests_of(player):
        count.update(c for c in (n.top, n.bottom, *n.caps) if c)
    return count


GAMES = given(seed=st.integers(0, 2**32), options=OPTIONS)
FAST = settings(max_examples=40, deadline=None)


@FAST
@GAMES
def test_the_public_view_never_holds_a_hidden_pawn(seed, options):
    rng = random.Random(seed)
    for state, move in random_game(seed, options):
        if state.is_over():
            break
        view = public_view(state)
        assert view == public_view(scrambled(state, rng))
        for p in PLAYERS:  # a player's page shows only their own secrets
            assert secret_view(state, p) == secret_view(scrambled(state, rng, other(p)), p)
        if move is not None:
            public = state.public_name(move)
            if isinstance(move, Setup):
                assert public == f"setup {square_name(move.square)}"
            else:
                assert public == move.name
        json.dumps(view)  # JSON-able


@FAST
@GAMES
def test_check_and_legal_moves_agree(seed, options):
    rng = random.Random(seed)
    for state, _ in random_game(seed, options):
        legal_moves = state.legal_moves()
        assert bool(legal_moves) == (not state.is_over()) == bool(state.to_act)
        assert len(set(legal_moves)) == len(legal_moves)
        for m in legal_moves:
            assert state.check(m) is None
        for m in candidate_moves(state, rng):
            refusal = state.check(m)
            assert (refusal is None) == (m in legal_moves), (state, m, refusal)
            if refusal is not None:
                assert refusal.code and 0 < len(refusal.reason) <= 42


@FAST
@GAMES
def test_pawns_are_conserved_and_the_stash_keeps_two_after_setup(seed, options):
    for state, _ in random_game(seed, options):
        for p in PLAYERS:
            count = pawn_count(state, p)
            assert all(count[c] == options["pawns"] for c in state.rules.colours_of(p))
            assert all(v >= 0 for v in state.stash_of(p).values())
            for n in state.nests_of(p):
                assert len(set(n.caps)) == len(n.caps) <= 2
                assert set(n.caps) <= {n.top, n.bottom}
        if state.ply == 2 * options["nests"]:  # the setup has just ended
            assert state.phase != SETUP
            assert all(v >= MIN_LEFT for p in PLAYERS for v in state.stash_of(p).values())


@FAST
@GAMES
def test_replaying_move_names_rebuilds_every_state(seed, options):
    game = random_game(seed, options)
    names = [m.name for s, m in game if m is not None]
    final = game[-1][0]
    assert get_spec("latent-binaries").replay(names, **options) == final
    rebuilt = get_spec("latent-binaries").replay(names[: len(names) // 2], **options)
    assert rebuilt == game[len(names) // 2][0]
    if final.is_over():
        outcome = final.outcome()
        assert final.phase == OVER and outcome is not None and outcome.winners == (final.winner,)
        assert len(outcome.reason) <= 21 and json.dumps(outcome.detail)
        assert {h["top"] for h in reveal(final)["hidden"]} <= {
            c for p in PLAYERS for c in final.rules.colours_of(p)
        }


@FAST
@GAMES
def test_the_legal_function_agrees_with_the_engine(seed, options):
    for state, _ in random_game(seed, options):
        if state.phase != MOVE:
            continue
        result = legal(position_of(state), state.mover)
        moves = state.legal_moves()
        assert result["moves"] == [m.name for m in moves]
        winning = [m.name for m in moves if state.play(m).winner == state.mover]
        assert result["winning"] == winning


@FAST
@GAMES
def test_notation_round_trips_for_every_legal_move(seed, options):
    for state, _ in random_game(seed, options):
        for m in state.legal_moves():
            name = m.name
            assert state.parse_move(name) == m
            assert state.parse_move(name.upper()) == m  # typed in capitals
            assert state.actor(m) in state.to_act
