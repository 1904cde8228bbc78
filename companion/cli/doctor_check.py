"""One line of ``binaryon doctor``'s report: what was checked, its status, what was seen and
how to fix it. Its own module so that the checks kept beside doctor.py (the club's, the
voice's) import it without importing doctor.py, which loads them."""

from __future__ import annotations

from dataclasses import dataclass

OK, MISSING, INFO, SKIP = "ok", "missing", "info", "skip"


@dataclass
class Check:
    name: str
    status: str  # ok | missing | info | skip
    detail: str
    fix: str = ""
