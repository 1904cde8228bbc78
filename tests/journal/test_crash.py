"""kill -9 at random points, including inside commits: the journal always holds exactly the
accepted prefix of the game (no move lost, none duplicated) and a restart resumes it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.journal.api import NullJournal
from companion.journal.rows import FINISHED, IN_PROGRESS
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from tests.paths import REPO

CHILD = REPO / "tests" / "crash_child.py"


def scripted_game() -> tuple[list[str], list]:
    """The game the child plays: the first legal move each time, passes by the referee."""
    s = Session("binaryon", journal=NullJournal())
    while not s.state.is_over():
        assert s.submit(s.state.legal_moves()[0]).accepted
    return list(s.moves), list(s.states)


SCRIPT, STATES = scripted_game()


def same_position(a, b) -> bool:
    return (a.white, a.mover, a.last, a.passes, a.ply) == (
        b.white,
        b.mover,
        b.last,
        b.passes,
        b.ply,
    )


def run_child(path: Path, mode: str, die_at: int = 0, after_ready=None, from_spawn=None) -> str:
    # Unbuffered: reading "R" must not pull later lines into a buffer that communicate()
    # (which reads the pipe's file descriptor directly) would never see.
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), mode, str(die_at)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    first = b""
    if from_spawn is not None:
        time.sleep(from_spawn)
        proc.send_signal(signal.SIGKILL)
    elif after_ready is not None:
        while not first.endswith(b"\n"):  # "R" (or nothing if it died already)
            byte = os.read(proc.stdout.fileno(), 1)
            if not byte:
                break
            first += byte
        time.sleep(after_ready)
        proc.send_signal(signal.SIGKILL)
    try:
        rest, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("crash child neither died nor was killed")
    out = (first + rest).decode()
    assert proc.returncode == -signal.SIGKILL, out[-300:]
    assert "\nX " not in out, out[-300:]  # the child never saw a move refused
    return out


def parse(out: str) -> tuple[dict[int, list[str]], dict[int, tuple[int, str]], str]:
    """Per game, the moves reported accepted in this run and the last move tried (with how
    many accepted moves came before it); and the last line printed."""
    printed: dict[int, list[str]] = {}
    tried: dict[int, tuple[int, str]] = {}
    game = None
    for line in out.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "G":
            game = int(rest)
            printed.setdefault(game, [])
        elif kind == "T" and game is not None:
            tried[game] = (len(printed[game]), rest)
        elif kind == "M" and game is not None:
            printed[game].append(rest)
    lines = out.splitlines()
    return printed, tried, lines[-1] if lines else ""


# 120 kills in all, in four runs of 30 on their own journals: the runs are independent, so
# ./run-tests' workers take them side by side (the module is marked ``spread``).
pytestmark = pytest.mark.spread


@pytest.mark.parametrize("run", range(4))
def test_kill_minus_nine_anywhere_keeps_exactly_the_accepted_prefix(tmp_path, run):
    rng = random.Random(20240605 + run)
    path = tmp_path / "journal.sqlite"
    known: dict[int, list[str]] = {}  # per game: moves verified committed so far
    plan = (
        [("session", {"die_at": rng.randint(1, 900)}) for _ in range(11)]
        + [("session", {"after_ready": rng.uniform(0, 0.08)}) for _ in range(9)]
        + [("daemon", {"after_ready": rng.uniform(0, 0.15)}) for _ in range(4)]
        + [("daemon", {"die_at": rng.randint(1, 900)}) for _ in range(2)]
        + [("session", {"from_spawn": rng.uniform(0, 0.2)}) for _ in range(4)]
    )
    rng.shuffle(plan)
    kills = lost_in_flight = saved_unshown = 0
    for mode, how in plan:
        out = run_child(path, mode, **how)
        kills += 1
        printed, tried, last_line = parse(out)
        journal = SqliteJournal.open(path)
        try:
            assert journal.recovery is None  # a kill never damages the file
            games = {g.id: g for g in journal.games()}
            current = journal.current()
        finally:
            journal.close()
        for gid, entry in games.items():
            saved = entry.move_names
            # no duplicate, nothing out of order: always a prefix of the scripted game
            assert saved == SCRIPT[: len(saved)], (gid, saved)
            before = known.get(gid, [])
            shown = before + printed.get(gid, [])
            # no move lost: everything shown as accepted is saved
            assert saved[: len(shown)] == shown, (gid, saved, shown)
            if len(saved) > len(shown):
                # saved but not shown: only the move in flight and the passes it forced
                # (or, with no move tried, passes the referee played on resuming)
                start = len(before) + tried[gid][0] if gid in tried else len(shown)
                if gid in tried:
                    assert saved[start] == tried[gid][1], (gid, saved, shown)
                    start += 1
                assert all(m == "pass" for m in saved[start:]), (
                    f"game {gid}: saved {len(saved)}, shown {len(shown)} (known {len(before)}),"
                    f" unshown {saved[start:]}, tried {tried.get(gid)}, {mode} {how},"
                    f" output tail {out[-300:]!r}"
                )
                saved_unshown += 1
            elif gid in tried and last_line == f"T {tried[gid][1]}":
                lost_in_flight += 1  # killed before its commit completed: not saved, not shown
            known[gid] = saved
            if entry.status == FINISHED:
                assert saved == SCRIPT
                assert entry.result == STATES[-1].outcome().winner
            else:
                assert entry.status == IN_PROGRESS
        ids = sorted(games)
        for gid in ids[:-1]:  # older games were played to the end before a new one began
            assert games[gid].move_names == SCRIPT
            assert games[gid].status == FINISHED
        if current is not None:
            assert current.game_id == ids[-1]
            resumed = Session.resume(current, NullJournal())
            assert resumed.moves[: len(current.moves)] == current.moves
            assert resumed.moves == SCRIPT[: len(resumed.moves)]
            assert same_position(resumed.state, STATES[len(resumed.moves)])
    assert kills == 30
    assert len(known) >= 2  # the kills spanned more than one whole game
    assert saved_unshown > 0 and lost_in_flight > 0  # both sides of a commit were hit
