"""Who won, by name (issue 33): players in seat order, the first player first (the journal
keeps them sorted by seat id: ``off`` before ``on``), and the result said by name (``Ben
beat Dan``, ``Dan v Ben 0-1``) in ``history``, the table page's game list, the results a
board sends and the hub's results; Binøme's players keep their names there."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from companion.cli.main import main
from companion.club.hub.store import ResultStore, parse_result
from companion.club.messages import result as result_message
from companion.journal.store import SqliteJournal
from companion.records.said import result_said, said, score_line, seated
from companion.referee.session import Session
from companion.service.web_backend import history_row


def play_out(session: Session, seed: int) -> None:
    """Random legal moves until the game is over."""
    rng = random.Random(seed)
    while not session.state.is_over():
        state = session.state
        forced = state.forced_move()
        if forced is not None:
            session.submit(forced)
            continue
        player = sorted(state.to_act)[0]
        session.submit(rng.choice(list(state.legal_moves(player))), player)


def finished(tmp_path, game: str, players: dict, options: dict | None = None, won=None):
    """A finished game in a journal whose winner is ``won`` (a seat), by trying seeds."""
    path = tmp_path / f"{game}.sqlite"
    for seed in range(200):
        path.unlink(missing_ok=True)
        with SqliteJournal.open(path) as journal:
            session = Session(game, dict(options or {}), journal, players)
            play_out(session, seed)
            winners = list(session.state.outcome().winners)
            if won is None or winners == [won]:
                return path, journal.load(session.game_id)
    raise AssertionError("no such game")


def test_history_lists_the_first_player_first_and_says_who_beat_whom(tmp_path, capsys):
    path, entry = finished(tmp_path, "binaryon", {"on": "Dan", "off": "Ben"}, {"size": 4}, "off")
    assert list(seated(entry)) == ["on", "off"]
    assert result_said(entry) == ("Ben beat Dan", "Dan v Ben 0-1")
    assert main(["history", "--json", "--journal", str(path)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert list(row["seated"]) == ["on", "off"]
    assert (row["said"], row["score_line"]) == ("Ben beat Dan", "Dan v Ben 0-1")
    assert main(["history", "--journal", str(path)]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert "Ben beat Dan" in line and line.index("on=Dan") < line.index("off=Ben")
    web = history_row(entry)
    assert list(web["players"]) == ["on", "off"] and web["said"].startswith("Ben beat Dan")


def test_binome_players_keep_their_names(tmp_path):
    _, entry = finished(tmp_path, "binome", {}, {"players": "Ann,Bob"})
    assert seated(entry) == {"Ann": "Ann", "Bob": "Bob"}
    words, line = result_said(entry)
    assert "Ann" in words and "Bob" in words and line.startswith("Ann v Bob ")


def test_a_boards_result_and_the_hubs_list_say_it_by_name_in_seat_order(tmp_path):
    _, entry = finished(tmp_path, "binaryon", {"on": "Dan", "off": "Ben"}, {"size": 4}, "off")
    message = result_message("t2", "u-1", entry, None, 1.0)
    assert list(message["players"]) == ["on", "off"]
    store = ResultStore(tmp_path / "club.sqlite")
    store.add(parse_result("t2", "u-1", message))
    # a board of an older version sent its players sorted by seat id
    older = {**message, "game_uid": "u-2", "players": {"off": "Ben", "on": "Dan"}}
    store.add(parse_result("t2", "u-2", older))
    for game in store.games():
        assert list(game["players"]) == ["on", "off"]
        assert (game["said"], game["score_line"]) == ("Ben beat Dan", "Dan v Ben 0-1")
    store.close()


@given(st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=2, max_size=5, unique=True),
       st.data())  # fmt: skip
def test_said_names_the_winners_before_beat_and_everyone_once(names, data):
    winners = data.draw(st.lists(st.sampled_from(names), unique=True))
    words = said(names, winners)
    if winners and len(winners) < len(names):
        won, lost = words.split(" beat ")
        assert all(w in won for w in winners) and all(n in lost for n in names if n not in winners)
    line = score_line(names, winners)
    if len(names) == 2:
        assert line.startswith(f"{names[0]} v {names[1]} ")
    else:
        assert line is None


def test_said_in_plain_words():
    assert said(["Ann", "Bob"], ["Ann"]) == "Ann beat Bob"
    assert said(["Ann", "Bob"], []) == "Ann drew with Bob"
    assert said(["Ann", "Bob", "Cat"], ["Bob"]) == "Bob beat Ann and Cat"
    assert said(["Ann", "Bob", "Cat"], ["Ann", "Bob", "Cat"]) == "Ann, Bob and Cat shared the win"
    assert score_line(["Ann", "Bob"], ["Ann"]) == "Ann v Bob 1-0"
    assert score_line(["Ann", "Bob"], []) == "Ann v Bob 1/2-1/2"


def test_the_hubs_board_card_says_the_result_by_name():
    from companion.club.hub.state import HubState
    from tests.simulated_club_boards import play_game

    game = play_game(5, {"on": "Dan", "off": "Ben"})
    final = game.steps[-1].view
    assert final["over"]
    winners = final["result"]["winners"]
    state = HubState()
    state.apply_table("t2", {"board": "t2", "seq": 1, "view": final})
    names = {"on": "Dan", "off": "Ben"}
    expected = said(["Dan", "Ben"], [names[w] for w in winners])
    assert state.boards["t2"].summary()["result"] == f"{expected} ({final['result']['summary']})"


def test_a_record_says_the_result_by_name_once_through_export_and_import(tmp_path, capsys):
    path, _ = finished(tmp_path, "binaryon", {"on": "Dan", "off": "Ben"}, {"size": 4}, "off")
    out = tmp_path / "game.txt"
    assert main(["export", "last", "-o", str(out), "--journal", str(path)]) == 0
    first = out.read_text()
    assert first.count('[Said "Ben beat Dan"]') == 1
    assert first.index('[On "Dan"]') < first.index('[Off "Ben"]')
    again = tmp_path / "again.sqlite"
    assert main(["import", str(out), "--journal", str(again)]) == 0
    out2 = tmp_path / "again.txt"
    assert main(["export", "last", "-o", str(out2), "--journal", str(again)]) == 0
    assert out2.read_text().count('[Said "Ben beat Dan"]') == 1
