"""Binaryon[8] rules engine: lines, legal moves, scoring, and the game state. Pure, no I/O.

Boards are bitboards (Python ints): bit i is square i (a1 = 0, index = rank * n + file), a set
bit is a white piece. Black is 'x', white 'o'. ON's 1s are white pieces, OFF's 1s are black;
ON turns black pieces white, OFF turns white pieces black.

Lines (see /work/shared/rules/binaryon.md): a line is n squares, each a king step from the last
in a fixed direction. Rows and columns never reflect, so they are whole rows and columns.
Diagonals reflect off an edge (the component perpendicular to that edge is reversed); a step
that would leave across two edges at once (out of a corner) ends the line: no line continues
through it. Each reading direction is a separate line, so every line's reverse is also listed.
The move rule always uses every line; the options ``scoring`` and ``through`` only choose which
lines are read for the score.

The in-line rule has an option ``reach``: ``line`` (share one of those lines) or ``ray`` (any
square an unbounded ray from the last square hits, diagonals reflecting, stopping at a corner
or when the ray repeats). Both give the same squares on every size: a reflecting diagonal that
meets a corner is a long diagonal (itself a line); any other repeats with period 2(n-1), and
the n-square windows containing a square cover 2n-1 consecutive steps, i.e. the whole orbit.
The option is kept because the rules name it; a test holds the two equal.

A line never visits a square twice, on any board size. Unfold the reflections: each coordinate
walks a triangle wave of period 2(n-1), and a coordinate repeats within n-1 steps only by
mirroring around an edge halfway between the two visits. A repeated *square* needs both
coordinates to mirror at the same step, i.e. the line would pass through a corner and carry on,
which the corner rule forbids (a corner is always entered heading out of both edges). The
generator still checks this, so a line is always n distinct squares.

Performance: tables are built once per (size, options) and cached. Scoring ORs per-byte lookup
tables into one big int holding every line's number in its own 8- or 16-bit field, so the
numbers of all lines come out of one ``int.to_bytes``. Legal moves count neighbours with a
bit-sliced carry-save adder over eight shifted bitboards.
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Final

from companion.core.squares import parse_square, square_name
from companion.games.base import GameState, IllegalMove, Option, Outcome, Refusal, resolve_options

PASS: Final = "pass"
PLAYERS: Final = ("on", "off")
BLACK, WHITE = "x", "o"

_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# East, north, west, south, then the diagonals: the order lines are generated in.
_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0), *_DIAGONALS)


def _check_through(value: str) -> str | None:
    if value == "":
        return None
    try:
        parse_square(value, 16)
    except ValueError as exc:
        return str(exc)
    return None


def _check_size(value: int) -> str | None:
    return None if value % 2 == 0 else f"{value} is odd, the board size must be even"


OPTIONS: Final = (
    Option("first", "on", "who moves first", choices=("on", "off")),
    Option(
        "opening",
        "free",
        "first move: free (any opposing piece) or majority (neighbour rule applies)",
        choices=("free", "majority"),
    ),
    Option(
        "reach",
        "line",
        "in-line rule: line (share an n-square line) or ray (any square an unbounded ray hits)",
        choices=("line", "ray"),
    ),
    Option("size", 8, "board size n (even)", kind=int, minimum=4, maximum=16, check=_check_size),
    Option(
        "scoring",
        "all",
        "lines that score: all, or orthogonal (rows and columns only)",
        choices=("all", "orthogonal"),
    ),
    Option("through", "", "score only lines through this square ('' = any)", check=_check_through),
)


def resolve(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults overlaid with ``given``, validated (``through`` must be on the board)."""
    out = resolve_options(OPTIONS, dict(given or {}))
    if out["through"]:
        try:
            out["through"] = square_name(parse_square(out["through"], out["size"]), out["size"])
        except ValueError as exc:
            raise ValueError(f"through: {exc}") from None
    return out


# ---------------------------------------------------------------------------------------------
# Lines


def _step(n: int, r: int, f: int, dr: int, df: int) -> tuple[int, int, int, int] | None:
    """One king step heading (dr, df), reflecting off an edge at equal angles; None where the
    line cannot go on (out of a corner, or a row/column meeting an edge: straight angles)."""
    nr, nf = r + dr, f + df
    out_r, out_f = not 0 <= nr < n, not 0 <= nf < n
    if (out_r and out_f) or ((out_r or out_f) and (dr == 0 or df == 0)):
        return None
    if out_r:
        dr = -dr
        nr = r + dr
    if out_f:
        df = -df
        nf = f + df
    return nr, nf, dr, df


