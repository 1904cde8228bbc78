"""A move taken back stays in the exported record as a comment where it was played: a guess
taken back by every player's agreement keeps its answer there (what was revealed stays
revealed), a secret keeps to its public name while the game goes on, and reading the record
back gives the same live moves."""

from __future__ import annotations

from companion.journal.store import SqliteJournal
from companion.records.format import format_record, record_from_entry
from companion.referee.session import Session
from tests.records.test_names import quiet
from tests.referee.test_undo_reveals import (
    SETUPS,
    WRONG,
    latent_to_the_wrong_guess,
    play,
    post,
    start,
)
from tests.referee.test_undo_reveals import stop as stop_daemon


def test_a_guess_taken_back_by_agreement_stays_in_the_record_with_its_answer(tmp_path):
    daemon, closers = start(tmp_path, "latent-binaries")
    try:
        latent_to_the_wrong_guess(daemon)
        answer = daemon.session.state.answer
        assert post(daemon, "rainbow", "/api/undo", {"undo": "ask"})[0] == 200
        assert post(daemon, "xeno", "/api/undo", {"undo": "accept"})[0] == 200
        assert daemon.session.moves[-1] == "c2-c3"
        play(daemon, "challenge c6 purple", "rainbow")
        live = list(daemon.session.moves)
    finally:
        stop_daemon(daemon, closers)
    journal = tmp_path / "j.sqlite"
    code, text = quiet(["export", "last", "--journal", str(journal)])
    assert code == 0, text
    note = f"{{taken back: {WRONG} ({answer})}}"
    assert note in text, text
    assert text.index("c2-c3") < text.index(note) < text.index("challenge c6 purple")
    for name, _ in SETUPS:  # the game goes on: no nest's colours in the record
        assert name.split()[-1] not in text
    with SqliteJournal.open(journal) as j:  # ended: a record that reads back
        j.abandon(j.last_id())
    code, text = quiet(["export", "last", "--journal", str(journal)])
    assert code == 0 and note in text, text
    record = tmp_path / "game.txt"
    record.write_text(text)
    code, said = quiet(["import", str(record), "--journal", str(tmp_path / "copy.sqlite")])
    assert code == 0, said
    with SqliteJournal.open(tmp_path / "copy.sqlite") as copy:
        assert copy.load(1).move_names == live


def test_a_secret_taken_back_shows_only_its_public_name_until_the_game_ends(tmp_path):
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    s = Session("latent-binaries", {}, journal)
    secret, player = SETUPS[0]
    assert s.submit_name(secret, player).accepted
    public = s.played[-1].public
    assert public != secret
    assert s.undo() and s.moves == []
    for name, player in SETUPS:
        assert s.submit_name(name, player).accepted
    text = format_record(record_from_entry(journal.load(s.game_id)))
    assert f"{{taken back: {public}}}" in text, text
    assert "red/yellow" not in text
    journal.abandon(s.game_id)
    text = format_record(record_from_entry(journal.load(s.game_id)))
    assert f"{{taken back: {secret}}}" in text  # the game has ended: secrets shown
    journal.close()


def test_an_answer_is_given_only_where_the_moves_before_it_are_still_the_games():
    from companion.journal.rows import fold_history

    events = [
        ("move", 0, "a", None), ("move", 1, "b", None), ("takeback", 1, None, None),
        ("move", 1, "c", None), ("move", 2, "d", None), ("takeback", 2, None, None),
        ("takeback", 0, None, None), ("move", 0, "e", None),
    ]  # fmt: skip
    moves, takebacks, taken = fold_history(events)
    assert [m.name for m in moves] == ["e"] and takebacks == 3
    assert [(t.move.name, t.move.ply, t.on_live, t.first) for t in taken] == [
        ("b", 1, False, True), ("d", 2, False, True), ("a", 0, True, True), ("c", 1, True, False),
    ]  # fmt: skip
