"""The SQLite journal: durable moves, takebacks kept in history, resume through the daemon."""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.squares import parse_square
from companion.games.binaryon.engine import PASS
from companion.journal.api import JournalError, MoveEntry, NullJournal
from companion.journal.rows import ABANDONED, FINISHED, IN_PROGRESS, fold
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from companion.service.daemon import Daemon
from tests.conftest import daemon_on_journal


class Clock:
    def __init__(self, t: float = 1_750_000_000.0):
        self.t = t

    def __call__(self) -> float:
        self.t += 1.25
        return self.t


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "state" / "journal.sqlite"


def first_legal_game(size: int = 8) -> list[str]:
    s = Session("binaryon", {"size": size}, NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    return s.moves


def test_moves_survive_closing_and_reopening(path):
    j = SqliteJournal.open(path, clock=Clock())
    s = Session("binaryon", journal=j, players={"on": "Ana", "off": "Ben"})
    for name in ("e5", "d4", "c5"):
        assert s.submit(s.state.parse_move(name)).accepted
    j.close()
    j2 = SqliteJournal.open(path)
    saved = j2.current()
    assert saved is not None
    assert saved.moves == ["e5", "d4", "c5"]
    assert saved.players == {"on": "Ana", "off": "Ben"}
    assert saved.options == s.options
    entry = j2.load(saved.game_id)
    assert entry.status == IN_PROGRESS
    assert [m.at for m in entry.moves] == sorted(m.at for m in entry.moves)
    assert all(m.at is not None for m in entry.moves)
    j2.close()


def test_wal_and_full_sync_are_on(path, journal_connections):
    j = SqliteJournal.open(path)
    [db] = journal_connections
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()


def test_takebacks_are_recorded_and_history_keeps_them(path):
    j = SqliteJournal.open(path)
    s = Session("binaryon", journal=j)
    a, b, c, d = first_legal_game()[:4]
    for name in (a, b, c, d):
        assert s.submit(s.state.parse_move(name)).accepted
    assert s.undo(2) == [c, d]
    other = s.state.legal_moves()[1]
    assert s.submit(other).accepted
    e = s.moves[-1]
    assert e != c
    assert j.current().moves == [a, b, e]
    events = j.events(s.game_id)
    kinds = [(k, p, m) for k, p, m, _ in events]
    assert kinds == [
        ("move", 0, a),
        ("move", 1, b),
        ("move", 2, c),
        ("move", 3, d),
        ("takeback", 2, None),
        ("move", 2, e),
    ]
    assert j.load(s.game_id).takebacks == 1
    other = sqlite3.connect(path)  # any program that opens the file
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        other.execute("DELETE FROM events")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        other.execute("UPDATE events SET move = 'a1'")
    other.close()


def test_a_finished_game_has_its_result_and_a_takeback_reopens_it(path):
    j = SqliteJournal.open(path)
    s = Session("binaryon", {"size": 4}, j)
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    entry = j.load(s.game_id)
    outcome = s.state.outcome()
    assert entry.status == FINISHED
    assert (entry.result, entry.summary) == (outcome.winner or "draw", outcome.summary)
    assert entry.detail == outcome.detail
    assert j.current() is None
    s.undo(1)
    entry = j.load(s.game_id)
    assert entry.status == IN_PROGRESS and entry.result is None
    assert j.current().moves == s.moves
    assert [k for k, *_ in j.events(s.game_id)][-2:] == ["finish", "takeback"]


def test_a_new_game_abandons_the_unfinished_one_which_stays_in_history(path):
    j = SqliteJournal.open(path)
    s = Session("binaryon", journal=j)
    s.submit(s.state.parse_move("e5"))
    old = s.game_id
    s.new_game()
    games = j.games()
    assert [g.status for g in games] == [ABANDONED, IN_PROGRESS]
    assert games[0].move_names == ["e5"]
    assert j.current().game_id == s.game_id != old
    with pytest.raises(JournalError, match="abandoned"):
        j.commit_turn(old, 1, [MoveEntry(1, "d4")], None)


def test_out_of_order_moves_are_refused(path):
    j = SqliteJournal.open(path)
    gid = j.begin("binaryon", {}, {})
    with pytest.raises(JournalError, match="out of order"):
        j.commit_turn(gid, 1, [MoveEntry(1, "e5")], None)
    with pytest.raises(JournalError, match="not in the journal"):
        j.commit_turn(gid + 5, 0, [MoveEntry(0, "e5")], None)
    assert j.current().moves == []


def test_a_game_left_in_progress_by_a_crash_is_closed_when_the_next_begins(path):
    moves = first_legal_game(4)
    j = SqliteJournal.open(path)
    done = j.begin("binaryon", {"size": 4}, {})
    for i, m in enumerate(moves):  # the crash came before finish() was recorded
        j.commit_turn(done, i, [MoveEntry(i, m)], None)
    half = j.begin("binaryon", {"size": 4}, {})
    j.commit_turn(half, 0, [MoveEntry(0, moves[0])], None)
    newest = j.begin("binaryon", {}, {})
    by_id = {g.id: g for g in j.games()}
    assert by_id[done].status == FINISHED and by_id[done].result is not None
    assert by_id[half].status == ABANDONED and by_id[half].move_names == moves[:1]
    assert j.current().game_id == newest


def test_the_journal_can_be_used_from_the_daemon_thread(path):
    j = SqliteJournal.open(path)
    gid = j.begin("binaryon", {}, {})
    errors = []

    def work():
        try:
            j.commit_turn(gid, 0, [MoveEntry(0, "e5")], None)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == [] and j.current().moves == ["e5"]


def test_fold_replaces_moves_after_a_takeback():
    rows = [("move", 0, "a", None), ("move", 1, "b", None), ("takeback", 1, None, None)]
    rows += [("move", 1, "c", None), ("finish", 2, None, None)]
    moves, takebacks = fold(rows)
    assert [m.name for m in moves] == ["a", "c"] and takebacks == 1
    with pytest.raises(ValueError):
        fold([("move", 1, "a", None)])


# --- resume through the daemon ---


def press(d: Daemon, clock, name: str) -> None:
    d.board.tap(parse_square(name, 8))
    d.loop.run_pending()
    clock.advance(0.1)
    d.loop.run_pending()


def test_a_restarted_daemon_resumes_the_same_game(path, clock):
    d = daemon_on_journal(path, clock)
    assert d.message != "resumed"
    for name in first_legal_game()[:7]:
        press(d, clock, name)
    moves, state = list(d.session.moves), d.session.state
    assert len(moves) == 7
    frame = list(d.leds.frame)
    d.journal.close()  # the plug is pulled: nothing else is written
    d2 = daemon_on_journal(path, clock)
    assert d2.message == "resumed"
    assert d2.session.moves == moves
    assert d2.session.game_id == d.session.game_id
    assert (d2.session.state.white, d2.session.state.mover) == (state.white, state.mover)
    assert d2.session.state.last == state.last
    d2.render()
    assert d2.leds.frame == frame  # the LEDs show the resumed position
    press(d2, clock, first_legal_game()[7])
    assert len(d2.session.moves) == 8
    assert d2.journal.current().moves == d2.session.moves


def test_the_undo_button_is_journalled_and_survives_a_restart(path, clock):
    d = daemon_on_journal(path, clock)
    script = first_legal_game()
    for name in script[:5]:
        press(d, clock, name)
    d.button("undo")
    d.button("undo")
    assert d.session.moves == script[:3]
    d.journal.close()
    d2 = daemon_on_journal(path, clock)
    assert d2.session.moves == script[:3]
    assert d2.journal.load(d2.session.game_id).takebacks == 2
    assert [m for k, _, m, _ in d2.journal.events(d2.session.game_id) if k == "move"] == script[:5]


def test_a_pass_lost_in_a_crash_is_played_on_resume(path):
    script = first_legal_game()
    k = next(i for i, m in enumerate(script) if m == PASS.name)
    j = SqliteJournal.open(path)
    gid = j.begin("binaryon", {}, {})
    for i, m in enumerate(script[:k]):  # killed after the move, before its forced pass
        j.commit_turn(gid, i, [MoveEntry(i, m)], None)
    s = Session.resume(j.current(), j)
    assert s.moves == script[: k + 1]
    assert j.current().moves == script[: k + 1]


# --- property: the journal always equals the session ---

ops = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 30)),
        st.tuples(st.just("undo"), st.integers(1, 3)),
        st.tuples(st.just("back"), st.integers(0, 20)),
        st.tuples(st.just("new"), st.just(0)),
    ),
    max_size=40,
)


