"""Invariants of Binøme resolution and of whole games, checked with hypothesis."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.binome.moves import Claim, Decline, Draw, Roll, Write
from companion.games.binome.postulates import BY_ID, IDS, get
from companion.games.binome.resolution import X, resolve

new_game = get_spec("binome").new

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


@st.composite
def claims(draw):
    k = draw(st.integers(0, 7))
    numbers = draw(st.lists(st.integers(0, 99), min_size=k, max_size=k))
    return list(zip(NAMES[:k], numbers, strict=True))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(IDS),
    claims(),
    st.one_of(st.integers(0, 9), st.just(X)),
    st.booleans(),
    st.booleans(),
)
def test_resolution_invariants(postulate, cl, points, royale, boat):
    p = get(postulate)
    res = resolve(postulate, cl, points, battle_royale=royale, same_boat=boat)
    number = dict(cl)
    eligible = [n for _, n in cl if p.eligible(n)]
    counts = Counter(eligible)
    # a winner's number is eligible and chosen by nobody else
    for w in res.winners:
        assert p.eligible(number[w])
        assert counts[number[w]] == 1
    # points only go to claimants, and only to winners
    assert {n for n, _ in res.points} == set(number)
    assert all(g == 0 for n, g in res.points if n not in res.winners)
    # every claimant is either a winner or eliminated, never both
    eliminated = dict(res.eliminated)
    assert set(eliminated) | set(res.winners) == set(number)
    assert not set(eliminated) & set(res.winners)
    for name, why in eliminated.items():
        n = number[name]
        assert why == ("ineligible" if not p.eligible(n) else
                       "identical" if counts[n] > 1 else "beaten")  # fmt: skip
    # one winner unless the same-boat variant cancelled something
    if not (boat and any(c > 1 for c in counts.values())):
        assert len(res.winners) <= 1
    # the winner ranks at least as well as every beaten number
    if res.winners:
        best = p.rank(number[res.winners[0]])
        assert all(best > p.rank(number[n]) for n, w in eliminated.items() if w == "beaten")
        value = len(cl) if points == X else points
        bonus = 1 if royale and len(cl) >= 3 else 0
        assert all(res.gained(w) == value + bonus for w in res.winners)
    else:
        assert all(counts[n] > 1 for n in counts)  # nobody left standing
    assert res.explanation.count("\n") == 0


def random_game(data, options):
    """Play a whole game with moves drawn by hypothesis; returns the state and move names."""
    state = new_game(**options)
    names: list[str] = []
    publics: list[tuple[object, str]] = []
    while not state.is_over():
        chance = state.chance()
        if chance is not None:
            move = state.parse_move(data.draw(st.sampled_from(chance.outcomes)))
        elif (forced := state.forced_move()) is not None:
            move = forced
        else:
            player = data.draw(st.sampled_from(sorted(state.to_act)))
            moves = state.legal_moves(player)
            move = data.draw(st.sampled_from(moves))
        names.append(move.name)
        publics.append((move, state.public_name(move)))
        state = state.play(move)
    return state, names, publics


game_options = st.fixed_dictionaries(
    {
        "players": st.integers(1, 7).map(lambda k: ",".join(NAMES[:k])),
        "secrets": st.booleans(),
        "battle_royale": st.booleans(),
        "same_boat": st.booleans(),
        "transparency": st.booleans(),
    }
)


@settings(max_examples=25, deadline=None)
@given(game_options, st.data())
def test_replaying_move_names_rebuilds_the_game(options, data):
    state, names, _ = random_game(data, options)
    assert state.ply == len(names)
    assert get_spec("binome").replay(names, **options) == state
    # a prefix replays to the same state as playing it
    cut = data.draw(st.integers(0, len(names)))
    partial = get_spec("binome").replay(names[:cut], **options)
    assert partial.ply == cut


@settings(max_examples=25, deadline=None)
@given(game_options, st.data())
def test_public_names_never_show_where_a_digit_went_or_which_number(options, data):
    _, _, publics = random_game(data, options)
    for move, public in publics:
        if isinstance(move, Roll | Draw):
            continue
        rest = public.removeprefix(move.player)
        assert not re.search(r"\d", rest), public
        assert not re.search(r"[1-8][ab]\b", rest)
        if isinstance(move, Write):
            assert rest == " write"
        elif options["secrets"]:
            assert rest == " chose"  # not even whether they claimed
        else:
            assert rest == (" claim" if isinstance(move, Claim) else " pass")


@settings(max_examples=25, deadline=None)
@given(game_options, st.data())
def test_scores_cards_and_numbers_add_up(options, data):
    state, names, _ = random_game(data, options)
    assert sum(state.scores) == sum(g for r in state.history for _, g in r.points)
    for r in state.history:
        claimants = {n for n, _ in r.claims}
        assert {n for n, g in r.points if g} <= claimants
    # every claim used one number of the claimant's sheet, never more than the sheet had
    for p in state.players:
        claimed = Counter(n for r in state.history for who, n in r.claims if who == p)
        sheet = Counter(int(x) for x in state.numbers(p))
        assert not claimed - sheet
        assert sum(claimed.values()) + len(state.unused_numbers(p)) == 8
    taken = [c for w in state.won for c in w]
    assert len(taken) == len(set(taken))
    assert len(state.history) == 16 - len(state.remaining)
    # the game ended for a reason the rules give
    assert not state.remaining or min(len(state.unused_numbers(p)) for p in state.players) == 0
    out = state.outcome()
    assert out is not None
    top = max(state.scores)
    assert set(out.detail["winners"]) == {p for p in state.players if state.score_of(p) == top}


@settings(max_examples=40, deadline=None)
@given(game_options, st.data())
def test_legal_moves_are_accepted_and_others_refused(options, data):
    state = new_game(**options)
    for _ in range(data.draw(st.integers(0, 120))):
        if state.is_over():
            break
        chance = state.chance()
        if chance is not None:
            move = state.parse_move(data.draw(st.sampled_from(chance.outcomes)))
        else:
            player = data.draw(st.sampled_from(sorted(state.to_act)))
            legal = state.legal_moves(player)
            assert legal and all(state.check(m) is None for m in legal)
            if state.phase == "claim":
                have = set(state.unused_numbers(player))
                card = BY_ID[state.card]
                any_eligible = any(card.eligible(n) for n in have)
                for n in range(100):
                    plain = n in have and card.eligible(n)
                    # confirmed (burn), a number that is not eligible is a mistake the rules
                    # eliminate, whether or not the player had an eligible one
                    burned = n in have and not card.eligible(n)
                    assert (state.check(Claim(n, player)) is None) == plain
                    assert (state.check(Claim(n, player, burn=True)) is None) == burned
                assert Decline(player) in legal
                if not any_eligible:  # the page offers the pass alone
                    assert legal == [Decline(player)]
            move = data.draw(st.sampled_from(legal))
        state = state.play(move)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2**32), st.booleans(), st.data())
def test_solo_games_replay_from_their_move_names(bots, seed, secrets, data):
    options = {"players": "Ann", "solo": bots, "seed": seed, "secrets": secrets}
    state, names, _ = random_game(data, options)
    assert get_spec("binome").replay(names, **options) == state
    bot_moves = [n for n in names if n.startswith("bot")]
    assert len(bot_moves) >= 16 * bots  # every opponent wrote all sixteen digits
