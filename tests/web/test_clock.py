"""The game clock on the pages, in Debian's Chromium: each time is worked out from the view's
``clock.as_of`` and the server's time (from each message's ``now``), never counted down by a
page timer; paused and a fallen flag are shown; the live region speaks of a change of state,
never of a tick.

The server's time here is frozen far from the browser's own (``Hub.wall``), so a page that
used its own clock, or counted from when it got the view, would show other times.
"""

from __future__ import annotations

import pytest

from companion.views.web import WebServer
from tests.web import test_browser as test_web_browser
from tests.web.test_browser import open_live
from tests.web_browser import Browser
from tests.web_fake import FakeBackend, random_moves

tabs = test_web_browser.tabs  # the fixture: tabs closed and no script error after each test

T0 = 1_000_000.0  # the server's time when the clock was last read (1970: not the browser's)


def clock(**kw) -> dict:
    c = {"on": 300.0, "off": 300.0, "running": "on", "paused": False, "free": 0.0,
         "control": "5:00+0", "as_of": T0}  # fmt: skip
    return {**c, **kw}


@pytest.fixture
def timed(tabs):
    backend = FakeBackend()
    backend.clock = clock()
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    assert server.hub is not None
    server.hub.wall = lambda: T0 + 5.0
    yield backend, server
    server.stop()


def shown(browser: Browser, player: str) -> str:
    return browser.js(
        "const c = document.querySelector(`[data-clock='${arguments[0]}']`);"
        "return c ? c.textContent : '';",
        player,
    )


def seconds(text: str) -> float:
    parts = [float(p) for p in text.split(":")]
    return parts[0] * 60 + parts[1] if len(parts) == 2 else parts[0]


def test_the_shown_time_is_the_servers_not_the_pages(browser, timed):
    backend, server = timed
    open_live(browser, server.url + "/")
    # five seconds since as_of on the server's clock: 4:55 (4:54 once the page's own second
    # has passed since), whatever the browser's own time
    browser.wait(lambda: shown(browser, "on") in ("4:55", "4:54"), what="ON's clock at 4:55")
    assert shown(browser, "off") == "5:00"  # not running
    # the server's time goes on a minute: a page opened now shows it at once (the view it is
    # sent was made earlier: the message is stamped again)
    server.hub.wall = lambda: T0 + 65.0
    second = open_live(browser, server.url + "/")
    browser.wait(lambda: shown(browser, "on") in ("3:55", "3:54"), what="3:55 on a new page")
    # and a change sent to every page brings the first one along
    server.hub.wall = lambda: T0 + 125.0
    backend.board_press(next(iter(_legal(backend))))
    browser.to(browser.driver.window_handles[1])
    browser.wait(lambda: shown(browser, "on") in ("2:55", "2:54"), what="2:55 after a change")
    browser.to(second)
    browser.wait(lambda: shown(browser, "on") in ("2:55", "2:54"), what="2:55 on the second")


def _legal(backend: FakeBackend) -> list[str]:
    from tests.web_client import legal_square

    return [legal_square(backend)]


def test_time_since_as_of_counts_and_a_sleeping_page_wakes_up_right(browser, timed):
    _, server = timed
    open_live(browser, server.url + "/")
    first = browser.wait(lambda: shown(browser, "on"), what="ON's clock")
    # the page's own time passing is counted (a tick within a few seconds)
    browser.wait(lambda: shown(browser, "on") != first, timeout=5, what="a tick")
    before = seconds(shown(browser, "on"))
    # a tab asleep for a minute (no timer ran): on waking it shows the time a minute on
    browser.js(
        "const real = Date.now.bind(Date); Date.now = () => real() + 60000;"
        "document.dispatchEvent(new Event('visibilitychange'));"
    )
    after = seconds(shown(browser, "on"))
    assert 58 <= before - after <= 62, (before, after)


def test_paused_under_ten_seconds_and_a_fallen_flag(browser, timed):
    backend, server = timed
    open_live(browser, server.url + "/")
    browser.wait(lambda: shown(browser, "on"), what="ON's clock")
    news = "return document.getElementById('clock-news').textContent;"
    assert browser.js(news) == ""
    backend.set_clock(clock(paused=True, on=123.4))
    browser.wait(lambda: "paused" in browser.text("clock-line"), what="paused")
    assert shown(browser, "on") == "2:04"  # a paused clock does not run
    assert browser.js(news) == "clock paused"
    backend.set_clock(clock(on=14.0))  # 5 s gone on the server: 9.0 and less
    browser.wait(lambda: "." in shown(browser, "on"), what="tenths under 10 s")
    assert seconds(shown(browser, "on")) <= 9.0
    assert browser.js(news) == "ON: under 10 seconds"
    assert "low" in browser.js("return document.querySelector('[data-clock=on]').className;")
    backend.set_clock(clock(on=4.0))  # 5 s gone: the flag is down
    browser.wait(lambda: shown(browser, "on") == "0.0 ⚑", what="the flag")
    assert browser.js(news) == "ON: time is up"
    assert "flag" in browser.js("return document.querySelector('[data-clock=on]').className;")
    assert "time is up" in browser.js(
        "return document.querySelector('[data-clock=on]').getAttribute('aria-label');"
    )


