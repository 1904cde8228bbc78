"""Games played through the whole path: simulated matrix -> firmware -> pty -> SerialBoard ->
daemon. In every fault case the game loses nothing and ends in the state the presses imply."""

import random

import pytest

from companion.core.config import Config
from companion.games import get_spec
from companion.games.binaryon.engine import PASS
from companion.hardware.serial_board import SerialBoard
from companion.hardware.simulated.pico_sim import SimulatedPico
from companion.service.daemon import Daemon
from tests.conftest import wait_until

new_game = get_spec("binaryon").new


class Table:
    """A daemon on a SerialBoard on a SimulatedPico, plus the game the presses should give."""

    def __init__(self, size=8, seed=1):
        cfg = Config.default()
        if size != 8:
            cfg = cfg.with_overrides(board={"size": size}, rules={"binaryon": {"size": size}})
        self.size = size
        self.pico = SimulatedPico(size=size)
        self.board = SerialBoard(self.pico.port, size=size)
        self.d = Daemon(cfg, board=self.board)
        self.d.start()
        wait_until(lambda: self.board.connected and self.board.stats["snapshots"] >= 1)
        self.rng = random.Random(seed)
        self.expected = new_game(size=size)
        self.names: list[str] = []

    def accept(self, square):
        """What the rules make of a press: the move (plus any passes that follow)."""
        state = self.expected
        if state.is_over() or square not in state.legal_moves():
            return
        self.names.append(square.name)
        state = state.play(square)
        while not state.is_over() and state.legal_moves() == [PASS]:
            self.names.append(PASS.name)
            state = state.play(PASS)
        self.expected = state

    def legal(self):
        return [m for m in self.expected.legal_moves() if m is not PASS]

    def press(self, square=None, **tap):
        square = self.rng.choice(self.legal()) if square is None else square
        self.accept(square)
        self.pico.tap(square.cell, **tap)
        self.wait_moves()
        return square

    def wait_moves(self):
        wait_until(lambda: self.d.session.moves == self.names, what=f"moves {self.names}")

    def check(self):
        self.pico.wait_quiet()
        self.d.wait_idle(5)
        assert self.d.session.moves == self.names
        assert self.d.session.state.ply == self.expected.ply

    def close(self):
        self.d.stop()
        self.pico.close()
        assert self.pico.crashed is None


@pytest.fixture
def table():
    made = []

    def make(**kw):
        t = Table(**kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def test_a_whole_game_is_played_through_the_serial_link(table):
    t = table(size=6, seed=5)
    presses = 0
    while not t.expected.is_over():
        t.press()
        presses += 1
        assert presses < 100
    t.check()
    assert t.d.session.state.is_over()
    assert t.d.message == t.d.session.state.outcome().summary
    wait_until(lambda: t.pico.leds == tuple(t.d.leds.frame), what="LEDs to match")


def test_bouncing_presses_count_once(table):
    t = table()
    for _ in range(4):
        t.press(bounces=5)
    t.check()


def test_a_key_held_down_is_one_move(table):
    t = table()
    t.press()
    square = t.rng.choice(t.legal())
    t.accept(square)
    t.pico.press(square.cell)
    t.wait_moves()
    snaps = t.board.stats["snapshots"]
    wait_until(lambda: t.board.stats["snapshots"] >= snaps + 2, what="two snapshots")
    t.pico.release(square.cell)
    t.press()
    t.check()


def test_garbage_and_truncated_lines_lose_nothing(table):
    t = table()
    t.press()
    t.pico.inject_raw(b"\x00\xff garbage \x1b[0m\n01 EV 3 1*12\n02 EV 4 1")
    t.press()
    t.pico.inject_raw(b"\n\r\n\x03\x03")
    t.press()
    t.check()
    assert t.board.stats["bad_lines"] >= 2


@pytest.mark.parametrize("damage", ["drop", "corrupt"])
def test_a_lost_or_corrupted_line_loses_no_move(table, damage):
    t = table()
    t.press()
    if damage == "drop":
        t.pico.drop_next_line(b" EV ")
    else:
        t.pico.corrupt_next_line(b" EV ")
    t.press()
    t.press()
    t.check()
    assert t.board.stats["gaps"] >= 1


def test_unplug_and_replug_mid_game(table):
    t = table()
    t.press()
    t.press()
    t.pico.unplug()
    wait_until(lambda: t.d.status == "board disconnected", timeout=2.0, what="disconnected")
    t.pico.replug()
    wait_until(lambda: t.d.status == "" and t.board.connected, what="reconnected")
    wait_until(lambda: t.pico.leds == tuple(t.d.leds.frame), what="LEDs sent again")
    t.press()
    t.check()


def test_firmware_reset_mid_game(table):
    t = table()
    t.press()
    t.pico.reset()
    wait_until(lambda: t.board.stats["board_restarts"] == 1, what="restart noticed")
    wait_until(lambda: t.pico.leds == tuple(t.d.leds.frame), what="LEDs sent again")
    t.press()
    t.press()
    t.check()


def test_two_keys_pressed_at_once(table):
    t = table()
    t.press()
    first = None
    for a in t.legal():  # a legal now, b legal after it; the firmware reports a first (a < b)
        after = t.expected.play(a)
        later = [b for b in after.legal_moves() if b is not PASS and b > a]
        if later:
            first, second = a, later[0]
            break
    assert first is not None
    t.accept(first)
    t.accept(second)
    t.pico.press_many([first.cell, second.cell])
    t.wait_moves()
    t.pico.release(first.cell)
    t.pico.release(second.cell)
    t.press()
    t.check()


def test_colour_board_replugged_with_a_disc_turned_shows_it_until_fixed():
    """Hall board over the serial link: a disc turned while the cable was out is shown as
    differing after the resync, and play goes on once it is turned back."""
    pico = SimulatedPico(size=8, kind="polarity")
    for square, colour in enumerate(new_game().cells()):
        pico.set_reading(square, colour)
    board = SerialBoard(pico.port, size=8)
    d = Daemon(Config.default().with_overrides(board={"settle_ms": 100}), board=board)
    d.start()
    try:
        wait_until(lambda: d.board_synced, what="board to match the game")
        pico.set_reading(36, "o")  # ON turns e5
        wait_until(lambda: d.session.moves == ["e5"], what="e5")
        pico.unplug()
        wait_until(lambda: d.status == "board disconnected", timeout=2.0, what="disconnected")
        pico.set_reading(0, "x")  # bumped while the board was away: a1 now black
        pico.replug()
        wait_until(lambda: d.marks().differ == (0,), what="a1 shown as differing")
        assert d.message == "fix a1" and d.session.moves == ["e5"]
        pico.set_reading(0, "o")
        wait_until(lambda: d.marks().differ == () and d.board_synced, what="board to match again")
        pico.set_reading(27, "x")  # OFF turns d4
        wait_until(lambda: d.session.moves == ["e5", "d4"], what="d4")
    finally:
        d.stop()
        pico.close()
