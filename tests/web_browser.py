"""Debian's Chromium driven through Selenium and Debian's chromedriver, for the web tests.

Offline: no driver or browser is downloaded; ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``
come from apt (``.ci/run`` installs them). Also serves the pages on the fake backend to look at
them by hand (the screenshots in docs/screenshots/ are made by tests/web/test_look.py):

    .venv/bin/python -m tests.web_browser --serve 127.0.0.1:8080
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)


def browser_missing() -> str | None:
    """Why the browser cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists() and not shutil.which(Path(path).name):
            return f"{path} is missing: apt-get install chromium chromium-driver"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install '.[dev]'"
    return None


class Browser:
    """One headless Chromium with a fresh profile; ``quit()`` removes the profile."""

    def __init__(self, width: int = 1280, height: int = 900):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="binaryon-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        service = Service(shutil.which("chromedriver") or CHROMEDRIVER)
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(10)

    def emulate(self, width: int, height: int, scale: float = 1.0, mobile: bool = False) -> None:
        """Lay pages out for a viewport of ``width`` x ``height`` CSS pixels (a phone's, say,
        narrower than a headless window can be)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile},
        )

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def new_tab(self, url: str) -> str:
        """Open ``url`` in a new tab; returns its handle."""
        self.driver.switch_to.new_window("tab")
        self.driver.get(url)
        return self.driver.current_window_handle

    def close_extra_tabs(self) -> None:
        """Back to the first tab, the others closed (a test's new_tab()s, after it)."""
        for handle in self.driver.window_handles[1:]:
            self.to(handle)
            self.driver.close()
        self.to(self.driver.window_handles[0])

    def to(self, handle: str) -> None:
        self.driver.switch_to.window(handle)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def cell_classes(self, square: str) -> str:
        """The class list of the board cell for ``square`` ('' if there is none)."""
        return self.js(
            "const c = document.querySelector(`.cell[data-square='${arguments[0]}']`);"
            "return c ? c.className : '';",
            square,
        )

    def text(self, element_id: str) -> str:
        return self.js("const e = document.getElementById(arguments[0]);"
                       "return e ? e.innerText : null;", element_id)  # fmt: skip

    def body_data(self, key: str) -> str | None:
        return self.js("return document.body.dataset[arguments[0]] ?? null;", key)

    def wait(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
        """Poll ``predicate`` until it is truthy; AssertionError naming ``what`` on timeout."""
        end = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what or predicate}")
            time.sleep(0.05)

    def click_square(self, square: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, f'.cell[data-square="{square}"]').click()

    def click_action(self, move: str) -> None:
        """Click the button that makes ``move``, after the choices that lead to it (a nest,
        then a colour: buttons whose ``data-pick`` begins the move)."""
        from selenium.webdriver.common.by import By

        for _ in range(5):
            found = self.driver.find_elements(By.CSS_SELECTOR, f'button.action[data-move="{move}"]')
            if found:
                found[0].click()
                return
            picks = [
                b
                for b in self.driver.find_elements(By.CSS_SELECTOR, "button[data-pick]")
                if move.startswith(b.get_attribute("data-pick") or "\0")
                and b.get_attribute("aria-pressed") != "true"
            ]
            if not picks:
                break
            max(picks, key=lambda b: len(b.get_attribute("data-pick") or "")).click()
        raise AssertionError(f"no button makes {move!r}")

    def page_text(self) -> str:
        return self.js("return document.documentElement.outerHTML + document.body.innerText;")


def serve(listen: str) -> None:
    """Serve the fake backend (a game in progress and a past one) until interrupted."""
    import json

    from companion.views.web import WebServer, invite_json
    from tests.web_fake import FakeBackend, random_moves

    backend = FakeBackend()
    backend.new_game(random_moves(count=30, seed=3))
    backend.new_game(random_moves(count=12, seed=5))
    server = WebServer(backend, listen)
    server.start()
    print(json.dumps(invite_json(server.url, backend.tokens())), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    import sys

    serve(sys.argv[2] if sys.argv[1:2] == ["--serve"] and len(sys.argv) > 2 else "127.0.0.1:8080")
