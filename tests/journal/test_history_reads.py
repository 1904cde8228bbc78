"""The history the pages list costs what it shows: one bounded query on the journal's games
rows (``JournalReads.recent``), never the games' moves, whatever the journal's size; the same
games as the old way (every game read, the last ones kept); the index an older journal gets
at its first writable open; and no secret in it before the game reveals it."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion.journal.db as journal_db
from companion.games import get_spec
from companion.journal.api import JournalError, MoveEntry, NullJournal
from companion.journal.rows import SCHEMA, SCHEMA_VERSION
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from companion.service.web_backend import DaemonWebBackend, history_row


def scripted(game: str) -> tuple[list[str], object]:
    """A whole game of ``game``: each player takes its first legal move."""
    s = Session(game, journal=NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    return list(s.moves), s.state.outcome()


SCRIPTS = {game: scripted(game) for game in ("binaryon", "wythe")}


def open_traced(path: Path, monkeypatch) -> tuple[SqliteJournal, sqlite3.Connection]:
    """A journal and the SQLite connection it opened (``db.open_rw``'s), to watch its SQL."""
    made: list[sqlite3.Connection] = []
    real = journal_db.open_rw
    monkeypatch.setattr(journal_db, "open_rw", lambda p: made.append(real(p)) or made[-1])
    journal = SqliteJournal.open(path)
    monkeypatch.setattr(journal_db, "open_rw", real)
    return journal, made[-1]


def finished_games(journal: SqliteJournal, count: int, game: str = "binaryon") -> None:
    """``count`` finished games of ``game``, in one transaction (the journal's own API)."""
    moves, outcome = SCRIPTS[game]
    options = get_spec(game).resolve({})
    with journal.batch():
        for i in range(count):
            gid = journal.begin(game, options, {p: f"P{i}" for p in ("on", "white")})
            entries = [MoveEntry(k, m) for k, m in enumerate(moves)]
            journal.commit_turn(gid, 0, entries, outcome)


class Watch:
    """The statements a connection runs and the VM steps they take."""

    def __init__(self, db: sqlite3.Connection):
        self.db, self.sql, self.steps = db, [], 0

    def __enter__(self) -> Watch:
        self.db.set_trace_callback(self.sql.append)
        self.db.set_progress_handler(self._step, 1)
        return self

    def _step(self) -> int:
        self.steps += 1
        return 0

    def __exit__(self, *exc: object) -> None:
        self.db.set_trace_callback(None)
        self.db.set_progress_handler(None, 1)

    def plans(self) -> list[str]:
        out = []
        for sql in self.sql:
            if sql.lstrip().upper().startswith("SELECT"):
                rows = self.db.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
                out.append(" | ".join(r[-1] for r in rows))
        return out


def page_costs(tmp_path: Path, monkeypatch, make_daemon, games: int, name: str):
    """The table page's history call and a replay page of game 3: (the history, the replay
    page, what each ran on the journal's connection)."""
    journal, db = open_traced(tmp_path / f"{name}.sqlite", monkeypatch)
    finished_games(journal, games)
    backend = DaemonWebBackend(make_daemon(journal=journal), tmp_path / f"{name}.tokens")
    with Watch(db) as history:
        listed = backend.history(30)
    with Watch(db) as replay:
        page = backend.record(3, 10, 5)
    return listed, page, history, replay


def test_the_pages_read_only_what_they_show(tmp_path, monkeypatch, make_daemon):
    small, page, few, replay_few = page_costs(tmp_path, monkeypatch, make_daemon, 40, "small")
    large, _, many, replay_many = page_costs(tmp_path, monkeypatch, make_daemon, 400, "large")
    assert len(small) == len(large) == 30
    assert [g["id"] for g in large] == list(range(401, 371, -1))  # the game in progress first
    assert large[1]["moves"] == len(SCRIPTS["binaryon"][0]) and large[1]["status"] == "finished"
    for watch in (few, many):
        assert not any("events" in sql for sql in watch.sql)  # never a game's moves
        assert sum("FROM games" in sql for sql in watch.sql) == 1
        for plan in watch.plans():
            assert "TEMP B-TREE" not in plan  # no sort of every row: read in id order
    assert many.steps == few.steps  # ten times the games, the same work
    # a replay page reads its own game's row and events, through their keys
    assert page["id"] == 3 and page["from"] == 10 and len(page["frames"]) == 5
    for watch in (replay_few, replay_many):
        assert watch.plans() and all("SCAN" not in plan for plan in watch.plans())
    assert replay_many.steps == replay_few.steps


def test_one_kind_of_game_is_read_through_its_index(tmp_path, monkeypatch):
    journal, db = open_traced(tmp_path / "j.sqlite", monkeypatch)
    finished_games(journal, 30, "wythe")
    finished_games(journal, 200, "binaryon")
    with Watch(db) as few:
        assert [g.id for g in journal.recent(5, game="wythe")] == [30, 29, 28, 27, 26]
    finished_games(journal, 800, "binaryon")
    with Watch(db) as many:
        assert [g.id for g in journal.recent(5, game="wythe")] == [30, 29, 28, 27, 26]
    assert any("USING INDEX games_by_game (game=?)" in plan for plan in many.plans())
    assert many.steps == few.steps  # 800 more games of another kind: not one more step
    assert journal.recent(0) == [] and journal.recent(5, game="binary") == []


# --- the same games as the old way ---
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("begin"), st.sampled_from(sorted(SCRIPTS))),
        st.tuples(st.just("play"), st.integers(1, 6)),
        st.tuples(st.just("finish"), st.none()),
        st.tuples(st.just("takeback"), st.integers(0, 4)),
        st.tuples(st.just("abandon"), st.none()),
        st.tuples(st.just("pause"), st.none()),
    ),
    max_size=25,
)