def _walk(n: int, start: int, dr: int, df: int) -> tuple[int, ...] | None:
    """The n-square line from ``start`` heading (dr, df), or None if there is none."""
    r, f = divmod(start, n)
    out = [start]
    for _ in range(n - 1):
        nxt = _step(n, r, f, dr, df)
        if nxt is None:
            return None
        r, f, dr, df = nxt
        out.append(r * n + f)
    if len(set(out)) != n:  # cannot happen (see the module docstring); kept as a guard
        return None
    return tuple(out)


@cache
def _lines(n: int) -> tuple[tuple[int, ...], ...]:
    seen: dict[tuple[int, ...], None] = {}
    for start in range(n * n):
        for dr, df in _DIRECTIONS:
            line = _walk(n, start, dr, df)
            if line is not None:
                seen.setdefault(line, None)
    return tuple(seen)


def _is_orthogonal(line: Sequence[int], n: int) -> bool:
    a, b = line[0], line[1]
    return a // n == b // n or a % n == b % n


@cache
def _scoring_lines(n: int, scoring: str, through: str) -> tuple[tuple[int, ...], ...]:
    lines = _lines(n)
    if scoring == "orthogonal":
        lines = tuple(ln for ln in lines if _is_orthogonal(ln, n))
    if through:
        sq = parse_square(through, n)
        lines = tuple(ln for ln in lines if sq in ln)
    return lines


def all_lines(n: int, options: Mapping[str, Any] | None = None) -> list[tuple[int, ...]]:
    """Every line of the n x n board that counts for scoring under ``options`` (default: all).

    Order: by first square (index), then by first direction east, north, west, south, NE, NW,
    SE, SW. The best-line tie rule ("the first line listed") refers to this order.
    """
    opts = resolve({**(options or {}), "size": n})
    return list(_scoring_lines(n, opts["scoring"], opts["through"]))


def _ray_reach(n: int, start: int) -> int:
    """Squares an unbounded ray from ``start`` hits (rays reflect; stop at a corner or repeat)."""
    mask = 0
    r0, f0 = divmod(start, n)
    for dr0, df0 in _DIRECTIONS:
        r, f, dr, df = r0, f0, dr0, df0
        seen = {(r, f, dr, df)}
        while (nxt := _step(n, r, f, dr, df)) is not None and nxt not in seen:
            r, f, dr, df = nxt
            seen.add((r, f, dr, df))
            mask |= 1 << (r * n + f)
    return mask & ~(1 << start)


# ---------------------------------------------------------------------------------------------
# Tables


