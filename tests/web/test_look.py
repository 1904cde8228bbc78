"""How the pages look and read, for every game, on the real daemon in Debian's Chromium:
axe-core finds no serious or critical violation on the table page, a player's page and the
replay viewer (each with a game clock); the pages work by keyboard; and, with
``BINARYON_SCREENSHOTS=1``, every game's table and player pages are photographed at 390 and
1366 px into docs/screenshots/."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from tests import axe
from tests.paths import REPO
from tests.web.test_games import Site

GAMES: dict[str, tuple[dict, int]] = {  # game -> (rules, moves played before looking)
    "binaryon": ({}, 9),
    "binary": ({"size": 6}, 9),
    "wythe": ({"size": 6, "pie": True}, 7),
    "binome": ({"players": "Ann,Bob,Cy"}, 12),
    "latent-binaries": ({}, 10),
}
CLOCK = "5:00+3"  # every page is looked at with a game clock on it
SHOTS = REPO / "docs" / "screenshots"
WIDTHS = {"phone": (390, 844), "desktop": (1366, 768)}


def advance(site: Site, count: int, seed: int = 1) -> None:
    """Play ``count`` moves on the daemon (humans' moves, as a page or the board would send
    them; the referee plays the forced ones), each picked at random among the legal."""
    rng = random.Random(seed)
    for _ in range(count):
        state = site.state()
        if state.is_over():
            return
        player = sorted(state.to_act)[0]
        actions = [m for m, _ in site.spec.view(state, player).actions]
        names = actions or [m.name for m in state.legal_moves(player)]
        names = [n for n in names if n != "swap"] or names
        site.submit(rng.choice(names), player)


def mover(site: Site) -> str:
    """The seat of a player who acts now (their page has something to do)."""
    state = site.state()
    return state.seat_of(sorted(state.to_act)[0])


def start(browser, tmp_path, game: str) -> tuple[Site, str]:
    rules, moves = GAMES[game]
    site = Site(browser, tmp_path, game, rules, clock=CLOCK)
    advance(site, moves)
    who = mover(site)
    site.open([who])
    return site, who


def open_replay(site: Site) -> None:
    """The table page's replay viewer on the game in progress (it is in the history too)."""
    b = site.browser
    site.show(None)
    link = f'.game-link[data-game="{site.daemon.session.game_id}"]'
    b.wait(lambda: b.js(f"return !!document.querySelector('{link}')"), what="the history")
    b.js(f"document.querySelector('{link}').click();")
    b.wait(lambda: b.body_data("replayIndex") == "0", what="the replay viewer")


@pytest.mark.parametrize("game", list(GAMES))
def test_axe_finds_nothing_serious_on_any_page(browser, tmp_path, axe_js, game):
    site, who = start(browser, tmp_path, game)
    try:
        found = {}
        site.show(None)
        players = len(site.state().players)
        clocks = "return document.querySelectorAll('[data-clock]').length;"
        browser.wait(lambda: browser.js(clocks) == players, what="every player's clock")
        found["table"] = axe.violations(browser.driver, axe_js)
        site.show(who)
        found[f"{who}'s page"] = axe.violations(browser.driver, axe_js)
        open_replay(site)
        found["replay"] = axe.violations(browser.driver, axe_js)
        severe = {page: axe.severe(v) for page, v in found.items() if axe.severe(v)}
        assert severe == {}, severe
    finally:
        site.close()


def screenshot(browser, path: Path, width: int, height: int) -> None:
    """The whole page laid out at ``width`` x ``height`` CSS px (the rest captured below the
    viewport: the board is sized by the window's height), as a small PNG."""
    import base64

    from PIL import Image

    browser.emulate(width, height)
    browser.js("for (const l of document.querySelectorAll('.moves')) l.scrollTop = l.scrollHeight;")
    full = min(int(browser.js("return document.documentElement.scrollHeight;")), 3000)
    shot = browser.driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": max(full, height), "scale": 1},
        },
    )
    browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
    image = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    image.save(path, optimize=True)


@pytest.mark.skipif(
    not os.environ.get("BINARYON_SCREENSHOTS"), reason="BINARYON_SCREENSHOTS=1 writes them"
)
@pytest.mark.parametrize("game", list(GAMES))
def test_screenshots_of_every_page(browser, tmp_path, game):
    site, who = start(browser, tmp_path, game)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for page in (None, who):
            site.show(page)
            for size, (w, h) in WIDTHS.items():
                name = f"{game}-{'table' if page is None else 'player'}-{size}.png"
                screenshot(browser, SHOTS / name, w, h)
                assert (SHOTS / name).stat().st_size > 5000
    finally:
        site.close()


