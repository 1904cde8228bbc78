"""The hub's pages in real Chromium, fed by simulated boards on a real Mosquitto: the live page
of small boards updated over its WebSocket, a board's full table page, the projector view,
hostile names shown as text, axe-core on every page; with ``BINARYON_SCREENSHOTS=1`` the
screenshot of the hub with 8 live boards in docs/screenshots/."""

from __future__ import annotations

import os
import time
from dataclasses import replace

import pytest

from tests import axe
from tests.paths import REPO
from tests.simulated_club_boards import SimBoard, play_game
from tests.web.test_look import screenshot

SHOTS = REPO / "docs" / "screenshots"
HOSTILE = '<img src=x onerror="document.body.dataset.owned=1">'
NAMES = [("Ana", "Bo"), ("Chen", "Dana"), ("Eli", "Fay"), ("Gus", "Hana"), ("Ivo", "Jun"),
         ("Kai", "Lea"), ("Mo", "Nia"), ("Oli", HOSTILE)]  # fmt: skip


FRIENDLY = [*NAMES[:-1], ("Oli", "Pia")]


@pytest.fixture
def club(request, broker, hub):
    """A hub and 8 boards at different points of their games (table-8 has a hostile name,
    unless the test asks for other names)."""
    boards = []
    try:
        for i, (a, b) in enumerate(getattr(request, "param", NAMES)):
            game = play_game(10 + i, {"on": a, "off": b})
            board = SimBoard(broker.url, f"table-{i + 1}", game)
            board.online()
            for step in game.steps[: 6 + 3 * i]:
                board.play(step)
            boards.append(board)
        hub.wait(lambda: len(hub.boards()) == 8, what="8 boards")
        yield hub, boards
    finally:
        for board in boards:
            board.close()


def cards(browser) -> dict[str, dict]:
    return browser.js(
        "const out = {};"
        "for (const c of document.querySelectorAll('.club-card')) out[c.dataset.board] = {"
        " ply: c.dataset.ply, online: c.dataset.online, text: c.innerText,"
        " cells: c.querySelectorAll('.cell').length, hidden: c.hidden};"
        "return out;"
    )


def test_the_live_page_shows_every_board_and_follows_them(browser, club):
    hub, boards = club
    browser.driver.get(hub.url + "/")
    browser.wait(lambda: len(cards(browser)) == 8, what="8 small boards")
    shown = cards(browser)
    first = shown["table-1"]
    assert first["cells"] == 64 and "Ana" in first["text"] and "Bo" in first["text"]
    assert first["ply"] == str(boards[0].game.steps[5].ply)
    assert HOSTILE in shown["table-8"]["text"]  # the name as text, never as markup
    assert browser.js("return document.querySelectorAll('.club-card img').length") == 0
    assert browser.body_data("owned") is None
    step = boards[0].game.steps[6]
    boards[0].play(step)  # live, over the page's WebSocket
    browser.wait(lambda: cards(browser)["table-1"]["ply"] == str(step.ply), what="the move")
    boards[1].offline()
    browser.wait(lambda: cards(browser)["table-2"]["online"] == "no", what="offline")
    assert "offline" in cards(browser)["table-2"]["text"]
    for board in (boards[0], boards[7]):
        board.finish()  # the results list follows, newest first
    browser.wait(lambda: browser.js("return document.querySelectorAll('.result-row').length") == 2,
                 what="two results")  # fmt: skip
    rows = browser.text("results")
    assert boards[0].game.result in rows and "Ana v Bo" in rows and HOSTILE in rows
    assert browser.js("return document.querySelectorAll('#results img').length") == 0
    assert browser.body_data("owned") is None


def test_a_click_opens_the_boards_full_table_page_fed_over_the_broker(browser, club):
    hub, boards = club
    browser.driver.get(hub.url + "/")
    browser.wait(lambda: len(cards(browser)) == 8, what="8 small boards")
    browser.js("document.querySelector('.club-card[data-board=\"table-3\"] .players').click()")
    browser.wait(lambda: browser.driver.current_url.endswith("/board/table-3"), what="the page")
    game = boards[2].game
    last = game.steps[6 + 3 * 2 - 1]
    browser.wait(lambda: browser.body_data("ply") == str(last.ply), what="the view")
    cells = {c["name"]: c for c in last.view["board"]["cells"]}
    for square in ("a1", "d4", "h8"):
        piece = cells[square]["piece"]
        assert (f"piece-{piece}" in browser.cell_classes(square)) == bool(piece)
    assert "Eli" in browser.text("players") and "Fay" in browser.text("players")
    assert browser.body_data("online") == "yes"
    step = game.steps[6 + 3 * 2]
    boards[2].play(step)
    browser.wait(lambda: browser.body_data("ply") == str(step.ply), what="a move, live")


