"""``legal --record`` and ``score --record`` for every game that has records, and
``legal --game latent-binaries`` on a public position."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli.main import main
from tests.cli.conftest import RECORD, run_error, run_ok

WYTHE = """[Game "wythe"]
[Options "size=4 pie=true"]

1. a1-a2 swap
2. b1-b2
"""

BINARYON = """[Game "binaryon"]
[Options "size=4"]

1. b3 b2
"""

LATENT = """\
.gg..
..X..
.X...
.....
...R.
.R.R.
..gg.
"""


def run(capsys, *args, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_after_a_wythe_record(capsys, tmp_path):
    path = tmp_path / "w.txt"
    path.write_text(WYTHE)
    code, out, _ = run(capsys, "legal", "--record", str(path), "--json")
    moves = json.loads(out)["moves"]
    assert code == 0 and "c1-d1" in moves and "swap" not in moves and "pass" not in moves
    assert all("-" in m for m in moves)


def test_score_of_a_wythe_record_in_json_and_words(capsys, tmp_path, monkeypatch):
    path = tmp_path / "w.txt"
    path.write_text(WYTHE)
    code, out, _ = run(capsys, "score", "--record", str(path), "--json")
    result = json.loads(out)
    assert (
        code == 0
        and result["game"] == "wythe"
        and set(result) == {"game", "black", "white", "winner"}
    )
    code, out, _ = run(capsys, "score", "--record", "-", stdin=WYTHE, monkeypatch=monkeypatch)
    assert code == 0 and "group of 2" in out


def test_legal_after_a_binaryon_record_matches_the_engine(capsys, tmp_path):
    from companion.games import get_spec

    path = tmp_path / "b.txt"
    path.write_text(BINARYON)
    code, out, _ = run(capsys, "legal", "--record", str(path), "--json")
    spec = get_spec("binaryon")
    state = spec.new(**spec.resolve({"size": 4}))
    for m in ("b3", "b2"):
        state = state.play(state.parse_move(m))
    assert code == 0
    assert json.loads(out)["moves"] == [m.name for m in state.legal_moves()]


def test_legal_on_a_latent_binaries_position(capsys, tmp_path):
    path = tmp_path / "l.txt"
    path.write_text(LATENT)
    code, out, _ = run(capsys, "legal", "--game", "latent-binaries", str(path), "--mover",
                       "rainbow", "--json")  # fmt: skip
    result = json.loads(out)
    assert code == 0 and set(result) == {"moves", "winning"}
    assert result["moves"] and set(result["winning"]) <= set(result["moves"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["legal", "--game", "latent-binaries", "-", "--mover", "on"], "--mover rainbow"),
        (["legal", "--game", "wythe", "x.txt", "--mover", "on"], "use --record for wythe"),
        (["legal", "--record", "/nonexistent.txt"], "cannot read"),
    ],
)
def test_bad_legal_requests_are_one_line(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_an_illegal_wythe_record_is_refused_naming_line_move_and_rule(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Game "wythe"]\n[Options "size=4 pie=false"]\n\n1. a1-a2 b1-b2\n2. a1-b1\n')
    code, _, err = run(capsys, "import", str(path), "--journal", str(tmp_path / "j.sqlite"))
    assert code == 2
    assert f"{path}:5:4: move 3 a1-b1 breaks the " in err and "rule" in err


def test_an_exported_wythe_game_with_a_swap_says_who_plays_which_colour(capsys, tmp_path):
    from companion.games import get_spec
    from companion.journal.store import SqliteJournal

    spec = get_spec("wythe")
    state = spec.new(**spec.resolve({"size": 4}))
    names, rng = [], __import__("random").Random(3)
    state = state.play(state.parse_move("a1-a2"))
    names.append("a1-a2")
    state = state.play(state.parse_move("swap"))
    names.append("swap")
    while not state.is_over():
        move = state.forced_move() or rng.choice(state.legal_moves())
        names.append(move.name)
        state = state.play(move)
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        j.import_game(
            "wythe", spec.resolve({"size": 4}), {"black": "Ana", "white": "Ben"},
            [(n, None) for n in names], started=None, ended=None, status="finished",
            outcome=state.outcome(),
        )  # fmt: skip
    code, out, _ = run(capsys, "export", "last", "--journal", str(path))
    assert code == 0 and '[Swap "' in out and "Ana" in out.split('[Swap "')[1].split("\n")[0]


def test_score_record_refuses_a_game_that_is_not_the_records(capsys, record_file):
    err = run_error(capsys, ["score", "--record", record_file, "--game", "binary"])
    assert err == f"binaryon: --game binary, but {record_file} is a binaryon game"
    assert json.loads(run_ok(capsys, ["score", "--record", record_file, "--json"]))["game"] == (
        "binaryon"
    )
    assert run_ok(capsys, ["score", "--record", record_file, "--game", "binaryon", "--json"])


def test_score_record_from_stdin(capsys, monkeypatch, record_file):
    from_file = run_ok(capsys, ["score", "--record", record_file, "--json"])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RECORD.encode())))
    assert run_ok(capsys, ["score", "--record", "-", "--json"]) == from_file


def test_a_record_move_with_a_superscript_digit_is_one_line(capsys, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(RECORD.replace("2. e5 e1", "2. e5 d⁴"))
    err = run_error(capsys, ["score", "--record", str(p)])
    assert "d⁴" in err and "not a square" in err
