"""Remote play: two real companions (the daemon on the simulated board, each with its real
journal, in its own process) play one game over a real Mosquitto. Each remote move is lit
for the player here, anything else is refused, a board killed mid-game catches up, and both
journals end with the whole game, each move once."""

from __future__ import annotations

import json
import random

import pytest

from companion import PROGRAM
from companion.core.config import Config, ConfigError
from companion.service.config_check import check_config
from tests.remote_boards import Board, seated


def play(boards: dict[str, Board], rng: random.Random, plies: int = 10_000, refuse=True):
    """Play moves: the board whose player is to move makes a random legal move (Wythe's swap
    whenever it may), the other board lights it and its player makes it (after a wrong press
    is refused). Returns the moves played, forced ones included, as both boards have them."""
    return _play(boards, rng, plies, refuse)


def _play(boards: dict[str, Board], rng: random.Random, plies: int, refuse: bool):
    for _ in range(plies):
        any_board = next(iter(boards.values()))
        state = any_board.state()
        if state["over"]:
            return state["moves"]
        seats = {b.state()["playing"]: b for b in boards.values()}
        mover = seats[state["turn"]]
        other = next(b for b in boards.values() if b is not mover)
        now = mover.state()
        ply = len(now["moves"])
        if refuse and ply % 3 == 0:  # the remote seat's move is not the player's to make here
            theirs = other.state()
            if theirs["turn"] != theirs["playing"] and not theirs["over"]:
                before = theirs["moves"]
                other.ask("press 0")
                after = other.state()
                assert after["moves"] == before
                assert after["message"] == f"wait for {mover.name}'s move"
        move = "swap" if "swap" in now["legal"] else rng.choice(now["legal"])
        mover.ask(f"play {move}")
        played = mover.wait(lambda s, n=ply: len(s["moves"]) > n, f"its own move {move}")
        assert played["moves"][ply] == move
        lit = other.wait(
            lambda s, m=move, n=ply: s["wanted"] == m and len(s["moves"]) == n, f"{move} lit", 90
        )
        assert move in lit["message"] and lit["message"].startswith(f"{mover.name}'s move")
        if refuse and ply % 2 == 0 and lit["lit"]:  # another square: refused
            wrong = next(sq for sq in range(16) if [sq] != lit["lit"])
            other.ask(f"press {wrong}")
            refused = other.state()
            assert refused["moves"] == lit["moves"]
            assert refused["message"].endswith(f"for {mover.name}'s move")
        other.ask(f"play {move}")
        made = other.wait(lambda s, n=ply: len(s["moves"]) > n, f"{move} made")
        assert made["moves"][ply] == move
    return any_board.state()["moves"]


@pytest.mark.parametrize("game", ["binaryon", "binary", "wythe"])
def test_two_boards_play_a_whole_game_remotely(pair, broker, game):
    from tests.mosquitto import Listener

    listener = Listener(broker.url)
    t3, t4 = pair(game, {"size": 4})
    boards = seated(t3, t4)
    assert len(boards) == 2  # each board plays its own side
    # in Wythe a press is half a move: only a whole move can be refused
    moves = play(boards, random.Random(7), refuse=game != "wythe")
    a, b = t3.state(), t4.state()
    assert a["over"] and b["over"] and a["moves"] == b["moves"] == moves
    assert game != "wythe" or "swap" in moves  # seats, not colours, across the boards
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == moves
    heard = [h for h in listener.messages(f"{PROGRAM}/") if "/remote/" in h.topic]
    sent = {json.loads(h.payload)["move"] for h in heard if b'"move"' in h.payload}
    assert sent <= set(moves) and sent  # only moves of the game went over the broker
    listener.close()


def test_a_board_killed_mid_game_catches_up_and_nothing_is_doubled(pair):
    t3, t4 = pair("binaryon", {"size": 4})
    boards = seated(t3, t4)
    rng = random.Random(3)
    play(boards, rng, plies=3, refuse=False)
    state = t3.state()
    mover = boards[state["turn"]]
    other = next(b for b in boards.values() if b is not mover)
    other.kill()  # gone before the mover's next move is sent
    ply = len(state["moves"])
    move = rng.choice(mover.state()["legal"])
    mover.ask(f"play {move}")
    mover.wait(lambda s: len(s["moves"]) > ply, "the move played while the peer is away")
    other.start()  # resumes its journal's game, asks the peer for what it missed
    lit = other.wait(lambda s: s["wanted"] == move and len(s["moves"]) == ply, "caught up", 90)
    assert lit["message"].startswith(f"{mover.name}'s move: {move}")
    other.ask(f"play {move}")
    moves = play(boards, rng, refuse=False)
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == moves
    assert moves[ply] == move


