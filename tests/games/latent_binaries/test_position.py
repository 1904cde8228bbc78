"""Latent Binaries public positions and the ``legal`` function of the CLI."""

from __future__ import annotations

import io
import json

import pytest

from companion.games import get_spec
from companion.games.latent_binaries.position import (
    PositionError,
    format_position,
    legal,
    parse_position,
    position_of,
)
from tests.paths import REPO

new_game = get_spec("latent-binaries").new


def legal_main(argv):
    """``binaryon legal --game latent-binaries ...`` through the real command line."""
    from companion.cli.main import main

    return main(["legal", *([] if "--game" in argv else ["--game", "latent-binaries"]), *argv])


START = """\
..gg.
.XXX.
.....
.....
.....
.RRR.
.gg..
"""


def started():
    s = new_game()
    for name in ("setup b2 red/yellow", "setup c2 green/blue", "setup d2 red/green"):
        s = s.play(s.parse_move(name))
    for name in ("setup b6 cyan/magenta", "setup c6 orange/purple", "setup d6 cyan/orange"):
        s = s.play(s.parse_move(name))
    return s


def test_the_start_position_round_trips():
    pos = position_of(started())
    assert format_position(pos) == START
    assert parse_position(START) == pos
    assert legal(pos, "rainbow") == {
        "moves": ["b2-a2", "b2-b3", "c2-c3", "d2-e2", "d2-d3"],
        "winning": [],
    }
    assert legal(pos, "xeno")["moves"] == ["b6-b5", "b6-a6", "c6-c5", "d6-d5", "d6-e6"]


def test_labels_bars_comments_and_blank_lines_are_ignored():
    text = "# a position\n" + "".join(
        f"| {' | '.join(row)} | {7 - i}\n\n" for i, row in enumerate(START.split())
    )
    text += "  a   b   c   d   e\n"
    assert parse_position(text) == parse_position(START)


def test_winning_moves_are_listed():
    # Rainbow on c4 facing Xeno's c6, Xeno's base a7-b7.
    text = "gg...\n..X..\n.....\n..R..\n.....\n.....\n...gg\n"
    result = legal(parse_position(text), "rainbow")
    assert result["moves"] == ["c4-c3", "c4-b4", "c4-d4", "c4-c5"]
    # b4 sees b7 up the file; d4 sees a7 past c5 and b6; c5 sees a7 past b6.
    assert result["winning"] == ["c4-b4", "c4-d4", "c4-c5"]
    assert legal(parse_position(text), "xeno") == {
        "moves": ["c6-c5", "c6-b6", "c6-d6"],
        "winning": ["c6-d6"],  # d6 sees d1, a marker of Rainbow's base d1-e1
    }


def test_a_boxed_in_mover_passes_and_a_mover_without_nests_has_nothing():
    text = "..gg.\n.....\n.....\n.....\nX....\nRX...\n.gg..\n"
    pos = parse_position(text)
    assert legal(pos, "rainbow") == {"moves": ["pass"], "winning": []}
    assert legal(parse_position(text.replace("R", ".")), "rainbow") == {"moves": [], "winning": []}


@pytest.mark.parametrize(
    "text, message",
    [
        (START.replace(".gg..\n", ""), "expected 7 ranks, found 6"),
        (START + ".....\n", "expected 7 ranks, found 8"),
        (START.replace(".XXX.", ".XXX"), "rank 6 has 4 squares, expected 5"),
        (START.replace(".XXX.", ".XXQ."), "line 2: 'Q' is not R, X, g or ."),
        (START.replace(".RRR.", "gRRR."), "a2: marker off the goal rows"),
        (START.replace(".gg..", "Rgg.."), "a1: nest on a goal row"),
        (START.replace(".gg..", "ggg.."), "rank 1: 3 markers, expected 2"),
        (START.replace("..gg.", "..g.."), "rank 7: 1 markers, expected 2"),
        (START.replace("..gg.", "g.g.."), "rank 7: markers a7 and c7 not adjacent"),
        ("", "expected 7 ranks, found 0"),
    ],
)
def test_bad_positions_are_refused_with_one_line(text, message):
    with pytest.raises(PositionError) as exc:
        parse_position(text)
    assert str(exc.value) == message


def test_legal_main_prints_json(tmp_path, capsys):
    path = tmp_path / "start.txt"
    path.write_text(START)
    argv = ["--game", "latent-binaries", str(path), "--mover", "xeno", "--json"]
    assert legal_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == legal(parse_position(START), "xeno")


def test_legal_main_reads_stdin_and_prints_text(monkeypatch, capsys):
    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(io.BytesIO(b"gg...\n..X..\n.....\n..R..\n.....\n.....\n...gg\n")),
    )
    assert legal_main(["-", "--mover", "rainbow"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["c4-c3 c4-b4 c4-d4 c4-c5", "winning: c4-b4 c4-d4 c4-c5"]


def test_legal_main_refuses_bad_input_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(START.replace(".gg..", "Rgg.."))
    assert legal_main([str(bad), "--mover", "rainbow", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "binaryon: a1: nest on a goal row\n"
    assert legal_main([str(tmp_path / "missing.txt"), "--mover", "xeno"]) == 2
    assert capsys.readouterr().err.startswith("binaryon: cannot read")
    assert legal_main([str(bad), "--mover", "blue"]) == 2  # not a Latent Binaries player


def test_the_documented_example_is_the_start_position():
    doc = (REPO / "docs/rules/latent-binaries.md").read_text()
    example = doc.split("```")[-2]
    assert parse_position(example) == parse_position(START)
