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

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from operator import getitem
from typing import Any, ClassVar, Final, NamedTuple

from ...core.squares import parse_square, square_name
from ..base import GameState, IllegalMove, Option, Outcome, Refusal, resolve_options

BLACK: Final = "black"
WHITE: Final = "white"
PLAYERS: Final = (BLACK, WHITE)
PASS: Final = "pass"
SWAP: Final = "swap"
MAX_HEIGHT: Final = 4  # see the module docstring

OPTIONS: Final = (
    Option("size", 8, "squares per side (4..16)", kind=int, minimum=4, maximum=16),
    Option("pie", True, "White may swap sides on their first turn", kind=bool),
)


def resolve(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return resolve_options(OPTIONS, dict(given or {}))


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


class Placement(NamedTuple):
    """A piece placed with its black half on ``black`` and its white half on ``white``."""

    black: int
    white: int


class Piece(NamedTuple):
    """A piece on the board: its halves' squares and the level both bits lie at (0 = floor)."""

    black: int
    white: int
    level: int


# ---------------------------------------------------------------------------------------------
# Tables


class Rules:
    """Masks and move tables for one board size, and the game's options; get one with
    ``rules(n, pie)`` (shared by every state of every game with those options)."""

    def __init__(self, n: int, pie: bool = True):
        self.n = n
        self.pie = pie
        self.squares = n * n
        self.full = (1 << (n * n)) - 1
        last_file = sum(1 << (r * n + n - 1) for r in range(n))
        self.east_ok = self.full & ~last_file  # s has a square east of it
        self.north_ok = (1 << (n * n - n)) - 1  # s has a square north of it
        # (black, white) for a pair in direction k whose lower square is s
        pairs: list[list[Placement | None]] = [[], [], [], []]
        for s in range(n * n):
            e = s + 1 if self.east_ok >> s & 1 else None
            u = s + n if self.north_ok >> s & 1 else None
            pairs[0].append(None if e is None else Placement(s, e))
            pairs[1].append(None if e is None else Placement(e, s))
            pairs[2].append(None if u is None else Placement(s, u))
            pairs[3].append(None if u is None else Placement(u, s))
        self.pairs = tuple(tuple(p) for p in pairs)
        # The legal pairs are one int of 4 * n * n bits: direction k, lower square s at bit
        # k * n * n + s. chunks[j][v] lists the placements of the set bits v of its byte j.
        nbits = 4 * n * n
        self.nbytes = (nbits + 7) // 8
        chunks = []
        for j in range(self.nbytes):
            table: list[tuple[Placement, ...]] = [()] * 256
            for v in range(1, 256):
                low = v & -v
                bit = j * 8 + low.bit_length() - 1
                k, s = divmod(bit, n * n)
                p = self.pairs[k][s] if bit < nbits else None
                table[v] = table[v ^ low] + ((p,) if p is not None else ())
            chunks.append(tuple(table))
        self.chunks = tuple(chunks)
        self.shift1, self.shift2 = n * n, 2 * n * n  # where directions 1 and 2 start
        # For each placement on the board: its bit in legal_bits, its squares, the mask of both
        # squares, of the white square, of the lower square, and whether it lies east-west.
        self.info: dict[tuple[int, int], tuple[int, int, int, int, int, int, bool]] = {}
        for k in range(4):
            for s, p in enumerate(self.pairs[k]):
                if p is not None:
                    b, w = p
                    mask = (1 << b) | (1 << w)
                    self.info[p] = (k * n * n + s, b, w, mask, 1 << w, 1 << s, k < 2)


@cache
def rules(n: int = 8, pie: bool = True) -> Rules:
    resolve({"size": n, "pie": pie})
    return Rules(n, pie)


# ---------------------------------------------------------------------------------------------
# Groups and score


def group_sizes(mask: int, n: int) -> list[int]:
    """Sizes of the orthogonally connected groups of the squares in ``mask`` (any order).

    Each row is cut into runs of set bits; runs touching a run of the row below join its group
    (union-find over runs).
    """
    row_mask = (1 << n) - 1
    parent: list[int] = []
    size: list[int] = []
    prev: list[tuple[int, int]] = []  # (run mask, label) of the row below
    shift = 0
    while mask >> shift:
        row = (mask >> shift) & row_mask
        shift += n
        cur: list[tuple[int, int]] = []
        while row:
            run = row & ~(row + (row & -row))
            row ^= run
            label = -1
            for pm, pl in prev:
                if pm & run:
                    while parent[pl] != pl:
                        pl = parent[pl]
                    if label < 0:
                        label = pl
                    elif pl != label:
                        if size[pl] > size[label]:
                            pl, label = label, pl
                        parent[pl] = label
                        size[label] += size[pl]
            c = run.bit_count()
            if label < 0:
                label = len(parent)
                parent.append(label)
                size.append(c)
            else:
                size[label] += c
            cur.append((run, label))
        prev = cur
    return [s for i, s in enumerate(size) if parent[i] == i]


def group_table(mask: int, n: int) -> dict[int, int]:
    """{group size: number of groups of that size} for the squares in ``mask``."""
    return dict(Counter(group_sizes(mask, n)))


def scores_of(black: Mapping[int, int], white: Mapping[int, int]) -> tuple[int, int]:
    """Each player's score: the largest size at which they have strictly more groups."""
    sb = sw = 0
    for s in sorted(black.keys() | white.keys(), reverse=True):
        b, w = black.get(s, 0), white.get(s, 0)
        if b > w and not sb:
            sb = s
        elif w > b and not sw:
            sw = s
        if sb and sw:
            break
    return sb, sw


class Score(NamedTuple):
    """A scored position: group tables ({size: count}, shared with the state's cache: read
    only), scores, and who leads (None before any placement)."""

    black_groups: dict[int, int]
    white_groups: dict[int, int]
    black: int
    white: int
    leader: str | None
    reason: str  # "score", "last-mover" (the 0-0 rule), or "empty" (no placement yet)

    def groups(self, player: str) -> dict[int, int]:
        return self.black_groups if player == BLACK else self.white_groups

    def of(self, player: str) -> int:
        return self.black if player == BLACK else self.white


def score_masks(black_tops: int, white_tops: int, n: int, last_placer: str | None) -> Score:
    """Score a position from its top colours. ``last_placer`` is the colour that made the last
    placement (None: no placement yet); at 0-0 that player loses."""
    bg = group_table(black_tops, n)
    wg = group_table(white_tops, n)
    sb, sw = scores_of(bg, wg)
    if sb != sw:
        return Score(bg, wg, sb, sw, BLACK if sb > sw else WHITE, "score")
    if last_placer is None:
        return Score(bg, wg, 0, 0, None, "empty")
    return Score(bg, wg, 0, 0, other(last_placer), "last-mover")


# ---------------------------------------------------------------------------------------------
# Game state


def _listed(chunks: tuple[tuple[tuple[Placement, ...], ...], ...], raw: bytes) -> list[Any]:
    """The placements of the set bits of ``raw`` (legal_bits as bytes), by table lookups."""
    out: list[Any] = []
    for found in filter(None, map(getitem, chunks, raw)):
        out += found
    return out


_new = object.__new__


def _refuse(code: str, reason: str) -> Refusal:
    return Refusal(code, reason)


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
    def start(cls, options: Mapping[str, Any] | None = None) -> WytheState:
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

    @classmethod
    def from_pieces(
        cls, pieces: Sequence[tuple[int, int]], options: Mapping[str, Any] | None = None
    ) -> WytheState:
        """The state after placing ``pieces`` (black, white squares) in order from the start,
        Black first, no swap: a quick way to set up a position. Raises IllegalMove."""
        state = cls.start(options)
        for b, w in pieces:
            state = state.play(Placement(b, w))
        return state

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

    def chance(self) -> None:
        return None

    # ----- reading the position
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
        return self.move_name(Placement(p.black, p.white))

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

    def placement_count(self) -> int:
        return self.legal_bits().bit_count()

    def placements(self) -> list[Placement]:
        """Every legal placement, whoever is to move (both players place the same pieces).
        Grouped by direction (see ``legal_bits``), then by lower square."""
        r = self.rules
        return _listed(r.chunks, self.legal_bits().to_bytes(r.nbytes, "little"))

    def swap_allowed(self) -> bool:
        return self.pie and self._ply == 1 and self.passes < 2

    def legal_moves(self, player: str | None = None) -> list[Any]:
        """Placements (as ``placements``), then ``swap`` when allowed; ``pass`` alone when no
        placement exists (after ``swap`` if that is allowed); [] when the game is over."""
        if self.passes >= 2 or (player is not None and player != self.mover):
            return []
        bits = self._masks
        if bits is None:
            bits = self.legal_bits()
        r = self.rules
        moves: list[Any] = []
        for found in filter(None, map(getitem, r.chunks, bits.to_bytes(r.nbytes, "little"))):
            moves += found  # the placements of one byte of legal_bits (see Rules.chunks)
        if self._ply == 1 and self.pie:
            moves.append(SWAP)
        if not bits:
            moves.append(PASS)
        return moves

    def forced_move(self) -> Any:
        """The pass, when the side to move has no placement (and no swap)."""
        if self.passes >= 2 or self.has_placement() or self.swap_allowed():
            return None
        return PASS

    def _is_legal_placement(self, b: int, w: int) -> bool:
        info = self.rules.info.get((b, w))
        return info is not None and bool(self.legal_bits() >> info[0] & 1)

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.passes >= 2:
            return _refuse("game-over", "game over")
        if player is not None and player != self.mover:
            return _refuse("not-your-turn", f"{player}: not your turn")
        if move == PASS:
            if self.has_placement():
                return _refuse("must-place", "pass: a piece still fits")
            return None
        if move == SWAP:
            if not self.pie:
                return _refuse("no-pie", "swap: pie rule is off")
            if self._ply != 1:
                return _refuse("swap-too-late", "swap: only White's 1st turn")
            return None
        if not (
            isinstance(move, tuple)
            and len(move) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in move)
        ):
            return _refuse("not-a-move", f"{move!r}: not a move")
        b, w = move
        n2 = self.n * self.n
        for s in (b, w):
            if not 0 <= s < n2:
                return _refuse("not-a-square", f"{s}: not a square")
        if self._is_legal_placement(b, w):
            return None
        return self._placement_refusal(b, w)

    def _placement_refusal(self, b: int, w: int) -> Refusal:
        """Why the placement black ``b`` / white ``w`` is illegal (it is)."""
        n = self.n
        bn, wn = square_name(b, n), square_name(w, n)
        if b == w:
            return _refuse("same-square", f"{bn}: both halves on one square")
        if w not in _orthogonal(n)[b]:
            return _refuse("not-adjacent", f"{wn}: not next to {bn}")
        hb, hw = self.height(b), self.height(w)
        if hb != hw:
            return _refuse("unequal-heights", f"heights differ: {bn} {hb}, {wn} {hw}")
        refusal = self.half_blocked(b, BLACK) or self.half_blocked(w, WHITE)
        if refusal is not None:
            return refusal
        tb = self.top_piece(b)
        if tb is not None and tb == self.top_piece(w):
            return _refuse("covers-piece", f"{bn}-{wn}: would bury {self.piece_name(tb)}")
        raise AssertionError(f"{bn}-{wn} refused for no reason")  # the masks disagree

    def half_blocked(self, square: int, colour: str) -> Refusal | None:
        """Why ``square`` cannot take a half of ``colour`` whatever its partner (its top is that
        colour, or its top piece has its other bit covered already), else None."""
        name = square_name(square, self.n)
        top = self.top(square)
        if top == colour:
            return _refuse("like-colour", f"{name}: {colour} on {colour}")
        if top is not None:
            tid = self.top_piece(square)
            assert tid is not None
            p = self.pieces[tid]
            partner = p.white if p.black == square else p.black
            if self.height(partner) != p.level + 1:
                return _refuse("covers-piece", f"{name}: would bury {self.piece_name(tid)}")
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
            return _refuse("game-over", "game over")
        if not 0 <= square < self.n * self.n:
            return _refuse("not-a-square", f"{square}: not a square")
        if self.completions(square, colour):
            return None
        refusal = self.half_blocked(square, colour)
        if refusal is not None:
            return refusal
        return _refuse("no-fit", f"{square_name(square, self.n)}: no piece fits here")

    # ----- playing
    def play(self, move: Any, player: str | None = None) -> WytheState:
        if type(move) is Placement and self.passes < 2 and (player is None or player == self.mover):
            info = self.rules.info.get(move)
            if info is not None:
                bits = self._masks
                if bits is None:
                    bits = self.legal_bits()
                if bits >> info[0] & 1:
                    return self._place(info)
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
        return self._place(self.rules.info[move])

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
    def move_name(self, move: Any) -> str:
        if move in (PASS, SWAP):
            return str(move)
        n = self.n
        if isinstance(move, tuple) and len(move) == 2:
            b, w = move
            if all(isinstance(x, int) and 0 <= x < n * n for x in (b, w)):
                return f"{square_name(b, n)}-{square_name(w, n)}"
        raise ValueError(f"{move!r}: not a move")

    def public_name(self, move: Any) -> str:
        return self.move_name(move)

    def parse_move(self, text: str) -> Any:
        return parse_move(text, self.n)

    def __repr__(self) -> str:
        return (
            f"WytheState(n={self.n}, to_move={self.turn}, ply={self._ply}, "
            f"pieces={len(self.pieces)}, passes={self.passes}, swapped={self.swapped})"
        )


