"""Text game records: export -> import gives the identical game; bad records are refused
with the first bad move and nothing is imported; a record imported into the journal it came
from refused as that game; abandon (``history`` and ``replay``: tests/cli)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.games import get_spec
from companion.journal.api import NullJournal
from companion.journal.rows import FINISHED
from companion.journal.store import SqliteJournal
from companion.records.check import final_position_text, import_record, read_record, validate
from companion.records.format import Record, RecordError, format_record, record_from_entry
from companion.records.read import parse_record
from companion.referee.session import Session
from companion.timing.clock import TimeControl
from tests.paths import REPO


class Clock:
    def __init__(self):
        self.t = 1_750_000_000.0

    def __call__(self):
        self.t += 2.345
        return self.t


def play(journal, size=8, moves=None, players=None, options=None):
    s = Session("binaryon", {"size": size, **(options or {})}, journal, players)
    count = 0
    while not s.state.is_over() and (moves is None or count < moves):
        s.submit(s.state.legal_moves()[0])
        count += 1
    return s


def comparable(entry):
    return (
        entry.game,
        entry.options,
        entry.players,
        entry.move_names,
        [m.at for m in entry.moves],
        entry.started,
        entry.status,
        entry.result,
        entry.summary,
        entry.detail,
    )


def test_export_then_import_gives_the_identical_game(tmp_path, journal_path, capsys):
    j = SqliteJournal.open(journal_path, clock=Clock())
    s = play(j, players={"on": "Ana", "off": 'Ben "the" Bold'})
    s.undo(1)  # a takeback on the way, then the game is finished again
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[-1])
    original = j.load(s.game_id)
    j.close()
    record = tmp_path / "game.txt"
    assert main(["export", str(s.game_id), "-o", str(record), "--journal", str(journal_path)]) == 0
    other = tmp_path / "other.sqlite"
    assert main(["import", str(record), "--journal", str(other)]) == 0
    assert "imported game 1" in capsys.readouterr().out
    copy = SqliteJournal.open(other).load(1)
    assert original.status == FINISHED
    assert comparable(copy) == comparable(original)


@settings(max_examples=30, deadline=None)
@given(
    size=st.sampled_from([4, 6, 8]),
    first=st.sampled_from(["on", "off"]),
    reach=st.sampled_from(["line", "ray"]),
    picks=st.lists(st.integers(0, 1000), max_size=80),
)
def test_any_game_round_trips_through_the_text(size, first, reach, picks):
    s = Session("binaryon", {"size": size, "first": first, "reach": reach}, NullJournal())
    for k in picks:
        if s.state.is_over():
            break
        legal = s.state.legal_moves()
        s.submit(legal[k % len(legal)])

    t0 = 1_700_000_000_000
    rec = Record(
        game="binaryon",
        options=s.options,
        moves=list(s.moves),
        times=[t0 + 1500 * i + (i % 7) for i in range(len(s.moves))],
        players={"on": "Ana Maria", "off": "Bo; {x}"},
        started=t0,
    )
    final = validate(rec)
    text = format_record(rec)
    back = parse_record(text, "t")
    state = validate(back, "t")
    assert (back.game, back.options, back.moves, back.times) == (
        rec.game,
        rec.options,
        rec.moves,
        rec.times,
    )
    assert back.players == rec.players
    assert (back.status, back.result) == (rec.status, rec.result)
    assert state.white == final.white and state.mover == final.mover


def test_a_binary_game_round_trips_too():
    spec = get_spec("binary")
    state = spec.new(**spec.resolve({}))
    names = []
    for i in range(30):
        if state.is_over():
            break
        legal = state.legal_moves()
        move = legal[(i * 7) % len(legal)]
        names.append(move.name)
        state = state.play(move)

    rec = Record(game="binary", options=spec.resolve({}), moves=names)
    validate(rec)
    back = parse_record(format_record(rec))
    validate(back)
    assert back.moves == names and back.options == rec.options


GOOD = """\
[Game "binaryon"]
[Started "2025-03-01T14:02:11.120Z"]
[Options "size=8"]
[On "Ana"]

