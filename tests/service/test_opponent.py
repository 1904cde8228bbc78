"""Playing against the companion: it thinks in its own thread, shows its move on the LEDs and
in words, and takes only that move from the board."""

from __future__ import annotations

import pytest

from companion.core.config import Config, ConfigError
from companion.core.squares import parse_square, square_name
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.config_check import check_config
from companion.service.daemon import Daemon
from tests.conftest import step, wait_until


def make(clock, **game):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", **game}, rules={"binaryon": {"size": 4}}
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def press(d, clock, name):
    d.board.tap(parse_square(name, 4))
    step(d, clock, 0.05)


def test_the_companion_answers_and_takes_only_its_own_move(clock):
    d = make(clock, opponent="engine:beginner")
    state = d.session.state
    human = state.legal_moves()[0].name
    press(d, clock, human)
    assert d.session.moves == [human]
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip
    mine = d.opponent.wanted.name
    assert d.message == f"my move: {mine}: press it"
    assert d.notices.pending == (parse_square(mine, 4),)  # lit on the board
    wrong = next(square_name(s, 4) for s in range(16) if square_name(s, 4) != mine)
    press(d, clock, wrong)
    assert d.message == f"press {mine} for my move" and d.session.moves == [human]
    press(d, clock, mine)
    assert d.session.moves[:2] == [human, mine] and d.notices.pending == ()


def test_the_companion_can_play_first(clock):
    d = make(clock, opponent="engine:beginner", engine_side="on")
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's first move")  # fmt: skip
    assert d.message.startswith("my move: ")


def test_a_bad_opponent_is_one_line():
    with pytest.raises(
        ConfigError, match="levels are novice, beginner, casual, default, strongest"
    ):
        check_config(Config.default().with_overrides(game={"opponent": "engine:godlike"}))
    with pytest.raises(ConfigError, match="use engine, engine:LEVEL or remote:BOARD"):
        check_config(Config.default().with_overrides(game={"opponent": "human"}))
