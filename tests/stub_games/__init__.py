"""Stub games of three shapes the protocol must host (registered only in tests):

- ``party``: no board, 1..7 players (5 by default), a die roll, simultaneous secret picks;
- ``hidden``: two players hide a treasure on a 3x3 board, then take turns to guess;
- ``small``: a 4x3 board (not square) placed on the corner of the 8x8 board.
"""

STUBS = {
    "party": "tests.stub_games.party",
    "hidden": "tests.stub_games.hidden",
    "small": "tests.stub_games.small",
}
