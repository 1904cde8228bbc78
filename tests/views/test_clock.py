"""The game clock as the daemon draws it: the pages' clock is the same while the clock just
runs (they tick by themselves) and new at a switch, a pause or time added; under 10 s the
OLED shows tenths (drawn each tenth) and the LEDs' edge pulses, the journal still written
once a second."""

from __future__ import annotations

import time

import pytest

from companion.journal.store import SqliteJournal
from companion.timing.clock import clock_text
from companion.views.leds import WARN, edge
from tests.conftest import FakeClock, step
from tests.service.test_clock import button, clocked_daemon, press_move


def test_the_pages_clock_stays_the_same_while_the_clock_just_runs():
    clock = FakeClock()
    d = clocked_daemon(clock, "5:00+3")
    press_move(d, clock)  # OFF's time runs
    view = d.web_view()
    first = view["clock"]
    since = clock()
    assert first["running"] == "off" and first["as_of"] == pytest.approx(time.time(), abs=5)
    for _ in range(30):
        step(d, clock, 0.1)
    assert d.web_view()["clock"] is first  # three seconds on: nothing new to send
    assert d.web_view() == view  # the whole view: the pages are sent nothing
    # and what it says still tells the time, counted from when it was made
    assert first["off"] - (clock() - since) == pytest.approx(
        d.session.clock.left("off", clock()), abs=0.01
    )
    press_move(d, clock)  # a switch: a new clock
    second = d.web_view()["clock"]
    assert second is not first and second["running"] == "on"
    button(d, clock, "confirm")  # a pause: new again
    paused = d.web_view()["clock"]
    assert paused is not second and paused["paused"]
    step(d, clock, 5)
    assert d.web_view()["clock"] is paused
    button(d, clock, "undo", long=True)  # time added while paused
    assert d.web_view()["clock"]["on"] == pytest.approx(paused["on"] + 10)


def test_under_ten_seconds_tenths_are_drawn_and_the_edge_pulses(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "0:12+0", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    press_move(d, clock)  # OFF's 12 s run
    step(d, clock, 3.0)  # 9 s left
    ticks, screens, edges = [], [], []
    real = d.journal.clock_tick
    d.journal.clock_tick = lambda *a: ticks.append(clock()) or real(*a)
    corners = [sq for sq in edge(d.board.size)]
    for _ in range(20):  # two seconds
        step(d, clock, 0.1)
        screens.append(d.oled.last.clock.rows)
        edges.append(tuple(d.leds.frame[sq] for sq in corners))
    shown = [row[1] for row in screens]  # OFF's row
    assert len(set(shown)) >= 18  # a new tenth drawn nearly every step
    assert shown[-1] == clock_text(d.session.clock.left("off", clock()))
    assert all("." in t for t in shown)
    assert 2 <= len(ticks) <= 3  # still about once a second in the journal
    assert len(set(edges)) == 2 and any(WARN in e for e in edges)  # the edge pulses
