"""Remote play against a dishonest peer (docs/club.md, "A dishonest peer"): two real
companions (each in its own process with its own journal, tests/remote_child.py) on a real
Mosquitto, and a third party: a paho client forging a move, a clock change, a flag or a
takeback, or one of the two boards turned dishonest (it turns over its answers, or reveals
its secret moves late or never)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from companion import PROGRAM
from companion.cli.main import main
from companion.club import topics
from tests.club.remote.test_play import play
from tests.club.remote.test_secrets import drive
from tests.conftest import wait_until
from tests.remote_boards import Board, seated


@pytest.fixture
def boards(pair):
    """Boards t3 (the first seat) and t4 (the second), t4 with the environment given."""

    def make(game: str, rules: dict, t4_env: dict | None = None, timeout: str = "120"):
        return pair(game, rules, env={"REMOTE_REVEAL_TIMEOUT": timeout}, t4_env=t4_env)

    return make


def disputes(board: Board) -> list[tuple[str, str, dict]]:
    """(status, why, evidence) of each game the board's journal marks disputed or unverified."""
    db = sqlite3.connect(board.journal)
    try:
        rows = db.execute("SELECT dispute FROM games WHERE dispute IS NOT NULL").fetchall()
    finally:
        db.close()
    marked = [json.loads(row[0]) for row in rows]
    return [(d["status"], d["why"], d["evidence"]) for d in marked]


def results(listener, board: str) -> list[dict]:
    return [
        json.loads(h.payload) for h in listener.messages(f"{PROGRAM}/{board}/results/") if h.payload
    ]


def test_a_third_partys_move_with_the_peers_identity_is_refused(pair, broker):
    """A client that heard the peer's last move sends one of its own under the peer's name,
    game, seat and next number (with the key it heard, or one made up): it is refused, the
    peer's real move is lit, and both boards go on with one game."""
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = pair("binaryon", {"size": 4})
    seats = seated(t3, t4)
    rng = random.Random(2)
    play(seats, rng, plies=3, refuse=False)
    mover = seats[t3.state()["turn"]]
    other = t4 if mover is t3 else t3
    topic = topics.remote(mover.name, other.name)
    sniffed = [json.loads(h.payload) for h in listener.messages(topic)]
    last = [m for m in sniffed if m["kind"] == "move"][-1]
    legal = mover.state()["legal"]
    assert len(legal) >= 2
    forged_move, real_move = legal[0], legal[-1]
    ply = len(mover.state()["moves"])
    for key in (last["key"], "ab" * 32):
        forged = {**last, "seq": last["seq"] + 1, "ply": ply, "move": forged_move, "key": key}
        listener.client.publish(topic, json.dumps(forged), qos=1).wait_for_publish(10)
    said = other.wait(lambda s: "was refused" in s["message"], "the forged move refused")
    assert said["wanted"] is None and len(said["moves"]) == ply
    assert f"said to be {mover.name}'s" in said["message"]
    mover.ask(f"play {real_move}")
    other.wait(lambda s: s["wanted"] == real_move, "the peer's real move lit")
    other.ask(f"play {real_move}")
    moves = play(seats, rng, refuse=False)
    assert t3.state()["moves"] == t4.state()["moves"] == moves and moves[ply] == real_move
    listener.close()


def test_a_peer_that_turns_over_its_answers_is_caught_and_nothing_wedges(boards, broker):
    """t4 tells each guess's answer turned over. The lie is caught (when the boards can no
    longer agree, or at the end against t4's revealed pawns): both boards say the game is
    disputed, both journals mark it with the evidence (t3's, once t4's pawns are revealed,
    the answer turned over), the hub gets ``disputed`` and no plain result, and t3's player
    starts a new game."""
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = boards("latent-binaries", {}, {"REMOTE_LIE": "flip"})
    seats = seated(t3, t4)
    drive(seats, random.Random(4), until=lambda states: t3.state()["disputed"])
    honest = t3.wait(lambda s: s["disputed"], "the lie caught")
    assert "game disputed" in honest["message"] and "arbiter" in honest["message"]
    liar = t4.wait(lambda s: s["disputed"], "the dispute said on the other board too")
    assert "game disputed" in liar["message"]
    for board in (t3, t4):
        [(status, why, evidence)] = disputes(board)
        assert status == "disputed" and why and evidence["peer"] in ("t3", "t4")
    # the game stopped: both reveal, and t4's pawns show the answer it turned over
    wait_until(lambda: "lie" in disputes(t3)[0][2], 30, "the lie shown by t4's pawns")
    [(_status, why, evidence)] = disputes(t3)
    lie = evidence["lie"]
    assert lie["fact"].startswith("answer ") and {lie["told"], lie["true"]} == {"right", "wrong"}
    assert why.endswith(f'its moves say "{lie["true"]}"')
    assert not any("lie" in e for _s, _w, e in disputes(t4)), "t3 told the truth"
    heard = listener.wait_for(lambda _: results(listener, "t3"))
    assert heard
    result = results(listener, "t3")[-1]
    assert result["status"] == "disputed" and result["evidence"]
    t3.ask("new")  # nothing wedges: the player here goes on
    fresh = t3.state()
    assert fresh["moves"] == [] and not fresh["disputed"]
    listener.close()


