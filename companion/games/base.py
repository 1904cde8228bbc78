"""The game protocol (v2): what every game gives the referee, the journal and the views.

A game is three things, each in its own module of ``companion/games/<game>/``:

- a **state** (``GameState``): one immutable position. ``state.play(move)`` returns a new
  state or raises ``IllegalMove`` carrying a ``Refusal`` (a stable code and a short reason
  that fits the OLED). Each game has its own typed moves (``Move``: frozen values with a
  ``name``); ``move.name`` and ``state.parse_move`` give their notation, which is what the
  journal and records store. ``spec.replay(names, **options)`` rebuilds any game from its
  move names, so nothing else needs saving. Several
  players may act at once (``to_act``); a move may hold a secret (``public_name`` is what
  the others see until ``revealed()``); chance steps (dice, a shuffled deck) are moves the
  referee draws and plays itself, so the journal keeps their outcome.
- an **interpreter** (``Interpreter``): what presses, settled sensor readings and buttons
  mean for this game, with whatever input state that needs (a half-placed piece, a selected
  nest). The rules never hold interface state.
- a **spec** (``GameSpec``): options, where the game's cells sit on the physical board
  (``Layout``), and what each viewer sees (``View``): the public table (OLED, LEDs, the
  table web page) or one player's private view. What only some parts of the companion need
  comes in facets, each an object the spec returns with defaults: ``engine()`` (the search's
  adapter, engine_api.py), ``positions()`` (the command line's, positions.py) and
  ``clock_rules()`` (``ClockRules``, below).

``GameState`` and its values (``Move``, ``Refusal``, ``Outcome``, ``Chance``), ``View`` and its
parts, ``Interpreter`` and its actions, and ``Layout`` live in the leaf modules state.py,
view.py, interpreter.py and layout.py; this module gives their names too.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from companion.games.options import Option, resolve_options
from companion.games.state import Chance as Chance
from companion.games.state import Ending as Ending
from companion.games.state import GameState as GameState
from companion.games.state import IllegalMove as IllegalMove
from companion.games.state import Move as Move
from companion.games.state import Outcome as Outcome
from companion.games.state import Refusal as Refusal

if TYPE_CHECKING:
    from companion.games.engine_api import Adapter
    from companion.games.interpreter import Interpreter
    from companion.games.layout import Layout
    from companion.games.positions import Positions
    from companion.games.remote_api import Remote
    from companion.games.review_api import OwnReview
    from companion.games.view import Hint, View


# Moves the engines search through are interned: making one returns the one object of that
# value, so equal moves are the same object and compare and hash as fast as ints (``eq=False``
# keeps identity's equality and hash; the search's tables and lists use both).


@dataclass(frozen=True, slots=True, eq=False)
class Word(Move):
    """A move that is one word: ``pass``, ``end``, ``swap``."""

    name: str

    def __new__(cls, name: str) -> Word:
        word = _WORDS.get(name)
        if word is None:
            word = _WORDS[name] = object.__new__(cls)
            object.__setattr__(word, "name", name)
        return word

    @property
    def is_pass(self) -> bool:
        return self.name == "pass"


_WORDS: dict[str, Word] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Place(Move):
    """A move that is one cell of a square board ``size`` cells a side, named like ``d4``
    (a Binaryon turn, a Binary piece); ordered by cell. ``places(size)`` lists them."""

    cell: int
    size: int

    def __new__(cls, cell: int, size: int) -> Place:
        if not 0 <= cell < size * size:  # so the rules need not check it
            raise ValueError(f"cell {cell}: not on a {size}x{size} board")
        return places(size)[cell]

    def __lt__(self, other: Place) -> bool:
        return (self.cell, self.size) < (other.cell, other.size)

    def __gt__(self, other: Place) -> bool:
        return (self.cell, self.size) > (other.cell, other.size)

    @property
    def name(self) -> str:
        return _place_names(self.size)[self.cell]

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)


@cache
def places(size: int) -> tuple[Place, ...]:
    """Every cell's ``Place`` on a board ``size`` a side, in cell order: the only ones (made
    once per size, so listing legal moves creates no objects)."""
    out = []
    for cell in range(size * size):
        place = object.__new__(Place)
        object.__setattr__(place, "cell", cell)
        object.__setattr__(place, "size", size)
        out.append(place)
    return tuple(out)


@cache
def _place_names(size: int) -> tuple[str, ...]:
    """Every cell's name, in cell order (a record or a search names them by the thousand)."""
    from companion.core.squares import square_name

    return tuple(square_name(cell, size) for cell in range(size * size))