1. {opening} a5 {+3.2s} a1 {+9.875s} ; a line comment
2. e5 e1
"""


def test_a_hand_written_record_is_read():
    rec = parse_record(GOOD, "g.txt")
    validate(rec, "g.txt")
    assert rec.moves == ["a5", "a1", "e5", "e1"]
    assert rec.times[:2] == [rec.started + 3200, rec.started + 9875]
    assert rec.times[2:] == [None, None]
    assert rec.players == {"on": "Ana"} and rec.options["size"] == 8
    assert rec.status == "in_progress" and rec.result is None


@pytest.mark.parametrize(
    "text, message",
    [
        (GOOD.replace("2. e5 e1", "2. e5 a8"), "g.txt:7:7: move 4 a8: a8: already black"),
        (GOOD.replace("2. e5 e1", "2. e5 z9"), "g.txt:7:7: move 4 z9: "),
        (GOOD.replace("2. e5", "3. e5"), "g.txt:7:1: move number 3. out of place, expected 2."),
        (GOOD.replace("{+3.2s}", "{+3.2}"), "g.txt:6:17: time {+3.2} should look like"),
        (GOOD.replace('"binaryon"', '"chess"'), "g.txt:1: unknown game 'chess'"),
        (GOOD.replace("size=8", "size=7"), "g.txt:3: Options: size: 7 is odd"),
        (GOOD.replace("size=8", "sized"), "g.txt:3: Options: 'sized' is not NAME=VALUE"),
        (GOOD.replace('[On "Ana"]', "[On Ana]"), 'g.txt:4: bad tag, expected [Name "value"]'),
        (GOOD.replace("e5 e1", "e5 e1 {oops"), "g.txt:7:10: comment not closed"),
        (GOOD + '[Event "x"]\n', "g.txt:8: tag after the moves"),
        (GOOD.replace("[Options", '[Result "off"]\n[Options'), "Result off but the game is not"),
        ("1. a5\n", "g.txt:1: no [Game"),
    ],
)
def test_bad_records_name_the_first_problem_in_one_line(text, message):
    with pytest.raises(RecordError) as info:
        validate(parse_record(text, "g.txt"), "g.txt")
    assert str(info.value).startswith(message) or message in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


def test_a_bad_record_imports_nothing(tmp_path, capsys):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    play(j, size=4)
    exported = format_record(record_from_entry(j.games()[0]))
    j.close()
    lines = exported.splitlines()
    last = len(lines) - 1
    lines[last] = lines[last].replace(lines[last].split()[-1], "a1", 1) + " b9"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    code = main(["import", str(bad), "--journal", str(tmp_path / "j.sqlite")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"binaryon: {bad}:{last + 1}:") and err.count("\n") == 1
    assert len(SqliteJournal.open(tmp_path / "j.sqlite").games()) == 1


def test_a_record_whose_result_contradicts_its_moves_is_refused(tmp_path):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    s = play(j, size=4)
    text = format_record(record_from_entry(j.load(s.game_id)))
    winner = s.state.outcome().winner or "draw"
    wrong = {"on": "off", "off": "on", "draw": "on"}[winner]
    bad = text.replace(f'[Result "{winner}"]', f'[Result "{wrong}"]')
    with pytest.raises(RecordError, match=f"Result {wrong} but the moves give"):
        validate(parse_record(bad))


def test_an_unfinished_record_is_filed_as_abandoned_unless_resumed(tmp_path):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    s = play(j, moves=6)
    path = tmp_path / "g.txt"
    path.write_text(format_record(record_from_entry(j.load(s.game_id))))
    rec, state = read_record(path)
    other = SqliteJournal.open(tmp_path / "other.sqlite")
    gid = import_record(other, rec, state)
    assert other.load(gid).status == "abandoned" and other.current() is None
    gid2 = import_record(other, rec, state, resume=True)
    assert other.current().game_id == gid2 and other.current().moves == s.moves


def test_final_position_text_scores_like_the_session(tmp_path):
    j = SqliteJournal.open(tmp_path / "j.sqlite")
    s = play(j)
    path = tmp_path / "g.txt"
    path.write_text(format_record(record_from_entry(j.load(s.game_id))))
    game, options, text = final_position_text(path)
    assert game == "binaryon" and options == s.options
    spec = get_spec(game)
    scored = spec.positions().score(text, options)
    assert scored["winner"] == (s.state.outcome().winner or "draw")


# --- the other commands ---


def test_abandon_marks_the_game_in_progress(journal_path, capsys):
    j = SqliteJournal.open(journal_path)
    s = play(j, moves=5)
    j.close()
    assert main(["abandon", "--journal", str(journal_path)]) == 0
    assert f"game {s.game_id} abandoned" in capsys.readouterr().out
    j = SqliteJournal.open(journal_path)
    assert j.current() is None and j.load(s.game_id).status == "abandoned"
    assert j.load(s.game_id).move_names == s.moves  # stays in history
    assert main(["abandon", "--journal", str(journal_path)]) == 2
    assert "no game in progress" in capsys.readouterr().err
    assert main(["abandon", str(s.game_id), "--journal", str(journal_path)]) == 2


def test_export_of_a_missing_game_is_one_line(journal_path, capsys):
    SqliteJournal.open(journal_path).close()
    assert main(["export", "9", "--journal", str(journal_path)]) == 2
    assert capsys.readouterr().err == "binaryon: no game 9 in the journal (see binaryon history)\n"


def test_records_doc_example_is_a_valid_record():
    doc = REPO / "docs" / "records.md"
    text = doc.read_text()
    example = text.split("```text\n", 1)[1].split("```", 1)[0]
    rec = parse_record(example, "docs/records.md")
    validate(rec, "docs/records.md")
    assert rec.moves and rec.players


@pytest.mark.parametrize(
    "game, options, clock, moves",
    [
        ("binaryon", {}, None, 12),
        ("wythe", {}, "5:00+3", 12),
        ("binome", {"players": "Ann,Bob"}, None, 10_000),  # to its end: its secrets shown
    ],
)
def test_a_record_exported_from_this_journal_is_refused_when_imported_into_it(
    tmp_path, capsys, game, options, clock, moves
):
    """`export N -o g.txt` then `import g.txt` into the same journal: refused as the game it
    came from (docs/records.md), finished or not; --allow-duplicate imports it all the same;
    another journal takes it."""
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal.open(path)
    control = TimeControl.parse(clock) if clock else None
    s = Session(game, options, journal, rng=random.Random(3), time_control=control)
    rng = random.Random(5)
    while len(s.played) < moves and not s.state.is_over():
        player = s.state.turn or sorted(s.state.to_act)[0]
        assert s.submit(rng.choice(list(s.state.legal_moves(player))), player).accepted
    journal.close()
    record = tmp_path / "g1.txt"
    assert main(["export", str(s.game_id), "-o", str(record), "--journal", str(path)]) == 0
    capsys.readouterr()
    assert main(["import", str(record), "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"binaryon: {record}: already in the journal as game 1 (--allow-duplicate)"
    assert main(["import", str(record), "--journal", str(tmp_path / "other.sqlite")]) == 0
    assert main(["import", str(record), "--allow-duplicate", "--journal", str(path)]) == 0
    with SqliteJournal.open(path, read_only=True) as j:
        assert j.last_id() == 2


def one_move_game(tmp_path) -> Path:
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as journal:
        s = Session("binaryon", {}, journal)
        assert s.submit_name("e5").accepted
    return path


def test_one_move_is_one_move_not_1_moves(tmp_path, capsys):
    path = one_move_game(tmp_path)
    record = tmp_path / "g.txt"
    assert main(["export", "1", "-o", str(record), "--journal", str(path)]) == 0
    assert main(["import", str(record), "--journal", str(tmp_path / "other.sqlite")]) == 0
    assert "binaryon, 1 move, unfinished" in capsys.readouterr().out
    assert main(["abandon", "1", "--journal", str(path)]) == 0
    assert "abandoned after 1 move (kept in history)" in capsys.readouterr().out


def test_a_binome_claim_with_no_eligible_number_imports_as_the_rules_say(tmp_path, capsys):
    """An older record holds `Ann claim 12` where Ann had no eligible number: imported, the
    claim eliminated from the turn and its number used up (the printed rules), one warning."""
    from tests.games.binome.test_engine import write_sheets

    sheets = {
        "Ann": ["12", "34", "67", "80", "12", "34", "67", "89"],
        "Bob": ["21", "43", "76", "08", "21", "43", "76", "98"],
    }
    names: list[str] = []
    spec = get_spec("binome")
    write_sheets(spec.new(**spec.resolve({"players": "Ann,Bob"})), sheets, names)
    names += ["draw contains-5", "Ann claim 12", "Bob pass"]
    body = " ".join(f'"{n}"' for n in names)
    record = tmp_path / "old.txt"
    record.write_text(
        f'[Game "binome"]\n[Options "players=Ann,Bob"]\n[Status "abandoned"]\n'
        f'[Result "*"]\n\n{body}\n'
    )
    path = tmp_path / "j.sqlite"
    assert main(["import", str(record), "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "imported game 1" in out
    warning = err.strip()
    assert warning.startswith(f"binaryon: warning: {record}:6:")
    claim = len(names) - 1
    assert (
        f"move {claim} Ann claim 12: no eligible number: pass: read as Ann claim 12 burn"
        " (a number chosen by mistake is eliminated from the turn)"
    ) in warning
    assert "\n" not in warning
    with SqliteJournal.open(path, read_only=True) as j:
        moves = j.load(1).move_names
    assert moves[-2] == "Ann claim 12 burn"
    after = spec.replay(moves, **spec.resolve({"players": "Ann,Bob"}))
    assert dict(after.last_resolution.eliminated) == {"Ann": "ineligible"}
    assert after.unused_numbers("Ann").count(12) == 1  # one of her two 12s used up
