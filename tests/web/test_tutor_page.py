"""The tutor per player on their page (docs/review.md, "The tutor during play"): a switch on a
seat's page turns it on for that seat alone, through ``/api/tutor``; refused in one line with
a remote opponent, in a club event's game and for a game no engine judges. On the solved 4x4
Binaryon board, after a3 a1, ON's a4 is a blunder (d4 holds the draw), and after a3 a1 c3,
OFF's b2 is one (d2 holds it): tests/engines/test_tutor.py holds both to the solution."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.club.board_pairings import GAME_PAIRING
from companion.core.config import Config
from companion.engines.tutor import REFUSAL, cautions
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from companion.service.tutor import HELD
from companion.service.web_backend import DaemonWebBackend
from tests import axe
from tests.conftest import wait_until
from tests.web.test_games import Site

ON_BLUNDER = "a4: a blunder; better d4: holds a draw"


def api(site: Site, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(site.url + path, data=data, method="POST" if body else "GET")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def judged(site: Site) -> None:
    """Wait until the tutor has judged the position on the board for the seat to move."""
    d = site.daemon
    wait_until(
        lambda: d.call(lambda: d.tutor.judged is d.session.state, render=False),
        what="the tutor's judgement",
    )


def test_the_switch_turns_the_tutor_on_for_its_seat_alone(tmp_path):
    site = Site(None, tmp_path, "binaryon", {"size": 4})  # no browser: the page's API
    try:
        tokens = site.daemon.web_backend.tokens()
        on, off = tokens["on"], tokens["off"]
        assert api(site, "/api/me", on)[1]["tutor"] == {"on": False}
        status, body = api(site, "/api/tutor", on, {"tutor": "maybe"})
        assert status == 409 and body["reason"] == "maybe: on or off"
        status, body = api(site, "/api/tutor", on, {"tutor": "on"})
        assert (status, body) == (200, {"ok": True, "tutor": True})
        assert api(site, "/api/me", on)[1]["tutor"] == {"on": True}
        assert api(site, "/api/me", off)[1]["tutor"] == {"on": False}
        for token, move in ((on, "a3"), (off, "a1")):
            assert api(site, "/api/move", token, {"move": move})[0] == 200
        judged(site)
        status, body = api(site, "/api/move", on, {"move": "a4"})
        assert status == 409 and body["code"] == HELD and body["confirm"] == "a4"
        assert body["reason"] == f"{ON_BLUNDER}; again: play it"
        assert api(site, "/api/move", on, {"move": "c3"})[0] == 200  # another: played
        state = site.state()
        assert state.turn == "off" and any(m.name == "b2" for m in cautions(state))
        assert api(site, "/api/move", off, {"move": "b2"})[0] == 200  # OFF's: not held
        assert [p.name for p in site.played()] == ["a3", "a1", "c3", "b2"]
        assert api(site, "/api/tutor", on, {"tutor": "off"})[0] == 200
        assert api(site, "/api/me", on)[1]["tutor"] == {"on": False}
    finally:
        site.daemon.stop()
        for close in site.closers:
            close()


def test_off_for_one_seat_when_tutor_is_on_for_all(clock):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "tutor": True}, rules={"binaryon": {"size": 4}}
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    assert d.web_view("on")["tutor"] == d.web_view("off")["tutor"] == {"on": True}
    assert d.call(lambda: d.tutor_switch("off", False)) is None
    assert d.web_view("on")["tutor"] == {"on": True}
    assert d.web_view("off")["tutor"] == {"on": False}


def backend_of(daemon: Daemon) -> DaemonWebBackend:
    return DaemonWebBackend(daemon)


def test_refused_in_one_line_with_a_remote_opponent(clock, tmp_path):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "opponent": "remote:t2"},
        rules={"binaryon": {"size": 4}},
        club={"board": "t1", "broker": "mqtt://127.0.0.1:1"},  # never connected here
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    answer = backend_of(d).tutor("on", "on")
    assert answer == {"ok": False, "code": "no-tutor", "reason": REFUSAL}
    assert d.web_view("on")["tutor"] == {"on": False}


def test_refused_in_one_line_in_a_club_events_game(clock, tmp_path):
    cfg = Config.default().with_overrides(
        game={"name": "binaryon"}, rules={"binaryon": {"size": 4}}
    )
    journal = SqliteJournal.open(tmp_path / "j.db")
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock, journal=journal)
    about = json.dumps({"pairing": "p1", "event": "e", "round": 1})

    def paired():  # as the board's pairings start a game: new game, then its pairing kept
        d.new_game("binaryon", players={"on": "Ann", "off": "Bob"})
        d.journal.set_meta({f"{GAME_PAIRING}{d.session.game_id}": about})

    d.call(paired)
    answer = backend_of(d).tutor("on", "on")
    assert answer == {"ok": False, "code": "no-tutor", "reason": REFUSAL}
    assert d.web_view("on")["tutor"] == {"on": False}


def test_no_switch_for_a_game_no_engine_judges(clock):
    cfg = Config.default().with_overrides(game={"name": "binome"}, rules={"binome": {}})
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    seat = d.session.state.players[0]
    assert d.web_view(seat)["tutor"] is None
    answer = backend_of(d).tutor(seat, "on")
    assert answer["reason"] == "no tutor for Binøme: no engine judges its moves"


def test_the_switch_on_the_page_in_chromium(browser, tmp_path):
    try:
        axe_js = axe.source()
    except axe.Offline as e:
        pytest.skip(str(e))
    site = Site(browser, tmp_path, "binaryon", {"size": 4})
    b = browser
    try:
        site.open(["on", "off"])
        b.to(site.pages["on"])
        b.wait(lambda: b.body_data("tutor") == "off", what="the tutor switch")
        assert not b.js("return document.getElementById('tutor').hidden;")
        b.js("document.getElementById('tutor-on').click();")
        b.wait(lambda: b.body_data("tutor") == "on", what="the tutor on")
        assert b.js("return document.getElementById('tutor-on').checked;")
        severe = axe.severe(axe.violations(b.driver, axe_js))
        assert severe == [], severe
        if os.environ.get("BINARYON_SCREENSHOTS"):
            from tests.web.test_look import screenshot

            path = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "tutor-phone.png"
            screenshot(b, path, 390, 844)
            assert path.stat().st_size > 5000
        b.to(site.pages["off"])
        b.wait(lambda: b.body_data("tutor") == "off", what="OFF's switch")
        site.submit("a3", "on")
        site.submit("a1", "off")
        judged(site)
        site.show("on")
        b.click_square("a4")
        b.wait(lambda: ON_BLUNDER in b.text("result"), what="the warning on ON's page")
        assert [p.name for p in site.played()] == ["a3", "a1"]
        b.wait(
            lambda: b.js("return !!document.querySelector('[data-move=\"a4\"]');"),
            what="play it anyway",
        )
        b.click_action("a4")
        b.wait(lambda: len(site.played()) == 3, what="a4 played anyway")
        b.js("document.getElementById('tutor-on').click();")
        b.wait(lambda: b.body_data("tutor") == "off", what="the tutor off")
    finally:
        site.close()
