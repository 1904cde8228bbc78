"""Hosting Latent Binaries: registration, layout, views per viewer, hints, the input, and a
whole game through a session with page moves and board presses."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import game_names, get_spec, register, unregister
from companion.games.base import GameSpec, Pending, Play, Refuse
from companion.games.latent_binaries.geometry import parse_square
from companion.games.latent_binaries.input import LatentInput
from companion.games.latent_binaries.moves import END, Marker, Step
from companion.games.latent_binaries.options import resolve
from companion.games.latent_binaries.phases import CHALLENGE, MARKER, MOVE, SETUP
from companion.games.latent_binaries.spec import SPEC
from companion.referee.session import Session
from tests.games import test_contract as contract
from tests.games.latent_binaries.arrange import arranged
from tests.games.latent_binaries.test_properties import random_game, scrambled

new_game = get_spec("latent-binaries").new

R, X = "rainbow", "xeno"
SETUPS = {
    R: ["setup b2 red/yellow", "setup c2 green/blue", "setup d2 red/green"],
    X: ["setup b6 cyan/magenta", "setup c6 orange/purple", "setup d6 cyan/orange"],
}


@pytest.fixture(autouse=True)
def registered():
    """The game under its registry name, as the one registry line will add it for good."""
    known = "latent-binaries" in game_names()
    register("latent-binaries", "companion.games.latent_binaries.spec")
    yield
    if not known:
        unregister("latent-binaries")


def sq(name: str) -> int:
    return parse_square(name)


def started():
    s = new_game()
    for p in (R, X):
        for name in SETUPS[p]:
            s = s.play(s.parse_move(name), p)
    return s


def test_registered_with_its_layout_on_files_b_to_f():
    assert get_spec("latent-binaries") is SPEC and isinstance(SPEC, GameSpec)
    layout = SPEC.layout(SPEC.resolve({}))
    assert (layout.files, layout.ranks, layout.natural_board) == (5, 7, 8)
    squares = layout.to_board(8)
    assert squares[0] == 1 and squares[4] == 5  # a1 on b1, e1 on f1
    assert squares[-1] == 6 * 8 + 5  # e7 on f7
    assert SPEC.players({}) == (R, X)


def test_resolving_twice_changes_nothing():
    for opts in ({}, {"nests": 2}, {"rainbow_colours": " Red, blue ,green", "columns": "d,b,c"}):
        once = resolve(opts)
        assert resolve(once) == once
        assert SPEC.new(**once) == new_game(**opts)


def test_setup_view_hides_colours_and_offers_each_player_their_own_setups():
    s = new_game().play(new_game().parse_move("setup c2 red/blue"))
    table, mine, theirs = SPEC.view(s), SPEC.view(s, R), SPEC.view(s, X)
    assert table.actions == () and table.private == ()
    assert table.panel.note == "setup: on your page"
    assert "c2 hides red over blue" in mine.private
    assert all(m.startswith("setup b2") or m.startswith("setup d2") for m, _ in mine.actions)
    assert all(m.startswith("setup") and m.split()[1][1] == "6" for m, _ in theirs.actions)
    for view in (table, theirs):
        text = repr(view)
        assert "red/blue" not in text and "red over blue" not in text and "red" not in text
    assert mine.cells[sq("c2")].text == "red/blue"
    assert table.cells[sq("c2")].text == "" and table.cells[sq("c2")].piece == "R"


def test_the_table_view_follows_the_turn():
    s = started().play(started().parse_move("c2-c3"))
    view = SPEC.view(s)
    assert s.phase == CHALLENGE and view.panel.note == "guess on your page"
    assert ("challenge c6 orange", "c6: orange?") in view.actions
    assert SPEC.view(s, X).actions == ()  # not Xeno's turn
    s = s.play(s.parse_move("challenge c6 orange"))
    view = SPEC.view(s)
    assert view.panel.note == "right: c6 orange" and view.cells[sq("c6")].text == "ora"
    assert "correct: cap the nest on c6 with orange" in view.explanation
    assert "xeno stash: cyan 2, magenta 3, orange 1, purple 3" in view.explanation
    assert [r.value for r in view.panel.rows] == ["3 nests", "3 nests"]


def test_leds_show_nests_markers_and_the_goal_rows():
    s = started()
    leds = SPEC.leds(s)
    assert leds[sq("c2")] != leds[sq("c6")] and leds[sq("c2")] != (0, 0, 0)
    assert leds[sq("b1")] == leds[sq("c7")] != leds[sq("a1")] != (0, 0, 0)
    assert leds[sq("c4")] == (0, 0, 0)


def test_hints_for_each_step_and_the_winning_line():
    s = started()
    hint = SPEC.hint(s, 0)
    assert set(hint.cells) == {sq("b2"), sq("c2"), sq("d2")} and hint.text.startswith("can move")
    assert SPEC.hint(s, 1).cells == (sq("c7"), sq("d7"))  # Rainbow aims at Xeno's base
    s = s.play(s.parse_move("c2-c3"))
    assert set(SPEC.hint(s, 0).cells) == {sq("b6"), sq("c6"), sq("d6")}  # in sight
    won = arranged({"c4": (R, "red", "blue"), "a3": (X, "cyan", "purple")}, markers=(3, 3))
    won = won.play(won.parse_move("c4-c5"))
    assert SPEC.highlight(won) == (sq("c5"), sq("d6"), sq("e7"))
    assert SPEC.view(won).panel.note == "RAINBOW wins"
    assert won.outcome().reason == "c5 sees e7"


# --------------------------------------------------------------------------- input


def test_presses_select_a_nest_then_its_square():
    inp, s = LatentInput("switch"), started()
    assert isinstance(inp.press(s, sq("c6")), Refuse)  # not Rainbow's
    pending = inp.press(s, sq("c2"))
    assert isinstance(pending, Pending) and set(pending.cells) == {sq("c2"), sq("c3")}
    assert inp.press(s, sq("c3")) == Play(Step(sq("c2"), sq("c3")))
    assert inp.press(s, sq("b2")).text == "b2: where to?"  # another nest: a new choice
    assert inp.press(s, sq("b2")).cells == ()  # pressed again: let go
    assert isinstance(inp.press(s, sq("b3")), Refuse)
    assert isinstance(inp.press(new_game(), sq("c2")), Refuse)  # setups are made on pages


def test_presses_in_the_challenge_and_marker_steps():
    inp, s = LatentInput("switch"), started()
    s = s.play(s.parse_move("c2-c3"))
    assert inp.press(s, sq("c6")).text == "c6: guess on your page"
    assert isinstance(inp.press(s, sq("a6")), Refuse)
    assert inp.button(s, "confirm") is None  # no guess yet: no ending
    s = s.play(s.parse_move("challenge c6 purple"))
    assert s.phase == MARKER
    assert inp.press(s, sq("b1")) == Play(Marker(sq("b1"), sq("d1")))
    assert isinstance(inp.press(s, sq("a1")), Refuse)
    later = arranged({"c3": (R, "red", "blue"), "c5": (X, "cyan", "orange")}, phase=CHALLENGE)
    later = later.play(later.parse_move("challenge c5 cyan"))
    assert later.phase == CHALLENGE
    assert inp.button(later, "confirm") == Play(END)


def test_a_presence_board_moves_nests_and_markers():
    inp, s = LatentInput("presence"), started()
    expected = inp.expected(s)
    assert [i for i, v in enumerate(expected) if v == "1"] == sorted(
        [sq(n) for n in ("b1", "c1", "b2", "c2", "d2", "b6", "c6", "d6", "c7", "d7")]
    )
    assert inp.board(s, expected) is None
    lifted = list(expected)
    lifted[sq("c2")] = "0"
    assert isinstance(inp.board(s, lifted), Pending)  # lifted, maybe to peek
    moved = list(lifted)
    moved[sq("c3")] = "1"
    assert inp.board(s, moved) == Play(Step(sq("c2"), sq("c3")))
    s = s.play(Step(sq("c2"), sq("c3"))).play(s.parse_move("challenge c6 purple"))
    readings = inp.expected(s)
    readings[sq("b1")], readings[sq("d1")] = "0", "1"
    assert inp.board(s, readings) == Play(Marker(sq("b1"), sq("d1")))
    extra = inp.expected(s)
    extra[sq("a4")] = "1"
    assert inp.board(s, extra).hint == "take off a4"
    assert inp.expected(s) == inp.expected(s) and LatentInput("switch").expected(s) == ["0"] * 35


# --------------------------------------------------------------------------- a whole game


def test_a_game_through_a_session_keeps_setups_secret_until_the_end():
    session = Session("latent-binaries")
    for name in SETUPS[R][:1] + SETUPS[X] + SETUPS[R][1:]:
        player = R if name.split()[1][1] == "2" else X
        assert session.submit_name(name, player).accepted
    assert session.moves_seen_by(None)[:2] == ["setup b2", "setup b6"]
    assert session.moves_seen_by(X)[0] == "setup b2" and session.moves_seen_by(R)[0] == SETUPS[R][0]
    assert session.played[0].player == R and session.played[1].player == X
    assert not session.submit_name("setup c2 red/blue", X).accepted  # not Xeno's nest
    inp = SPEC.interpreter("switch")
    inp.press(session.state, sq("c2"))  # Rainbow's first move, pressed on the board
    action = inp.press(session.state, sq("c3"))
    assert session.submit(action.move, action.player).accepted
    for name in ("challenge c6 purple", "marker b1-d1", "b6-a6", "challenge c3 green",
                 "marker c7-e7", "c3-c4", "challenge c6 orange", "order c6 orange/purple",
                 "marker e7-c7", "a6-a5", "challenge d2 red", "end", "marker c1-e1"):  # fmt: skip
        result = session.submit_name(name)
        assert result.accepted, (name, result.refusal)
    assert session.state.nest_at(sq("c6")) is None
    assert "setup b2" in session.moves_seen_by(None)
    won = session.submit_name("c4-c5")  # c5 sees c7 up the file: Xeno's base c7-d7
    assert won.accepted and session.state.is_over()
    assert session.outcome().winner == R and session.moves_seen_by(None)[0] == SETUPS[R][0]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_view_but_the_owners_shows_a_hidden_pawn(seed):
    rng = random.Random(seed)
    for state, _ in random_game(seed, {"nests": 3}):
        if state.is_over():
            break
        assert SPEC.view(state) == SPEC.view(scrambled(state, rng))
        other = scrambled(state, rng)
        assert all(SPEC.hint(state, k) == SPEC.hint(other, k) for k in range(4))
        for p in (R, X):
            other_secrets = scrambled(state, rng, X if p == R else R)
            assert SPEC.view(state, p) == SPEC.view(other_secrets, p)


def test_a_bad_viewer_is_refused():
    with pytest.raises(ValueError):
        SPEC.view(started(), "blue")
    assert started().phase == MOVE and new_game().phase == SETUP


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_views_cover_the_layout(seed):
    cells = SPEC.layout({}).cells
    for state, _ in random_game(seed, {"nests": 3}):
        for viewer in (None, R, X):
            view = SPEC.view(state, viewer)
            assert len(view.cells) == len(view.leds) == cells
            assert len(view.panel.note) <= 21 and len(view.panel.rows) == 2
            for move, _label in view.actions:
                assert state.check(state.parse_move(move), viewer) is None
        hint = SPEC.hint(state, 0)
        assert len(hint.text) <= 21 and all(0 <= c < cells for c in hint.cells)


def test_the_spec_answers_the_legal_command():
    text = "gg...\n..X..\n.....\n..R..\n.....\n.....\n...gg\n"
    assert SPEC.positions().legal(text, R) == {
        "moves": ["c4-c3", "c4-b4", "c4-d4", "c4-c5"],
        "winning": ["c4-b4", "c4-d4", "c4-c5"],
    }
    with pytest.raises(ValueError, match="expected 7 ranks"):
        SPEC.positions().legal("R....\n", R)
    with pytest.raises(ValueError, match="mover must be rainbow or xeno"):
        SPEC.positions().legal(text, "on")


@pytest.mark.parametrize("seed", range(4))
def test_the_protocol_contract(seed):
    contract.test_random_games_keep_the_contract("latent-binaries", seed)


def test_the_contract_on_secrets_and_sensors():
    contract.test_no_secret_on_the_table_or_another_players_page("latent-binaries")
    contract.test_interpreters_read_every_cell("latent-binaries")
