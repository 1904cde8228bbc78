"""The tutor during play (``--tutor``, companion/service/tutor.py): on the solved 4x4 Binaryon
board, after a3 a1, ON's a4 is a blunder (d4 holds the draw, the solution says so in
tests/engines/test_tutor.py). Held with its reason on the table, played by a second press, the
confirm button or the page's "play it anyway"; another move clears the warning; a move made
before the judgement is ready is played as without a tutor; no judgement for the engine's turn
or a club event's game; refused in one line with a remote opponent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from companion.club.board_pairings import GAME_PAIRING
from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.core.squares import parse_square
from companion.engines.tutor import REFUSAL, cautions
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from companion.service.tutor import HELD
from tests.conftest import step, wait_until
from tests.service.test_opponent import press
from tests.voice_tools import needs_espeak

BLUNDER_LINE = "a4: a blunder; better d4: holds a draw"


def tutor_daemon(clock, journal=None, **game):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "tutor": True, **game}, rules={"binaryon": {"size": 4}}
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock, journal=journal)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def judged(d):
    """Wait for the tutor's judgement of the position, then take its answer."""
    thread = d.tutor.thread
    if thread is not None:
        thread.join(10)
        assert not thread.is_alive()
    d.loop.run_pending()


def to_the_blunder(d, clock):
    for name in ("a3", "a1"):
        press(d, clock, name)
    judged(d)
    assert d.tutor.judged is d.session.state


def moves(d):
    return [p.public for p in d.session.played]


def test_a_blunder_is_held_with_its_reason_and_a_second_press_plays_it(clock):
    d = tutor_daemon(clock)
    to_the_blunder(d, clock)
    press(d, clock, "a4")
    assert moves(d) == ["a3", "a1"]  # held
    assert d.message.startswith(BLUNDER_LINE) and "again" in d.message
    assert d.marks().refused == parse_square("a4", 4)
    assert d.screen().message.startswith("a4: a blunder")  # the OLED says it
    press(d, clock, "a4")
    assert moves(d) == ["a3", "a1", "a4"]
    assert "blunder" not in d.message


def test_the_confirm_button_plays_the_held_move(clock):
    d = tutor_daemon(clock)
    to_the_blunder(d, clock)
    press(d, clock, "a4")
    d.post(ButtonEvent("confirm"))
    step(d, clock)
    assert moves(d) == ["a3", "a1", "a4"]


def test_a_good_move_is_played_at_once_and_another_move_clears_the_warning(clock):
    d = tutor_daemon(clock)
    to_the_blunder(d, clock)
    press(d, clock, "d4")
    assert moves(d) == ["a3", "a1", "d4"]  # not a blunder: no word from the tutor
    d2 = tutor_daemon(clock)
    to_the_blunder(d2, clock)
    press(d2, clock, "a4")
    press(d2, clock, "c3")  # another move: played, the warning gone
    assert moves(d2) == ["a3", "a1", "c3"] and "blunder" not in d2.message
    assert d2.tutor.held_move() is None


def test_the_page_offers_to_play_it_anyway(clock):
    d = tutor_daemon(clock)
    to_the_blunder(d, clock)
    press(d, clock, "a4")
    page = d.web_view("on")["private"]
    assert page["lines"][0].startswith(BLUNDER_LINE)
    assert {"move": "a4", "label": "play a4 anyway"} in page["actions"]
    verdict = d.call(lambda: d.submit("a4", "on"))
    assert verdict.accepted and moves(d) == ["a3", "a1", "a4"]


def test_the_same_blunder_named_on_a_page_is_held_first(clock):
    d = tutor_daemon(clock)
    to_the_blunder(d, clock)
    verdict = d.call(lambda: d.submit("a4", "on"))
    assert not verdict.accepted and verdict.refusal.code == HELD
    assert d.call(lambda: d.submit("a4", "on")).accepted


class HeldJudge:
    """A judgement that waits until the test lets it answer."""

    def __init__(self):
        self.go = threading.Event()
        self.started = threading.Event()
        self.states = []

    def __call__(self, state):
        self.states.append(state)
        self.started.set()
        assert self.go.wait(10)
        return cautions(state)


def test_a_move_made_before_the_judgement_is_ready_is_played_as_without_a_tutor(clock):
    d = tutor_daemon(clock)
    for name in ("a3", "a1"):
        press(d, clock, name)
    judged(d)
    held = HeldJudge()
    d.tutor.judge = held
    d.call(d.tutor.cancel)  # judged again, by the judge held back
    assert held.started.wait(10) and d.tutor.busy
    press(d, clock, "a4")  # not judged yet: the press is not kept waiting
    assert moves(d) == ["a3", "a1", "a4"]
    held.go.set()
    judged(d)  # its answer comes for a position gone: dropped
    assert d.tutor.held_move() is None and moves(d) == ["a3", "a1", "a4"]