def test_the_flag_stays_down_once_the_server_has_ended_the_game_on_time(browser, timed):
    """After the flag fall the server's clock runs for nobody, the flagged time at 0 (as
    the daemon sends it): the page still shows the flag and says the time is up."""
    backend, server = timed
    open_live(browser, server.url + "/")
    browser.wait(lambda: shown(browser, "on"), what="ON's clock")
    backend.set_clock(clock(on=0.0, off=187.0, running=None))
    browser.wait(lambda: shown(browser, "on") == "0.0 ⚑", what="the flag")
    assert shown(browser, "off") == "3:07"
    assert browser.js("return document.getElementById('clock-news').textContent;") == (
        "ON: time is up"
    )


def test_the_live_region_does_not_speak_every_tick(browser, timed):
    _, server = timed
    open_live(browser, server.url + "/")
    first = browser.wait(lambda: shown(browser, "on"), what="ON's clock")
    browser.js(
        "window.spoken = 0; new MutationObserver(() => window.spoken++).observe("
        "document.getElementById('clock-news'), {childList: true, characterData: true,"
        " subtree: true});"
    )
    browser.wait(lambda: shown(browser, "on") != first, timeout=5, what="a tick")
    assert browser.js("return window.spoken;") == 0


def test_a_view_without_a_clock_shows_none(browser, tabs):
    backend = FakeBackend()
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    try:
        open_live(browser, server.url + "/")
        browser.wait(lambda: browser.js("return !!document.querySelector('.players li');"))
        assert browser.js("return document.querySelectorAll('[data-clock]').length;") == 0
        assert browser.js("return document.getElementById('clock-line').hidden;")
    finally:
        server.stop()


def test_the_replay_viewer_shows_the_clock_after_each_move(browser, timed):
    backend, server = timed
    backend.new_game(random_moves(count=4, seed=3))
    backend.replay_clocks = [
        clock(on=300.0 - 10 * k, off=300.0 - 7 * k, running=("on", "off")[k % 2], as_of=None)
        for k in range(5)
    ]
    open_live(browser, server.url + "/")
    link = f'.game-link[data-game="{backend.game_id}"]'
    browser.wait(lambda: browser.js(f"return !!document.querySelector('{link}')"), what="games")
    browser.js(f"document.querySelector('{link}').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "0", what="the replay viewer")
    assert (shown(browser, "on"), shown(browser, "off")) == ("5:00", "5:00")
    browser.js("document.getElementById('replay-next').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "1", what="position 1")
    browser.js("document.getElementById('replay-next').click();")
    browser.wait(lambda: browser.body_data("replayIndex") == "2", what="position 2")
    assert (shown(browser, "on"), shown(browser, "off")) == ("4:40", "4:46")
    on = "return document.querySelector('[data-clock=on]').className;"
    assert "running" in browser.js(on)  # whose time ran then
    import time

    time.sleep(1.2)  # a replay stands still: the clock as it stood after the move
    assert (shown(browser, "on"), shown(browser, "off")) == ("4:40", "4:46")
    browser.js("document.getElementById('replay-close').click();")
    browser.wait(lambda: shown(browser, "off") == "5:00", what="back to the live clock")


def test_the_servers_time_set_back_shows_the_clock_right_at_the_next_message(browser, timed):
    """NTP at a Pi's boot sets the board's time back an hour while a page is open: the next
    view (its as_of and now on the new time) shows the right time, never 0.0."""
    backend, server = timed
    open_live(browser, server.url + "/")
    browser.wait(lambda: shown(browser, "on") in ("4:55", "4:54"), what="ON's clock at 4:55")
    back = T0 - 3600.0
    server.hub.wall = lambda: back + 5.0
    backend.set_clock(clock(on=250.0, as_of=back))
    browser.wait(lambda: shown(browser, "on") in ("4:05", "4:04"), what="4:05 after the step")
    server.hub.wall = lambda: back + 6.0  # and the next messages keep it so
    backend.set_clock(clock(on=240.0, as_of=back + 1.0))
    browser.wait(lambda: shown(browser, "on") in ("3:55", "3:54"), what="3:55 next")


def test_the_pages_own_time_set_back_keeps_the_clock_counting(browser, timed):
    """The phone's own time set back an hour (no message since): the running clock goes on
    counting down from the monotonic clock, it neither freezes nor jumps."""
    _, server = timed
    open_live(browser, server.url + "/")
    browser.wait(lambda: shown(browser, "on") in ("4:55", "4:54"), what="ON's clock at 4:55")
    browser.js(
        "const real = Date.now.bind(Date); Date.now = () => real() - 3600000;"
        "document.dispatchEvent(new Event('visibilitychange'));"
    )
    assert shown(browser, "on") in ("4:55", "4:54", "4:53")
    first = shown(browser, "on")
    browser.wait(lambda: shown(browser, "on") != first, timeout=5, what="a tick after the step")