def test_the_broker_killed_mid_game_loses_and_doubles_nothing(pair, broker):
    t3, t4 = pair("binary", {"size": 4})
    boards = seated(t3, t4)
    rng = random.Random(11)
    play(boards, rng, plies=2, refuse=False)
    state = t3.state()
    mover = boards[state["turn"]]
    other = next(b for b in boards.values() if b is not mover)
    broker.kill()  # a power cut: the broker forgets everything
    ply = len(state["moves"])
    move = rng.choice(mover.state()["legal"])
    mover.ask(f"play {move}")
    mover.wait(lambda s: len(s["moves"]) > ply, "the move played without the broker")
    broker.start()
    lit = other.wait(lambda s: s["wanted"] == move and len(s["moves"]) == ply, "caught up", 90)
    assert lit["message"].startswith(f"{mover.name}'s move: {move}")
    other.ask(f"play {move}")
    moves = play(boards, rng, refuse=False)
    t3.stop()
    t4.stop()
    assert t3.journal_moves() == t4.journal_moves() == moves


def test_both_boards_on_one_side_is_refused_with_one_line(tmp_path, broker):
    t3 = Board(tmp_path, broker, "t3", "t4", "off", "binaryon", {"size": 4})
    t4 = Board(tmp_path, broker, "t4", "t3", "off", "binaryon", {"size": 4})
    try:
        said = t3.wait(lambda s: "t4 plays" in s["message"], "the refusal")
        assert "one board plays" in said["message"] and "\n" not in said["message"]
    finally:
        t3.stop()
        t4.stop()


def test_another_game_on_the_peer_is_refused_with_one_line(tmp_path, broker):
    t3 = Board(tmp_path, broker, "t3", "t4", "", "binaryon", {"size": 4})
    t4 = Board(tmp_path, broker, "t4", "t3", "on", "binaryon", {"size": 6})
    try:
        said = t3.wait(lambda s: "t4 plays" in s["message"], "the refusal")
        assert "start the same game on both" in said["message"]
        assert "size 6" in said["message"] and "size 4" in said["message"]
    finally:
        t3.stop()
        t4.stop()


def test_games_with_secrets_are_played_remotely_but_not_solo_or_by_three():
    """Latent Binaries and Binøme have masked states (their remote facet): allowed. Binøme
    solo or with three players is refused in one line; so is a game with secrets that cannot
    be masked."""
    from companion.club.remote import remote_problem
    from companion.games import get_spec
    from companion.games.remote_api import Hidden

    for game in ("latent-binaries", "binome"):
        check_config(remote_config(game, {}))
    for rules in ({"players": "Ann,Bob,Cy"}, {"players": "Ann", "solo": 2}):
        with pytest.raises(ConfigError, match="remote play is for two players, one at each"):
            check_config(remote_config("binome", rules))
    with pytest.raises(ConfigError, match="cannot be played remotely: remote play has no pl"):
        check_config(remote_config("binome", {"players": "Ann,Bob", "phoneless": "Bob"}))

    class Unmasked(type(get_spec("latent-binaries"))):
        def remote(self) -> Hidden:
            return Hidden()

    problem = remote_problem(Unmasked(), {})
    assert problem == "latent-binaries has hidden information: it cannot be played remotely"


def remote_config(game: str, rules: dict) -> Config:
    return Config.default().with_overrides(
        game={"name": game, "opponent": "remote:t4"},
        rules={game: rules},
        club={"broker": "mqtt://127.0.0.1:1883", "board": "t3"},
    )


@pytest.mark.parametrize(
    "game, club, said",
    [
        ({"opponent": "remote:t4"}, {}, "needs --club URL and --board-name NAME"),
        ({"opponent": "remote:a/b"}, {"broker": "mqtt://h:1", "board": "t3"}, "remote:BOARD"),
        ({"opponent": "remote:t3"}, {"broker": "mqtt://h:1", "board": "t3"}, "this board's own"),
        ({"opponent": "remote:t4"}, {"broker": "http://h:1", "board": "t3"}, "mqtts://"),
    ],
)
def test_a_remote_opponent_that_cannot_be_played_is_one_line(game, club, said):
    with pytest.raises(ConfigError, match=said):
        check_config(Config.default().with_overrides(game=game, club=club))


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{PROGRAM}: ") and "\n" not in err and "Traceback" not in err, err
    return err


def test_the_command_line_wants_a_club_for_a_remote_opponent(capsys):
    from companion.cli.main import main

    assert main(["sim", "--journal", "none", "--opponent", "remote:t4"]) == 2
    assert "needs --club URL and --board-name NAME" in one_line_error(capsys)


def test_a_password_in_the_broker_url_is_refused_without_echoing_it(capsys):
    from companion.cli.main import main

    url = "mqtt://ana:s3cret@127.0.0.1:1883"
    assert main(["sim", "--journal", "none", "--club", url, "--board-name", "t3"]) == 2
    line = one_line_error(capsys)
    assert "[club]" in line and "s3cret" not in line


def test_the_opponent_side_keeps_its_old_spelling_in_the_config_file(tmp_path):
    for key in ("engine_side", "opponent_side"):
        path = tmp_path / f"{key}.toml"
        path.write_text(f'[game]\nopponent = "engine"\n{key} = "on"\n')
        assert Config.load(path).game.opponent_side == "on"


def test_a_remote_game_may_be_played_on_a_clock():
    """(tests/club/remote/test_clock.py plays one.)"""
    config = remote_config("binaryon", {"size": 4}).with_overrides(clock={"control": "5:00+3"})
    assert check_config(config) is config
