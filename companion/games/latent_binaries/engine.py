"""Latent Binaries rules engine: hidden setups, nest moves, the win check, challenges and goal
markers. Pure, no I/O. The rules as enforced are in docs/rules/latent-binaries.md.

A game runs through phases; the state always says which one is pending, so the referee knows
what to ask for:

- ``setup``: both players act at once (``to_act`` holds both), one secret ``setup`` move per
  nest, until every nest hides two pawns;
- then each turn: ``move`` (one nest one square, or ``pass`` when none can move; the win check
  follows at once), ``challenge`` (guesses on one opponent nest in sight; skipped when no guess
  is possible), ``marker`` (one goal marker jumps the other), and the other player's ``move``;
- ``over``: a winning line, or a player lost their last nest.

The state holds the secrets (each nest's top and bottom colour); ``views.py`` says what each
player may see. ``SPEC.replay(names, **options)`` rebuilds any game from its move names.

For a game across two boards, ``masked(seat)`` gives the state as one player's board holds it:
the other player's hidden pawns unknown, learned only as the game shows them (``masked.py``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from ..base import GameState, IllegalMove, Outcome, Refusal
from . import masked as masking
from .board import base_squares, marker_jumps, step_moves, winning_line
from .facts import (
    RIGHT,
    STASH,
    WRONG,
    Fact,
    heard,
    waiting_reason,
)
from .geometry import (
    HEIGHT,
    mask_of,
    sees,
    square_name,
    squares_of,
)
from .moves import (
    END,
    PASS,
    Challenge,
    LatentMove,
    Marker,
    Order,
    PublicSetup,
    Setup,
    Step,
    parse_move,
    public_name,
)
from .nest import UNKNOWN, Nest
from .options import PLAYERS, Rules, other, rules
from .phases import CHALLENGE, MARKER, MOVE, OVER, PROMPTS, SETUP, phase_of
from .refusals import guess_refusal, marker_refusal, setup_refusal, step_refusal

GAME: Final = "latent-binaries"


def make_outcome(
    winners: tuple[str, ...], summary: str, reason: str, detail: dict[str, Any]
) -> Outcome:
    """The result (protocol v2: several winners possible, a reason that fits the OLED)."""
    return Outcome(winners=winners, summary=summary, reason=reason, detail=detail)


# ------------------------------------------------------------------------------ the state


@dataclass(frozen=True, slots=True)
class LatentState(GameState):
    """One moment of a game, secrets included."""

    game: ClassVar[str] = GAME
    players: ClassVar[tuple[str, ...]] = PLAYERS  # fixed seats

    rules: Rules
    nests: tuple[Nest, ...]
    stash: tuple[tuple[int, ...], tuple[int, ...]]  # pawns by player index, then colour index
    markers: tuple[int, int]  # first file of the marker pair on rank 1 and on rank 7
    phase: str = SETUP
    mover: str | None = None
    turns: tuple[int, int] = (0, 0)  # turns begun by each player
    target: int | None = None  # the nest challenged this turn (after a right guess)
    guesses: int = 0  # guesses made this turn
    plies: int = 0
    winner: str | None = None
    end_reason: str = ""
    line: tuple[int, int] | None = None  # the winning line's ends
    answer: str = ""  # the referee's instruction after the last move (public)
    # facts this state made public from the secrets it knows (``disclosed``)
    told: tuple[Fact, ...] = ()
    # remote play (``masked``): the seat whose secrets this state knows (None: all), the
    # facts heard about the other seat (sorted), the fact awaited ("stash", "answer 17")
    # and the guess that waits for its answer
    seat: str | None = None
    heard: tuple[Fact, ...] = ()
    awaiting: str = ""
    pending: Challenge | Order | None = None

    # ----- protocol basics
    @property
    def to_act(self) -> frozenset[str]:
        if self.awaiting:
            return frozenset()
        if self.phase == SETUP:
            return frozenset(p for p in PLAYERS if not all(n.is_set for n in self.nests_of(p)))
        if self.phase == OVER or self.mover is None:
            return frozenset()
        return frozenset({self.mover})

    @property
    def turn(self) -> str | None:
        acting = self.to_act
        return next(iter(acting)) if len(acting) == 1 else None

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options)

    def is_over(self) -> bool:
        return self.phase == OVER

    def chance(self) -> None:
        """Latent Binaries has no random step."""
        return None

    # ----- remote play (masked.py: functions over this state)
    def masked(self, seat: str) -> LatentState:
        return masking.masked_for_seat(self, seat)

    @property
    def masked_for(self) -> str | None:
        return self.seat

    @property
    def waiting(self) -> frozenset[str]:
        return masking.waiting(self)

    def disclosed(self, seat: str) -> dict[str, Any]:
        return masking.disclosed(self, seat)

    def learn(self, seat: str, facts: Mapping[str, Any]) -> LatentState:
        return masking.learn(self, seat, facts)

    # ----- legal moves
    def legal_moves(self, player: str | None = None) -> list[LatentMove]:
        acting = self.to_act
        who = [p for p in PLAYERS if p in acting and (player is None or p == player)]
        if not who:
            return []
        if self.phase == SETUP:
            return [m for p in who for m in self._setup_moves(p)]
        if self.phase == MOVE:
            steps = step_moves(self.own_mask(who[0]), self.occupied())
            return list(steps) if steps else [PASS]
        if self.phase == CHALLENGE:
            guesses = self._guesses()
            return guesses + [END] if self.guesses else guesses
        return self.marker_moves()

    def _setup_moves(self, player: str) -> list[LatentMove]:
        if self.seat not in (None, player):  # the other board's secret: by its public name
            return [PublicSetup(n.square) for n in self.nests_of(player) if not n.is_set]
        cols = self.rules.colours_of(player)
        return [
            Setup(n.square, top, bottom)
            for n in self.nests_of(player)
            if not n.is_set
            for top in cols
            for bottom in cols
            if setup_refusal(self, player, Setup(n.square, top, bottom)) is None
        ]

    def _guesses(self) -> list[LatentMove]:
        """Every guess the mover may make now (on the challenged nest once there is one)."""
        assert self.mover is not None
        stash = self.stash_of(other(self.mover))
        out: list[LatentMove] = []
        for n in self.in_sight(self.mover):
            if self.target is not None and n.square != self.target:
                continue
            if len(n.caps) == 2:
                a, b = n.caps
                out += [Order(n.square, a, b), Order(n.square, b, a)]
            else:
                out += [Challenge(n.square, c) for c, k in stash.items() if k and c not in n.caps]
        return out

    def marker_moves(self) -> list[LatentMove]:
        return [*marker_jumps(self.markers[0], 0), *marker_jumps(self.markers[1], HEIGHT - 1)]

    def actor(self, move: Any) -> str | None:
        """Who plays ``move``: a setup names its nest's owner, anything else is the mover's."""
        if isinstance(move, Setup | PublicSetup):
            return self.setup_owner(move.square)
        return self.mover

    def forced_move(self) -> LatentMove | None:
        """``pass`` when the mover has no nest that can move."""
        if self.phase == MOVE and self.legal_moves() == [PASS]:
            return PASS
        return None

    # ----- checking
    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.phase == OVER:
            return Refusal("game-over", "game over")
        if self.awaiting:
            return Refusal("remote-waiting", waiting_reason(other(self.seat or ""), self.awaiting))
        expected = phase_of(move)
        if expected is None:
            return Refusal("not-a-move", f"{move!r}"[:24] + ": not a move")
        if player is not None and player not in PLAYERS:
            return Refusal("no-player", f"{player}"[:24] + ": not a player")
        if self.phase != SETUP and player is not None and player != self.mover:
            return Refusal("not-your-turn", f"{player}: not your turn")
        if expected != self.phase:
            return Refusal("wrong-step", PROMPTS[self.phase])
        if isinstance(move, Setup | PublicSetup):
            owner = self.setup_owner(move.square)
            if owner is None:
                return Refusal("not-a-start", f"{square_name(move.square)}: not a start square")
            if player is not None and player != owner:
                return Refusal("not-yours", f"{square_name(move.square)}: not {player}'s nest")
            if isinstance(move, PublicSetup):
                return masking.public_setup_refusal(self, owner, move)
            if self.seat not in (None, owner):
                return Refusal("remote-secret", f"{owner} sets up on their board")
            return setup_refusal(self, owner, move)
        who = self.mover
        assert who is not None
        if isinstance(move, Step):
            return step_refusal(self, who, move)
        if isinstance(move, Challenge | Order):
            return guess_refusal(self, who, move)
        if isinstance(move, Marker):
            return marker_refusal(self, move)
        if move == PASS and self.legal_moves() != [PASS]:
            return Refusal("has-move", "pass: a nest can move")
        if move == END and self.guesses == 0:
            return Refusal("must-challenge", "guess first: a nest is in sight")
        return None

    def setup_owner(self, square: int) -> str | None:
        """The player whose nest starts on ``square``, or None."""
        for k, player in enumerate(PLAYERS):
            if square in self.rules.starts[k]:
                return player
        return None

    def reveals(self, move: Any) -> bool:
        """A guess is answered at once: right or wrong, the guesser learns from it."""
        return isinstance(move, Challenge | Order)

    # ----- playing
    def play(self, move: Any, player: str | None = None) -> LatentState:
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        s = replace(self, plies=self.plies + 1, answer="")
        match move:
            case Setup() | PublicSetup():
                return s._after_setup(move)
            case Step():
                return s._after_step(move)
            case Challenge() | Order():
                return masking.guessed(s, move)
            case Marker():
                return s._after_marker(move)
        if move == PASS:
            return s._win_check()
        return replace(s, phase=MARKER, answer="the challenge ends")  # END

    def _with_nest(self, old: Nest, new: Nest | None) -> tuple[Nest, ...]:
        return tuple(
            (new if n is old else n) for n in self.nests if not (n is old and new is None)
        )  # fmt: skip

    def _take(
        self, player: str, colours: Iterable[str], sign: int = -1
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        k = PLAYERS.index(player)
        counts = list(self.stash[k])
        for c in colours:
            counts[self.rules.colours[k].index(c)] += sign
        stash = list(self.stash)
        stash[k] = tuple(counts)
        return (stash[0], stash[1])

    def _after_setup(self, move: Setup | PublicSetup) -> LatentState:
        nest = self.nest_at(move.square)
        assert nest is not None
        if isinstance(move, PublicSetup):  # the other board's: its stash is told later
            s = replace(
                self, nests=self._with_nest(nest, replace(nest, top=UNKNOWN, bottom=UNKNOWN))
            )
        else:
            s = replace(
                self,
                nests=self._with_nest(nest, replace(nest, top=move.top, bottom=move.bottom)),
                stash=self._take(nest.owner, (move.top, move.bottom)),
            )
        if all(n.is_set for n in s.nests):
            return s._setup_done()
        return s

    def _setup_done(self) -> LatentState:
        """Both setups are complete: the stashes are public now (a masked state hears the
        other's, waiting for it if need be)."""
        known = [p for p in PLAYERS if self.seat in (None, p)]
        told = tuple((p, STASH, tuple(self.stash[PLAYERS.index(p)])) for p in known)
        s = replace(self, told=self.told + told)._start_turn(self.rules.first)
        if self.seat is None:
            return s
        return (
            masking.resume_stash(s)
            if heard(s, other(self.seat), STASH)
            else replace(s, awaiting=STASH)
        )

    def _start_turn(self, player: str) -> LatentState:
        turns = list(self.turns)
        turns[PLAYERS.index(player)] += 1
        return replace(
            self, phase=MOVE, mover=player, turns=(turns[0], turns[1]), target=None, guesses=0
        )

    def _after_step(self, move: Step) -> LatentState:
        nest = self.nest_at(move.src)
        assert nest is not None
        moved = replace(self, nests=self._with_nest(nest, replace(nest, square=move.dst)))
        return moved._win_check()

    def _win_check(self) -> LatentState:
        mover = self.mover
        assert mover is not None
        line = winning_line(self.own_mask(mover), self.occupied(), self.base(other(mover)))
        if line is not None:
            a, b = (square_name(x) for x in line)
            return replace(
                self,
                phase=OVER,
                winner=mover,
                line=line,
                end_reason=f"{mover} sees {other(mover)}'s base: {a}-{b}",
                answer=f"{mover} wins: {a} sees {b}",
            )
        return self._enter_challenge()

    def _enter_challenge(self) -> LatentState:
        """The challenge step, or straight on to the marker when no guess is possible."""
        s = replace(self, phase=CHALLENGE)
        return s if s._guesses() else replace(s, phase=MARKER)

    def answered(self, move: Challenge | Order, value: Hashable) -> LatentState:
        if isinstance(move, Challenge):
            return self._after_challenge(move, value == RIGHT)
        return self._after_order(move, value)

    def _after_challenge(self, move: Challenge, right: bool) -> LatentState:
        nest = self.nest_at(move.target)
        assert nest is not None and self.mover is not None
        name = square_name(move.target)
        if not right:
            return replace(
                self, phase=MARKER, guesses=self.guesses + 1, answer="wrong: the challenge ends"
            )
        s = replace(
            self,
            nests=self._with_nest(nest, replace(nest, caps=nest.caps + (move.colour,))),
            stash=self._take(nest.owner, (move.colour,)),
            target=move.target,
            guesses=self.guesses + 1,
            answer=f"correct: cap the nest on {name} with {move.colour}",
        )
        if s.first_turn():  # exactly one guess on a player's first turn
            return replace(s, phase=MARKER)
        return s if s._guesses() else replace(s, phase=MARKER)

    def _after_order(self, move: Order, value: Hashable) -> LatentState:
        """``value``: right, wrong, or the true (top, bottom) shown after a wrong guess."""
        nest = self.nest_at(move.target)
        assert nest is not None and self.mover is not None
        name = square_name(move.target)
        s = replace(self, guesses=self.guesses + 1, phase=MARKER)
        if value == WRONG:
            return replace(s, answer="wrong: the challenge ends")
        if isinstance(value, tuple):
            top, bottom = value
            shown = replace(nest, top=top, bottom=bottom, shown=True)
            return replace(
                s,
                nests=self._with_nest(nest, shown),
                answer=f"wrong: {top} is on top; the challenge ends",
            )
        pawns = (*nest.caps, move.top, move.bottom)  # right: the hidden pawns are the caps
        s = replace(
            s,
            nests=self._with_nest(nest, None),
            stash=self._take(nest.owner, pawns, sign=+1),
            target=None,
            answer=f"correct: remove the nest on {name}, its pawns go to the stash",
        )
        if not s.nests_of(nest.owner):
            return replace(
                s,
                phase=OVER,
                winner=self.mover,
                end_reason=f"{nest.owner} has no nest left",
                answer=s.answer + f"; {self.mover} wins",
            )
        return s

    def _after_marker(self, move: Marker) -> LatentState:
        rank = 0 if move.src < 5 else 1
        # Jumping right, the pair now starts one file left of the landing square.
        low = move.dst % 5 - 1 if move.dst > move.src else move.dst % 5
        markers = list(self.markers)
        markers[rank] = low
        s = replace(self, markers=(markers[0], markers[1]))
        assert self.mover is not None
        return s._start_turn(other(self.mover))

    # ----- result and notation
    def outcome(self) -> Outcome | None:
        if self.phase != OVER or self.winner is None:
            return None
        detail: dict[str, Any] = {"winner": self.winner, "reason": self.end_reason}
        if self.line is not None:
            detail["line"] = [square_name(x) for x in self.line]
        detail["nests"] = [
            {
                "owner": n.owner,
                "square": square_name(n.square),
                "top": n.top if n.known else None,  # a masked state's other seat: unknown
                "bottom": n.bottom if n.known else None,
                "caps": list(n.caps),
            }
            for n in self.nests
        ]
        if self.line is not None:
            reason = "{} sees {}".format(*(square_name(x) for x in self.line))
        else:
            reason = f"no {other(self.winner)} nest left"
        return make_outcome((self.winner,), f"{self.winner.upper()} wins", reason, detail)

    def public_name(self, move: Any) -> str:
        return public_name(move)

    def parse_move(self, text: str) -> LatentMove:
        return parse_move(text, self.rules.colour_word, public_setup=self.seat is not None)

    def __repr__(self) -> str:
        return (
            f"LatentState(phase={self.phase}, mover={self.mover}, ply={self.plies}, "
            f"nests={len(self.nests)})"
        )

    # ----- read-only queries of the position
    def nests_of(self, player: str) -> tuple[Nest, ...]:
        return tuple(n for n in self.nests if n.owner == player)

    def nest_at(self, square: int) -> Nest | None:
        for n in self.nests:
            if n.square == square:
                return n
        return None

    def occupied(self) -> int:
        return mask_of(n.square for n in self.nests)

    def own_mask(self, player: str) -> int:
        return mask_of(n.square for n in self.nests if n.owner == player)

    def stash_of(self, player: str) -> dict[str, int]:
        k = PLAYERS.index(player)
        return dict(zip(self.rules.colours[k], self.stash[k], strict=True))

    def base(self, player: str) -> tuple[int, int]:
        """The marker squares of ``player``'s base (the opponent wins by reaching it)."""
        return base_squares(self.markers, player)

    def first_turn(self) -> bool:
        return self.mover is not None and self.turns[PLAYERS.index(self.mover)] == 1

    def in_sight(self, player: str) -> list[Nest]:
        """The opponent's nests that one of ``player``'s nests sees."""
        own, occ = self.own_mask(player), self.occupied()
        return [
            n
            for n in self.nests_of(other(player))
            if any(sees(s, n.square, occ) for s in squares_of(own))
        ]


def new_game(**options: Any) -> LatentState:
    """A new game at the start of the hidden setup; options as in options.OPTIONS."""
    r = rules(options)
    nests = tuple(
        Nest(player, sq, sq) for k, player in enumerate(PLAYERS) for sq in r.starts[k]
    )  # fmt: skip
    full = tuple(r.pawns for _ in r.colours[0]), tuple(r.pawns for _ in r.colours[1])
    return LatentState(rules=r, nests=nests, stash=full, markers=r.bases)
