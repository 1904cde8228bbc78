"""The board's side of pairings: the hub's retained ``pairing`` message is shown on the board
(OLED and table page) and its game started with those names when the board's game is over or
has no move yet, never throwing a game in progress away; its result carries the pairing id;
after a restart the same retained pairing does not start it again. And the link's small
public API (remote play publishes and subscribes through it). What a pairing may hold: names
of one short line (at most 40 characters, no control characters; a refusal never quotes a long
name back), few and short options, and Binøme's deck by its built-in name only, a path refused
alike whatever the file (nothing said of the board's files); a flood of pairings the board
cannot play is one log line."""

from __future__ import annotations

import json
import logging
import threading
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import PROGRAM
from companion.club import topics
from companion.club.pairing import parse_pairing
from companion.core.names import MAX_NAME, name_problem
from companion.games.binome.deck import BUILTIN_NAME, builtin_deck
from tests.club_boards import (
    Acker,
    moves_to_end,
    payloads,
    play,
    publish,
    send_raw,
    start_board,
    stop_board,
    wait,
)
from tests.mosquitto import Listener

PAIRING = {
    "event": "club night",
    "round": 2,
    "pairing": "r2-b1",
    "game": "binary",
    "options": {"size": 4},
    "players": {"black": "Ann", "white": "Bob"},
    "sent": 1.0,
}
LINE = "round 2: Ann v Bob, binary"


def on_board(daemon) -> tuple[str, dict, int | None, int]:
    s = daemon.session
    return s.game, dict(s.seat_names()), s.game_id, len(s.played)


