"""Binary on bitboards, for the search (``adapter.py``): the same rules as ``BinaryState``
(turns, the centre space, the free second piece, passes, the end) on two integers, about ten
times faster.

A ``Position`` is an immutable tuple-like record; moves are the same as the rules engine's
(``Place``, ``END``, ``PASS``), so a move found here is played on a ``BinaryState`` as is.
The tests play random games through both and check they agree move by move.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.core.squares import squares_of
from companion.games.base import Place, places
from companion.games.binary.bits import board_bits, masks, territories
from companion.games.binary.board import BLACK, PLAYERS, WHITE
from companion.games.binary.engine import END, PASS, BinaryMove, BinaryState


class Position(NamedTuple):
    """``mover`` is 0 (Black), 1 (White) or -1 once the game is over; ``second`` is True after
    a first own-colour piece when a second may follow (or END)."""

    n: int
    black: int
    white: int
    hands: tuple[int, int]
    mover: int
    second: bool = False
    opening: bool = False
    empty_joins: bool = True
    stuck_ends: bool = False  # option stuck='end'

    players = PLAYERS

    @classmethod
    def of(cls, state: BinaryState) -> Position:
        black, white, _ = board_bits(state.cells)
        mover = -1 if state.mover is None else PLAYERS.index(state.mover)
        return cls(
            state.n, black, white, state.hands, mover, bool(state.placed), state.opening,
            state.empty_joins, state.stuck == "end",
        )  # fmt: skip

    def is_over(self) -> bool:
        return self.mover < 0

    def _first_squares(self, p: int) -> int:
        """Empty squares where ``p`` may put the first piece of a turn."""
        m = masks(self.n)
        empty = m.full & ~(self.black | self.white)
        if self.hands[p] < 2:
            empty &= ~(m.centre & m.own[1 - p])
        return empty

    def _second_squares(self, p: int) -> int:
        m = masks(self.n)
        return m.full & ~(self.black | self.white) & m.own[p] & ~m.centre

    def move_bits(self) -> tuple[int, bool]:
        """(the squares the mover may place on, whether END is legal); no squares and no END:
        PASS (or nothing once the game is over)."""
        p = self.mover
        if p < 0:
            return 0, False
        if self.opening or self.second:
            return self._second_squares(p), self.second
        return self._first_squares(p), False

    def legal_moves(self) -> list[BinaryMove]:
        if self.mover < 0:
            return []
        bits, end = self.move_bits()
        cells = places(self.n)
        moves: list[BinaryMove] = [cells[i] for i in squares_of(bits)]
        if end:
            moves.append(END)
        return moves or [PASS]

    def play(self, move: BinaryMove) -> Position:
        """The position after a legal ``move`` (no check: the search plays its own moves)."""
        p = self.mover
        if type(move) is not Place:  # END or PASS
            return self._hand_over(p, self.black, self.white, self.hands)
        m = masks(self.n)
        bit = 1 << move.cell
        own = bool(bit & m.own[p])
        centre = bool(bit & m.centre)
        hands = (self.hands[0] - (2 if centre and not own else 1), self.hands[1]) if p == 0 else (
            self.hands[0], self.hands[1] - (2 if centre and not own else 1))  # fmt: skip
        black, white = (self.black | bit, self.white) if p == 0 else (self.black, self.white | bit)
        more = own and not centre and not self.opening and not self.second and hands[p] > 0
        if more and m.full & ~(black | white) & m.own[p] & ~m.centre:
            return self._next(black, white, hands, p, True)
        return self._hand_over(p, black, white, hands)

    def _next(self, black: int, white: int, hands: tuple[int, int], mover: int,
              second: bool = False) -> Position:  # fmt: skip
        """A following position (the opening over), built directly: the search makes many."""
        return Position(self.n, black, white, hands, mover, second, False, self.empty_joins,
                        self.stuck_ends)  # fmt: skip

    def _hand_over(self, previous: int, black: int, white: int, hands: tuple[int, int]) -> Position:
        nxt = 1 - previous
        if hands[nxt] == 0:
            nxt = previous
            if hands[nxt] == 0:
                return self._next(black, white, hands, -1)
        after = self._next(black, white, hands, nxt)
        if after._first_squares(nxt):
            return after
        if self.stuck_ends:
            return self._next(black, white, hands, -1)
        holders = [q for q in (nxt, previous) if hands[q] > 0]
        if not any(after._first_squares(q) for q in holders):
            return self._next(black, white, hands, -1)
        return after  # nxt must pass

    def territory_sizes(self) -> tuple[list[int], list[int]]:
        """Black's and White's territory sizes, largest first."""
        m = masks(self.n)
        empty = m.full & ~(self.black | self.white)
        out = []
        for pieces, own in ((self.black, m.own[0]), (self.white, m.own[1])):
            sizes = [t.bit_count() for t in territories(pieces, empty & own, m, self.empty_joins)]
            sizes.sort(reverse=True)
            out.append(sizes)
        return out[0], out[1]


assert PLAYERS == (BLACK, WHITE)
