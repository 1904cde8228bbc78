"""Binary through the daemon: the second game slots in with no change to daemon or drivers."""

import random

import pytest

from companion.core.events import ButtonEvent
from companion.games.binary.spec import TERRITORY_RGB
from tests.conftest import step


def play_random_game(d, clock, kind, rng):
    """Place legal pieces through the board as a person would, until the game ends."""
    spec = d.session.spec
    for _ in range(200):
        state = d.session.state
        if state.is_over():
            return
        placements = [m for m in state.legal_moves() if m.cells]
        if not placements or (
            state.legal_moves()
            and rng.random() < 0.3
            and "END" in [str(m).upper() for m in state.legal_moves()]
        ):
            d.post(ButtonEvent("confirm"))
            step(d, clock)
            continue
        move = rng.choice(placements)
        (sq,) = move.cells
        if kind == "switch":
            d.board.tap(sq)
            step(d, clock, 0.03)
        else:
            value = spec.interpreter(kind).expected(state.play(move))[sq]
            d.board.set_reading(sq, value)
            step(d, clock, 0.31)
        assert not d.marks().differ, d.message
    raise AssertionError("game did not end")


@pytest.mark.parametrize("kind", ["switch", "presence", "polarity"])
def test_full_binary_game_on_each_sensor_kind(make_daemon, clock, kind):
    d = make_daemon(kind=kind, game="binary")
    step(d, clock, 0.31)
    play_random_game(d, clock, kind, random.Random(3))
    state = d.session.state
    assert state.is_over()
    outcome = state.outcome()
    assert d.message == outcome.summary
    # replaying the accepted move names gives the same final position: nothing lost or doubled
    replay = d.session.spec.replay(d.session.moves, **d.session.options)
    assert replay.cells == state.cells


def test_lifted_piece_is_shown_until_put_back(make_daemon, clock):
    d = make_daemon(kind="presence", game="binary")
    step(d, clock, 0.31)
    for square in (18, 1, 3):  # black c3 (dark, off the centre); white b1 and d1
        d.board.set_reading(square, "1")
        step(d, clock, 0.31)
    assert d.session.moves == ["c3", "b1", "d1"]
    d.board.set_reading(18, "0")  # someone lifts c3: a position the game never had
    step(d, clock, 0.31)
    assert d.marks().differ == (18,) and "c3" in d.message
    assert d.session.moves == ["c3", "b1", "d1"]
    d.board.set_reading(18, "1")
    step(d, clock, 0.31)
    assert d.marks().differ == ()


def test_lifting_the_last_pieces_takes_the_turn_back(make_daemon, clock):
    d = make_daemon(kind="presence", game="binary")
    step(d, clock, 0.31)
    for square in (18, 1, 3):
        d.board.set_reading(square, "1")
        step(d, clock, 0.31)
    d.board.set_reading(3, "0")  # the board now shows the position after c3 b1
    step(d, clock, 0.31)
    assert d.session.moves == ["c3", "b1"] and d.message == "took back d1"


def test_menu_lights_each_players_territories_in_their_colour(make_daemon, clock):
    d = make_daemon(game="binary")
    for name in ("c3", "b1", "d1", "a1"):  # black c3; white b1 d1; black a1 ...
        d.board.tap(d.session.state.parse_move(name).cell)
        step(d, clock, 0.03)
    d.post(ButtonEvent("menu"))
    step(d, clock)
    mover = d.session.state.turn
    lit = [i for i, c in enumerate(d.leds.frame) if c == TERRITORY_RGB[mover]]
    assert set(lit) == set(d.marks().hint)
    d.post(ButtonEvent("menu"))
    step(d, clock)
    other = "white" if mover == "black" else "black"
    assert all(d.leds.frame[i] == TERRITORY_RGB[other] for i in d.marks().hint)


def test_a_board_error_blinks_and_stays_until_fixed(make_daemon, clock):
    d = make_daemon(kind="presence", game="binary")
    step(d, clock, 0.31)
    for square in (18, 1, 3):
        d.board.set_reading(square, "1")
        step(d, clock, 0.31)
    d.board.set_reading(18, "0")
    step(d, clock, 0.31)
    hint = d.message
    frames = set()
    for _ in range(4):
        step(d, clock, 0.5)
        frames.add(d.leds.frame[18])
    assert len(frames) == 2  # blinking
    step(d, clock, 30)
    assert d.message == hint and d.marks().differ == (18,)  # still shown: the board is still wrong
    d.board.set_reading(18, "1")
    step(d, clock, 0.31)
    assert d.marks().differ == () and d.message == ""
