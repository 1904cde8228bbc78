"""An event's clock (``clock = "10:00+5"`` in the event file): read as ``--clock`` is, carried
in each pairing to its board, the pairing's game played with it (not the board's own clock)
and its record tagged with it. An event without one plays its games without a clock."""

from __future__ import annotations

import pytest

from companion.club.event.desk import EventDesk
from companion.club.event.spec import EventError, parse_event
from tests.club.event.test_desk import Publisher
from tests.club_boards import Acker, moves_to_end, play, start_board, stop_board, wait

EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 4 }
pairing = "round-robin"
boards = ["t1"]
players = ["Ann", "Ben"]
"""


def test_the_event_files_clock_is_read_as_the_command_lines():
    assert parse_event(EVENT).clock is None
    assert parse_event(EVENT + 'clock = "10:00+5"\n').clock == "10:00+5"
    assert parse_event(EVENT + 'clock = "5:00d2"\n').clock == "5:00d2"
    for bad in ('"10:99"', '"soon"', "600", '"0:00"'):
        with pytest.raises(EventError) as e:
            parse_event(EVENT + f"clock = {bad}\n", "march.toml")
        line = str(e.value)
        assert line.startswith("march.toml: clock: ") and "\n" not in line


@pytest.fixture
def hall(tmp_path, broker):
    made = []

    def open_hall(event: str, board_clock: str):
        acker = Acker(broker.url)
        daemon, closers = start_board(tmp_path, broker.url, "t1", clock=board_clock)
        (tmp_path / "march.toml").write_text(event)
        publish = Publisher(broker.url)
        desk = EventDesk(tmp_path / "march.toml", publish)
        made.append((desk, publish, daemon, closers, acker))
        wait(lambda: daemon.club.connected, what="the board's link")
        desk.publish_pairings(force=True)
        wait(
            lambda: dict(daemon.session.seat_names()) == {"on": "Ann", "off": "Ben"},
            what="the pairing's game",
        )
        return desk, daemon, acker

    yield open_hall
    for desk, publish, daemon, closers, acker in made:
        desk.close()
        publish.close()
        stop_board(daemon, closers)
        acker.close()


def test_the_events_clock_plays_each_pairings_game_and_tags_its_record(hall):
    desk, daemon, acker = hall(EVENT + 'clock = "10:00+5"\n', board_clock="1:00+0")
    control = daemon.call(lambda: daemon.session.time_control, render=False)
    assert control is not None and control.text() == "10:00+5"  # not the board's 1:00+0
    assert daemon.session.clock is not None
    # FIDE's rules: the first player's time runs from the pairing's game's start
    assert daemon.call(lambda: daemon.session.clock.running, render=False) == "on"
    for move in moves_to_end("binaryon", size=4):
        play(daemon, move)
    wait(lambda: len(acker.stored) == 1, what="the result stored")
    (result,) = acker.stored.values()
    assert '[TimeControl "600+5"]' in result["record"]
    assert desk.on_result("t1", result)
    assert '[TimeControl "600+5"]' in desk.export()


def test_an_event_without_a_clock_plays_without_the_boards(hall):
    desk, daemon, _ = hall(EVENT, board_clock="1:00+0")
    assert daemon.call(lambda: daemon.session.time_control, render=False) is None
    assert daemon.session.clock is None
