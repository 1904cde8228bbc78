"""The score, lines and legal commands, run through companion.cli.main: their JSON and words,
stdin for a file, and positions read as people write them (a caption under a diagram, a
byte-order mark) or refused in one line that points at the problem (ragged ranks, a stray
word, a file that is not text or too big, a square with a digit that is not ASCII)."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli.main import main
from companion.core.squares import parse_square
from tests.cli.conftest import run_error, run_json, run_ok
from tests.positions import BINARY_FIG3, BINARYON_START

# Only e4 white: OFF wins with a1-h1; ON's best is the reflected line from e4.
ONE_WHITE = "\n".join(["xxxxxxxx"] * 4 + ["xxxxoxxx"] + ["xxxxxxxx"] * 3) + "\n"


def test_score_json_of_the_seed_diagram(capsys, start_file):
    assert run_json(capsys, ["score", start_file, "--json"]) == {
        "game": "binaryon",
        "on": {"best": "11111111", "line": ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]},
        "off": {"best": "11111111", "line": ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5"]},
        "winner": "draw",
    }


def test_score_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(ONE_WHITE))
    result = run_json(capsys, ["score", "-", "--json", "--game", "binaryon"])
    assert result["winner"] == "off"
    assert result["on"] == {
        "best": "10000000",
        "line": ["e4", "f5", "g6", "h7", "g8", "f7", "e6", "d5"],
    }
    assert result["off"]["line"][0] == "a1"


def test_score_rule_flags(capsys, start_file):
    result = run_json(
        capsys, ["score", start_file, "--json", "--scoring", "orthogonal", "--through", "e4"]
    )
    assert result["winner"] == "on"
    assert result["on"]["line"] == ["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"]
    assert result["off"] == {
        "best": "11110000",
        "line": ["e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"],
    }


def test_score_in_words(capsys, start_file):
    assert main(["score", start_file]) == 0
    out = capsys.readouterr().out
    assert "| x | x | x | x | x | x | x | x | 8" in out
    assert "ON  best 11111111 on a1-b1-c1-d1-e1-f1-g1-h1" in out
    assert "OFF best 11111111 on a5-b5-c5-d5-e5-f5-g5-h5" in out
    assert out.rstrip().endswith("draw")


def test_score_errors_are_one_line(capsys, tmp_path, start_file):
    assert "no such file" in run_error(capsys, ["score", str(tmp_path / "nope.txt")]).lower()
    bad = tmp_path / "bad.txt"
    bad.write_text(
        BINARYON_START.replace(
            "| o | o | o | o | o | o | o | o | 3", "| o | . | o | o | o | o | o | o | 3"
        )
    )
    assert run_error(capsys, ["score", str(bad)]) == (
        "binaryon: b3: empty (every Binaryon square holds a piece)"
    )
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("xxq\n")
    assert "not x, o or ." in run_error(capsys, ["score", str(garbled)])
    assert "through" in run_error(capsys, ["score", start_file, "--through", "k3"])
    assert "size is 6" in run_error(capsys, ["score", start_file, "--size", "6"])
    assert "unknown game" in run_error(capsys, ["score", start_file, "--game", "chess"])
    assert "scoring" in run_error(capsys, ["score", start_file, "--scoring", "diagonal"])


def test_score_flag_of_another_game_is_refused_for_binaryon(capsys, start_file):
    from companion.cli.rule_args import game_options
    from companion.games import game_names

    foreign = [o.name for o in game_options(game_names()) if o.name not in {
        "first", "opening", "reach", "size", "scoring", "through"}]  # fmt: skip
    if not foreign:
        pytest.skip("no other game with its own options is registered yet")
    err = run_error(capsys, ["score", start_file, f"--{foreign[0]}", "x"])
    assert "unknown rule option" in err


def test_lines_json(capsys):
    lines = run_json(capsys, ["lines", "--json"])["lines"]
    assert len(lines) == 204
    assert ["d8", "c7", "b6", "a5", "b4", "c3", "d2", "e1"] in lines
    assert ["e1", "d2", "c3", "b4", "a5", "b6", "c7", "d8"] in lines
    assert ["c5", "d6", "e7", "f8", "g7", "h6", "g5", "f4"] in lines
    assert lines[0] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    small = run_json(capsys, ["lines", "--json", "--size", "4"])["lines"]
    assert len(small) == 44 and ["a2", "b3", "c4", "d3"] in small


def test_lines_text_and_bad_size(capsys):
    assert main(["lines", "--size", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a1-b1-c1-d1" and out[-1] == "44 lines on 4x4"
    assert "odd" in run_error(capsys, ["lines", "--size", "7"])


def test_legal_json(capsys, start_file):
    # The start position with d4 as the last square: OFF turns white pieces in line with d4.
    moves = run_json(capsys, ["legal", start_file, "--mover", "off", "--last", "d4", "--json"])
    names = moves["moves"]
    assert "d4" not in names and "d3" in names and "h4" in names
    assert all(int(n[1]) <= 4 for n in names)  # white pieces only
    # the opening is free by default: every black piece
    opening = run_json(capsys, ["legal", start_file, "--mover", "on", "--json"])["moves"]
    assert len(opening) == 32 and opening[0] == "a5" and opening[-1] == "h8"


def test_legal_hand_worked(capsys, tmp_path):
    # e4 black with 4 black neighbours; d4 black; last e8. ON may not take e4 (4 of 8) nor
    # d4 (not in line with e8); e5 (column e, 7 black neighbours) is legal.
    text = "\n".join(["xxxxxxxx"] * 4 + ["oooxxooo"] + ["oooooooo"] * 3) + "\n"
    p = tmp_path / "p1.txt"
    p.write_text(text)
    moves = run_json(capsys, ["legal", str(p), "--mover", "on", "--last", "e8", "--json"])
    names = moves["moves"]
    assert "e4" not in names and "d4" not in names and "e5" in names
    maj = run_json(capsys, ["legal", str(p), "--mover", "on", "--opening", "majority", "--json"])
    assert "e4" not in maj["moves"] and "d4" not in maj["moves"]
    free = run_json(capsys, ["legal", str(p), "--mover", "on", "--json"])
    assert "e4" in free["moves"] and "d4" in free["moves"]


def test_legal_from_stdin_and_errors(capsys, monkeypatch, start_file):
    monkeypatch.setattr("sys.stdin", io.StringIO("o" * 8 + "\n" + ("o" * 8 + "\n") * 7))
    assert run_json(capsys, ["legal", "-", "--mover", "on", "--last", "a1", "--json"]) == {
        "moves": []
    }
    assert "not a square" in run_error(
        capsys, ["legal", start_file, "--mover", "on", "--last", "zz"]
    )
    assert "reach" in run_error(capsys, ["legal", start_file, "--mover", "on", "--reach", "far"])


def test_legal_from_stdin(capsys, monkeypatch, start_file):
    from_file = run_ok(capsys, ["legal", start_file, "--mover", "on", "--json"])
    monkeypatch.setattr("sys.stdin", io.StringIO(BINARYON_START))
    assert run_ok(capsys, ["legal", "-", "--mover", "on", "--json"]) == from_file


def test_ragged_ranks_are_named_not_taken_for_a_board_size(capsys, tmp_path):
    p = tmp_path / "ragged.txt"
    p.write_text("x x o\nx o\n")
    err = run_error(capsys, ["score", str(p)])
    assert "line 2 has 2 squares but line 1 has 3" in err
    assert "board size" not in err


def test_a_caption_under_a_diagram_is_ignored(capsys, tmp_path, start_file):
    p = tmp_path / "captioned.txt"
    p.write_text("Fig. 1: the start\n\n" + BINARYON_START + "\nNote: both sides draw 11111111.\n")
    plain = run_ok(capsys, ["score", start_file, "--json"])
    assert run_ok(capsys, ["score", str(p), "--json"]) == plain
    binary = tmp_path / "fig3.txt"
    binary.write_text("Figure 3\n" + BINARY_FIG3 + "Black wins 49-42\n")
    out = json.loads(run_ok(capsys, ["score", str(binary), "--game", "binary", "--json"]))
    assert out["black"]["score"] == 49 and out["white"]["score"] == 42


def test_text_inside_the_diagram_is_still_an_error(capsys, tmp_path):
    rows = BINARYON_START.splitlines()
    p = tmp_path / "broken.txt"
    p.write_text("\n".join([*rows[:3], "Now the middle", *rows[3:]]) + "\n")
    assert "line 4: 'N' is not x, o or ." in run_error(capsys, ["score", str(p)])
    typo = tmp_path / "typo.txt"  # a rank with a typo is a rank, not a caption
    typo.write_text(
        BINARYON_START.replace("| x | x | x | x | x | x | x | x | 8", "x x y x x x x x")
    )
    assert "line 1: 'y' is not x, o or ." in run_error(capsys, ["score", str(typo)])


@pytest.mark.parametrize("text", ["e²", "d⁴", "e٣", "e３", "a¹⁰"])
def test_a_square_takes_ascii_digits_only(text):
    with pytest.raises(ValueError) as e:
        parse_square(text)
    assert str(e.value) == f"{text}: not a square"


def test_legal_last_with_a_superscript_digit_says_not_a_square(capsys, tmp_path):
    p = tmp_path / "start.txt"
    p.write_text(BINARYON_START)
    base = ["legal", str(p), "--mover", "off"]
    assert run_error(capsys, [*base, "--last", "e²"]) == "binaryon: --last e²: not a square"
    assert run_error(capsys, [*base, "--last", "e٣"]) == "binaryon: --last e٣: not a square"
    assert main([*base, "--last", "e5", "--json"]) == 0  # an ordinary square still works


def test_a_position_with_a_byte_order_mark_is_read(capsys, tmp_path, monkeypatch):
    plain = tmp_path / "plain.txt"
    plain.write_text(BINARYON_START)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + BINARYON_START.encode())
    assert main(["score", str(plain), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["score", str(bom), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + BINARYON_START))
    assert main(["legal", "-", "--mover", "on", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["moves"]) == 32


def test_a_position_file_that_is_not_text_or_too_big_is_one_line(capsys, tmp_path):
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert "not a text file" in run_error(capsys, ["score", str(binary)])
    big = tmp_path / "big.txt"
    big.write_bytes(b"." * (2 << 20))
    assert "more than 1024 KiB" in run_error(capsys, ["score", str(big)])
    assert "is a folder" in run_error(capsys, ["score", str(tmp_path)])
