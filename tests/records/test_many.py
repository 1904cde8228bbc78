"""Files of many records (an event's games): ``binaryon import`` imports each game on its own,
a bad one refused in one line naming which game of the file and why, the others kept."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.journal.api import NullJournal
from companion.journal.store import SqliteJournal
from companion.records.check import validate
from companion.records.format import Record, format_record
from companion.records.read import add_tags, cut_records, lines_of, parse_record
from companion.referee.session import Session


def split_records(text: str) -> list[tuple[int, str]]:
    """The records of a file's text, each with the line it starts on (``cut_records`` over
    the whole text, as the command reads a small file)."""
    return [(n, part or "") for n, part in cut_records(lines_of(text.removeprefix("\ufeff")))]


def _record(size: int, moves: int, names=("Ann", "Ben"), tags=None) -> str:
    s = Session("binaryon", {"size": size}, NullJournal())
    for _ in range(moves):
        if s.state.is_over():
            break
        s.submit(s.state.legal_moves()[0])
    rec = Record(
        game="binaryon",
        options=s.options,
        moves=list(s.moves),
        players={"on": names[0], "off": names[1]},
        tags=dict(tags or {}),
    )
    validate(rec)
    return format_record(rec)


def test_a_file_of_three_games_with_a_bad_one_keeps_the_others(tmp_path, capsys):
    good1 = _record(4, 100, tags={"Round": "1"})
    bad = _record(6, 3, ("Cat", "Dan")).replace("2. ", "2. z9 ")  # move 3 is no square
    good2 = _record(6, 5, ("Eve", "Fay"))  # unfinished: filed as abandoned
    path = tmp_path / "event.txt"
    path.write_text(good1 + "\n" + bad + "\n" + good2)
    journal = tmp_path / "j.sqlite"
    assert main(["import", str(path), "--journal", str(journal)]) == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"binaryon: {path}:")
    assert "move 3 z9" in lines[0] and lines[0].endswith("(game 2 of 3)")
    bad_line = 1 + good1.count("\n") + 1 + bad.split("2. z9")[0].count("\n")
    assert f"{path}:{bad_line}:" in lines[0]  # the line in the whole file
    assert out.strip() == "2 imported, 1 refused: see above"
    j = SqliteJournal.open(journal)
    games = [j.load(i) for i in (1, 2)]
    assert [g.players["on"] for g in games] == ["Ann", "Eve"]
    assert games[0].tags == {"Round": "1"} and games[0].status == "finished"
    assert games[1].status == "abandoned"
    j.close()


def test_a_file_whose_games_are_all_bad_imports_nothing(tmp_path, capsys):
    bad = _record(4, 3).replace("[Options ", '[Options "size=7"]\n[X ')
    path = tmp_path / "bad.txt"
    path.write_text(bad + bad)
    assert main(["import", str(path), "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.endswith(f"(game {k} of 2)") for k, line in enumerate(err, 1)] == [True, True]
    assert not (tmp_path / "j.sqlite").exists()


def test_a_file_of_many_games_cannot_resume(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(_record(4, 2) + _record(4, 3))
    assert main(["import", "--resume", str(path), "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert "holds 2 games: --resume takes one" in capsys.readouterr().err


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([4, 6]), st.integers(0, 40)), min_size=1, max_size=5))
def test_split_records_gives_back_each_record_of_a_file(games):
    texts = [_record(size, moves, tags={"Round": str(i)}) for i, (size, moves) in enumerate(games)]
    parts = split_records("\n".join(texts))
    assert len(parts) == len(texts)
    for (line, part), text in zip(parts, texts, strict=True):
        rec = parse_record(part, "f", line)
        assert format_record(rec) == format_record(parse_record(text))


def test_a_record_with_no_moves_is_a_record_of_its_own():
    empty = _record(4, 0)
    parts = split_records(empty + empty + _record(4, 2))
    assert [line for line, _ in parts] == [1, 1 + empty.count("\n"), 1 + 2 * empty.count("\n")]


def test_add_tags_adds_after_the_tags_and_keeps_those_there():
    text = _record(4, 2, tags={"Round": "7"})
    out = add_tags(text, {"Event": 'Club "night"', "round": "1", "Board": "t1"})
    rec = parse_record(out)
    assert rec.tags == {"Round": "7", "Event": 'Club "night"', "Board": "t1"}
    assert rec.moves == parse_record(text).moves


# ------------------------------------------------------------- one record at a time


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(['[Game "binaryon"]', '[On "Ann"]', "1. e5 d4", "; a note", "", "  ", "é"]),
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
)
def test_a_file_read_as_it_goes_is_cut_as_the_whole_text_is(lines, newline, bom):
    """file_lines + cut_records (import's streaming path) give what split_records gives."""
    import io

    from companion.records.read import cut_records, file_lines

    text = newline.join(lines)
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    streamed = list(cut_records(file_lines(io.BytesIO(raw), "f"), 1 << 20))
    assert streamed == split_records(text)


def test_a_record_over_the_limit_in_a_streamed_file_is_refused_alone():
    import io

    from companion.records.read import cut_records, file_lines

    good = _record(4, 2)
    huge = good.replace("1. ", "{" + "x" * 5000 + "} 1. ")
    raw = (good + huge + good).encode()
    parts = list(cut_records(file_lines(io.BytesIO(raw), "f", longest=3000), 2000))
    assert [p is None for _, p in parts] == [False, True, False]
    assert parts[2][1] == good


def test_import_memory_does_not_grow_with_the_records(tmp_path, monkeypatch, capsys):
    """Each record is read, checked and journaled in its turn: importing 10 times as many
    records from one file does not need more memory (tracemalloc's peak)."""
    import tracemalloc

    import companion.cli.import_record as import_record

    monkeypatch.setattr(import_record, "MAX_RECORD_BYTES", 1 << 12)  # read from disk as it goes
    one = _record(6, 30)
    peaks = []
    for n in (30, 300):
        path = tmp_path / f"many{n}.txt"
        path.write_text("\n".join(one.replace("Ann", f"Ann {i}") for i in range(n)))
        assert path.stat().st_size > 1 << 12
        tracemalloc.start()
        assert main(["import", str(path), "--journal", str(tmp_path / f"j{n}.sqlite")]) == 0
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert capsys.readouterr().out.strip() == f"{n} imported"
    assert peaks[1] < peaks[0] + 200_000, peaks  # 270 more records: < 1 KB each


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                '[Game "binaryon"]',
                '[game "binary"]',
                ' [On "Ann"]',
                "[bad tag",
                "1. e5 d4",
                "; a note",
                "{a comment}",
                "",
                "  ",
                "\u3000[On x]",
            ]
        ),
        max_size=12,
    ),
    st.sampled_from(["\n", "\r\n", "\r", "\x0b"]),
)
def test_a_file_said_to_be_one_record_is_one_record(lines, newline):
    """The import's shortcut for the usual file never takes two records for one."""
    from companion.records.read import surely_one_record

    text = newline.join(lines)
    if surely_one_record(text):
        assert len(split_records(text)) <= 1


