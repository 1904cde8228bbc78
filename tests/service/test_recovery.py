"""Hold confirm (companion/service/recovery.py): the OLED names the way out of each waiting
state (a game to start, half a turn entered, a paused clock, a remote board that never
answers), and on a sensor board that differs the LEDs show the game's position alone for
one message's time.
"""

from __future__ import annotations

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from tests.conftest import FakeClock, step
from tests.service.test_clock import button, clocked_daemon, press_move


def hold_confirm(d, clock) -> str:
    d.post(ButtonEvent("confirm", True))
    step(d, clock)
    return d.message


def game_leds(d) -> list:
    """The game's own colours on every square: where each piece should be."""
    n = d.board.size
    base = [(0, 0, 0)] * (n * n)
    view = d.session.spec.view(d.session.state)
    for cell, rgb in zip(range(len(view.leds)), view.leds, strict=False):
        base[d.map.square(cell)] = rgb
    return base


def test_hold_confirm_shows_the_expected_position_on_the_leds_and_says_the_way_out(
    make_daemon, clock
):
    """A sensor board that differs: its squares blink red, hiding what belongs there. Hold
    confirm: for one message's time the LEDs show the game's position alone and the OLED
    says what to do; then the blinking and the board's hint come back."""
    d = make_daemon(kind="presence", game="binary")
    centre = d.map.square(d.session.state.parse_move("d4").cells[0])
    d.board.set_reading(centre, "1")  # the first piece may not go in the centre
    step(d, clock, 1)
    assert d.notices.differ and d.present().leds != game_leds(d)
    hint = d.message
    assert hold_confirm(d, clock) == "LEDs show the game: match it, or undo"
    assert d.present().leds == game_leds(d)
    step(d, clock, 10)  # the message's time
    assert d.message == hint and d.notices.differ and not d.notices.expected
    d.notices.blink_on = True
    assert d.present().leds != game_leds(d)  # blinking red again


def test_hold_confirm_names_the_way_out_of_each_waiting_state(make_daemon, clock):
    d = make_daemon(game="binary")
    assert hold_confirm(d, clock) == "BLACK to play: undo takes back, hold menu: new game"
    d.board.tap(d.map.square(d.session.state.parse_move("c3").cells[0]))  # Black's one piece
    step(d, clock, 0.1)
    d.board.tap(d.map.square(d.session.state.parse_move("c6").cells[0]))  # White's first
    step(d, clock, 0.1)
    assert d.turn_pending()
    assert hold_confirm(d, clock) == "half a turn entered: hold undo takes it back"
    d.post(ButtonEvent("undo", True))
    step(d, clock)
    assert not d.turn_pending() and d.session.moves == ["c3"]

    ticks = FakeClock()
    timed = clocked_daemon(ticks, "1:00")
    press_move(timed, ticks)
    button(timed, ticks, "confirm")  # paused
    assert hold_confirm(timed, ticks) == "clock paused: confirm resumes it"
    step(timed, ticks, 100)
    assert not timed.session.state.is_over()  # the flag waits as long as the clock does
    button(timed, ticks, "menu", long=True)  # the new-game menu, from anywhere
    button(timed, ticks, "confirm")
    assert timed.session.played == [] and timed.message.startswith("new game")


def test_hold_confirm_while_a_remote_board_never_answers(clock):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "opponent": "remote:t4"},
        club={"broker": "mqtt://127.0.0.1:1", "board": "t3"},
    )
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    d.board.tap(d.session.state.legal_moves()[0].cell)
    step(d, clock, 0.1)
    assert hold_confirm(d, clock) == "waiting for t4: hold menu for a new game"
    assert d.notices.expected
    button(d, clock, "menu", long=True)
    button(d, clock, "confirm")
    assert d.session.played == [] and d.message.startswith("new game")