def apply(journal: SqliteJournal, ops: list[tuple[str, object]]) -> None:
    """Play ``ops`` on the journal as the session would; those that do not apply are skipped."""
    gid, game, ply = None, "binaryon", 0
    for op, arg in ops:
        if op == "begin":
            game, ply = str(arg), 0
            gid = journal.begin(game, get_spec(game).resolve({}), {"on": "Ann", "white": "Bo"})
            continue
        if gid is None:
            continue
        moves, outcome = SCRIPTS[game]
        try:
            if op == "play" and ply < len(moves) - 1:
                upto = min(len(moves) - 1, ply + int(arg))
                journal.commit_turn(gid, ply, [MoveEntry(k, moves[k]) for k in range(ply, upto)])
                ply = upto
            elif op == "finish":
                journal.commit_turn(
                    gid, ply, [MoveEntry(k, moves[k]) for k in range(ply, len(moves))], outcome
                )
                ply = len(moves)
            elif op == "takeback":
                ply = max(0, ply - int(arg))
                journal.takeback(gid, ply)
            elif op == "abandon":
                journal.abandon(gid)
            elif op == "pause":
                journal.pause(gid)
        except JournalError:
            pass  # a game ended (finished, abandoned, paused) takes no more moves


def header(entry) -> tuple:
    return (
        entry.id, entry.game, entry.options, entry.players, entry.started, entry.ended,
        entry.status, entry.result, entry.summary, entry.detail, entry.note, entry.tags,
        entry.takebacks, entry.move_count,
    )  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS, st.integers(1, 8), st.sampled_from([None, "binaryon", "wythe"]))
def test_recent_lists_what_reading_every_game_listed(ops, limit, game):
    with tempfile.TemporaryDirectory() as tmp, SqliteJournal.open(Path(tmp) / "j.sqlite") as j:
        with j.batch():
            apply(j, ops)
        old = [e for e in j.games() if game is None or e.game == game][-limit:][::-1]
        new = j.recent(limit, game=game)
        assert [header(e) for e in new] == [header(e) for e in old]
        assert [history_row(e) for e in new] == [history_row(e) for e in old]


