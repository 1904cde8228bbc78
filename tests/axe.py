"""axe-core (the npm package, pinned) for the accessibility tests: fetched once from the npm
registry with Python's urllib (CI has no node), checked against the registry's sha512
integrity, kept in a cache directory and run inside the page under test.

The cache is ``$BINARYON_TEST_CACHE`` or ``$XDG_CACHE_HOME/binaryon-tests`` (``~/.cache/...``).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.request
from pathlib import Path
from typing import Any

VERSION = "4.11.0"
URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
# `npm view axe-core@4.11.0 dist.integrity`
INTEGRITY = (
    "sha512-ilYanEU8vxxBexpJd8cWM4ElSQq4QctCLKih0TSfjIfCQTe"
    "yH/6zVrmIJfLPrKTKJRbiG+cfnZbQIjAlJmF1jQ=="
)
SCRIPT = "package/axe.min.js"
SEVERE = ("serious", "critical")


class Offline(Exception):
    """The registry could not be reached (the tests skip with this one line)."""


def cache_dir() -> Path:
    own = os.environ.get("BINARYON_TEST_CACHE")
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "binaryon-tests"


def integrity_of(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def tarball(timeout: float = 30.0) -> bytes:
    """The pinned tarball, from the cache or the registry; ValueError if it is not the one
    the registry vouches for, Offline if it cannot be fetched."""
    path = cache_dir() / f"axe-core-{VERSION}.tgz"
    if path.exists():
        data = path.read_bytes()
        if integrity_of(data) == INTEGRITY:
            return data
        path.unlink()  # a damaged or partial download: fetch it again
    try:
        with urllib.request.urlopen(URL, timeout=timeout) as answer:
            data = answer.read()
    except OSError as e:
        raise Offline(f"axe-core {VERSION} could not be fetched from the npm registry: {e}") from e
    if integrity_of(data) != INTEGRITY:
        raise ValueError(f"{URL}: integrity {integrity_of(data)} is not {INTEGRITY}")
    try:  # kept for the next run; a cache that cannot be written only costs a fetch
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(path)
    except OSError:
        pass
    return data


def source() -> str:
    """axe.min.js from the pinned tarball."""
    with tarfile.open(fileobj=io.BytesIO(tarball()), mode="r:gz") as tar:
        member = tar.extractfile(SCRIPT)
        if member is None:
            raise ValueError(f"{URL} has no {SCRIPT}")
        return member.read().decode("utf-8")


RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + ": " + (n.failureSummary || "")
      .split("\\n").slice(1).join("; ")).slice(0, 5)}))),
  (e) => done([{id: "axe-error", impact: "critical", help: String(e), nodes: []}]));
"""


def violations(driver: Any, axe_js: str) -> list[dict]:
    """axe's violations on the page the driver shows (injected first when it is not there)."""
    if not driver.execute_script("return typeof window.axe === 'object';"):
        driver.execute_script(axe_js)  # it sets window.axe
    driver.set_script_timeout(60)
    return driver.execute_async_script(RUN)


def severe(found: list[dict]) -> list[dict]:
    return [v for v in found if v.get("impact") in SEVERE]
