"""The game clock on the OLED, pixel for pixel (tests/golden/clock_*.png), in every game's
layout: two players' times on their rows, the time of the player on move alone in the title
line with more, paused in the corner, tenths under 10 s and 0.0 once a flag has fallen.
Regenerate with ``UPDATE_GOLDEN=1`` and look at them."""

from __future__ import annotations

from companion.games import get_spec
from companion.timing.clock import Clock, TimeControl
from companion.views.oled import screen_text
from companion.views.presenter import Frame, Notices, Table
from tests.conftest import FakeClock, step
from tests.games.binome.test_engine import FIVE
from tests.games.binome.test_oled import five_players_mid_roll
from tests.service.test_clock import clocked_daemon, press_move
from tests.views.test_oled_golden import check, shown


def table(spec, state, face, people=None) -> Table:
    return Table(spec, state, {}, None, 8, (), 1, people or {}, 0, face)


def face(control: str, players, running, times, paused=False):
    """A clock at monotonic time 100 with ``times`` left, ``running``'s turn begun then."""
    clock = Clock(TimeControl.parse(control), players)
    for p, t in zip(players, times, strict=True):
        clock.add(p, t - clock.control.base)
    clock.run(running, 100.0)
    if paused:
        clock.pause(100.0)
    return clock.face(100.0)


def test_two_players_times_sit_on_their_rows_the_running_one_marked():
    spec = get_spec("binaryon")
    st = spec.new()
    f = face("5:00+3", st.players, "on", (287.2, 300.0))
    screen = Frame(table(spec, st, f, {"on": "Ana", "off": "Bo"}), Notices()).screen
    image = shown(screen)
    check("clock_binaryon", image)
    lines = screen_text(screen)
    assert lines[1].endswith("*4:48") and "Ana ON" in lines[1]
    assert lines[2].endswith("5:00") and "*" not in lines[2]
    # the running arrow: lit pixels left of ON's time, none left of OFF's
    assert any(image.getpixel((128 - 1 - 6 * 4 - 5, y)) == 0 for y in range(15, 21))
    assert all(image.getpixel((128 - 1 - 6 * 4 - 5, y)) == 0 for y in range(25, 31))


def test_tenths_under_ten_seconds_and_a_fallen_flag_shows_zero():
    spec = get_spec("wythe")
    st = spec.new()
    f = face("0:30+0", st.players, st.turn, (-0.4, 9.44))
    screen = Frame(table(spec, st, f), Notices(message="black: time is up")).screen
    check("clock_wythe_flag", shown(screen))
    text = "\n".join(screen_text(screen))
    assert "*0.0" in text and "9.5" in text


def test_a_paused_clock_says_so_in_the_corner():
    spec = get_spec("binary")
    st = spec.new()
    f = face("1:30:00", st.players, st.turn, (5025.0, 5399.5), paused=True)
    screen = Frame(table(spec, st, f), Notices()).screen
    check("clock_binary_paused", shown(screen))
    assert screen_text(screen)[0].endswith("paused")
    assert "1:23:45" in screen_text(screen)[1]


def test_latent_binaries_with_a_clock():
    spec = get_spec("latent-binaries")
    st = spec.new()
    f = face("3:00d2", st.players, None, (180.0, 180.0))
    screen = Frame(table(spec, st, f), Notices()).screen
    check("clock_latent", shown(screen))
    assert all(line.endswith("3:00") for line in screen_text(screen)[1:3])


def test_more_than_two_players_show_the_time_of_the_player_on_move_only():
    spec = get_spec("binome")
    st = five_players_mid_roll()
    players = tuple(FIVE.split(","))
    f = face("10:00", players, "Balthazar", (600, 512, 431.5, 600, 599))
    screen = Frame(table(spec, st, f), Notices()).screen
    image = shown(screen)
    check("clock_binome_five", image)
    assert screen_text(screen)[0].startswith("BINOME") and "7:12" in screen_text(screen)[0]
    assert "4:12" not in "\n".join(screen_text(screen))  # the others' times are not shown


def test_three_players_on_three_rows():
    spec = get_spec("binome")
    st = spec.new(players="Ann,Bob,Cy", chair="Ann")
    f = face("2:00", ("Ann", "Bob", "Cy"), "Ann", (8.25, 120, 120))
    screen = Frame(table(spec, st, f), Notices(message="roll the dice")).screen
    check("clock_binome_three", shown(screen))
    assert "8.3" in screen_text(screen)[0]


def test_no_clock_no_change():
    spec = get_spec("binaryon")
    st = spec.new()
    screen = Frame(table(spec, st, None), Notices()).screen
    assert screen.clock is None
    check("binaryon_start", shown(screen))


def test_a_flag_fall_on_the_oled_reads_whole(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    press_move(d, clock)
    step(d, clock, 31)
    lines = screen_text(d.oled.last)
    assert lines[3:] == ["ON wins on time:", "OFF's time ran out"]
    check("binaryon_on_time", shown(d.oled.last))