# ------------------------------------------------------------------------------ keyboard


def keys(browser, *presses: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(browser.driver)
    for k in presses:
        chain.send_keys(k)
    chain.perform()


def active(browser) -> dict:
    return browser.js(
        "const a = document.activeElement;"
        "return {tag: a.tagName, id: a.id, square: a.dataset.square || '',"
        " pick: a.dataset.pick || '', move: a.dataset.move || '', game: a.dataset.game || ''};"
    )


def tab_to(browser, wanted, limit: int = 200) -> list[dict]:
    """Press Tab until ``wanted(active element)``; the elements passed on the way."""
    from selenium.webdriver.common.keys import Keys

    seen = []
    for _ in range(limit):
        keys(browser, Keys.TAB)
        seen.append(active(browser))
        if wanted(seen[-1]):
            return seen
    raise AssertionError(f"Tab never reached it; passed {seen[:12]}...")


def test_a_player_moves_and_the_table_replays_by_keyboard(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    site = Site(browser, tmp_path, "binaryon", {})
    try:
        site.open(["on"])
        state = site.state()
        square = state.legal_moves()[0].name
        site.show("on")
        browser.js("document.activeElement.blur(); window.focus();")
        passed = tab_to(browser, lambda a: a["square"] == square)
        assert {a["square"] for a in passed if a["square"]} >= {"a8", "h8"}  # the board in order
        keys(browser, Keys.ENTER)
        browser.wait(lambda: site.state().ply == 1, what="Enter on a square plays it")
        site.show("on")
        tab_to(browser, lambda a: a["tag"] == "SUMMARY")
        keys(browser, " ")
        browser.wait(lambda: browser.js("return document.getElementById('share').open;"),
                     what="Space opens the QR code")  # fmt: skip

        site.show(None)
        game = str(site.daemon.session.game_id)
        passed = tab_to(browser, lambda a: a["game"] == game)
        assert "moves" in {a["id"] for a in passed}  # the scrolling move list is reachable
        keys(browser, Keys.ENTER)
        browser.wait(lambda: browser.body_data("replayIndex") == "0", what="Enter: the replay")
        tab_to(browser, lambda a: a["id"] == "replay-next")
        keys(browser, " ")
        browser.wait(lambda: browser.body_data("replayIndex") == "1", what="Space: a step")
        keys(browser, Keys.ARROW_LEFT)
        browser.wait(lambda: browser.body_data("replayIndex") == "0", what="←: a step back")
        keys(browser, Keys.ESCAPE)
        browser.wait(lambda: browser.js("return document.getElementById('replay-bar').hidden;"),
                     what="Esc: back to live")  # fmt: skip
    finally:
        site.close()


def visible_buttons(browser, selector: str) -> list[str]:
    return browser.js(
        "return [...document.querySelectorAll(arguments[0])].filter((b) => b.offsetParent)"
        ".map((b) => b.dataset.move || b.dataset.pick);",
        selector,
    )


def test_a_nest_is_set_up_with_three_choices_by_keyboard(browser, tmp_path):
    """Latent Binaries' setup: a nest, then its top colour, then the one under it, each
    a few buttons (not 36 at once), chosen with Enter and Space."""
    from selenium.webdriver.common.keys import Keys

    site = Site(browser, tmp_path, "latent-binaries", {})
    try:
        site.open(["rainbow"])
        site.show("rainbow")
        assert visible_buttons(browser, "#private-actions button") == []
        assert visible_buttons(browser, "button[data-pick]") == ["setup b2", "setup c2", "setup d2"]
        browser.js("document.activeElement.blur();")
        tab_to(browser, lambda a: a["pick"] == "setup c2")
        keys(browser, Keys.ENTER)
        tops = visible_buttons(browser, "button[data-pick^='setup c2 ']")
        assert tops == [f"setup c2 {c}/" for c in ("red", "yellow", "green", "blue")]
        assert active(browser)["pick"] == "setup c2 red/"  # the focus went on to the colours
        tab_to(browser, lambda a: a["pick"] == "setup c2 green/")
        keys(browser, " ")
        unders = visible_buttons(browser, "#private-picks button.action")
        assert unders == [f"setup c2 green/{c}" for c in ("red", "yellow", "blue")]
        assert len(visible_buttons(browser, "#private button, #private-picks button")) == 10
        tab_to(browser, lambda a: a["move"] == "setup c2 green/blue")
        keys(browser, Keys.ENTER)
        browser.wait(lambda: site.state().ply == 1, what="the setup played")
        assert site.played()[-1].name == "setup c2 green/blue"
        site.show("rainbow")
        assert "setup c2" not in visible_buttons(browser, "button[data-pick]")
    finally:
        site.close()


def test_binome_writing_is_a_tap_on_the_sheet(browser, tmp_path):
    site = Site(browser, tmp_path, "binome", {"players": "Ann,Bob"})
    try:
        site.open(["Ann"])
        site.show("Ann")
        digits = visible_buttons(browser, "#private li button.sheet-digit")
        assert digits == [f"Ann write {n}{h}" for n in range(1, 9) for h in "ab"]
        assert visible_buttons(browser, "#private-actions button") == []
        rows = browser.js("return [...document.querySelectorAll('#private li')]"
                          ".map((li) => li.textContent);")  # fmt: skip
        assert rows[:8] == [f"your number {n}: ??" for n in range(1, 9)]
        site.click_action("Ann", "Ann write 3b")
        site.show("Ann")
        digit = site.state().numbers("Ann")[2][1]
        rows = browser.js("return [...document.querySelectorAll('#private li')]"
                          ".map((li) => li.textContent);")  # fmt: skip
        assert rows[2] == f"your number 3: ?{digit}"
    finally:
        site.close()


# ---------------------------------------------------------------------------- the words


def test_hidden_pawn_labels_fit_their_cells_at_320_px(browser, tmp_path):
    site = Site(browser, tmp_path, "latent-binaries", {})
    try:
        advance(site, 6)  # both players' three nests set up
        site.open(["xeno"])
        site.show("xeno")
        browser.emulate(320, 640)
        texts = browser.js(
            "return [...document.querySelectorAll('#board .cell .text')].map((t) => {"
            " const c = t.closest('.cell').getBoundingClientRect(), r = t.getBoundingClientRect();"
            " return [t.textContent, t.scrollWidth - t.clientWidth, r.left - c.left,"
            "         c.right - r.right, t.scrollHeight - t.clientHeight]; });"
        )
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        assert len(texts) >= 3 and any("/" in t[0] for t in texts)
        clipped = [t for t in texts if t[1] > 1 or t[2] < -1 or t[3] < -1 or t[4] > 1]
        assert clipped == []
    finally:
        site.close()


def test_a_result_is_news_said_once_and_a_refusal_a_warning(browser, tmp_path):
    site = Site(browser, tmp_path, "wythe", {"size": 4, "pie": False})
    try:
        site.open(["black"])
        site.show("black")
        browser.click_square("a1")
        browser.wait(lambda: "mark-selected" in browser.cell_classes("a1"), what="a1 selected")
        browser.click_square("d4")  # not next to a1
        browser.wait(lambda: browser.body_data("result") == "refused", what="the refusal")
        assert browser.text("result") == "Refused: d4: not next to a1"
        browser.wait(lambda: "mark-refused" in browser.cell_classes("d4"), what="d4 refused")
        assert browser.js("return document.getElementById('message').hidden;")  # said once
        site.show(None)
        browser.wait(lambda: browser.text("message"), what="the refusal on the table")
        assert browser.text("message") == "✕ d4: not next to a1"  # a sign, not only red
        kind = browser.js("return document.getElementById('message').className;")
        assert "message-refused" in kind
        advance(site, 400)
        assert site.state().is_over()
        site.show(None)
        summary = site.state().outcome().summary.lower()
        shown = browser.js("return document.querySelector('.board-area').innerText + "
                           "document.getElementById('explanation').innerText;").lower()  # fmt: skip
        assert shown.count(summary) == 1, shown
        assert "⚠" not in browser.js("return document.body.innerText;")
        assert "status-result" in browser.js("return document.getElementById('status').className;")
        meta = browser.text("meta")
        assert "ply" not in meta and "game over" in meta
    finally:
        site.close()


@pytest.mark.skipif(
    not os.environ.get("BINARYON_SCREENSHOTS"), reason="BINARYON_SCREENSHOTS=1 writes them"
)
def test_screenshot_of_a_nest_being_set_up(browser, tmp_path):
    site = Site(browser, tmp_path, "latent-binaries", {})
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        site.open(["rainbow"])
        site.show("rainbow")
        browser.js("document.querySelector('[data-pick=\"setup c2\"]').click();")
        browser.js("document.querySelector('[data-pick=\"setup c2 green/\"]').click();")
        screenshot(browser, SHOTS / "latent-binaries-setup-phone.png", *WIDTHS["phone"])
    finally:
        site.close()
