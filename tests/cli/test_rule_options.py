"""One way to give a game's rule options on the command line, ``--rule NAME=VALUE``: score,
legal and lines take it (the old per-game flags still read), names take dashes or
underscores, an unknown option is one line, and help and the README say it once.
"""

from __future__ import annotations

import json

import pytest

from companion.cli.main import main
from tests.cli.conftest import run_error, run_ok
from tests.paths import REPO

README = (REPO / "README.md").read_text()


def test_score_takes_rule_options_as_rule_name_value(capsys, start_file):
    by_rule = json.loads(
        run_ok(
            capsys,
            ["score", start_file, "--json", "--rule", "scoring=orthogonal", "--rule", "through=e4"],
        )
    )
    old_flags = json.loads(
        run_ok(
            capsys, ["score", start_file, "--json", "--scoring", "orthogonal", "--through", "e4"]
        )
    )
    plain = json.loads(run_ok(capsys, ["score", start_file, "--json"]))
    assert by_rule == old_flags  # the old flags still work
    assert by_rule != plain  # and the option did something


def test_binary_rule_names_take_dashes_or_underscores(capsys, tmp_path):
    p = tmp_path / "two.txt"
    p.write_text(". . . .\n. . . .\n. . . .\n. x . x\n")
    argv = ["score", str(p), "--game", "binary", "--json"]
    joined = json.loads(run_ok(capsys, argv))["black"]["score"]
    split = json.loads(run_ok(capsys, [*argv, "--rule", "empty_joins=false"]))["black"]["score"]
    dashed = json.loads(run_ok(capsys, [*argv, "--rule", "empty-joins=false"]))["black"]["score"]
    assert (joined, split, dashed) == (12, 11, 11)


def test_legal_takes_rule_options_as_rule_name_value(capsys, tmp_path):
    # e4 black with only 4 black neighbours: a free opening may take it, a majority one not
    p = tmp_path / "p1.txt"
    p.write_text("\n".join(["xxxxxxxx"] * 4 + ["oooxxooo"] + ["oooooooo"] * 3) + "\n")
    free = json.loads(run_ok(capsys, ["legal", str(p), "--mover", "on", "--json"]))["moves"]
    argv = ["legal", str(p), "--mover", "on", "--json", "--rule", "opening=majority"]
    majority = json.loads(run_ok(capsys, argv))["moves"]
    assert "e4" in free and "e4" not in majority


def test_lines_takes_the_size_as_a_rule_too(capsys):
    by_rule = json.loads(run_ok(capsys, ["lines", "--json", "--rule", "size=4"]))["lines"]
    assert by_rule == json.loads(run_ok(capsys, ["lines", "--json", "--size", "4"]))["lines"]
    assert len(by_rule) < len(json.loads(run_ok(capsys, ["lines", "--json"]))["lines"])


def test_an_unknown_rule_option_is_one_line(capsys, start_file):
    assert "unknown rule option" in run_error(capsys, ["score", start_file, "--rule", "stuck=end"])
    assert "expected NAME=VALUE" in run_error(capsys, ["score", start_file, "--rule", "first"])


def test_help_lists_rule_not_the_old_per_game_flags(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = capsys.readouterr().out
    assert "--rule NAME=VALUE" in out
    assert "--first" not in out and "--empty-joins" not in out


def test_the_readme_documents_rule_options_once_and_calls_no_option_a_bare_flag():
    assert "--rule NAME=VALUE" in README
    assert "`--empty-joins`" not in README and "`--stuck`" not in README
    assert "Rule options are flags" not in README
    for option in ("first", "opening", "reach", "scoring", "through", "empty_joins", "stuck"):
        assert f"`{option}`" in README
