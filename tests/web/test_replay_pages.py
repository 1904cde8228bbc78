"""The replay viewer in a real browser on a game longer than one page of /api/game: it asks
for the page it steps into, never the whole game at once."""

from __future__ import annotations

import pytest

from companion.views.web import WebServer
from tests.web.test_browser import open_live, tabs  # noqa: F401 (a fixture)
from tests.web_fake import FakeBackend, random_moves

PAGE = 50  # the views table.js asks for at a time


@pytest.fixture
def long_site(tabs):  # noqa: F811
    backend = FakeBackend("binome")
    backend.new_game(random_moves("binome", count=500, seed=1))
    plies = len(backend.moves)  # the game the viewer replays, forced moves included
    backend.new_game()
    asked: list[tuple[int, int]] = []
    real = backend.record

    def record(game_id: int, first: int = 0, count: int = PAGE):
        asked.append((first, count))
        return real(game_id, first, count)

    backend.record = record
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    yield backend, server, asked, plies
    server.stop()


def test_the_replay_viewer_fetches_a_long_game_a_page_at_a_time(browser, long_site):
    backend, server, asked, plies = long_site
    past = backend.game_id - 1
    assert plies > PAGE
    open_live(browser, server.url + "/")
    link = f'.game-link[data-game="{past}"]'
    browser.wait(lambda: browser.js(f"return !!document.querySelector('{link}')"), what="history")
    browser.js(f"document.querySelector('{link}').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "0", what="replay at the start")
    assert browser.text("replay-pos") == f"position 0 of {plies}"
    browser.js("document.getElementById('replay-last').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == str(plies), what="the end")
    assert browser.body_data("ply") == str(plies)
    browser.js("document.getElementById('replay-prev').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == str(plies - 1), what="one back")
    browser.js("document.getElementById('replay-first').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "0", what="the start again")
    assert asked[0] == (0, PAGE) and all(count == PAGE for _, count in asked)
    assert {first for first, _ in asked} == {0, plies - plies % PAGE}  # each page once


class TrimmedBackend(FakeBackend):
    """A live view that lists its recent moves only, as the daemon's does past 200 moves."""

    def public_view(self):
        view = super().public_view()
        return {**view, "moves_total": len(view["moves"]) + 150}


@pytest.fixture
def trimmed_site(tabs):  # noqa: F811
    backend = TrimmedBackend()
    backend.new_game(random_moves(count=4, seed=2))
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    yield backend, server
    server.stop()


def test_the_move_list_says_how_many_moves_came_before_those_it_lists(browser, trimmed_site):
    _, server = trimmed_site
    open_live(browser, server.url + "/")
    browser.wait(lambda: "150 earlier moves" in browser.text("moves"), what="the earlier count")
    assert browser.js("return document.querySelectorAll('#moves .move').length;") == 5
