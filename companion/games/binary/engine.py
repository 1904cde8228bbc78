"""Binary (Kanare Kato, from "10 Binary 10"): a territory game on a checkerboard.

Pure rules, no I/O. See docs/rules/binary.md for the rules as enforced. Summary:

- n x n checkerboard (n even, 4..16), a1 dark. Black belongs with dark squares, White with
  light ones. Each player holds n*n/4 pieces. The centre space is the central 2x2 block.
- Black opens with one piece on a dark square outside the centre. Then, from White on, a turn
  is one or two pieces on own-colour squares, or one piece on an other-colour square.
  An own-colour centre square is the only piece of its turn; an other-colour centre square
  costs one extra piece from the hand (discarded), so needs a spare one.
- Moves: a ``Place`` (a piece on a square, ``d4``), ``END`` (``end``: stop after one
  own-colour piece) and ``PASS`` (``pass``: a player with pieces but nowhere to put one,
  option ``stuck='pass'``). A turn ends by
  itself as soon as no further piece may be added, so the state always knows who is to act.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, ClassVar

from companion.core.squares import square_name
from companion.games.base import (
    GameState,
    IllegalMove,
    Outcome,
    Place,
    Refusal,
    Word,
    parse_place,
    places,
    resolve_options,
)
from companion.games.binary.board import (
    BLACK,
    EMPTY,
    PIECE,
    PLAYERS,
    WHITE,
    centre_squares,
    other,
    square_owner,
)
from companion.games.binary.options import OPTIONS
from companion.games.binary.territories import (  # score_cells: importable from here too
    compare,
    deciding,
    score_cells,  # noqa: F401
    scores,
)

END, PASS = Word("end"), Word("pass")
BinaryMove = Place | Word


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class BinaryState(GameState):
    """One position. ``hands``/``discarded`` are (black, white); ``placed`` lists the squares
    placed so far in the turn in progress; ``mover`` is None once the game is over."""

    game: ClassVar[str] = "binary"
    players: ClassVar[tuple[str, ...]] = PLAYERS

    n: int
    cells: tuple[str, ...]
    hands: tuple[int, int]
    discarded: tuple[int, int] = (0, 0)
    mover: str | None = BLACK
    placed: tuple[int, ...] = ()
    plies: int = 0
    passes: int = 0
    opening: bool = True  # Black's first turn (one dark square outside the centre) to come
    empty_joins: bool = True
    stuck: str = "pass"
    end_reason: str = ""

    # ----- protocol basics
    @property
    def turn(self) -> str | None:
        return self.mover

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def options(self) -> dict[str, Any]:
        return {"size": self.n, "empty_joins": self.empty_joins, "stuck": self.stuck}

    def hand(self, player: str) -> int:
        return self.hands[PLAYERS.index(player)]

    def is_over(self) -> bool:
        return self.mover is None

    @property
    def centre(self) -> frozenset[int]:
        return centre_squares(self.n)

    # ----- legality
    def _empties(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c == EMPTY]

    def _first_ok(self, player: str, sq: int) -> bool:
        """May ``player`` (holding pieces) put a first piece of a turn on empty ``sq``?"""
        other_centre = sq in self.centre and square_owner(sq, self.n) != player
        return not (other_centre and self.hand(player) < 2)

    def _second_ok(self, player: str, sq: int) -> bool:
        return square_owner(sq, self.n) == player and sq not in self.centre

    def _can_place(self, player: str) -> bool:
        return self.hand(player) > 0 and any(self._first_ok(player, i) for i in self._empties())

    def legal_moves(self, player: str | None = None) -> list[BinaryMove]:
        p = self.mover
        if p is None or (player is not None and player != p):
            return []
        empties = self._empties()
        cells = places(self.n)
        if self.opening or self.placed:
            moves: list[BinaryMove] = [cells[i] for i in empties if self._second_ok(p, i)]
            return moves + [END] if self.placed else moves
        moves = [cells[i] for i in empties if self._first_ok(p, i)]
        return moves or [PASS]

    def check(self, move: BinaryMove, player: str | None = None) -> Refusal | None:
        if self.mover is None:
            return Refusal("game-over", "game is over")
        if (refusal := self.own_turn(player)) is not None:
            return refusal
        if move == END:
            if len(self.placed) == 1:
                return None
            return Refusal("end-too-early", "end: place a piece first")
        if move == PASS:
            if self.placed or self._can_place(self.mover):
                return Refusal("pass-not-allowed", "no pass: a piece fits")
            return None
        if type(move) is not Place or move.size != self.n:
            return Refusal("not-a-square", f"{move!r}: not a square")
        return self._placement_refusal(move.cell)

    def _placement_refusal(self, sq: int) -> Refusal | None:
        p, name = self.mover, square_name(sq, self.n)
        assert p is not None
        if self.cells[sq] != EMPTY:
            return Refusal("occupied", f"{name}: occupied")
        if self.hand(p) == 0:  # unreachable in play: turns pass on an empty hand
            return Refusal("no-pieces", f"{name}: no pieces left")
        own, centre = square_owner(sq, self.n) == p, sq in self.centre
        if self.opening:
            if centre:
                return Refusal("first-centre", f"{name}: first piece may not go in the centre")
            if not own:
                return Refusal("first-dark", f"{name}: the first piece goes on a dark square")
            return None
        if self.placed:
            if not own:
                return Refusal("second-colour", f"{name}: 2nd piece must be own colour")
            if centre:
                return Refusal("centre-alone", f"{name}: a centre piece must be alone")
            return None
        if centre and not own and self.hand(p) < 2:
            return Refusal("no-spare", f"{name}: need 1 spare piece to discard")
        return None

    # ----- playing
    def play(self, move: BinaryMove, player: str | None = None) -> BinaryState:
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        p = self.mover
        assert p is not None
        if move == END:
            return replace(self, plies=self.plies + 1)._hand_over(p)
        if move == PASS:
            return replace(self, plies=self.plies + 1, passes=self.passes + 1)._hand_over(p)
        assert isinstance(move, Place)
        sq = move.cell
        k = PLAYERS.index(p)
        own, centre = square_owner(sq, self.n) == p, sq in self.centre
        cost = 2 if centre and not own else 1
        cells = list(self.cells)
        cells[sq] = PIECE[p]
        hands = list(self.hands)
        hands[k] -= cost
        discarded = list(self.discarded)
        discarded[k] += cost - 1
        after = replace(
            self,
            cells=tuple(cells),
            hands=(hands[0], hands[1]),
            discarded=(discarded[0], discarded[1]),
            placed=self.placed + (sq,),
            plies=self.plies + 1,
        )
        more = (
            not self.opening
            and not self.placed
            and own
            and not centre
            and after.hand(p) > 0
            and any(after._second_ok(p, i) for i in after._empties())
        )
        return after if more else after._hand_over(p)

    def _hand_over(self, previous: str) -> BinaryState:
        """Start the next turn: the opponent if they hold pieces, else the same player."""
        holders = [q for q in (other(previous), previous) if self.hand(q) > 0]
        base = replace(self, placed=(), opening=False)
        if not holders:
            return replace(base, mover=None, end_reason="all pieces placed")
        nxt = holders[0]
        if self._can_place(nxt):
            return replace(base, mover=nxt)
        if self.stuck == "end":
            return replace(base, mover=None, end_reason=f"{nxt} cannot place")
        if not any(self._can_place(q) for q in holders):
            return replace(base, mover=None, end_reason="no one can place")
        return replace(base, mover=nxt)  # nxt must pass

    def forced_move(self) -> BinaryMove | None:
        return PASS if self.legal_moves() == [PASS] else None

    # ----- result
    def score(self) -> dict[str, dict[str, Any]]:
        return scores(self.cells, self.n, self.empty_joins)

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        result = self.score()
        b, w = result[BLACK], result[WHITE]
        winner, tie_break = compare(b["territories"], w["territories"], (b["score"], w["score"]))
        scores = f"{b['score']}-{w['score']}"
        if winner == WHITE:  # the winner's score first: "WHITE wins 38-34"
            scores = f"{w['score']}-{b['score']}"
        if winner is None:
            summary = f"draw {scores}"
        elif tie_break:  # say why, in two OLED lines: "BLACK wins 15-15:" "largest territory 6>5"
            summary = f"{winner.upper()} wins {scores}: {deciding(tie_break)}"
        else:
            summary = f"{winner.upper()} wins {scores}"
        name = square_names(self.n).__getitem__
        detail = {
            "scores": {BLACK: b["score"], WHITE: w["score"]},
            "territories": {BLACK: b["territories"], WHITE: w["territories"]},
            "squares": {
                BLACK: [list(map(name, t)) for t in b["squares"]],
                WHITE: [list(map(name, t)) for t in w["squares"]],
            },
            "decided_by": "score" if tie_break is None else ("tie-break" if winner else "draw"),
            "tie_break": tie_break,
            "end_reason": self.end_reason,
            "discarded": {BLACK: self.discarded[0], WHITE: self.discarded[1]},
        }
        return Outcome((winner,) if winner else (), summary, detail)

    # ----- notation
    def parse_move(self, text: str) -> BinaryMove:
        word = text.strip().lower()
        if word == END.name:
            return END
        if word == PASS.name:
            return PASS
        return parse_place(word, self.n)

    # ----- construction
    @classmethod
    def from_position(
        cls,
        cells: Sequence[str],
        n: int,
        mover: str = BLACK,
        hands: tuple[int, int] | None = None,
        **options: Any,
    ) -> BinaryState:
        """A state in the middle of a game, at the start of ``mover``'s turn (for analysis and
        tests). Hands default to n*n/4 minus the pieces on the board."""
        opts = resolve_options(OPTIONS, {"size": n, **options})
        if len(cells) != n * n or any(c not in "xo." for c in cells):
            raise ValueError(f"expected {n * n} cells of x, o or .")
        if mover not in PLAYERS:
            raise ValueError(f"unknown player {mover!r}")
        if hands is None:
            per = n * n // 4
            hands = (per - list(cells).count("x"), per - list(cells).count("o"))
        if min(hands) < 0:
            raise ValueError("more pieces on the board than a player holds")
        state = cls(
            n=n,
            cells=tuple(cells),
            hands=hands,
            mover=mover,
            opening=False,
            empty_joins=opts["empty_joins"],
            stuck=opts["stuck"],
        )
        # Settle whose turn it really is, as if the other player had just finished.
        return state._hand_over(other(mover))


@cache
def square_names(n: int) -> tuple[str, ...]:
    """Every square's name ('a1', 'b1', ...), in index order."""
    return tuple(square_name(i, n) for i in range(n * n))


def new_game(**options: Any) -> BinaryState:
    """A new game; options as in OPTIONS (validated, ValueError naming the option)."""
    opts = resolve_options(OPTIONS, options)
    n = opts["size"]
    per = n * n // 4
    return BinaryState(
        n=n,
        cells=(EMPTY,) * (n * n),
        hands=(per, per),
        empty_joins=opts["empty_joins"],
        stuck=opts["stuck"],
    )
