"""A remote game on a clock: two real companions (tests/remote_child.py) on a real Mosquitto.
The board where a move is made stamps its time; both boards show the same times (within 0.1 s)
after each move, after a board is killed and started again, and after a pause or resume on
either; a flag ends the game on both. The rules of what a board takes from its peer are held
on sessions directly (tests of ``RemoteClock``)."""

from __future__ import annotations

import random
import time

import pytest

from companion.club.remote_clock import RemoteClock, clock_key
from companion.referee.session import Session
from companion.timing.clock import TimeControl
from tests.conftest import FakeClock
from tests.remote_boards import Board


def times_at(state: dict, at: float) -> dict[str, float]:
    """A board's clock at the moment ``at`` (the machine's monotonic clock, the same for both
    processes): the running player's time goes down from when the state was read."""
    clock = state["clock"]
    times = dict(clock["times"])
    if clock["running"] is not None and not clock["paused"]:
        times[clock["running"]] -= at - clock["now"]
    return times


def same_times(a: Board, b: Board) -> dict[str, float]:
    sa, sb = a.state(), b.state()
    assert sa["clock"]["running"] == sb["clock"]["running"]
    assert sa["clock"]["paused"] == sb["clock"]["paused"]
    at = max(sa["clock"]["now"], sb["clock"]["now"])
    ta, tb = times_at(sa, at), times_at(sb, at)
    assert ta.keys() == tb.keys()
    for player in ta:
        assert abs(ta[player] - tb[player]) <= 0.1, (player, ta, tb)
    return ta


