"""The engine manages its own time on a game clock (companion/engines/time_budget.py): its
budget comes from its time left and the control, and it never flags while it has the time to
move. Games are played on the real ``Clock`` with a fake time."""

from __future__ import annotations

import pytest
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
from companion.timing.clock import Clock, TimeControl

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


# ------------------------------------------------------------- the opponent on the daemon


def engine_daemon(clock, control: str | None, engine_left: float | None = None):
    """The daemon with the engine playing OFF on a 4x4 Binaryon; with ``control``, a game
    clock (the engine's time set to ``engine_left``); its search replaced by one that
    records the seconds it is given and answers at once with the first legal move."""
    from companion.engines.search import Result
    from companion.timing.clock import Clock
    from tests.service.test_opponent import make

    d = make(clock, opponent="engine:default")
    asked: list[float | None] = []

    def search(adapter, state, level, seconds, nodes=None):
        asked.append(seconds)
        move = state.legal_moves()[0]
        return Result(move, 0, [move], 1, 1)

    d.opponent.search.search = search
    if control is not None:
        s = d.session
        s.timer = lambda: 100.0  # time stands still: the budget is exactly the clock's
        s.time_control = TimeControl.parse(control)
        s.clock = Clock(s.time_control, s.state.players)
        if engine_left is not None:
            s.clock.add("off", engine_left - s.clock.control.base)
    return d, asked


def human_moves(d, clock) -> None:
    from tests.conftest import wait_until
    from tests.service.test_opponent import press

    press(d, clock, d.session.state.legal_moves()[0].name)
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip


@pytest.mark.parametrize(
    ("control", "left"), [(None, None), ("5:00+3", None), ("0:30", 20.0), ("0:30", 1.5)]
)
def test_the_engines_search_gets_its_budget_from_its_clock(clock, control, left):
    from companion.service.background_search import THINK_SECONDS

    d, asked = engine_daemon(clock, control, left)
    human_moves(d, clock)
    if control is None:
        assert asked == [THINK_SECONDS]  # as without a clock
        return
    tc = TimeControl.parse(control)
    assert asked == [think_seconds(tc, tc.base if left is None else left)]
    assert asked[0] != THINK_SECONDS
    if left is not None and left < MAKE_MOVE + SAFETY:
        assert asked == [GLANCE]
