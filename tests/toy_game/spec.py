"""Hosting Noughts: options, the views, hints, and every optional hook of ``GameSpec`` and
each facet (the engine's adapter, positions, the clock's rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.games.base import (
    RGB,
    Action,
    Cell,
    ClockRules,
    GameSpec,
    GameState,
    Hint,
    Interpreter,
    Layout,
    Option,
    Outcome,
    Panel,
    PanelRow,
    Play,
    View,
    places,
)
from companion.games.positions import Positions
from companion.games.remote_api import Remote
from tests.toy_game.adapter import NoughtsAdapter, effect
from tests.toy_game.engine import (
    GAME,
    PLAYERS,
    SIZES,
    NoughtsState,
    cell_name,
    parse_text,
)

OPTIONS = (Option("size", 3, "board size, 3 or 4", choices=SIZES, kind=int),)
COLOURS: dict[str, RGB] = {"x": (200, 40, 40), "o": (40, 40, 200), "": (0, 0, 0)}


def _state(state: GameState) -> NoughtsState:
    assert isinstance(state, NoughtsState)
    return state


class NoughtsInput(Interpreter):
    """A press on a free cell is that move."""

    def press(self, state: GameState, cell: int) -> Action:
        return Play(places(_state(state).n)[cell])


class NoughtsPositions(Positions):
    """`binaryon score`, `legal` and `bestmove` on a noughts diagram or record."""

    movers: ClassVar[tuple[str, ...]] = PLAYERS

    def state(self, text: str, mover: str, last: str | None = None) -> NoughtsState:
        if last is not None:
            raise ValueError("--last: a noughts position has no last move")
        n, cells = parse_text(text)
        return NoughtsState.from_cells(cells, n, mover)

    def legal(
        self,
        text: str,
        mover: str,
        options: Mapping[str, Any] | None = None,
        last: str | None = None,
    ) -> dict[str, list[str]]:
        """The free cells, and those that make a row of three."""
        st = self.state(text, mover, last)
        moves = st.legal_moves()
        winning = [m for m in moves if st.play(m).winner() == mover]
        return {
            "moves": [m.name for m in moves],
            "winning": [m.name for m in winning],
        }

    def score(self, text: str, options: Mapping[str, Any]) -> dict[str, Any]:
        n, cells = parse_text(text)
        return self.scored(NoughtsState.from_cells(cells, n, "cross"))

    def describe_score(self, text: str, options: Mapping[str, Any]) -> str:
        return self.words(self.score(text, options)) + "\n"

    def score_record(self, state: GameState) -> dict[str, Any]:
        return self.scored(_state(state))

    def describe_record(self, state: GameState) -> str:
        return self.words(self.scored(_state(state)))

    def scored(self, st: NoughtsState) -> dict[str, Any]:
        line = st.winning_line() or ()
        return {
            "game": self.spec.name,
            "winner": st.winner() or ("draw" if st.is_over() else None),
            "line": [cell_name(c, st.n) for c in line],
            "threats": {p: st.open_twos(p) for p in PLAYERS},
        }

    def words(self, scored: dict[str, Any]) -> str:
        if scored["winner"] is None:
            return "not finished"
        if scored["winner"] == "draw":
            return "draw"
        return f"{scored['winner'].upper()} wins on {'-'.join(scored['line'])}"


class NoughtsClock(ClockRules):
    """A quick game's clock; on time the opponent wins, unless they have no row left to
    make (every row holds both marks): then it is a draw, as the board could end no other
    way."""

    default: ClassVar[str] = "1:00+1"

    def on_time(self, state: GameState, flagged: str) -> Outcome:
        st = _state(state)
        opponent = next(p for p in PLAYERS if p != flagged)
        if st.can_still_win(opponent):
            return super().on_time(state, flagged)
        label = flagged.upper()
        return Outcome((), "draw on time", {"on_time": flagged}, f"{label}'s time ran out")


class NoughtsSpec(GameSpec):
    name: ClassVar[str] = GAME
    title: ClassVar[str] = "NOUGHTS"
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    sensor_kinds: ClassVar[tuple[str, ...]] = ("switch",)
    hint_steps: ClassVar[int] = 1  # the free cells; then the engine's move
    match_options: ClassVar[dict[str, Any]] = {"size": 3}

    # --- the facets: the engine's adapter (below), positions, the clock's rules ---
    def positions(self) -> NoughtsPositions:
        return NoughtsPositions(self)

    def clock_rules(self) -> NoughtsClock:
        return NoughtsClock(self)

    def new(self, **options: Any) -> NoughtsState:
        return NoughtsState.start(self.resolve(options)["size"])

    def interpreter(self, kind: str) -> Interpreter:
        return NoughtsInput(kind)

    def layout(self, options: dict[str, Any]) -> Layout:
        size = self.resolve(options)["size"]
        return Layout(size, size, board=8)  # in the middle of the 8x8 board

    def view(self, state: GameState, viewer: str | None = None) -> View:
        st = _state(state)
        rows = tuple(
            PanelRow(p.upper(), f"{st.open_twos(p)} threats", st.turn == p) for p in PLAYERS
        )
        outcome = st.outcome()
        note = f"{outcome.summary}: {outcome.reason}" if outcome else ""
        private = () if viewer is None else (f"you play {viewer.upper()}",)
        return View(
            panel=Panel(self.title, st.ply + (0 if outcome else 1), rows, note),
            cells=tuple(Cell(piece=v) for v in st.board),
            leds=tuple(COLOURS[v] for v in st.board),
            explanation=tuple(f"{p.upper()}: {st.open_twos(p)} threats" for p in PLAYERS),
            private=private,
        )

    def highlight(self, state: GameState) -> tuple[int, ...]:
        return _state(state).winning_line() or ()

    def hint(self, state: GameState, step: int) -> Hint:
        st = _state(state)
        if st.is_over():
            outcome = st.outcome()
            return Hint(self.highlight(st), outcome.summary if outcome else "")
        free = tuple(c for m in st.legal_moves() for c in m.cells)
        return Hint(free, f"{len(free)} cells for {st.mover.upper()}")

    # --- the engines ---
    def remote(self) -> Remote:
        """Open information, no chance: both boards play the whole game (the facet's
        defaults; a move with cells is made on the board)."""
        return Remote()

    def engine(self) -> NoughtsAdapter:
        return NoughtsAdapter()

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        return effect(_state(before), _state(after))


SPEC = NoughtsSpec()
