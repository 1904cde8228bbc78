"""Binaryon's positions for the command line: a diagram scored (`binaryon score`), the squares
a player may turn in it (`legal`), and the position as a state for the engine (`bestmove`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.core.position_text import format_position, parse_position
from companion.core.squares import parse_square, square_name
from companion.games.binaryon.board import cells_to_white
from companion.games.binaryon.engine import BinaryonState, legal_squares
from companion.games.binaryon.options import OPTIONS, resolve
from companion.games.binaryon.scoring import Score, line_names, score_bitboard
from companion.games.binaryon.tables import rules
from companion.games.positions import Positions

_SIZE_OPTION = next(o for o in OPTIONS if o.name == "size")


def line_path(line: Sequence[int], n: int) -> str:
    """A line as its squares joined: ``a1-b2-c3``."""
    return "-".join(line_names(line, n))


class BinaryonPositions(Positions):
    movers: ClassVar[tuple[str, ...]] = ("on", "off")

    def state(self, text: str, mover: str, last: str | None = None) -> BinaryonState:
        """``last``: the square turned last (None: the opening move is to be made)."""
        n, cells = parse_position(text)
        last_sq = None if last is None else parse_square(last, n)
        return BinaryonState.from_cells(cells, n, mover, last_sq)

    def legal(
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

    def scored(self, text: str, options: Mapping[str, Any]) -> tuple[list[str], int, Score]:
        """Parse and score. ``options`` are the ones the user gave; the size comes from the text
        (a given size must match it). Raises ValueError with a one-line reason."""
        n, cells = parse_position(text)
        given = {k: v for k, v in options.items() if v is not None}
        if "size" in given:
            size = _SIZE_OPTION.parse(given["size"])
            if size != n:
                raise ValueError(f"position is {n}x{n} but size is {size}")
        given["size"] = n
        r = rules(resolve(given))
        return cells, n, score_bitboard(cells_to_white(cells, n), r)

    def score(self, text: str, options: Mapping[str, Any]) -> dict[str, Any]:
        _, n, sc = self.scored(text, options)
        return {
            "game": self.spec.name,
            "on": {"best": sc.bits(sc.on_best), "line": line_names(sc.on_line, n)},
            "off": {"best": sc.bits(sc.off_best), "line": line_names(sc.off_line, n)},
            "winner": sc.winner or "draw",
        }

    def describe_score(self, text: str, options: Mapping[str, Any]) -> str:
        cells, n, sc = self.scored(text, options)
        out = [format_position(cells, n).rstrip("\n"), ""]
        out.append(f"ON  best {sc.bits(sc.on_best)} on {line_path(sc.on_line, n)}")
        out.append(f"OFF best {sc.bits(sc.off_best)} on {line_path(sc.off_line, n)}")
        if sc.tied:
            rem = sc.remaining()
            if rem is None:
                out.append("Every number cancels: draw")
            else:
                out.append(f"Tie at {sc.bits(sc.on_best)}: identical numbers cancel")
                for p in ("on", "off"):
                    v, line = rem[p]
                    label = p.upper().ljust(3)
                    out.append(f"{label} largest left {sc.bits(v)} on {line_path(line, n)}")
        if sc.winner:
            out.append(f"{sc.winner.upper()} wins")
        return "\n".join(out) + "\n"
