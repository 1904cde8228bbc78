"""The small protocol every game implements.

A game state is immutable: ``state.play(move)`` returns a new state or raises
``IllegalMove`` carrying a ``Refusal`` (a stable code and a short reason that fits the OLED).
Moves are game-specific hashable values; ``move_name``/``parse_move`` give their notation,
which is what the journal and game records store. Replaying the move names from
``spec.new(**options)`` rebuilds any game, so nothing else needs to be saved.

Games differ a lot (Binaryon flips a full board, Binary places pieces and may take two per
turn, Wythe keeps stacks sensors cannot see, Binome has no board, Latent Binaries holds
secrets), so the protocol asks only for what the session, journal and renderers need.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Refusal:
    code: str  # stable, machine-readable, e.g. "not-in-line"
    reason: str  # short, human, fits two OLED lines, e.g. "e4: not in line with d5"

    def __str__(self) -> str:
        return self.reason


class IllegalMove(ValueError):
    def __init__(self, refusal: Refusal):
        super().__init__(refusal.reason)
        self.refusal = refusal


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # a player id, or None for a draw
    summary: str  # one short line, e.g. "ON wins"
    detail: dict[str, Any] = field(default_factory=dict)  # JSON-able explanation


Move = Hashable


class GameState(ABC):
    """One position of one game, with whose turn it is and everything the rules need."""

    game: ClassVar[str]
    players: ClassVar[tuple[str, ...]]

    @property
    @abstractmethod
    def turn(self) -> str | None:
        """The player to act, or None when the game is over."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of actions played so far (passes included)."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Move]: ...

    @abstractmethod
    def check(self, move: Move) -> Refusal | None:
        """None if ``move`` is legal now, else why not."""

    @abstractmethod
    def play(self, move: Move) -> GameState:
        """The state after ``move``; raises IllegalMove."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result with its explanation once the game is over (None before)."""

    @abstractmethod
    def move_name(self, move: Move) -> str: ...

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Notation -> move; raises ValueError with a short reason."""

    def forced_move(self) -> Move | None:
        """A move the referee plays by itself (a pass when there is nothing else), or None."""
        return None


@dataclass(frozen=True)
class Option:
    """A named rule option: a CLI flag (``--name``) and a config key (``[rules.GAME] name``)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    kind: type = str
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], str | None] | None = None  # extra check -> error text or None

    def parse(self, value: Any) -> Any:
        """Convert and validate a value from the CLI (str) or TOML; ValueError names the option."""
        v = value
        if self.kind is bool and isinstance(v, str):
            low = v.strip().lower()
            if low not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise ValueError(f"{self.name}: expected true or false, got {value!r}")
            v = low in ("true", "yes", "on", "1")
        elif self.kind is int and isinstance(v, str):
            try:
                v = int(v)
            except ValueError:
                raise ValueError(f"{self.name}: expected a whole number, got {value!r}") from None
        if self.kind is bool and not isinstance(v, bool):
            raise ValueError(f"{self.name}: expected true or false, got {value!r}")
        if self.kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise ValueError(f"{self.name}: expected a whole number, got {value!r}")
        if self.kind is str and not isinstance(v, str):
            raise ValueError(f"{self.name}: expected text, got {value!r}")
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and v < self.minimum:
            raise ValueError(f"{self.name}: {v} is below {self.minimum}")
        if self.maximum is not None and v > self.maximum:
            raise ValueError(f"{self.name}: {v} is above {self.maximum}")
        if self.check is not None and (err := self.check(v)):
            raise ValueError(f"{self.name}: {err}")
        return v


def resolve_options(options: Sequence[Option], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown names and bad values raise ValueError."""
    known = {o.name: o for o in options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"unknown rule option {unknown[0]!r} (known: {', '.join(known)})")
    out = {o.name: o.default for o in options}
    for name, value in given.items():
        out[name] = known[name].parse(value)
    return out


RGB = tuple[int, int, int]


@dataclass(frozen=True)
class PanelRow:
    label: str  # the player as shown, e.g. "ON"
    value: str  # their live score as shown, e.g. "11111001"
    to_move: bool = False


@dataclass(frozen=True)
class Panel:
    """What the OLED shows for a game in play; the renderer lays it out."""

    title: str
    move: int
    rows: tuple[PanelRow, ...]
    note: str = ""  # one optional extra line, e.g. territory sizes
    corner: str = ""  # top-right text instead of the move number


# What a reading of the board means for the game (see companion/interpret.py).
@dataclass(frozen=True)
class Play:
    move: Move


@dataclass(frozen=True)
class Refuse:
    refusal: Refusal
    square: int | None = None


@dataclass(frozen=True)
class Differ:
    """The board does not match the game: these squares need fixing. ``hint`` fits the OLED."""

    squares: tuple[int, ...]
    hint: str


Action = Play | Refuse | Differ | None


class GameSpec(ABC):
    """Everything the daemon needs to host one game; registered in companion.games."""

    name: ClassVar[str]
    title: ClassVar[str]  # short, for the OLED header
    options: ClassVar[tuple[Option, ...]]
    sensor_kinds: ClassVar[tuple[str, ...]]  # board kinds this game can be played on

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve_options(self.options, given)

    @abstractmethod
    def new(self, **options: Any) -> GameState: ...

    @abstractmethod
    def board_size(self, options: dict[str, Any]) -> int | None:
        """Squares per side, or None for a game with no board."""

    @abstractmethod
    def panel(self, state: GameState) -> Panel: ...

    @abstractmethod
    def leds(self, state: GameState) -> list[RGB]:
        """The colour of every square's LED for this state (index a1 = 0)."""

    def highlight(self, state: GameState) -> tuple[int, ...]:
        """Squares to blink when the game is over (e.g. the winning line)."""
        return ()

    def player_label(self, player: str) -> str:
        return player.upper()

    def expected_readings(self, state: GameState, kind: str) -> list[str]:
        """What a board of ``kind`` reads when it matches ``state`` (for board games whose
        state has ``cells()``: 'x', 'o' or '.' per square)."""
        cells = state.cells()  # type: ignore[attr-defined]
        if kind == "polarity":
            return list(cells)
        if kind == "presence":
            return ["0" if c == "." else "1" for c in cells]
        return ["0"] * len(cells)

    def hint_colour(self, state: GameState, step: int) -> RGB | None:
        """The colour to light the hint's squares in (None: the usual highlight colour),
        e.g. each player's territories in that player's colour."""
        return None

    def hint(self, state: GameState, step: int) -> tuple[tuple[int, ...], str]:
        """What the menu button shows: squares to light and a short text. ``step`` counts
        presses, so a game can cycle through several hints."""
        return (), ""

    # --- board readings -> actions (a switch press, or a settled full board) ---
    def on_press(self, state: GameState, square: int) -> Action:
        return None

    def on_board(self, state: GameState, readings: Sequence[str]) -> Action:
        return None

    def on_button(self, state: GameState, button: str) -> Action:
        return None
