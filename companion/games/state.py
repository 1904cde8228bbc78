"""One position of one game (``GameState``) and the values it speaks in: ``Move``,
``Refusal`` (with ``IllegalMove``), ``Outcome`` and ``Chance``. A leaf module: the facets
(interpreter.py, positions.py) name these without importing base.py, which gives their
names too.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar


@dataclass(frozen=True)
class Refusal:
    """Why a move is refused: a stable code and a short reason that fits the OLED."""

    code: str  # stable, machine-readable, e.g. "not-in-line"
    reason: str  # short, human, fits two OLED lines, e.g. "e4: not in line with d5"
    # a move that does it anyway once the player confirms (their page offers it), e.g. a
    # Binøme claim with a number that is not eligible: "Ann claim 12 burn"; '' for none
    confirm: str = ""

    def __str__(self) -> str:
        return self.reason


class IllegalMove(ValueError):
    def __init__(self, refusal: Refusal):
        super().__init__(refusal.reason)
        self.refusal = refusal


Ending = Literal["rules", "time", "agreed"]


@dataclass(frozen=True)
class Outcome:
    """A finished game's result. ``winners`` is empty for a draw, one player usually, several
    when a game shares the win. ``summary`` is one short line ("ON wins"); ``reason`` says
    why in a line that fits the OLED ("tie at 1111: ON's next is higher"); ``detail`` is a
    JSON-able explanation. ``ended`` says how the game ended: by its rules (the board), on
    time (a flag fell: ``ClockRules.on_time``) or agreed by the players."""

    winners: tuple[str, ...] = ()
    summary: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    ended: Ending = "rules"

    def __post_init__(self) -> None:
        object.__setattr__(self, "winners", tuple(self.winners))
        object.__setattr__(self, "detail", dict(self.detail))

    @property
    def winner(self) -> str | None:
        """The single winner, or None for a draw (or a win shared by several)."""
        return self.winners[0] if len(self.winners) == 1 else None


class Move:
    """One move of one game: a frozen value (equal moves are the same move) whose ``name`` is
    its full notation, what the journal stores; ``state.parse_move(move.name) == move``.
    Each game defines its own moves (frozen dataclasses deriving from this); generic code
    reads only ``name``, ``cells``, ``is_pass`` and ``by``, never the type."""

    __slots__ = ()
    name: str  # a field or a property of each game's moves

    @property
    def cells(self) -> tuple[int, ...]:
        """The board cells the move plays on, lit for a hint and blinked for a refusal (none
        for a word or a card)."""
        return ()

    @property
    def is_pass(self) -> bool:
        """Is this the pass of a player who has nothing to play (the referee plays it)?"""
        return False

    def by(self, player: str) -> Move:
        """This move as ``player``'s, for a move that names its player but was entered
        without one (``claim 69`` typed on Cy's page). Most moves name no player: itself."""
        return self

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Chance:
    """A random step the referee takes itself: it draws one of ``outcomes`` (move names)
    and plays it, e.g. a ten-sided die: ``Chance("d10", ("roll 0", ..., "roll 9"))``."""

    kind: str
    outcomes: tuple[str, ...]


class GameState(ABC):
    """One position of one game, with who may act and everything the rules need."""

    game: ClassVar[str]
    players: tuple[str, ...]  # per instance (a class constant is fine for fixed seats)

    @property
    @abstractmethod
    def turn(self) -> str | None:
        """The single player to act, or None (game over, several acting, the referee's step)."""

    @property
    def to_act(self) -> frozenset[str]:
        """Every player who may act now (several for simultaneous secret choices)."""
        return frozenset() if self.turn is None else frozenset((self.turn,))

    def as_it_stood(self) -> GameState:
        """The position itself. A game ended on time or by agreement (timing/on_time.py's
        ``Over``) answers with the position it ended in."""
        return self

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of actions played so far (passes and chance steps included)."""

    @abstractmethod
    def legal_moves(self, player: str | None = None) -> Sequence[Move]:
        """Every legal move now (of ``player`` only, when given)."""

    @abstractmethod
    def check(self, move: Move, player: str | None = None) -> Refusal | None:
        """None if ``move`` is legal now (for ``player``, when given), else why not."""

    @abstractmethod
    def play(self, move: Move, player: str | None = None) -> GameState:
        """The state after ``move``; raises IllegalMove."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result with its explanation once the game is over (None before)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Notation -> move (``move.name`` is the full notation, as journaled: it may hold a
        secret); raises ValueError with a short reason."""

    def public_name(self, move: Move) -> str:
        """What other players may see of ``move`` before the game reveals its secrets."""
        return move.name

    def actor(self, move: Move) -> str | None:
        """Who plays ``move`` (None: the referee, e.g. a chance step or a forced pass)."""
        return self.turn

    def forced_move(self) -> Move | None:
        """A move the referee plays by itself (a pass when there is nothing else), or None."""
        return None

    def chance(self) -> Chance | None:
        """A random step the referee must draw now, or None."""
        return None

    def revealed(self) -> bool:
        """Are the secrets public now? (By default: once the game is over.)"""
        return self.is_over()

    def seating(self) -> dict[str, str]:
        """Seat -> the player it plays now. A seat is one of ``players`` as the game started:
        the person named for it, their page, token and engine role keep it. A pie rule or a
        colour change moves seats to other players (Wythe after a swap: the seat that started
        as White plays Black). The identity by default."""
        return {p: p for p in self.players}

    def player_of(self, seat: str) -> str:
        """The player the person in ``seat`` plays now."""
        return self.seating().get(seat, seat)

    def seat_of(self, player: str) -> str:
        """The seat (the person) that plays ``player`` now."""
        for seat, now in self.seating().items():
            if now == player:
                return seat
        return player

    @property
    def virtual(self) -> frozenset[str]:
        """Players the companion itself plays (Binøme solo's): nobody asks them to agree to a
        takeback. None by default."""
        return frozenset()

    def page_of(self, player: str) -> str:
        """Whose page enters ``player``'s moves and hears why one was refused: their own,
        unless the game lets another enter for a player without a phone (Binøme's chair)."""
        return player

    def reveals(self, move: Move) -> bool:
        """Does the answer to ``move``, played now, tell a player something hidden (a guess
        answered, claims resolved)? The referee never takes such a move back on one player's
        word (see ``Session.undo_floor``); chance steps and the end of a game with secrets
        count too, without the game saying so."""
        return False

    def own_turn(self, player: str | None) -> Refusal | None:
        """A refusal when ``player`` is given and may not act now (a helper for ``check``)."""
        if player is None or player in self.to_act:
            return None
        if self.is_over():
            return Refusal("game-over", "game is over")
        return Refusal("not-your-turn", f"{player}: not your turn")


S = TypeVar("S", bound=GameState)


def own_state(state: GameState, kind: type[S], title: str) -> S:
    """``state`` as the game's own ``kind`` of state, for a game's view and positions: the
    state itself, or a game over on time or by agreement, which answers for the position it
    wraps (its board, its players) but is over. Anything else: TypeError."""
    if not isinstance(state.as_it_stood(), kind):
        raise TypeError(f"not a {title} state: {type(state).__name__}")
    return state  # type: ignore[return-value]
