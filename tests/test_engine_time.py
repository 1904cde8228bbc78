"""The engine manages its own time on a game clock (companion/engines/time_budget.py): its
budget comes from its time left and the control, and it never flags while it has the time to
move. Games are played on the real ``Clock`` with a fake time."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.engines.time_budget import (
    GLANCE,
    MAKE_MOVE,
    MOST,
    MOVES_EXPECTED,
    SAFETY,
    think_seconds,
)
from companion.referee.clock import Clock, TimeControl

controls = st.sampled_from(["0:12+2", "0:30+0", "1:00+3", "5:00", "5:00d2", "0:20d5", "1:00h"])


@given(controls, st.floats(0, 4000, allow_nan=False))
def test_it_never_thinks_into_the_time_the_move_needs(text, left):
    control = TimeControl.parse(text)
    think = think_seconds(control, left)
    assert GLANCE <= think <= MOST
    free = control.extra if control.kind == "bronstein" else 0.0
    if left - MAKE_MOVE - SAFETY + free >= GLANCE:  # it has the time to move: it keeps it
        assert think <= left - MAKE_MOVE - SAFETY + free


def test_the_budget_follows_the_clock():
    sudden = TimeControl.parse("5:00")
    assert think_seconds(sudden, 300) > think_seconds(sudden, 60) > think_seconds(sudden, 10)
    later = (MOVES_EXPECTED - 1) * MAKE_MOVE  # its moves to come each need to be made
    assert think_seconds(sudden, 300) == (300 - MAKE_MOVE - SAFETY - later) / MOVES_EXPECTED
    # an increment is mostly spent on the move it comes with
    assert think_seconds(TimeControl.parse("5:00+10"), 300) > think_seconds(sudden, 300) + 5
    assert think_seconds(TimeControl.parse("90:00"), 5400) == MOST
    assert think_seconds(sudden, 1.0) == GLANCE  # nothing to spare: a glance


def play(control: TimeControl, human: list[float], moves: int) -> tuple[Clock, list[float]]:
    """``moves`` turns each of a person (taking ``human`` seconds in turn) and the engine
    (thinking its whole budget, then a person takes MAKE_MOVE to make its move), on the real
    clock with a fake time; returns the clock and the engine's thinking times."""
    clock = Clock(control, ("person", "engine"))
    now = 0.0
    clock.run("person", now)
    thought = []
    for k in range(moves):
        now += human[k % len(human)]
        if clock.flagged(now):
            break
        clock.switch("engine", now)
        think = think_seconds(control, clock.left("engine", now))
        thought.append(think)
        now += think + MAKE_MOVE
        assert clock.flagged(now) is None, f"the engine flagged at its move {k + 1}"
        clock.switch("person", now)
    return clock, thought


@given(
    st.sampled_from(["0:12+3", "1:00+3", "3:00d3", "0:30+5"]),
    st.lists(st.floats(0.1, 20), min_size=1, max_size=5),
)
def test_with_an_increment_it_never_flags(text, human):
    play(TimeControl.parse(text), human, 200)


@given(
    st.sampled_from(["5:00", "3:00", "2:00h", "10:00"]),
    st.lists(st.floats(0.1, 20), min_size=1, max_size=5),
)
def test_in_sudden_death_it_lasts_a_long_game(text, human):
    """Forty moves (a long game on these boards) with a person making each of its moves in
    two seconds, on three minutes or more."""
    _, thought = play(TimeControl.parse(text), human, 40)
    assert thought == sorted(thought, reverse=True) or "h" in text  # it speeds up
