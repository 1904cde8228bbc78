"""A game with everything a game can bring, added from outside the package with one
``register`` call and nothing else: Noughts (``tests/toy_game/``). Its engine plays against
people and gives the menu's last hint, ``bestmove``, ``solve`` and ``match`` play it, ``legal``
and ``score`` read its positions and records, its own command runs, and its table and player
pages are served; all through the public entry points."""

from __future__ import annotations

import io
import json
import urllib.request

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.games import game_names, get_spec, register, unregister
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.timing.clock import TimeControl
from tests.conftest import step, wait_until
from tests.games import test_contract as contract
from tests.live_daemon import call_api, start_daemon, stop_daemon

GAME = "noughts"
# Cross (x) to play makes a row of three on c1; top rank first
POSITION = "x.o\n.x.\no..\n"
# the command it brings, registered beside it
COMMANDS = {"noughts-rows": ("tests.toy_game.cli", "list every row of three of the Noughts board")}
RECORD = f'[Game "{GAME}"]\n[Options "size=3"]\n\n1. a1 b1\n2. b2 c1\n3. c3\n'


@pytest.fixture(autouse=True)
def noughts():
    register(GAME, "tests.toy_game.spec", COMMANDS)
    yield
    unregister(GAME)


def cli(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys, *argv: str, **kw) -> dict:
    code, out, err = cli(capsys, *argv, "--json", **kw)
    assert code == 0, err
    return json.loads(out)


# ------------------------------------------------------------------------------- the CLI


def test_legal_and_score_read_its_positions(capsys, monkeypatch):
    args = ("legal", "--game", GAME, "-", "--mover", "cross")
    got = cli_json(capsys, *args, stdin=POSITION, monkeypatch=monkeypatch)
    assert got == {"moves": ["b1", "c1", "a2", "c2", "b3"], "winning": ["c1"]}
    code, out, _ = cli(capsys, *args, stdin=POSITION, monkeypatch=monkeypatch)
    assert code == 0 and out == "b1 c1 a2 c2 b3\nwinning: c1\n"
    code, _, err = cli(capsys, "legal", "--game", GAME, "-", "--mover", "on")
    assert code == 2 and err == "binaryon: --mover cross or --mover nought\n"
    scored = cli_json(capsys, "score", "--game", GAME, "-", stdin=POSITION, monkeypatch=monkeypatch)
    assert scored == {
        "game": GAME,
        "winner": None,
        "line": [],
        "threats": {"cross": 1, "nought": 0},
    }
    code, _, err = cli(capsys, "score", "--game", GAME, "-", stdin="xo\n", monkeypatch=monkeypatch)
    assert code == 2 and "3 or 4 rows" in err and len(err.splitlines()) == 1


def test_legal_and_score_read_its_records(capsys, tmp_path):
    path = tmp_path / "n.txt"
    path.write_text(RECORD)
    assert cli_json(capsys, "legal", "--record", str(path)) == {"moves": []}  # a1-b2-c3
    scored = cli_json(capsys, "score", "--record", str(path))
    assert scored["winner"] == "cross" and scored["line"] == ["a1", "b2", "c3"]
    code, out, _ = cli(capsys, "score", "--record", str(path))
    assert code == 0 and out == "CROSS wins on a1-b2-c3\n"
    path.write_text(RECORD.replace("\n3. c3\n", "\n"))
    assert cli_json(capsys, "legal", "--record", str(path))["moves"] == [
        "a2", "c2", "a3", "b3", "c3"
    ]  # fmt: skip


def test_bestmove_solve_and_match_play_it(capsys, monkeypatch):
    best = cli_json(
        capsys, "bestmove", "--game", GAME, "-", "--mover", "cross", "--time", "0.2",
        stdin=POSITION, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert best["move"] == "c1" and best["result"] == "win"
    code, _, err = cli(capsys, "bestmove", "--game", GAME, "-", "--mover", "x",
                       stdin=POSITION, monkeypatch=monkeypatch)  # fmt: skip
    assert code == 2 and "--mover must be cross or nought" in err
    solved = cli_json(capsys, "solve", "--game", GAME, "--size", "3")
    assert solved["result"] == "draw" and solved["winner"] is None
    assert len(solved["line"]) == 9 and solved["first"] == "cross"
    match = cli_json(capsys, "match", "engine:beginner", "random", "--game", GAME,
                     "--games", "2", "--time", "0.05")  # fmt: skip
    assert match["game"] == GAME and set(match["by_colour"]) == {"cross", "nought"}
    assert match["wins"] + match["draws"] + match["losses"] == 2


def test_its_own_command_is_a_binaryon_subcommand(capsys):
    code, out, _ = cli(capsys, "noughts-rows")
    assert code == 0 and len(out.splitlines()) == 8 and "a1-b2-c3" in out.splitlines()
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "noughts-rows" in out and GAME in out


def test_it_is_played_across_two_boards():
    """Its remote facet: open information, so remote play takes it (a game that hid
    something would need masked states), and its moves are made on the board."""
    from companion.club.remote import remote_problem
    from companion.games import get_spec

    spec = get_spec(GAME)
    assert remote_problem(spec, spec.resolve({})) is None
    state = spec.new(**spec.resolve({}))
    assert not spec.remote().hidden and spec.remote().on_board(state.legal_moves()[0])


def test_unregistered_it_is_gone(capsys):
    unregister(GAME)
    assert GAME not in game_names()
    code, _, err = cli(capsys, "solve", "--game", GAME, "--size", "3")
    assert code == 2 and "no engine" in err
    register(GAME, "tests.toy_game.spec", COMMANDS)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=6))
