"""Playing against the companion: it thinks in its own thread, shows its move on the LEDs and
in words (kept in the terminal's status line as on the OLED), and takes only that move from
the board; an engine for a side or a game it cannot play is refused in one line."""

from __future__ import annotations

import io

import pytest

from companion.cli.main import main
from companion.core.config import Config, ConfigError
from companion.core.squares import parse_square, square_name
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.config_check import check_config
from companion.service.daemon import Daemon
from companion.service.simulator import Simulator
from companion.views.oled import screen_text
from tests.conftest import one_line_error, step, wait_until


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


@pytest.mark.parametrize(
    "game, overrides, said",
    [
        ({"engine_side": "nobody"}, {}, "opponent_side 'nobody': not a player of binaryon"),
        ({"opponent_side": "nobody"}, {}, "opponent_side 'nobody': not a player of binaryon"),
        ({"opponent": "engine", "name": "binome"}, {}, "no engine plays binome"),
    ],
)
def test_an_engine_for_a_side_or_game_it_cannot_play_is_refused(game, overrides, said):
    with pytest.raises(ConfigError, match=said):
        check_config(Config.default().with_overrides(game=game, **overrides))


@pytest.mark.parametrize("flag", ["--engine-side", "--opponent-side"])
def test_sim_refuses_an_engine_side_that_is_no_player(capsys, flag):
    assert main(["sim", "--journal", "none", flag, "nobody"]) == 2
    assert "nobody" in one_line_error(capsys)


def test_the_terminal_keeps_the_move_to_make_as_the_oled_does(clock):
    """`my move: d5: press it` stays in the status line as on the OLED until the move is
    made, also after another message (a wrong press refused) has come and gone."""
    d = make(clock, opponent="engine:beginner")
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=False)
    press(d, clock, d.session.state.legal_moves()[0].name)
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip
    mine = d.opponent.wanted.name
    told = f"my move: {mine}: press it"
    press(d, clock, next(m.name for m in d.session.state.legal_moves() if m.name != mine))
    assert d.message == f"press {mine} for my move"  # refused, for a while
    step(d, clock, 30)  # long after that message ran out
    s.draw()
    status = [line for line in out.getvalue().splitlines() if line.startswith("turn:")]
    assert status[-1].endswith(f"| {told}")
    assert " ".join(screen_text(d.oled.last)).endswith(told)  # as the OLED has it
