"""The menu button's engine step, through the daemon: after a game's own hint steps the
engine's move is lit with its reason; the search runs in its own thread and its answer is
dropped when the game moved meanwhile; it waits while the companion thinks its own move; games
without an engine keep their own cycle."""

from __future__ import annotations

import random
import threading

import pytest

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.core.squares import parse_square
from companion.engines.adapters import adapter_for, engine_games, new_state
from companion.engines.explain import hint_line
from companion.engines.search import choose
from companion.games import get_spec
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.views.leds import GREEN
from tests.conftest import step, wait_until

NODES = 3000  # a node budget instead of a clock: the same move every run


def deterministic(d, nodes=NODES):
    hint = d.hints.engine
    hint.seconds, hint.nodes = None, nodes
    return d


def menu(d, clock):
    d.post(ButtonEvent("menu"))
    step(d, clock)


def answered(d):
    """Wait for the engine hint's thread to end, then handle its answer (shown or dropped)."""
    thread = d.hints.engine.job.thread
    assert thread is not None
    thread.join(5)
    assert not thread.is_alive()
    d.loop.run_pending()


def press(d, clock, name, n=4):
    d.board.tap(parse_square(name, n))
    step(d, clock, 0.05)


def expected(state, level="default", nodes=NODES):
    result = choose(adapter_for(state.game), state, level, None, nodes=nodes)
    return result.move.cells, hint_line(state, result)


class HeldSearch:
    """A search that waits until the test lets it answer (to press something meanwhile)."""

    def __init__(self):
        self.go = threading.Event()
        self.started = threading.Event()

    def __call__(self, adapter, state, level, seconds, nodes=None):
        self.started.set()
        assert self.go.wait(5)
        return choose(adapter, state, level, None, nodes=200)


# ------------------------------------------------------------------------ the step count


@pytest.mark.parametrize("game", engine_games())
def test_own_steps_are_each_games_hint_cycle(game):
    """``hint_steps`` must match the specs' hints: step k and step k + hint_steps show the
    same, and no shorter cycle does on these positions."""
    spec = get_spec(game)
    n = spec.hint_steps
    rng = random.Random(7)
    shorter_seen = set()
    state = new_state(game, {"size": 6 if game != "binaryon" else 4})
    for _ in range(8):
        if state.is_over():
            break
        hints = [spec.hint(state, k) for k in range(2 * n)]
        assert hints[:n] == hints[n:]
        shorter_seen |= {p for p in range(1, n) if hints[:p] != hints[p : 2 * p]}
        state = state.play(rng.choice(state.legal_moves()))
    assert shorter_seen == set(range(1, n))


# ------------------------------------------------------------------------ end to end


def test_binaryon_menu_presses_reach_the_engines_move_and_go_round(make_daemon, clock):
    d = deterministic(make_daemon(game="binaryon", rules={"size": 4}))
    state = d.session.state
    menu(d, clock)
    assert d.message == "8 moves for ON"
    menu(d, clock)
    assert d.message == "ON's best line: 1111"
    menu(d, clock)  # the engine's step
    answered(d)
    cells, text = expected(state)
    assert d.message == text and text.startswith("hint ")
    assert d.marks().hint == d.map.to_squares(cells) and len(cells) == 1
    assert d.leds.frame[d.marks().hint[0]] == GREEN  # lit on the board
    menu(d, clock)  # and round again
    assert d.message == "8 moves for ON" and not d.hints.engine.busy


def test_binary_mid_turn_the_hint_is_the_next_placement_or_end(make_daemon, clock):
    d = deterministic(make_daemon(game="binary", rules={"size": 4}))
    press(d, clock, "a1")  # Black's opening piece
    press(d, clock, "b1")  # White's first piece of a two-piece turn
    state = d.session.state
    assert state.turn == "white" and state.placed == (parse_square("b1", 4),)
    for _ in range(get_spec("binary").hint_steps + 1):
        menu(d, clock)
    answered(d)
    cells, text = expected(state)
    assert d.message == text
    assert d.marks().hint == d.map.to_squares(cells)
    head = text.split(":")[0]  # "hint d1", or "hint" for "hint: end (confirm)"
    move = state.parse_move(head.removeprefix("hint ") if head != "hint" else "end")
    assert move in state.legal_moves()


def test_wythe_lights_both_halves_of_the_piece(make_daemon, clock):
    d = deterministic(make_daemon(game="wythe", rules={"size": 4, "pie": False}))
    state = d.session.state
    for _ in range(get_spec("wythe").hint_steps + 1):
        menu(d, clock)
    answered(d)
    cells, text = expected(state)
    assert d.message == text and len(cells) == 2
    assert set(d.marks().hint) == set(d.map.to_squares(cells))


