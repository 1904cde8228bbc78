"""Binary for the engines: the search plays on bitboards (``bitboard.Position``) and evaluates
territories as they stand, discounting the empty squares the opponent can still take; and a
hint's wording of a move's effect."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.core.squares import squares_of
from companion.games.base import places
from companion.games.binary.bitboard import Position
from companion.games.binary.bits import masks, neighbours
from companion.games.binary.board import PLAYERS, other
from companion.games.binary.engine import END, BinaryState
from companion.games.binary.territories import compare, score_of
from companion.games.engine_api import WIN, BaseAdapter, score_change


def territory_sizes(state: BinaryState | Position) -> tuple[list[int], list[int]]:
    """Black's and White's territory sizes, largest first, by flood fills on bitboards (the
    rules engine's ``score_cells`` gives the same, with the squares, more slowly)."""
    return _position(state).territory_sizes()


def _position(state: BinaryState | Position) -> Position:
    return state if isinstance(state, Position) else Position.of(state)


def _off_centre(sq: int, n: int) -> float:
    rank, file = divmod(sq, n)
    return abs(rank - (n - 1) / 2) + abs(file - (n - 1) / 2)


CACHE_SIZE = 500_000  # evaluations kept between searches (a few tens of MB at most)


class BinaryAdapter(BaseAdapter):
    """Moves are the rules engine's (``Place``, ``END``, ``PASS``); states are bitboard
    ``Position``s (a ``BinaryState`` is turned into one by ``prepare``)."""

    name = "binary"
    review_scale = 40  # a review's logistic unit: ten points of territory (x4)

    def __init__(self, tempo: int = 16):
        self.tempo = tempo  # value (x4 score points) of one piece placed with no reply
        self._scores: dict[tuple[int, int], int] = {}  # (black, white) -> score difference x4

    def prepare(self, state: BinaryState | Position) -> Position:
        return _position(state)

    def moves(self, state: Position) -> list[Any]:
        """Placements next to the mover's own pieces first (they make and join territories),
        then the rest, then END."""
        p = state.mover
        if p < 0:
            return []
        bits, end = state.move_bits()
        if not bits:
            return [END] if end else state.legal_moves()
        mine = state.white if p else state.black
        if not mine:  # a first piece: central squares first (they meet more squares)
            return sorted(state.legal_moves(), key=lambda m: _off_centre(m.cells[0], state.n))
        near = neighbours(mine, masks(state.n))
        cells = places(state.n)
        moves: list[Any] = [cells[i] for i in squares_of(bits & near) + squares_of(bits & ~near)]
        if end:
            moves.append(END)
        return moves

    def play(self, state: Position, move: Any) -> Position:
        return state.play(move)

    def is_over(self, state: Position) -> bool:
        return state.mover < 0

    def mover(self, state: Position) -> str:
        return PLAYERS[state.mover]

    def score_difference(self, state: Position, player: str) -> int:
        """The score as it stands, own minus the opponent's (what the greedy player maximises),
        the tie-break deciding a level score by one point either way."""
        black, white = state.territory_sizes()
        winner, _ = compare(black, white)
        sign = 1 if player == PLAYERS[0] else -1
        tb = 0 if winner is None else (1 if winner == PLAYERS[0] else -1)
        return sign * (4 * (score_of(black) - score_of(white)) + tb)

    def evaluate(self, state: Position, player: str) -> int:
        """Territories as they stand (x4: own score minus the opponent's), plus the pieces one
        side will place with no reply when both play one piece a turn from here, at
        ``tempo`` each; a finished game +-WIN or 0."""
        if state.mover < 0:
            black, white = state.territory_sizes()
            winner, _ = compare(black, white)
            if winner is None:
                return 0
            return WIN if winner == player else -WIN
        cells = (state.black, state.white)
        diff = self._scores.get(cells)
        if diff is None:
            if len(self._scores) > CACHE_SIZE:
                self._scores.clear()
            black, white = state.territory_sizes()
            diff = self._scores[cells] = 4 * (score_of(black) - score_of(white))
        # Free pieces: with one piece a turn, the player to start the next turn (p) places
        # hp - ho pieces unanswered if hp > ho, else the other places ho - hp + 1.
        p = 1 - state.mover if state.second else state.mover
        hp, ho = state.hands[p], state.hands[1 - p]
        free = hp - ho if hp > ho else -(ho - hp + 1)
        diff += self.tempo * (-free if p else free)
        return diff if player == PLAYERS[0] else -diff

    def key(self, state: Position) -> Hashable:
        return state

    def winner(self, state: Position) -> str | None:
        return compare(*state.territory_sizes())[0]


def _scores(state: BinaryState) -> dict[str, int]:
    """Each player's score (no squares needed)."""
    sizes = territory_sizes(state)
    return {p: score_of(s) for p, s in zip(PLAYERS, sizes, strict=True)}


def effect(before: BinaryState, after: BinaryState) -> list[str]:
    """Black/White: the mover's territory score up, or the opponent's down."""
    me = before.mover
    assert me is not None
    them = other(me)
    s0, s1 = _scores(before), _scores(after)
    mine = (s0[me], s1[me])
    theirs = (s0[them], s1[them])
    return score_change(me.upper(), them.upper(), mine, theirs, word="score")