@cache
def _places_by_name(size: int) -> dict[str, Place]:
    return dict(zip(_place_names(size), places(size), strict=True))


def parse_place(text: str, size: int) -> Place:
    """'d4' -> its ``Place``; ValueError with a short reason for anything else."""
    place = _places_by_name(size).get(text)  # the usual spelling, at once
    if place is not None:
        return place
    from companion.core.squares import parse_square

    return places(size)[parse_square(text, size)]


def credited(state: GameState, outcome: Outcome, people: dict[str, str]) -> Outcome:
    """``outcome`` with, in its detail, who played each player at the end (``seated``: player
    -> the name of the person in the seat that plays it), when people changed players during
    the game (a swap); so a history credits the people who actually won. ``people``: seat ->
    name, as seated at the start."""
    seating = state.seating()
    if not people or all(seat == player for seat, player in seating.items()):
        return outcome
    seated = {seating.get(seat, seat): name for seat, name in people.items()}
    return replace(outcome, detail={**outcome.detail, "seated": seated})


class Step(NamedTuple):
    """One move of a replay: the state ``after`` it, the ``move``, the state ``before`` it."""

    after: GameState
    move: Move
    before: GameState


# Moved to leaf modules, loaded when first named (``from companion.games.base import View``
# still works): a command that reads no board and draws nothing never builds them.
_ELSEWHERE = {
    **dict.fromkeys(("RGB", "PanelRow", "Panel", "Cell", "View", "Hint"), "view"),
    **dict.fromkeys(
        ("Play", "Refuse", "Differ", "Pending", "Action", "Interpreter"), "interpreter"
    ),
    "Layout": "layout",
}


def __getattr__(name: str) -> Any:
    module = _ELSEWHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if module == "view":
        from companion.games import view as found
    elif module == "interpreter":
        from companion.games import interpreter as found
    else:
        from companion.games import layout as found
    value = getattr(found, name)
    globals()[name] = value
    return value


class ClockRules:
    """What a game gives the game clock (``GameSpec.clock_rules()``): the control its rules
    page suggests, the result when a player's time runs out, and a per-step timer for a game
    that times its steps (Binøme). The defaults suit most games: no control suggested, every
    other player wins on time, no step timer."""

    # the game clock this game's rules page suggests (``--clock default``, ``[clock] control
    # = "default"``), as typed ("5:00+3"); "": none suggested
    default: ClassVar[str] = ""

    def __init__(self, spec: GameSpec):
        self.spec = spec

    def on_time(self, state: GameState, flagged: str) -> Outcome:
        """The result when ``flagged``'s time runs out in ``state`` (a game in progress):
        by default every other player wins (shared by several). A game overrides it where
        its rules page says otherwise (the others cannot win: a draw, or the score decides)."""
        others = tuple(p for p in state.players if p != flagged)
        label = self.spec.player_label(flagged)
        if len(others) == 1:
            summary = f"{self.spec.player_label(others[0])} wins on time"
        else:
            summary = f"{label} lost on time"
        return Outcome(others, summary, {"on_time": flagged}, f"{label}'s time ran out", "time")

    def step_seconds(self, options: dict[str, Any]) -> int:
        """Seconds a player has for each step, when the game times its steps (Binøme's
        ``step_seconds``); 0: none. The daemon plays ``timed_out`` for who did not act."""
        return 0

    def timed_out(self, state: GameState, player: str) -> Move | None:
        """What is played for ``player`` whose step time ran out (None: nothing)."""
        return None


