"""Hidden-information games across two boards: two real companions (each in its own process,
with its own journal) play whole games of Latent Binaries and Binøme over a real Mosquitto.
Each board knows only its own seat's secrets: a listener on ``#`` hears no secret before the
game reveals it, the other board's journal never holds one before the end, and both journals
end with the whole game, every secret in it. A board killed mid-game catches up."""

from __future__ import annotations

import json
import random
import sqlite3
import time

import pytest

from companion import PROGRAM
from tests.remote_boards import Board, seated

GAMES = {"latent-binaries": {}, "binome": {"players": "Ann,Bob"}}
# Binøme's Game of Secrets too: both choose at once, a pass is a secret until the turn resolves
WHOLE = [*GAMES.items(), ("binome", {"players": "Ann,Bob", "secrets": True})]


def drive(boards: dict[str, Board], rng: random.Random, until=None, timeout: float = 60.0):
    """Each board's player makes a random legal move of their own whenever they may (on
    their page, or on the board for a move with squares) and makes the other board's move
    lit for them; until both games are over (or ``until(states)``). A board that does not
    move on within ``timeout`` fails the test, with both boards' states."""
    quiet_since = time.monotonic()
    last = None
    while True:
        states = {seat: b.state() for seat, b in boards.items()}
        if all(s["over"] for s in states.values()) or (until and until(states)):
            return states
        moved = tuple(len(s["moves"]) for s in states.values())
        if moved != last:
            last, quiet_since = moved, time.monotonic()
        elif time.monotonic() - quiet_since > timeout:
            raise AssertionError(f"no progress: {json.dumps(states)[:3000]}")
        for seat, board in boards.items():
            state = states[seat]
            if state["over"]:
                continue
            if state["wanted"]:  # the other board's move, lit here: made by the player here
                board.ask(f"play {state['wanted']}")
            elif state["acting"] and state["mine"]:
                board.ask(f"make {rng.choice(state['mine'])}")
        time.sleep(0.01)


def secret_names(board: Board) -> list[str]:
    """The full names of the board's own secret moves, from its journal's rows (the public
    column is set where they differ)."""
    db = sqlite3.connect(board.journal)
    try:
        rows = db.execute(
            "SELECT move FROM events WHERE kind = 'move' AND public IS NOT NULL AND public != move"
        ).fetchall()
    finally:
        db.close()
    return sorted({r[0] for r in rows})


def journal_text(board: Board) -> str:
    db = sqlite3.connect(board.journal)
    try:
        return "\n".join(str(r) for r in db.execute("SELECT move, public FROM events"))
    finally:
        db.close()


@pytest.mark.parametrize("game, rules", WHOLE, ids=["latent-binaries", "binome", "secrets"])
def test_two_boards_play_a_hidden_game_and_no_secret_leaves_its_board(pair, broker, game, rules):
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = pair(game, rules)
    boards = seated(t3, t4)
    assert len(boards) == 2 and all(b.state()["masked"] for b in boards.values())
    rng = random.Random(11)
    # half way: each board holds its own secrets, and none of the other's
    drive(boards, rng, until=lambda states: min(len(s["moves"]) for s in states.values()) > 20)
    mid = {b.name: secret_names(b) for b in boards.values()}
    assert mid["t3"] and mid["t4"], "both boards have secret moves of their own"
    for mine, other in (("t3", t4), ("t4", t3)):
        held = journal_text(other)
        assert not [n for n in mid[mine] if n in held], f"{other.name} holds {mine}'s secrets"
    heard_mid = [h.payload.decode() for h in listener.messages(f"{PROGRAM}/")]
    for name in mid["t3"] + mid["t4"]:
        assert not any(name in h for h in heard_mid), f"{name} went over the broker"

    drive(boards, rng)
    a, b = (x.wait(lambda s: not s["masked"], "the whole game revealed") for x in (t3, t4))
    assert a["over"] and b["over"] and a["summary"] == b["summary"]
    assert a["moves"] == b["moves"], "both boards end with the whole game"
    secrets = set(secret_names(t3)) | set(secret_names(t4))
    assert secrets <= set(a["moves"])
    # each board's result goes to the hub once its game is whole: every secret in its record
    results = listener.wait_for(
        lambda heard: (
            {h.topic.split("/")[1] for h in heard if "/results/" in h.topic and h.payload}
            >= {"t3", "t4"}
        )
    )
    records = [json.loads(h.payload)["record"] for h in results if "/results/" in h.topic]
    assert len(records) >= 2 and all(r and all(name in r for name in secrets) for r in records)
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == a["moves"]
    # before the end only public names and told facts went over; the names came at the end
    heard = [h for h in listener.messages(f"{PROGRAM}/") if "/remote/" in h.topic]
    kinds = [json.loads(h.payload)["kind"] for h in heard]
    names_at = [i for i, kind in enumerate(kinds) if kind == "names"]
    assert names_at, "each board sent its secret moves' names at the end"
    before_end = [h.payload.decode() for h in heard[: names_at[0]]]
    for name in secrets:
        assert not any(name in h for h in before_end), f"{name} went over before the end"
    assert "told" in kinds[: names_at[0]], "the facts went over while the game was played"
    for h in heard[names_at[0] :]:
        message = json.loads(h.payload)
        assert message["kind"] != "names" or message["over"]
    listener.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_board_killed_mid_hidden_game_catches_up(pair, game):
    t3, t4 = pair(game, GAMES[game])
    boards = seated(t3, t4)
    rng = random.Random(5)
    states = drive(boards, rng, until=lambda sts: min(len(s["moves"]) for s in sts.values()) > 7)
    assert not any(s["over"] for s in states.values())
    t4.kill()
    t4.start()
    back = t4.state()
    assert back["masked"], "the restarted board still knows only its own secrets"
    boards = seated(t3, t4)
    drive(boards, rng)
    a, b = (x.wait(lambda s: not s["masked"], "the whole game revealed") for x in (t3, t4))
    assert a["over"] and b["over"] and a["moves"] == b["moves"]
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == a["moves"]


def test_the_other_boards_player_cannot_be_played_here(pair):
    """While both players set up at once, a setup of the other board's player entered here
    (by its public name or with its pawns) is refused: it is made at that board."""
    t3, t4 = pair("latent-binaries", {})
    boards = seated(t3, t4)
    here, there = boards["rainbow"], boards["xeno"]
    for name in ("setup c6", "setup c6 cyan/magenta"):
        said = here.ask(f"enter xeno {name}")
        assert said["refused"] == "xeno is played by t4"
    assert here.state()["moves"] == [] and there.state()["moves"] == []
