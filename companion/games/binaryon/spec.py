"""Hosting Binaryon[8]: options, OLED panel, LEDs, board readings, and position scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from companion.core.squares import square_name
from companion.games.base import ClockRules, GameSpec, GameState, Move, Option
from companion.games.binaryon.options import OPTIONS, PLAYERS, resolve
from companion.games.state import own_state

if TYPE_CHECKING:
    from companion.games.binaryon.adapter import BinaryonAdapter
    from companion.games.binaryon.engine import BinaryonState
    from companion.games.binaryon.positions import BinaryonPositions
    from companion.games.interpreter import Interpreter
    from companion.games.view import RGB, Hint, Panel, View

# The views are imported by the methods that draw (companion/games/view.py): `score` and
# `legal` draw nothing. The engine and the positions' text are imported by the methods that
# play or read a position: `history` and `export` only ask the players and the options.

LIT: RGB = (160, 140, 100)
DARK: RGB = (0, 0, 0)


def _state(state: GameState) -> BinaryonState:
    from companion.games.binaryon.engine import BinaryonState

    return own_state(state, BinaryonState, "Binaryon")


class BinaryonClock(ClockRules):
    default: ClassVar[str] = "5:00+3"  # docs/rules/binaryon.md, "Time"


class BinaryonSpec(GameSpec):
    name: ClassVar[str] = "binaryon"
    title: ClassVar[str] = "BINARYON"
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    sensor_kinds: ClassVar[tuple[str, ...]] = ("switch", "polarity")
    hint_steps: ClassVar[int] = 2  # the mover's moves, then their best line

    def clock_rules(self) -> ClockRules:
        return BinaryonClock(self)

    def positions(self) -> BinaryonPositions:
        from companion.games.binaryon.positions import BinaryonPositions

        return BinaryonPositions(self)

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return PLAYERS  # the same whatever the options: no rules tables built to ask

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve(given)

    def new(self, **options: Any) -> BinaryonState:
        from companion.games.binaryon.engine import BinaryonState

        return BinaryonState._start(options)  # its tables check the options (cached)

    def view(self, state: GameState, viewer: str | None = None) -> View:
        """Binaryon has no secrets: every viewer sees the same."""
        from companion.games.binaryon.positions import line_path
        from companion.games.binaryon.scoring import tie_reason
        from companion.games.view import Cell, View

        st = _state(state)
        sc = st.score()
        on = f"ON: {sc.bits(sc.on_best)} on {line_path(sc.on_line, st.n)}"
        off = f"OFF: {sc.bits(sc.off_best)} on {line_path(sc.off_line, st.n)}"
        explanation = [on, off]
        if sc.tied:
            explanation.append(tie_reason(sc) if sc.winner or st.is_over() else "tied")
        elif sc.winner:
            explanation.append(f"{sc.winner.upper()} leads")
        return View(
            panel=self.panel(st),
            cells=tuple(Cell(piece=c) for c in st.cells()),
            leds=tuple(self.leds(st)),
            explanation=tuple(explanation),
            actions=(("pass", "pass"),) if st.forced_move() is not None else (),
        )

    def panel(self, state: GameState) -> Panel:
        from companion.games.view import Panel, PanelRow

        st = _state(state)
        sc = st.score()
        over = st.is_over()
        note = ""
        if over:
            outcome = st.outcome()
            if outcome is not None:  # a tie of best numbers says how it was decided
                note = f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary
        elif st.last is not None:
            note = f"last turned {square_name(st.last, st.n)}"
        return Panel(
            title=self.title,
            move=st.ply if over else st.ply + 1,
            rows=(
                PanelRow("ON", sc.bits(sc.on_best), st.turn == "on"),
                PanelRow("OFF", sc.bits(sc.off_best), st.turn == "off"),
            ),
            note=note,
        )

    def leds(self, state: GameState) -> list[RGB]:
        st = _state(state)
        return [LIT if st.white >> i & 1 else DARK for i in range(st.n * st.n)]

    def highlight(self, state: GameState) -> tuple[int, ...]:
        """The winner's best line at the end (both best lines on a draw), else nothing."""
        st = _state(state)
        if not st.is_over():
            return ()
        sc = st.score()
        if sc.winner == "on":
            return sc.on_line
        if sc.winner == "off":
            return sc.off_line
        return sc.on_line + tuple(s for s in sc.off_line if s not in sc.on_line)

    def hint(self, state: GameState, step: int) -> Hint:
        """Even presses: the squares the mover may turn; odd presses: the mover's best line."""
        from companion.games.view import Hint

        st = _state(state)
        if st.is_over():
            outcome = st.outcome()
            return Hint(self.highlight(st), outcome.summary if outcome else "")
        who = st.mover.upper()
        if step % 2 == 0:
            moves = tuple(c for m in st.legal_moves() for c in m.cells)
            if not moves:
                return Hint((), f"{who} must pass")
            return Hint(moves, f"{len(moves)} move{'s' if len(moves) > 1 else ''} for {who}")
        sc = st.score()
        if st.mover == "on":
            return Hint(sc.on_line, f"{who}'s best line: {sc.bits(sc.on_best)}")
        return Hint(sc.off_line, f"{who}'s best line: {sc.bits(sc.off_best)}")

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.binaryon.input import BinaryonInput

        return BinaryonInput(kind)

    # --- the engines ---
    # (the adapter, the input and the words are imported when first asked for: `score`,
    # `legal` and the pages need none of them)
    def engine(self) -> BinaryonAdapter:
        from companion.games.binaryon.adapter import BinaryonAdapter

        return BinaryonAdapter()

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        from companion.games.binaryon.adapter import effect

        return effect(_state(before), _state(after))

    def line_effect(self, before: GameState, end: GameState) -> list[str]:
        from companion.games.binaryon.words import line_effect

        return line_effect(_state(before), _state(end))

    def move_words(self, before: GameState, move: Move) -> str:
        from companion.games.binaryon.words import move_words

        return move_words(_state(before), move)


SPEC = BinaryonSpec()
