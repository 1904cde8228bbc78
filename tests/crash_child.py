"""Child process for tests/journal/test_crash.py: plays scripted Binaryon games against a journal
until it is killed. Not a test module.

    python tests/crash_child.py JOURNAL session|daemon [DIE_AT]

``session`` plays through the session (each press, with the passes it forces and the finish,
is ONE ``journal.commit_turn`` transaction); ``daemon`` presses squares on the simulated board.

Prints ``R`` once ready, ``G <id>`` when a game starts or resumes, ``T <move>`` before
submitting a move and ``M <move>`` for every move accepted (its forced passes included),
flushing each line. With DIE_AT=N the process SIGKILLs itself just before its Nth SQL
statement (BEGIN, INSERT, UPDATE or COMMIT): inside a commit, between its steps.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import companion.journal.db as journal_db  # noqa: E402
from companion.journal.store import SqliteJournal  # noqa: E402
from companion.referee.session import Session  # noqa: E402


class DyingConnection:
    """Wraps the journal's sqlite connection; once armed, dies at the chosen statement."""

    def __init__(self, db):
        self.db = db
        self.die_at = 0  # 0: not armed
        self.count = 0

    def execute(self, sql, params=()):
        self.count += 1
        if self.count == self.die_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.db.execute(sql, params)

    def __getattr__(self, name):
        return getattr(self.db, name)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def play_session(journal) -> None:
    saved = journal.current()
    session = Session.resume(saved, journal) if saved else Session("binaryon", journal=journal)
    say(f"G {session.game_id}")
    for name in session.moves[len(saved.moves) if saved else 0 :]:
        say(f"M {name}")  # passes the referee played on resuming
    while True:
        state = session.state
        if state.is_over():
            session.new_game()
            say(f"G {session.game_id}")
            continue
        move = state.legal_moves()[0]
        say(f"T {move.name}")
        result = session.submit(move)
        if not result.accepted:
            say(f"X {result.refusal}")
            return
        for played in result.played:
            say(f"M {played.name}")


def play_daemon(journal) -> None:
    from companion.core.config import Config
    from companion.games.binaryon.engine import PASS
    from companion.service.daemon import Daemon

    saved = journal.current()
    now = [1000.0]  # a clock the child moves itself, so the switch debounce is exact
    d = Daemon(Config.default(), journal=journal, leds=False, clock=lambda: now[0])
    d.board.start(d.loop.post)
    d.loop.run_pending()
    say(f"G {d.session.game_id}")
    for name in d.session.moves[len(saved.moves) if saved else 0 :]:
        say(f"M {name}")  # passes the referee played on resuming
    while True:
        session = d.session
        state = session.state
        if state.is_over():
            d.new_game()
            say(f"G {d.session.game_id}")
            continue
        move = state.legal_moves()[0]
        say(f"T {move.name}")
        before = len(session.moves)
        if move == PASS:  # a pass a restart left unplayed: only the referee can play it
            session.submit(move)
        else:
            d.board.tap(move.cell)
            d.loop.run_pending()
            now[0] += 0.1
            d.loop.run_pending()
        if len(session.moves) == before:
            say(f"X {d.message}")
            return
        for name in session.moves[before:]:
            say(f"M {name}")


def main() -> None:
    path, mode = sys.argv[1], sys.argv[2]
    die_at = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    made: list[DyingConnection] = []
    real = journal_db.open_rw
    journal_db.open_rw = lambda p: made.append(DyingConnection(real(p))) or made[-1]
    journal = SqliteJournal.open(path)
    if die_at:  # counted from here: the statements of the games played, not of the open
        made[-1].count, made[-1].die_at = 0, die_at
    say("R")
    (play_daemon if mode == "daemon" else play_session)(journal)


if __name__ == "__main__":
    main()