def test_solve_agrees_with_plain_minimax_from_any_position(picks):
    """The solver plays the game through its adapter alone: from any position its value is
    the one a plain minimax finds, and its line ends the game with that result."""
    from companion.engines.adapters import adapter_for, new_state
    from companion.engines.solve import minimax, solve

    adapter = adapter_for(GAME)
    state = new_state(GAME, {"size": 3})
    for pick in picks:
        if state.is_over():
            break
        moves = state.legal_moves()
        state = state.play(moves[pick % len(moves)])
    if state.is_over():
        return
    solved = solve(adapter, state)
    assert solved.value == minimax(adapter, state)
    end = state
    for move in solved.line:
        end = end.play(move)
    won = end.winner()
    assert end.is_over()
    assert solved.value == (0 if won is None else 1 if won == state.mover else -1)


# ------------------------------------------------------------------------------- the daemon


def daemon(clock, **game) -> Daemon:
    cfg = Config.default().with_overrides(game={"name": GAME, **game}, rules={GAME: {"size": 3}})
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def press(d, clock, square: str) -> None:
    from companion.core.squares import parse_square

    d.board.tap(parse_square(square, 8))
    step(d, clock, 0.05)


def menu(d, clock) -> None:
    d.post(ButtonEvent("menu"))
    step(d, clock)


def test_the_menu_gives_its_own_hint_then_the_engines_move(clock):
    d = daemon(clock)
    assert d.map.squares[0] == 18  # the 3x3 board sits in the middle: a1 is c3
    press(d, clock, "d4")  # b2
    assert d.session.moves == ["b2"]
    menu(d, clock)
    assert d.message == "8 cells for NOUGHT" and len(d.marks().hint) == 8
    hint = d.hints.engine
    hint.seconds, hint.nodes = None, 5000
    menu(d, clock)  # the engine's step
    wait_until(lambda: d.loop.run_pending() >= 0 and d.message.startswith("hint "),
               what="the engine's hint")  # fmt: skip
    assert d.message in ("hint a1: holds a draw", "hint c1: holds a draw",
                         "hint a3: holds a draw", "hint c3: holds a draw")  # fmt: skip
    assert len(d.marks().hint) == 1  # its cell lit on the board
    menu(d, clock)  # and round again
    assert d.message == "8 cells for NOUGHT"


def test_the_companion_plays_it(clock):
    d = daemon(clock, opponent="engine:beginner")
    press(d, clock, "d4")  # b2
    wait_until(lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
               what="the engine's move")  # fmt: skip
    mine = d.opponent.wanted.name
    assert d.message == f"my move: {mine}: press it"
    files, rank = "cde"["abc".index(mine[0])], int(mine[1]) + 2
    press(d, clock, f"{files}{rank}")
    assert d.session.moves == ["b2", mine]


# ------------------------------------------------------------------------------- the pages


def test_its_table_and_player_pages(tmp_path):
    d, closers = start_daemon(tmp_path, GAME, rules={"size": 3})
    try:
        url = d.web.url
        tokens = d.web_backend.tokens()
        with urllib.request.urlopen(url + "/", timeout=10) as page:
            assert page.status == 200 and "<html" in page.read().decode().lower()
        with urllib.request.urlopen(f"{url}/p/{tokens['cross']}", timeout=10) as page:
            assert page.status == 200
        status, moved = call_api(url, tokens["cross"], "/api/move", {"move": "b2"})
        assert status == 200, moved
        status, refused = call_api(url, tokens["cross"], "/api/move", {"move": "a1"})
        assert status != 200 and "not your turn" in json.dumps(refused)
        wait_until(lambda: len(d.session.played) == 1, what="the move")
        with urllib.request.urlopen(url + "/api/state", timeout=10) as answer:
            table = json.loads(answer.read())
        text = json.dumps(table)
        assert table["title"] == "Noughts" and "you play" not in text  # spec.heading()
        status, me = call_api(url, tokens["nought"], "/api/me")
        assert status == 200 and "you play NOUGHT" in json.dumps(me)
    finally:
        stop_daemon(d, closers)


@pytest.mark.parametrize("seed", range(2))
def test_its_facets_keep_the_contract(seed):
    """The generic contract's facet checks, on the toy game too (it is registered here only)."""
    contract.test_the_positions_facet_keeps_the_contract(GAME)
    contract.test_the_clock_rules_facet_keeps_the_contract(GAME)
    contract.test_random_games_keep_the_contract(GAME, seed)


def test_its_clock_rules_draw_when_the_opponent_can_no_longer_win(capsys):
    """Its own result on time: the opponent wins while a row is still open to them, else a
    draw; and ``--clock default`` takes its suggested control."""
    spec = get_spec(GAME)
    rules = spec.clock_rules()
    assert TimeControl.parse(rules.default) and rules.step_seconds({}) == 0
    # cross to move; nought's marks block every row but one cross cannot use either
    open_row = spec.positions().state("x . .\n. . .\n. . .\n", "nought")
    assert rules.on_time(open_row, "nought").winners == ("cross",)
    assert rules.on_time(open_row, "cross").winners == ("nought",)
    blocked = spec.positions().state("x o x\nx o o\no x .\n", "nought")
    assert not blocked.is_over()
    outcome = rules.on_time(blocked, "nought")
    assert outcome.winners == () and outcome.summary == "draw on time"
    assert outcome.detail == {"on_time": "nought"}
