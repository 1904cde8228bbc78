"""Hosting Binaryon[8]: options, OLED panel, LEDs, board readings, and position scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.core.position_text import format_position, parse_position
from companion.core.squares import parse_square, square_name
from companion.games.base import (
    RGB,
    Cell,
    GameSpec,
    GameState,
    Hint,
    Interpreter,
    Move,
    Option,
    Panel,
    PanelRow,
    View,
)
from companion.games.binaryon.adapter import BinaryonAdapter, effect
from companion.games.binaryon.board import cells_to_white
from companion.games.binaryon.engine import PLAYERS, BinaryonState, legal_squares
from companion.games.binaryon.input import BinaryonInput
from companion.games.binaryon.options import OPTIONS, resolve
from companion.games.binaryon.scoring import Score, line_names, score_bitboard, tie_reason
from companion.games.binaryon.tables import rules
from companion.games.binaryon.words import line_effect, move_words

_SIZE_OPTION = next(o for o in OPTIONS if o.name == "size")
LIT: RGB = (160, 140, 100)
DARK: RGB = (0, 0, 0)


def _state(state: GameState) -> BinaryonState:
    if not isinstance(state, BinaryonState):
        raise TypeError(f"not a Binaryon state: {type(state).__name__}")
    return state


def _path(line: Sequence[int], n: int) -> str:
    return "-".join(line_names(line, n))


class BinaryonSpec(GameSpec):
    name: ClassVar[str] = "binaryon"
    title: ClassVar[str] = "BINARYON"
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    sensor_kinds: ClassVar[tuple[str, ...]] = ("switch", "polarity")
    hint_steps: ClassVar[int] = 2  # the mover's moves, then their best line
    position_movers: ClassVar[tuple[str, ...]] = ("on", "off")
    clock_default: ClassVar[str] = "5:00+3"  # docs/rules/binaryon.md, "Time"

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return PLAYERS  # the same whatever the options: no rules tables built to ask

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve(given)

    def new(self, **options: Any) -> BinaryonState:
        return BinaryonState._start(options)  # its tables check the options (cached)

    def view(self, state: GameState, viewer: str | None = None) -> View:
        """Binaryon has no secrets: every viewer sees the same."""
        st = _state(state)
        sc = st.score()
        on = f"ON: {sc.bits(sc.on_best)} on {_path(sc.on_line, st.n)}"
        off = f"OFF: {sc.bits(sc.off_best)} on {_path(sc.off_line, st.n)}"
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
        return BinaryonInput(kind)

    # --- the engines ---
    def engine(self) -> BinaryonAdapter:
        return BinaryonAdapter()

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        return effect(_state(before), _state(after))

    def line_effect(self, before: GameState, end: GameState) -> list[str]:
        return line_effect(_state(before), _state(end))

    def move_words(self, before: GameState, move: Move) -> str:
        return move_words(_state(before), move)

    def position_state(self, text: str, mover: str, last: str | None = None) -> BinaryonState:
        """``last``: the square turned last (None: the opening move is to be made)."""
        n, cells = parse_position(text)
        last_sq = None if last is None else parse_square(last, n)
        return BinaryonState.from_cells(cells, n, mover, last_sq)

    def legal_position(
        self,
        text: str,
        mover: str,
        options: Mapping[str, Any] | None = None,
        last: str | None = None,
    ) -> dict[str, list[str]]:
        """The squares ``mover`` may turn; the size comes from the text (a given size must
        match it), ``last`` None: the opening move."""
        options = options or {}
        n, cells = parse_position(text)
        if "size" in options and resolve({"size": options["size"]})["size"] != n:
            raise ValueError(f"position is {n}x{n} but size is {options['size']}")
        resolved = resolve({**options, "size": n})
        try:
            last_sq = None if last is None else parse_square(last, n)
        except ValueError as exc:
            raise ValueError(f"--last {exc}") from None
        moves = legal_squares(cells, n, mover, last_sq, resolved)
        return {"moves": [square_name(s, n) for s in moves]}

    def describe_legal(self, result: dict[str, list[str]], mover: str) -> str:
        if result["moves"]:
            return " ".join(result["moves"])
        return f"{mover.upper()} has no legal move: pass"

    # --- scoring a position given as text (the `score` command) ---
    def _score_text(self, text: str, options: Mapping[str, Any]) -> tuple[list[str], int, Score]:
        """Parse and score. ``options`` are the ones the user gave; the size comes from the text
        (a given size must match it). Raises ValueError with a one-line reason."""
        n, cells = parse_position(text)
        given = {k: v for k, v in options.items() if v is not None}
        if "size" in given:
            size = _SIZE_OPTION.parse(given["size"])
            if size != n:
                raise ValueError(f"position is {n}x{n} but size is {size}")
        given["size"] = n
        r = rules(self.resolve(given))
        return cells, n, score_bitboard(cells_to_white(cells, n), r)

    def score_position(self, text: str, options: Mapping[str, Any]) -> dict[str, Any]:
        _, n, sc = self._score_text(text, options)
        return {
            "game": self.name,
            "on": {"best": sc.bits(sc.on_best), "line": line_names(sc.on_line, n)},
            "off": {"best": sc.bits(sc.off_best), "line": line_names(sc.off_line, n)},
            "winner": sc.winner or "draw",
        }

    def describe_score(self, text: str, options: Mapping[str, Any]) -> str:
        cells, n, sc = self._score_text(text, options)
        out = [format_position(cells, n).rstrip("\n"), ""]
        out.append(f"ON  best {sc.bits(sc.on_best)} on {_path(sc.on_line, n)}")
        out.append(f"OFF best {sc.bits(sc.off_best)} on {_path(sc.off_line, n)}")
        if sc.tied:
            rem = sc.remaining()
            if rem is None:
                out.append("Every number cancels: draw")
            else:
                out.append(f"Tie at {sc.bits(sc.on_best)}: identical numbers cancel")
                for p in ("on", "off"):
                    v, line = rem[p]
                    label = p.upper().ljust(3)
                    out.append(f"{label} largest left {sc.bits(v)} on {_path(line, n)}")
        if sc.winner:
            out.append(f"{sc.winner.upper()} wins")
        return "\n".join(out) + "\n"


SPEC = BinaryonSpec()
