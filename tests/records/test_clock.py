"""The game clock in the records: the TimeControl tag, each move's ``[%clk]`` (the mover's
time left after it), the clock's events as comments; read back as written, a bad clock
comment said in one line with the move kept."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.records.check import validate
from companion.records.format import clk_seconds, clk_text, counts_tenths, format_record
from companion.records.read import parse_record
from companion.timing.clock import Clock, TimeControl

TIMED = """[Game "binaryon"]
[Date "2025-03-01"]
[Started "2025-03-01T14:02:11.120Z"]
[Options "first=on opening=free reach=line size=6 scoring=all through="]
[TimeControl "300+3"]
[Status "in progress"]
[Result "*"]

1. b5 {+23.369s} {[%clk 0:04:40]} f3 {+28.771s} {[%clk 0:04:58]}
2. f4 {+42.642s} {[%clk 0:04:29]} {clock paused} {clock resumed} {clock: +30s to off (penalty)} b2 {+47.658s} {[%clk 0:00:09]}
3. d6 {+60.486s} {[%clk 1:00:00]}
"""  # noqa: E501


def test_a_timed_record_reads_back_as_it_was_written():
    rec = parse_record(TIMED)
    validate(rec)
    assert rec.time_control == TimeControl.parse("5:00+3")
    assert rec.clocks == [280.0, 298.0, 269.0, 9.0, 3600.0]
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


def test_a_time_under_ten_seconds_is_written_in_whole_seconds():
    """PGN's H:MM:SS: a record read with tenths (another program's) is written without them,
    rounded up as the clock showed it; tenths stay for a control that counts in them."""
    rec = parse_record(TIMED.replace("[%clk 0:00:09]", "[%clk 0:00:08.7]"))
    assert rec.clocks[3] == 8.7
    assert "{[%clk 0:00:09]}" in format_record(rec) and ".7]" not in format_record(rec)
    assert clk_text(8.7) == "0:00:09" and clk_text(0.05) == "0:00:01"
    assert clk_text(8.7, tenths=True) == "0:00:08.7"
    tenths = TimeControl(TimeControl.parse("1:00+1").kind, 60.0, 0.5)
    assert counts_tenths(tenths) and not counts_tenths(TimeControl.parse("0:05+3"))
    rec.time_control = tenths
    assert "{[%clk 0:00:08.7]}" in format_record(rec)


@given(st.floats(0, 36_000, allow_nan=False), st.booleans())
def test_a_clock_time_reads_back_as_written(seconds, tenths):
    text = clk_text(seconds, tenths)
    back = clk_seconds(f"[%clk {text}]")
    assert back is not None and clk_text(back, tenths) == text
    assert back >= seconds - 1e-6  # rounded up, as the clock showed it
    assert ("." in text) == (tenths and 0 < back < 10)
    assert re.fullmatch(r"\d{1,2}:[0-5]\d:[0-5]\d(\.\d)?", text)


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
        "clock: ON 4:40 · OFF 9.0",
        "clock: ON 1:00:00 · OFF 9.0",
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


# ------------------------------------------------------------------ a game ended on time


class Hands:
    """A fake monotonic time moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _flagged(path, game: str, options: dict, people: dict, names: list[str]):
    """A game on a 0:20+2 clock: ``names`` played three seconds apart, then the time of the
    player on move runs out; journaled at ``path``."""
    from companion.journal.store import SqliteJournal
    from companion.referee.session import Session

    journal = SqliteJournal.open(path, clock=lambda: 1_750_000_000.0)
    hands = Hands()
    s = Session(game, options, journal, people, time_control=TimeControl.parse("0:20+2"),
                timer=hands)  # fmt: skip
    for name in names:
        hands.t += 3
        assert s.submit_name(name).accepted, name
    hands.t += 60
    flagged = s.flag_fall()
    assert flagged is not None and s.state.is_over()
    journal.close()
    return s, flagged


ON_TIME_GAMES = [
    ("binaryon", {"size": 6}, {"on": "Ana", "off": "Ben"}, ["a4", "a1", "d4"], "ON wins on time"),
    ("wythe", {"size": 4}, {"black": "Ana", "white": "Ben"}, ["a1-a2", "swap", "c1-c2"],
     "WHITE wins on time"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "options", "people", "names", "summary"), ON_TIME_GAMES)
