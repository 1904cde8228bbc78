"""Positions and small helpers several test modules share."""

from companion.core.squares import parse_square
from companion.games.base import Place, places


def sq(name: str, n: int = 8) -> int:
    return parse_square(name, n)


def mv(name: str, n: int = 8) -> Place:
    """The move on the square ``name`` (Binaryon, Binary)."""
    return places(n)[parse_square(name, n)]


def cells_of(moves) -> list[int]:
    """The cells of ``moves``, in order (a pass or an end has none)."""
    return [c for m in moves for c in m.cells]


def play(state, moves: str):
    """``state`` after the moves named in ``moves`` (space-separated notation)."""
    for word in moves.split():
        state = state.play(state.parse_move(word))
    return state


# Fig. 1 of the Binaryon rules sheet, as posted (rank labels after the rows, file letters below).
BINARYON_START = """\
| x | x | x | x | x | x | x | x | 8
| x | x | x | x | x | x | x | x | 7
| x | x | x | x | x | x | x | x | 6
| x | x | x | x | x | x | x | x | 5
| o | o | o | o | o | o | o | o | 4
| o | o | o | o | o | o | o | o | 3
| o | o | o | o | o | o | o | o | 2
| o | o | o | o | o | o | o | o | 1

a b c d e f g h
"""

# Binary: a position realising the source's Fig. 3 result, Black 22+3+2 = 49 against
# White 15+5+4+3 = 42 (worked out square by square in test_binary_score.py).
BINARY_FIG3 = """
x . . . x o . x
o . . . . . . x
o o . x x . x .
. x . x x . . x
. o . . x o o .
o . o o . . . .
. o . o . . o .
o o x . x . . x
"""


def hint_of(spec, state, step):
    """A game's hint as (cells, text)."""
    h = spec.hint(state, step)
    return h.cells, h.text
