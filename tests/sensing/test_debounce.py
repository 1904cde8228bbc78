from companion.core.loop import EventLoop
from companion.sensing.debounce import BoardSettler, SwitchDebouncer
from tests.conftest import FakeClock


def make(debounce=0.02):
    clock = FakeClock()
    loop = EventLoop(lambda e: None, clock)
    changes = []
    deb = SwitchDebouncer(8, debounce, loop, lambda sq, v: changes.append((sq, v)))
    return clock, loop, deb, changes


def test_bouncing_press_counts_once_and_at_once():
    clock, loop, deb, changes = make()
    for i, v in enumerate("10101"):
        clock.advance(0.001 * (i > 0))
        deb.reading(12, v, clock())
    assert changes == [(12, "1")]  # reported on the first edge, no waiting
    clock.advance(0.05)
    loop.run_pending()
    assert changes == [(12, "1")]  # the bounce ended pressed: nothing more


def test_release_after_hold_is_reported_once():
    clock, loop, deb, changes = make()
    deb.reading(3, "1", clock())
    clock.advance(1.0)
    loop.run_pending()
    for v in "0101 0".replace(" ", ""):
        deb.reading(3, v, clock())
        clock.advance(0.002)
    clock.advance(0.05)
    loop.run_pending()
    assert changes == [(3, "1"), (3, "0")]


def test_glitch_shorter_than_lockout_never_sticks():
    clock, loop, deb, changes = make()
    deb.reading(5, "1", clock())
    clock.advance(0.005)
    deb.reading(5, "0", clock())  # ignored inside the lock-out...
    assert changes == [(5, "1")]
    clock.advance(0.02)
    loop.run_pending()  # ...but the recheck at its end reports the square released
    assert changes == [(5, "1"), (5, "0")]


def test_firmware_debounced_readings_pass_straight_through():
    clock, loop, deb, changes = make()
    deb.reading(1, "1", clock(), debounced=True)
    deb.reading(1, "0", clock(), debounced=True)
    assert changes == [(1, "1"), (1, "0")]


def test_settler_waits_for_a_still_board():
    clock = FakeClock()
    loop = EventLoop(lambda e: None, clock)
    settled = []
    s = BoardSettler(4, 0.3, loop, settled.append)
    s.snapshot(["0"] * 16)
    clock.advance(0.31)
    loop.run_pending()
    assert len(settled) == 1
    s.reading(2, "1")
    clock.advance(0.2)
    loop.run_pending()
    s.reading(2, "0")  # a hand hovering: on, then off again
    s.reading(7, "1")
    clock.advance(0.2)
    loop.run_pending()
    assert len(settled) == 1  # not still long enough yet
    clock.advance(0.11)
    loop.run_pending()
    assert len(settled) == 2 and settled[-1][7] == "1" and settled[-1][2] == "0"
