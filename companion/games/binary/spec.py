"""Hosting Binary: the OLED panel, the LEDs, board readings -> moves, and scoring a position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.base import ClockRules, GameSpec, GameState, Move, Outcome
from companion.games.binary.board import (
    BLACK,
    EMPTY,
    OLED_WIDTH,
    PLAYERS,
    WHITE,
    other,
    square_owner,
)
from companion.games.binary.options import OPTIONS

if TYPE_CHECKING:
    from companion.games.binary.adapter import BinaryAdapter
    from companion.games.binary.engine import BinaryState
    from companion.games.binary.positions import BinaryPositions
    from companion.games.interpreter import Interpreter
    from companion.games.view import RGB, Cell, Hint, Panel, View

# The views are imported by the methods that draw (companion/games/view.py): `score` draws
# nothing. The engine, the positions' text and the territories are imported by the methods
# that play, read or draw a position: `history` and `export` only ask the players and options.

PIECE_RGB: dict[str, RGB] = {BLACK: (0, 70, 255), WHITE: (255, 190, 110)}
TERRITORY_RGB: dict[str, RGB] = {BLACK: (0, 20, 90), WHITE: (110, 70, 20)}
OFF: RGB = (0, 0, 0)
LIGHT_EMPTY: RGB = (6, 6, 6)  # light squares glow faintly so a plain board shows the checkers

HINT_WIDTH = 2 * OLED_WIDTH - 2  # a hint is a message: two OLED lines (one break, kept safe)
MID_TURN = "2nd piece or confirm"  # the note while the mover may add a piece or end the turn


# The usual contents of a square, each drawn with one shared Cell (``_cell_of``)
_USUAL = frozenset(("x", "o", EMPTY))
# A piece's LED colour (an empty square's depends on the square: _empty_leds)
_PIECE_LED = {"x": PIECE_RGB[BLACK], "o": PIECE_RGB[WHITE]}


@cache
def _cell_of() -> dict[str, Cell]:
    """One shared Cell per kind of square (Cells are frozen): a view builds no Cell per
    square."""
    from companion.games.view import Cell

    return {"x": Cell(piece="x"), "o": Cell(piece="o"), EMPTY: Cell(piece="")}


def _cells(cells: Sequence[str]) -> tuple[Cell, ...]:
    shared = _cell_of()
    try:
        return tuple(map(shared.__getitem__, cells))
    except KeyError:  # a cell that is none of x, o and .
        from companion.games.view import Cell

        return tuple(shared.get(c) or Cell(piece=c) for c in cells)


@cache
def _empty_leds(n: int) -> tuple[RGB, ...]:
    """Each square's LED colour while it is empty (dark squares off, light ones faint)."""
    return tuple(OFF if square_owner(i, n) == BLACK else LIGHT_EMPTY for i in range(n * n))


def _sizes_of(state: BinaryState) -> tuple[list[int], list[int]]:
    """Black's and White's territory sizes, largest first (what the panel and the view show:
    no squares needed)."""
    from companion.games.binary.territories import territory_sizes

    return territory_sizes(state.cells, state.n, state.empty_joins)


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"


def _sizes(sizes: Sequence[int], room: int) -> str:
    """Territory sizes as '5,3,2' ('none'), cut to ``room`` characters with a trailing '+'."""
    text = ",".join(map(str, sizes)) or "none"
    if len(text) <= room:
        return text
    cut = text[: room - 1].rsplit(",", 1)[0]
    return f"{cut}+"


class BinaryClock(ClockRules):
    default: ClassVar[str] = "10:00+5"  # docs/rules/binary.md, "Time"

    def on_time(self, state: GameState, flagged: str) -> Outcome:
        """The opponent wins, unless they have no pieces left to place (they can no longer
        change the board): then the board is scored as it stands (docs/rules/binary.md)."""
        st: BinaryState = state  # type: ignore[assignment]
        if st.hand(other(flagged)) > 0:
            return super().on_time(state, flagged)
        scored = replace(st, mover=None, placed=(), end_reason=f"{flagged}'s time ran out")
        outcome = scored.outcome()
        assert outcome is not None
        return Outcome(
            outcome.winners,
            f"{outcome.summary} on time",
            {**outcome.detail, "on_time": flagged},
            f"{flagged.upper()}'s time ran out: board scored",
            "time",
        )