class Rules:
    """Precomputed tables for one (size, options); get one with ``rules(options)``."""

    def __init__(self, opts: dict[str, Any]):
        n = opts["size"]
        self.options = opts
        self.n = n
        self.first = opts["first"]
        self.opening_majority = opts["opening"] == "majority"
        self.full = (1 << (n * n)) - 1
        file_a = sum(1 << (r * n) for r in range(n))
        file_h = file_a << (n - 1)
        self.not_a = self.full & ~file_a
        self.not_h = self.full & ~file_h
        rank_1 = (1 << n) - 1
        rank_n = rank_1 << (n * (n - 1))
        border = file_a | file_h | rank_1 | rank_n
        self.corners = 1 | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (n * n - 1))
        self.edges = border & ~self.corners
        self.interior = self.full & ~border
        self.lines = _lines(n)
        if opts["reach"] == "ray":
            self.reach = tuple(_ray_reach(n, s) for s in range(n * n))
        else:
            reach = [0] * (n * n)
            for line in self.lines:
                m = 0
                for s in line:
                    m |= 1 << s
                for s in line:
                    reach[s] |= m
            self.reach = tuple(m & ~(1 << s) for s, m in enumerate(reach))
        self._build_scoring(_scoring_lines(n, opts["scoring"], opts["through"]))

    def _build_scoring(self, lines: tuple[tuple[int, ...], ...]) -> None:
        n = self.n
        self.score_lines = lines
        self.width = width = 8 if n <= 8 else 16
        self.top = (1 << n) - 1
        self.nbytes = len(lines) * width // 8
        masks = [0] * (n * n)
        for j, line in enumerate(lines):
            for k, s in enumerate(line):
                masks[s] |= 1 << (j * width + n - 1 - k)
        # Per chunk of `cb` squares, the OR of the masks for every subset of those squares.
        cb = 8 if n <= 10 else 4
        self.chunk_bits = cb
        tables = []
        for base in range(0, n * n, cb):
            size = min(cb, n * n - base)
            table = [0] * (1 << size)
            for v in range(1, 1 << size):
                low = v & -v
                table[v] = table[v ^ low] | masks[base + low.bit_length() - 1]
            tables.append((base, (1 << size) - 1, table))
        self.tables = tuple(tables)

    def numbers(self, white: int) -> Sequence[int]:
        """ON's number on every scoring line, in line order (OFF's is top - that)."""
        acc = 0
        for base, chunk_mask, table in self.tables:
            acc |= table[(white >> base) & chunk_mask]
        raw = acc.to_bytes(self.nbytes, "little")
        if self.width == 8:
            return raw
        nums = array("H")
        nums.frombytes(raw)
        if sys.byteorder == "big":
            nums.byteswap()
        return nums

    def neighbour_counts(self, x: int) -> tuple[int, int, int, int]:
        """Bit slices (1s, 2s, 4s, 8s) of the number of each square's neighbours in ``x``."""
        n, full, not_a, not_h = self.n, self.full, self.not_a, self.not_h
        i1 = x >> n
        i2 = (x << n) & full
        i3 = (x >> 1) & not_h
        i4 = (x << 1) & not_a
        i5 = (x >> (n + 1)) & not_h
        i6 = (x >> (n - 1)) & not_a
        i7 = (x << (n - 1)) & not_h
        i8 = (x << (n + 1)) & not_a
        # carry-save adder tree
        t = i1 ^ i2
        s1, c1 = t ^ i3, (i1 & i2) | (i3 & t)
        t = i4 ^ i5
        s2, c2 = t ^ i6, (i4 & i5) | (i6 & t)
        t = s1 ^ s2
        s3, c3 = t ^ i7, (s1 & s2) | (i7 & t)
        b0, c4 = s3 ^ i8, s3 & i8
        t = c1 ^ c2
        s5, c5 = t ^ c3, (c1 & c2) | (c3 & t)
        b1, c6 = s5 ^ c4, s5 & c4
        return b0, b1, c5 ^ c6, c5 & c6

    def majority(self, x: int) -> int:
        """Squares with strictly more neighbours in ``x`` than outside it."""
        b0, b1, b2, b3 = self.neighbour_counts(x)
        ge2 = b1 | b2 | b3
        ge3 = (b0 & b1) | b2 | b3
        ge5 = (b2 & (b0 | b1)) | b3
        return (self.interior & ge5) | (self.edges & ge3) | (self.corners & ge2)

    def legal(self, white: int, mover: str, last: int | None) -> int:
        """Bitboard of the squares ``mover`` may turn (``last`` None = the opening move)."""
        x = self.full ^ white if mover == "on" else white
        if last is None:
            return x & self.majority(x) if self.opening_majority else x
        return x & self.reach[last] & self.majority(x)


@lru_cache(maxsize=32)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(dict(key))


def rules(options: Mapping[str, Any] | None = None) -> Rules:
    """The cached tables for ``options`` (missing options take their defaults)."""
    opts = resolve(options)
    return _rules_cached(tuple(sorted(opts.items())))


