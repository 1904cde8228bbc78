"""The daemon hosts games of every shape: no board and five players with chance and secret
picks; hidden information on a board smaller than the physical one; a non-square board in a
corner; a game that does not fit; a game named in the config while another is in progress."""

from __future__ import annotations

import json

import pytest

from companion.core.config import Config
from companion.core.events import ButtonEvent, UserCommand
from companion.core.sensors import IDLE_READING as IDLE
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from tests.conftest import step
from tests.positions import sq
from tests.stub_games import stubs_registered


@pytest.fixture(autouse=True)
def stubs():
    with stubs_registered():
        yield


def tap(d, clock, name: str) -> None:
    d.board.tap(sq(name, d.board.size))
    step(d, clock, 0.05)


def test_a_five_player_game_with_no_board_chance_and_secret_picks(make_daemon, clock):
    d = make_daemon(game="party")
    s = d.session
    assert len(s.state.players) == 5
    assert s.played and s.played[0].name.startswith("roll ") and s.played[0].player is None
    roll = int(s.played[0].name.split()[1])
    assert len(d.screen().panel.rows) == 5
    assert d.table().layout is None and set(d.leds.frame) == {(0, 0, 0)}  # no board: dark
    # every player picks at once; each pick is a secret until the game ends
    for k, p in enumerate(s.state.players):
        digit = roll if k == 0 else (roll + 1) % 10
        result = d.submit(f"pick {p} {digit}", p)
        assert result.accepted, result.refusal
        if k < 4:
            table = json.dumps(d.web_view(None))
            assert f"pick {p} {digit}" not in table and f"pick {p}" in table
            assert f"pick {p} {digit}" in json.dumps(d.web_view(p))  # the picker sees it
            assert f"pick {p} {digit}" not in json.dumps(d.web_view("p5"))
    # a pick for another player is refused and changes nothing
    before = len(s.played)
    refused = d.submit("pick p2 3", "p1")
    assert not refused.accepted and refused.refusal.code in ("not-you", "not-your-turn")
    assert len(s.played) == before
    assert s.state.points[0] == 1  # p1 guessed the roll; a new roll came by itself
    assert s.played[-1].name.startswith("roll ")


def test_hidden_treasures_and_presses_on_a_board_larger_than_the_game(make_daemon, clock):
    d = make_daemon(game="hidden")
    assert d.board.size == 8 and d.map.squares[0] == sq("c3")  # 3x3, centred
    assert d.submit("hide left a1", "left").accepted
    assert d.submit("hide right a3", "right").accepted
    public = json.dumps(d.web_view(None)) + str(d.screen())
    assert "hide left a1" not in public and "a1" not in json.dumps(d.web_view("right")["private"])
    assert "your treasure: a1" in d.web_view("left")["private"]["lines"]
    tap(d, clock, "a1")  # outside the game's 3x3 area: nothing happens
    assert d.session.moves[-1] == "hide right a3" and d.message == "outside the game's area"
    tap(d, clock, "d4")  # the game's b2
    assert d.session.moves[-1] == "b2"
    frame = d.leds.frame
    inside = set(d.map.squares)
    assert all(frame[i] == (0, 0, 0) for i in range(64) if i not in inside)
    assert frame[sq("d4")] != (0, 0, 0)  # pressed cell lit
    tap(d, clock, "e5")  # right presses the game's c3: no treasure there
    tap(d, clock, "c5")  # left presses the game's a3: right's treasure
    assert d.session.state.is_over() and d.session.state.outcome().winners == ("left",)
    # after the end the secrets are revealed to everyone
    assert "hide left a1" in json.dumps(d.web_view(None)["moves"])


def test_a_presence_board_game_in_the_corner_and_a_stray_piece_outside_it(make_daemon, clock):
    d = make_daemon(game="small", kind="presence", settle_ms=100)
    step(d, clock, 0.2)
    assert d.board_synced
    d.board.set_reading(sq("h8"), "1")  # a piece outside the game's 4x3 area
    step(d, clock, 0.2)
    assert d.marks().differ == (sq("h8"),) and d.message == "clear 1 off the game"  # it blinks
    d.board.set_reading(sq("h8"), "0")
    d.board.set_reading(sq("b2"), "1")  # the game's b2
    step(d, clock, 0.2)
    assert d.session.moves == ["b2"] and d.marks().differ == ()


def test_a_game_too_big_for_the_board_says_so_and_new_starts_one_that_fits(clock, tmp_path):
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    try:
        gid = journal.begin("binaryon", {"size": 10}, {})
        journal.commit_turn(gid, 0, [MoveEntry(0, "e6")], None)
        board = MockBoard(8, "polarity", clock)  # a real board cannot grow
        board.resize = None  # type: ignore[assignment]
        d = Daemon(Config.default(), board=board, clock=clock, journal=journal)
        assert "does not fit the 8x8 board" in d.status and "menu" in d.status
        d.post(UserCommand("new"))
        step(d, clock)
        assert d.session.options["size"] == 8 and d.status == ""
    finally:
        journal.close()


def test_a_named_game_replaces_the_one_in_progress(clock, tmp_path):
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    try:
        d = Daemon(Config.default(), clock=clock, journal=journal)
        d.board.start(d.loop.post)
        tap(d, clock, "e5")
        old = d.session.game_id
        # restart without naming a game: the game in progress resumes
        d = Daemon(Config.default(), clock=clock, journal=journal)
        assert d.session.game_id == old and d.message == "resumed"
        # restart naming another game: it starts, and the old one is paused (kept whole)
        chosen = Config.default().with_overrides(game={"name": "binary"})
        d = Daemon(chosen, clock=clock, journal=journal)
        assert d.session.game == "binary" and d.session.game_id != old
        assert d.message == f"paused binaryon #{old}"
        assert {g.id: g.status for g in journal.games()}[old] == "paused"
        # naming the game already in progress resumes it
        d = Daemon(chosen, clock=clock, journal=journal)
        assert d.session.game == "binary" and d.message == "resumed"
    finally:
        journal.close()


def test_a_simulated_board_takes_the_size_of_the_game(make_daemon, clock):
    d = make_daemon(rules={"size": 4})
    assert d.board.size == 4 and len(d.leds.frame) == 16
    d.post(UserCommand("new binary"))
    step(d, clock)
    assert d.session.game == "binary"
    d.post(ButtonEvent("menu", long=True))
    step(d, clock)
    d.post(ButtonEvent("confirm"))  # start the chosen game again: it still fits
    step(d, clock)
    assert d.status == "" and d.board.size == d.session.spec.layout(d.session.options).files


def test_idle_readings_cover_every_board_kind():
    assert set(IDLE) == {"switch", "presence", "polarity"}


def test_a_refused_secret_move_is_not_told_to_the_table(make_daemon, clock, caplog):
    d = make_daemon(game="hidden")
    assert d.submit("hide left a1", "left").accepted
    refused = d.submit("hide left b2", "left")  # already hidden: refused
    assert not refused.accepted and refused.refusal.reason  # the page gets the reason
    assert "b2" not in d.message and "hide left b2" not in json.dumps(d.web_view(None))
    assert d.message == "LEFT: not accepted, see your page"
    assert not any("b2" in r.getMessage() for r in caplog.records)  # nor the log


def test_the_table_page_marks_every_cell_a_move_names(make_daemon, clock):
    d = make_daemon(game="wythe")
    assert d.submit("d4-d5", "black").accepted
    marked = {c["name"] for c in d.web_view(None)["board"]["cells"] if "last" in c["marks"]}
    assert marked == {"d4", "d5"}
