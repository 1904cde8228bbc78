"""What a new user tripped on in the first hour, round 3 (issue 39): Binøme in the terminal,
results that read right, the terminal's status line and the board's buttons alone."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.core.config import Config
from companion.core.events import ButtonEvent, UserCommand
from companion.games import get_spec
from companion.games.base import Panel, PanelRow
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.records.check import validate
from companion.records.format import Record, format_record
from companion.records.read import parse_record
from companion.referee.session import Session
from companion.service.daemon import Daemon
from companion.service.simulator import Simulator
from companion.timing.clock import TimeControl
from companion.views.oled import Screen, screen_text
from companion.views.terminal import board_lines
from tests.conftest import FakeClock, step, wait_until
from tests.paths import REPO
from tests.service.test_clock import button, clocked_daemon, press_move
from tests.views.test_oled_golden import check, shown


def sim(make_daemon, clock, game="binaryon", rules=None, colour=False):
    d = make_daemon(game=game, rules=rules)
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=colour)
    s.settle = lambda timeout=10.0: step(d, clock, 0.5)  # type: ignore[method-assign]
    step(d, clock)
    return d, s, out


def typed(s: Simulator, out: io.StringIO, *lines: str) -> str:
    """What the terminal printed for ``lines``."""
    start = len(out.getvalue())
    for line in lines:
        s.handle_line(line)
    return out.getvalue()[start:]


# ------------------------------------------------------------------ 1. Binøme in the terminal


def test_binome_shows_your_sheet_and_takes_write_and_bare_cells(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "binome", {"players": "Ann,Bob"})
    shown = typed(s, out, "show")
    digit = d.session.state.digit
    assert "ANN's page: your number 1: ??;" in shown  # the sheet of the first to act
    assert f"your digit to write: {digit}" in shown
    assert "ANN to play: type a move, e.g. write" in shown
    typed(s, out, "1a")  # Ann's: the first in seat order to write
    assert d.session.played[-1].name == "Ann write 1a"
    shown = typed(s, out, "write 2b")  # now Bob's
    assert d.session.played[-2].name == "Bob write 2b"  # then the referee rolls again
    assert "ANN's page: your number 1: " + str(digit) + "?;" in shown
    typed(s, out, "move write 1b")  # `move` is a command, not a player's name
    assert d.session.played[-1].name == "Ann write 1b"
    refused = typed(s, out, "bob write 2b")  # a used cell: the reason, not "see your page"
    assert d.session.played[-1].name == "Ann write 1b"
    assert "BOB: 2b: already written" in refused and "see your page" not in refused


def test_binome_solo_types_for_the_only_person_and_claims_and_passes(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "binome", {"players": "Ann", "solo": 2, "seed": 4})
    state = d.session.state
    for _ in range(16):  # her 16 digits
        free = next(m for m in state.legal_moves("Ann"))
        typed(s, out, free.name.split(" ", 1)[1])  # "write 3a", without her name
        state = d.session.state
    assert state.phase == "claim"
    for _ in range(10):  # the virtual players claim first when they chair
        if d.session.state.turn == "Ann":
            break
        step(d, clock, 1)
    state = d.session.state
    unused = set(state.unused_numbers("Ann"))
    not_hers = next(n for n in range(100) if n not in unused)
    said = typed(s, out, f"claim {not_hers:02d}")
    turn_line = next(line for line in said.splitlines() if line.startswith("turn:"))
    assert turn_line.split(" | ")[1] in (
        f"ANN: {not_hers:02d}: not on your sheet",
        "ANN: no eligible number: pass",
    )
    before = len(d.session.played)
    typed(s, out, "pass")
    assert d.session.played[before].name == "Ann pass"


# ------------------------------------------------------------------ 2. no duplicate imports


@pytest.mark.parametrize(
    "game, options, clock, moves",
    [
        ("binaryon", {}, None, 12),
        ("wythe", {}, "5:00+3", 12),
        ("binome", {"players": "Ann,Bob"}, None, 10_000),  # to its end: its secrets shown
    ],
)
def test_a_record_exported_from_this_journal_is_refused_when_imported_into_it(
    tmp_path, capsys, game, options, clock, moves
):
    """`export N -o g.txt` then `import g.txt` into the same journal: refused as the game it
    came from (docs/records.md), finished or not; --allow-duplicate imports it all the same;
    another journal takes it."""
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal.open(path)
    control = TimeControl.parse(clock) if clock else None
    s = Session(game, options, journal, rng=random.Random(3), time_control=control)
    rng = random.Random(5)
    while len(s.played) < moves and not s.state.is_over():
        player = s.state.turn or sorted(s.state.to_act)[0]
        assert s.submit(rng.choice(list(s.state.legal_moves(player))), player).accepted
    journal.close()
    record = tmp_path / "g1.txt"
    assert main(["export", str(s.game_id), "-o", str(record), "--journal", str(path)]) == 0
    capsys.readouterr()
    assert main(["import", str(record), "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"binaryon: {record}: already in the journal as game 1 (--allow-duplicate)"
    assert main(["import", str(record), "--journal", str(tmp_path / "other.sqlite")]) == 0
    assert main(["import", str(record), "--allow-duplicate", "--journal", str(path)]) == 0
    with SqliteJournal.open(path, read_only=True) as j:
        assert j.last_id() == 2


# ------------------------------------------------------------------ 5. results that read right


def test_the_oled_says_a_result_once_not_twice():
    """The end screen's note and the result message were the same ('OFF wins' / 'OFF wins',
    'XENO wins' / 'XENO wins: e4 sees b1'): shown once, whole, under the rows."""
    rows = (PanelRow("ON", "11111001", False), PanelRow("OFF", "11110000", True))
    for name, note, message in [
        ("plain", "OFF wins", "OFF wins"),
        ("why", "XENO wins", "XENO wins: e4 sees b1"),
        ("on_time", "ON wins on time: OFF's time ran out", "ON wins on time: OFF's time ran out"),
    ]:
        screen = Screen(Panel("BINARYON", 41, rows, note), message, over=True)
        text = screen_text(screen)
        assert " ".join(text[3:]) == message, text
        check(f"result_once_{name}", shown(screen))


def test_a_flag_fall_on_the_oled_reads_whole(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    press_move(d, clock)
    step(d, clock, 31)
    lines = screen_text(d.oled.last)
    assert lines[3:] == ["ON wins on time:", "OFF's time ran out"]
    check("binaryon_on_time", shown(d.oled.last))


def random_end(game: str, options: dict, rnd: random.Random):
    spec = get_spec(game)
    state = spec.new(**spec.resolve(options))
    while not state.is_over():
        state = state.play(state.forced_move() or rnd.choice(list(state.legal_moves())))
    return spec, state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("binary", {"size": 4}), ("wythe", {"size": 4})]), st.randoms())
def test_the_winners_score_comes_first(game_options, rnd):
    """'WHITE wins 38-34', not 'WHITE wins 34-38': in the summary, the score text and the
    explanation."""
    game, options = game_options
    spec, state = random_end(game, options, rnd)
    outcome = state.outcome()
    if not outcome.winners:
        return
    winner = outcome.winners[0]
    loser = next(p for p in state.players if p != winner)
    scores = outcome.detail["scores"]
    assert outcome.summary.startswith(f"{winner.upper()} wins {scores[winner]}-{scores[loser]}")


@settings(max_examples=30, deadline=None)
@given(st.randoms())
def test_wythe_hints_never_speak_of_groups_of_0_or_a_lead_at_0_0(rnd):
    spec = get_spec("wythe")
    state = spec.new(**spec.resolve({"size": 4, "pie": False}))
    while not state.is_over():
        for move in state.legal_moves():
            for words in spec.line_effect(state, state.play(move)):
                assert "groups of 0" not in words and "lead at 0-0" not in words, words
        state = state.play(rnd.choice(list(state.legal_moves())))


@pytest.mark.parametrize(
    "game, title",
    [("latent-binaries", "Latent Binaries"), ("binome", "Binøme"), ("wythe", "Wythe")],
)
def test_the_pages_name_the_game_as_people_write_it(make_daemon, game, title):
    d = make_daemon(game=game)
    assert d.web_view()["title"] == title


def one_move_game(tmp_path) -> Path:
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as journal:
        s = Session("binaryon", {}, journal)
        assert s.submit_name("e5").accepted
    return path


def test_one_move_is_one_move_not_1_moves(tmp_path, capsys):
    path = one_move_game(tmp_path)
    record = tmp_path / "g.txt"
    assert main(["export", "1", "-o", str(record), "--journal", str(path)]) == 0
    assert main(["import", str(record), "--journal", str(tmp_path / "other.sqlite")]) == 0
    assert "binaryon, 1 move, unfinished" in capsys.readouterr().out
    assert main(["abandon", "1", "--journal", str(path)]) == 0
    assert "abandoned after 1 move (kept in history)" in capsys.readouterr().out


def latent_names(moves: int, seed: int = 2) -> tuple[list[str], list[str | None]]:
    spec = get_spec("latent-binaries")
    state = spec.new(**spec.resolve({}))
    rnd = random.Random(seed)
    names, players = [], []
    while len(names) < moves and not state.is_over():
        turn = state.turn
        move = state.forced_move() or rnd.choice(list(state.legal_moves(turn)))
        names.append(move.name)
        players.append(turn)
        state = state.play(move)
    return names, players


def test_latent_binaries_records_number_each_move_not_pairs():
    """A turn of Latent Binaries is a move, a challenge and a marker by one player: a pair
    under one number read as if the players alternated."""
    names, _ = latent_names(14)
    rec = Record("latent-binaries", {}, names, [None] * len(names), status="abandoned")
    text = format_record(rec)
    numbered = [t for t in text.split() if t.endswith(".") and t[:-1].isdigit()]
    assert numbered == [f"{k}." for k in range(1, len(names) + 1)]
    assert parse_record(text).moves == names
    # records exported by the previous version numbered the moves in pairs: still read
    body = " ".join(
        (f"{k // 2 + 1}. " if k % 2 == 0 else "") + f'"{n}"' for k, n in enumerate(names)
    )
    paired = f'[Game "latent-binaries"]\n[Status "abandoned"]\n[Result "*"]\n\n{body}\n'
    rec = parse_record(paired)
    assert rec.moves == names
    validate(rec)


# ------------------------------------------------------------------ 7. records from a real table


def test_a_binome_claim_with_no_eligible_number_imports_as_the_rules_say(tmp_path, capsys):
    """An older record holds `Ann claim 12` where Ann had no eligible number: imported, the
    claim eliminated from the turn and its number used up (the printed rules), one warning."""
    from tests.games.binome.test_engine import write_sheets

    sheets = {
        "Ann": ["12", "34", "67", "80", "12", "34", "67", "89"],
        "Bob": ["21", "43", "76", "08", "21", "43", "76", "98"],
    }
    names: list[str] = []
    spec = get_spec("binome")
    write_sheets(spec.new(**spec.resolve({"players": "Ann,Bob"})), sheets, names)
    names += ["draw contains-5", "Ann claim 12", "Bob pass"]
    body = " ".join(f'"{n}"' for n in names)
    record = tmp_path / "old.txt"
    record.write_text(
        f'[Game "binome"]\n[Options "players=Ann,Bob"]\n[Status "abandoned"]\n'
        f'[Result "*"]\n\n{body}\n'
    )
    path = tmp_path / "j.sqlite"
    assert main(["import", str(record), "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "imported game 1" in out
    warning = err.strip()
    assert warning.startswith(f"binaryon: warning: {record}:6:")
    claim = len(names) - 1
    assert (
        f"move {claim} Ann claim 12: no eligible number: pass: read as Ann claim 12 burn"
        " (a number chosen by mistake is eliminated from the turn)"
    ) in warning
    assert "\n" not in warning
    with SqliteJournal.open(path, read_only=True) as j:
        moves = j.load(1).move_names
    assert moves[-2] == "Ann claim 12 burn"
    after = spec.replay(moves, **spec.resolve({"players": "Ann,Bob"}))
    assert dict(after.last_resolution.eliminated) == {"Ann": "ineligible"}
    assert after.unused_numbers("Ann").count(12) == 1  # one of her two 12s used up


# ------------------------------------------------------------------ 6. the terminal


def test_the_terminal_keeps_the_move_to_make_as_the_oled_does(clock):
    """`my move: d5: press it` stays in the status line as on the OLED until the move is
    made, also after another message (a wrong press refused) has come and gone."""
    from tests.service.test_opponent import make, press

    d = make(clock, opponent="engine:beginner")
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=False)
    press(d, clock, d.session.state.legal_moves()[0].name)
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip
    mine = d.opponent.wanted.name
    told = f"my move: {mine}: press it"
    press(d, clock, next(m.name for m in d.session.state.legal_moves() if m.name != mine))
    assert d.message == f"press {mine} for my move"  # refused, for a while
    step(d, clock, 30)  # long after that message ran out
    s.draw()
    status = [line for line in out.getvalue().splitlines() if line.startswith("turn:")]
    assert status[-1].endswith(f"| {told}")
    assert " ".join(screen_text(d.oled.last)).endswith(told)  # as the OLED has it


def test_a_redraw_while_typing_starts_on_a_line_of_its_own(tmp_path, monkeypatch):
    """A flag falls while the prompt waits: the picture does not start after the "> "."""
    monkeypatch.setenv("TERM", "xterm")
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=False)
    s.interactive = True
    d.listeners.append(s.changed)
    press_move(d, clock)
    print("> ", end="", file=out)  # the prompt, waiting
    step(d, clock, 31)  # the flag falls: the table is drawn again by itself
    after_prompt = out.getvalue().rsplit("> ", 2)[-2]
    assert after_prompt.startswith("\r\x1b[K")  # back to the line's start, cleared
    assert "OFF's time ran out" in out.getvalue()
    monkeypatch.setenv("TERM", "dumb")  # a terminal that takes no escapes: a new line
    print("> ", end="", file=out)
    button(d, clock, "undo")  # the flag taken back: drawn again
    assert out.getvalue().rsplit("> ", 2)[-2].startswith("\n")


def test_a_terminal_without_colour_shows_latent_binaries_nests_and_markers(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "latent-binaries")
    shown = typed(s, out, "show")
    view = d.session.spec.view(d.session.state)
    tokens = {c.piece for c in view.cells if c.piece}
    assert tokens  # nests and markers
    board = [line for line in shown.splitlines() if line[:2].strip().isdigit()]
    for token in tokens:
        assert any(f" {token} " in line for line in board), token


# ------------------------------------------------------------------ 9. the buttons alone


def hold_confirm(d, clock) -> str:
    d.post(ButtonEvent("confirm", True))
    step(d, clock)
    return d.message


def game_leds(d) -> list:
    """The game's own colours on every square: where each piece should be."""
    n = d.board.size
    base = [(0, 0, 0)] * (n * n)
    view = d.session.spec.view(d.session.state)
    for cell, rgb in zip(range(len(view.leds)), view.leds, strict=False):
        base[d.map.square(cell)] = rgb
    return base