def test_the_usual_record_is_seen_as_one_without_cutting_it():
    from companion.records.read import surely_one_record

    one = _record(4, 6, tags={"Round": "1"})
    assert surely_one_record(one) and not surely_one_record(one + one)


def test_a_file_read_as_it_goes_that_is_not_utf8_is_refused_whole(tmp_path, monkeypatch, capsys):
    import companion.cli.import_record as import_record

    monkeypatch.setattr(import_record, "MAX_RECORD_BYTES", 1 << 12)  # read from disk as it goes
    one = _record(6, 30).encode()
    path = tmp_path / "many.txt"
    path.write_bytes(b"\n".join([one] * 10 + [b"\xff" + one] + [one] * 10))
    journal = tmp_path / "j.sqlite"
    assert main(["import", str(path), "--journal", str(journal)]) == 2
    assert capsys.readouterr().err == f"binaryon: {path}: not a text file (not UTF-8)\n"
    assert not journal.exists()


def test_a_record_too_big_in_a_file_read_as_it_goes_is_refused_alone(tmp_path, monkeypatch, capsys):
    import companion.cli.import_record as import_record

    monkeypatch.setattr(import_record, "MAX_RECORD_BYTES", 1 << 12)
    one = _record(6, 30)
    big = one.replace("1. ", "{" + "x" * 5000 + "} 1. ", 1)
    path = tmp_path / "many.txt"
    games = [one.replace("Ann", f"Ann {i}") for i in range(10)]
    path.write_text("\n".join(games[:5] + [big] + games[5:]))
    assert main(["import", str(path), "--journal", str(tmp_path / "j.sqlite")]) == 1
    out, err = capsys.readouterr()
    assert out.strip() == "10 imported, 1 refused: see above"
    assert err.strip().endswith("larger than 0 MiB (game 6 of 11)")


def test_records_of_one_start_are_not_each_compared_with_every_game_imported_before(
    tmp_path, monkeypatch, capsys
):
    """An event's games often share a start time. A record is compared (exported again) only
    with the games played in this journal that started then, never with the games imported
    (those are found by their fingerprint), so an import of many records stays linear."""
    started = '[Started "2025-03-01T14:00:00.000Z"]\n'
    path = tmp_path / "event.txt"
    names = [(f"P{i}", "Club") for i in range(6)]
    path.write_text("\n".join(started + _record(4, 100, pair) for pair in names))
    journal = tmp_path / "journal.sqlite"
    loaded: list[int] = []
    real = SqliteJournal.load
    monkeypatch.setattr(SqliteJournal, "load", lambda j, gid: loaded.append(gid) or real(j, gid))
    assert main(["import", str(path), "--journal", str(journal)]) == 0
    assert capsys.readouterr().out == "6 imported\n"
    assert loaded == []  # no game imported before was read back to compare
    main(["import", str(path), "--journal", str(journal)])  # again: found by fingerprint
    assert "already imported as game 1 " in capsys.readouterr().err
