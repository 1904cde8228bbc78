"""Binary's positions for the command line: a diagram scored with its territories (`binaryon
score`), and the position as a state for the engine (`bestmove`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.core.position_text import parse_position
from companion.core.squares import FILES
from companion.games.binary.board import BLACK, PLAYERS, WHITE
from companion.games.binary.engine import BinaryState
from companion.games.binary.territories import compare, score_cells
from companion.games.positions import Positions


class BinaryPositions(Positions):
    movers: ClassVar[tuple[str, ...]] = PLAYERS

    def state(self, text: str, mover: str, last: str | None = None) -> BinaryState:
        """The mover is at the start of a turn; hands are what the board leaves."""
        n, cells = parse_position(text)
        if last is not None:
            raise ValueError("--last is for binaryon only")
        return BinaryState.from_position(cells, n, mover)

    # ----------------------------------------------------------------- scoring a position
    def scored(self, text: str, options: Mapping[str, Any] | None) -> tuple[int, list[str], Any]:
        given = dict(options or {})
        opts = self.spec.resolve(given)
        # the text sets the size; a size given on purpose must agree with it
        n, cells = parse_position(text, opts["size"] if "size" in given else None)
        return n, cells, score_cells(cells, n, opts)

    def score(self, text: str, options: Mapping[str, Any] | None = None) -> dict:
        """Score a position text: {"game", "black", "white", "winner"} (see the CLI)."""
        _, _, result = self.scored(text, options)
        winner, _ = compare(result[BLACK]["territories"], result[WHITE]["territories"])
        out: dict[str, Any] = {"game": self.spec.name}
        for p in PLAYERS:
            out[p] = {"score": result[p]["score"], "territories": list(result[p]["territories"])}
        out["winner"] = winner or "draw"
        return out

    def describe_score(self, text: str, options: Mapping[str, Any] | None = None) -> str:
        """The position beside a map of the territories (Black A, B, ..; White a, b, ..),
        then each player's score and the result with its tie-break."""
        n, cells, result = self.scored(text, options)
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
        if winner == WHITE:  # the winner's score first
            scores = f"{result[WHITE]['score']}-{result[BLACK]['score']}"
        lines.append("draw " + scores if winner is None else f"{winner.upper()} wins {scores}")
        if tie_break:
            lines.append(tie_break)
        return "\n".join(lines) + "\n"