@settings(max_examples=25, deadline=None)
@given(ops=ops, size=st.sampled_from([4, 6]))
def test_journal_and_session_always_agree(ops, size):
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "j.sqlite"
        j = SqliteJournal.open(p)
        s = Session("binaryon", {"size": size}, j)
        for op, arg in ops:
            if op == "move" and not s.state.is_over():
                legal = s.state.legal_moves()
                assert s.submit(legal[arg % len(legal)]).accepted
            elif op == "undo":
                s.undo(arg)
            elif op == "back":
                s.take_back_to(arg)
            elif op == "new":
                s.new_game()
            entry = j.load(s.game_id)
            assert entry.move_names == s.moves
            assert entry.status == (FINISHED if s.state.is_over() else IN_PROGRESS)
        j.close()
        j2 = SqliteJournal.open(p)
        saved = j2.current()
        if s.state.is_over():
            assert saved is None
        else:
            assert saved.moves == s.moves
            resumed = Session.resume(saved, j2)
            assert resumed.state.white == s.state.white and resumed.state.mover == s.state.mover
        j2.close()


def test_a_move_never_reads_the_games_events(path, journal_connections):
    """O(1) per move: the live move count comes from the games row, not a fold of events."""
    j = SqliteJournal.open(path)
    s = Session("binaryon", journal=j)
    for _ in range(5):
        s.submit(s.state.legal_moves()[0])
    seen: list[str] = []
    journal_connections[-1].set_trace_callback(seen.append)
    assert s.submit(s.state.legal_moves()[0]).accepted
    s.take_back_to(3)
    j.abandon(s.game_id)
    reads = [q for q in seen if q.lstrip().upper().startswith("SELECT") and "events" in q]
    assert seen and not reads, reads
    assert j.load(s.game_id).move_count == 3