def test_a_peer_that_never_reveals_is_said_and_the_hub_gets_unverified(boards, broker):
    """t4 (the second seat, which reveals first) never sends its secret moves at the end:
    t3 keeps its own secret (it reveals only after checking t4's), says so after
    ``reveal_timeout`` and sends its result ``unverified``."""
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = boards("latent-binaries", {}, {"REMOTE_LIE": "silent"}, timeout="2")
    seats = seated(t3, t4)
    drive(seats, random.Random(11))
    said = t3.wait(lambda s: "never revealed" in s["message"], "the peer's silence said")
    assert said["message"] == "t4 never revealed its secret moves: result unverified"
    listener.wait_for(lambda _: results(listener, "t3"))
    result = results(listener, "t3")[-1]
    assert (result["status"], result["why"]) == ("unverified", "t4 never revealed its secret moves")
    [(status, _why, _evidence)] = disputes(t3)
    assert status == "unverified"
    names = [
        json.loads(h.payload)
        for h in listener.messages(topics.remote("t3", "t4"))
        if json.loads(h.payload)["kind"] == "names"
    ]
    assert names == [], "t3 never gave its secrets to a peer that kept its own"
    listener.close()


def test_names_that_come_after_the_timeout_leave_the_game_unverified_and_say_so(boards, capsys):
    """t4 reveals its secret moves 5 s after the end, past t3's ``reveal_timeout`` (2 s):
    t3 has marked the game unverified; the names check out, t3 takes the whole game, the mark
    stays ``unverified`` (the hub has the result as the arbiter's) and its reason says the
    names came late and check out; ``history`` says ``unverified`` in one word."""
    t3, t4 = boards("latent-binaries", {}, {"REMOTE_LIE": "late"}, timeout="2")
    seats = seated(t3, t4)
    drive(seats, random.Random(11))
    t3.wait(lambda s: "never revealed" in s["message"], "the peer's silence said")
    late = t3.wait(lambda s: not s["masked"], "the whole game, revealed late", 60)
    assert late["message"] == (
        "t4 revealed its secret moves after 2 s; they check out: the result stays"
        " unverified, the arbiter's"
    )
    [(status, why, evidence)] = disputes(t3)
    assert status == "unverified"
    assert why == "t4 revealed its secret moves after 2 s; they check out"
    assert evidence["revealed_late"] is True and evidence["peer"] == "t4"
    t4.wait(lambda s: not s["masked"], "t3's names checked on t4 too")
    t3.stop()
    capsys.readouterr()
    assert main(["history", "--json", "--journal", str(t3.journal)]) == 0
    [game] = json.loads(capsys.readouterr().out)
    assert game["dispute"] == "unverified" and game["status"] == "finished"
    assert main(["history", "--journal", str(t3.journal)]) == 0
    [row] = capsys.readouterr().out.splitlines()[1:]
    assert row.split()[5] == "unverified"  # id, date, time, game, moves, then the status


@pytest.mark.parametrize(
    "game, rules", [("latent-binaries", {}), ("binome", {"players": "Ann,Bob"})]
)
def test_a_peer_whose_revealed_secret_is_not_the_one_it_chose_is_caught(
    boards, broker, game, rules
):
    """t4 plays honestly but at the end reveals one secret otherwise (a nest's two pawns
    swapped, a digit in another slot of its sheet): the name does not match the commitment
    sent with the move, and the game is disputed on both boards, with the commitment, the
    salt and the name as evidence."""
    t3, t4 = boards(game, rules, {"REMOTE_LIE": "rename"})
    seats = seated(t3, t4)
    drive(seats, random.Random(11))
    honest = t3.wait(lambda s: s["disputed"], "the false reveal caught")
    assert honest["message"] == (
        f"game disputed: t4's move {disputes(t3)[0][2]['move'] + 1} revealed is not the one it"
        " committed to; the result is the arbiter's"
    )
    [(status, _why, evidence)] = disputes(t3)
    assert status == "disputed" and evidence["commit"] and evidence["salt"]
    assert "/" in evidence["revealed"] or " write " in evidence["revealed"]
    t4.wait(lambda s: s["disputed"], "said on t4 too")
    assert t3.state()["masked"], "t3 keeps its game as it knew it: the false reveal is not taken"


