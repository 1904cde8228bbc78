"""``binaryon binome resolve``: JSON answers and one-line refusals (status 2)."""

from __future__ import annotations

import json

import pytest

from companion.games.binome.deck import builtin_deck
from companion.games.binome.resolve_cli import main

EXAMPLE = ["Eustache=22", "Algernon=88", "Balthazar=88", "Cornelia=44"]


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


def test_the_example_turn_as_json(capsys):
    got = run_json(capsys, ["resolve", "identical-digits", *EXAMPLE, "--json"])
    assert got == {
        "postulate": "identical-digits",
        "winners": ["Cornelia"],
        "eliminated": {"Eustache": "beaten", "Algernon": "identical", "Balthazar": "identical"},
        "points": {"Eustache": 0, "Algernon": 0, "Balthazar": 0, "Cornelia": 4},
    }


def test_text_output_explains(capsys):
    assert main(["resolve", "identical-digits", *EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert out == "identical-digits: 44 wins: 88 and 88 cancelled; 22 lower\nCornelia +4\n"


def test_variants(capsys):
    claims = ["A=50", "B=50", "C=01", "D=60"]
    boat = run_json(capsys, ["resolve", "max-number", *claims, "--variant", "same-boat", "--json"])
    assert boat["winners"] == ["D", "C"]
    assert boat["points"] == {"A": 0, "B": 0, "C": 4, "D": 4}  # X = 4 claimants
    royale = run_json(
        capsys, ["resolve", "max-number", *claims, "--variant", "battle-royale", "--json"]
    )
    assert royale["winners"] == ["D"] and royale["points"]["D"] == 5
    both = run_json(
        capsys,
        ["resolve", "max-number", *claims, "--variant", "same-boat",
         "--variant", "battle-royale", "--json"],
    )  # fmt: skip
    assert both["points"] == {"A": 0, "B": 0, "C": 5, "D": 5}


def test_deck_file_changes_the_points(capsys, tmp_path):
    text = builtin_deck().text().replace("identical-digits=4", "identical-digits=9")
    body = "[cards]\n" + "\n".join(
        f'{k} = "{v}"' if v == "X" else f"{k} = {v}"
        for k, v in (item.split("=") for item in text.split(","))
    )
    deck = tmp_path / "deck.toml"
    deck.write_text(body)
    got = run_json(capsys, ["resolve", "identical-digits", "A=11", "--deck", str(deck), "--json"])
    assert got["points"] == {"A": 9}


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["resolve", "max-number", "A=5"], "A: '5': a number is exactly two digits (e.g. 05)"),
        (["resolve", "max-number", "A=005"], "two digits"),
        (["resolve", "max-number", "A=x5"], "two digits"),
        (["resolve", "max-number", "A=-5"], "two digits"),
        (["resolve", "max-numbers", "A=05"], "unknown postulate 'max-numbers'"),
        (["resolve", "max-number", "A=05", "A=06"], "A: named twice"),
        (["resolve", "max-number", "05"], "expected NAME=NN"),
        (["resolve", "max-number", "=05"], "expected NAME=NN"),
        (["resolve", "max-number"], "required"),
        (["resolve", "max-number", "A=05", "--variant", "royale"], "invalid choice"),
        (["resolve", "max-number", "A=05", "--deck", "/no/such/deck.toml"], "cannot read"),
        ([], "required"),
        (["shuffle"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, reason):
    assert reason in run_error(capsys, argv)


def test_bad_deck_file_is_one_line(capsys, tmp_path):
    deck = tmp_path / "bad.toml"
    deck.write_text("[cards]\nidentical-digits = 4\n")
    err = run_error(capsys, ["resolve", "max-number", "A=05", "--deck", str(deck)])
    assert err == f"binaryon: {deck}: missing card 'divisible-by-10'"


def test_add_arguments_and_run_fit_a_plain_subcommand_parser(capsys):
    """The shape companion's COMMANDS table expects: add_arguments(parser), run(args)."""
    import argparse

    from companion.games.binome import resolve_cli

    top = argparse.ArgumentParser(prog="binaryon")
    sub = top.add_subparsers(dest="command")
    resolve_cli.add_arguments(sub.add_parser("binome"))
    args = top.parse_args(["binome", "resolve", "contains-5", "A=05", "B=50", "--json"])
    assert resolve_cli.run(args) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["B"]
    args = top.parse_args(["binome", "resolve", "contains-5", "A=5"])
    assert resolve_cli.run(args) == 2
    assert capsys.readouterr().err.count("\n") == 1
