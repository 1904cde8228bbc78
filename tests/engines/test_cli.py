"""``binaryon bestmove``, ``solve`` and ``match``: JSON shapes and one-line refusals."""

from __future__ import annotations

import json

import pytest

from companion.cli.main import main

START_4 = "xxxx\nxxxx\noooo\noooo\n"


def _run(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_bestmove_json_shape(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(START_4)
    code, out, err = _run(["bestmove", str(path), "--mover", "on", "--time", "0.3", "--json"],
                          capsys)  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert {"move", "value", "line"} <= data.keys()
    assert data["line"][0] == data["move"]
    assert data["move"] in {f"{f}{r}" for f in "abcd" for r in "34"}  # ON turns a black piece


def test_bestmove_reads_stdin_and_last(capsys, monkeypatch):
    argv = ["bestmove", "-", "--mover", "off", "--last", "b3", "--time", "0.2", "--json"]
    code, out, _ = _run(argv, capsys, "xxxx\nxoxx\noooo\noooo\n", monkeypatch)
    assert code == 0
    assert json.loads(out)["move"] in {"pass", "a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2",
                                       "b3"}  # fmt: skip


def test_bestmove_without_a_legal_move_passes(capsys, monkeypatch):
    # OFF turns white pieces; the only white piece has no white neighbour: no move
    board = "xxxx\nxxxx\nxxxx\noxxx\n"
    argv = ["bestmove", "-", "--mover", "off", "--last", "d4", "--json"]
    code, out, _ = _run(argv, capsys, board, monkeypatch)
    assert code == 0
    assert json.loads(out)["move"] == "pass"


@pytest.mark.parametrize(
    ("board", "extra", "needle"),
    [
        ("xxxx\nxxxx\noooo\nooo.\n", [], "empty"),
        ("xxxx\nxxxx\noooo\n", [], "board"),
        (START_4, ["--last", "z9"], "not a square"),
        (START_4, ["--mover", "black"], "on or off"),
        (START_4, ["--game", "wythe"], "binaryon or binary"),
        (START_4, ["--time", "0"], "--time"),
    ],
)
def test_bestmove_refuses_bad_input_in_one_line(board, extra, needle, capsys, monkeypatch):
    argv = ["bestmove", "-", "--json", *extra]
    if "--mover" not in extra:
        argv += ["--mover", "on"]
    code, out, err = _run(argv, capsys, board, monkeypatch)
    assert code == 2
    assert out == ""
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bestmove_for_binary(capsys, monkeypatch):
    argv = ["bestmove", "-", "--game", "binary", "--mover", "white", "--time", "0.2", "--json"]
    code, out, _ = _run(argv, capsys, "....\n....\n....\nx...\n", monkeypatch)
    assert code == 0
    assert json.loads(out)["move"] not in ("a1", "pass")


def test_solve_4x4_json(capsys):
    code, out, _ = _run(["solve", "--game", "binaryon", "--size", "4", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["result"] == "draw"  # brute-force minimax agrees (tests/engines/test_engines.py)
    assert data["line"][-2:] == ["pass", "pass"]
    assert data["winner"] is None


def test_solve_refuses_a_game_without_engine(capsys):
    code, _, err = _run(["solve", "--game", "binome"], capsys)
    assert code == 2
    assert "no engine" in err


def test_match_json_shape(capsys):
    argv = ["match", "greedy", "random", "--size", "4", "--games", "4", "--json"]
    code, out, _ = _run(argv, capsys)
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 4 == data["wins"] + data["draws"] + data["losses"]
    assert set(data["by_colour"]) == {"on", "off"}
    assert all(sum(c.values()) == 2 for c in data["by_colour"].values())
    assert data["elo"] is not None or data["elo_bound"]


def test_match_is_seeded(capsys):
    argv = ["match", "random", "random", "--size", "4", "--games", "6", "--seed", "3", "--json"]
    first = _run(argv, capsys)[1]
    assert _run(argv, capsys)[1] == first


def test_match_with_an_engine_on_each_game(capsys):
    for game in ("binaryon", "binary", "wythe"):
        argv = ["match", "engine:beginner", "random", "--game", game, "--size", "4",
                "--games", "2", "--time", "0.05", "--json"]  # fmt: skip
        code, out, _ = _run(argv, capsys)
        assert code == 0
        assert json.loads(out)["game"] == game


@pytest.mark.parametrize("player", ["engine:best", "human", "greedy:2"])
def test_match_refuses_unknown_players(player, capsys):
    code, out, err = _run(["match", player, "random", "--json"], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


def test_solve_gives_up_past_its_node_budget(capsys):
    code, out, err = _run(["solve", "--size", "6", "--max-nodes", "500", "--json"], capsys)
    assert code == 3
    assert out == ""
    assert "not solved within 500 nodes" in err