# ---------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True, slots=True)
class Score:
    """A scored board. Best lines are square indices in reading order.

    When several lines give a player's best number, the first in ``all_lines`` order is named.
    ``winner`` is 'on', 'off', or None for a draw.
    """

    n: int
    on_best: int
    off_best: int
    on_line: tuple[int, ...]
    off_line: tuple[int, ...]
    winner: str | None
    lines: tuple[tuple[int, ...], ...] = field(repr=False)
    on_numbers: Sequence[int] = field(repr=False)

    @property
    def tied(self) -> bool:
        return self.on_best == self.off_best

    def bits(self, value: int) -> str:
        return format(value, f"0{self.n}b")

    def remaining(self) -> dict[str, tuple[int, tuple[int, ...]]] | None:
        """After cancelling identical numbers: each player's largest remaining number and a
        line giving it. None unless the best numbers tied and something remains."""
        if not self.tied:
            return None
        top = (1 << self.n) - 1
        on = Counter(self.on_numbers)
        off = Counter(top - v for v in self.on_numbers)
        on_left, off_left = on - off, off - on
        if not on_left:
            return None
        on_v, off_v = max(on_left), max(off_left)
        nums = list(self.on_numbers)
        return {
            "on": (on_v, self.lines[nums.index(on_v)]),
            "off": (off_v, self.lines[nums.index(top - off_v)]),
        }


def score_bitboard(white: int, r: Rules) -> Score:
    """Score a full board given as the bitboard of its white pieces."""
    nums = r.numbers(white)
    top = r.top
    on_best = max(nums)
    low = min(nums)
    off_best = top - low
    lines = r.score_lines
    if on_best > off_best:
        winner: str | None = "on"
    elif off_best > on_best:
        winner = "off"
    else:
        # Cancel identical numbers one for one; the larger largest-remaining wins. Comparing
        # both collections sorted largest first, position by position, decides the same way.
        on_desc = sorted(nums, reverse=True)
        off_desc = [top - v for v in reversed(on_desc)]
        winner = "on" if on_desc > off_desc else "off" if off_desc > on_desc else None
    return Score(
        r.n, on_best, off_best, lines[nums.index(on_best)], lines[nums.index(low)], winner,
        lines, nums,
    )  # fmt: skip


def cells_to_white(cells: Sequence[str], n: int) -> int:
    """Bitboard of white pieces; ValueError naming the first square that is not x or o."""
    if len(cells) != n * n:
        raise ValueError(f"expected {n * n} squares, got {len(cells)}")
    white = 0
    for i, c in enumerate(cells):
        if c == WHITE:
            white |= 1 << i
        elif c != BLACK:
            what = "empty" if c == "." else f"{c!r} is not x or o"
            raise ValueError(f"{square_name(i, n)}: {what} (every Binaryon square holds a piece)")
    return white


def white_to_cells(white: int, n: int) -> list[str]:
    return [WHITE if white >> i & 1 else BLACK for i in range(n * n)]


def score_cells(cells: Sequence[str], n: int, options: Mapping[str, Any] | None = None) -> Score:
    """Score a position given as cells ('x'/'o', index a1 = 0)."""
    r = rules({**(options or {}), "size": n})
    return score_bitboard(cells_to_white(cells, n), r)


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
    return bits_of(r.legal(cells_to_white(cells, n), mover, last))


def bits_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def same_colour_pairs(white: int, n: int) -> int:
    """Number of king-adjacent pairs of squares holding the same colour."""
    r = rules({"size": n})
    total = 0
    for x in (white, r.full ^ white):
        b0, b1, b2, b3 = r.neighbour_counts(x)
        total += (
            (b0 & x).bit_count()
            + 2 * (b1 & x).bit_count()
            + 4 * (b2 & x).bit_count()
            + 8 * (b3 & x).bit_count()
        )
    return total // 2


# ---------------------------------------------------------------------------------------------
# Game state


def _colour_word(mover: str) -> str:
    """The colour of the pieces ``mover`` turns."""
    return "black" if mover == "on" else "white"


