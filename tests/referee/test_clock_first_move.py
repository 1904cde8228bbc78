"""The clock's first move. FIDE's rules (an event's games, ``[clock] first_move = "timed"``):
the first player's time runs from the game's start and a Fischer increment counts from move
1. The casual rule (the default for a casual game): the first move is free, the clock starts
when it is made. Held through a restart, a takeback to the start and the config."""

from __future__ import annotations

import argparse
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.daemon_options import add_daemon_arguments, config_from_args
from companion.club.event.records import export_event
from companion.club.event.spec import parse_event
from companion.club.event.tournament import Tournament
from companion.core.config import ClockConfig, Config, ConfigError
from companion.journal.store import SqliteJournal
from companion.records.read import parse_record
from companion.referee.session import Session
from companion.timing.clock import Clock, TimeControl
from tests.conftest import FakeClock
from tests.journal.test_clock import power_cut
from tests.service.test_clock import clocked_daemon, press_move


def first_move(s: Session) -> None:
    s.submit(s.state.legal_moves()[0])


def session(t: FakeClock, free: bool, control: str = "0:05+3", journal=None) -> Session:
    return Session(
        "binaryon",
        {"size": 6},
        journal,
        rng=random.Random(1),
        time_control=TimeControl.parse(control),
        timer=t,
        first_move_free=free,
    )


def test_fide_runs_the_first_players_time_from_the_start_with_move_1s_increment():
    t = FakeClock()
    s = session(t, free=False)
    assert s.clock.running == "on" and not s.clock.paused
    assert s.clock.times(t()) == {"on": 8.0, "off": 8.0}  # 5 s and move 1's 3 s
    t.advance(6)  # a 6-second first think: 2 s left, not fallen
    assert s.clock.flagged(t()) is None
    first_move(s)
    assert s.clock.running == "off"
    assert s.clock.times(t()) == {"on": 5.0, "off": 8.0}  # 8 - 6 + move 2's 3 s
    t.advance(6)  # the second player's 6-second first think: not fallen either
    assert s.clock.flagged(t()) is None
    first_move(s)
    assert s.played[-1].clock["left"] == {"on": 5.0, "off": 5.0}
    assert s.played[-1].clock["first_move"] == "timed"


def test_the_casual_first_move_is_free_and_a_6_second_reply_flags_at_0_05_plus_3():
    t = FakeClock()
    s = session(t, free=True)
    assert s.clock.running is None and s.clock.times(t()) == {"on": 5.0, "off": 5.0}
    t.advance(60)  # the first move is free
    first_move(s)
    assert s.clock.running == "off" and s.clock.times(t()) == {"on": 5.0, "off": 5.0}
    t.advance(6)
    assert s.clock.flagged(t()) == "off"
    assert "first_move" not in s.played[-1].clock


@pytest.mark.parametrize("control", ["0:30", "0:30d2", "0:30h"])
def test_fide_charges_the_first_think_under_every_control(control):
    t = FakeClock()
    s = session(t, free=False, control=control)
    t.advance(4)
    first_move(s)
    assert s.clock.running == "off"
    used = {"0:30": 4.0, "0:30d2": 2.0, "0:30h": 4.0}[control]
    assert s.clock.left("on", t()) == 30 - used
    assert s.clock.left("off", t()) == (34.0 if control == "0:30h" else 30.0)


def test_a_restart_before_the_first_move_keeps_fides_clock_paused_and_charged(tmp_path):
    path = tmp_path / "j.sqlite"
    t = FakeClock()
    j = SqliteJournal.open(path)
    s = session(t, free=False, control="5:00+3", journal=j)
    t.advance(3)
    s.clock_tick()  # the daemon's tick
    copy = power_cut(path, tmp_path / "after")
    j.close()
    t.advance(500)
    j2 = SqliteJournal.open(copy)
    again = Session.resume(j2.current(), j2, timer=t)
    assert again.first_move_free is False
    c = again.clock
    assert c.first_move_timed and c.running == "on" and c.paused
    assert c.left("on", t()) == pytest.approx(300.0)  # 303 - 3 s used before the cut
    j2.close()


