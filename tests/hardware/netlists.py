"""The generated netlists (hardware/*.net), read for the tests: each net's name and the
(reference, pin) pairs on it."""

from __future__ import annotations

import re
from pathlib import Path


def nets(path: Path) -> dict[str, set[tuple[str, str]]]:
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r'\s*\(net \(code "\d+"\) \(name "/([^"]+)"\)(.*)\)$', line)
        if m:
            out[m.group(1)] = set(re.findall(r'\(ref "([^"]+)"\) \(pin "([^"]+)"\)', m.group(2)))
    return out