def test_hold_confirm_shows_the_expected_position_on_the_leds_and_says_the_way_out(
    make_daemon, clock
):
    """A sensor board that differs: its squares blink red, hiding what belongs there. Hold
    confirm: for one message's time the LEDs show the game's position alone and the OLED
    says what to do; then the blinking and the board's hint come back."""
    d = make_daemon(kind="presence", game="binary")
    centre = d.map.square(d.session.state.parse_move("d4").cells[0])
    d.board.set_reading(centre, "1")  # the first piece may not go in the centre
    step(d, clock, 1)
    assert d.notices.differ and d.present().leds != game_leds(d)
    hint = d.message
    assert hold_confirm(d, clock) == "LEDs show the game: match it, or undo"
    assert d.present().leds == game_leds(d)
    step(d, clock, 10)  # the message's time
    assert d.message == hint and d.notices.differ and not d.notices.expected
    d.notices.blink_on = True
    assert d.present().leds != game_leds(d)  # blinking red again


def test_hold_confirm_names_the_way_out_of_each_waiting_state(make_daemon, clock):
    d = make_daemon(game="binary")
    assert hold_confirm(d, clock) == "BLACK to play: undo takes back, hold menu: new game"
    d.board.tap(d.map.square(d.session.state.parse_move("c3").cells[0]))  # Black's one piece
    step(d, clock, 0.1)
    d.board.tap(d.map.square(d.session.state.parse_move("c6").cells[0]))  # White's first
    step(d, clock, 0.1)
    assert d.turn_pending()
    assert hold_confirm(d, clock) == "half a turn entered: hold undo takes it back"
    d.post(ButtonEvent("undo", True))
    step(d, clock)
    assert not d.turn_pending() and d.session.moves == ["c3"]

    ticks = FakeClock()
    timed = clocked_daemon(ticks, "1:00")
    press_move(timed, ticks)
    button(timed, ticks, "confirm")  # paused
    assert hold_confirm(timed, ticks) == "clock paused: confirm resumes it"
    step(timed, ticks, 100)
    assert not timed.session.state.is_over()  # the flag waits as long as the clock does
    button(timed, ticks, "menu", long=True)  # the new-game menu, from anywhere
    button(timed, ticks, "confirm")
    assert timed.session.played == [] and timed.message.startswith("new game")


