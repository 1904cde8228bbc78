"""The 6x6 solve from the start (about 30 s of CPU and 400 MB here): not run by default.

    BINARYON_SOLVE_6X6=1 .venv/bin/python -m pytest tests/engines/test_solve_6x6.py

Also run by hand: ``binaryon solve --game binaryon --size 6 --json`` (docs/solving.md).
"""

from __future__ import annotations

import os

import pytest

from companion.engines.solve import solve
from companion.games import get_spec
from companion.games.binaryon.adapter import BinaryonAdapter

new_game = get_spec("binaryon").new

A = BinaryonAdapter()

pytestmark = pytest.mark.skipif(
    os.environ.get("BINARYON_SOLVE_6X6") != "1", reason="long: set BINARYON_SOLVE_6X6=1"
)


def test_6x6_is_a_second_player_win_and_the_line_ends_in_it():
    s = new_game(size=6)
    sol = solve(A, s)
    assert sol.value == -1
    for move in sol.line:
        s = A.play(s, move)
    assert A.is_over(s)
    assert A.winner(s) == "off"
