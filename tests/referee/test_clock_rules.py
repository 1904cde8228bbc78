"""The clock's rules per game and its options: flag fall as each game's rules page says
(``ClockRules.on_time``), the suggested controls (``ClockRules.default``, ``--clock default``),
``--clock`` and ``[clock] control`` read with one line for a bad value, and the session's
clock arithmetic held by a property test (undo gives back the times of the ply it returns
to, whatever was thought)."""

import ast
import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.main import main
from companion.core.config import Config
from companion.games import game_names, get_spec
from companion.referee.session import Session
from companion.service.config_check import time_control
from companion.timing.clock import TimeControl
from companion.timing.on_time import on_time
from tests.conftest import FakeClock
from tests.paths import REPO

RULES = REPO / "docs" / "rules"


def played(game: str, moves: int, seed: int = 1, **options) -> Session:
    s = Session(game, options, rng=random.Random(seed))
    rng = random.Random(seed)
    while len(s.played) < moves and not s.state.is_over():
        state = s.state
        player = state.turn or sorted(state.to_act)[0]
        s.submit(rng.choice(list(state.legal_moves(player))), player)
    return s


@pytest.mark.parametrize("game", ["binaryon", "wythe", "latent-binaries"])
def test_flag_fall_loses_to_the_opponent(game):
    spec = get_spec(game)
    state = played(game, 4).state
    flagged, other = state.players
    outcome = spec.clock_rules().on_time(state, flagged)
    assert outcome.winners == (other,) and "on time" in outcome.summary
    assert outcome.detail["on_time"] == flagged


def test_binary_scores_the_board_when_the_opponent_has_no_pieces_left():
    spec = get_spec("binary")
    state = played("binary", 12, size=6).state
    assert not state.is_over()
    # White still holds pieces: Black's flag loses to White
    assert spec.clock_rules().on_time(state, "black").winners == ("white",)
    # White has placed all: the board as it stands decides, even for the flagged player
    spent = dataclasses.replace(state, hands=(state.hands[0], 0))
    scored = dataclasses.replace(spent, mover=None, placed=()).outcome()
    outcome = spec.clock_rules().on_time(spent, "black")
    assert outcome.winners == scored.winners and outcome.summary.endswith("on time")
    assert "board scored" in outcome.reason


def test_binome_puts_the_flagged_player_out_and_the_others_points_decide():
    spec = get_spec("binome")
    state = Session("binome", {"players": "Ann,Bob,Cy"}).state
    scored = dataclasses.replace(state, scores=(9, 4, 4))
    outcome = spec.clock_rules().on_time(scored, "Ann")  # Ann leads, but her time ran out
    assert outcome.winners == ("Bob", "Cy") and "on time" in outcome.summary
    assert spec.clock_rules().on_time(
        dataclasses.replace(state, scores=(9, 4, 6)), "Ann"
    ).winners == ("Cy",)


@pytest.mark.parametrize("game", game_names())
def test_each_game_suggests_a_clock_and_its_rules_page_says_why(game):
    spec = get_spec(game)
    control = TimeControl.parse(spec.clock_rules().default)
    page = (RULES / f"{game}.md").read_text(encoding="utf-8")
    assert "## Time" in page and f"`{spec.clock_rules().default}`" in page
    config = Config.default().with_overrides(game={"name": game}, clock={"control": "default"})
    assert time_control(config, game) == control


def test_a_flag_fall_ends_the_session_and_an_undo_reopens_it():
    t = FakeClock()
    s = Session("wythe", time_control=TimeControl.parse("0:10"), timer=t)
    s.submit(s.state.legal_moves()[0])
    t.advance(10)
    assert s.flag_fall() == "white"
    assert s.state.is_over() and on_time(s.state).winners == ("black",)
    assert s.state.legal_moves() == [] and s.submit(s.state.parse_move("pass")).refusal
    s.undo()
    assert not s.state.is_over() and on_time(s.state) is None
    assert s.clock.times(t()) == {"black": 10, "white": 10}


def test_a_flag_taken_back_leaves_the_clock_paused_for_the_arbiter():
    t = FakeClock()
    s = Session("binaryon", time_control=TimeControl.parse("0:10"), timer=t)
    s.submit(s.state.legal_moves()[0])  # the first move is free
    t.advance(3)
    s.submit(s.state.legal_moves()[0])
    t.advance(10)
    flagged = s.flag_fall()
    assert flagged is not None
    s.undo()  # the arbiter's correction
    assert not s.state.is_over() and s.clock.paused and s.clock.running == s.state.turn
    before = s.clock.times(t())
    t.advance(60)  # nobody's time goes while the arbiter decides
    assert s.clock.times(t()) == before
    assert s.resume_clock()
    t.advance(2)
    assert s.clock.left(s.state.turn, t()) == before[s.state.turn] - 2


