"""Stub games of three shapes the protocol must host (registered only in tests):

- ``party``: no board, 1..7 players (5 by default), a die roll, simultaneous secret picks;
- ``hidden``: two players hide a treasure on a 3x3 board, then take turns to guess;
- ``small``: a 4x3 board (not square) placed on the corner of the 8x8 board.
"""

from collections.abc import Iterator
from contextlib import contextmanager

STUBS = {
    "party": "tests.stub_games.party",
    "hidden": "tests.stub_games.hidden",
    "small": "tests.stub_games.small",
}


@contextmanager
def stubs_registered() -> Iterator[None]:
    """The stub games in the game registry while the block runs."""
    from companion.games import register, unregister

    for name, module in STUBS.items():
        register(name, module)
    try:
        yield
    finally:
        for name in STUBS:
            unregister(name)
