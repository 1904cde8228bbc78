"""The pure game clock: time controls, their arithmetic, pauses, and snapshots that restore
exactly (companion/timing/clock.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.timing.clock import (
    BRONSTEIN,
    FISCHER,
    HOURGLASS,
    SUDDEN_DEATH,
    Clock,
    TimeControl,
    clock_text,
)


@pytest.mark.parametrize(
    "text, kind, base, extra",
    [
        ("5:00+3", FISCHER, 300, 3),
        ("0:30+0", SUDDEN_DEATH, 30, 0),
        ("0:30", SUDDEN_DEATH, 30, 0),
        ("5:00d2", BRONSTEIN, 300, 2),
        ("1:00h", HOURGLASS, 60, 0),
        ("15", SUDDEN_DEATH, 900, 0),
        ("1:30:00+30", FISCHER, 5400, 30),
        (" 0:12+2 ", FISCHER, 12, 2),
    ],
)
def test_time_controls_are_read_as_typed(text, kind, base, extra):
    control = TimeControl.parse(text)
    assert (control.kind, control.base, control.extra) == (kind, base, extra)
    assert TimeControl.parse(control.text()) == control
    assert TimeControl.from_pgn(control.pgn()) == control


@pytest.mark.parametrize(
    "text, says",
    [
        ("5:60+3", "seconds go from 00 to 59"),
        ("0:00+3", "needs some time"),
        ("5:00+", "not a time control"),
        ("five", "not a time control"),
        ("5:00+3d2", "not a time control"),
        ("11:00:00", "at most 10 hours"),
        ("5:00+700", "at most 10 minutes"),
        ("1:75:00", "minutes go from 00 to 59"),
    ],
)
def test_a_bad_time_control_is_one_line_saying_why(text, says):
    with pytest.raises(ValueError) as e:
        TimeControl.parse(text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_controls_in_words_and_in_pgn():
    assert TimeControl.parse("5:00+3").describe() == "5 min + 3 s a move"
    assert TimeControl.parse("5:00d2").describe() == "5 min, 2 s delay a move"
    assert TimeControl.parse("0:30").describe() == "30 s sudden death"
    assert TimeControl.parse("1:00h").pgn() == "*60"
    assert TimeControl.parse("5:00+3").pgn() == "300+3"
    with pytest.raises(ValueError):
        TimeControl.from_pgn("40/9000")


@pytest.mark.parametrize(
    "seconds, shown",
    [(3723, "1:02:03"), (299.2, "5:00"), (60, "1:00"), (9.41, "9.5"), (0.01, "0.1"), (-3, "0.0")],
)
def test_times_read_as_a_clock_shows_them(seconds, shown):
    assert clock_text(seconds) == shown


def test_sudden_death_runs_down_and_the_flag_falls_at_zero():
    clock = Clock(TimeControl.parse("0:30"), ["black", "white"])
    clock.run("black", 100.0)
    assert clock.left("black", 110.0) == 20.0 and clock.left("white", 110.0) == 30.0
    assert clock.due(110.0) == 20.0
    assert clock.flagged(129.9) is None and clock.flagged(130.0) == "black"
    clock.switch("white", 112.0)
    assert clock.times(120.0) == {"black": 18.0, "white": 22.0}


def test_fischer_adds_the_increment_after_each_completed_turn():
    clock = Clock(TimeControl.parse("0:12+2"), ["black", "white"])
    clock.run("black", 0.0)
    clock.switch("white", 5.0)
    assert clock.left("black", 5.0) == 9.0  # 12 - 5 + 2
    clock.switch("black", 6.0)
    assert clock.left("white", 6.0) == 13.0  # 12 - 1 + 2: more than the start


def test_no_increment_once_the_flag_has_fallen():
    clock = Clock(TimeControl.parse("0:12+2"), ["black", "white"])
    clock.run("black", 0.0)
    clock.switch("white", 13.0)
    assert clock.left("black", 13.0) == -1.0


def test_bronstein_gives_back_what_was_used_up_to_the_delay():
    clock = Clock(TimeControl.parse("1:00d5"), ["black", "white"])
    clock.run("black", 0.0)
    assert clock.left("black", 3.0) == 60.0  # inside the delay: the time stands
    assert clock.left("black", 8.0) == 57.0
    clock.switch("white", 3.0)
    assert clock.left("black", 3.0) == 60.0  # a quick move costs nothing, gains nothing
    assert clock.due(3.0) == 60.0


def test_the_hourglass_gives_the_opponent_what_the_mover_uses():
    clock = Clock(TimeControl.parse("1:00h"), ["black", "white"])
    clock.run("black", 0.0)
    assert clock.times(10.0) == {"black": 50.0, "white": 70.0}
    clock.switch("white", 10.0)
    assert clock.times(14.0) == {"black": 54.0, "white": 66.0}
    with pytest.raises(ValueError, match="two players"):
        Clock(TimeControl.parse("1:00h"), ["a", "b", "c"])


def test_a_pause_freezes_the_running_turn_and_keeps_what_it_used():
    clock = Clock(TimeControl.parse("1:00d5"), ["black", "white"])
    clock.run("black", 0.0)
    clock.pause(4.0)
    assert clock.due(100.0) is None and clock.left("black", 100.0) == 60.0
    clock.resume(100.0)
    assert clock.left("black", 102.0) == 59.0  # 4 + 2 used, 5 of them free


def test_added_time_is_given_to_the_player_named():
    clock = Clock(TimeControl.parse("5:00"), ["black", "white"])
    clock.add("white", 30)
    clock.add("black", -10)
    assert clock.times(0.0) == {"black": 290.0, "white": 330.0}
    with pytest.raises(ValueError):
        clock.add("red", 1)


controls = st.sampled_from(["0:30", "1:00+3", "1:00d4", "0:45h"]).map(TimeControl.parse)
steps = st.lists(
    st.tuples(st.sampled_from(["switch", "pause", "resume", "add"]), st.floats(0, 20)),
    max_size=30,
)


def play(control, script):
    clock = Clock(control, ["black", "white"])
    now = 0.0
    clock.run("black", now)
    for action, seconds in script:
        now += seconds
        if action == "switch":
            clock.switch("white" if clock.running == "black" else "black", now)
        elif action == "pause":
            clock.pause(now)
        elif action == "resume":
            clock.resume(now)
        else:
            clock.add("white", 1.0)
    return clock, now


@given(controls, steps, st.floats(0, 50), st.floats(0, 10**6))
def test_a_snapshot_restores_the_times_exactly_whenever_it_is_restored(
    control, script, later, elsewhere
):
    clock, now = play(control, script)
    saved = clock.snapshot(now)
    back = Clock.restore(saved, elsewhere)  # another boot: the monotonic clock starts anew
    assert back.times(elsewhere) == pytest.approx(clock.times(now), abs=1e-2)
    assert (back.running, back.paused) == (clock.running, clock.paused)
    # and it goes on as the original would have
    assert back.times(elsewhere + later) == pytest.approx(clock.times(now + later), abs=1e-2)


@given(controls, steps)
def test_time_is_never_created_by_switching(control, script):
    """What both players have together is what they started with, minus what was used,
    plus only the increments, the delays given back and the time added."""
    clock, now = play(control, script)
    total = sum(clock.times(now).values())
    added = sum(1.0 for action, _ in script if action == "add")
    switches = sum(1 for action, _ in script if action == "switch")
    extra = control.extra * switches if control.kind in (FISCHER, BRONSTEIN) else 0.0
    assert total <= 2 * control.base + added + extra + 1e-6
    if control.kind == HOURGLASS:
        assert total == pytest.approx(2 * control.base + added)


@given(controls, steps, st.floats(0, 100))
def test_a_paused_clock_stands_still(control, script, wait):
    clock, now = play(control, script)
    clock.pause(now)
    assert clock.times(now + wait) == clock.times(now)
    assert clock.due(now + wait) is None


@pytest.mark.parametrize(
    "damage",
    [
        {"control": "soon"},
        {"left": "nothing"},
        {"running": "red"},
        {"used": float("nan")},
        {"used": -4},
    ],
)
def test_a_damaged_snapshot_is_refused_in_one_line(damage):
    clock = Clock(TimeControl.parse("5:00+3"), ["black", "white"])
    clock.run("black", 0.0)
    saved = {**clock.snapshot(1.0), **damage}
    with pytest.raises(ValueError, match="damaged clock snapshot"):
        Clock.restore(saved, 0.0)


def test_after_a_crash_the_clock_waits_paused_with_the_time_used_charged():
    clock = Clock(TimeControl.parse("0:12+2"), ["black", "white"])
    clock.run("black", 50.0)
    saved = clock.snapshot(57.0)  # the last write before the power went
    back = Clock.restore(saved, 9000.0, paused=True)
    assert back.paused and back.left("black", 9100.0) == 5.0
    back.resume(9100.0)
    assert back.left("black", 9101.0) == 4.0


@given(controls, steps, st.floats(0, 30), st.booleans())
def test_a_face_ticks_on_exactly_as_the_clock_would(control, script, later, pause):
    clock, now = play(control, script)
    if pause:
        clock.pause(now)
    face = clock.face(now)
    for player in clock.players:
        assert face.time_of(player, now + later) == pytest.approx(
            clock.left(player, now + later), abs=1e-6
        )
    assert face.flagged(now + later) == clock.flagged(now + later)


def test_the_pages_are_given_times_with_the_servers_own_timestamp():
    clock = Clock(TimeControl.parse("1:00d5"), ["black", "white"])
    clock.run("white", 10.0)
    api = clock.face(12.0).api(1_700_000_000.25)
    assert api == {
        "black": 60.0,
        "white": 60.0,
        "running": "white",
        "paused": False,
        "free": 3.0,
        "control": "1:00d5",
        "as_of": 1_700_000_000.25,
    }
