"""The Binøme deck file: the shipped values, and one-line refusals of bad files (not a regular
file, a FIFO, /dev/zero, too large: refused at once in bounded memory)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from importlib import resources

import pytest

from companion.games.binome.deck import (
    DeckError,
    builtin_deck,
    load_deck,
    parse_deck_text,
    parse_deck_toml,
)
from companion.games.binome.options import resolve_game_options
from companion.games.binome.postulates import IDS
from tests.paths import REPO

SHIPPED = resources.files("companion.games.binome").joinpath("deck.toml").read_text("utf-8")


def deck_file(tmp_path, body: str):
    p = tmp_path / "mydeck.toml"
    p.write_text(body, encoding="utf-8")
    return p


def full_body(**override) -> str:
    cards = dict(builtin_deck())
    cards.update({k.replace("_", "-"): v for k, v in override.items()})
    lines = ["[cards]"]
    for card, points in cards.items():
        lines.append(f'{card} = "{points}"' if isinstance(points, str) else f"{card} = {points}")
    return "\n".join(lines) + "\n"


def test_shipped_deck_has_every_card_and_says_whose_values_they_are():
    deck = builtin_deck()
    assert tuple(deck) == IDS
    assert deck["identical-digits"] == 4
    assert "X" in deck.values()
    assert "COMPANION'S OWN VALUES" in SHIPPED
    assert "printed" in SHIPPED


def test_a_copy_of_the_shipped_deck_loads(tmp_path):
    assert load_deck(deck_file(tmp_path, SHIPPED)) == builtin_deck()


def test_edited_points_are_used(tmp_path):
    deck = load_deck(deck_file(tmp_path, full_body(max_number=7, contains_5="x")))
    assert deck["max-number"] == 7
    assert deck["contains-5"] == "X"


def one_line_error(path) -> str:
    with pytest.raises(DeckError) as info:
        load_deck(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path) + ": ")
    return message


def test_unknown_card_is_refused(tmp_path):
    p = deck_file(tmp_path, full_body() + "maximum-number = 3\n")
    assert one_line_error(p).endswith("unknown card 'maximum-number'")


def test_missing_card_is_refused(tmp_path):
    body = "\n".join(ln for ln in full_body().splitlines() if not ln.startswith("contains-9"))
    assert one_line_error(deck_file(tmp_path, body)).endswith("missing card 'contains-9'")


@pytest.mark.parametrize("bad", ["-1", "100", "2.5", '"Y"', "true", '"4"', "[4]"])
def test_bad_points_are_refused(tmp_path, bad):
    body = full_body().replace("digit-sum-10 = 4", f"digit-sum-10 = {bad}")
    assert "digit-sum-10: bad points" in one_line_error(deck_file(tmp_path, body))


def test_not_toml_names_the_file(tmp_path):
    assert "not valid TOML" in one_line_error(deck_file(tmp_path, "[cards\nx = "))


def test_missing_table_and_unknown_section(tmp_path):
    assert one_line_error(deck_file(tmp_path, "")).endswith("no [cards] table")
    body = full_body() + "[extra]\nx = 1\n"
    assert "unknown section 'extra'" in one_line_error(deck_file(tmp_path, body))


def test_unreadable_file(tmp_path):
    assert "cannot read" in one_line_error(tmp_path / "absent.toml")
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not a text file" in one_line_error(binary)


def test_one_line_text_form_round_trips():
    deck = builtin_deck()
    assert parse_deck_text(deck.text()) == deck
    assert parse_deck_text("") == deck
    edited = deck.text().replace("identical-digits=4", "identical-digits=6")
    assert parse_deck_text(edited)["identical-digits"] == 6


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("identical-digits=4", "missing card"),
        ("identical-digits", "is not id=points"),
        ("identical-digits=4,identical-digits=5", "listed twice"),
        ("nope=1", "unknown card 'nope'"),
    ],
)
def test_bad_text_form(text, problem):
    with pytest.raises(DeckError, match=problem):
        parse_deck_text(text)


def test_parse_toml_names_its_source():
    with pytest.raises(DeckError, match=r"^here: no \[cards\] table$"):
        parse_deck_toml("cards = 1\n", "here")


def test_a_deck_file_must_be_a_regular_file_of_bounded_size(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n")
    with pytest.raises(DeckError, match="larger than"):
        load_deck(big)
    with pytest.raises(DeckError, match="not a regular file"):
        load_deck("/dev/null")
    with pytest.raises(ValueError, match="deck: .*not a regular file"):
        resolve_game_options({"deck": "/dev/zero"})


def test_a_deck_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "deck.fifo"
    os.mkfifo(fifo)
    errors: list[Exception] = []

    def read() -> None:
        try:
            load_deck(fifo)
        except DeckError as e:
            errors.append(e)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # unblock the reader before failing
        with open(fifo, "w"):
            pass
    assert not reader.is_alive() and "not a regular file" in str(errors[0])


def test_a_deck_of_dev_zero_ends_with_one_line_in_bounded_memory(tmp_path):
    """In a child with 1 GB of address space: reading /dev/zero whole would run out."""
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from companion.cli.main import main\n"
        "raise SystemExit(main(['sim', '--journal', 'none', '--game', 'binome', "
        "'--rule', 'deck=/dev/zero']))\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert child.returncode == 2 and "Traceback" not in child.stderr
    assert "not a regular file" in child.stderr.strip().splitlines()[-1]
