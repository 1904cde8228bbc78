"""Typed moves, the one way to name, read and replay them, over every registered game and the
stub games: every legal move along random games is a ``Move`` whose name reads back as the same
move, and replaying the names from ``spec.replay`` (or step by step with ``spec.steps``) gives
the same states. Also ``Outcome``'s one way to give the winners."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import game_names, get_spec, register, unregister
from companion.games.base import IllegalMove, Move, Outcome, Place, Word, places
from companion.games.wythe.moves import Placement
from companion.games.wythe.tables import rules as wythe_rules
from tests.stub_games import STUBS, stubs_registered

GAMES = [*game_names(), *STUBS, "noughts"]  # the toy game of tests/toy_game too
PLIES = 80  # enough to leave every game's opening (Binøme's rolls, Latent's setup)


@pytest.fixture(autouse=True, scope="module")
def stubs():
    register("noughts", "tests.toy_game.spec")
    with stubs_registered():
        yield
    unregister("noughts")


def random_game(name: str, data) -> tuple[list, list[str]]:
    """States and the names of the moves between them, moves drawn by hypothesis."""
    spec = get_spec(name)
    state = spec.new(**spec.resolve({}))
    states, names = [state], []
    while not state.is_over() and len(names) < PLIES:
        move = state.forced_move()
        if move is None and (chance := state.chance()) is not None:
            move = state.parse_move(data.draw(st.sampled_from(chance.outcomes)))
        if move is None:
            move = data.draw(st.sampled_from(list(state.legal_moves())))
        names.append(move.name)
        state = state.play(move, None if state.forced_move() else state.actor(move))
        states.append(state)
    return states, names


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_every_legal_move_is_typed_and_its_name_reads_back(name, data):
    spec = get_spec(name)
    layout = spec.layout(spec.resolve({}))
    states, _ = random_game(name, data)
    for state in states:
        for move in state.legal_moves():
            assert isinstance(move, Move), move
            assert state.parse_move(move.name) == move, move.name
            assert hash(state.parse_move(move.name)) == hash(move)
            assert str(move) == move.name
            if layout is not None:
                assert all(0 <= c < layout.cells for c in move.cells), move
        forced = state.forced_move()
        if forced is not None:
            assert state.parse_move(forced.name) == forced


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_replaying_the_names_gives_the_same_states(name, data):
    spec = get_spec(name)
    options = spec.resolve({})
    states, names = random_game(name, data)
    final = spec.replay(names, **options)
    assert final == states[-1] or spec.view(final) == spec.view(states[-1])
    assert final.ply == states[-1].ply
    steps = list(spec.steps(names, **options))
    assert [s.move.name for s in steps] == names
    for k, step in enumerate(steps):
        assert step.before.ply == states[k].ply and step.after.ply == states[k + 1].ply
        assert spec.view(step.after) == spec.view(states[k + 1])
    assert spec.replay([], **options).ply == 0


def test_a_name_that_does_not_replay_stops_the_steps_there():
    spec = get_spec("binaryon")
    steps = spec.steps(["e5", "d4", "e5", "c5"])  # e5 again: not black any more
    assert [s.move.name for s in (next(steps), next(steps))] == ["e5", "d4"]
    with pytest.raises(IllegalMove, match="e5"):
        next(steps)
    with pytest.raises(ValueError, match="z9"):
        spec.replay(["e5", "z9"])


def test_passes_words_and_places():
    assert Word("pass").is_pass and not Word("end").is_pass and not Word("swap").is_pass
    assert Word("pass") == get_spec("binaryon").new().parse_move("pass")
    assert Word("end").cells == () and not places(8)[0].is_pass
    assert Place(36, 8).name == "e5" and Place(36, 8).cells == (36,)
    assert Place(36, 8) == places(8)[36] and Place(20, 6) != places(8)[20]
    with pytest.raises(ValueError, match="not on a 6x6 board"):
        Place(36, 6)
    assert Place(0, 10).name == "a1" and places(10)[99].name == "j10"
    assert places(8) is places(8)  # made once per size


def test_moves_the_engines_search_are_one_object_per_value():
    assert Place(36, 8) is places(8)[36] and Word("pass") is Word("pass")
    assert Placement(27, 35, 8) is Placement(27, 35, 8) != Placement(35, 27, 8)
    assert {Place(36, 8): 1}[places(8)[36]] == 1 and sorted(places(4)[::-1]) == list(places(4))
    for n in (4, 7, 8):
        r = wythe_rules(n)
        for k, row in enumerate(r.pairs):
            for s, p in enumerate(row):
                if p is not None:  # each placement knows its bit in legal_bits
                    assert p.bit == k * n * n + s and r.info[(p.black, p.white)][0] == p.bit
    assert Placement(0, 2, 8).bit == -1 and Placement(7, 8, 8).bit == -1  # not neighbours


def test_a_move_typed_without_its_player_is_made_the_players():
    state = get_spec("binome").new(players="Ann,Bob")
    claim = state.parse_move("claim 12")
    assert claim.by("Bob").name == "Bob claim 12"
    assert claim.by("Bob").by("Ann").name == "Bob claim 12"  # a named player stays
    assert Word("pass").by("Bob") == Word("pass")  # moves that name no player: themselves


def test_an_outcome_gives_its_winners_one_way():
    one = Outcome(("on",), "ON wins")
    assert one.winners == ("on",) and one.winner == "on"
    shared = Outcome(winners=["a", "b"], summary="a, b win")
    assert shared.winners == ("a", "b") and shared.winner is None
    assert Outcome(summary="draw").winners == () and Outcome().winner is None
    with pytest.raises(TypeError):
        Outcome(winner="on")  # type: ignore[call-arg]