def test_a_takeback_to_the_start_runs_fides_clock_again():
    t = FakeClock()
    s = session(t, free=False)
    t.advance(2)
    first_move(s)
    s.take_back_to(0)
    assert s.clock.running == "on" and s.clock.first_move_timed
    casual = session(t, free=True)
    first_move(casual)
    casual.take_back_to(0)
    assert casual.clock.running is None


@given(
    st.booleans(),
    st.lists(st.floats(0, 20, allow_nan=False), max_size=6),
    st.sampled_from(["0:30+2", "1:00", "0:45d3", "0:20h"]),
)
def test_a_snapshot_restores_the_first_move_rule_and_the_times(timed, thinks, control):
    t = FakeClock()
    c = Clock(TimeControl.parse(control), ("on", "off"), first_move_timed=timed)
    c.run("on", t())
    for k, think in enumerate(thinks):
        t.advance(think)
        c.switch(("off", "on")[k % 2], t())
    back = Clock.restore(c.snapshot(t()), t())
    assert back.first_move_timed == timed
    assert back.times(t()) == pytest.approx(c.times(t()), abs=1e-3)


def test_first_move_is_read_from_the_config_and_the_command_line(tmp_path):
    assert Config.default().clock.first_move == "free"  # the default for a casual game
    assert Config.from_dict({"clock": {"first_move": "timed"}}).clock.first_move == "timed"
    with pytest.raises(ConfigError) as e:
        Config.from_dict({"clock": {"first_move": "later"}}, source="c.toml")
    assert str(e.value) == "c.toml: [clock] first_move 'later': use free or timed"
    p = argparse.ArgumentParser()
    add_daemon_arguments(p)
    base = ["--journal", "none", "--clock", "5:00+3"]
    assert config_from_args(p.parse_args(base)).clock.first_move == "free"
    timed = config_from_args(p.parse_args([*base, "--first-move", "timed"]))
    assert timed.clock == ClockConfig(control="5:00+3", first_move="timed")
    config = tmp_path / "c.toml"
    config.write_text('[clock]\nfirst_move = "timed"\n')
    from_file = config_from_args(p.parse_args(["--config", str(config), "--journal", "none"]))
    assert from_file.clock.first_move == "timed"
    assert from_file.game.given == ()  # the rule alone asks for no other game


def test_a_casual_daemon_follows_first_move_and_an_events_game_is_always_fide():
    t = FakeClock()
    d = clocked_daemon(t, "0:05+3")
    assert d.session.clock.running is None  # the casual default: free
    d.config = d.config.with_overrides(clock={"first_move": "timed"})
    d.call(lambda: d.new_game())
    assert d.session.clock.running == "on" and d.session.clock.first_move_timed
    d.config = d.config.with_overrides(clock={"first_move": "free"})
    d.call(lambda: d.new_game(clock="0:05+3"))  # a pairing's game: FIDE's rules
    assert d.session.clock.running == "on"
    t.advance(6)
    press_move(d, t)
    assert not d.session.state.is_over() and d.session.clock.running == "off"


def test_a_remote_games_first_move_is_free_whatever_the_config_says():
    from companion.service.game_start import first_move_free

    timed = Config.default().with_overrides(clock={"first_move": "timed"})
    assert first_move_free(timed) is False
    remote = timed.with_overrides(game={"opponent": "remote:t4"})
    assert first_move_free(remote) is True
    assert first_move_free(Config.default()) is True


EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 4 }
pairing = "round-robin"
players = ["Ann", "Ben", "Cy", "Di"]
clock = "10:00+5"
"""


def test_a_result_typed_for_an_event_with_a_clock_is_exported_with_its_time_control():
    t = Tournament(parse_event(EVENT))
    games = t.pair_next()
    t.enter_result(games[0].pairing, "1-0")
    t.enter_result(games[1].pairing, "-+")
    records = export_event(t).split("\n\n[Game")
    assert len(records) == 2
    for text in records:
        assert '[TimeControl "600+5"]' in text
    rec = parse_record(export_event(t).split("\n\n[Game")[0])
    assert rec.time_control == TimeControl.parse("10:00+5")
    plain = Tournament(parse_event(EVENT.replace('clock = "10:00+5"\n', "")))
    plain.enter_result(plain.pair_next()[0].pairing, "1-0")
    assert "TimeControl" not in export_event(plain)