class GameSpec(ABC):
    """Everything the daemon needs to host one game; registered in companion.games."""

    name: ClassVar[str]
    title: ClassVar[str]  # short, for the OLED header
    # the game's name as people write it, for the pages' heading ("Latent Binaries",
    # "Binøme"); "": the title in capitals and lower case ("Wythe")
    long_title: ClassVar[str] = ""
    # a record numbers a two-player game's moves in pairs, as chess does; False when a turn
    # may be several moves (Binary's two pieces, Latent Binaries' move, challenge and
    # marker): then one number per move
    paired_moves: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]]
    sensor_kinds: ClassVar[tuple[str, ...]]  # board kinds it can be played on; () = no board
    # options that are a secret until the game has ended (Binøme solo's seed, from which
    # the virtual players' sheets follow): left out of history, records and the pages
    # before then, and drawn afresh for each new game unless the config sets them
    secret_options: ClassVar[tuple[str, ...]] = ()

    def clock_rules(self) -> ClockRules:
        """The game clock's rules (``ClockRules``: the control suggested, the result on time,
        a step timer): the defaults unless the game overrides this."""
        return ClockRules(self)

    def positions(self) -> Positions:
        """Positions for the command line (``companion.games.positions.Positions``: `score`,
        `legal`, `bestmove`): by default the game reads none."""
        from companion.games.positions import Positions

        return Positions(self)

    def heading(self) -> str:
        """The game's name on the pages (``long_title``)."""
        return self.long_title or self.title.capitalize()

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve_options(self.options, given)

    @abstractmethod
    def new(self, **options: Any) -> GameState:
        """A new game with ``options`` (validated: ValueError naming the option): the one way
        to make a state, with ``replay``."""

    def replay(self, names: Iterable[str], **options: Any) -> GameState:
        """The state after the move ``names`` (as journaled) from ``new(**options)``. Raises
        ValueError (an ``IllegalMove`` when the rules refuse one)."""
        state = self.new(**options)
        for name in names:
            state = state.play(state.parse_move(name))
        return state

    def steps(self, names: Iterable[str], **options: Any) -> Iterator[Step]:
        """``replay`` one move at a time: a ``Step`` per name; the ValueError of a name that
        does not replay comes when its step is asked for (the steps before it are kept)."""
        yield from self.steps_from(self.new(**options), names)

    def recorded_move(
        self, state: GameState, move: Move, refusal: Refusal
    ) -> tuple[Move, str] | None:
        """A move of a record from a real table that the companion refuses live but the
        game's printed rules settle (a Binøme claim with no eligible number: eliminated from
        the turn): the move to play in its place and why, for the warning; None: refused."""
        return None

    def steps_from(self, state: GameState, names: Iterable[str]) -> Iterator[Step]:
        """``steps`` from ``state`` (a masked start: ``remote().start``)."""
        for name in names:
            move = state.parse_move(name)
            after = state.play(move)
            yield Step(after, move, state)
            state = after

    def layout(self, options: dict[str, Any]) -> Layout | None:
        """Where the game's cells are (None: a game with no board)."""
        size = options.get("size")
        from companion.games.layout import Layout

        return Layout.square(int(size)) if size else None

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return tuple(self.new(**options).players)

    def player_label(self, player: str) -> str:
        return player.upper()

    def person_of(self, player: str) -> str | None:
        """The person's name a player id is by itself (a game whose options name its players,
        as Binøme's ``players = "Ann,Bob"``), or None (a colour, a side: ``on``)."""
        return None

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.interpreter import Interpreter

        return Interpreter(kind)

    @abstractmethod
    def view(self, state: GameState, viewer: str | None = None) -> View:
        """What ``viewer`` (None: the public table) sees of ``state``."""

    def highlight(self, state: GameState) -> tuple[int, ...]:
        """Cells to blink when the game is over (e.g. the winning line)."""
        return ()

    def rule_of(self, code: str) -> str:
        """The rule a refusal's code stands for, as a record's refusal names it ("the
        equal-heights rule"); '' when the reason says it all."""
        return ""

    def record_tags(self, state: GameState, people: dict[str, str]) -> dict[str, str]:
        """Extra tags a record of ``state`` carries (Wythe: who plays which colour after a
        swap)."""
        return {}

    def announce(self, before: GameState, after: GameState) -> str:
        """What the table is told after a move took ``before`` to ``after`` (a turn resolved,
        a guess answered), shown for a few seconds; '' for nothing. Public: no secrets."""
        return ""

    def spoken(self, before: GameState, move: Move, after: GameState) -> str:
        """What the voice says to the whole table for ``move`` (``before`` -> ``after``), in
        the game's own words ("the die shows six"); '' for the voice's plain words from the
        move's public name (``companion/voice/words.py``). Public: no secrets."""
        return ""

    def hint(self, state: GameState, step: int) -> Hint:
        """What the menu button shows; ``step`` counts presses, so a game can cycle."""
        from companion.games.view import Hint

        return Hint((), "")

    # ------------------------------------------ engines and hints (optional hooks)
    # Generic code (engines/, the engine hint, the opponent, the `bestmove`, `solve` and
    # `match` commands) calls these; a game overrides what it offers. The command line's
    # positions are a facet of their own (``positions()``), as the clock's rules are
    # (``clock_rules()``).

    # the game's own hint steps (``hint``) before the menu shows the engine's move; the
    # cycle then starts again (only games with an ``engine()``)
    hint_steps: ClassVar[int] = 0
    # options `binaryon match` plays the game with, under the command line's own
    match_options: ClassVar[dict[str, Any]] = {}

    def remote(self) -> Remote:
        """How the game is played across two boards (``companion.games.remote_api``): by
        default a game of open information (``Remote``); a game that hides something gives
        ``Hidden``, or ``MaskedRemote`` when its states can be masked for one seat."""
        from companion.games.remote_api import Remote

        return Remote()

    def review(self) -> OwnReview | None:
        """A finished game's review by the game's own rules, for a game no engine plays
        (``companion.games.review_api.OwnReview``: Binøme's claims, Latent Binaries'
        guesses). None: the engine reviews it (``engine()``) or nothing does (the default)."""
        return None

    def engine(self) -> Adapter | None:
        """A new search adapter for engine play (``companion.games.engine_api.Adapter``): the
        opponent, the menu's engine hint, `bestmove`, `solve` and `match`. None: no engine
        plays this game (the default)."""
        return None

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        """What a move (``before`` -> ``after``) does to the score, for the engine hint's
        reason, most telling wording first ("ON best 1101 (+2)", "ON +2"); [] for nothing."""
        return []

    def line_effect(self, before: GameState, end: GameState) -> list[str]:
        """What the engine's expected line (its move from ``before``, then the replies it
        foresees, ending in ``end``) comes to, in the game's own terms, for the engine hint's
        reason ("wins the race for the f-file"), most telling first; [] when nothing is clear.
        Public: only what the table sees."""
        return []

    def move_words(self, before: GameState, move: Move) -> str:
        """What ``move`` does, said plainly ("turns it white"): the engine hint's reason when
        nothing clearer is found; '' for none."""
        return ""

    def cell_name(self, cell: int, options: dict[str, Any]) -> str:
        from companion.core.squares import FILES

        layout = self.layout(options)
        files = layout.files if layout else 8
        return f"{FILES[cell % files]}{cell // files + 1}"
