"""Wythe rules engine: stacks of bits, dominoes, the group-size score. Pure, no I/O.

See docs/rules/wythe.md for the rules as enforced. The position lives in a few bitboards
(Python ints, bit i is square i, a1 = 0, index = rank * n + file):

- ``p0``, ``p1``, ``p2``: the three bit-planes of every stack's height. A stack is never higher
  than its number of neighbours, so at most 4: a covered bit at level L belongs to a piece
  whose other bit is uncovered, i.e. the top of a neighbour exactly L + 1 high, and the top
  bit's piece lies on a neighbour at least as high as the stack; so a stack h high needs h
  different neighbours. ``play`` checks the limit anyway.
- ``white``: squares whose top bit is white (black tops are the occupied squares without it).
- ``hwest`` / ``ssouth``: squares whose top bit is the west half of a horizontal piece / the
  south half of a vertical one. With the heights this says everything the rules need about
  the pieces on top: a piece's two bits lie at the same level, so its other bit is uncovered
  exactly when the partner square is as high as this one.

``pieces`` lists every piece placed, in order (its index is its id), with the squares of its
black and white halves and its level, so stacks and piece ids can be read back exactly. Each
state keeps only its last piece and a link to the state before it; the list is built on first
use. The tests hold the bitboards to a by-hand reading of the pieces.

Legal placements are one int of four n*n-bit fields, one per direction, indexed by the lower
square s of the pair: black s / white s+1, white s / black s+1, black s / white s+n, white s /
black s+n. A pair is legal when both squares have the same height, each square's top takes
the half put on it (an empty square or the other colour), each top piece keeps an uncovered
bit (its partner square is as high, i.e. both its bits are uncovered now) and the two tops are
not the same piece. Listing them is a table lookup per byte of that int.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from operator import getitem
from typing import Any, ClassVar, Final

from ...core.squares import orthogonal_neighbours, square_name
from ..base import GameState, IllegalMove, Outcome, Refusal
from .moves import BLACK, PASS, PLAYERS, SWAP, WHITE, Piece, Placement, WytheMove, parse_move
from .options import resolve
from .scoring import Score, reason_line, result_reason, score_masks
from .tables import Rules, rules

MAX_HEIGHT: Final = 4  # see the module docstring


# ---------------------------------------------------------------------------------------------
# Game state


def _listed(chunks: tuple[tuple[tuple[Placement, ...], ...], ...], raw: bytes) -> list[Any]:
    """The placements of the set bits of ``raw`` (legal_bits as bytes), by table lookups."""
    out: list[Any] = []
    for found in filter(None, map(getitem, chunks, raw)):
        out += found
    return out


@cache
def _orthogonal(n: int) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(orthogonal_neighbours(s, n)) for s in range(n * n))


_new = object.__new__


class WytheState(GameState):
    """One Wythe position with whose turn it is. Immutable: ``play`` returns a new state."""

    game: ClassVar[str] = "wythe"
    players: ClassVar[tuple[str, ...]] = PLAYERS

    # Set on every state (the hot path copies them), in slots:
    __slots__ = (
        "rules", "p0", "p1", "p2", "white", "hwest", "ssouth", "mover", "_ply", "last_placer",
        "_prev", "_piece", "_masks",
    )  # fmt: skip
    rules: Rules  # tables and options, shared
    p0: int
    p1: int
    p2: int
    white: int
    hwest: int
    ssouth: int
    mover: str  # the colour to act (meaningless once over)
    _ply: int
    last_placer: str | None  # colour of the last placement
    _prev: WytheState | None  # the state before the last placement
    _piece: tuple[int, int, int] | None  # the last placement's (black, white, level)
    _masks: int | None  # legal_bits, once computed
    # Class defaults, set on an instance (its __dict__) only when they differ:
    passes: int = 0  # passes in a row just played
    swapped: bool = False  # White took the pie: the person who moved first now plays White
    _pieces: tuple[Piece, ...] | None = None
    _score: Score | None = None

    # ----- construction
    @classmethod
    def _start(cls, options: Mapping[str, Any] | None = None) -> WytheState:
        opts = resolve(options)
        s = _new(cls)
        s.rules = rules(opts["size"], opts["pie"])
        s.p0 = s.p1 = s.p2 = s.white = s.hwest = s.ssouth = 0
        s.mover = BLACK
        s._ply = 0
        s.last_placer = s._prev = s._piece = s._masks = None
        s._pieces = ()
        return s

    def _same_board(self) -> WytheState:
        """The next state with the board unchanged (after a pass or a swap)."""
        s = _new(WytheState)
        s.rules = self.rules
        s.p0, s.p1, s.p2 = self.p0, self.p1, self.p2
        s.white, s.hwest, s.ssouth = self.white, self.hwest, self.ssouth
        s.mover = WHITE if self.mover == BLACK else BLACK
        s._ply = self._ply + 1
        if self.swapped:
            s.swapped = True
        s.last_placer = self.last_placer
        s._prev = self._prev
        s._piece = self._piece
        s._pieces = self._pieces
        s._masks = self._masks
        return s

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece placed, in order; a piece's id is its index."""
        if self._pieces is not None:
            return self._pieces
        chain_: list[tuple[int, int, int]] = []
        s: WytheState | None = self
        while s is not None and s._pieces is None:
            assert s._piece is not None
            chain_.append(s._piece)
            s = s._prev
        base = s._pieces if s is not None and s._pieces is not None else ()
        self._pieces = base + tuple(Piece(*p) for p in reversed(chain_))
        return self._pieces

    # ----- protocol basics
    @property
    def n(self) -> int:
        """Squares per side."""
        return self.rules.n

    @property
    def pie(self) -> bool:
        """Whether White may swap on their first turn."""
        return self.rules.pie

    @property
    def options(self) -> dict[str, Any]:
        return {"size": self.n, "pie": self.pie}

    @property
    def turn(self) -> str | None:
        return None if self.passes >= 2 else self.mover

    @property
    def to_act(self) -> frozenset[str]:
        return frozenset() if self.passes >= 2 else frozenset((self.mover,))

    @property
    def ply(self) -> int:
        return self._ply

    def is_over(self) -> bool:
        return self.passes >= 2

    def seating(self) -> dict[str, str]:
        """After a swap the seats exchange colours: the one that started as White plays
        Black, and the reverse."""
        if self.swapped:
            return {BLACK: WHITE, WHITE: BLACK}
        return {BLACK: BLACK, WHITE: WHITE}

    def chance(self) -> None:
        return None

    # ----- stacks: heights, top colours, the pieces in each stack
    def height(self, square: int) -> int:
        return (self.p0 >> square & 1) | (self.p1 >> square & 1) << 1 | (self.p2 >> square & 1) << 2

    def heights(self) -> list[int]:
        return [self.height(s) for s in range(self.n * self.n)]

    @property
    def occupied(self) -> int:
        return self.p0 | self.p1 | self.p2

    @property
    def black_tops(self) -> int:
        return (self.p0 | self.p1 | self.p2) & ~self.white

    @property
    def white_tops(self) -> int:
        return self.white

    def top(self, square: int) -> str | None:
        """The colour of the stack on ``square`` (None when empty)."""
        if not self.occupied >> square & 1:
            return None
        return WHITE if self.white >> square & 1 else BLACK

    def cells(self) -> list[str]:
        """'x' (black top), 'o' (white top) or '.' (empty) per square, a1 first."""
        occ, white = self.occupied, self.white
        return [("o" if white >> i & 1 else "x") if occ >> i & 1 else "." for i in range(self.n**2)]

    def stack_pieces(self, square: int) -> list[int]:
        """Ids (indices in ``pieces``) of the pieces with a bit on ``square``, bottom first."""
        return [i for i, p in enumerate(self.pieces) if square in (p.black, p.white)]

    def stack(self, square: int) -> list[str]:
        """The colours of the bits on ``square``, bottom first."""
        return [
            BLACK if self.pieces[i].black == square else WHITE for i in self.stack_pieces(square)
        ]

    def top_piece(self, square: int) -> int | None:
        ids = self.stack_pieces(square)
        return ids[-1] if ids else None

    def piece_name(self, piece_id: int) -> str:
        p = self.pieces[piece_id]
        return Placement(p.black, p.white, self.n).name  # type: ignore[attr-defined]

    # ----- legality
    def legal_bits(self) -> int:
        """The legal placements as one int: bit k * n * n + s is set when the pair of
        direction k with lower square s is legal. Directions: 0 black s / white s+1,
        1 white s / black s+1, 2 black s / white s+n, 3 white s / black s+n."""
        m = self._masks
        if m is not None:
            return m
        r = self.rules
        n = r.n
        p0, p1, p2 = self.p0, self.p1, self.p2
        # equal heights east / north of each square, with as few planes as the heights need
        if p2:
            occ = p0 | p1 | p2
            eq_e = r.east_ok & ~((p0 ^ (p0 >> 1)) | (p1 ^ (p1 >> 1)) | (p2 ^ (p2 >> 1)))
            eq_n = r.north_ok & ~((p0 ^ (p0 >> n)) | (p1 ^ (p1 >> n)) | (p2 ^ (p2 >> n)))
        elif p1:
            occ = p0 | p1
            eq_e = r.east_ok & ~((p0 ^ (p0 >> 1)) | (p1 ^ (p1 >> 1)))
            eq_n = r.north_ok & ~((p0 ^ (p0 >> n)) | (p1 ^ (p1 >> n)))
        else:
            occ = p0
            eq_e = r.east_ok & ~(p0 ^ (p0 >> 1))
            eq_n = r.north_ok & ~(p0 ^ (p0 >> n))
        hw = self.hwest & eq_e
        vs = self.ssouth & eq_n
        cover = (r.full ^ occ) | hw | (hw << 1) | vs | (vs << n)
        white = self.white
        takes_black = cover & ~(occ ^ white)
        takes_white = cover & ~white
        # Directions 0 and 1 (and 2 and 3) in one int each: the low n*n bits test black on s,
        # the high ones white on s. Bits shifted across the middle land on the last file (or
        # the top rank), which e (u) leaves out.
        nn = r.shift1
        lower = takes_black | takes_white << nn  # what s takes, per direction
        upper = takes_white | takes_black << nn  # what its partner must take
        e = eq_e & ~self.hwest
        u = eq_n & ~self.ssouth
        m = (
            lower & (upper >> 1) & (e | e << nn)
            | (lower & (upper >> n) & (u | u << nn)) << r.shift2
        )
        self._masks = m
        return m

    def has_placement(self) -> bool:
        return bool(self.legal_bits())

    def placements(self) -> list[Placement]:
        """Every legal placement, whoever is to move (both players place the same pieces).
        Grouped by direction (see ``legal_bits``), then by lower square."""
        r = self.rules
        return _listed(r.chunks, self.legal_bits().to_bytes(r.nbytes, "little"))

    def swap_allowed(self) -> bool:
        return self.pie and self._ply == 1 and self.passes < 2

    def legal_moves(self, player: str | None = None) -> list[WytheMove]:
        """Placements (as ``placements``), then ``swap`` when allowed; ``pass`` alone when no
        placement exists (after ``swap`` if that is allowed); [] when the game is over."""
        if self.passes >= 2 or (player is not None and player != self.mover):
            return []
        bits = self._masks
        if bits is None:
            bits = self.legal_bits()
        r = self.rules
        moves: list[WytheMove] = _listed(r.chunks, bits.to_bytes(r.nbytes, "little"))
        if self._ply == 1 and self.pie:
            moves.append(SWAP)
        if not bits:
            moves.append(PASS)
        return moves

    def forced_move(self) -> WytheMove | None:
        """The pass, when the side to move has no placement (and no swap)."""
        if self.passes >= 2 or self.has_placement() or self.swap_allowed():
            return None
        return PASS

    def _is_legal_placement(self, b: int, w: int) -> bool:
        info = self.rules.info.get((b, w))
        return info is not None and bool(self.legal_bits() >> info[0] & 1)

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.passes >= 2:
            return Refusal("game-over", "game over")
        if player is not None and player != self.mover:
            return Refusal("not-your-turn", f"{player}: not your turn")
        if move == PASS:
            if self.has_placement():
                return Refusal("must-place", "pass: a piece still fits")
            return None
        if move == SWAP:
            if not self.pie:
                return Refusal("no-pie", "swap: pie rule is off")
            if self._ply != 1:
                return Refusal("swap-too-late", "swap: only White's 1st turn")
            return None
        if type(move) is not Placement or move.size != self.n:
            return Refusal("not-a-move", f"{move!r}: not a move")
        b, w = move.black, move.white
        n2 = self.n * self.n
        for s in (b, w):
            if not 0 <= s < n2:
                return Refusal("not-a-square", f"{s}: not a square")
        if self._is_legal_placement(b, w):
            return None
        return self._placement_refusal(b, w)

    # ----- why a placement or a half-placement is refused
    def _placement_refusal(self, b: int, w: int) -> Refusal:
        """Why the placement black ``b`` / white ``w`` is illegal (it is)."""
        n = self.n
        bn, wn = square_name(b, n), square_name(w, n)
        if b == w:
            return Refusal("same-square", f"{bn}: both halves on one square")
        if w not in _orthogonal(n)[b]:
            return Refusal("not-adjacent", f"{wn}: not next to {bn}")
        hb, hw = self.height(b), self.height(w)
        if hb != hw:
            return Refusal("unequal-heights", f"heights differ: {bn} {hb}, {wn} {hw}")
        refusal = self.half_blocked(b, BLACK) or self.half_blocked(w, WHITE)
        if refusal is not None:
            return refusal
        tb = self.top_piece(b)
        if tb is not None and tb == self.top_piece(w):
            return Refusal("covers-piece", f"{bn}-{wn}: would bury {self.piece_name(tb)}")
        raise AssertionError(f"{bn}-{wn} refused for no reason")  # the masks disagree

    def half_blocked(self, square: int, colour: str) -> Refusal | None:
        """Why ``square`` cannot take a half of ``colour`` whatever its partner (its top is that
        colour, or its top piece has its other bit covered already), else None."""
        name = square_name(square, self.n)
        top = self.top(square)
        if top == colour:
            return Refusal("like-colour", f"{name}: {colour} on {colour}")
        if top is not None:
            tid = self.top_piece(square)
            assert tid is not None
            p = self.pieces[tid]
            partner = p.white if p.black == square else p.black
            if self.height(partner) != p.level + 1:
                return Refusal("covers-piece", f"{name}: would bury {self.piece_name(tid)}")
        return None

    def completions(self, square: int, colour: str = BLACK) -> list[int]:
        """Squares for the other half once the ``colour`` half is on ``square`` (the second
        press on the switch board), in square order."""
        moves = self.placements() if self.passes < 2 else []
        if colour == BLACK:
            return sorted(p.white for p in moves if p.black == square)
        return sorted(p.black for p in moves if p.white == square)

    def check_half(self, square: int, colour: str = BLACK) -> Refusal | None:
        """None if some legal placement puts the ``colour`` half on ``square`` (a first press),
        else why not."""
        if self.passes >= 2:
            return Refusal("game-over", "game over")
        if not 0 <= square < self.n * self.n:
            return Refusal("not-a-square", f"{square}: not a square")
        if self.completions(square, colour):
            return None
        refusal = self.half_blocked(square, colour)
        if refusal is not None:
            return refusal
        return Refusal("no-fit", f"{square_name(square, self.n)}: no piece fits here")

    # ----- playing
    def play(self, move: Any, player: str | None = None) -> WytheState:
        if type(move) is Placement and self.passes < 2 and (player is None or player == self.mover):
            bit = move.bit
            if bit >= 0 and move.size == self.rules.n:  # one of the tables' own placements
                bits = self._masks
                if bits is None:
                    bits = self.legal_bits()
                if bits >> bit & 1:
                    return self._place(self.rules.by_bit[bit])  # type: ignore[arg-type]
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        if move == PASS:
            s = self._same_board()
            s.passes = self.passes + 1
            return s
        if move == SWAP:
            s = self._same_board()
            s.mover = self.mover  # White moves again: the seats changed, not the colours
            s.swapped = True
            return s
        assert isinstance(move, Placement)
        return self._place(self.rules.info[(move.black, move.white)])

    def _place(self, info: tuple[int, int, int, int, int, int, bool]) -> WytheState:
        """The state after a legal placement (``info`` from ``Rules.info``)."""
        _, b, w, m, mw, low, horizontal = info
        p0, p1, p2 = self.p0, self.p1, self.p2
        h = (p0 >> b & 1) | (p1 >> b & 1) << 1 | (p2 >> b & 1) << 2
        if h >= 4:  # MAX_HEIGHT: cannot happen (see the module docstring)
            raise AssertionError("stack above the height limit")
        h1 = h + 1
        keep = ~m
        s = _new(WytheState)
        s.rules = self.rules
        s.p0 = (p0 & keep) | m if h1 & 1 else p0 & keep
        s.p1 = (p1 & keep) | m if h1 & 2 else p1 & keep
        s.p2 = (p2 & keep) | m if h1 & 4 else p2 & keep
        s.white = (self.white & keep) | mw
        if horizontal:
            s.hwest = (self.hwest & keep) | low
            s.ssouth = self.ssouth & keep
        else:
            s.hwest = self.hwest & keep
            s.ssouth = (self.ssouth & keep) | low
        mover = self.mover
        s.mover = "white" if mover == "black" else "black"
        s._ply = self._ply + 1
        if self.swapped:
            s.swapped = True
        s.last_placer = mover
        s._prev = self
        s._piece = (b, w, h)
        s._masks = None
        return s

    # ----- result
    def score(self) -> Score:
        if self._score is None:
            self._score = score_masks(self.black_tops, self.white, self.n, self.last_placer)
        return self._score

    def outcome(self) -> Outcome | None:
        if self.passes < 2:
            return None
        return build_outcome(self)

    # ----- notation
    def parse_move(self, text: str) -> WytheMove:
        """'d4-d5', 'pass' or 'swap'; ValueError otherwise."""
        return parse_move(text, self.n)

    def __repr__(self) -> str:
        return (
            f"WytheState(n={self.n}, to_move={self.turn}, ply={self._ply}, "
            f"pieces={len(self.pieces)}, passes={self.passes}, swapped={self.swapped})"
        )


