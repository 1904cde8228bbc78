"""Stepping through a finished game's review on the board (companion/service/review_steps.py):
from the menu once the game is over, the review runs in its own process, then menu steps on,
undo back, confirm closes; each move's position on the LEDs with the move lit, at a mistake
the better move in another colour, the OLED saying the label and the reason. The game on the
solved 4x4 board: ON's third move a4 loses the draw d4 keeps (tests/service/test_tutor.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.core.squares import parse_square
from companion.games import game_names
from companion.games.base import PanelRow
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.controls import REVIEW
from companion.service.daemon import Daemon
from companion.views.presenter import REVIEW_BETTER_RGB, REVIEW_MOVE_RGB, ReviewStep, review_screen
from tests.conftest import step, wait_until
from tests.views.test_oled_golden import check, shown
from tests.voice_tools import needs_espeak

PRESSES = ["a3", "a1", "a4", "d1", "d3", "b1", "b4", "c1", "c4", "d3", "d4", "a4", "a3", "a4"]


def board_4x4(clock):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon"}, rules={"binaryon": {"size": 4}}
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def finished(clock):
    d = board_4x4(clock)
    for name in PRESSES:
        d.board.tap(parse_square(name, 4))
        step(d, clock, 0.05)
    assert d.session.state.is_over()
    return d


def button(d, clock, name, long=False):
    d.post(ButtonEvent(name, long))
    step(d, clock)


def open_review(d, clock):
    button(d, clock, "menu", long=True)
    while d.menu.chosen != REVIEW:
        button(d, clock, "menu")
    button(d, clock, "confirm")
    assert d.review_steps.busy and d.message.startswith("reviewing ")
    wait_until(lambda: step(d, clock, 0.2) or not d.review_steps.busy, 60, "the review")


def test_the_review_is_stepped_with_the_buttons(clock):
    d = finished(clock)
    open_review(d, clock)
    total = len(d.session.played)
    screen = d.screen()
    assert screen.panel.title == "REVIEW" and screen.panel.corner == f"1/{total}"
    button(d, clock, "menu")
    button(d, clock, "menu")  # the third move: ON's a4, a blunder
    screen = d.screen()
    assert screen.panel.rows == (PanelRow("3. ON a4", "blunder"),)
    assert screen.panel.corner == f"3/{total}"
    assert screen.message == "better d4: holds a draw"
    assert d.message == "3. ON a4: blunder; better d4: holds a draw"
    leds = d.frame.leds
    at = {name: d.map.to_squares((parse_square(name, 4),))[0] for name in ("a4", "d4")}
    assert leds[at["a4"]] == REVIEW_MOVE_RGB and leds[at["d4"]] == REVIEW_BETTER_RGB
    # the position the move was played in (after a3 a1): its own colours elsewhere
    before = d.session.states[2]
    assert d.frame.table.state is before
    own = d.session.spec.leds(before)
    squares = d.map.squares
    lit = {squares[c] for c in d.review_steps.state().parse_move("a4").cells}
    lit |= {squares[c] for c in before.parse_move("d4").cells}
    assert all(leds[squares[c]] == own[c] for c in range(len(own)) if squares[c] not in lit)
    button(d, clock, "undo")
    assert d.screen().panel.corner == f"2/{total}"
    assert d.screen().message == "menu: next, undo: back, confirm: done"
    assert d.message == "2. OFF a1: " + d.notices.review.label  # what the voice says
    button(d, clock, "confirm")
    assert not d.review_steps.active and d.notices.review is None
    assert d.screen().panel.title != "REVIEW" and d.message == "review closed"
    assert d.frame.table.state is d.session.state


def test_no_review_offered_while_the_game_is_played(clock):
    d = board_4x4(clock)
    button(d, clock, "menu", long=True)
    assert REVIEW not in d.menu.entries
    d2 = finished(clock)
    button(d2, clock, "menu", long=True)
    assert REVIEW in d2.menu.entries


def test_the_review_steps_screen_golden():
    step_ = ReviewStep(3, 15, "3. ON a4", "blunder", "better d4: holds a draw", (12,), (15,))
    assert step_.said == "3. ON a4: blunder; better d4: holds a draw"
    check("review_step_blunder", shown(review_screen(step_)))


ENV = dict(os.environ, NO_COLOR="1", SDL_VIDEODRIVER="dummy")


def test_sim_steps_through_the_review_of_a_finished_game(tmp_path):
    to_review = ["menu long"] + ["menu"] * len(game_names()) + ["confirm"]
    lines = PRESSES + to_review + ["menu", "menu", "undo", "confirm"]
    r = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "sim", "--journal", "none"]
        + ["--rule", "size=4"],
        input="".join(f"{line}\n" for line in lines) + "quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**ENV, "XDG_STATE_HOME": str(tmp_path)},
    )
    assert r.returncode == 0, r.stderr
    said = [s for s in r.stdout.splitlines() if s.startswith("turn: ")]
    tail = said[-5:]  # the review open, two steps on, one back, closed
    buttons = "turn: game over | menu: next, undo: back, confirm: done"
    assert tail[0] == tail[1] == tail[3] == buttons
    assert tail[2] == "turn: game over | better d4: holds a draw"
    assert tail[4] == "turn: game over | review closed"


@needs_espeak
def test_the_voice_says_each_step(tmp_path):
    out = tmp_path / "voice"
    review = ["menu long"] + ["menu"] * len(game_names()) + ["confirm", "menu", "menu"]
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion.cli.main", "sim", "--journal", "none"]
        + ["--rule", "size=4", "--voice-to", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "XDG_STATE_HOME": str(tmp_path)},
    )
    assert sim.stdin is not None
    said = out / "said.txt"
    step_line = "3. ON a4: blunder; better d4: holds a draw"
    try:
        # pressed as a player would: once the voice is up, and the review once the game's
        # lines are said (speech runs at niceness 10: under the suite's load it says them well
        # after a press; a queue full of the game's lines would drop a step's, by design)
        wait_until(lambda: said.exists() and "to play" in said.read_text(), 60, "the voice up")
        sim.stdin.write("".join(f"{line}\n" for line in PRESSES))
        sim.stdin.flush()
        wait_until(lambda: "draw" in said.read_text() and quiet_for(said, 3.0), 120, "the end said")
        sim.stdin.write("".join(f"{line}\n" for line in review))
        sim.stdin.flush()
        wait_until(lambda: step_line in said.read_text(), 120, "the step said")
    finally:
        _, err = sim.communicate("quit\n", timeout=60)
    assert sim.returncode == 0, err


def quiet_for(path, seconds: float) -> bool:
    """Nothing more written to ``path`` for ``seconds``: the voice has said what it had."""
    import time

    return time.time() - path.stat().st_mtime >= seconds


def played_to_the_end(d, clock, seed: int) -> list[str]:
    """A whole game of random legal moves on ``d``, each accepted; the names played."""
    import random

    rng = random.Random(seed)
    while not d.session.state.is_over():
        state = d.session.state
        player = sorted(state.to_act)[0]
        verdict = d.submit(rng.choice(state.legal_moves(player)).name, player)
        assert verdict.accepted, verdict.refusal
        step(d, clock, 0.05)
    return [p.name for p in d.session.played]


def test_a_latent_binaries_review_steps_through_its_guesses(make_daemon, clock):
    """A game's own review on the board: only its guesses, each in the position it was made
    in, the nest challenged lit (and the sound guess's nest, when it was another)."""
    d = make_daemon(game="latent-binaries")
    played = played_to_the_end(d, clock, 1)
    guesses = [k for k, name in enumerate(played, 1) if name.startswith(("challenge", "order"))]
    assert guesses
    open_review(d, clock)
    screen = d.screen()
    assert screen.panel.title == "REVIEW" and screen.panel.corner == f"1/{len(guesses)}"
    for k, ply in enumerate(guesses):
        m = d.review_steps.moves[k]
        assert m["ply"] == ply and m["move"] == played[ply - 1]
        before = d.session.states[ply - 1]
        assert d.frame.table.state is before and d.review_steps.state() is before
        row = d.screen().panel.rows[0]
        assert row == PanelRow(f"{ply}. {m['player'].upper()} {m['move']}", m["label"])
        nest = before.parse_move(m["move"]).cells[0]
        better = None
        if m["better"] and m["label"] in ("inaccuracy", "mistake", "blunder"):
            better = before.parse_move(m["better"]).cells[0]
            assert d.frame.leds[d.map.squares[better]] == REVIEW_BETTER_RGB
            assert d.screen().message == m["reason"]
        if better != nest:  # the same nest, another colour: the better guess's green
            assert d.frame.leds[d.map.squares[nest]] == REVIEW_MOVE_RGB
        button(d, clock, "menu")
    button(d, clock, "confirm")
    assert not d.review_steps.active and d.frame.table.state is d.session.state


def test_a_binome_review_steps_through_its_claims_on_the_oled(make_daemon, clock):
    """Binøme has no board: its review's steps are said on the OLED, each claim or pass with
    its label and, at a mistake, the better number."""
    d = make_daemon(game="binome", rules={"players": "Ann,Bob"})
    played = played_to_the_end(d, clock, 2)
    choices = [k for k, n in enumerate(played, 1) if " claim " in n or n.endswith(" pass")]
    open_review(d, clock)
    assert [m["ply"] for m in d.review_steps.moves] == choices
    for k, ply in enumerate(choices[:6]):
        m = d.review_steps.moves[k]
        screen = d.screen()
        assert screen.panel.corner == f"{k + 1}/{len(choices)}"
        assert screen.panel.rows == (
            PanelRow(f"{ply}. {m['player'].upper()} {m['move']}", m["label"]),
        )
        if m["label"] in ("inaccuracy", "mistake", "blunder"):
            assert screen.message == m["reason"]
        button(d, clock, "menu")
