"""Hosting Binary: the OLED panel, the LEDs, board readings -> moves, and scoring a position."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from companion.core.position_text import parse_position
from companion.core.squares import FILES, square_name
from companion.games.base import RGB, Action, Differ, GameSpec, Panel, PanelRow, Play, Refusal
from companion.games.binary.engine import (
    BLACK,
    EMPTY,
    END,
    OPTIONS,
    PASS,
    PIECE,
    PLAYERS,
    WHITE,
    BinaryState,
    compare,
    new_game,
    other,
    score_cells,
    square_owner,
)

OLED_WIDTH = 21  # characters per OLED line

PIECE_RGB: dict[str, RGB] = {BLACK: (0, 70, 255), WHITE: (255, 190, 110)}
TERRITORY_RGB: dict[str, RGB] = {BLACK: (0, 20, 90), WHITE: (110, 70, 20)}
OFF: RGB = (0, 0, 0)
LIGHT_EMPTY: RGB = (6, 6, 6)  # light squares glow faintly so a plain board shows the checkers

MID_TURN = "2nd piece or confirm"  # the note while the mover may add a piece or end the turn

# Reading values: switch/presence "1"/"0", polarity "x"/"o"/".". "?" = a piece, colour unknown.
_READING = {"1": "?", "0": EMPTY, "x": "x", "o": "o", ".": EMPTY}


def _fit(prefix: str, names: Sequence[str], width: int = OLED_WIDTH) -> str:
    """``prefix`` and as many square names as fit, then ``+k`` for the rest."""
    text = prefix
    for k, name in enumerate(names):
        rest = len(names) - k - 1
        tail = f" +{rest}" if rest else ""
        if len(text) + 1 + len(name) + len(tail) > width and k:
            return f"{text} +{len(names) - k}"
        text += f" {name}"
    return text


def _sizes(sizes: Sequence[int], room: int) -> str:
    """Territory sizes as '5,3,2', cut to ``room`` characters with a trailing '+'."""
    text = ",".join(str(s) for s in sizes) or "-"
    if len(text) <= room:
        return text
    cut = text[: room - 1].rsplit(",", 1)[0]
    return f"{cut}+"


class BinarySpec(GameSpec):
    name = "binary"
    title = "BINARY"
    options = OPTIONS
    sensor_kinds = ("switch", "presence", "polarity")

    def new(self, **options: Any) -> BinaryState:
        return new_game(**options)

    def board_size(self, options: dict[str, Any]) -> int | None:
        return int(options.get("size", 8))

    # ----------------------------------------------------------------- display
    def panel(self, state: BinaryState) -> Panel:  # type: ignore[override]
        result = state.score()
        rows = tuple(PanelRow(p.upper(), f"{result[p]['score']}", state.turn == p) for p in PLAYERS)
        return Panel(self.title, state.ply, rows, self._note(state, result))

    def _note(self, state: BinaryState, result: dict[str, dict[str, Any]]) -> str:
        if state.placed:
            return MID_TURN
        b, w = result[BLACK]["territories"], result[WHITE]["territories"]
        note = f"B {_sizes(b, 8)} W {_sizes(w, 8)}"
        hands = f" hand {state.hand(BLACK)}/{state.hand(WHITE)}"
        if not state.is_over() and len(note) + len(hands) <= OLED_WIDTH:
            note += hands
        return note

    def leds(self, state: BinaryState) -> list[RGB]:  # type: ignore[override]
        out: list[RGB] = []
        for i, cell in enumerate(state.cells):
            if cell == EMPTY:
                out.append(OFF if square_owner(i, state.n) == BLACK else LIGHT_EMPTY)
            else:
                out.append(PIECE_RGB[BLACK if cell == "x" else WHITE])
        return out

    def territory_leds(self, state: BinaryState, player: str | None = None) -> list[RGB]:
        """Each player's territories in that player's colour (both players when None)."""
        result = state.score()
        out = [OFF] * (state.n * state.n)
        for p in PLAYERS if player is None else (player,):
            for terr in result[p]["squares"]:
                for i in terr:
                    out[i] = TERRITORY_RGB[p]
        return out

    def hint(self, state: BinaryState, step: int) -> tuple[tuple[int, ...], str]:  # type: ignore[override]
        """Menu presses cycle: the mover's territories, the opponent's, where the mover may
        place (after the game: Black's and White's territories)."""
        if state.turn is None:
            order, cycle = PLAYERS, 2
        else:
            order, cycle = (state.turn, other(state.turn)), 3
        k = step % cycle
        if k == 2:
            who = order[0].upper()
            squares = tuple(m for m in state.legal_moves() if isinstance(m, int))
            return squares, (f"{who}: {len(squares)} squares" if squares else f"{who} must pass")
        player = order[k]
        result = state.score()[player]
        squares = tuple(sorted({i for terr in result["squares"] for i in terr}))
        label = f"{player.upper()} terr "
        return squares, label + _sizes(result["territories"], OLED_WIDTH - len(label))

    def hint_colour(self, state: BinaryState, step: int) -> RGB | None:  # type: ignore[override]
        """Territories light up in their player's colour; playable squares in the usual one."""
        order = PLAYERS if state.turn is None else (state.turn, other(state.turn))
        k = step % (2 if state.turn is None else 3)
        return None if k == 2 else TERRITORY_RGB[order[k]]

    def expected_readings(self, state: BinaryState, kind: str) -> list[str]:  # type: ignore[override]
        """What a board of ``kind`` reads when it matches ``state``."""
        if kind == "polarity":
            return list(state.cells)
        if kind == "presence":
            return ["0" if c == EMPTY else "1" for c in state.cells]
        return ["0"] * len(state.cells)  # switches read released

    def highlight(self, state: BinaryState) -> tuple[int, ...]:  # type: ignore[override]
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return ()
        squares = state.score()[outcome.winner]["squares"]
        return tuple(sorted({i for terr in squares for i in terr}))

    # ----------------------------------------------------------------- readings
    def on_press(self, state: BinaryState, square: int) -> Action:  # type: ignore[override]
        if not 0 <= square < state.n * state.n:
            return None
        return Play(square)

    def on_button(self, state: BinaryState, button: str) -> Action:  # type: ignore[override]
        if button != "confirm":
            return None
        for move in (END, PASS):
            if state.check(move) is None:
                return Play(move)
        return None

    def on_board(self, state: BinaryState, readings: Sequence[str]) -> Action:  # type: ignore[override]
        """Compare a settled board (presence '1'/'0' or polarity 'x'/'o'/'.') with the game."""
        n = state.n
        if len(readings) != n * n:
            return Differ((), f"board has {len(readings)} squares, not {n * n}")
        seen = [_READING.get(v) for v in readings]
        bad = [i for i, v in enumerate(seen) if v is None]
        if bad:
            return Differ(tuple(bad), f"{square_name(bad[0], n)}: bad reading")
        cells = state.cells
        missing = [i for i in range(n * n) if cells[i] != EMPTY and seen[i] == EMPTY]
        if missing:
            return Differ(tuple(missing), _fit("put back", [square_name(i, n) for i in missing]))
        flipped = [
            i for i in range(n * n) if cells[i] != EMPTY and seen[i] in "xo" and seen[i] != cells[i]
        ]
        if flipped:
            return Differ(tuple(flipped), f"{square_name(flipped[0], n)}: wrong colour")
        new = [i for i in range(n * n) if cells[i] == EMPTY and seen[i] != EMPTY]
        if not new:
            return None
        names = [square_name(i, n) for i in new]
        if state.turn is None:
            return Differ(tuple(new), _fit("remove", names))
        mine = PIECE[state.turn]
        theirs = [i for i in new if seen[i] in "xo" and seen[i] != mine]
        if theirs:
            if len(theirs) == len(new) and self._ends_turn_to_other(state):
                return Play(END)  # the opponent placed: the mover's turn is over
            return Differ(tuple(theirs), f"{square_name(theirs[0], n)}: wrong colour")
        if len(new) == 1:
            return Play(new[0])  # the engine accepts or refuses it
        order, refusal = self._order(state, new)
        if order is not None:
            return Play(order[0])
        assert refusal is not None
        return Differ(tuple(new), refusal.reason)

    @staticmethod
    def _ends_turn_to_other(state: BinaryState) -> bool:
        if state.check(END) is not None:
            return False
        return state.play(END).turn not in (None, state.turn)

    @staticmethod
    def _order(state: BinaryState, new: list[int]) -> tuple[tuple[int, ...] | None, Refusal | None]:
        """An order in which the mover can place all ``new`` pieces within this turn, or the
        refusal met by the attempt that got furthest."""
        best: tuple[int, Refusal] | None = None
        if len(new) > 2:
            return None, Refusal("too-many", f"{len(new)} new pieces, max 2")
        for order in permutations(new):
            s, ok = state, 0
            refusal: Refusal | None = None
            for sq in order:
                if s.turn != state.turn:
                    refusal = Refusal("turn-over", f"{square_name(sq, s.n)}: turn is over")
                    break
                refusal = s.check(sq)
                if refusal is not None:
                    break
                s, ok = s.play(sq), ok + 1
            if refusal is None:
                return order, None
            if best is None or ok > best[0]:
                best = (ok, refusal)
        assert best is not None
        return None, best[1]

    # ----------------------------------------------------------------- scoring a position
    def _scoring(self, text: str, options: Mapping[str, Any] | None) -> tuple[int, list[str], Any]:
        given = dict(options or {})
        opts = self.resolve(given)
        # the text sets the size; a size given on purpose must agree with it
        n, cells = parse_position(text, opts["size"] if "size" in given else None)
        return n, cells, score_cells(cells, n, opts)

    def score_position(self, text: str, options: Mapping[str, Any] | None = None) -> dict:
        """Score a position text: {"game", "black", "white", "winner"} (see the CLI)."""
        _, _, result = self._scoring(text, options)
        winner, _ = compare(result[BLACK]["territories"], result[WHITE]["territories"])
        out: dict[str, Any] = {"game": self.name}
        for p in PLAYERS:
            out[p] = {"score": result[p]["score"], "territories": list(result[p]["territories"])}
        out["winner"] = winner or "draw"
        return out

    def describe_score(self, text: str, options: Mapping[str, Any] | None = None) -> str:
        """The position beside a map of the territories (Black A, B, ..; White a, b, ..),
        then each player's score and the result with its tie-break."""
        n, cells, result = self._scoring(text, options)
        marks: list[list[str]] = [[] for _ in range(n * n)]
        for p, letters in (
            (BLACK, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            (WHITE, "abcdefghijklmnopqrstuvwxyz"),
        ):
            for k, terr in enumerate(result[p]["squares"]):
                for i in terr:
                    marks[i].append(letters[k] if k < len(letters) else "#")
        shared = any(len(m) > 1 for m in marks)
        lines = [f"   {'position':<{2 * n + 1}}territories"]
        for rank in range(n - 1, -1, -1):
            row = range(rank * n, rank * n + n)
            left = " ".join(cells[i] for i in row)
            right = " ".join(
                (marks[i][0] if len(marks[i]) == 1 else "+") if marks[i] else cells[i] for i in row
            )
            lines.append(f"{rank + 1:>2} {left}  {right}")
        files = " ".join(FILES[:n])
        lines.append(f"   {files}  {files}")
        if shared:
            lines.append("+ = empty square counted in two or more territories")
        for p, letters in (
            (BLACK, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            (WHITE, "abcdefghijklmnopqrstuvwxyz"),
        ):
            sizes = result[p]["territories"]
            parts = [f"{letters[k] if k < 26 else '#'}={s}" for k, s in enumerate(sizes)]
            formula = f" = 2x{sizes[0]}" + "".join(f" + {s}" for s in sizes[1:]) if sizes else ""
            lines.append(f"{p.upper()} {result[p]['score']}{formula}: {' '.join(parts) or 'none'}")
        winner, tie_break = compare(result[BLACK]["territories"], result[WHITE]["territories"])
        scores = f"{result[BLACK]['score']}-{result[WHITE]['score']}"
        lines.append("draw " + scores if winner is None else f"{winner.upper()} wins {scores}")
        if tie_break:
            lines.append(tie_break)
        return "\n".join(lines) + "\n"


SPEC = BinarySpec()