def test_hold_confirm_while_a_remote_board_never_answers(clock):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "opponent": "remote:t4"},
        club={"broker": "mqtt://127.0.0.1:1", "board": "t3"},
    )
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    d.board.tap(d.session.state.legal_moves()[0].cell)
    step(d, clock, 0.1)
    assert hold_confirm(d, clock) == "waiting for t4: hold menu for a new game"
    assert d.notices.expected
    button(d, clock, "menu", long=True)
    button(d, clock, "confirm")
    assert d.session.played == [] and d.message.startswith("new game")


# ------------------------------------------------------------------ 8. the smaller ones

README = REPO / "README.md"


def test_score_reads_a_wythe_diagram(tmp_path, capsys):
    """docs/rules/wythe.md documents `score --game wythe FILE`: the top colours' groups."""
    diagram = tmp_path / "w.txt"
    diagram.write_text("x x . .\no o o .\n. . x .\n. . . .\n")
    assert main(["score", "--game", "wythe", str(diagram)]) == 0
    words = capsys.readouterr().out.splitlines()
    assert words[0] == "Black: one group of 2, one of 1" and words[-1] == "White leads 3-2."
    assert main(["score", "--game", "wythe", str(diagram), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["winner"] == "white" and scored["black"]["groups"] == {"1": 1, "2": 1}
    diagram.write_text("x . o .\n. . . .\n. . . .\n. . . .\n")  # 0-0: nobody can say
    assert main(["score", "--game", "wythe", str(diagram), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] is None


def test_the_readme_has_a_position_to_copy_and_it_scores_as_it_says(tmp_path, capsys):
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Scoring real games") :]
    sample = section[
        section.index("```text\n") + 8 : section.index("```\n", section.index("```text"))
    ]
    path = tmp_path / "position.txt"
    path.write_text(sample)
    assert main(["score", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "OFF wins"
    assert "binaryon score position.txt                 # OFF wins" in section


def test_invite_finds_a_companion_started_without_a_journal(tmp_path, monkeypatch, capsys):
    from tests.live_daemon import start_daemon, stop_daemon

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("BINARYON_CONFIG", os.devnull)
    daemon, closers = start_daemon(tmp_path, journal=Path("none"))
    try:
        assert main(["invite"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("table:") and daemon.web.base_url() in out
    finally:
        stop_daemon(daemon, closers)


@pytest.mark.parametrize("how", ["typed", "menu"])
def test_a_new_game_started_inside_pauses_the_one_in_progress(tmp_path, clock, how):
    """As the command line's options do: kept whole, to be taken up again, not abandoned."""
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    try:
        d = Daemon(Config.default(), board=MockBoard(8, "switch", clock), clock=clock,
                   journal=journal)  # fmt: skip
        d.board.start(d.loop.post)
        d.loop.run_pending()
        d.board.tap(d.session.state.legal_moves()[0].cell)
        step(d, clock, 0.1)
        old = d.session.game_id
        if how == "typed":
            d.post(UserCommand("new binary"))
        else:
            d.post(ButtonEvent("menu", True))
            step(d, clock)
            d.post(ButtonEvent("confirm"))
        step(d, clock)
        assert d.session.game_id != old and d.message.endswith(f"; #{old} paused")
        assert {g.id: g.status for g in journal.games()}[old] == "paused"
    finally:
        journal.close()


def test_the_firmware_dry_run_says_mpremote_is_missing(capsys, monkeypatch):
    from companion.cli import firmware as fw_cli

    monkeypatch.setattr(fw_cli, "mpremote_program", lambda: None)
    monkeypatch.setenv("BINARYON_CONFIG", os.devnull)
    assert main(["firmware", "install", "--dry-run", "--port", "/dev/null"]) == 0
    out = capsys.readouterr().out
    assert "(dry run) mpremote is missing: pip install 'binaryon-companion[firmware]'" in out
    assert "the steps would be:" in out


def test_a_bye_is_named_as_a_bye_not_as_a_table_with_no_board():
    from companion.club.event.spec import parse_event
    from companion.club.event.tournament import Tournament

    event = parse_event(
        'name = "Three"\ngame = "binaryon"\nplayers = ["Ann", "Bob", "Cy"]\nrounds = 3\n'
        'pairing = "round-robin"\nboards = ["t1"]\n'
    )
    games = Tournament(event).pair_next()
    assert [g.pairing for g in games] == ["r1-t1", "r1-bye"]
    assert [g.board for g in games] == ["t1", None]


def test_a_second_companion_on_one_journal_is_told_to_use_its_own(tmp_path, capsys):
    """Two simulated boards on one machine: the second is refused in one line that names the
    first by its whole command line and says each needs a journal."""
    import subprocess
    import sys

    path = tmp_path / "j.sqlite"
    holding = (
        "import sys, time\n"
        "from companion.journal.files import acquire_lock\n"
        "acquire_lock(sys.argv[1])\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    first = subprocess.Popen(
        [sys.executable, "-c", holding, str(path), "--club", "mqtt://127.0.0.1:1883",
         "--board-name", "t1"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert first.stdout.readline().strip() == "held"
        code = main(["sim", "--journal", str(path), "--display", "none", "--board-name", "t2",
                     "--club", "mqtt://127.0.0.1:1883"])  # fmt: skip
        err = capsys.readouterr().err.strip()
        assert code == 2 and "\n" not in err
        assert f"in use by process {first.pid} (" in err
        assert "--board-name t1)" in err  # the whole command line, not its first two words
        assert err.endswith("need a journal each: --journal FILE (or --journal none)")
    finally:
        first.kill()
        first.wait()
        first.stdout.close()


def test_a_terminal_that_drops_the_colours_still_shows_binarys_empty_squares():
    """A terminal that takes the escapes but shows no colour: the squares are still there."""
    import re

    spec = get_spec("binary")
    state = spec.new(**spec.resolve({}))
    coloured = board_lines(spec.leds(state), 8, colour=True, pieces=[""] * 64)
    seen = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured[:8]]
    assert all(line[3:].replace(" ", "") in ("-.-.-.-.", ".-.-.-.-") for line in seen), seen


def test_a_page_cannot_take_back_the_winners_move_after_a_flag(tmp_path):
    """The flag is the arbiter's, taken back with undo on the board: a page's request would
    take back the move of the player whose time had not run out."""
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    press_move(d, clock)
    step(d, clock, 31)
    verdict = d.referee.ask_undo("off")
    assert verdict.refusal.code == "flag-fell" and len(d.session.played) == 1
    assert verdict.refusal.reason == "a flag is taken back with undo on the board"


def test_a_new_game_is_said_by_the_games_name(make_daemon, clock):
    d = make_daemon()
    d.post(UserCommand("new latent-binaries"))
    step(d, clock)
    assert d.message == "new game: latent binaries"