def test_a_pairing_starts_its_game_with_its_names_and_its_result_carries_it(tmp_path, broker):
    acker = Acker(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        before = daemon.session.game_id
        publish(broker.url, topics.pairing("t1"), PAIRING)
        wait(lambda: daemon.session.game == "binary", what="the pairing's game")
        game, names, game_id, _ = daemon.call(lambda: on_board(daemon), render=False)
        assert names == {"black": "Ann", "white": "Bob"} and game_id != before
        assert daemon.session.options["size"] == 4
        assert daemon.message == LINE  # the OLED's line
        page = daemon.call(lambda: daemon.web_view(None), render=False)
        assert page["message"] == LINE  # and the table page's
        for name in moves_to_end("binary", size=4):
            play(daemon, name)
        uid = daemon.club.game_uid()
        wait(lambda: uid in acker.stored, what="the result")
    finally:
        stop_board(daemon, closers)
        acker.close()
    result = acker.stored[uid]
    assert result["pairing"] == "r2-b1" and result["players"] == {"black": "Ann", "white": "Bob"}
    assert '[Black "Ann"]' in result["record"] or "Ann" in result["record"]


def test_a_pairing_waits_for_the_game_in_progress_then_starts(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1", rules={"size": 4})
    try:
        wait(lambda: daemon.club.connected, what="connected")
        names = moves_to_end("binaryon", size=4)
        play(daemon, names[0])
        in_progress = daemon.call(lambda: on_board(daemon), render=False)
        publish(broker.url, topics.pairing("t1"), PAIRING)
        wait(lambda: daemon.message == f"{LINE}: after this game", what="it waits")
        assert daemon.call(lambda: on_board(daemon), render=False) == in_progress  # untouched
        for name in names[1:]:
            play(daemon, name)
        wait(lambda: daemon.session.game == "binary", what="started after the game")
        assert daemon.session.seat_names() == {"black": "Ann", "white": "Bob"}
        finished = daemon.journal.load(in_progress[2])
        assert finished.status == "finished" and len(finished.moves) >= len(names)
    finally:
        stop_board(daemon, closers)


def test_a_pairing_told_again_after_a_restart_is_not_started_again(tmp_path, broker):
    journal = tmp_path / "t1.sqlite"
    publish(broker.url, topics.pairing("t1"), PAIRING)  # retained before the board starts
    daemon, closers = start_board(tmp_path, broker.url, "t1", journal=journal)
    try:
        wait(lambda: daemon.session.game == "binary", what="the pairing's game")
        play(daemon, "a1")
        game_id = daemon.session.game_id
    finally:
        stop_board(daemon, closers)
    daemon, closers = start_board(tmp_path, broker.url, "t1", journal=journal)
    try:
        wait(lambda: daemon.club.connected, what="connected")
        wait(lambda: daemon.message == LINE, what="the pairing shown again")
        assert daemon.call(lambda: on_board(daemon), render=False) == (
            "binary", {"black": "Ann", "white": "Bob"}, game_id, 1,
        )  # fmt: skip
    finally:
        stop_board(daemon, closers)


def test_a_pairing_the_board_cannot_play_is_said_in_one_line(tmp_path, broker):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        before = daemon.call(lambda: on_board(daemon), render=False)
        publish(broker.url, topics.pairing("t1"), {**PAIRING, "game": "chess"})
        wait(lambda: "no game 'chess'" in daemon.message, what="said")
        assert "\n" not in daemon.message
        publish(broker.url, topics.pairing("t1"), {**PAIRING, "players": {"red": "Ann"}})
        wait(lambda: "no seat 'red'" in daemon.message, what="said")
        assert daemon.call(lambda: on_board(daemon), render=False) == before
    finally:
        stop_board(daemon, closers)


def test_the_link_publishes_and_subscribes_for_other_parts(tmp_path, broker):
    """Remote play's way in: a publish that never waits, a subscription whose callback runs
    in the daemon's loop thread and is kept across a broker restart."""
    listener = Listener(broker.url)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    got: list[tuple[str, dict | None, bool]] = []
    try:
        wait(lambda: daemon.club.connected, what="connected")

        def heard(topic: str, message: dict | None) -> None:
            got.append((topic, message, threading.current_thread() is daemon.loop.thread))

        daemon.club.subscribe(topics.remote("t4", "t1"), heard)
        daemon.club.publish(topics.remote("t1", "t4"), {"board": "t1", "ply": 0, "move": "e5"})
        listener.wait_for(lambda h: payloads(h, topics.remote("t1", "t4")))
        publish(broker.url, topics.remote("t4", "t1"), {"board": "t4", "move": "d4"}, False)
        wait(lambda: got, what="delivered")
        assert got == [(topics.remote("t4", "t1"), {"board": "t4", "move": "d4"}, True)]
        broker.kill()
        wait(lambda: not daemon.club.connected, what="the link down")
        broker.start()
        wait(lambda: daemon.club.connected, timeout=40, what="back")
        publish(broker.url, topics.remote("t4", "t1"), {"board": "t4", "move": "c3"}, False)
        wait(lambda: len(got) == 2, what="delivered after the restart")
    finally:
        stop_board(daemon, closers)
        listener.close()
    assert payloads(listener.messages(), topics.remote("t1", "t4")) == [
        {"board": "t1", "ply": 0, "move": "e5"}
    ]


def test_a_flood_of_pairings_the_board_cannot_play_is_one_log_line(tmp_path, broker, caplog):
    caplog.set_level(logging.INFO, logger=PROGRAM)
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
        bad = {"pairing": "p1", "game": "binary", "players": {"black": "A" * 700}}
        send_raw(broker.url, topics.pairing("t1"), [json.dumps(bad).encode()] * 30)
        wait(lambda: daemon.club.pairings.refused.counts.get("pairing") == 30, what="refused")
        assert daemon.message == "club: pairing p1: a name of 700 characters: at most 40"
    finally:
        stop_board(daemon, closers)
    lines = [r for r in caplog.records if "a name of 700" in r.getMessage()]
    assert len(lines) == 1


def binome(deck: str, **more) -> dict:
    options = {"players": "Ann,Bob", "deck": deck, **more}
    return {"pairing": "p1", "game": "binome", "options": options}


def refusal(message: dict) -> str:
    with pytest.raises(ValueError) as e:
        parse_pairing(message)
    return str(e.value)


def test_a_deck_path_is_refused_alike_whatever_the_file(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('[cards]\npassword = "hunter2"\n')
    broken = tmp_path / "broken.toml"
    broken.write_text("[cards\n")
    unreadable = tmp_path / "unreadable.toml"
    unreadable.write_text("[cards]\n")
    unreadable.chmod(0)
    lines = {
        refusal(binome(str(path)))
        for path in (secret, broken, unreadable, tmp_path / "missing.toml", "/etc/passwd")
    }
    assert lines == {f"pairing p1: deck: a pairing names one built-in only ({BUILTIN_NAME})"}


@pytest.mark.parametrize("deck", ["", BUILTIN_NAME])
def test_the_built_in_deck_by_its_name_or_none(deck, tmp_path, monkeypatch):
    (tmp_path / BUILTIN_NAME).write_text("[cards\n")  # a file of that name here is not read
    monkeypatch.chdir(tmp_path)
    pairing = parse_pairing(binome(deck))
    assert pairing.options["points"] == builtin_deck().text()


def test_options_are_few_and_short():
    assert "at most 32" in refusal({**binome(""), "options": {f"o{i}": 1 for i in range(40)}})
    line = refusal(binome("", chair="x" * 100_000))
    assert "at most 400" in line and len(line) < 160


NAMED_PAIRING = {"pairing": "p1", "game": "binary", "players": {"black": "Ann", "white": "Bob"}}


BAD = ["", "   ", "x" * (MAX_NAME + 1), "x" * 700_000, "Ann\x1b[2J", "Bob\nEve", "Ann\u202eboB",
       "Zed\u2028Ann", "\x00"]  # fmt: skip


GOOD = ["Ann", "x" * MAX_NAME, "Zoë", "李雷", "Jean-Luc Picard", "O'Brien", "👩‍🔬 Ada"]


@pytest.mark.parametrize("name", BAD)
def test_a_pairing_with_a_bad_name_is_refused_in_one_short_line(name):
    with pytest.raises(ValueError) as e:
        parse_pairing({**NAMED_PAIRING, "players": {"black": name, "white": "Bob"}})
    line = str(e.value)
    assert "\n" not in line and len(line) < 120 and line.startswith("pairing p1: ")


@pytest.mark.parametrize("name", GOOD)
def test_a_pairing_with_a_fair_name_is_taken(name):
    assert parse_pairing({**NAMED_PAIRING, "players": {"black": name}}).players == {"black": name}


def test_a_pairings_id_and_event_are_bounded_too():
    with pytest.raises(ValueError, match="one line of at most 80"):
        parse_pairing({**NAMED_PAIRING, "pairing": "p" * 10_000})
    with pytest.raises(ValueError, match="one line"):
        parse_pairing({**NAMED_PAIRING, "event": "March\x1b]0;pwned\x07"})


@given(st.text(max_size=60))
def test_a_name_is_one_to_forty_characters_without_control_ones(value):
    categories = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")
    control = any(unicodedata.category(c) in categories and c not in "\u200c\u200d" for c in value)
    fair = bool(value.strip()) and len(value) <= MAX_NAME and not control
    assert (name_problem(value) is None) == fair