def build_outcome(state: WytheState) -> Outcome:
    """The result with its explanation (also for an unfinished game: who leads now).

    ``summary`` is one short line ('BLACK wins 5-3'); ``detail`` (JSON-able) holds the winners
    as a list (protocol v2's ``winners``), both scores and group tables, what decided it and
    the reason line for the OLED ('Black 5: three groups of 5 to two')."""
    sc = state.score()
    winner = sc.leader
    loser = BLACK if winner == WHITE else WHITE
    scores = f"{sc.of(winner)}-{sc.of(loser)}" if winner else ""  # the winner's score first
    summary = "no result" if winner is None else f"{winner.upper()} wins {scores}"
    detail: dict[str, Any] = {
        "winners": [winner] if winner else [],
        "scores": {BLACK: sc.black, WHITE: sc.white},
        "groups": {
            BLACK: {str(k): v for k, v in sorted(sc.black_groups.items())},
            WHITE: {str(k): v for k, v in sorted(sc.white_groups.items())},
        },
        "decided_by": sc.reason,
        "reason": reason_line(sc),
        "last_placer": state.last_placer,
        "swapped": state.swapped,
    }
    return Outcome(
        winners=(winner,) if winner else (),
        summary=summary,
        detail=detail,
        reason=result_reason(sc),
    )


__all__ = ["MAX_HEIGHT", "WytheState", "build_outcome"]