class BinaryonState(GameState):
    """One Binaryon position: white bitboard, player to move, last square turned, passes."""

    game = "binaryon"
    players = PLAYERS
    __slots__ = ("white", "n", "mover", "last", "passes", "_ply", "rules", "_score", "_legal")

    def __init__(
        self,
        white: int,
        r: Rules,
        mover: str,
        last: int | None = None,
        passes: int = 0,
        ply: int = 0,
    ):
        self.white = white
        self.rules = r
        self.n = r.n
        self.mover = mover
        self.last = last
        self.passes = passes
        self._ply = ply
        self._score: Score | None = None
        self._legal: int | None = None

    @classmethod
    def start(cls, options: Mapping[str, Any] | None = None) -> BinaryonState:
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

    def is_over(self) -> bool:
        return self.passes >= 2

    def cells(self) -> list[str]:
        return white_to_cells(self.white, self.n)

    def legal_mask(self) -> int:
        if self._legal is None:
            self._legal = (
                0 if self.is_over() else self.rules.legal(self.white, self.mover, self.last)
            )
        return self._legal

    def legal_moves(self, player: str | None = None) -> list[Any]:
        if self.is_over() or (player is not None and player != self.mover):
            return []
        mask = self.legal_mask()
        return bits_of(mask) if mask else [PASS]

    def forced_move(self) -> Any:
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
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < n * n:
            return Refusal("not-a-square", f"{move!r}: not a square")
        name = square_name(move, n)
        if self.legal_mask() >> move & 1:
            return None
        colour = _colour_word(self.mover)
        is_white = self.white >> move & 1
        if bool(is_white) == (self.mover == "on"):  # ON turns black (0), OFF white (1)
            return Refusal("wrong-colour", f"{name}: already {'white' if is_white else 'black'}")
        last = self.last
        if last is not None:
            if move == last:
                return Refusal("same-square", f"{name}: same square as last")
            if not self.rules.reach[last] >> move & 1:
                return Refusal("not-in-line", f"{name}: not in line with {square_name(last, n)}")
        # Only the neighbour majority is left to fail.
        nbrs = _neighbour_list(n)[move]
        same = sum(1 for s in nbrs if (self.white >> s & 1) == is_white)
        need = len(nbrs) // 2 + 1
        return Refusal("no-majority", f"{name}: needs {need} {colour} nbrs, has {same}")

    def play(self, move: Any, player: str | None = None) -> BinaryonState:
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        other = "off" if self.mover == "on" else "on"
        if move == PASS:
            return BinaryonState(
                self.white, self.rules, other, self.last, self.passes + 1, self._ply + 1
            )
        return BinaryonState(self.white ^ (1 << move), self.rules, other, move, 0, self._ply + 1)

    def score(self) -> Score:
        if self._score is None:
            self._score = score_bitboard(self.white, self.rules)
        return self._score

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        sc = self.score()
        summary = "draw" if sc.winner is None else f"{sc.winner.upper()} wins"
        return Outcome(sc.winner, summary, score_detail(sc), reason=tie_reason(sc))

    def move_name(self, move: Any) -> str:
        if move == PASS:
            return PASS
        return square_name(move, self.n)

    def parse_move(self, text: str) -> Any:
        if text.strip().lower() == PASS:
            return PASS
        return parse_square(text, self.n)

    def __repr__(self) -> str:
        last = "-" if self.last is None else square_name(self.last, self.n)
        return (
            f"BinaryonState(n={self.n}, to_move={self.mover}, last={last}, "
            f"passes={self.passes}, ply={self._ply})"
        )


def tie_reason(sc: Score) -> str:
    """Why a tie of best numbers was decided, in one line, e.g. 'tie at 11110000: equal
    numbers cancel; ON's next is higher' ('' when the best numbers differ)."""
    if not sc.tied:
        return ""
    at = f"tie at {sc.bits(sc.on_best)}"
    if sc.winner is None:
        return f"{at}: every number cancels"
    return f"{at}: equal numbers cancel; {sc.winner.upper()}'s next is higher"


@cache
def _neighbour_list(n: int) -> tuple[tuple[int, ...], ...]:
    from companion.core.squares import neighbours

    return tuple(tuple(neighbours(s, n)) for s in range(n * n))


def line_names(line: Iterable[int], n: int) -> list[str]:
    return [square_name(s, n) for s in line]


def score_detail(sc: Score) -> dict[str, Any]:
    """JSON-able explanation: each player's best number and line, the winner, the tie-break."""
    n = sc.n
    detail: dict[str, Any] = {
        "on": {"best": sc.bits(sc.on_best), "line": line_names(sc.on_line, n)},
        "off": {"best": sc.bits(sc.off_best), "line": line_names(sc.off_line, n)},
        "winner": sc.winner or "draw",
    }
    rem = sc.remaining()
    if rem is not None:
        detail["tiebreak"] = {
            p: {"best": sc.bits(v), "line": line_names(line, n)} for p, (v, line) in rem.items()
        }
    return detail


def new_game(**options: Any) -> BinaryonState:
    return BinaryonState.start(options)
