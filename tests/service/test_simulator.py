"""The simulator as a person uses it: typed lines in, OLED + board + status out."""

import os
import subprocess
import sys

import pytest


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
    import random

    from companion.games import get_spec

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
    from companion.records.read import parse_record

    assert parse_record(record.stdout).moves == moves
    assert record.stdout.count("{taken back: ") == 100  # each undo stays in the record
