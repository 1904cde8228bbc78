"""The game clock in the records: the TimeControl tag, each move's ``[%clk]`` (the mover's
time left after it), the clock's events as comments; read back as written, a bad clock
comment said in one line with the move kept."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.journal.records import (
    clk_seconds,
    clk_text,
    format_record,
    parse_record,
    validate,
)
from companion.referee.clock import Clock, TimeControl

TIMED = """[Game "binaryon"]
[Date "2025-03-01"]
[Started "2025-03-01T14:02:11.120Z"]
[Options "first=on opening=free reach=line size=6 scoring=all through="]
[TimeControl "300+3"]
[Status "in progress"]
[Result "*"]

1. b5 {+23.369s} {[%clk 0:04:40]} f3 {+28.771s} {[%clk 0:04:58]}
2. f4 {+42.642s} {[%clk 0:04:29]} {clock paused} {clock resumed} {clock: +30s to off (penalty)} b2 {+47.658s} {[%clk 0:00:09.4]}
3. d6 {+60.486s} {[%clk 1:00:00]}
"""  # noqa: E501


def test_a_timed_record_reads_back_as_it_was_written():
    rec = parse_record(TIMED)
    validate(rec)
    assert rec.time_control == TimeControl.parse("5:00+3")
    assert rec.clocks == [280.0, 298.0, 269.0, 9.4, 3600.0]
    assert rec.clock_notes == {3: ["clock paused", "clock resumed", "clock: +30s to off (penalty)"]}
    assert rec.warnings == []
    assert format_record(rec) == TIMED


def test_a_record_without_a_clock_has_no_clock_tag_or_comment():
    plain = TIMED.replace('[TimeControl "300+3"]\n', "")
    plain = "".join(part.split("]}", 1)[-1] for part in plain.split("{[%clk"))
    rec = parse_record(plain)
    assert rec.time_control is None and rec.clocks == [None] * 5
    text = format_record(rec)
    assert "TimeControl" not in text and "%clk" not in text


def test_a_bad_clock_comment_is_one_line_and_the_move_is_kept():
    rec = parse_record(TIMED.replace("[%clk 0:04:58]", "[%clk 4 minutes]"), "g.txt")
    validate(rec)
    assert rec.moves[1] == "f3" and rec.clocks[1] is None
    assert rec.warnings == [
        "g.txt:9:49: clock {[%clk 4 minutes]} should look like [%clk 0:04:57]: left out"
    ]
    twice = parse_record(TIMED.replace("{[%clk 0:04:58]}", "{[%clk 0:04:58]} {[%clk 0:04:57]}"))
    assert twice.clocks[1] == 298.0 and len(twice.warnings) == 1
    assert "does not follow a move" in twice.warnings[0]


def test_a_time_control_this_companion_does_not_keep_is_a_warning_and_stays_a_tag():
    rec = parse_record(TIMED.replace('"300+3"', '"40/7200:3600"'), "g.txt")
    assert rec.time_control is None and rec.tags["TimeControl"] == "40/7200:3600"
    assert rec.warnings[0].startswith("g.txt:5: TimeControl '40/7200:3600'")
    assert any("without a TimeControl" in w for w in rec.warnings)
    assert '[TimeControl "40/7200:3600"]' in format_record(rec)


@given(st.floats(0, 36_000, allow_nan=False))
def test_a_clock_time_reads_back_as_written(seconds):
    text = clk_text(seconds)
    back = clk_seconds(f"[%clk {text}]")
    assert back is not None and clk_text(back) == text
    assert back >= seconds - 1e-6  # rounded up, as the clock showed it
    assert ("." in text) == (0 < back < 10)


def test_replay_shows_the_clocks_at_each_move(tmp_path):
    from companion.cli.replay import replay

    path = tmp_path / "timed.txt"
    path.write_text(TIMED.replace("[%clk 0:04:29]", "[%clk soon]"))
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    text = out.getvalue()
    assert "warning: " in text and "[%clk soon]" in text  # said, and the game still replayed
    clocks = [line for line in text.splitlines() if line.startswith("clock: ")]
    assert clocks == [
        "clock: ON 4:40 · OFF 5:00",
        "clock: ON 4:40 · OFF 4:58",
        "clock: ON 4:40 · OFF 4:58",  # move 3's time was left out: as move 1 left it
        "clock: ON 4:40 · OFF 9.4",
        "clock: ON 1:00:00 · OFF 9.4",
    ]


def test_import_says_a_bad_clock_comment_in_one_line_and_keeps_the_move(tmp_path, capsys):
    from companion.cli.main import main

    path = tmp_path / "timed.txt"
    path.write_text(TIMED.replace("[%clk 0:04:29]", "[%clk soon]"))
    assert main(["import", str(path), "--journal", str(tmp_path / "j.sqlite")]) == 0
    out, err = capsys.readouterr()
    assert "imported game 1: binaryon, 5 moves" in out
    assert err.count("\n") == 1 and "warning: " in err and "[%clk soon]" in err


class Ticks:
    """A fake monotonic time: each reading a little later (a move every few seconds)."""

    def __init__(self, step: float = 3.7):
        self.t, self.step = 1000.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def timed_game(journal, control: str | None, moves: int = 12):
    from companion.referee.session import Session

    tc = TimeControl.parse(control) if control else None
    s = Session("binaryon", {"size": 6}, journal, {"on": "Ana"}, time_control=tc, timer=Ticks())
    for k in range(moves):
        if s.state.is_over():
            break
        s.submit(s.state.legal_moves()[k % len(s.state.legal_moves())])
        if k == 4 and s.clock is not None:  # the arbiter pauses, gives time, resumes
            s.clock.pause(s.timer())
            s.clock_event("pause")
            s.clock.add("off", 30)
            s.clock_event("add", "off", 30, "penalty")
            s.clock.resume(s.timer())
            s.clock_event("resume")
    return s


@pytest.mark.parametrize("control", ["0:30+2", "5:00d2", None])
def test_export_import_export_gives_the_same_record(tmp_path, capsys, control):
    from companion.cli.main import main
    from companion.journal.store import SqliteJournal

    first = tmp_path / "first.sqlite"
    j = SqliteJournal.open(first, clock=lambda: 1_750_000_000.0)
    s = timed_game(j, control)
    j.close()
    out1, out2 = tmp_path / "one.txt", tmp_path / "two.txt"
    assert main(["export", str(s.game_id), "-o", str(out1), "--journal", str(first)]) == 0
    other = tmp_path / "other.sqlite"
    assert main(["import", str(out1), "--resume", "--journal", str(other)]) == 0
    assert main(["export", "1", "-o", str(out2), "--journal", str(other)]) == 0
    text = out1.read_text()
    assert out2.read_text() == text
    capsys.readouterr()
    if control is None:
        assert "TimeControl" not in text and "%clk" not in text
        return
    assert f'[TimeControl "{TimeControl.parse(control).pgn()}"]' in text
    rec = parse_record(text)
    validate(rec)
    played = [p for p in s.played if p.player is not None]
    assert sum(c is not None for c in rec.clocks) == len(played)
    # each move's [%clk] is its mover's time after it, as the clock showed it
    for k, p in enumerate(s.played):
        if p.player is not None:
            assert rec.clocks[k] == clk_seconds(f"[%clk {clk_text(p.clock['left'][p.player])}]")
    assert rec.clock_notes == {5: ["clock paused", "clock: +30s to off (penalty)", "clock resumed"]}
    # the imported game resumes with its clock, paused, each player's time as recorded
    from companion.referee.session import Session

    j2 = SqliteJournal.open(other)
    again = Session.resume(j2.current(), j2, timer=Ticks())
    assert again.clock is not None and again.clock.paused
    last = {}
    for k, p in enumerate(s.played):
        if p.player is not None:
            last[p.player] = rec.clocks[k]
    assert {p: again.clock.left(p, 0) for p in last} == last
    j2.close()


def test_the_replay_pages_show_the_clock_after_each_move():
    from companion.journal.api import NullJournal
    from companion.service.web_backend import replay_frames

    s = timed_game(NullJournal(), "0:30+2", moves=6)
    names = [p.name for p in s.played]
    page = replay_frames(1, "binaryon", dict(s.options), names, 0, 10,
                         clocks=[p.clock for p in s.played], time_control="0:30+2")  # fmt: skip
    frames = page["frames"]
    assert frames[0]["clock"] == {"on": 30.0, "off": 30.0, "running": None, "paused": False,
                                  "free": 0.0, "control": "0:30+2", "as_of": None}  # fmt: skip
    for k, p in enumerate(s.played, 1):
        c = frames[k]["clock"]
        assert c["as_of"] is None  # as it stood: a replay does not tick
        stood = Clock.restore(p.clock, 0.0).times(0.0)  # the snapshot's times then
        assert {q: c[q] for q in ("on", "off")} == {q: round(v, 2) for q, v in stood.items()}
        assert c["running"] == p.clock["running"]
    untimed = replay_frames(1, "binaryon", dict(s.options), names, 0, 10)
    assert all(f["clock"] is None for f in untimed["frames"])
