"""The pages on the real daemon, in Debian's Chromium: a click on a player's page goes through
the same interpreter, rules and journal as a press on the board, and shows on the table page
and the board's LEDs; the table page survives a daemon restart; secrets stay on their pages."""

from __future__ import annotations

import json
import urllib.request

from tests.live_daemon import start_daemon
from tests.live_daemon import stop_daemon as stop
from tests.web_browser import Browser


def start(tmp_path, port: int = 0, game: str = "binaryon"):
    return start_daemon(tmp_path, game, port=port)


def live(browser: Browser, url: str) -> str:
    handle = browser.new_tab(url)
    browser.wait(lambda: browser.body_data("conn") == "live", what=f"{url} live")
    return handle


def test_a_click_on_a_player_page_is_a_press_on_the_board(browser, tmp_path):
    daemon, closers = start(tmp_path)
    try:
        url = daemon.web.url
        tokens = daemon.web_backend.tokens()
        table = live(browser, url + "/")
        live(browser, f"{url}/p/{tokens['on']}")
        lit_before = daemon.leds.frame[36]
        browser.click_square("e5")
        browser.to(table)
        browser.wait(lambda: browser.body_data("ply") == "1", what="e5 on the table page")
        assert "e5" in browser.text("moves")
        assert daemon.session.moves == ["e5"]
        assert daemon.leds.frame[36] != lit_before  # the board's LED followed the click
        # a refused click shows its reason on the player's page and changes nothing
        browser.to(browser.driver.window_handles[-1])
        browser.click_square("f5")  # ON clicks on OFF's turn
        browser.wait(lambda: "not your turn" in browser.page_text(), what="the refusal")
        assert daemon.session.moves == ["e5"]
        # the command line gives the same links the OLED's QR codes carry
        from companion.cli.invite import run

        class Args:
            config = None
            journal = str(tmp_path / "j.sqlite")
            json = True

        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert run(Args()) == 0
        links = json.loads(out.getvalue())
        assert links["players"]["on"].endswith("/p/" + tokens["on"])
        port = daemon.web.port
    finally:
        stop(daemon, closers)
    browser.to(table)
    browser.wait(lambda: browser.body_data("conn") == "down", what="the page sees it down")
    daemon, closers = start(tmp_path, port)  # the daemon comes back: same game, same pages
    try:
        browser.wait(lambda: browser.body_data("conn") == "live", timeout=10, what="reconnect")
        assert daemon.web_backend.tokens() == tokens  # players' links still work
        daemon.board.tap(27, clean=True)  # d4 pressed on the board
        browser.wait(lambda: browser.body_data("ply") == "2", what="d4 after the restart")
        assert "d4" in browser.text("moves")
    finally:
        stop(daemon, closers)
        browser.close_extra_tabs()


def test_hidden_treasures_stay_on_their_own_pages(browser, tmp_path, stub_games):
    daemon, closers = start(tmp_path, game="hidden")
    try:
        url = daemon.web.url
        tokens = daemon.web_backend.tokens()
        left = live(browser, f"{url}/p/{tokens['left']}")
        browser.click_action("hide left b2")
        browser.wait(lambda: "your treasure: b2" in browser.page_text(), what="left's treasure")
        right = live(browser, f"{url}/p/{tokens['right']}")
        # (a bare "b2" could be in right's own link: the secret is left's treasure)
        assert "treasure: b2" not in (browser.text("private") or "")
        assert "hide left b2" not in browser.page_text()
        table = live(browser, url + "/")
        assert "hide left b2" not in browser.page_text()
        state = json.load(urllib.request.urlopen(url + "/api/state"))
        assert "hide left b2" not in json.dumps(state)
        del left, right, table
    finally:
        stop(daemon, closers)
        browser.close_extra_tabs()


def test_the_menu_shows_each_pages_qr_code_on_the_oled(tmp_path):
    from companion.core.events import ButtonEvent
    from tests.conftest import wait_until

    daemon, closers = start(tmp_path)
    try:
        daemon.post(ButtonEvent("menu", long=True))
        daemon.wait_idle()
        entries, index = daemon.menu.shown()
        assert entries[-1] == "pages"
        for _ in range(len(entries) - 1 - index):
            daemon.post(ButtonEvent("menu"))
        daemon.post(ButtonEvent("confirm"))
        daemon.wait_idle()
        tokens = daemon.web_backend.tokens()
        assert daemon.screen().qr == ("TABLE", daemon.web.base_url() + "/")
        image = daemon.display.image
        wait_until(lambda: daemon.display.image.getbbox() is not None, what="a QR drawn")
        dark = sum(1 for x in range(64) for y in range(64) if not image.getpixel((x, y)))
        assert 800 < dark < 3000  # a QR code's dark modules, not a blank or a full panel
        daemon.post(ButtonEvent("menu"))
        daemon.wait_idle()
        label, url = daemon.screen().qr
        assert label == "ON" and url.endswith("/p/" + tokens["on"])
        daemon.post(ButtonEvent("undo"))
        daemon.wait_idle()
        assert daemon.screen().qr is None and not daemon.menu.is_open
    finally:
        stop(daemon, closers)
