"""The score, lines and legal commands, run through companion.cli.main."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli.main import main
from tests.positions import BINARYON_START as SEED_DIAGRAM

# Fig. 1 of the rules sheet, as posted (rank labels after the rows, file letters below).

# Only e4 white: OFF wins with a1-h1; ON's best is the reflected line from e4.
ONE_WHITE = "\n".join(["xxxxxxxx"] * 4 + ["xxxxoxxx"] + ["xxxxxxxx"] * 3) + "\n"


@pytest.fixture
def start_file(tmp_path):
    p = tmp_path / "start.txt"
    p.write_text(SEED_DIAGRAM)
    return str(p)


def run_json(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def run_error(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("binaryon: ") and err.count("\n") == 1
    return err.strip()


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
        SEED_DIAGRAM.replace(
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