def test_a_game_ended_on_time_exports_imports_and_exports_the_same(
    tmp_path, capsys, game, options, people, names, summary
):
    import json

    from companion.cli.main import main

    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    s, flagged = _flagged(first, game, options, people, names)
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    assert main(["export", str(s.game_id), "-o", str(one), "--journal", str(first)]) == 0
    text = one.read_text()
    assert text.rstrip().endswith(f"{{clock: {flagged} out of time}}")
    capsys.readouterr()
    assert main(["import", str(one), "--journal", str(second)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.strip().endswith(f"{len(names)} moves, {summary}")
    assert main(["export", "1", "-o", str(two), "--journal", str(second)]) == 0
    assert two.read_text() == text
    capsys.readouterr()
    assert main(["history", "--journal", str(second)]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert "finished" in line and summary in line
    histories = []
    for journal in (first, second):
        assert main(["history", "--json", "--journal", str(journal)]) == 0
        (entry,) = json.loads(capsys.readouterr().out)
        histories.append(entry)
    imported, played = histories[1], histories[0]
    assert imported["status"] == "finished" and imported["summary"] == summary
    for key in ("result", "winner_names", "seated"):  # credited as the table credited it
        assert imported.get(key) == played.get(key), key
    if game == "wythe":  # after the swap Ana plays White: she won on Ben's time
        assert imported["seated"] == {"black": "Ben", "white": "Ana"}
        assert imported["winner_names"] == ["Ana"]
    from companion.journal.store import SqliteJournal

    journal = SqliteJournal.open(second)
    entry = journal.load(1)
    assert entry.detail["on_time"] == flagged  # the replay viewer ends it with the flag
    assert [(e.kind, e.ply, e.player) for e in journal.clock_events(1)] == [
        ("flag", len(names), flagged)
    ]
    journal.close()
    assert main(["import", str(two), "--journal", str(second)]) == 2  # the same game again
    assert "already imported as game 1" in capsys.readouterr().err


ON_TIME = """[Game "binaryon"]
[Date "2025-06-15"]
[Started "2025-06-15T15:06:40.000Z"]
[Options "first=on opening=free reach=line scoring=all size=6 through="]
[TimeControl "20+2"]
[Status "finished"]
[Result "on"]

1. a4 {[%clk 0:00:20]} a1 {[%clk 0:00:19]}
2. d4 {[%clk 0:00:19]} {clock: off out of time}
"""


def test_a_flag_after_the_last_move_ends_the_game_on_time():
    from companion.journal.rows import FINISHED
    from companion.timing.on_time import on_time

    rec = parse_record(ON_TIME.replace('"finished"', '"in progress"').replace('"on"]', '"*"]'))
    state = validate(rec)
    assert state.is_over() and on_time(state) is not None
    assert (rec.status, rec.result, rec.summary) == (FINISHED, "on", "ON wins on time")
    shouted = parse_record(ON_TIME.replace("clock: off", "clock: OFF"))
    validate(shouted)  # the player read without regard to case, written as the game spells it
    assert shouted.clock_notes == {3: ["clock: off out of time"]}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (('"on"]', '"off"]'), "g.txt:10: Result off but the flag fall gives ON wins on time"),
        (('"on"]', '"draw"]'), "g.txt:10: Result draw but the flag fall gives ON wins on time"),
        (
            ("{[%clk 0:00:19]}\n2.", "{[%clk 0:00:19]} {clock: off out of time}\n2."),
            "g.txt:10:4: move 3 d4 after {clock: off out of time}: a flag fall ends the game",
        ),
        (
            ("time}\n", "time} {clock resumed}\n"),
            "g.txt:10: {clock resumed} after {clock: off out of time}: a flag fall ends the game",
        ),
        (
            ('[TimeControl "20+2"]\n', ""),
            "g.txt:9: {clock: off out of time} but no TimeControl: a flag falls on a clock",
        ),
        (
            ("clock: off", "clock: bob"),
            "g.txt:10: {clock: bob out of time}: bob does not play (on, off)",
        ),
        (
            ("clock: off", "clock: on"),
            "g.txt:10: {clock: on out of time} but off's time was running",
        ),
    ],
)
def test_a_record_whose_flag_does_not_end_it_as_the_clock_did_is_refused_in_one_line(
    tmp_path, capsys, change, says
):
    from companion.cli.main import main

    path, journal = tmp_path / "g.txt", tmp_path / "j.sqlite"
    text = ON_TIME.replace(*change)
    assert text != ON_TIME
    path.write_text(text)
    assert main(["import", str(path), "--journal", str(journal)]) == 2
    out, err = capsys.readouterr()
    assert err == f"binaryon: {path.parent}/{says}\n" and out == ""
    assert not journal.exists()  # nothing imported, not even an empty journal


def test_replay_of_a_game_ended_on_time_says_so(tmp_path):
    from companion.cli.replay import replay

    path = tmp_path / "g.txt"
    path.write_text(ON_TIME)
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    lines = out.getvalue().splitlines()
    assert lines[-2:] == ["clock: ON 0:19 · OFF 0.0", "end of record: ON wins on time"]


def test_a_flag_the_arbiter_took_back_is_a_comment_and_the_record_imports(tmp_path, capsys):
    """OFF's flag falls after move 3, the arbiter's undo takes the flag back (not ON's d4),
    the game goes on and OFF's flag falls after move 5: the first flag is a comment where it
    fell (read as one, as taken-back moves are), the last one ends the game."""
    from companion.cli.main import main
    from companion.journal.store import SqliteJournal
    from companion.referee.session import Session

    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    journal = SqliteJournal.open(first, clock=lambda: 1_750_000_000.0)
    hands = Hands()
    s = Session("binaryon", {"size": 6}, journal, {"on": "Ana"},
                time_control=TimeControl.parse("0:20+2"), timer=hands)  # fmt: skip
    for name in ("a4", "a1", "d4", None, "d1", ""):
        if name is None:
            hands.t += 60
            assert s.flag_fall() == "off"
            assert s.undo() == [] and s.moves == ["a4", "a1", "d4"]  # the flag alone
            assert s.clock.paused and s.resume_clock()  # the arbiter's correction, resumed
            continue
        hands.t += 3
        name = name or s.state.legal_moves()[0].name
        assert s.submit_name(name).accepted, name
    hands.t += 60
    assert s.flag_fall() == "off"
    journal.close()
    one = tmp_path / "one.txt"
    assert main(["export", str(s.game_id), "-o", str(one), "--journal", str(first)]) == 0
    text = one.read_text()
    assert (
        "d4 {+0s} {[%clk 0:00:19]} {taken back: off out of time}"
        " {clock paused (flag taken back)} {clock resumed} d1" in text
    )
    assert text.rstrip().endswith("{clock: off out of time}")
    capsys.readouterr()
    assert main(["import", str(one), "--journal", str(second)]) == 0
    assert capsys.readouterr().out.strip().endswith("5 moves, ON wins on time")
    journal = SqliteJournal.open(second)
    events = [(e.kind, e.ply, e.why) for e in journal.clock_events(1)]
    assert events == [("pause", 3, "flag taken back"), ("resume", 3, None), ("flag", 5, None)]
    journal.close()
    # a game whose only flag was taken back and that went on: no flag of its own
    last = f"{name} {{+0s}} {{[%clk 0:00:18]}} {{clock: off out of time}}"
    assert last in text
    unfinished = text.replace(last, "").replace('"finished"', '"in progress"')
    rec = parse_record(unfinished.replace('[Result "on"]', '[Result "*"]'))
    assert not validate(rec).is_over() and len(rec.moves) == 4


@given(st.sampled_from(["binaryon", "wythe", "binary"]), st.integers(1, 30), st.randoms())
def test_a_flag_after_any_position_reads_back_as_the_games_on_time_result(game, plies, rnd):
    """Whatever the position, a record that ends with the flag of the player on move reads
    as the game's on-time result (``GameSpec.on_time``) and writes back the same."""
    from companion.games import get_spec
    from companion.records.format import Record
    from companion.timing.on_time import on_time

    spec = get_spec(game)
    options = spec.resolve({"size": 6} if game != "wythe" else {"size": 4})
    state = spec.new(**options)
    names: list[str] = []
    while len(names) < plies and not state.is_over():
        move = state.forced_move() or rnd.choice(list(state.legal_moves()))
        names.append(move.name)
        state = state.play(move)
    if state.is_over() or state.turn is None:
        return  # the moves ended it, or nobody's time runs: no flag can fall
    flagged = state.turn
    rec = Record(game, dict(options), list(names), time_control=TimeControl.parse("1:00+1"),
                 clock_notes={len(names): [f"clock: {flagged} out of time"]})  # fmt: skip
    ended = validate(rec)
    expected = spec.clock_rules().on_time(state, flagged)
    assert on_time(ended) == expected and ended.outcome() == expected
    assert rec.status == "finished" and rec.result == (expected.winner or "draw")
    text = format_record(rec)
    again = parse_record(text)
    assert on_time(validate(again)) == expected and format_record(again) == text
