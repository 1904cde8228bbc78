"""Positions, small games and helpers several test modules share."""

import random

from companion.core.squares import parse_square
from companion.games import get_spec
from companion.games.base import Place, places
from companion.games.binaryon.engine import BinaryonState
from companion.referee.session import Session


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


def solo_session(
    journal, bots: int = 2, rng_seed: int = 1, finish: bool = False, **options
) -> Session:
    """A Binøme solo game: the human plays at random (never claiming, with ``decline``),
    the referee plays the rest."""
    decline = options.pop("decline", False)
    rules = {"players": "Solo", "solo": bots, **options}
    s = Session("binome", rules, journal, rng=random.Random(rng_seed))
    rng = random.Random(rng_seed)
    moves = 0
    while not s.state.is_over() and (finish or moves < 6):
        legal = s.state.legal_moves("Solo")
        s.submit(legal[-1] if decline and legal[-1].__class__.__name__ == "Decline"
                 else rng.choice(legal), "Solo")  # fmt: skip
        moves += 1
    return s


def binaryon_tie() -> BinaryonState:
    """The start position with h8 turned white, both players passed: the best numbers tie at
    11111111 and ON wins on the numbers left after cancelling (as in
    tests/games/binaryon/test_engine.py)."""
    spec = get_spec("binaryon")
    start = spec.new()
    white = start.white | 1 << sq("h8")
    return BinaryonState(white, start.rules, "on", None, 2, 40)