def parse_move(text: str, n: int = 8) -> Any:
    """'d4-d5' (black half on d4, white half on d5), 'pass' or 'swap'; ValueError otherwise."""
    word = text.strip().lower()
    if word in (PASS, SWAP):
        return word
    first, sep, second = word.partition("-")
    if not sep or not first or not second:
        shown = text.strip() or "?"
        raise ValueError(f"{shown}: write black-white, e.g. d4-d5")
    return Placement(parse_square(first, n), parse_square(second, n))


@cache
def _orthogonal(n: int) -> tuple[frozenset[int], ...]:
    from ...core.squares import orthogonal_neighbours

    return tuple(frozenset(orthogonal_neighbours(s, n)) for s in range(n * n))


def new_game(**options: Any) -> WytheState:
    return WytheState.start(options)


# ---------------------------------------------------------------------------------------------
# Outcome

_NUMBER_WORDS = (
    "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)  # fmt: skip


def count_word(k: int) -> str:
    return _NUMBER_WORDS[k] if 0 <= k < len(_NUMBER_WORDS) else str(k)


def reason_line(sc: Score) -> str:
    """Why the leader leads, short enough for two OLED lines, e.g.
    'Black 5: three groups of 5 to two', '0-0: White placed last'."""
    if sc.leader is None:
        return "no piece placed yet"
    if sc.reason == "last-mover":
        return f"0-0: {other(sc.leader).capitalize()} placed last"
    s = sc.of(sc.leader)
    mine = sc.groups(sc.leader).get(s, 0)
    theirs = sc.groups(other(sc.leader)).get(s, 0)
    noun = "group" if mine == 1 else "groups"
    return f"{sc.leader.capitalize()} {s}: {count_word(mine)} {noun} of {s} to {count_word(theirs)}"


def result_reason(sc: Score) -> str:
    """Why the leader wins, without the scores (the summary has them), for the OLED's result
    line: 'three groups of 5 to two', 'White placed last' (the 0-0 rule)."""
    if sc.leader is None:
        return ""
    if sc.reason == "last-mover":
        return f"{other(sc.leader).capitalize()} placed last"
    return reason_line(sc).split(": ", 1)[1]


def build_outcome(state: WytheState) -> Outcome:
    """The result with its explanation (also for an unfinished game: who leads now).

    ``summary`` is one short line ('BLACK wins 5-3'); ``detail`` (JSON-able) holds the winners
    as a list (protocol v2's ``winners``), both scores and group tables, what decided it and
    the reason line for the OLED ('Black 5: three groups of 5 to two')."""
    sc = state.score()
    winner = sc.leader
    summary = "no result" if winner is None else f"{winner.upper()} wins {sc.black}-{sc.white}"
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


__all__ = [
    "BLACK",
    "MAX_HEIGHT",
    "OPTIONS",
    "PASS",
    "PLAYERS",
    "SWAP",
    "WHITE",
    "Piece",
    "Placement",
    "Rules",
    "Score",
    "WytheState",
    "build_outcome",
    "count_word",
    "group_sizes",
    "group_table",
    "new_game",
    "other",
    "parse_move",
    "reason_line",
    "result_reason",
    "resolve",
    "rules",
    "score_masks",
    "scores_of",
]