def held_engine_step(d, clock) -> HeldSearch:
    """Menu to the engine step with a search that waits for ``go``; returns it, started."""
    held = HeldSearch()
    d.hints.engine.job.search = held
    for _ in range(3):
        menu(d, clock)
    assert held.started.wait(5)
    return held


def test_a_move_while_it_thinks_drops_the_stale_hint(make_daemon, clock):
    d = make_daemon(game="binaryon", rules={"size": 4})
    held = held_engine_step(d, clock)
    assert d.hints.engine.busy
    step(d, clock, 0.6)  # longer than half a second: "thinking" with its bar
    assert d.message.startswith("thinking ")
    name = d.session.state.legal_moves()[0].name
    press(d, clock, name)  # a move meanwhile
    assert d.session.moves == [name]
    held.go.set()
    answered(d)
    step(d, clock, 0.2)
    assert d.marks().hint == () and not d.message.startswith("hint")


def test_an_undo_while_it_thinks_drops_the_hint_and_its_thinking_line(make_daemon, clock):
    d = make_daemon(game="binaryon", rules={"size": 4})
    name = d.session.state.legal_moves()[0].name
    press(d, clock, name)
    held = held_engine_step(d, clock)
    step(d, clock, 0.6)
    assert d.message.startswith("thinking ")
    d.post(ButtonEvent("undo"))
    step(d, clock)
    assert d.session.moves == [] and d.message == f"took back {name}"
    held.go.set()
    answered(d)
    assert d.marks().hint == () and d.message == f"took back {name}"
    d.hints.engine.job.search = choose  # and the next engine step answers
    deterministic(d)
    for _ in range(3):
        menu(d, clock)
    answered(d)
    assert d.message == expected(d.session.state)[1]


def test_another_menu_press_while_it_thinks_goes_on_round(make_daemon, clock):
    d = make_daemon(game="binaryon", rules={"size": 4})
    held = held_engine_step(d, clock)
    menu(d, clock)  # the first step again; the answer that comes later is not shown
    assert d.message == "8 moves for ON"
    held.go.set()
    answered(d)
    assert d.message == "8 moves for ON" and len(d.marks().hint) == 8


# ------------------------------------------------------------------------ against the engine


def opponent_daemon(clock, side="off"):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "opponent": "engine:casual", "engine_side": side},
        rules={"binaryon": {"size": 4}},
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def test_against_a_weak_companion_the_hint_is_still_the_engines_best(clock):
    d = deterministic(opponent_daemon(clock))
    assert d.hints.engine.level() == "default"
    state = d.session.state  # ON (the person) to move
    for _ in range(3):
        menu(d, clock)
    answered(d)
    cells, text = expected(state, "default")
    assert d.message == text and d.marks().hint == d.map.to_squares(cells)


def test_no_hint_while_the_companion_thinks_its_own_move(clock):
    d = opponent_daemon(clock)
    held = HeldSearch()
    d.opponent.search.search = held
    name = d.session.state.legal_moves()[0].name
    press(d, clock, name)  # the person's move: now the companion thinks
    assert held.started.wait(5) and d.opponent.thinking
    menu(d, clock)
    assert d.message == "thinking: wait" and d.marks().hint == ()
    assert not d.hints.engine.busy
    held.go.set()
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip
    assert d.message.startswith("my move: ")


# ------------------------------------------------------------------------ no engine


@pytest.mark.parametrize("game", ["binome", "latent-binaries"])
def test_a_game_without_an_engine_keeps_its_own_cycle(make_daemon, clock, game):
    d = make_daemon(game=game)
    spec, state = d.session.spec, d.session.state
    for k in range(5):
        menu(d, clock)
        assert d.message == (spec.hint(state, k).text or "no hint")
        assert not d.hints.engine.busy


# ------------------------------------------------------------------------ the simulator


def test_the_simulator_waits_for_the_engine_hint_and_says_it(tmp_path):
    """Typed 'menu' lines go round the steps; the third waits for the engine's answer."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), NO_COLOR="1", SDL_VIDEODRIVER="dummy")
    r = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "sim", "--journal", "none"]
        + ["--rule", "size=4"],
        input="help\nmenu\nmenu\nmenu\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stdout.splitlines() if line.startswith("turn: ON | ")]
    assert said[:2] == ["turn: ON | 8 moves for ON", "turn: ON | ON's best line: 1111"]
    assert said[2].startswith("turn: ON | hint ") and len(said) == 3
    assert "then the engine's move" in r.stdout  # the help