def test_a_peer_that_never_answers_is_said_after_the_timeout(boards):
    """t4 never tells its facts (here its stash, once both have set up): t3 waits, and after
    ``reveal_timeout`` says so, and that a new game leaves this one to the arbiter."""
    t3, t4 = boards("latent-binaries", {}, {"REMOTE_LIE": "mute"}, timeout="2")
    seats = seated(t3, t4)
    drive(seats, random.Random(3), until=lambda states: "not answered" in t3.state()["message"])
    said = t3.state()
    assert said["waiting"] == ["xeno"]
    assert said["message"] == (
        "t4 has not answered in 2 s: a new game leaves this one to the arbiter"
    )
    t3.ask("new")
    assert t3.state()["moves"] == []


def sniffed(listener, sender: str, receiver: str) -> list[dict]:
    return [json.loads(h.payload) for h in listener.messages(topics.remote(sender, receiver))]


@pytest.mark.parametrize("kind", ["clock", "flag", "undo"])
def test_a_third_partys_clock_flag_or_takeback_is_refused_and_the_game_goes_on(
    timed_pair, broker, kind
):
    """A client that heard the peer's messages sends a clock change (the clock paused), a
    flag (the running player's time gone) or a takeback's ``done`` (the move taken back on
    one board) under the peer's identity, once with the number and key it heard, once with
    the next number and a made-up key: each is refused in one line, nothing changes on the
    board, and the game goes on to the same end on both."""
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = timed_pair("5:00+3")
    seats = seated(t3, t4)
    rng = random.Random(5)
    moves = play(seats, rng, plies=3, refuse=False)
    # the board whose player made the last move is the one attacked (it asks for a takeback)
    victim = next(b for b in (t3, t4) if b.state()["turn"] != b.state()["playing"])
    peer = t4 if victim is t3 else t3
    if kind == "undo":
        victim.ask("undo")
        peer.wait(lambda s: "asks to take back" in s["message"], "the request", 30)
    heard = sniffed(listener, peer.name, victim.name)
    identity = {k: v for k, v in heard[-1].items() if k not in ("kind", "seq", "ply", "move")}
    last = [m for m in heard if m["kind"] == "clock"][-1]  # sent at the game's start
    cseq, ckey = last.get("cseq", 0), last.get("ckey", "ab" * 32)
    before = victim.state()
    running = before["clock"]["running"]
    forged = {
        "clock": {"ply": len(moves), "clock": {**(last.get("clock") or {}), "paused": True}},
        "flag": {"ply": len(moves), "player": running},
        "undo": {"done": len(moves) - 1, "moves": len(moves), "clock": last.get("clock")},
    }[kind]
    topic = topics.remote(peer.name, victim.name)
    for n, key in ((cseq, ckey), (cseq + 1, "ab" * 32)):
        message = {**identity, "kind": kind, **forged, "cseq": n, "ckey": key}
        listener.client.publish(topic, json.dumps(message), qos=1).wait_for_publish(10)
    said = victim.wait(lambda s: "was refused" in s["message"], "the forgery refused")
    assert f"said to be {peer.name}'s" in said["message"] and "\n" not in said["message"]
    after = victim.state()
    assert after["moves"] == moves and not after["over"]
    assert not after["clock"]["paused"] and after["clock"]["running"] == running
    assert min(after["clock"]["times"].values()) > 200  # no flag fell
    if kind == "undo":  # the request still stands: the peer's player agrees, on both boards
        peer.ask("undo")
        for board in (t3, t4):
            board.wait(lambda s: s["moves"] == moves[:-1], "taken back on both", 30)
        moves = moves[:-1]
    end = play(seats, rng, refuse=False)
    assert end[: len(moves)] == moves and len(end) > len(moves)
    assert t3.state()["moves"] == t4.state()["moves"] == end and t3.state()["over"]
    listener.close()
