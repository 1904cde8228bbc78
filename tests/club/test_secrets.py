"""Secrets never go to the broker: a listener on ``#`` hears a whole game of Latent Binaries
(the hidden pawns) and of Binøme (the secret sheets and claims), and nothing it hears before
the game reveals it holds a secret; the result, once the game is over, shows what the game
revealed, as its exported record does."""

from __future__ import annotations

import random
import re

from companion.club import topics
from tests.club_boards import payloads, play, start_board, stop_board, wait
from tests.mosquitto import Listener

SETUPS = {
    "rainbow": ["setup b2 red/yellow", "setup c2 green/blue", "setup d2 red/green"],
    "xeno": ["setup b6 cyan/magenta", "setup c6 orange/purple", "setup d6 cyan/orange"],
}
LATENT_PLAY = ["c2-c3", "challenge c6 purple", "marker b1-d1", "b6-a6", "challenge c3 green",
               "marker c7-e7", "c3-c4", "challenge c6 orange", "order c6 orange/purple",
               "marker e7-c7", "a6-a5", "challenge d2 red", "end", "marker c1-e1"]  # fmt: skip
WRITE_NAME = re.compile(r"\b(\w+) write [1-8][ab]\b")
CLAIM_NAME = re.compile(r"\b(\w+) claim \d\d(?: burn)?\b")


def secrets(player: str) -> list[str]:
    out = list(SETUPS[player])
    for name in SETUPS[player]:
        _, square, pair = name.split()
        top, bottom = pair.split("/")
        out.append(f"{square} hides {top} over {bottom}")
    return out


def heard_text(listener: Listener) -> str:
    return "\n".join(h.topic + " " + h.payload.decode() for h in listener.messages())


def test_latent_binaries_hidden_pawns_stay_off_the_broker(tmp_path, broker):
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1", "latent-binaries")
    try:
        for k in range(3):
            for player in ("rainbow", "xeno"):
                play(daemon, SETUPS[player][k], player)
        for name in LATENT_PLAY:
            play(daemon, name, daemon.session.state.turn)
        # every move so far heard, then the last one, which ends the game
        listener.wait_for(lambda h: len(payloads(h, topics.moves("t1"))) >= 6 + 14)
        wait(lambda: daemon.club.queued == 0, what="sent")
        before = heard_text(listener)
        play(daemon, "c4-c5", daemon.session.state.turn)
        assert daemon.session.state.is_over()
        uid = daemon.club.game_uid()
        heard = listener.wait_for(lambda h: payloads(h, topics.result("t1", uid)))
    finally:
        stop_board(daemon, closers)
        listener.close()
    assert "setup" in before and '"move":"c2-c3"' in before  # the public names went
    for secret in secrets("rainbow") + secrets("xeno"):
        assert secret not in before, secret
    (result,) = payloads(heard, topics.result("t1", uid))
    assert "setup b2 red/yellow" in result["record"]  # revealed once the game is over
    assert result["winners"] == ["rainbow"]


def binome_move(daemon, rng: random.Random) -> bool:
    """One human's move as their page would send it; False once the game is over."""

    def act() -> bool:
        state = daemon.session.state
        if state.is_over():
            return False
        player = sorted(state.to_act - state.virtual)[0]
        name, _label = rng.choice(daemon.session.spec.view(state, player).actions)
        verdict = daemon.submit(name, player)
        if not verdict.accepted and verdict.refusal.confirm:  # a number that will burn
            verdict = daemon.submit(verdict.refusal.confirm, player)
        assert verdict.accepted, (name, verdict.refusal)
        return True

    return daemon.call(act)


def test_binome_sheets_and_claims_stay_off_the_broker(tmp_path, broker):
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1", "binome", rules={"players": "p1,p2"})
    rng = random.Random(3)
    try:
        last = ""
        while True:
            text = heard_text(listener)
            if daemon.call(lambda: daemon.session.state.is_over(), render=False):
                break
            last = text  # what the broker had before this move
            assert binome_move(daemon, rng)
        uid = daemon.club.game_uid()
        heard = listener.wait_for(lambda h: payloads(h, topics.result("t1", uid)))
        wait(lambda: daemon.club.queued == 0, what="sent")
    finally:
        stop_board(daemon, closers)
        listener.close()
    assert '"moves"' in last and "binome" in last  # the table went, as its page shows it
    assert not WRITE_NAME.search(last) and not CLAIM_NAME.search(last)
    assert "your number" not in last and "'s sheet" not in last
    (result,) = payloads(heard, topics.result("t1", uid))
    assert WRITE_NAME.search(result["record"])  # the sheets are public once it is over