def times_agreed(a: Board, b: Board, within: float = 30.0) -> dict[str, float]:
    """``same_times`` once the boards have settled: a move sent while the broker was gone
    arrives with its stamp too old to count its time on the way (``MAX_LATE``), and the
    clock its board sends on the reconnection, a moment later, puts it right."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            return same_times(a, b)
        except AssertionError:
            time.sleep(0.1)
    return same_times(a, b)


def one_move(mover: Board, other: Board, move: str, think: float, replicate: float) -> None:
    """``mover``'s player thinks ``think`` s and moves; ``other`` lights it and its player
    makes it on the board ``replicate`` s later."""
    ply = len(mover.state()["moves"])
    time.sleep(think)
    mover.ask(f"play {move}")
    mover.wait(lambda s: len(s["moves"]) > ply, f"{move} played")
    other.wait(lambda s: s["wanted"] == move, f"{move} lit", 60)
    same_times(mover, other)  # the move's clock is there before it is made on the board
    time.sleep(replicate)
    other.ask(f"play {move}")
    other.wait(lambda s: len(s["moves"]) > ply, f"{move} made")


def seats(t3: Board, t4: Board) -> dict[str, Board]:
    return {t3.state()["local"]: t3, t4.state()["local"]: t4}


def moves_made(t3: Board, t4: Board, rng: random.Random, think: float) -> tuple[Board, Board]:
    """Two random moves, each made at the mover's board and then at the other's after
    ``think`` s each; then (the board to move, the other)."""
    boards = seats(t3, t4)
    for _ in range(2):
        mover = boards[t3.state()["turn"]]
        other = next(b for b in boards.values() if b is not mover)
        one_move(mover, other, rng.choice(mover.state()["legal"]), think, think)
    mover = boards[t3.state()["turn"]]
    return mover, next(b for b in boards.values() if b is not mover)


def test_both_boards_keep_one_clock_each_move_stamped_where_it_was_made(timed_pair):
    t3, t4 = timed_pair()
    boards = seats(t3, t4)
    rng = random.Random(2)
    for k in range(4):
        state = t3.state()
        mover = boards[state["turn"]]
        other = next(b for b in boards.values() if b is not mover)
        before = same_times(t3, t4) if k else None
        one_move(mover, other, rng.choice(mover.state()["legal"]), 0.3, 0.6)
        after = same_times(t3, t4)
        if before is not None:  # the mover used about 0.3 s and got 3 s; nothing else
            used = before[state["turn"]] + 3 - after[state["turn"]]
            assert 0.3 <= used < 1.5, (before, after)
        # the player on move now has been charged the replication (0.6 s), once
        running = t3.state()["clock"]["running"]
        assert running is not None and running != state["turn"]
        assert after[running] <= (before or after)[running] + 0.01
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves()


@pytest.mark.parametrize("killed", ["mover", "other"])
def test_a_board_killed_and_started_again_shows_the_same_times_as_its_peer(timed_pair, killed):
    t3, t4 = timed_pair()
    rng = random.Random(4)
    mover, other = moves_made(t3, t4, rng, 0.1)
    victim = mover if killed == "mover" else other
    time.sleep(1.2)  # the clock ticked into the journal
    victim.kill()
    time.sleep(0.5)
    victim.start()  # resumes its game, its clock paused as the last tick left it
    peer = other if victim is mover else mover
    peer.wait(lambda s: s["clock"]["paused"], "the restart's pause on the peer", 30)
    times = same_times(t3, t4)
    assert t3.state()["clock"]["paused"] and t4.state()["clock"]["paused"]
    peer.ask("confirm")  # the arbiter resumes it on either board
    victim.wait(lambda s: not s["clock"]["paused"], "resumed on both", 30)
    resumed = same_times(t3, t4)
    assert resumed.keys() == times.keys()
    victim.ask("confirm")  # and pauses it on the other
    peer.wait(lambda s: s["clock"]["paused"], "paused on both", 30)
    same_times(t3, t4)


def test_after_the_broker_comes_back_both_boards_show_the_same_times(timed_pair, broker):
    t3, t4 = timed_pair()
    rng = random.Random(6)
    mover, other = moves_made(t3, t4, rng, 0.1)
    broker.kill()  # the broker forgets everything
    ply = len(mover.state()["moves"])
    time.sleep(0.5)
    move = rng.choice(mover.state()["legal"])
    mover.ask(f"play {move}")  # made while the peer cannot hear it
    mover.wait(lambda s: len(s["moves"]) > ply, "the move played without the broker")
    time.sleep(0.5)
    broker.start()
    other.wait(lambda s: s["wanted"] == move, "caught up", 90)
    times_agreed(t3, t4)  # the peer's player charged from the move, not from its arrival
    other.ask(f"play {move}")
    other.wait(lambda s: len(s["moves"]) > ply, f"{move} made")
    same_times(t3, t4)


def test_a_board_cut_off_never_flags_the_player_who_moved_in_time_at_the_other(timed_pair, broker):
    """The broker goes while it is P1's turn: P1 moves in time at their board; the other
    board, which cannot hear it, sees P1's time run out but the flag is P1's board's to
    call. Once the broker is back the move arrives with its stamp, P2's time (run since
    the move) is gone, and both boards end the game the same way, with the same moves."""
    t3, t4 = timed_pair("0:06+0")
    rng = random.Random(12)
    p1, p2 = moves_made(t3, t4, rng, 0.0)  # the first move is free; P2 replies at once
    broker.kill()
    time.sleep(1.0)
    move = rng.choice(p1.state()["legal"])
    p1.ask(f"play {move}")  # in time, at P1's board
    time.sleep(6.5)  # P1's time as P2's board last knew it is gone
    assert not p2.state()["over"]  # not P2's board's flag to call
    broker.start()
    ends = [b.wait(lambda s: s["over"], "the game's end", 90) for b in (t3, t4)]
    assert ends[0]["summary"] == ends[1]["summary"] and ends[0]["summary"].endswith("on time")
    assert ends[0]["moves"] == ends[1]["moves"] and ends[0]["moves"][-1] == move
    assert ends[0]["summary"].startswith(p1.state()["playing"].upper())  # P2's time ran out


@pytest.mark.parametrize("made_there", [True, False])
def test_a_flag_ends_the_game_on_both_boards(timed_pair, made_there):
    """(``made_there`` False: the player who runs out of time never made the peer's move on
    their board: it is played there first, so both journals hold it.)"""
    t3, t4 = timed_pair("0:03+0")
    boards = seats(t3, t4)
    mover = boards[t3.state()["turn"]]
    other = next(b for b in boards.values() if b is not mover)
    move = mover.state()["legal"][0]
    if made_there:
        one_move(mover, other, move, 0.0, 0.0)  # the first move is free; then 3 s for the reply
    else:
        mover.ask(f"play {move}")
        other.wait(lambda s: s["wanted"] == move, f"{move} lit", 60)
    for board in (t3, t4):
        over = board.wait(lambda s: s["over"], "the flag", 30)
        assert over["summary"] is not None and over["summary"].endswith("on time")
    assert t3.state()["summary"] == t4.state()["summary"]
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == [move]


# --- RemoteClock on sessions: what a board takes from its peer ---


def timed(t: FakeClock) -> Session:
    return Session("binaryon", {"size": 4}, time_control=TimeControl.parse("1:00+2"), timer=t)


def test_a_moves_stamp_is_taken_ahead_and_the_move_made_here_switches_nothing():
    t = FakeClock()
    here, there = timed(t), timed(t)
    sent: list[dict] = []
    remote = RemoteClock(sent.append)
    move = there.state.legal_moves()[0]
    there.submit(move)  # the first move (free): the second player's time runs
    t.advance(5)
    there.submit(there.state.legal_moves()[0])  # 5 s used, 2 s back
    here.submit(move)
    stamp = there.clock.snapshot(t())
    remote.heard_move(here, {"clock": stamp})
    assert here.clock.ahead and here.clock.running == there.clock.running
    t.advance(3)  # the player here makes the peer's move on the board 3 s later
    here.submit(here.state.parse_move(there.played[-1].name))
    assert not here.clock.ahead
    assert here.clock.times(t()) == there.clock.times(t())  # not switched a second time
    assert clock_key(here.played[-1].clock) == clock_key(there.clock.snapshot(t()))


def test_a_board_behind_takes_the_peers_clock_and_one_ahead_keeps_its_own():
    t = FakeClock()
    ahead, behind = timed(t), timed(t)
    first = ahead.state.legal_moves()[0]
    ahead.submit(first)
    behind.submit(first)
    reply = ahead.state.legal_moves()[0]
    ahead.submit(reply)  # made there; not yet here
    remote = RemoteClock(lambda m: None)
    remote.heard_move(behind, {"clock": ahead.clock.snapshot(t())})
    ahead.pause_clock()
    paused = {"ply": len(ahead.played), "clock": ahead.clock.snapshot(t())}
    remote.heard_clock(behind, paused, theirs_last=True)
    assert behind.clock.paused and behind.clock.ahead  # still ahead of the move here
    # the board ahead never takes the clock of one a move behind it
    old = {"ply": 1, "clock": {**behind.clock.snapshot(t()), "ahead": False, "paused": False}}
    RemoteClock(lambda m: None).heard_clock(ahead, old, theirs_last=False)
    assert ahead.clock.paused
    # a damaged clock changes nothing, in one log line
    remote.heard_clock(
        behind, {"ply": len(ahead.played), "clock": {"left": "soon"}}, theirs_last=True
    )
    assert behind.clock.paused


def test_the_same_clock_but_for_the_turns_use_is_taken_from_the_board_that_began_the_turn():
    """After the broker was gone, the move's own stamp came late: the mover's board's clock
    (its turn's use counted from the move) is taken; the other way round, it is not."""
    t = FakeClock()
    mover, peer = timed(t), timed(t)
    move = mover.state.legal_moves()[0]
    mover.submit(move)
    peer.submit(move)
    t.advance(2)
    reply = mover.state.legal_moves()[0]
    mover.submit(reply)
    peer.submit(reply)  # both boards at the same move
    t.advance(3)
    sent = {"ply": len(mover.played), "clock": mover.clock.snapshot(t())}
    later = dict(peer.clock.snapshot(t()), used=0.5)
    peer.adopt_clock(later)
    RemoteClock(lambda m: None).heard_clock(peer, sent, theirs_last=False)
    assert peer.clock.used(t()) == pytest.approx(0.5)  # this board began it: kept
    RemoteClock(lambda m: None).heard_clock(peer, sent, theirs_last=True)
    assert peer.clock.used(t()) == pytest.approx(3.0)  # the peer's move began it: taken


def test_a_change_without_a_move_is_sent_once_and_a_flag_once():
    t = FakeClock()
    s = timed(t)
    sent: list[dict] = []
    remote = RemoteClock(sent.append)
    remote.follow(s, again=True)
    assert [m["kind"] for m in sent] == ["clock"]
    s.submit(s.state.legal_moves()[0])
    remote.follow(s, again=False)  # a move: its stamp goes with it
    assert len(sent) == 1
    s.pause_clock()
    remote.follow(s, again=False)
    remote.follow(s, again=False)
    assert [m["kind"] for m in sent] == ["clock", "clock"] and sent[-1]["clock"]["paused"]
    s.resume_clock()
    t.advance(61)
    assert s.flag_fall() is not None
    remote.follow(s, again=False)
    remote.follow(s, again=False)
    assert sent[-1] == {"kind": "flag", "ply": 1, "player": "off"}
    other = timed(t)
    other.submit(other.state.legal_moves()[0])
    RemoteClock(lambda m: None).heard_flag(other, sent[-1])
    assert other.clock.flagged(t()) == "off"
