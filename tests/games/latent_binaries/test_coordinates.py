"""One coordinate system in Latent Binaries: the frame's own squares (files a-e, ranks 1-7)
wherever a player reads or types one, though the frame sits on the board's files b-f."""

from __future__ import annotations

import re

from companion.core.squares import parse_square
from companion.games import get_spec
from companion.sensing.board_sync import BoardMap
from tests.service.test_simulator import run_cli, status_lines

SETUPS = [
    "move setup b2 red/yellow as rainbow", "move setup b6 cyan/magenta as xeno",
    "move setup c2 green/blue as rainbow", "move setup c6 orange/purple as xeno",
    "move setup d2 red/green as rainbow", "move setup d6 cyan/orange as xeno",
]  # fmt: skip


def sim(lines, tmp_path, kind="switch"):
    args = ["sim", "--game", "latent-binaries", "--journal", "none", "--kind", kind]
    r = run_cli(args, [*lines, "quit"], tmp_path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_squares_a_hint_names_are_the_squares_you_type(tmp_path):
    out = sim([*SETUPS, "menu", "c2", "c3", "f2"], tmp_path)
    hint = re.search(r"can move: ([a-e][1-7](?: [a-e][1-7])*)", out)
    assert hint and "c2" in hint.group(1).split(), out[-2000:]
    moves = [s for s in status_lines(out) if s.startswith("moves:")]
    assert moves[-1].endswith("setup d6 c2-c3")  # c2 is the nest the hint named
    assert "f2: not a square of this game (a1..e7)" in out  # the board's f2 is the frame's e2
    assert "       a  b  c  d  e       " in out  # the drawing labels the frame's files


def test_a_sensor_boards_fix_line_names_the_frames_squares():
    spec = get_spec("latent-binaries")
    board = BoardMap(8, "presence", spec.layout(spec.resolve({})))
    assert board.fix_hint([parse_square("d2")]) == "fix c2"
    assert board.fix_hint([parse_square("a8"), parse_square("b1")]) == "fix a1, 1 off the game"
    assert board.square_named("c2") == parse_square("d2")