def test_no_judgement_for_the_engines_turn(clock):
    d = tutor_daemon(clock, opponent="engine:casual")
    held = HeldJudge()
    held.go.set()
    d.tutor.judge = held
    d.tutor.cancel()
    for _ in range(3):
        d.call(lambda: None)
        judged(d)
        if not d.opponent.to_move():
            legal = d.session.state.legal_moves()
            press(d, clock, legal[0].name)
        wait_until(lambda: d.loop.run_pending() >= 0 and (d.opponent.wanted is not None
                   or not d.opponent.to_move()), what="the engine's move")  # fmt: skip
        if d.opponent.wanted is not None:
            press(d, clock, d.opponent.wanted.name)
    assert held.states and all(s.turn == "on" for s in held.states)


def test_a_club_events_game_has_no_tutor_said_once(clock, tmp_path):
    d = tutor_daemon(clock, journal=SqliteJournal.open(tmp_path / "j.db"))
    judged(d)
    about = json.dumps({"pairing": "p1", "event": "e", "round": 1})

    def paired():  # as the board's pairings start a game: new game, then its pairing kept
        d.new_game("binaryon", players={"on": "Ann", "off": "Bob"})
        d.journal.set_meta({f"{GAME_PAIRING}{d.session.game_id}": about})

    d.call(paired)
    assert d.message == REFUSAL and not d.tutor.busy
    for name in ("a3", "a1", "a4"):
        press(d, clock, name)
    assert moves(d) == ["a3", "a1", "a4"] and not d.tutor.busy


# ------------------------------------------------------------------------ the commands

ENV = dict(os.environ, NO_COLOR="1", SDL_VIDEODRIVER="dummy")


def sim(tmp_path, lines, *args):
    return subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "sim", "--journal", "none"]
        + ["--rule", "size=4", *args],
        input="".join(f"{line}\n" for line in lines) + "quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**ENV, "XDG_STATE_HOME": str(tmp_path)},
    )


def said_after(out, line):
    """The table's status line after the typed ``line`` (the last one if typed again)."""
    blocks = out.split(f"> {line}\n")
    assert len(blocks) > 1, out
    return [s for s in blocks[-1].splitlines() if s.startswith(("moves:", "turn:"))][:2]


def test_sim_holds_the_blunder_then_plays_it_on_the_second_press(tmp_path):
    r = sim(tmp_path, ["a3", "a1", "a4", "show", "a4"], "--tutor")
    assert r.returncode == 0, r.stderr
    held = r.stdout.split("> a4\n")[1]
    status = [s for s in held.splitlines() if s.startswith(("moves:", "turn:"))]
    assert status[0] == "moves: a3 a1"
    assert status[1].startswith(f"turn: ON | {BLUNDER_LINE}")
    assert said_after(r.stdout, "a4")[0] == "moves: a3 a1 a4"


def test_sim_plays_a_good_move_at_once(tmp_path):
    r = sim(tmp_path, ["a3", "a1", "d4"], "--tutor")
    assert r.returncode == 0, r.stderr
    assert said_after(r.stdout, "d4")[0] == "moves: a3 a1 d4"
    assert "blunder" not in r.stdout


def test_without_the_tutor_the_blunder_is_played_at_once(tmp_path):
    r = sim(tmp_path, ["a3", "a1", "a4"])
    assert said_after(r.stdout, "a4")[0] == "moves: a3 a1 a4"


def test_tutor_with_a_remote_opponent_is_one_line_and_exit_2(tmp_path):
    for command in ("sim", "run"):
        r = subprocess.run(
            [sys.executable, "-m", "companion.cli.main", command, "--journal", "none"]
            + ["--tutor", "--opponent", "remote:t2"]
            + ["--club", "mqtt://127.0.0.1:1", "--board-name", "t1"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**ENV, "XDG_STATE_HOME": str(tmp_path)},
            stdin=subprocess.DEVNULL,
        )
        assert r.returncode == 2
        assert r.stderr.strip().splitlines() == [f"binaryon: --tutor: {REFUSAL}"]


def test_the_config_files_tutor_with_a_remote_opponent_is_refused(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[game]\ntutor = true\nopponent = "remote:t2"\n')
    r = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "sim", "--journal", "none"]
        + ["--config", str(cfg), "--club", "mqtt://127.0.0.1:1", "--board-name", "t1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**ENV, "XDG_STATE_HOME": str(tmp_path)},
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and REFUSAL in r.stderr


@needs_espeak
def test_the_voice_says_why_the_move_is_held(tmp_path):
    out = tmp_path / "voice"
    r = sim(tmp_path, ["a3", "a1", "a4"], "--tutor", "--voice-to", str(out))
    assert r.returncode == 0, r.stderr
    texts = (out / "said.txt").read_text()
    assert "a4: a blunder; better d4: holds a draw" in texts, texts
