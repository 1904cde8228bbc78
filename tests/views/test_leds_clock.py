"""The LEDs warn when the player on move has under 10 s: the board's edge pulses with the
clock's own time (no timer of its own), and no square ever loses its colour."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games import get_spec
from companion.views.leds import OFF, WARN, clock_warning, edge, warning_lit
from companion.views.presenter import Frame, Notices
from tests.views.test_oled_clock import face, table

SPEC = get_spec("binaryon")
N = 8


def frame_at(times, running="on", paused=False, notices=None):
    st_ = SPEC.new()
    f = face("0:30+0", st_.players, running, times, paused=paused)
    return Frame(table(SPEC, st_, f), notices or Notices()).leds


def test_enough_time_changes_nothing():
    st_ = SPEC.new()
    plain = Frame(table(SPEC, st_, None), Notices()).leds
    assert frame_at((10.0, 3.0)) == plain  # the other player's low time is not a warning
    assert frame_at((0.0, 30.0)) == plain  # a fallen flag: the game says so, not the edge


def test_under_ten_seconds_the_edge_pulses_and_the_inside_stays():
    st_ = SPEC.new()
    plain = Frame(table(SPEC, st_, None), Notices()).leds
    lit, dark = frame_at((9.7, 30.0)), frame_at((9.2, 30.0))
    assert lit != dark  # half a second later the edge has changed
    inside = [sq for sq in range(N * N) if sq not in edge(N)]
    assert all(lit[sq] == dark[sq] == plain[sq] for sq in inside)
    for sq in edge(N):
        if plain[sq] == OFF:
            assert lit[sq] == WARN and dark[sq] == OFF
        else:  # a lit square keeps its colour, dimmed in the dark half
            assert lit[sq] == plain[sq] and dark[sq] != plain[sq] and dark[sq] != OFF


def test_a_paused_clock_keeps_the_warning_lit_and_steady():
    assert frame_at((9.7, 30.0), paused=True) == frame_at((9.2, 30.0), paused=True)
    assert frame_at((9.2, 30.0), paused=True) != frame_at((20.0, 30.0), paused=True)


def test_the_marks_stay_on_top_of_the_warning():
    corner = 0  # a1, on the edge: something lies there that should not (it blinks red)
    marked = frame_at((9.2, 30.0), notices=Notices(strays=(corner,)))
    assert marked[corner] == (200, 0, 0)


def test_warning_halves_follow_the_time():
    assert [warning_lit(t, True) for t in (12.0, 9.9, 9.4, 8.9, 0.3, 0.0)] == [
        None,
        True,
        False,
        True,
        False,
        None,
    ]


rgb = st.tuples(*[st.integers(0, 255)] * 3)


@given(st.lists(rgb, min_size=N * N, max_size=N * N), st.booleans())
def test_no_square_ever_loses_its_colour(base, lit):
    out = clock_warning(base, N, lit)
    for before, after in zip(base, out, strict=True):
        if before != OFF:  # each lit channel stays lit, each dark one dark: the same hue
            assert [c > 0 for c in after] == [c > 0 for c in before]
            assert all(a <= b for a, b in zip(after, before, strict=True))