# --- an older journal ---
def version_2_journal(path: Path) -> None:
    """A journal as version 2 wrote it: no games_by_game index."""
    db = sqlite3.connect(path)
    schema = SCHEMA.replace("CREATE INDEX IF NOT EXISTS games_by_game ON games (game, id);\n", "")
    assert schema != SCHEMA
    db.executescript(schema)
    db.execute(f"PRAGMA application_id = {journal_db.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    for i, game in enumerate(["wythe", "binaryon", "wythe"], 1):
        db.execute(
            "INSERT INTO games (game, options, players, started, status, ply) VALUES"
            " (?, '{}', '{}', '2025-01-01T00:00:00.000Z', 'abandoned', ?)",
            (game, i),
        )
    db.commit()
    db.close()


def indexes(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    finally:
        db.close()


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def test_a_version_2_journal_gets_the_index_at_its_first_writable_open(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite"
    version_2_journal(path)
    with SqliteJournal.open(path, read_only=True) as j:  # reading never changes the file
        assert [(g.id, g.move_count) for g in j.recent(5, game="wythe")] == [(3, 3), (1, 1)]
    assert "games_by_game" not in indexes(path) and user_version(path) == 2
    journal, db = open_traced(path, monkeypatch)
    with journal:
        assert "games_by_game" in indexes(path) and user_version(path) == SCHEMA_VERSION == 6
        with Watch(db) as watch:
            assert [g.id for g in journal.recent(5, game="wythe")] == [3, 1]
        assert any("games_by_game" in plan for plan in watch.plans())
        assert [g.id for g in journal.recent(2)] == [3, 2]


# --- secrets ---
def test_history_lists_no_secret_before_the_game_reveals_it(
    tmp_path, make_daemon, stub_games, monkeypatch
):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("binome", {"players": "Solo", "solo": 2}, j)
        seed = s.options["seed"]
        s.submit(s.state.legal_moves("Solo")[0], "Solo")
        s = Session("hidden", journal=j)  # the Binøme game is left in the history
        s.submit_name("hide left c3", "left")
        s.submit_name("hide right b2", "right")
        assert not s.state.revealed()
    daemon = make_daemon(game="hidden", journal=SqliteJournal.open(path))
    backend = DaemonWebBackend(daemon, tmp_path / "tokens.json")
    listed = json.dumps(backend.history(10))
    assert [g["game"] for g in backend.history(10)] == ["hidden", "binome"]
    assert str(seed) not in listed and "seed" not in listed
    assert "c3" not in listed and "b2" not in listed and "hide" not in listed


def test_the_history_is_read_again_only_when_the_journal_changed(
    tmp_path, monkeypatch, make_daemon
):
    path = tmp_path / "j.sqlite"
    journal, db = open_traced(path, monkeypatch)
    finished_games(journal, 3)
    backend = DaemonWebBackend(make_daemon(journal=journal), tmp_path / "tokens.json")
    first = backend.history(30)
    assert [(g["id"], g["moves"]) for g in first][:2] == [(4, 0), (3, len(SCRIPTS["binaryon"][0]))]
    with Watch(db) as again:
        assert backend.history(30) == first
    assert not any("FROM games" in sql for sql in again.sql)  # the answer read before
    assert backend.submit("on", "e5")["ok"]  # a move: the game in progress lists it
    assert backend.history(30)[0]["moves"] == 1 and backend.history(2) == backend.history(30)[:2]
    other = sqlite3.connect(path)  # another program's write, without the daemon knowing
    with other:
        other.execute("UPDATE games SET summary = 'OFF wins by a hair' WHERE id = 3")
    other.close()
    assert backend.history(30)[1]["result"] == "OFF wins by a hair"
