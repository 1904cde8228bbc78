"""The event's page on the hub in real Chromium: standings, rounds and corrections shown (a
hostile player's name as text), the arbiter's form correcting a result with the printed token
only, a result typed with ``binaryon event`` meanwhile shown by itself; axe-core finds nothing
serious."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By

from companion.cli.main import main
from tests import axe

HOSTILE = '<img src=x onerror="document.title=1">'  # a name is at most 40 characters
EVENT = f"""\
name = "March"
game = "binaryon"
rules = {{ size = 4 }}
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", {HOSTILE!r}]
"""


@pytest.fixture
def event_hub(tmp_path, club_hub):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    return club_hub(event), event


def _rows(browser, table: str) -> list[str]:
    return browser.js(
        f"return [...document.querySelectorAll('#{table} tbody tr, #{table} > li')]"
        ".map(r => r.innerText)"
    )


def test_the_event_page_shows_the_event_and_takes_the_arbiters_corrections(browser, event_hub):
    hub, event = event_hub
    assert main(["event", str(event), "result", "r1-t1", "1-0"]) == 0  # beside the hub
    browser.driver.get(hub.url + "/event")
    browser.wait(lambda: len(_rows(browser, "games")) == 2, 10, what="round 1 shown")
    browser.wait(lambda: "1-0" in _rows(browser, "games")[0], 10, what="the typed result")
    assert browser.text("name") == "March"
    standings = _rows(browser, "standings")
    assert standings[0].split("\t")[:3] == ["1", "Ann", "1"]
    assert any(HOSTILE in row for row in standings)  # the name as text, never as markup
    assert browser.js("return document.querySelectorAll('img').length") == 0
    assert browser.js("return document.title") == "March"

    def correct(token: str) -> str:
        for field, value in (("token", token), ("pairing", "r1-t1"), ("result", "0-1"),
                             ("who", "Zoe"), ("why", "misread")):  # fmt: skip
            box = browser.driver.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        browser.driver.find_element(By.CSS_SELECTOR, "#correct button[type=submit]").click()
        return browser.wait(lambda: browser.text("answer"), 10, what="the answer")

    assert "token" in correct("a guess")
    browser.js("document.getElementById('answer').textContent = ''")
    token = re.search(r"the arbiter's token: (\S+)", hub.log.read_text()).group(1)
    assert correct(token) == "r1-t1: 1-0 -> 0-1 by Zoe: misread"
    browser.wait(lambda: len(_rows(browser, "corrections")) == 1, 10, what="the correction")
    assert _rows(browser, "games")[0].endswith("0-1")


def test_axe_finds_nothing_serious_on_the_event_page(browser, event_hub, axe_js):
    hub, _ = event_hub
    browser.driver.get(hub.url + "/event")
    browser.wait(lambda: len(_rows(browser, "standings")) == 4, 10, what="the standings")
    assert axe.severe(axe.violations(browser.driver, axe_js)) == []