def test_a_boards_clock_ticks_on_its_hub_page_from_the_boards_own_time(browser, club):
    hub, boards = club
    board = boards[4]
    step = board.game.steps[6 + 3 * 4]
    skew = -3600.0  # the board's clock an hour behind the hub's machine: its times still hold
    as_of = time.time() + skew
    running = step.view["to_act"][0]
    waiting = next(p["id"] for p in step.view["players"] if p["id"] != running)
    clock = {running: 95.0, waiting: 120.0, "running": running, "paused": False, "free": 0.0,
             "control": "2:00+0", "as_of": as_of}  # fmt: skip
    board.sent_offset = skew
    board.play(replace(step, view={**step.view, "clock": clock}))
    browser.driver.get(hub.url + "/board/table-5")
    browser.wait(lambda: browser.body_data("ply") == str(step.ply), what="the view")
    shown = browser.wait(
        lambda: browser.js(f"const n = document.querySelector('[data-clock=\"{running}\"]');"
                           "return n ? n.textContent : null;"),
        what="the running clock",
    )  # fmt: skip
    minutes, seconds = shown.split(":")
    assert 85 <= int(minutes) * 60 + int(seconds) <= 95  # not an hour off
    assert "2:00+0" in browser.text("clock-line")


def test_the_projector_tiles_the_boards_and_cycles_them_a_page_at_a_time(browser, club):
    hub, _ = club
    browser.driver.get(hub.url + "/projector")
    browser.wait(lambda: len(cards(browser)) == 8, what="8 boards tiled")
    assert not any(c["hidden"] for c in cards(browser).values())
    browser.driver.get(hub.url + "/projector?cycle=1&per=3")
    browser.wait(lambda: len(cards(browser)) == 8, what="8 boards")
    seen = set()

    def shown_page():
        visible = tuple(sorted(n for n, c in cards(browser).items() if not c["hidden"]))
        seen.add(visible)
        return len(seen) >= 3

    browser.wait(shown_page, timeout=20, what="three pages in turn")
    assert all(len(page) <= 3 for page in seen)


def test_the_page_says_when_the_broker_is_down_and_when_the_hub_is_back_on_it(
    browser, club, broker
):
    hub, boards = club
    browser.driver.get(hub.url + "/")
    browser.wait(lambda: browser.body_data("broker") == "connected", what="connected")
    broker.kill()
    browser.wait(lambda: browser.body_data("broker") == "down", timeout=20, what="down")
    assert "broker down" in browser.text("broker") and "reconnecting" in browser.text("broker")
    broker.start()
    browser.wait(lambda: browser.body_data("broker") == "connected", timeout=30, what="back")
    step = boards[3].game.steps[6 + 3 * 3]
    boards[3].play(step)  # the boards reconnected too: their moves come through again
    browser.wait(lambda: cards(browser)["table-4"]["ply"] == str(step.ply), what="a move")


def test_axe_finds_nothing_serious_on_the_hubs_pages(browser, club, axe_js):
    hub, _ = club
    found = {}
    for page in ("/", "/board/table-1", "/projector"):
        browser.driver.get(hub.url + page)
        browser.wait(lambda: browser.body_data("conn") == "live", what=f"{page} live")
        browser.wait(lambda: browser.js("return document.querySelectorAll('.cell').length") > 0,
                     what="a board drawn")  # fmt: skip
        found[page] = axe.violations(browser.driver, axe_js)
    severe = {page: axe.severe(v) for page, v in found.items() if axe.severe(v)}
    assert severe == {}, severe


@pytest.mark.skipif(
    not os.environ.get("BINARYON_SCREENSHOTS"), reason="BINARYON_SCREENSHOTS=1 writes them"
)
@pytest.mark.parametrize("club", [FRIENDLY], indirect=True)
def test_screenshot_of_the_hub_with_8_live_boards(browser, club):
    hub, boards = club
    last = boards[7]
    for step in last.game.steps[6 + 3 * 7 :]:  # table-8 plays its game to the end
        last.play(step)
    last.finish()
    browser.driver.get(hub.url + "/")
    browser.wait(lambda: len(cards(browser)) == 8, what="8 small boards")
    browser.wait(lambda: all(c["cells"] for c in cards(browser).values()), what="drawn")
    browser.wait(lambda: browser.js("return document.querySelectorAll('.result-row').length"),
                 what="the result")  # fmt: skip
    SHOTS.mkdir(parents=True, exist_ok=True)
    screenshot(browser, SHOTS / "club-hub.png", 1366, 768)
    assert (SHOTS / "club-hub.png").stat().st_size > 5000