@pytest.mark.parametrize(
    "args, says",
    [
        (["--clock", "5:61+3"], "--clock '5:61+3': seconds go from 00 to 59"),
        (["--clock", "fast"], "not a time control"),
        (["--clock", "1:00h", "--game", "binome", "--rule", "players=3"], "two players"),
    ],
)
@pytest.mark.parametrize("command", ["run", "sim"])
def test_a_bad_clock_is_one_line_and_exit_2(capsys, command, args, says):
    assert main([command, "--journal", "none", "--display", "none", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err and "Traceback" not in err


def test_a_bad_clock_in_the_config_is_one_line_and_exit_2(capsys, tmp_path):
    config = tmp_path / "binaryon.toml"
    config.write_text('[clock]\ncontrol = "5:00+x"\n')
    assert main(["run", "--config", str(config), "--journal", "none"]) == 2
    err = capsys.readouterr().err.strip()
    assert "[clock] control" in err and "not a time control" in err and "\n" not in err


think = st.lists(st.floats(min_value=0, max_value=20, allow_nan=False), min_size=2, max_size=12)


@given(control=st.sampled_from(["1:00", "1:00+3", "1:00d2", "1:00h"]), thinking=think)
def test_undo_gives_back_the_times_each_ply_began_with(control, thinking):
    t = FakeClock()
    s = Session("binaryon", time_control=TimeControl.parse(control), timer=t)
    began = {0: s.clock.times(t())}  # live moves -> the times as the next turn began
    for seconds in thinking:
        if s.state.is_over():
            break
        s.submit(s.state.legal_moves()[0])
        began[len(s.played)] = s.clock.times(t())
        t.advance(seconds)
    if control.endswith("h"):  # an hourglass moves time, never makes or loses it
        assert sum(s.clock.times(t()).values()) == pytest.approx(120)
    for ply in sorted(began, reverse=True)[1:]:
        s.take_back_to(ply)
        assert s.clock.times(t()) == pytest.approx(began[ply], abs=1e-3)  # kept to the ms


@pytest.mark.parametrize("game", game_names())
def test_a_flagged_player_never_wins_on_time_unless_the_board_says_so(game):
    """Whoever's flag falls, in any game: the result names only players of the game, says
    "on time" and whose time ran out; only a board scored as it stands (Binary, the opponent
    out of pieces) may leave the flagged player among the winners."""
    spec = get_spec(game)
    state = played(game, 6).state
    for flagged in state.players:
        outcome = spec.clock_rules().on_time(state, flagged)
        assert set(outcome.winners) <= set(state.players) and "on time" in outcome.summary
        assert outcome.detail["on_time"] == flagged and flagged not in outcome.winners


def _class_rebinds(tree: ast.AST) -> list[int]:
    """Lines that set an object's ``__class__`` (``x.__class__ = ...``, or ``setattr`` /
    ``object.__setattr__`` naming it)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "__class__" for t in targets):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and any(
            isinstance(a, ast.Constant) and a.value == "__class__" for a in node.args
        ):
            lines.append(node.lineno)
    return lines


def test_no_state_has_its_class_rebound():
    root = REPO / "companion"
    found = [
        f"{path.relative_to(root)}:{line}"
        for path in sorted(root.rglob("*.py"))
        for line in _class_rebinds(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


@pytest.mark.parametrize("game", ["wythe", "binary", "binome"])
def test_the_outcome_after_a_flag_says_it_ended_on_time(game):
    t = FakeClock()
    options = {"players": "Ann,Bob"} if game == "binome" else {}
    s = Session(game, options, time_control=TimeControl.parse("0:10"), timer=t)
    assert get_spec(game).clock_rules().on_time(s.state, s.state.players[0]).ended == "time"
    t.advance(11)
    if s.flag_fall() is None:  # a clock that starts at the first move
        s.submit(s.state.legal_moves(s.state.turn)[0], s.state.turn)
        t.advance(11)
        assert s.flag_fall() is not None
    assert s.state.outcome().ended == "time" and on_time(s.state) is s.state.outcome()
    s.undo()  # the arbiter's correction: the position as it stood, the game's own state
    assert not s.state.is_over() and s.state.outcome() is None
    assert type(s.state) is type(get_spec(game).new(**s.options))


def test_a_game_over_by_its_rules_says_so():
    s = played("binaryon", 200)
    assert s.state.is_over() and s.state.outcome().ended == "rules"
