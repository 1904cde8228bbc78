"""Binaryon[8] game state: legal moves, refusals, playing and the result. Pure, no I/O.

Lines are in ``lines``, the precomputed tables in ``tables``, scoring in ``scoring``, the
options in ``options`` and the bitboard/cells conversions in ``board``.

Boards are bitboards (Python ints): bit i is square i (a1 = 0, index = rank * n + file), a set
bit is a white piece. Black is 'x', white 'o'. ON's 1s are white pieces, OFF's 1s are black;
ON turns black pieces white, OFF turns white pieces black.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from companion.core.squares import square_name
from companion.games.base import GameState, IllegalMove, Outcome, Place, Refusal, Word, parse_place
from companion.games.binaryon.board import cells_to_white, white_to_cells
from companion.games.binaryon.options import PLAYERS
from companion.games.binaryon.scoring import Score, score_bitboard, score_detail, tie_reason
from companion.games.binaryon.tables import Counts, Rules, rules

PASS: Final = Word("pass")
BinaryonMove = Place | Word  # turn a square (named like d4), or pass
_new_state = object.__new__  # a state without running __init__ (see BinaryonState._turned)


def legal_squares(
    cells: Sequence[str],
    n: int,
    mover: str,
    last: int | None,
    options: Mapping[str, Any] | None = None,
) -> list[int]:
    """Squares ``mover`` ('on'/'off') may turn; ``last`` None means the opening move."""
    if mover not in PLAYERS:
        raise ValueError(f"mover must be on or off, got {mover!r}")
    r = rules({**(options or {}), "size": n})
    if last is not None and not 0 <= last < n * n:
        raise ValueError(f"last square {last} is not on the board")
    return r.squares(r.legal(cells_to_white(cells, n), mover, last))


# ---------------------------------------------------------------------------------------------
# Game state


def _colour_word(mover: str) -> str:
    """The colour of the pieces ``mover`` turns."""
    return "black" if mover == "on" else "white"


class BinaryonState(GameState):
    """One Binaryon position: white bitboard, player to move, last square turned, passes.

    A state never changes; what is worked out from it is kept on it: the legal bitboard, the
    neighbour counts (``Rules.counts``, handed on to the next state by ``play``) and the score.
    """

    game = "binaryon"
    players = PLAYERS
    __slots__ = (
        "white", "n", "mover", "last", "passes", "_ply", "rules", "_score", "_legal", "_counts",
    )  # fmt: skip

    def __init__(
        self,
        white: int,
        r: Rules,
        mover: str,
        last: int | None = None,
        passes: int = 0,
        ply: int = 0,
        counts: Counts | None = None,
    ):
        """``counts``: ``r.counts(white)`` when the caller already has it (else worked out when
        first needed)."""
        self.white = white
        self.rules = r
        self.n = r.n
        self.mover = mover
        self.last = last
        self.passes = passes
        self._ply = ply
        self._score: Score | None = None
        self._legal: int | None = None
        self._counts = counts

    @classmethod
    def _start(cls, options: Mapping[str, Any] | None = None) -> BinaryonState:
        """The starting position: the lower half white, the upper half black."""
        r = rules(options)
        n = r.n
        return cls((1 << (n * n // 2)) - 1, r, r.first)

    @classmethod
    def from_cells(
        cls,
        cells: Sequence[str],
        n: int,
        mover: str = "on",
        last: int | None = None,
        options: Mapping[str, Any] | None = None,
        passes: int = 0,
        ply: int = 0,
    ) -> BinaryonState:
        """A state from cells ('x'/'o', index a1 = 0), e.g. a position read from a file."""
        if mover not in PLAYERS:
            raise ValueError(f"mover must be on or off, got {mover!r}")
        r = rules({**(options or {}), "size": n})
        if last is not None and not 0 <= last < n * n:
            raise ValueError(f"last square {last} is not on the board")
        return cls(cells_to_white(cells, n), r, mover, last, passes, ply)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options)

    @property
    def turn(self) -> str | None:
        return None if self.passes >= 2 else self.mover

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def counts(self) -> Counts:
        """The board's biased white-neighbour counts (``Rules.counts``): handed on by ``play``,
        else worked out when first needed."""
        counts = self._counts
        if counts is None:
            counts = self._counts = self.rules.counts(self.white)
        return counts

    def is_over(self) -> bool:
        return self.passes >= 2

    def cells(self) -> list[str]:
        return white_to_cells(self.white, self.n)

    def legal_mask(self) -> int:
        """Bitboard of the squares the mover may turn (0 once the game is over)."""
        legal = self._legal
        if legal is None:
            if self.passes >= 2:
                legal = 0
            else:
                r = self.rules
                d0, d1, d2, d3 = self.counts  # biased white-neighbour counts (see tables.py)
                if self.mover == "on":  # black pieces where black holds the majority
                    x = r.full ^ self.white
                    majority = ~(d3 | (d0 & d1 & d2 & r.interior))
                else:  # white pieces where white holds it
                    x, majority = self.white, d3
                last = self.last
                if last is not None:
                    legal = x & r.reach[last] & majority
                else:
                    legal = x & majority if r.opening_majority else x
            self._legal = legal
        return legal

    def legal_moves(self, player: str | None = None) -> list[BinaryonMove]:
        if self.passes >= 2 or (player is not None and player != self.mover):
            return []
        legal = self._legal
        if legal is None:
            legal = self.legal_mask()
        return self.rules.places(legal) if legal else [PASS]

    def forced_move(self) -> BinaryonMove | None:
        return PASS if not self.is_over() and not self.legal_mask() else None

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.is_over():
            return Refusal("game-over", "game over")
        if (refusal := self.own_turn(player)) is not None:
            return refusal
        if move == PASS:
            if self.legal_mask():
                return Refusal("has-move", "pass: you have a move")
            return None
        n = self.n
        if type(move) is not Place or move.size != n:
            return Refusal("not-a-square", f"{move!r}: not a square")
        cell = move.cell
        if self.legal_mask() >> cell & 1:
            return None
        name = square_name(cell, n)
        colour = _colour_word(self.mover)
        is_white = self.white >> cell & 1
        if bool(is_white) == (self.mover == "on"):  # ON turns black (0), OFF white (1)
            return Refusal("wrong-colour", f"{name}: already {'white' if is_white else 'black'}")
        last = self.last
        if last is not None:
            if cell == last:
                return Refusal("same-square", f"{name}: same square as last")
            if not self.rules.reach[last] >> cell & 1:
                return Refusal("not-in-line", f"{name}: not in line with {square_name(last, n)}")
        # Only the neighbour majority is left to fail.
        nbrs = _neighbour_list(n)[cell]
        same = sum(1 for s in nbrs if (self.white >> s & 1) == is_white)
        need = len(nbrs) // 2 + 1
        return Refusal("no-majority", f"{name}: needs {need} {colour} nbrs, has {same}")

    def play(self, move: Any, player: str | None = None) -> BinaryonState:
        if player is None or player == self.mover:
            # A square the legal bitboard holds, or a pass when it is empty, needs no other check.
            legal = self._legal
            if legal is None:
                legal = self.legal_mask()
            if type(move) is Place:
                cell = move.cell
                if legal >> cell & 1 and move.size == self.n:
                    return self._turned(cell)
            elif not legal and move == PASS and self.passes < 2:
                return BinaryonState(
                    self.white, self.rules, "off" if self.mover == "on" else "on", self.last,
                    self.passes + 1, self._ply + 1, self._counts,
                )  # fmt: skip
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        raise AssertionError(f"{move!r}: legal but not played")  # check and play disagree

    def _turned(self, move: int) -> BinaryonState:
        """The state after turning ``move``, a square the legal bitboard holds. Its counts and
        its legal bitboard are worked out here, where the counts are at hand."""
        r = self.rules
        white = self.white ^ (1 << move)
        d0, d1, d2, d3 = self._counts  # type: ignore[misc]  # set by legal_mask
        m = r.neighbours[move]
        if self.mover == "on":  # a piece turned white: its neighbours' counts go up by one
            m, d0 = d0 & m, d0 ^ m
            m, d1 = d1 & m, d1 ^ m
            m, d2 = d2 & m, d2 ^ m
            d3 ^= m
            mover = "off"
            legal = white & r.reach[move] & d3  # white pieces where white holds the majority
        else:  # turned black: down by one
            m, d0 = m & ~d0, d0 ^ m
            m, d1 = m & ~d1, d1 ^ m
            m, d2 = m & ~d2, d2 ^ m
            d3 ^= m
            mover = "on"
            legal = r.reach[move] & ~(white | d3 | (d0 & d1 & d2 & r.interior))
        # The constructor's work without calling it: this is the inner loop of every game.
        state = _new_state(BinaryonState)
        state.white = white
        state.rules = r
        state.n = self.n
        state.mover = mover
        state.last = move
        state.passes = 0
        state._ply = self._ply + 1
        state._score = None
        state._legal = legal
        state._counts = (d0, d1, d2, d3)
        return state

    def score(self) -> Score:
        if self._score is None:
            self._score = score_bitboard(self.white, self.rules)
        return self._score

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        sc = self.score()
        summary = "draw" if sc.winner is None else f"{sc.winner.upper()} wins"
        winners = (sc.winner,) if sc.winner else ()
        return Outcome(winners, summary, score_detail(sc), reason=tie_reason(sc))

    def parse_move(self, text: str) -> BinaryonMove:
        if text.strip().lower() == PASS.name:
            return PASS
        return parse_place(text, self.n)

    def __repr__(self) -> str:
        last = "-" if self.last is None else square_name(self.last, self.n)
        return (
            f"BinaryonState(n={self.n}, to_move={self.mover}, last={last}, "
            f"passes={self.passes}, ply={self._ply})"
        )


@cache
def _neighbour_list(n: int) -> tuple[tuple[int, ...], ...]:
    from companion.core.squares import neighbours

    return tuple(tuple(neighbours(s, n)) for s in range(n * n))
