"""Takebacks in a remote game: two real companions (tests/remote_child.py) on a real
Mosquitto. The undo button on one board only asks; the player at the other board agrees
with theirs; then both boards take the move back, both journals record the takeback, the
clock is the same on both, and the game goes on to the same end."""

from __future__ import annotations

import random

from companion.journal.store import SqliteJournal
from tests.club.remote.test_clock import same_times, seats
from tests.club.remote.test_play import play


def takebacks(board) -> int:
    journal = SqliteJournal.open(board.journal)
    try:
        entry = journal.recent(1)[0]
        return entry.takebacks
    finally:
        journal.close()


def test_a_takeback_needs_both_players_and_both_journals_record_it(pair):
    t3, t4 = pair("binaryon", {"size": 4})
    boards = seats(t3, t4)
    rng = random.Random(8)
    moves = play(boards, rng, plies=3, refuse=False)
    last = t3.state()["moves"][-1]
    # the board whose player made the last move asks; nothing is taken back yet
    asker = next(b for b in boards.values() if b.state()["turn"] != b.state()["playing"])
    other = next(b for b in boards.values() if b is not asker)
    asker.ask("undo")
    asked = asker.state()
    assert asked["moves"] == moves and asked["message"].startswith(f"takeback of {last} asked")
    heard = other.wait(lambda s: "asks to take back" in s["message"], "the request", 30)
    assert heard["moves"] == moves and heard["message"].endswith(f"{last}: undo to agree")
    asker.ask("undo")  # asking again takes nothing back alone
    assert asker.state()["moves"] == moves
    other.ask("undo")  # the other player agrees
    for board in (t3, t4):
        board.wait(lambda s: s["moves"] == moves[:-1], "taken back on both", 30)
    moves = play(boards, rng, refuse=False)  # and the game goes on to the same end
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == moves
    assert takebacks(t3) == takebacks(t4) == 1


def test_after_a_takeback_both_boards_show_the_same_clock(timed_pair):
    t3, t4 = timed_pair()
    boards = seats(t3, t4)
    moves = play(boards, random.Random(9), plies=2, refuse=False)
    asker = next(b for b in boards.values() if b.state()["turn"] != b.state()["playing"])
    other = next(b for b in boards.values() if b is not asker)
    asker.ask("undo")
    other.wait(lambda s: "asks to take back" in s["message"], "the request", 30)
    other.ask("undo")
    for board in (t3, t4):
        board.wait(lambda s: s["moves"] == moves[:-1], "taken back on both", 30)
    asker.wait(lambda s: s["clock"]["running"] == s["playing"], "the asker's time runs", 30)
    same_times(t3, t4)
