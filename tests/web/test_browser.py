"""The pages in a real browser: Debian's Chromium, headless, through Selenium.

One browser for the module; each test gets its own backend and server and opens its own tabs.
In CI (``CI`` set) a missing browser fails the tests instead of skipping them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.views.web import WebServer
from tests.web_browser import Browser
from tests.web_client import illegal_square, legal_square
from tests.web_fake import SECRET_PREFIX, FakeBackend, random_moves


@pytest.fixture
def tabs(browser):
    """Closes the tabs a test opened, and checks no page had a script error."""
    first = browser.driver.window_handles[0]
    yield browser
    for handle in browser.driver.window_handles:
        if handle != first:
            browser.to(handle)
            browser.driver.close()
    browser.to(first)
    browser.driver.get("about:blank")
    errors = [
        e
        for e in browser.driver.get_log("browser")
        if e.get("source") in ("javascript", "security")
    ]  # script errors and Content-Security-Policy violations
    assert errors == [], errors


@pytest.fixture
def site(tabs):
    """A fresh backend and server."""
    backend = FakeBackend()
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    yield backend, server
    server.stop()


def open_live(browser: Browser, url: str) -> str:
    handle = browser.new_tab(url)
    browser.wait(lambda: browser.body_data("conn") == "live", what=f"{url} live")
    return handle


def on(browser: Browser, handle: str, check: Callable[[], Any], what: str) -> Any:
    browser.to(handle)
    return browser.wait(check, what=what)


def test_a_move_on_a_player_page_appears_on_the_table_page(browser, site):
    backend, server = site
    tokens = backend.tokens()
    table = open_live(browser, server.url + "/")
    off = open_live(browser, f"{server.url}/p/{tokens['off']}")
    player = open_live(browser, f"{server.url}/p/{tokens['on']}")
    assert "Your turn" in browser.text("you")
    square = legal_square(backend)
    browser.click_square(square)
    on(browser, table, lambda: browser.body_data("ply") == "1", "the table page's ply 1")
    assert square in browser.text("moves")
    assert "mark-last" in browser.cell_classes(square)
    piece = next(c["piece"] for c in backend.public_view()["board"]["cells"] if c["name"] == square)
    assert f"piece-{piece}" in browser.cell_classes(square)
    assert backend.calls == [("press", "on", square)]
    on(browser, off, lambda: "Your turn" in browser.text("you"), "OFF's turn on OFF's page")
    on(browser, player, lambda: "Your turn" not in browser.text("you"), "not ON's turn")


def test_a_refused_move_shows_its_reason(browser, site):
    backend, server = site
    table = open_live(browser, server.url + "/")
    open_live(browser, f"{server.url}/p/{backend.tokens()['on']}")
    square = illegal_square(backend)
    reason = backend.states[-1].check(backend.states[-1].parse_move(square)).reason
    browser.click_square(square)
    browser.wait(lambda: browser.body_data("result") == "refused", what="a refusal")
    assert browser.text("result") == f"Refused: {reason}"
    on(browser, table, lambda: reason in (browser.text("message") or ""), "the table's message")
    assert "mark-refused" in browser.cell_classes(square)
    assert browser.body_data("ply") == "0"


def test_a_private_action_button_posts_the_move(browser, site):
    backend, server = site
    open_live(browser, f"{server.url}/p/{backend.tokens()['on']}")
    browser.click_action("reveal")
    browser.wait(lambda: browser.body_data("result") == "refused", what="the answer")
    assert browser.text("result") == "Refused: reveal: only at the end"
    assert ("submit", "on", "reveal") in backend.calls
    browser.js("document.getElementById('share').open = true;")  # the QR code of this page
    browser.wait(lambda: browser.js("return document.getElementById('qr').naturalWidth;") > 100,
                 what="the QR code")  # fmt: skip


def test_no_page_shows_another_players_secret(browser, site):
    backend, server = site
    tokens, secrets = backend.tokens(), dict(backend.secrets)
    backend.board_press(legal_square(backend))
    pages = {
        "table": open_live(browser, server.url + "/"),
        "on": open_live(browser, f"{server.url}/p/{tokens['on']}"),
        "off": open_live(browser, f"{server.url}/p/{tokens['off']}"),
    }
    for name, handle in pages.items():
        browser.to(handle)
        browser.wait(lambda: browser.body_data("ply") == "1", what=f"{name} at ply 1")
        text = browser.page_text()
        for player, secret in secrets.items():
            assert (secret in text) == (player == name), (name, player)
            if player != name:
                assert tokens[player] not in text, (name, player)
        if name == "table":
            assert SECRET_PREFIX not in text


def test_the_table_page_reconnects_after_the_server_restarts(browser, site):
    backend, server = site
    table = open_live(browser, server.url + "/")
    server.stop()
    on(browser, table, lambda: browser.body_data("conn") == "down", "the page to see it down")
    again = WebServer(backend, f"127.0.0.1:{server.port}")
    again.start()
    try:
        browser.wait(lambda: browser.body_data("conn") == "live", timeout=10, what="reconnect")
        square = legal_square(backend)
        backend.board_press(square)
        browser.wait(lambda: browser.body_data("ply") == "1", what="a move after the restart")
        assert square in browser.text("moves")
    finally:
        again.stop()


def test_a_player_page_of_a_finished_game_says_so(browser, site):
    backend, server = site
    open_live(browser, f"{server.url}/p/{backend.tokens()['on']}")
    backend.new_game()
    browser.wait(lambda: browser.body_data("conn") == "gone", what="the page to close")
    assert "not for the game in progress" in browser.text("gone")


def test_an_unknown_player_link_is_a_not_found_page(browser, site):
    _, server = site
    browser.new_tab(f"{server.url}/p/nobody")
    assert "Not found" in browser.driver.title
    assert "scan the code" in browser.js("return document.body.innerText;")


def test_history_and_replay_step_through_a_past_game(browser, site):
    backend, server = site
    moves = random_moves(count=5, seed=4)
    backend.new_game(moves)
    backend.new_game()
    open_live(browser, server.url + "/")
    past = backend.game_id - 1
    browser.wait(
        lambda: browser.js(f"return !!document.querySelector('.game-link[data-game=\"{past}\"]')"),
        what="the history list",
    )
    browser.js(f"document.querySelector('.game-link[data-game=\"{past}\"]').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "0", what="replay at the start")
    assert not browser.js("return document.getElementById('replay-bar').hidden;")
    assert browser.body_data("gameId") == str(past)
    browser.js("document.getElementById('replay-next').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "1", what="one step")
    assert browser.body_data("ply") == "1"
    assert "mark-last" in browser.cell_classes(moves[0])
    browser.js("document.getElementById('replay-last').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == str(len(moves)), what="the end")
    assert browser.text("moves").count(".") >= len(moves)
    browser.js("document.getElementById('replay-close').click();")
    browser.wait(lambda: browser.body_data("gameId") == str(backend.game_id), what="live again")
    assert browser.js("return document.getElementById('replay-bar').hidden;")


class StaticBackend(FakeBackend):
    """Serves a fixed view model: for games the web has never heard of."""

    def __init__(self, view: dict):
        super().__init__()
        self.view = view

    def public_view(self) -> dict:
        return dict(self.view)


def _frame_view(board) -> dict:
    return {
        "game": "latent", "title": "LATENT", "game_id": 9, "ply": 4, "over": False,
        "turn": "b", "to_act": ["a", "b"],
        "players": [{"id": "a", "label": "A", "name": "", "score": "3", "to_move": True},
                    {"id": "b", "label": "B", "name": "", "score": "5", "to_move": True}],
        "board": board, "explanation": ["A: 3 frames", "B: 5 frames"],
        "moves": [{"ply": 1, "player": "a", "name": "c3"}],
        "message": "", "status": "", "actions": [{"move": "pass", "label": "pass"}],
    }  # fmt: skip


def test_any_board_shape_and_no_board_render_without_web_changes(browser, tabs):
    cells = [
        {"name": f"{'abcde'[f]}{r + 1}", "file": f, "rank": r, "piece": "", "text": "",
         "colour": None, "height": 0, "marks": []}
        for r in range(7) for f in range(5)
    ]  # fmt: skip
    cells[0].update(piece="x", height=3, marks=["win", "hint"])
    cells[6].update(text="7", colour="#336699", marks=["differ"])
    cells[34].update(piece="o", marks=["selected"])
    for board, expect_cells in (({"files": 5, "ranks": 7, "cells": cells}, 35), (None, 0)):
        view = _frame_view(board)
        if board is None:  # an ended game: its result shows under the (missing) board
            view.update(over=True, to_act=[], result={"winners": ["b"], "summary": "B wins",
                                                       "reason": "5 frames to 3"})  # fmt: skip
        backend = StaticBackend(view)
        server = WebServer(backend, "127.0.0.1:0")
        server.start()
        try:
            browser.driver.get(server.url + "/")
            browser.wait(lambda: browser.body_data("conn") == "live", what="live")
            assert browser.js("return document.querySelectorAll('.cell').length;") == expect_cells
            assert browser.text("title") == "LATENT"
            assert ("A, B to move" in browser.text("meta")) == (board is not None)
            if board is None:
                assert browser.text("status") == "B wins: 5 frames to 3"
                assert browser.js("return document.getElementById('board').hidden;")
                assert not browser.js("return document.getElementById('no-board').hidden;")
                assert browser.js("return document.body.classList.contains('boardless');")
                continue
            a1, b2, e7 = (browser.cell_classes(s) for s in ("a1", "b2", "e7"))
            assert {"piece-x", "mark-win", "mark-hint"} <= set(a1.split())
            assert {"lit", "mark-differ"} <= set(b2.split())
            assert {"piece-o", "mark-selected"} <= set(e7.split())
            label = browser.js("return document.querySelector(`.cell[data-square='a1']`)"
                               ".getAttribute('aria-label');")  # fmt: skip
            assert label == "a1, black, height 3, winning line, hint"
            assert browser.js("return document.querySelector(`.cell[data-square='b2'] .text`)"
                              ".textContent;") == "7"  # fmt: skip
            assert browser.js("return document.querySelector(`.cell[data-square='a1'] .height`)"
                              ".textContent;") == "3"  # fmt: skip
            assert browser.js("return document.querySelectorAll('.rank-label').length;") == 7
            top_left = browser.js("return document.querySelector('.cell').dataset.square;")
            assert top_left == "a7"  # rank 7 at the top
        finally:
            server.stop()


def _private_text(browser: Browser) -> str:
    return browser.text("private") or ""


def test_a_hidden_information_game_keeps_each_secret_on_its_own_page(browser, tabs, stub_games):
    backend = FakeBackend("hidden", names={"left": "Lea", "right": "Rui"})
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    tokens = backend.tokens()
    try:
        table = open_live(browser, server.url + "/")
        assert "LEFT, RIGHT to move" in browser.text("meta")
        right = open_live(browser, f"{server.url}/p/{tokens['right']}")
        left = open_live(browser, f"{server.url}/p/{tokens['left']}")
        browser.click_action("hide left b2")
        browser.wait(lambda: "your treasure: b2" in _private_text(browser), what="left's treasure")
        on(browser, right, lambda: browser.body_data("ply") == "1", "right sees a move")
        assert "treasure" not in _private_text(browser)
        assert "hide left" in browser.text("moves") and "hide left b2" not in browser.text("moves")
        browser.click_action("hide right c3")
        browser.wait(lambda: "your treasure: c3" in _private_text(browser), what="right's treasure")
        on(browser, table, lambda: browser.body_data("ply") == "2", "the table at ply 2")
        assert "treasure" not in browser.page_text()
        assert browser.text("moves").split() == ["1.", "LEFT", "hide", "left", "2.", "RIGHT",
                                                 "hide", "right"]  # fmt: skip
        browser.to(left)
        browser.wait(lambda: "Your turn" in browser.text("you"), what="left to press")
        # right's treasure is on no page of left's (a bare "c3" could be in left's own link)
        assert "treasure: c3" not in _private_text(browser)
        assert "hide right c3" not in browser.page_text()
        browser.click_square("a1")
        on(browser, table, lambda: "piece-o" in browser.cell_classes("a1"), "a1 pressed")
        assert browser.js("return document.querySelectorAll('.cell').length;") == 9
    finally:
        server.stop()


@pytest.mark.parametrize("game, cells, players", [("party", 0, 5), ("small", 12, 2)])
def test_stub_games_of_other_shapes_render(browser, tabs, stub_games, game, cells, players):
    backend = FakeBackend(game, names={})
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    try:
        browser.driver.get(server.url + "/")
        browser.wait(lambda: browser.body_data("conn") == "live", what="live")
        assert browser.js("return document.querySelectorAll('.cell').length;") == cells
        assert browser.js("return document.querySelectorAll('#players li').length;") == players
        assert browser.js("return document.body.classList.contains('boardless');") == (cells == 0)
    finally:
        server.stop()
