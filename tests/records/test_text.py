"""A record's text as it is written and read (companion/records/format.py, read.py): tags and
their escapes, move numbers, and bounds that keep a hostile file's cost to its size (a NUL,
too many moves or words, a huge tag value) with one line naming where.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest

from companion.cli.main import main
from companion.games import get_spec
from companion.records.check import validate
from companion.records.format import MAX_RECORD_MOVES, Record, RecordError, format_record
from companion.records.read import parse_record
from tests.conftest import one_line_error


@pytest.mark.parametrize(
    "value, read",
    [
        ("v" * 400_000, "v" * 400_000),
        ('\\"' * 200_000, '"' * 200_000),
        ("\\\\\\n" * 130_000, "\\\n" * 130_000),
        ("\ufdd0\ufdd1" + "\\\\\\n" * 130_000, "\ufdd0\ufdd1" + "\\\n" * 130_000),
    ],
)
def test_a_long_tag_value_is_parsed_in_memory_linear_in_its_size(value, read):
    text = f'[Game "binaryon"]\n[Event "{value}"]\n\n1. e5\n'
    tracemalloc.start()
    try:
        rec = parse_record(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert rec.tags["Event"] == read
    # the backtracking regex took ~170 bytes per byte (a 3.9 MB value: 676 MB)
    assert peak < 8 * len(text.encode()), peak


def test_a_record_holding_a_nul_is_refused_with_its_line():
    with pytest.raises(RecordError, match="r:2: a NUL character"):
        parse_record('[Game "binaryon"]\n[Event "a\0"]\n', "r")


def test_tags_with_escapes_and_bad_tags():
    rec = parse_record('[Game "binaryon"]\n[Event "a \\"b\\" c\\\\ d\\n"]\n')
    assert rec.tags["Event"] == 'a "b" c\\ d\n'
    for bad in ('[Event "a"] x', '[Event "a]', '[Event"a"]', '[9 "a"]', '[Event "a\\"]'):
        with pytest.raises(RecordError, match="bad tag"):
            parse_record(f'[Game "binaryon"]\n{bad}\n')


def test_a_tag_written_by_format_record_reads_back_whatever_its_value():
    value = 'x "quoted" \\ back\nline\ttab ]['
    rec = Record(game="binaryon", options=get_spec("binaryon").resolve({}), moves=["e5"])
    rec.tags["Event"] = value
    again = parse_record(format_record(rec))
    assert again.tags["Event"] == value and again.moves == ["e5"]


def test_a_record_with_too_many_moves_is_refused_with_one_line(tmp_path, capsys):
    text = '[Game "binaryon"]\n\n' + " ".join(["e5"] * (MAX_RECORD_MOVES + 1)) + "\n"
    with pytest.raises(RecordError, match=f"more than {MAX_RECORD_MOVES:,} moves"):
        parse_record(text)
    f = tmp_path / "long.txt"
    f.write_text(text)
    assert main(["import", str(f), "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert "moves" in one_line_error(capsys)
    assert not (tmp_path / "j.sqlite").exists()


def test_a_repeated_move_number_is_refused_where_it_stands():
    text = '[Game "binaryon"]\n\n' + " ".join(["1."] * 1000) + "\n"
    with pytest.raises(RecordError, match=r":3:4: move number 1\. repeated"):
        parse_record(text)


def test_a_move_number_in_the_middle_of_a_move_says_so():
    with pytest.raises(RecordError, match=r"move number 5\. in the middle of move 5"):
        parse_record('[Game "binaryon"]\n\n1. a b 2. c d 3. e f 4. g h 5. i 5. j\n')
    with pytest.raises(RecordError, match=r"move number 7\. out of place, expected 5\."):
        parse_record('[Game "binaryon"]\n\n1. a b 2. c d 3. e f 4. g h 7. i\n')


@pytest.mark.parametrize("layout", ["one line", "a line each"])
def test_a_record_with_too_many_words_is_refused_while_it_is_read(layout):
    """1.3 million words cost what the first 41,000 do: memory bounded by the limit."""
    words = ["1."] * 1_300_000
    text = '[Game "binaryon"]\n\n' + (" " if layout == "one line" else "\n").join(words)
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="more than 41,000 words after the tags"):
            parse_record(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, peak  # every word kept first: over 200 MB


def latent_names(moves: int, seed: int = 2) -> tuple[list[str], list[str | None]]:
    spec = get_spec("latent-binaries")
    state = spec.new(**spec.resolve({}))
    rnd = random.Random(seed)
    names, players = [], []
    while len(names) < moves and not state.is_over():
        turn = state.turn
        move = state.forced_move() or rnd.choice(list(state.legal_moves(turn)))
        names.append(move.name)
        players.append(turn)
        state = state.play(move)
    return names, players


def test_latent_binaries_records_number_each_move_not_pairs():
    """A turn of Latent Binaries is a move, a challenge and a marker by one player: a pair
    under one number read as if the players alternated."""
    names, _ = latent_names(14)
    rec = Record("latent-binaries", {}, names, [None] * len(names), status="abandoned")
    text = format_record(rec)
    numbered = [t for t in text.split() if t.endswith(".") and t[:-1].isdigit()]
    assert numbered == [f"{k}." for k in range(1, len(names) + 1)]
    assert parse_record(text).moves == names
    # records exported by the previous version numbered the moves in pairs: still read
    body = " ".join(
        (f"{k // 2 + 1}. " if k % 2 == 0 else "") + f'"{n}"' for k, n in enumerate(names)
    )
    paired = f'[Game "latent-binaries"]\n[Status "abandoned"]\n[Result "*"]\n\n{body}\n'
    rec = parse_record(paired)
    assert rec.moves == names
    validate(rec)