class BinarySpec(GameSpec):
    name = "binary"
    title = "BINARY"
    paired_moves = False  # a turn: one piece or two
    options = OPTIONS
    sensor_kinds = ("switch", "presence", "polarity")
    hint_steps = 3  # the mover's territories, the opponent's, where the mover may place

    def clock_rules(self) -> BinaryClock:
        return BinaryClock(self)

    def positions(self) -> BinaryPositions:
        from companion.games.binary.positions import BinaryPositions

        return BinaryPositions(self)

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return PLAYERS  # the same whatever the options: no game made to ask

    def new(self, **options: Any) -> BinaryState:
        from companion.games.binary.engine import new_game

        return new_game(**options)

    def view(self, state: GameState, viewer: str | None = None) -> View:
        """Binary has no secrets: every viewer sees the same."""
        from companion.games.binary.engine import END, PASS
        from companion.games.binary.territories import compare, score_of
        from companion.games.view import View

        st: BinaryState = state  # type: ignore[assignment]
        sizes = _sizes_of(st)
        scores = (score_of(sizes[0]), score_of(sizes[1]))
        explanation = []
        for p, terrs, score in zip(PLAYERS, sizes, scores, strict=True):
            formula = " = 2x" + " + ".join(map(str, terrs)) if terrs else ""  # 2x5 + 3 + 2
            explanation.append(f"{p.upper()} {score}{formula}")
        winner, tie_break = compare(*sizes, scores)
        if tie_break:
            explanation.append(tie_break)
        elif winner:
            explanation.append(f"{winner.upper()} {'wins' if st.is_over() else 'leads'}")
        explanation.append(f"in hand: black {st.hand(BLACK)}, white {st.hand(WHITE)}")
        actions: tuple[tuple[str, str], ...] = ()  # none once over (check: "game is over")
        if not st.is_over():
            actions = tuple((m.name, m.name) for m in (END, PASS) if st.check(m) is None)
        return View(
            panel=self._panel(st, sizes, scores),
            cells=_cells(st.cells),
            leds=tuple(self.leds(st)),
            explanation=tuple(explanation),
            actions=actions,
        )

    # ----------------------------------------------------------------- display
    def panel(self, state: BinaryState) -> Panel:  # type: ignore[override]
        from companion.games.binary.territories import score_of

        sizes = _sizes_of(state)
        return self._panel(state, sizes, (score_of(sizes[0]), score_of(sizes[1])))

    def _panel(
        self, state: BinaryState, sizes: tuple[list[int], list[int]], scores: tuple[int, int]
    ) -> Panel:
        from companion.games.view import Panel, PanelRow

        turn = state.turn
        rows = (
            PanelRow("BLACK", str(scores[0]), turn == BLACK),
            PanelRow("WHITE", str(scores[1]), turn == WHITE),
        )
        return Panel(self.title, state.ply, rows, self._note(state, sizes))

    def _note(self, state: BinaryState, sizes: tuple[list[int], list[int]]) -> str:
        """The pieces in hand while the game goes on ('in hand B16 W16'; the scores above come
        from the territories, which the menu hints show), then each player's territory sizes
        at the end ("territories B 5,3 W 2", shortened to fit)."""
        if state.placed:
            return MID_TURN
        b, w = sizes
        if state.is_over():
            both = f"B {_sizes(b, 99)} W {_sizes(w, 99)}"
            for text in (f"territories {both}", both):
                if len(text) <= OLED_WIDTH:
                    return text
            return f"B {_sizes(b, 8)} W {_sizes(w, 8)}"
        return f"in hand B{state.hand(BLACK)} W{state.hand(WHITE)}"

    def leds(self, state: BinaryState) -> list[RGB]:  # type: ignore[override]
        cells, empty = state.cells, _empty_leds(state.n)
        if set(cells) <= _USUAL:  # the usual x, o and .: one dict look-up a square
            return list(map(_PIECE_LED.get, cells, empty))
        black, white = PIECE_RGB[BLACK], PIECE_RGB[WHITE]
        return [
            empty[i] if c == EMPTY else black if c == "x" else white for i, c in enumerate(cells)
        ]

    def hint(self, state: BinaryState, step: int) -> Hint:  # type: ignore[override]
        """Menu presses cycle: the mover's territories, the opponent's, where the mover may
        place (after the game: Black's and White's territories)."""
        from companion.games.view import Hint

        if state.turn is None:
            order, cycle = PLAYERS, 2
        else:
            order, cycle = (state.turn, other(state.turn)), 3
        k = step % cycle
        if k == 2:
            who = order[0].upper()
            squares = tuple(c for m in state.legal_moves() for c in m.cells)
            if not squares:
                return Hint((), f"{who} must pass")
            return Hint(squares, f"{who} can place on {_count(len(squares), 'square')}")
        player = order[k]
        result = state.score()[player]
        squares = tuple(sorted({i for terr in result["squares"] for i in terr}))
        if not squares:
            return Hint((), f"{player.upper()} has no territory")
        sizes = result["territories"]
        label = f"{player.upper()} {'territory' if len(sizes) == 1 else 'territories'} "
        text = label + _sizes(sizes, HINT_WIDTH - len(label))
        return Hint(squares, text, TERRITORY_RGB[player])

    def highlight(self, state: BinaryState) -> tuple[int, ...]:  # type: ignore[override]
        from companion.games.binary.territories import compare

        if not state.is_over():
            return ()
        result = state.score()  # once: the outcome's winner, without its wording
        winner, _ = compare(result[BLACK]["territories"], result[WHITE]["territories"])
        if winner is None:
            return ()
        return tuple(sorted({i for terr in result[winner]["squares"] for i in terr}))

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.binary.input import BinaryInput

        return BinaryInput(kind)

    # ----------------------------------------------------------------- the engines
    # (the adapter and the words are imported when first asked for: `score` needs neither)
    def engine(self) -> BinaryAdapter:
        from companion.games.binary.adapter import BinaryAdapter

        return BinaryAdapter()

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        from companion.games.binary.adapter import effect

        return effect(before, after)  # type: ignore[arg-type]

    def line_effect(self, before: GameState, end: GameState) -> list[str]:
        from companion.games.binary.words import line_effect

        return line_effect(before, end)  # type: ignore[arg-type]

    def move_words(self, before: GameState, move: Move) -> str:
        from companion.games.binary.words import move_words

        return move_words(before, move)  # type: ignore[arg-type]

    def spoken(self, before: GameState, move: Move, after: GameState) -> str:
        """The voice: "black places c2" (a pass and the end in the voice's plain words)."""
        player = before.actor(move)
        if move.is_pass or not move.cells or player is None or after.is_over():
            return ""
        return f"{player} places {move.name}."


SPEC = BinarySpec()
