"""Binøme with paper sheets (option ``paper``): the companion never knows a person's sheet;
each says when they have written, claims or passes in turn without a number, and tells the
number only once everybody has chosen; the turn resolves from the numbers told, a number that
does not meet the postulate out of the turn. Solo mode's virtual players keep their sheets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.binome.postulates import BY_ID

SPEC = get_spec("binome")


def play_out(options: dict, seed: int, choose=None):
    """A whole paper game, every choice at random; returns (state, names played)."""
    state = SPEC.new(**options)
    rng = random.Random(seed)
    names = []
    while not state.is_over():
        chance = state.chance_moves()
        move = rng.choice(chance) if chance else state.forced_move()
        if move is None:
            player = sorted(state.to_act)[0]
            moves = state.legal_moves(player)
            move = choose(state, player, moves, rng) if choose else rng.choice(moves)
        names.append(move.name)
        state = state.play(move, None if chance else getattr(move, "player", None))
    return state, names


OPTIONS = st.sampled_from(
    [
        {"players": "Ann,Bob", "paper": True},
        {"players": "3", "paper": True, "chair": "p2"},
        {"players": "Ann", "solo": 2, "seed": 11, "paper": True},
        {"players": "Ann,Bob", "paper": True, "battle_royale": True, "transparency": True},
    ]
)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 10_000))
def test_a_paper_game_ends_replays_and_never_knows_a_persons_sheet(options, seed):
    state, names = play_out(options, seed)
    assert SPEC.replay(names, **options) == state
    for p in state.players:
        sheet_known = None not in state.sheet(p)
        assert sheet_known == (p in state.virtual)  # only the virtual players' sheets
    # every turn resolved from the numbers told, in the order the claimants were asked
    told = [n for n in names if len(n.split()) == 3 and n.split()[1] == "claim"]
    claims = [f"{p} claim {n:02d}" for r in state.history for p, n in r.claims]
    people = [c for c in claims if c.split()[0] not in state.virtual]
    assert sorted(people) == sorted(t for t in told if t.split()[0] not in state.virtual)


def test_a_claim_is_made_without_its_number_and_the_number_asked_after():
    state = SPEC.new(players="Ann,Bob", paper=True)
    rng = random.Random(3)
    while state.card is None:  # sixteen rolls, each written on paper, then a postulate
        chance = state.chance_moves()
        if chance:
            state = state.play(rng.choice(chance))
            continue
        assert [m.name for m in state.legal_moves("Ann")] in (["Ann write"], [])
        refused = state.check(state.parse_move("Ann write 1a"), "Ann")
        if "Ann" in state.to_act:
            assert refused.code == "paper"
        player = sorted(state.to_act)[0]
        state = state.play(state.parse_move(f"{player} write"), player)
    assert state.turn == "Ann"
    assert [m.name for m in state.legal_moves("Ann")] == ["Ann claim", "Ann pass"]
    assert state.check(state.parse_move("Ann claim 42"), "Ann").code == "paper-claim"
    state = state.play(state.parse_move("Ann claim"), "Ann")
    assert state.public_name(state.parse_move("Bob claim")) == "Bob claim"
    state = state.play(state.parse_move("Bob claim"), "Bob")
    # everybody chose: the claimants are asked in claim order, one at a time
    assert state.to_act == {"Ann"} and state.card is not None
    assert state.check(state.parse_move("Bob claim 11"), "Bob").code == "not-your-turn"
    assert state.check(state.parse_move("Ann pass"), "Ann").code == "paper-number"
    card = state.card
    good = next(n for n in range(100) if BY_ID[card].eligible(n))
    bad = next((n for n in range(100) if not BY_ID[card].eligible(n)), None)
    move = state.parse_move(f"Ann claim {good:02d}")
    assert state.public_name(move) == f"Ann claim {good:02d}"  # said aloud: public
    state = state.play(move, "Ann")
    assert state.to_act == {"Bob"} and not state.history
    last = state.parse_move(f"Bob claim {bad if bad is not None else good:02d}")
    assert state.reveals(last)  # the last number resolves the turn
    state = state.play(last, "Bob")
    (resolution,) = state.history
    assert dict(resolution.claims) == {"Ann": good, "Bob": bad if bad is not None else good}
    if bad is not None:  # a wrong claim is out of the turn, with no confirmation asked
        assert dict(resolution.eliminated).get("Bob") == "ineligible"
        assert "Bob" not in resolution.winners


def test_paper_sheets_and_secret_claims_do_not_go_together():
    with pytest.raises(ValueError, match="paper: claims are said aloud"):
        SPEC.new(players="2", paper=True, secrets=True)


def test_without_paper_a_veiled_move_is_still_no_move():
    state = SPEC.new(players="Ann,Bob")
    with pytest.raises(ValueError):
        state.parse_move("Ann write")
