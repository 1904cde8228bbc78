"""The simulator as a person uses it: typed lines in, OLED + board + status out (a legend,
the score, a refused square flagged, the OLED as text on a small terminal); Binøme's sheet
and Latent Binaries' nests and markers in the terminal."""

import io
import os
import random
import subprocess
import sys

import pytest

from companion.core.config import Config
from companion.games import get_spec
from companion.records.read import parse_record
from companion.service.daemon import Daemon
from companion.service.simulator import Simulator
from tests.conftest import step


def run_cli(args, lines, tmp_path, timeout=60):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), NO_COLOR="1", SDL_VIDEODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "companion.cli.main", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def status_lines(out):
    return [s for s in out.splitlines() if s.startswith(("moves:", "turn:"))]


def test_sim_plays_and_refuses(tmp_path):
    r = run_cli(["sim", "--journal", "none"], ["e5", "d4", "f5", "zz9", "quit"], tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "moves: e5 d4" in out
    assert "turn: ON | f5: not in line with d4" in out
    assert "zz9: not a square" in out
    assert "⠀" in out or "⣿" in out  # the OLED is drawn in Braille
    assert " a  b  c  d  e  f  g  h" in out


def test_run_without_a_board_plays_on_the_simulated_board(tmp_path):
    r = run_cli(["run"], ["e5", "quit"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "moves: e5" in r.stdout
    assert "simulated board" in r.stderr


def test_sim_on_a_colour_board(tmp_path):
    # typing a square turns its disc; the move counts once the board has settled
    r = run_cli(["sim", "--kind", "polarity", "--journal", "none"], ["e5", "quit"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "moves: e5" in r.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["sim", "--game", "chess"], "--game 'chess' is not one of binaryon"),
        (["sim", "--rule", "first=maybe"], "first"),
        (["sim", "--rule", "nonsense"], "expected NAME=VALUE"),
        (["run", "--config", "/nonexistent.toml"], "no such config file"),
    ],
)
def test_bad_options_give_one_line(tmp_path, args, words):
    r = run_cli(args, [], tmp_path)
    assert r.returncode == 2
    assert words in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_piped_game_with_a_hundred_undo_redo_pairs_is_recorded_exactly(tmp_path):
    """Typed lines arrive as fast as a pipe gives them: every one is one whole press, handled
    before the next line is read, so the record holds exactly the game typed."""

    new_game = get_spec("binaryon").new

    rng = random.Random(7)
    state, moves, lines, pairs = new_game(), [], [], 0
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        name = move.name
        state = state.play(move)
        moves.append(name)
        if name == "pass":
            continue  # the referee plays passes by itself
        lines.append(name)
        while pairs < 100 and (pairs < 3 * len(lines)):
            lines += ["undo", name]  # take the move back and play it again, same square
            pairs += 1
    assert pairs == 100
    journal = tmp_path / "j.sqlite"
    r = run_cli(["sim", "--journal", str(journal)], [*lines, "quit"], tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr
    record = run_cli(["export", "last", "--journal", str(journal)], [], tmp_path)
    assert record.returncode == 0, record.stderr

    assert parse_record(record.stdout).moves == moves
    assert record.stdout.count("{taken back: ") == 100  # each undo stays in the record


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


def test_a_terminal_without_colour_shows_latent_binaries_nests_and_markers(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "latent-binaries")
    shown = typed(s, out, "show")
    view = d.session.spec.view(d.session.state)
    tokens = {c.piece for c in view.cells if c.piece}
    assert tokens  # nests and markers
    board = [line for line in shown.splitlines() if line[:2].strip().isdigit()]
    for token in tokens:
        assert any(f" {token} " in line for line in board), token


def sim_output(make_daemon, clock, game, typed, rows=None, colour=False):
    d = make_daemon(game=game)
    out = io.StringIO()
    sim = Simulator(d, d.board, out=out, colour=colour)
    sim.settle = lambda timeout=10.0: step(d, clock, 1.0)  # type: ignore[method-assign]
    if rows is not None:
        sim.rows = lambda: rows  # type: ignore[method-assign]
    step(d, clock)
    for line in typed:
        sim.handle_line(line)
    return d, out.getvalue()


def test_the_simulator_prints_a_legend_and_the_score(make_daemon, clock):
    _, out = sim_output(make_daemon, clock, "binary", ["c3", "c1", "show"])
    assert "x black  o white  . dark  - light square  ! refused  ? differs  * hint" in out
    assert "score: BLACK 0  WHITE 8" in out
    assert " x " in out and " o " in out


def test_a_refused_square_is_flagged_on_the_board(make_daemon, clock):
    _, out = sim_output(make_daemon, clock, "binary", ["e4"])
    assert "first piece may not go in the centre" in out
    rank4 = next(line for line in out.splitlines() if line.startswith(" 4 "))
    assert rank4[3 + 3 * 4 : 3 + 3 * 5] == " ! "  # e4


def test_a_small_terminal_gets_the_oled_as_text(make_daemon, clock):
    _, small = sim_output(make_daemon, clock, "binaryon", ["show"], rows=24)
    drawn = small.splitlines()
    assert len(drawn) <= 23  # the whole draw and the prompt fit an 80x24 terminal
    assert any("BINARYON" in line and "move 1" in line for line in drawn)
    assert not any("\u2800" <= ch <= "\u28ff" for line in drawn for ch in line)  # no bitmap
    assert drawn[-2].startswith("score: ON 11111111  OFF 11111111")
    _, tall = sim_output(make_daemon, clock, "binaryon", ["show"], rows=60)
    assert any("\u2800" <= ch <= "\u28ff" for line in tall.splitlines() for ch in line)


def simulator():
    cfg = Config.default().with_overrides(board={"driver": "mock"})
    daemon = Daemon(cfg)
    daemon.start()
    out = io.StringIO()
    return daemon, Simulator(daemon, daemon.board, out=out, colour=False), out


def test_the_same_square_on_consecutive_lines_is_refused_as_the_same_square():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("e5\nd4\nd4\n"))
        assert daemon.session.moves == ["e5", "d4"]
        assert daemon.message == "d4: same square as last"  # not swallowed by the debounce
    finally:
        daemon.stop()


def test_new_game_typed_while_the_menu_is_open_closes_the_menu():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("e5\nmenu long\nnew binary\nc3\nconfirm\n"))
        assert not daemon.menu.is_open
        assert daemon.session.game == "binary"
        assert daemon.session.moves == ["c3"]  # presses count again; confirm did not abandon
    finally:
        daemon.stop()


def test_extra_words_after_a_button_are_refused_not_dropped():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("menu x\n"))
        assert daemon.message == "menu: only 'long' may follow"
        assert not daemon.menu.is_open
    finally:
        daemon.stop()
